"""A log as an attacker writes it: nothing of it reaches the terminal raw, JSON stays exact.

Issue 20, point 4: a process name carrying an OSC 8 hyperlink, C1 controls (U+009B, the one-byte
CSI), a bidirectional override (U+202E) and a line separator (U+2028) pass through neither the
hit lines, the ``-C`` lines nor the "First failure per process" line of the text and Markdown
reports; ``--json`` keeps every character (as ``\\uXXXX`` escapes) and stays UTF-8 under any locale.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from sphinx_llmstatus.render.text import UNSAFE_CHARS

LINK = "\x1b]8;;http://evil/\x07click\x1b]8;;\x07"
PROCESS = f"1234,{LINK}\x9b2J,python"
HIT = f"[ERROR] GE({PROCESS}):2024-01-01-00:00:00.000.000 [llm_datadist.cc:10] ret = 0x5010B009 \u202eevil\u2028x"
NEAR = "before \x1b[2J\u202e\x85 line"
LOG = "\n".join([NEAR, HIT, NEAR]) + "\n"
RAW = [chr(c) for c in (0x1B, 0x07, 0x9B, 0x85, 0x202E, 0x2028)]


def run(*args: str, env: dict[str, str] | None = None, tmp_path=None) -> subprocess.CompletedProcess:
    log = tmp_path / "hostile.log"
    log.write_text(LOG, encoding="utf-8")
    return subprocess.run([sys.executable, "-m", "sphinx_llmstatus", "scan", *args, str(log)],
                          capture_output=True, check=False, timeout=120, env={**os.environ, **(env or {})})


@pytest.mark.parametrize("args", [(), ("-C", "1"), ("--format", "markdown"), ("--format", "markdown", "-C", "1"),
                                  ("--summary",)])
def test_no_control_or_bidi_character_reaches_the_terminal(tmp_path, args):
    out = run(*args, tmp_path=tmp_path).stdout.decode("utf-8")
    assert not [c for c in RAW if c in out], args
    assert "x1b" in out and "evil/" in out  # shown, escaped (Markdown escapes the backslash too)
    if "--summary" not in args:
        assert "u202e" in out


def test_the_first_failure_line_names_the_process_escaped(tmp_path):
    out = run(tmp_path=tmp_path).stdout.decode("utf-8")
    first = next(line for line in out.splitlines() if "process 1234" in line)
    assert "\\x1b]8;;http://evil/\\x07click\\x1b]8;;\\x07\\x9b2J,python" in first


@pytest.mark.parametrize("env", [{}, {"LC_ALL": "C", "LANG": "C", "PYTHONIOENCODING": "ascii"},
                                 {"PYTHONIOENCODING": "latin-1"}])
def test_json_is_exact_utf_8_with_the_unsafe_characters_escaped(tmp_path, env):
    p = run("--json", "-C", "1", "--lang", "zh", env=env, tmp_path=tmp_path)
    raw = p.stdout.decode("utf-8")  # UTF-8 whatever the locale
    assert not [c for c in RAW[2:] if c in raw]  # C0 is escaped by JSON itself
    hit = json.loads(raw.splitlines()[0])
    assert hit["text"] == HIT and hit["before"][0]["text"] == NEAR and hit["after"][0]["text"] == NEAR
    assert hit["remedy"]["python"].startswith("当 `link_clusters`")
    assert hit["process"] == "1234 (" + PROCESS[5:] + ")"  # the pid, then the rest of the parentheses


def test_lookup_json_under_an_ascii_locale_is_utf_8():
    p = subprocess.run([sys.executable, "-m", "sphinx_llmstatus", "--json", "--lang", "zh", "LLM_LINK_FAILED"],
                       capture_output=True, check=True, timeout=60,
                       env={**os.environ, "LC_ALL": "C", "PYTHONIOENCODING": "ascii"})
    assert json.loads(p.stdout.decode("utf-8"))[0]["meaning"]["python"] == "建链失败。"


def test_the_sanitiser_covers_every_class_it_names():
    import re

    from sphinx_llmstatus.render.text import terminal_safe

    for c in (*RAW, "\x00", "\x7f", "\u200e", "\u2066", "\u2069", "\u061c", "\u2029", "\udcff"):
        assert re.fullmatch(f"[{UNSAFE_CHARS}]", c) and c not in terminal_safe(f"a{c}b"), repr(c)
    assert terminal_safe("日志 ok") == "日志 ok"


# -- the Hyperscan database cache -----------------------------------------------------------------

DATA = b"x\nret = 1343270921\nLLM_TIMEOUT y\nnothing\n"


@pytest.fixture
def cache(tmp_path, monkeypatch):
    """``(prefilter module, patterns, expected line starts, cache directory)`` with an empty cache."""
    pytest.importorskip("hyperscan")
    from sphinx_llmstatus.scan import engine, prefilter

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    patterns = list(engine.scanner().matcher.prefilter)
    return prefilter, patterns, [2, 19], tmp_path / "sphinx_llmstatus"


def _starts(prefilter, patterns):
    return prefilter.HyperscanPrefilter(patterns).starts(DATA, len(DATA))


def _cached(where, patterns):
    """The cache file of the database of ``patterns`` (the scanner's own databases sit beside it)."""
    from sphinx_llmstatus.scan import dbcache

    return where / os.path.basename(dbcache.path_for(str(where), b"\n".join([dbcache.MAGIC, b"flags 0", *patterns])
                                                     + b"\n\n"))


def test_a_database_planted_from_other_patterns_is_compiled_again(cache):
    import hyperscan

    from sphinx_llmstatus.scan import dbcache

    prefilter, patterns, expected, where = cache
    assert _starts(prefilter, patterns) == expected
    path = _cached(where, patterns)
    good = path.read_bytes()
    other = hyperscan.Database(mode=hyperscan.HS_MODE_BLOCK)
    other.compile(expressions=[b"nothing at all"] * len(patterns), ids=list(range(len(patterns))),
                  elements=len(patterns), flags=[0] * len(patterns))
    key = good[:good.index(b"\n\n") + 2]
    assert key.startswith(dbcache.MAGIC)
    path.write_bytes(key + hyperscan.dumpb(other))  # the right patterns named, another database
    assert _starts(prefilter, patterns) == expected
    assert path.read_bytes() == good


def test_a_symlink_at_the_temporary_name_is_never_written_through(cache, monkeypatch, tmp_path):
    prefilter, patterns, expected, where = cache
    victim = tmp_path / "victim"
    victim.write_bytes(b"precious")
    monkeypatch.setattr(os, "urandom", lambda n: b"\x00" * n)  # the name an attacker would guess
    where.mkdir(mode=0o700)
    assert _starts(prefilter, patterns) == expected  # writes the cache once, to learn its name
    cached = _cached(where, patterns)
    cached.unlink()
    (where / f".{cached.name}.{'00' * 8}.tmp").symlink_to(victim)
    assert _starts(prefilter, patterns) == expected
    assert victim.read_bytes() == b"precious"


def test_a_fifo_at_the_cache_path_does_not_hang_a_scan(tmp_path):
    pytest.importorskip("hyperscan")
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path), "LLMSTATUS_SCAN_ENGINE": "hyperscan"}
    log = tmp_path / "a.log"
    log.write_bytes(DATA)
    cmd = [sys.executable, "-m", "sphinx_llmstatus", "scan", "--json", str(log)]
    subprocess.run(cmd, capture_output=True, check=False, timeout=120, env=env)
    for cached in (tmp_path / "sphinx_llmstatus").iterdir():
        cached.unlink()
        os.mkfifo(cached)
    p = subprocess.run(cmd, capture_output=True, check=False, timeout=60, env=env)
    assert [json.loads(line)["name"] for line in p.stdout.decode().splitlines()] == ["LLM_LINK_FAILED", "LLM_TIMEOUT"]


