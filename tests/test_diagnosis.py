"""The diagnosis: evidence in the registry, the window around a failure, the verdicts, every face."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from sphinx_llmstatus.registry.model import Evidence, format_pieces
from sphinx_llmstatus.registry.packaged import default_registry
from sphinx_llmstatus.scan.diagnosis import WINDOW_LINES, Diagnosis
from sphinx_llmstatus.scan.pipeline import scan_diagnosed

REFUSED = ("[ERROR] GE(4242,python):2026-11-30-10:00:01.100.000 [msg_handler_plugin.cc:75]4242 ConnectToPeer: "
           "Failed to connect peer 10.0.0.2:26000, error msg:Connection refused, errno:111")
LINK_FAILED = ("[ERROR] GE(4242,python):2026-11-30-10:00:01.123.456 [llm_datadist.cc:123]4242 Link: "
               "ErrorNo: 1343270921(local cluster link failed!)")
NOISE = "[INFO] GE(4242,python):2026-11-30-10:00:01.110.000 [llm_datadist.cc:99]4242 Link: waiting"


def _first_failure(text: str) -> tuple[object, Diagnosis]:
    hit = next(h for h in scan_diagnosed(text) if h.is_failure)
    assert isinstance(hit.diagnosis, Diagnosis)
    return hit.code, hit.diagnosis


def _confirmed_when(text: str) -> list[str]:
    code, diagnosis = _first_failure(text)
    return [j.of(code).when.en for j in diagnosis.where("confirmed")]  # type: ignore[arg-type]


def test_every_cause_has_evidence_or_says_why_not() -> None:
    registry = default_registry()
    lacking = [(c.name, v.api, i) for c in registry.codes for v in c.views for i, cause in enumerate(v.causes)
               if not any(not e.against for e in cause.evidence) and not cause.unlogged]
    assert lacking == []


def test_format_pieces_split_at_placeholders() -> None:
    assert format_pieces("ranktable config devId[%d], but local devId[%u]") == (
        "ranktable config devId[", "], but local devId[", "]")
    assert format_pieces("Link {} failed, 100%% {{x}} %-5lu end") == ("Link", "failed, 100% {x}", "end")
    ev = Evidence(format="Failed to connect peer %s:%u, error msg:%s, errno:%d", sources=())
    assert ev.matches(REFUSED) and not ev.matches("error msg:x Failed to connect peer")


def test_evidence_before_the_failure_confirms_its_cause() -> None:
    assert any("Connection refused" in w for w in _confirmed_when(f"{REFUSED}\n{LINK_FAILED}\n"))


def test_evidence_after_the_failure_counts_too() -> None:
    assert any("Connection refused" in w for w in _confirmed_when(f"{LINK_FAILED}\n{NOISE}\n{REFUSED}\n"))


def test_no_evidence_no_confirmed_cause_but_candidates() -> None:
    code, diagnosis = _first_failure(LINK_FAILED + "\n")
    assert not diagnosis.where("confirmed") and diagnosis.where("candidate")


def test_evidence_out_of_the_window_or_of_another_process_does_not_count() -> None:
    far = "\n".join([REFUSED, *[NOISE] * (WINDOW_LINES + 1), LINK_FAILED])
    assert _confirmed_when(far) == []
    other = REFUSED.replace("GE(4242,python)", "GE(777,python)")
    assert _confirmed_when(f"{other}\n{LINK_FAILED}\n") == []


def test_a_failed_unlink_before_already_link_is_its_cause() -> None:
    registry = default_registry()
    code = registry.get("LLM_ALREADY_LINK")
    assert code is not None
    named = [c for v in code.views for c in v.causes if any(e.code == "LLM_UNLINK_FAILED" for e in c.evidence)]
    assert named, "a cause of LLM_ALREADY_LINK names the earlier LLM_UNLINK_FAILED"
    log = ("llm_datadist.status.LLMException: [unlink_clusters] failed, error code is LLMStatusCode.LLM_UNLINK_FAILED\n"
           "llm_datadist.status.LLMException: [link_clusters] failed, error code is LLMStatusCode.LLM_ALREADY_LINK\n")
    hits = [h for h in scan_diagnosed(log) if h.is_failure and h.code is not None and h.code.name == "LLM_ALREADY_LINK"]
    confirmed = [j.of(code) for j in hits[0].diagnosis.where("confirmed")]  # type: ignore[union-attr]
    assert confirmed == named[:1]


def test_json_and_summary_carry_the_diagnosis(tmp_path) -> None:
    log = tmp_path / "a.log"
    log.write_text(f"{REFUSED}\n{LINK_FAILED}\n", encoding="utf-8")
    run = [sys.executable, "-m", "sphinx_llmstatus", "scan"]
    rows = [json.loads(x) for x in subprocess.run([*run, "--json", str(log)], capture_output=True, text=True,
                                                 check=False).stdout.splitlines()]
    failure = next(r for r in rows if r["failure"])
    confirmed = failure["diagnosis"]["confirmed"]
    assert confirmed and confirmed[0]["evidence"] == [{"line": 1, "text": REFUSED}]
    summary = json.loads(subprocess.run([*run, "--summary", "--json", str(log)], capture_output=True, text=True,
                                        check=False).stdout)
    assert summary["first_failures"][0]["diagnosis"] == failure["diagnosis"]
    text = subprocess.run([*run, "--summary", str(log)], capture_output=True, text=True, check=False).stdout
    assert "    cause: " in text and "(line 1: [ERROR] GE(4242,python)" in text and "    fix: " in text
    zh = subprocess.run([*run, "--summary", "--lang", "zh", str(log)], capture_output=True, text=True,
                        check=False).stdout
    assert "    原因: " in zh and "（第 1 行：" in zh or "(第 1 行：" in zh


@pytest.mark.parametrize("fmt", ["markdown"])
def test_markdown_report_shows_the_cause(tmp_path, fmt: str) -> None:
    log = tmp_path / "a.log"
    log.write_text(f"{REFUSED}\n{LINK_FAILED}\n", encoding="utf-8")
    out = subprocess.run([sys.executable, "-m", "sphinx_llmstatus", "scan", "--summary", "--format", fmt, str(log)],
                         capture_output=True, text=True, check=False).stdout
    assert "  - **cause:** " in out and "line 1:" in out


def test_raised_message_is_a_failure_of_its_code() -> None:
    log = ("Traceback (most recent call last):\n"
           '  File "/usr/local/lib/python3.11/site-packages/llm_datadist/v2/llm_datadist.py", line 264, in '
           "link_clusters\n"
           "llm_datadist.status.LLMException: Param timeout should be greater than 0.\n")
    failures = [h for h in scan_diagnosed(log) if h.is_failure]
    assert [h.code.name for h in failures] == ["LLM_PARAM_INVALID"]  # type: ignore[union-attr]
    assert failures[0].diagnosis.where("confirmed")  # type: ignore[union-attr]


def test_merge_shows_the_confirmed_causes_and_survives_odd_ones(tmp_path) -> None:
    log = tmp_path / "a.log"
    log.write_text(f"{REFUSED}\n{LINK_FAILED}\n", encoding="utf-8")
    run = [sys.executable, "-m", "sphinx_llmstatus"]
    report = subprocess.run([*run, "scan", "--summary", "--json", str(log)], capture_output=True, text=True,
                            check=False).stdout
    (tmp_path / "a.json").write_text(report, encoding="utf-8")
    text = subprocess.run([*run, "merge", str(tmp_path / "a.json")], capture_output=True, text=True,
                          check=False).stdout
    assert "    cause: " in text and "(line 1: " in text
    odd = json.loads(report)
    odd["first_failures"][0]["diagnosis"] = {"confirmed": ["x", {"evidence": "y", "cause": "\x1b[2J"}]}
    (tmp_path / "b.json").write_text(json.dumps(odd), encoding="utf-8")
    p = subprocess.run([*run, "merge", str(tmp_path / "b.json")], capture_output=True, text=True, check=False)
    assert p.returncode == 1 and "\x1b" not in p.stdout and "cause: \\x1b[2J\n" in p.stdout  # 1: a failure


def test_processes_that_fail_alike_get_the_checks_once(tmp_path) -> None:
    # Process 4242 has a proven cause; 5000 and 5001 fail alike with none: 5001 points at 5000.
    alike = [LINK_FAILED.replace("4242", pid).replace(".123.456", f".{i}00.000") for i, pid in ((2, "5000"), (3, "5001"))]
    log = tmp_path / "a.log"
    log.write_text("\n".join([REFUSED, LINK_FAILED, *alike]) + "\n", encoding="utf-8")
    run = [sys.executable, "-m", "sphinx_llmstatus", "scan", "--summary"]
    text = subprocess.run([*run, str(log)], capture_output=True, text=True, check=False).stdout
    entries = text.split("First failure per process:\n")[1].split("Summary:")[0].split("\n  20")
    assert len(entries) == 3 and "(line 1: [ERROR]" in entries[0]
    assert "no line of the log proves" in entries[1] and entries[1].count("    check: ") == 3
    assert entries[2].rstrip().endswith(f"LLM_LINK_FAILED: remedy and checks as at {log}:3")
    assert "    check: " not in entries[2]
    md = subprocess.run([*run, "--format", "markdown", str(log)], capture_output=True, text=True, check=False).stdout
    assert md.count("no line of the log proves") == 1 and md.count("**check:**") == 1 + 3  # 4242's proven cause, 5000's candidates
    assert md.count("remedy and checks as at ") == 1 and "a.log:3\n" in md
    zh = subprocess.run([*run, "--lang", "zh", str(log)], capture_output=True, text=True, check=False).stdout
    assert f"处理办法和排查方法同 {log}:3" in zh
    from sphinx_llmstatus.magic.results import ScanResult
    from sphinx_llmstatus.scan.pipeline import scan_triaged

    hits, report = scan_triaged(log.read_text(encoding="utf-8"))
    notes = ScanResult(hits, "en", text="", report=report).report_lines()
    assert sum("no line of the log proves" in n for n in notes) == 1
    assert any(n.endswith("process 5001 (python): remedy and checks as at Line 3") for n in notes), notes


def test_the_summary_json_of_processes_failing_alike_is_unchanged(tmp_path) -> None:
    # Their diagnosis is made once and shared (200,000 processes made 4 KB each), each still whole.
    log = tmp_path / "a.log"
    log.write_text("".join(LINK_FAILED.replace("4242", str(pid)) + "\n" for pid in range(5000, 5003)), encoding="utf-8")
    summary = json.loads(subprocess.run([sys.executable, "-m", "sphinx_llmstatus", "scan", "--summary", "--json",
                                         str(log)], capture_output=True, text=True, check=False).stdout)
    diagnoses = [f["diagnosis"] for f in summary["first_failures"]]
    assert len(diagnoses) == 3 and diagnoses[0]["candidates"] and diagnoses.count(diagnoses[0]) == 3


def test_only_the_printed_checks_decide_what_is_said_once(tmp_path) -> None:
    """A tester's cases: the line the context was read from is printed nowhere (an exception after
    a line of its own is alike); a proven cause keeps its own proof, in any file; a code without
    checks keeps its remedy (the notebook printed a pointer at an entry that said nothing)."""
    exc = "llm_datadist.status.LLMException: [link] failed, error code is LLMStatusCode.LLM_LINK_FAILED, {3: 0, 19: 1}."
    (tmp_path / "p1.log").write_text(exc + "\n", encoding="utf-8")
    (tmp_path / "p2.log").write_text("starting\n" + exc + "\n", encoding="utf-8")
    (tmp_path / "n1.log").write_text(f"{REFUSED}\n{LINK_FAILED}\n", encoding="utf-8")
    (tmp_path / "n2.log").write_text(f"{REFUSED}\n{LINK_FAILED}\n", encoding="utf-8")
    done = LINK_FAILED.replace("1343270921", "1343270916")  # LLM_REQUEST_ALREADY_COMPLETED: no checks
    (tmp_path / "d.log").write_text(done + "\n" + done.replace("4242", "4243") + "\n", encoding="utf-8")
    run = [sys.executable, "-m", "sphinx_llmstatus", "scan", "--summary"]
    text = subprocess.run([*run, *(str(tmp_path / f) for f in ("p1.log", "p2.log", "n1.log", "n2.log", "d.log"))],
                          capture_output=True, text=True, check=False).stdout
    assert f"p2.log:2  process (unnamed)  LLM_LINK_FAILED: remedy and checks as at {tmp_path / 'p1.log'}:1" in text
    assert text.count("(line 1: [ERROR] GE(4242,python)") == 2 and "as at " + str(tmp_path / "n1.log") not in text
    assert "remedy and checks as at " + str(tmp_path / "d.log") not in text
    assert text.count("LLM_REQUEST_ALREADY_COMPLETED: ") == 2

    from sphinx_llmstatus.magic.results import ScanResult
    from sphinx_llmstatus.scan.pipeline import scan_triaged

    hits, report = scan_triaged((tmp_path / "d.log").read_text(encoding="utf-8"))
    assert not any("as at" in n for n in ScanResult(hits, "en", text="", report=report).report_lines())
