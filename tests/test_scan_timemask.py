"""Lines that differ only by their time share a shape (scan/timemask.py): the hits are those of
each line decided alone, whatever the time touches."""

from __future__ import annotations

import random

import pytest

from sphinx_llmstatus.registry import default_registry
from sphinx_llmstatus.registry.loader import load_registry
from sphinx_llmstatus.scan import scan_text
from sphinx_llmstatus.scan.engine import scanner
from sphinx_llmstatus.scan.prefilter import available
from sphinx_llmstatus.scan.timemask import TimeMask, spells_digit


def _time(rnd: random.Random, form: str) -> str:
    y, mo, d, h, mi, s, ms, us = (rnd.choice([2025, 2026]), rnd.randint(1, 12), rnd.randint(1, 28),
                                  rnd.randint(0, 23), rnd.randint(0, 59), rnd.randint(0, 59),
                                  rnd.randint(0, 999), rnd.randint(0, 999))
    return {"plog": f"{y}-{mo:02d}-{d:02d}-{h:02d}:{mi:02d}:{s:02d}.{ms:03d}.{us:03d}",
            "python": f"{y}-{mo:02d}-{d:02d} {h:02d}:{mi:02d}:{s:02d},{ms:03d}",
            "iso": f"{y}-{mo:02d}-{d:02d}T{h:02d}:{mi:02d}:{s:02d}.{ms:03d}{us:03d}",
            "vllm": f"ERROR {mo:02d}-{d:02d} {h:02d}:{mi:02d}:{s:02d} ["}[form]


# Each a line of a retry loop ({t}: its time): times next to codes, symptoms with digits, a
# shared number with and without context, a process name of digits, a colour, an HCCL trace.
LINES = [
    ("plog", "[ERROR] LLMDATADIST({p},python):{t} [llm_datadist.cc:{n}] LinkLlmClusters failed, ret = 1343270921"),
    ("plog", "[ERROR] GE({p},python):{t} [kv.cc:{n}] PullKvCache: ErrorNo: 4294967295(failed)"),
    ("plog", "[ERROR] GE({p},python):{t} [hccl.cc:{n}] ret = ffffffff"),
    ("plog", "[ERROR] GE({p},1-2-3):{t} [hixl_engine.cc:120][HIXL] 78 Connect: ErrorNo: 4294967295"),
    ("plog", "[ERROR] HCCL({p},python):{t} [x.cc:1][HcclCommInitRootInfo]call trace: hcclRet -> 7"),
    ("plog", "ret={t} 5010b002"),
    ("plog", "status:{t} ErrorNo: 507053"),
    ("plog", "{t} errno:111 error msg:Connection refused, errno:111"),
    ("plog", "LLM_TIMEOUT {t} LLM_LINK_FAILED"),
    ("plog", "x\x1b[31m{t}\x1b[0m ret = 1343270921"),
    ("python", "{t} ERROR llm_datadist.status.LLMException: [link] failed, error code is LLMStatusCode.LLM_LINK_FAILED"),
    ("python", "{t} hcclRet -> 7 call trace"),
    ("python", "clusters size must > 0,{t} ret = 1343270917"),
    ("python", "[{t}] [{p}] [{n}] [llm] [ERROR] [text_generator.py-88] : pull kv failed, ret = 5010b009"),
    ("iso", "[{t}] link failed ErrorNo: 4294967295"),
    ("iso", "remote_ip={t} 1343270921 cluster_id:1343271024"),
    ("vllm", "(VllmWorker rank=0 pid={p}) {t}llmdatadist_c_mgr_connector.py:612] pull failed ret = 1343270921"),
    ("vllm", "(VllmWorker rank=0 pid={p}) {t}x.py:1] Timeout during pull_blocks"),
]


