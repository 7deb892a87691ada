"""The diagnosis against logs that try to fool it or flood it (a tester's findings, each a case)."""

from __future__ import annotations

import json
import os
import select
import subprocess
import sys
import time

import pytest

from sphinx_llmstatus.registry import load_registry
from sphinx_llmstatus.registry.errors import RegistryError
from sphinx_llmstatus.scan.diagnosis import Diagnosis
from sphinx_llmstatus.scan.evidence import WINDOW_LINES
from sphinx_llmstatus.scan.pipeline import scan_diagnosed

CLI = [sys.executable, "-m", "sphinx_llmstatus"]
GE = "[ERROR] GE(4242,python):2026-11-30-10:00:01.{ms:03d}.000 [msg_handler_plugin.cc:75]4242 ConnectToPeer: "
REFUSED = GE.format(ms=100) + "Failed to connect peer 10.0.0.2:26000, error msg:Connection refused, errno:111"
FAILED = ("[ERROR] GE(4242,python):2026-11-30-10:00:01.123.456 [llm_datadist.cc:123]4242 Link: "
          "ErrorNo: 1343270921(local cluster link failed!)")
NOISE = "[INFO] GE(4242,python):2026-11-30-10:00:01.110.000 [llm_datadist.cc:99]4242 Link: waiting"


def _diagnoses(text: str) -> list[Diagnosis]:
    return [h.diagnosis for h in scan_diagnosed(text) if h.is_failure]  # type: ignore[misc]


def _confirmed(text: str) -> list[list[str]]:
    out = []
    for hit in (h for h in scan_diagnosed(text) if h.is_failure):
        out.append([j.of(hit.code).when.en for j in hit.diagnosis.where("confirmed")])  # type: ignore[union-attr]
    return out


def test_evidence_is_kept_while_a_held_failure_needs_it() -> None:
    """10,000 evidence lines after a failure: the ones within its window still prove its cause."""
    text = "\n".join([FAILED, *[REFUSED] * 10_000]) + "\n"
    assert any("Connection refused" in w for w in _confirmed(text)[0])


@pytest.mark.slow  # seconds: 10,000 lines, or a live pipe
def test_a_failure_after_each_evidence_line_is_proven_every_time() -> None:
    text = "".join(f"{REFUSED}\n{FAILED}\n" for _ in range(5_000))
    assert all(any("Connection refused" in w for w in causes) for causes in _confirmed(text))


def test_proofs_are_the_nearest_few() -> None:
    text = "\n".join([*[REFUSED] * 150, FAILED, *[REFUSED] * 150]) + "\n"
    (diagnosis,) = _diagnoses(text)
    (top, *_) = diagnosis.where("confirmed")
    assert len(top.proofs) == 3 and all(abs(p.line - 151) <= 2 for p in top.proofs)


def test_context_past_the_window_does_not_count_and_a_pipe_reads_as_a_file(tmp_path) -> None:
    omni = ('  File "/usr/local/lib/python3.11/site-packages/omni_npu/connector/llmdatadist_manager_v1.py", '
            "line 212, in _pull")
    log = tmp_path / "mid.log"
    log.write_text("\n".join([FAILED, *[NOISE] * 300, FAILED, *[NOISE] * 20_000, omni]) + "\n", encoding="utf-8")
    by_file = subprocess.run([*CLI, "scan", "--json", str(log)], capture_output=True, text=True, check=False)
    by_pipe = subprocess.run([*CLI, "scan", "--json", "-"], input=log.read_text(encoding="utf-8"),
                             capture_output=True, text=True, check=False)
    file_rows = [json.loads(x) for x in by_file.stdout.splitlines()]
    pipe_rows = [json.loads(x) for x in by_pipe.stdout.splitlines()]
    assert [r["diagnosis"] for r in file_rows] == [r["diagnosis"] for r in pipe_rows]
    assert "framework" not in file_rows[0]["diagnosis"]["context"]


def test_another_errno_does_not_prove_nothing_listens() -> None:
    no_route = REFUSED.replace("Connection refused, errno:111", "No route to host, errno:113")
    assert _confirmed(f"{no_route}\n{FAILED}\n") == [[]]


def test_a_date_without_a_year_on_29_february_is_a_day() -> None:
    leap = ("INFO 02-29 10:00:00 [x.py:1] Failed to connect peer 10.0.0.2:26000, error msg:Connection refused, "
            "errno:111")
    failed = FAILED.replace("2026-11-30", "2026-02-28")
    assert _confirmed(f"{leap}\n{failed}\n") == [[]]  # a day apart: out of the 120 s


