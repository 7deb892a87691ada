"""``llmstatus scan`` end to end: file == pipe, long lines, --summary --json, exit status by family."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys

import pytest

CLI = [sys.executable, "-m", "sphinx_llmstatus", "scan"]


def run(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([*CLI, *args], input=stdin, capture_output=True, check=False, timeout=300)


def rows(p: subprocess.CompletedProcess) -> list[dict]:
    out = [json.loads(line) for line in p.stdout.decode().splitlines()]
    for r in out:
        r.pop("file")
        r.get("likely_consequence_of", {}).pop("file", None)
    return out


def test_file_and_pipe_give_the_same_json_with_a_line_of_20_mib(tmp_path):
    head = b"(VllmWorker rank=1 pid=77) ERROR 01-01 10:00:05 "
    filler = b"filler \xc3\xa9 " * ((20 << 20) // 11)
    data = (b"a\n" + head + b"ret = 1343270921 " + filler + b" PushKvBlocks failed, k_ret = ffffffff\n"
            + b"b\nLLMStatusCode.LLM_TIMEOUT\n")
    log = tmp_path / "long.log"
    log.write_bytes(data)
    by_file, by_pipe = run("--json", str(log)), run("--json", "-", stdin=data)
    assert by_file.returncode == by_pipe.returncode == 1
    assert rows(by_file) == rows(by_pipe)
    got = rows(by_file)
    assert [(r["line"], r["name"], r["family"]) for r in got] == [
        (2, "LLM_LINK_FAILED", "llm_datadist"), (2, "LLM_FAILED", "llm_datadist"), (4, "LLM_TIMEOUT", "llm_datadist")]
    line = (head + b"ret = 1343270921 " + filler).decode()
    assert got[0]["column"] == len(head) + 7 and got[1]["column"] == len(line) + len(" PushKvBlocks failed, k_ret = ") + 1
    assert got[0]["text_truncated"] and got[0]["text"].startswith(head.decode()) and len(got[0]["text"]) <= 1000
    p = run("-C", "1", str(log))  # line numbers after the long line stay right
    assert f"{log}-3-  b" in p.stdout.decode() and f"{log}:4: LLM_TIMEOUT" in p.stdout.decode()


def test_summary_json_and_exit_status_by_family(tmp_path):
    log = tmp_path / "w.log"
    log.write_text(
        "(VllmWorker rank=0 pid=9) ERROR [link] failed, error code is LLMStatusCode.LLM_LINK_FAILED, {1: 0}.\n"
        "(VllmWorker rank=0 pid=9) ERROR [pull_blocks] failed, error code is LLMStatusCode.LLM_FAILED, {}.\n"
        "[ERROR] GE(5,ker):x [error_tracking.cc:113] ErrorTrackingCallback: ErrorNo: 4294967295(failed)\n")
    p = run("--summary", "--json", str(log))
    assert p.returncode == 1
    report = json.loads(p.stdout)
    diagnosis = report["first_failures"][0].pop("diagnosis")  # no line proves a cause: candidates only
    assert diagnosis["confirmed"] == [] and diagnosis["candidates"]
    assert report["first_failures"] == [{"file": str(log), "line": 1, "name": "LLM_LINK_FAILED",
                                         "process": "9 (VllmWorker rank=0)", "time": None, "host": None,
                                         "role": None}]
    assert report["counts"] == {"LLM_LINK_FAILED": 1, "LLM_FAILED": 1}
    assert report["likely_consequences"] == {"LLM_FAILED": 1}
    assert report["other_families"] == {"ge": {"ge::FAILED": 1}}
    text = run(str(log)).stdout.decode()
    assert text.index("Other layers") < text.index("First failure per process") < text.index("Summary")
    assert "(likely a consequence of LLM_LINK_FAILED at" in text
    only_ge = tmp_path / "ge.log"
    only_ge.write_text(log.read_text().splitlines()[2] + "\n")
    assert run(str(only_ge)).returncode == 0  # another layer's failure: not ours to fail on


def test_compressed_by_content_whatever_the_name(tmp_path):
    import gzip

    packed = tmp_path / "worker.log.1"
    packed.write_bytes(gzip.compress(b"ret = 1343270921\n"))
    p = run("--json", str(packed))
    assert p.returncode == 1 and [r["name"] for r in rows(p)] == ["LLM_LINK_FAILED"]
    p = run("--json", "-", stdin=packed.read_bytes())
    assert [r["name"] for r in rows(p)] == ["LLM_LINK_FAILED"]


def test_lookup_names_the_family_instead_of_a_nonsense_ge_layout():
    p = subprocess.run([sys.executable, "-m", "sphinx_llmstatus", "0x05000007"], capture_output=True, check=False)
    err = p.stderr.decode()
    assert p.returncode == 0 and "sysid" not in err
    assert p.stdout.decode().startswith("HCCL_E_UNAVAIL") and "Read as: HCCL error number (sub-module HCCL)" in p.stdout.decode()
    p = subprocess.run([sys.executable, "-m", "sphinx_llmstatus", "123"], capture_output=True, check=False)
    assert "nor a GE error number" in p.stderr.decode() and "sysid" not in p.stderr.decode()
    p = subprocess.run([sys.executable, "-m", "sphinx_llmstatus", "0x50100001"], capture_output=True, check=False)
    assert "GE layout: runtime=1 (host)" in p.stderr.decode()


def test_text_markdown_and_json_carry_the_same_facts(tmp_path):
    # The same log as the notebook's same-facts test: every face names every code, the symptom,
    # the layer and the check, and never shows the symptom as an unknown LLM DataDist code (issue 24).
    import html
    import re

    from test_magic import LAYERS_FACTS, LAYERS_LOG

    log = tmp_path / "layers.log"
    log.write_text(LAYERS_LOG, encoding="utf-8")
    faces = {"text": run("--lang", "en", str(log)).stdout.decode(),
             "markdown": run("--lang", "en", "--format", "markdown", str(log)).stdout.decode(),
             "json": run("--lang", "en", "--json", str(log)).stdout.decode()}
    faces["markdown"] = html.unescape(re.sub(r"<[^>]+>", "", faces["markdown"])).replace("\\", "")
    faces["json"] = " ".join(json.dumps(json.loads(line), ensure_ascii=False) for line in faces["json"].splitlines())
    for face, out in faces.items():
        # JSON says the sentences as fields: a first failure is in --summary, a consequence is a key.
        facts = [f for f in LAYERS_FACTS if not (face == "json" and f.startswith(("First failure", "likely", "after")))]
        if face == "json":
            facts.append('"likely_consequence_of": {"file": "' + str(log))
        missing = [f for f in facts if f not in out]
        assert not missing, (face, missing)
        assert "<code>ranktable config devId[</code>" not in out
    # The first failure says what its process logged before it: the HCCL symptom, with its check.
    summary = json.loads(run("--lang", "en", "--summary", "--json", str(log)).stdout)
    assert summary["first_failures"][0]["after"] == {"line": 1, "name": "hccl-ranktable-devid-mismatch",
                                                     "family": "llm_datadist", "kind": "symptom"}
    text = run("--lang", "en", "--summary", str(log)).stdout.decode()
    assert "after hccl-ranktable-devid-mismatch (symptom) at line 1: Check: HCCL found another device ID" in text


def test_a_streaming_scan_gives_each_remedy_once():
    # 1,000 hits of one code: the remedy once, then a pointer to it (issue 24: ~4,000 lines before).
    out = run("--lang", "en", "-", stdin=b"ret = 1343270921\n" * 1000).stdout.decode()
    remedy = "check the network connection between the clusters it names"
    assert out.count(remedy) == 2  # the first hit and the first-failure line
    assert out.count("remedy as at (standard input):1") == 999


def test_markdown_rows_alike_are_laid_out_once_and_each_says_its_own(tmp_path):
    """Markdown lays out the cells of hits alike once they point to the advice given (a flood's
    report took 5 times the text's time): each row still has its own line, the first its remedy,
    a likely consequence its note, another code its own remedy."""
    log = tmp_path / "a.log"
    log.write_bytes(b"".join([b"[ERROR] GE(7,python) LinkLlmClusters failed, ret = 1343270921\n" * 3,
                              b"[ERROR] GE(7,python) Pull failed, ret = 1343270913\n",
                              b"[ERROR] GE(7,python) Pull failed, ErrorNo: 4294967295(failed)\n",
                              b"[ERROR] GE(7,python) LinkLlmClusters failed, ret = 1343270921\n"]))
    rows = [r for r in run("--lang", "en", "--format", "markdown", str(log)).stdout.decode().splitlines()
            if r.startswith("| ") and "a.log" in r]
    assert [r.split(" | ")[1] for r in rows] == ["1", "2", "3", "4", "5", "6"]
    assert "check the network connection" in rows[0] and rows[1].endswith("a.log:1 |") and "remedy as at" in rows[1]
    assert rows[1].split(" | ")[3:] == rows[2].split(" | ")[3:] == rows[5].split(" | ")[3:]
    assert "remedy as at" not in rows[3] and "likely a consequence of LLM\\_LINK\\_FAILED" in rows[4]


def test_symptoms_and_other_layers_give_their_check_once_too(tmp_path):
    # 300 repeats of an HCCL symptom and code: each check once, later hits point at it (issue 24).
    from test_magic import LAYERS_LOG

    log = tmp_path / "repeated.log"
    log.write_text(LAYERS_LOG * 300, encoding="utf-8")
    text = run("--lang", "en", str(log)).stdout.decode()
    # Once at its first hit, once more under the first failure it came before.
    assert text.count("HCCL found another device ID") == 2 and text.count("Compare each device_id") == 1
    assert text.count(f"check as at {log}:1") == 299 + 49  # the symptom's later hits, the 49 more listed HCCL ones
    markdown = run("--lang", "en", "--format", "markdown", str(log)).stdout.decode()
    assert markdown.count("HCCL found another device ID") == 2 and markdown.count("npu-smi info") == 2


def test_hits_from_files_are_written_in_pieces_and_in_order(tmp_path, monkeypatch, capsys):
    """A write a hit made a system call each where Python's output is unbuffered
    (PYTHONUNBUFFERED=1, as container images set it): files' hits are held and written in pieces,
    and flushed before a path that cannot be read is named, so the order stays; standard input's
    are written as they come (a stream's hit must show while its writer pauses)."""
    from sphinx_llmstatus.cli import main, output
    from sphinx_llmstatus.cli import scan as cli_scan
    from sphinx_llmstatus.scan import pipeline

    line = b"[ERROR] LinkLlmClusters failed, ret = 1343270921\n"
    first, second = tmp_path / "a.log", tmp_path / "c.log"
    first.write_bytes(line * 2000)
    second.write_bytes(line)
    writes: list[str] = []
    real = output.write

    def counted(stream, text):
        writes.append(text)
        real(stream, text)

    monkeypatch.setattr(output, "write", counted)  # the pieces' (output.Pieces: no descriptor here)
    monkeypatch.setattr(cli_scan, "error", lambda message: writes.append(f"ERROR {message}\n"))
    assert main(["scan", "--no-progress", str(first), str(tmp_path / "b.log"), str(second)]) == 2
    text = "".join(writes)
    assert text.count("LLM_LINK_FAILED 0x5010B009") == 2001
    assert text.index("ERROR cannot read") > text.rindex("a.log:2000:") and text.index("c.log:1:") > text.index("ERROR")
    assert len(writes) < 30 and capsys.readouterr().out == "".join(w for w in writes if not w.startswith("ERROR"))
    writes.clear()
    monkeypatch.setattr(pipeline, "BATCH", 100)  # (an event holds at most so many hits)
    monkeypatch.setattr(sys, "stdin", open(first, encoding="utf-8"))  # noqa: SIM115 (closed by the scan)
    main(["scan", "--no-progress", "-"])
    assert len(writes) > 20  # an event's hits at a time, not a piece's


@pytest.mark.parametrize("form", [[], ["-C", "2"], ["--json"]])
@pytest.mark.parametrize("where", ["writing", "diagnosing"])
def test_ctrl_c_while_hits_are_laid_out_or_diagnosed_keeps_every_line_read(tmp_path, monkeypatch, capsys, form, where):
    """Ctrl-C while the command lays out an event's hits (held back till they are held for
    output: it comes at the end), or while the diagnosis judges one (anywhere): the scanner and
    the diagnosis hold the hits of lines already read (a block's, the failures waiting for their
    200 lines, the event being judged). They are told of it and give them: the report counts
    every failure read, and each is written once (the summary counted 1 of 3,000; then, with
    events of 1,024 hits, 2,215)."""
    from sphinx_llmstatus.cli import main
    from sphinx_llmstatus.cli import scan as cli_scan
    from sphinx_llmstatus.scan.diagnosis import Diagnoser

    log = tmp_path / "a.log"
    log.write_bytes(b"[ERROR] LinkLlmClusters failed, ret = 1343270921\n" * 3000)
    target, name = (cli_scan._Run, "_keep") if where == "writing" else (Diagnoser, "diagnose")
    real = getattr(target, name)
    calls = []

    def interrupted(self, *args):
        calls.append(1)
        if where == "writing":  # SIGINT, held back while the event is taken: raised as it is held
            got = real(self, *args)
            if len(calls) == 1:
                _sigint(elsewhere=False)
            return got
        if len(calls) == 1:
            raise KeyboardInterrupt
        return real(self, *args)

    monkeypatch.setattr(target, name, interrupted)
    assert main(["scan", "--no-progress", *form, str(log)]) == 130
    out = capsys.readouterr().out
    assert calls
    if "--json" in form:  # (every hit, no report)
        assert len(out.splitlines()) == 3000
    else:
        assert "Summary: 3000 occurrence(s)" in out and out.count("a.log:3000:") == 1


def test_a_second_ctrl_c_while_the_rest_is_given_ends_with_the_report_so_far(tmp_path, monkeypatch, capsys):
    """After Ctrl-C the rest of what was read is given (it may take a while on a log of hits); a
    second Ctrl-C ends that at once, with the report of what was given and exit status 130."""
    from sphinx_llmstatus.cli import main
    from sphinx_llmstatus.cli import scan as cli_scan
    from sphinx_llmstatus.scan import pipeline

    log = tmp_path / "a.log"
    log.write_bytes(b"[ERROR] LinkLlmClusters failed, ret = 1343270921\n" * 3000)
    real, calls = cli_scan._Run._keep, []

    def interrupted(self, text):
        calls.append(1)
        real(self, text)
        if len(calls) in (1, 3):  # (the first held back while the event is taken)
            _sigint(elsewhere=False)

    monkeypatch.setattr(pipeline, "BATCH", 1)  # an event a hit
    monkeypatch.setattr(cli_scan._Run, "_keep", interrupted)
    assert main(["scan", "--no-progress", str(log)]) == 130
    captured = capsys.readouterr()
    assert "Summary: 3 occurrence(s)" in captured.out and "interrupted" in captured.err


@pytest.mark.skipif(not hasattr(signal, "pthread_kill") or sys.platform == "win32", reason="needs signals and poll")
def test_a_piece_of_output_cut_by_ctrl_c_loses_nothing_and_writes_nothing_twice():
    """Ctrl-C while the reader reads nothing (``| less`` while one looks): the held hits are written
    a pipe's worth at a time, so what Ctrl-C left goes first at the next write (a buffered write
    lost the rest of its 64 KiB piece: a tester's JSON line cut in two)."""
    import fcntl
    import io
    import threading

    from sphinx_llmstatus.cli.output import Pieces

    reader, writer = os.pipe()
    fcntl.fcntl(writer, 1031, 4096)  # F_SETPIPE_SZ: one page, so the writer waits at once
    stream = io.TextIOWrapper(io.FileIO(writer, "w"), encoding="utf-8")
    text = "".join(f'{{"line": {n}, "text": "ret = 1343270921 n={n}"}}\n' for n in range(3000))
    pieces = Pieces(stream)
    timer = threading.Timer(0.3, signal.pthread_kill, (threading.main_thread().ident, signal.SIGINT))
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        pieces.write(text)  # waits: nobody reads
    got = bytearray()
    drained = threading.Thread(target=lambda: got.extend(_read_all(reader)))
    drained.start()
    pieces.flush()  # the rest
    stream.close()
    drained.join(30)
    assert got.decode() == text


def _read_all(fd: int) -> bytes:
    chunks = []
    while chunk := os.read(fd, 1 << 16):
        chunks.append(chunk)
    os.close(fd)
    return b"".join(chunks)


def _sigint(elsewhere: bool) -> None:
    """SIGINT as Ctrl-C sends it, from within a hold (the main thread holds it back). Sent to the
    main thread, it waits there for the hold's end. Sent to the process while another thread runs
    (``elsewhere``), the system gives it to that thread, whose handler may run only later: wait
    till Python has run the scan's (the hold then defers it) or raised it here. A late one fell
    into the next scan (exit 130 for 1) or the next test (a CI run ended with KeyboardInterrupt
    in a test's set-up)."""
    import threading
    import time

    from sphinx_llmstatus.scan import interrupt

    if not elsewhere:
        signal.pthread_kill(threading.main_thread().ident, signal.SIGINT)  # type: ignore[arg-type]
        return
    os.kill(os.getpid(), signal.SIGINT)
    deadline = time.monotonic() + 5
    while not interrupt._Holds.pending and time.monotonic() < deadline:
        time.sleep(0.001)


def _sigint_in_holds(monkeypatch, thread: bool = False) -> tuple[list[int], set[int]]:
    """Hold back as the scan does, and send SIGINT within the holds whose numbers (from 1) are in
    the set returned (:func:`_sigint`; ``thread``: another thread runs); the list counts the holds
    of a scan."""
    import contextlib
    import importlib

    from sphinx_llmstatus.scan import engine, interrupt, pipeline

    monkeypatch.setattr(engine, "RUN", 50)
    monkeypatch.setattr(pipeline, "BATCH", 50)
    real, holds, at = interrupt.held_back, list[int](), set[int]()

    @contextlib.contextmanager
    def hooked(*args, **kwargs):
        with real(*args, **kwargs):
            holds.append(1)
            if len(holds) in at:
                _sigint(thread)
            yield

    for name in ("interrupt", "engine", "pipeline", "diagnosis", "helper", "parallel"):
        module = importlib.import_module(f"sphinx_llmstatus.scan.{name}")
        if hasattr(module, "held_back"):
            monkeypatch.setattr(module, "held_back", hooked)
    monkeypatch.setattr(importlib.import_module("sphinx_llmstatus.cli.scan"), "held_back", hooked)
    return holds, at


def _scanned_whole(log, form: list[str], holds: list[int], at: set[int], capsys) -> None:
    """Scan ``log`` (each line a hit); each hit read is written once and counted once. After a
    second Ctrl-C the lines of the last hit's context may be lines whose hits were not read."""
    from sphinx_llmstatus.cli import main

    holds.clear()
    assert main(["scan", "--no-progress", *form, str(log)]) == (130 if len(holds) >= min(at) else 1), at
    out = capsys.readouterr().out
    if "--json" in form:
        lines = [json.loads(line)["line"] for line in out.splitlines()]
    else:
        lines = [int(n) for n in re.findall(r"^\S*a\.log:(\d+):", out, re.M)]
        assert f"Summary: {len(lines)} occurrence(s)" in out if lines else "No LLM" in out, at
        around = [int(n) for n in re.findall(r"^\S*a\.log-(\d+)-", out, re.M)]  # (every line is a hit)
        assert around == ([] if len(at) == 1 else list(range(len(lines) + 1, len(lines) + 1 + len(around)))), at
        assert len(around) <= 2, at
    assert lines == list(range(1, len(lines) + 1)), at


def _flood_with_holds(tmp_path, monkeypatch, capsys, request, form, thread):
    """A log of 600 hits, the holds hooked (:func:`_sigint_in_holds`) and counted by a whole scan
    in ``form``; with ``thread``, another thread that runs till the test ends."""
    import threading

    log = tmp_path / "a.log"
    log.write_bytes(b"[ERROR] LinkLlmClusters failed, ret = 1343270921\n" * 600)
    holds, at = _sigint_in_holds(monkeypatch, thread)
    _scanned_whole(log, form, holds, {10**9}, capsys)
    if thread:
        done = threading.Event()
        threading.Thread(target=done.wait, daemon=True).start()
        request.addfinalizer(done.set)
    return log, holds, at


@pytest.mark.parametrize("thread", [False, True])
@pytest.mark.parametrize("form", [[], ["-C", "2"], ["--json"]])
def test_ctrl_c_as_any_hold_ends_loses_no_hit_and_counts_none_twice(tmp_path, monkeypatch, capsys, request, form, thread):
    """SIGINT that comes while a layer takes something with it held back is raised as the hold
    ends; a value on its way out of the hold was lost (a run of 1,024 hits of a flood, taken off
    the scanner's queue: a tester's summary counted hits the output had not, and ``-C`` printed
    lines of them as context; the diagnosis's last events were lost when it came as they were
    given). SIGINT sent within each hold in turn (runs and events of 50 hits): every hit read
    is written once, and counted once. With another thread running, the system gives it the
    SIGINT the main thread holds back, and Python raised it within the hold (the handler now
    waits for the hold's end)."""
    log, holds, at = _flood_with_holds(tmp_path, monkeypatch, capsys, request, form, thread)
    for first in range(1 + thread, len(holds) + 1, 2):
        at.clear()
        at.add(first)
        _scanned_whole(log, form, holds, at, capsys)


@pytest.mark.parametrize("thread", [False, True])
@pytest.mark.parametrize("form", [[], ["-C", "2"]])
def test_a_second_ctrl_c_in_any_hold_leaves_no_gap(tmp_path, monkeypatch, capsys, request, form, thread):
    """A second Ctrl-C ends the giving of what was read (the report now): each layer still gives
    what it took. A tester's second Ctrl-C lost the run or event in hand: 1,024 hits missing
    before the last few, or counted and not written. Sent within each hold after a first; with
    another thread, Python's own handler raised the second within the hold."""
    log, holds, at = _flood_with_holds(tmp_path, monkeypatch, capsys, request, form, thread)
    for second in range(31 + thread, len(holds) + 1, 2):
        at.clear()
        at.update((30, second))
        _scanned_whole(log, form, holds, at, capsys)


def test_a_second_ctrl_c_as_an_event_is_laid_out_writes_what_it_counted(tmp_path, monkeypatch, capsys):
    """The events given after a first Ctrl-C are taken with SIGINT held back too: a second one as
    an event was laid out, after the report counted its hits, left them counted and not written
    (a tester's summary was 1,024 over the hits written)."""
    from sphinx_llmstatus.cli import main
    from sphinx_llmstatus.cli import scan as cli_scan
    from sphinx_llmstatus.scan import pipeline

    log = tmp_path / "a.log"
    log.write_bytes(b"[ERROR] LinkLlmClusters failed, ret = 1343270921\n" * 3000)
    real, calls = cli_scan._Run._keep, []

    def interrupted(self, text):
        calls.append(1)
        if len(calls) in (1, 3):  # counted, not yet kept
            _sigint(elsewhere=False)
        real(self, text)

    monkeypatch.setattr(pipeline, "BATCH", 10)
    monkeypatch.setattr(cli_scan._Run, "_keep", interrupted)
    assert main(["scan", "--no-progress", str(log)]) == 130
    out = capsys.readouterr().out
    written = len(re.findall(r"^\S*a\.log:\d+:", out, re.M))
    assert written >= 30 and f"Summary: {written} occurrence(s)" in out


@pytest.mark.parametrize("again", [False, True])
def test_ctrl_c_as_the_report_is_written_gives_it_whole(tmp_path, monkeypatch, capsys, again):
    """Ctrl-C as the report is written (a first, or a second after one in the scan) is the report
    now: it is written whole. A second SIGINT that Python handled late (the system gave it to
    another thread) raised as the report was made, and the command ended without it."""
    from sphinx_llmstatus.cli import main
    from sphinx_llmstatus.cli import scan as cli_scan

    log = tmp_path / "a.log"
    log.write_bytes(b"[ERROR] LinkLlmClusters failed, ret = 1343270921\n" * 30)
    real, flushes, ends = cli_scan._Run.flush_output, [], []

    def flush_output(self):
        flushes.append(1)
        if len(flushes) == 1 and again:  # the hits held: the first
            _sigint(elsewhere=False)
        real(self)

    def end(self, interrupted):
        if not ends:
            ends.append(1)
            _sigint(elsewhere=False)
        real_end(self, interrupted)

    real_end = cli_scan._Run.end
    monkeypatch.setattr(cli_scan._Run, "flush_output", flush_output)
    monkeypatch.setattr(cli_scan._Run, "end", end)
    assert main(["scan", "--no-progress", str(log)]) == 130
    out = capsys.readouterr().out
    assert len(re.findall(r"^\S*a\.log:\d+:", out, re.M)) == 30 and "Summary: 30 occurrence(s)" in out