def _log(seed: int, lines: int) -> str:
    rnd = random.Random(seed)
    out = []
    for n in range(lines):
        form, template = LINES[rnd.randrange(len(LINES))] if n % 3 else LINES[n // 3 % len(LINES)]
        out.append(template.format(t=_time(rnd, form), p=rnd.choice([7, 1234]), n=rnd.choice([1, 88])))
    return "\n".join(out) + "\n"


@pytest.mark.parametrize("engine", available())
@pytest.mark.parametrize("seed", range(3))
def test_a_time_changes_no_hit(engine, seed, monkeypatch):
    text = _log(seed, 1500)
    times = scanner(default_registry(), engine).times
    assert times.on
    shared = list(scan_text(text, engine=engine))
    monkeypatch.setattr(times, "on", False)  # every line decided by itself
    alone = list(scan_text(text, engine=engine))
    assert shared == alone
    assert len(alone) > 1000


def test_a_loop_of_lines_shares_its_shape():
    text = "".join(LINES[0][1].format(t=_time(random.Random(n), "plog"), p=7, n=1) + "\n" for n in range(50))
    hits = list(scan_text(text))
    assert len({h.line for h in hits}) == 50  # each hit holds its own line
    assert all(h.line[h.start:h.end] == "1343270921" for h in hits)


def test_a_shape_is_checked_when_a_second_line_shares_its_key(monkeypatch):
    """Whether lines keyed alike share a shape is asked once, by the second: a line no other
    repeats (most of a log's) costs no check."""
    from sphinx_llmstatus.scan import engine

    checked = []
    real = engine._Shape.timeless
    monkeypatch.setattr(engine._Shape, "timeless", lambda self, *a: checked.append(self.text) or real(self, *a))
    line = LINES[0][1]
    unique = "".join(line.format(t=_time(random.Random(n), "plog"), p=7, n=n) + "\n" for n in range(100, 150))
    assert len(list(scan_text(unique))) == 50 and not checked
    loop = "".join(line.format(t=_time(random.Random(n), "plog"), p=7, n=1) + "\n" for n in range(50))
    assert len(list(scan_text(loop))) == 50 and len(checked) == 1


def test_what_keeps_a_line_from_its_time_shape():
    mask = TimeMask([r"(?P<year>20\d{2})-(?P<month>\d{2})"], [r"\[(?P<pid>\d{1,10})\]"], ["on 2026-11!", "errno:111"])
    assert mask.keyed(b"at 2025-11 ret") == (b"at 0000-00 ret", (3, 10))
    assert mask.keyed(b"at x2025-11 ret") is None  # a time within a word
    assert mask.keyed(b"at 2025-11\xc3\xa9") is None  # not ASCII
    assert mask.keyed(b"on 2025-12! x") == (b"on 0000-00! x", (3, 10))
    assert not mask.free(b"on 0000-00! x", (3, 10))  # another time would spell a literal
    assert mask.free(b"errno:111 at the 0000-00", (17, 24))  # a literal's digits apart from the time
    assert mask.free(b"at 0000-00 ret", (3, 10))
    assert not TimeMask([r"20\d{2}"], [r"\[2026\]"], []).on  # a format that spells a digit
    # The time's digit runs and the widths of the rules' numbers (a registry's: 6 and 10 packaged).
    wide = TimeMask([r"(?P<year>20\d{2})-(?P<month>\d{2})"], [], [], widths=[4])
    assert not wide.free(b"at 0000-00 ret", (3, 10))  # another time's 4 digits may be a number
    assert wide.free(b"id.0000-00 ret", (3, 10))  # within a dotted id: never a token
    assert not mask.free(b"hcclRet -> 0000-00", (11, 18))  # after HCCL's call trace


@pytest.mark.parametrize(("pattern", "spells"), [
    (r"\[(?:ERROR|INFO)\]\s{0,4}(?P<module>[A-Z][A-Z0-9_]{0,31})\((?P<pid>\d{1,10}),", False),
    (r"pid=(?P<pid>[0-9]{1,10})\)", False),
    (r"(?P<year>20\d{2})", True),
    (r"(a)\1", True),
    (r"(?P<a>x)(?P=a)", True),
])
def test_a_format_that_reads_digits_by_class(pattern, spells):
    assert spells_digit(pattern) is spells


# A registry's own time whose digits, after a status keyword, may be a code (a tester's finding):
# neither line may take the other's shape.
EXTRA_TIMES = [
    (r"\b(?P<month>\d{2})(?P<day>\d{2})(?P<hour>\d{2})(?P<minute>\d{2})(?P<second>\d{2})\b",
     "1130100001 link failed", "11-30T10:00:01",
     ["[ERROR] GE(1,python): 1130100001 link failed, LLM_TIMEOUT",
      "[ERROR] GE(1,python): 1343270921 link failed, LLM_TIMEOUT",
      "ret = 1130100001 LinkLlmClusters LLM_TIMEOUT",
      "ret = 4294967295 LinkLlmClusters LLM_TIMEOUT"]),
    (r"\b(?P<hour>\d{2})(?P<minute>\d{2})(?P<second>\d{2}) (?P<month>\d{2})-(?P<day>\d{2})\b",
     "at 100001 11-30 link failed", "11-30T10:00:01",
     ["ErrorNo: 101010 11-30 Connect failed LLM_TIMEOUT",
      "ErrorNo: 103905 11-30 Connect failed LLM_TIMEOUT"]),
]


@pytest.mark.parametrize("engine", available())
@pytest.mark.parametrize(("pattern", "sample", "value", "lines"), EXTRA_TIMES)
def test_a_time_whose_digits_make_a_code(engine, pattern, sample, value, lines, tmp_path, monkeypatch):
    extra = tmp_path / "times.toml"
    extra.write_text(f"""[[log_clue]]
id = "own-time"
kind = "time"
pattern = '{pattern}'
sources = ["hixl-log-timeline"]
samples = [{{ line = "{sample}", value = "{value}" }}]
""", encoding="utf-8")
    registry = load_registry([extra])
    text = "\n".join(lines) + "\n"
    times = scanner(registry, engine).times
    shared = list(scan_text(text, registry=registry, engine=engine))
    monkeypatch.setattr(times, "on", False)
    assert shared == list(scan_text(text, registry=registry, engine=engine))
    assert {h.token for h in shared} > {"LLM_TIMEOUT"}  # the codes the times' digits made