def test_an_earlier_failure_hours_before_proves_nothing() -> None:
    plog = "[ERROR] GE(4242,python):2026-11-30-{t}.000.000 [llm_datadist.cc:1]4242 F: "
    unlink = plog.format(t="10:00:00") + "[unlink] failed, LLMStatusCode.LLM_UNLINK_FAILED"
    link = plog.format(t="15:00:00") + "[link] failed, LLMStatusCode.LLM_ALREADY_LINK"
    assert _confirmed(f"{unlink}\n{link}\n")[-1] == []
    soon = link.replace("15:00:00", "10:00:30")
    assert _confirmed(f"{unlink}\n{soon}\n")[-1]


def test_the_source_line_a_traceback_quotes_is_no_failure() -> None:
    text = ('  File "/x/llm_datadist/v2/llm_datadist.py", line 228, in link_clusters\n'
            '    raise_if_false(timeout > 0, "Param timeout should be greater than 0.")\n'
            "llm_datadist.status.LLMException: Param timeout should be greater than 0.\n")
    assert [h.line_no for h in scan_diagnosed(text) if h.is_failure] == [3]


def test_a_long_evidence_line_shows_the_message() -> None:
    long = REFUSED.replace("ConnectToPeer: ", "ConnectToPeer: " + "x" * 1_000_000 + " ")
    (diagnosis,) = _diagnoses(f"{long}\n{FAILED}\n")
    proof = diagnosis.where("confirmed")[0].proofs[0]
    assert "Connection refused" in proof.text and len(proof.text) < 400


@pytest.mark.parametrize("char", ["\x1b[2J", "\x9b", "\u202e", "\u2028", "\x07"])
def test_the_notebook_and_last_show_no_raw_control_character(char: str) -> None:
    from IPython.core.interactiveshell import InteractiveShell

    shell = InteractiveShell.instance()
    shell.run_line_magic("load_ext", "sphinx_llmstatus")
    try:
        result = shell.run_cell_magic("llmstatus", "", f"{REFUSED.replace('10.0.0.2', char)}\n{FAILED}\n")
        for shown in (result.text(), result.html(), result.markdown()):
            assert char not in shown
    finally:
        shell.run_line_magic("unload_ext", "sphinx_llmstatus")


def test_the_summary_json_speaks_the_language_asked(tmp_path) -> None:
    log = tmp_path / "a.log"
    log.write_text(f"{REFUSED}\n{FAILED}\n", encoding="utf-8")
    out = subprocess.run([*CLI, "scan", "--summary", "--json", "--lang", "zh", str(log)], capture_output=True,
                         text=True, check=False).stdout
    assert "对端" in json.loads(out)["first_failures"][0]["diagnosis"]["confirmed"][0]["cause"]


