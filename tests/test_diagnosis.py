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
