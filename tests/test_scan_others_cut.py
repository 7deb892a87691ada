"""A line of more different numbers of other layers than a line can list (issue 20, point 2).

An HCCL error number has 262,144 values: a megabyte of them (a dump written into the log) was
66,000 hits of 1.5 KB of JSON each, 4 s. Past MAX_OTHERS different ones the line is read for
LLM DataDist's own codes only, and every face says from which column.
"""

from __future__ import annotations

import io
import json
import random
import subprocess
import sys
from collections import Counter

from sphinx_llmstatus.scan import engine, reading, reference, scan_stream
from sphinx_llmstatus.scan.rules import MAX_OTHERS

CLI = [sys.executable, "-m", "sphinx_llmstatus", "scan", "--no-progress"]


def dump(n: int, seed: int = 0) -> tuple[str, list[int]]:
    """A line of ``n`` different HCCL error numbers after ``rc=``, LLM DataDist codes among them
    (before and after the cut), the first numbers again at the end; and each number's column."""
    rnd = random.Random(seed)
    values = rnd.sample(range(0x05000000, 0x05040000), n)
    parts, columns, col = ["LLM_TIMEOUT "], [], len("LLM_TIMEOUT ")
    for i, v in enumerate(values):
        piece = f"rc=0x{v:08x} " + ("ret=0x5010B009 " if i % 1000 == 999 else "")
        columns.append(col + 3)
        parts.append(piece)
        col += len(piece)
    parts += [f"rc=0x{v:08x} " for v in values[:3]] + ["LLMStatusCode.LLM_LINK_FAILED"]
    return "".join(parts), columns


def test_a_line_lists_max_others_numbers_then_llm_datadist_codes_only():
    line, columns = dump(MAX_OTHERS + 500)
    tokens = engine.scanner().matcher.tokens(line)
    others = [t for t in tokens if t.kind == "other"]
    assert len(others) == MAX_OTHERS and tokens.others_cut == columns[MAX_OTHERS]
    assert max(max(t.occurrences()) for t in others) < tokens.others_cut  # none repeated after the cut
    own = Counter(t.code.name for t in tokens if t.code is not None for _ in t.occurrences())
    assert own == {"LLM_LINK_FAILED": 1 + (MAX_OTHERS + 500) // 1000, "LLM_TIMEOUT": 1}


def test_the_cut_is_the_specifications():
    line, _ = dump(MAX_OTHERS + 20, seed=1)
    found = sorted((s, s + t.end - t.start, t.kind, t.value, t.code)
                   for t in engine.scanner().matcher.tokens(line) for s in t.occurrences())
    assert found == reference.tokens(engine.scanner().matcher, line)


def test_as_many_as_max_others_are_all_listed():
    line, _ = dump(MAX_OTHERS)
    tokens = engine.scanner().matcher.tokens(line)
    assert tokens.others_cut is None and sum(t.kind == "other" for t in tokens) == MAX_OTHERS


def test_a_line_read_in_pieces_is_cut_where_the_whole_is(monkeypatch):
    line, columns = dump(MAX_OTHERS + 50, seed=2)
    data = f"first\n{line}\nLLM_FAILED\n".encode()
    whole = list(scan_stream(io.BytesIO(data)))
    monkeypatch.setattr(reading, "LONG_LINE", 1 << 14)
    pieces = list(scan_stream(io.BytesIO(data)))
    assert {h.others_cut for h in whole if h.line_no == 2} == {columns[MAX_OTHERS]}
    assert [h.others_cut for h in whole if h.line_no != 2] == [None]
    # In pieces, each piece counts its own: the line lists at least as many, and its LLM codes.
    assert {h.code.name for h in pieces if h.code} == {h.code.name for h in whole if h.code}
    assert sum(h.family == "hccl" for h in pieces) >= MAX_OTHERS


def test_every_face_says_where_the_line_was_cut(tmp_path):
    line, columns = dump(MAX_OTHERS + 5, seed=3)
    log = tmp_path / "dump.log"
    log.write_text(f"{line}\nLLM_FAILED\n")
    column = f"{columns[MAX_OTHERS] + 1:,}"
    hits = [json.loads(row) for row in run("--json", str(log)).splitlines()]
    assert {h.get("others_cut_at") for h in hits if h["line"] == 1} == {columns[MAX_OTHERS] + 1}
    assert "others_cut_at" not in hits[-1] and hits[-1]["line"] == 2
    summary = json.loads(run("--json", "--summary", str(log)))
    assert summary["others_cut"] == [{"file": str(log), "line": 1, "column": columns[MAX_OTHERS] + 1}]
    note = f"{log}:1: more than 4,096 different other layers' numbers; only LLM DataDist codes read from column {column}"
    assert note in run(str(log))
    assert f"dump.log:1: more than 4,096 different other layers&#x27; numbers; only LLM DataDist codes read from " \
           f"column {column}\n" in run("--format", "markdown", str(log))
    assert f"自第 {column} 列起" in run("--lang", "zh", str(log))


def test_the_summary_lists_twenty_names_of_a_layer_then_how_many_more(tmp_path):
    """A dump's line listed its 4,096 numbers in one summary line of 61,000 characters."""
    from sphinx_llmstatus.view.hits import OTHERS_SHOWN

    log = tmp_path / "dump.log"
    log.write_text(dump(OTHERS_SHOWN + 7)[0] + "\n")
    text = run(str(log))
    (hccl,) = [line for line in text.splitlines() if line.startswith("  HCCL: ")]
    assert hccl.count(" × ") == OTHERS_SHOWN and hccl.endswith(", … 7 more not shown (not LLM DataDist)")
    assert "\nHCCL: … 7 more not shown\n" in run("--format", "markdown", str(log))
    summary = json.loads(run("--json", "--summary", str(log)))
    assert len(summary["other_families"]["hccl"]) == OTHERS_SHOWN + 7  # (JSON keeps every one)


def test_a_line_without_the_cut_says_nothing_of_it(tmp_path):
    log = tmp_path / "few.log"
    log.write_text("rc=0x05000007 LLM_FAILED\n")
    assert "others_cut" not in run("--json", str(log)) + run("--json", "--summary", str(log))
    assert "other layers' numbers" not in run(str(log))


def run(*args: str) -> str:
    return subprocess.run([*CLI, *args], capture_output=True, text=True, check=False, timeout=300).stdout