@pytest.mark.slow  # seconds: 10,000 lines, or a live pipe
def test_a_held_failure_is_written_once_its_window_is_read_not_at_the_end() -> None:
    proc = subprocess.Popen([*CLI, "scan", "--no-progress", "-"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            env={**os.environ, "NO_COLOR": "1"})
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(("\n".join([FAILED, *[NOISE] * (WINDOW_LINES + 100)]) + "\n").encode())
    proc.stdin.flush()
    time.sleep(1)
    proc.stdin.write(b"more\n")  # a pipe's read returns once more comes
    proc.stdin.flush()
    ready, _, _ = select.select([proc.stdout], [], [], 30)
    try:
        assert ready, "the failure waited for the end of the input"
        assert b"LLM_LINK_FAILED" in proc.stdout.readline()
    finally:
        proc.stdin.close()
        proc.wait(timeout=30)


@pytest.mark.parametrize(("fmt", "says"), [
    ("a" * 300, "repeats itself"),
    ("%d%d%d", "shorter than 8"),
    ("ip not set", "fewer than 16"),
    ("Failed \x1b[2J to connect peer", "control character"),
])
def test_a_hostile_evidence_format_is_refused_with_file_entry_and_field(tmp_path, fmt: str, says: str) -> None:
    extra = tmp_path / "extra.toml"
    extra.write_text(
        '[[code]]\nname = "LLM_LINK_FAILED"\n[code.cpp]\nname = "LLM_LINK_FAILED"\ndocumented = false\n'
        'source = "cpp-source"\nrecoverable = "unknown"\nmeaning.en = "m"\nmeaning.zh = "m"\nremedy.en = "r"\n'
        'remedy.zh = "r"\n[[code.cpp.causes]]\nwhen.en = "w"\nwhen.zh = "w"\ncheck.en = "c"\ncheck.zh = "c"\n'
        'fix.en = "f"\nfix.zh = "f"\nsources = ["cpp-source"]\n[[code.cpp.causes.evidence]]\n'
        f"format = {json.dumps(fmt)}\nsources = [\"cpp-source\"]\n", encoding="utf-8")
    with pytest.raises(RegistryError) as err:
        load_registry([extra])  # the packaged files, then this one
    assert "extra.toml" in str(err.value) and "evidence[1].format" in str(err.value) and says in str(err.value)


# -- a second tester's findings --------------------------------------------------------------------


def test_each_failure_shows_its_own_nearest_proofs() -> None:
    text = "\n".join([REFUSED] * 3 + [FAILED] + [NOISE] * 185 + [FAILED] + [NOISE] * 6 + [REFUSED] * 3) + "\n"
    first, second = _diagnoses(text)
    assert [p.line for p in first.where("confirmed")[0].proofs] == [1, 2, 3]
    assert [p.line for p in second.where("confirmed")[0].proofs] == [197, 198, 199]


@pytest.mark.slow  # seconds: 10,000 lines, or a live pipe
def test_with_context_lines_a_held_failure_is_written_before_the_end_too() -> None:
    proc = subprocess.Popen([*CLI, "scan", "--no-progress", "-C", "2", "-"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, env={**os.environ, "NO_COLOR": "1"})
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(("\n".join([FAILED, *[NOISE] * (WINDOW_LINES + 100)]) + "\n").encode())
    proc.stdin.flush()
    time.sleep(1)
    proc.stdin.write(b"more\n")
    proc.stdin.flush()
    ready, _, _ = select.select([proc.stdout], [], [], 30)
    try:
        assert ready, "the failure waited for the end of the input"
    finally:
        proc.stdin.close()
        proc.wait(timeout=30)


def test_merge_speaks_the_language_asked_whatever_the_reports_spoke(tmp_path) -> None:
    log = tmp_path / "a.log"
    log.write_text(f"{REFUSED}\n{FAILED}\n", encoding="utf-8")
    report = subprocess.run([*CLI, "scan", "--summary", "--json", "--lang", "zh", str(log)], capture_output=True,
                            text=True, check=False).stdout
    (tmp_path / "zh.json").write_text(report, encoding="utf-8")
    text = subprocess.run([*CLI, "merge", "--lang", "en", str(tmp_path / "zh.json")], capture_output=True,
                          text=True, check=False).stdout
    assert "nothing accepts on that port" in text and "对端" not in text


def test_a_raise_shown_one_argument_a_line_is_no_failure() -> None:
    text = ('  File "/x/llm_datadist/v2/llm_datadist.py", line 275, in link_clusters\n'
            "    raise_if_false(\n"
            "        cluster.local_ip_info_list,\n"
            '        "local_ip_info_list is empty. Call append_local_ip_info first"\n'
            "    )\n"
            "llm_datadist.status.LLMException: local_ip_info_list is empty. Call append_local_ip_info first\n")
    assert [h.line_no for h in scan_diagnosed(text) if h.is_failure] == [6]


def test_last_reads_the_end_of_a_long_exception_text() -> None:
    from sphinx_llmstatus.registry.packaged import default_registry
    from sphinx_llmstatus.scan.diagnosis import TEXT_LINES, diagnose_text

    registry = default_registry()
    code = registry.get("LLM_LINK_FAILED")
    assert code is not None
    text = "\n".join(["noise"] * (TEXT_LINES + 1) + [REFUSED])
    assert diagnose_text(code, text, registry).where("confirmed")


def test_a_date_without_a_year_on_31_december_is_next_to_1_january() -> None:
    late = ("INFO 12-31 23:59:50 [x.py:1] Failed to connect peer 10.0.0.2:26000, error msg:Connection refused, "
            "errno:111")
    failed = FAILED.replace("2026-11-30-10:00:01", "2027-01-01-00:00:05")
    assert _confirmed(f"{late}\n{failed}\n")[0]