@pytest.mark.parametrize("how", ["group-writable", "world-writable", "symlink"])
def test_a_cache_directory_others_can_write_is_not_used(cache, tmp_path, how):
    prefilter, patterns, expected, where = cache
    if how == "symlink":
        (tmp_path / "elsewhere").mkdir(mode=0o700)
        where.symlink_to(tmp_path / "elsewhere")
        seen = tmp_path / "elsewhere"
    else:
        where.mkdir()
        where.chmod(0o770 if how == "group-writable" else 0o777)
        seen = where
    assert _starts(prefilter, patterns) == expected
    assert list(seen.iterdir()) == []  # nothing read from it or written to it


def test_a_cache_file_others_can_write_is_not_read(cache):
    prefilter, patterns, expected, where = cache
    assert _starts(prefilter, patterns) == expected
    path = _cached(where, patterns)
    path.write_bytes(b"garbage")
    path.chmod(0o666)
    assert _starts(prefilter, patterns) == expected
    assert path.read_bytes() != b"garbage"  # compiled again and replaced by our own file
    assert path.stat().st_mode & 0o777 == 0o600


def test_every_pattern_of_the_scanner_has_a_probe(cache):
    import re

    from sphinx_llmstatus.scan import dbcache, engine

    sc = engine.scanner()
    for pattern in sc.matcher.prefilter:
        text = dbcache.probe(pattern)
        assert text is not None and re.search(pattern, text), pattern
    # The layout patterns' probes are vouched for (parsing the 7 KB field expressions cost each
    # start ~35 ms).
    assert len(dbcache._VOUCHED) >= 3 and all(re.search(p, t) for p, t in dbcache._VOUCHED.items())


def test_the_scanners_database_is_loaded_from_the_cache_not_compiled_again(cache, monkeypatch):
    """Its probes prove the cached database: a probe it misses would mean compiling at each start."""
    from sphinx_llmstatus.scan import dbcache, engine, prefilter

    sc = engine.scanner()
    prefilter.make([*sc.matcher.prefilter], [b"x"], "hyperscan")  # compiled and cached
    written = []
    real = dbcache.write
    monkeypatch.setattr(dbcache, "write", lambda *a: written.append(real(*a)))  # each compile writes
    prefilter.make([*sc.matcher.prefilter], [b"x"], "hyperscan")
    assert written == []


# -- costs an input can force ---------------------------------------------------------------------

def test_context_lines_cost_about_what_the_scan_costs():
    """``scan -C`` took two passes over the read block per hit: 40,000 code lines in a row, 111 s."""
    import io
    import time

    from sphinx_llmstatus.scan import scan_stream, scan_with_context

    data = b"".join(b"rank %d ret = 0x5010B009\n" % i for i in range(10000))
    t0 = time.perf_counter()
    plain = list(scan_stream(io.BytesIO(data)))
    t1 = time.perf_counter()
    groups = list(scan_with_context(io.BytesIO(data), 2))
    t2 = time.perf_counter()
    assert len(plain) == len(groups) == 10000
    before, hits, after = groups[5000]
    assert [n for n, _ in before] == [4999, 5000] and hits[0].line_no == 5001 and [n for n, _ in after] == [5002, 5003]
    assert after[0][1] == "rank 5001 ret = 0x5010B009"
    assert t2 - t1 < 3 * (t1 - t0) + 0.5, (t1 - t0, t2 - t1)  # ratio in one process: was 25x


def test_thousands_of_registry_codes_outside_the_range_make_one_expression_per_width(tmp_path):
    """Each such code was an expression of its own (about 5 ms of every scan's start)."""
    from sphinx_llmstatus.registry import load_registry
    from sphinx_llmstatus.scan import engine

    entry = ('[[code]]\nname = "X_CODE_{i}"\nvalue = {v}\n[code.cpp]\nname = "X_CODE_{i}"\ndocumented = false\n'
             'source = "cpp-source"\nrecoverable = "unknown"\nmeaning.en = "m"\nmeaning.zh = "m"\n'
             'remedy.en = "r"\nremedy.zh = "r"\n')
    path = tmp_path / "many.toml"
    path.write_text("schema = 2\n" + "".join(entry.format(i=i, v=3000000 + 7 * i) for i in range(2000)))
    registry = load_registry([path])
    sc = engine.Scanner(registry)
    # one expression of the names and one per 512 values of a width, not 2,000 expressions
    assert len(sc.matcher.expressions) <= len(engine.Scanner(load_registry()).matcher.expressions) + 4
    text = "[ERROR] LLM(1,python): llm_datadist ret = 3000007 failed\nret = 3000008 y = 3000014\n"
    assert [(h.line_no, h.code.name) for h in engine.scan_text(text, registry=registry)] == [(1, "X_CODE_1")]
