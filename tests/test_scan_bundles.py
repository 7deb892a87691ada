"""A whole deployment's logs (issue 23): bundles, damaged files, time order, both sides of a link,
merge, -j, progress and Ctrl-C. Archives and compressed files are made by the real tools."""

from __future__ import annotations

import gzip
import io
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from deployment import EXPECTED_FIRST, make_bundle, make_tree

CLI = [sys.executable, "-m", "sphinx_llmstatus"]
FAILURE = b"[ERROR] LinkLlmClusters failed, ret = 1343270921\n"
needs = pytest.mark.skipif(not all(shutil.which(t) for t in ("tar", "gzip", "zip")), reason="needs tar, gzip, zip")


def run(*args: str, stdin: bytes | None = None, cwd: Path | None = None) -> subprocess.CompletedProcess:
    env = {**os.environ, "NO_COLOR": "1"}
    return subprocess.run([*CLI, *args], input=stdin, capture_output=True, check=False, timeout=300, env=env,
                          cwd=cwd)


@pytest.fixture(scope="module")
def deployment(tmp_path_factory):
    root = tmp_path_factory.mktemp("deployment")
    tree = make_tree(root / "nodes")
    return tree, make_bundle(root, tree)


def _summary(*args: str) -> dict:
    p = run("scan", "--summary", "--json", *args)
    assert p.returncode == 2, p.stderr  # the cut member is named: exit 2
    return json.loads(p.stdout)


def _pairs(summary: dict) -> list[tuple]:
    return [(e["name"], e["time"], e["host"], e["process"], (e.get("peer") or {}).get("name"),
             (e.get("peer") or {}).get("host")) for e in summary["first_failures"]]


@needs
def test_bundle_first_failure_provenance_time_and_pair(deployment):
    _tree, bundle = deployment
    summary = _summary(str(bundle))
    first = summary["first_failures"]
    assert (first[0]["name"], first[0]["time"]) == EXPECTED_FIRST
    assert first[0]["file"] == f"{bundle}{{prefill-0/plog/plog-4242_20261130100000.log}}"
    assert (first[0]["host"], first[0]["role"]) == ("prefill-0", "prefill")
    decode = next(e for e in first if e["name"] == "LLM_TIMEOUT")
    assert decode["file"] == f"{bundle}{{decode-1/logs.zip{{vllm.log}}}}"  # nested zip: named inside it
    assert decode["remote_cluster"] == "1000" and decode["role"] == "decode"
    assert decode["peer"] == {"cluster_id": "1000", "host": "prefill-0", "file": first[0]["file"], "line": 2,
                              "time": EXPECTED_FIRST[1], "name": "LLM_DEVICE_OUT_OF_MEMORY"}
    assert summary["root_cause"]["name"] == "LLM_DEVICE_OUT_OF_MEMORY"
    assert [f["name"] for f in summary["root_cause"]["followed_by"]] == ["LLM_TIMEOUT"]
    times = [e["time"] for e in first]
    assert times == sorted(times)  # by time across hosts, not by path (decode-1 sorts first)
    # The cut member gives its lines up to the cut (its failure is among them) and is named.
    assert any(e["name"] == "LLM_LINK_FAILED" and e["process"] == "4243 (python)" for e in first)


@needs
def test_bundle_text_report_leads_with_the_root_cause_and_names_the_cut_member(deployment):
    _tree, bundle = deployment
    p = run("scan", "--summary", str(bundle))
    out, err = p.stdout.decode(), p.stderr.decode()
    assert out.startswith("Root-cause candidate: LLM_DEVICE_OUT_OF_MEMORY on prefill-0 at 2026-11-30 10:05:00.100")
    assert "then LLM_TIMEOUT on decode-1 at 2026-11-30 10:05:03, on the other side of the link" in out
    assert "linked with cluster 1000 (prefill-0): follows its LLM_DEVICE_OUT_OF_MEMORY" in out
    assert f"cannot read {bundle}{{prefill-0/plog/plog-4243_20261130100600.log.gz}}: gzip data ends" in err
    assert p.returncode == 2


@needs
def test_merge_of_per_node_reports_equals_the_whole_scan(deployment, tmp_path):
    tree, bundle = deployment
    whole = _summary(str(bundle))
    reports = []
    for node in ("prefill-0", "decode-1"):
        p = run("scan", "-r", "--summary", "--json", "--host", node, node, cwd=tree)
        path = tmp_path / f"{node}.json"
        path.write_bytes(p.stdout)
        reports.append(str(path))
    merged = run("merge", "--json", *reports)
    assert merged.returncode == 1, merged.stderr
    data = json.loads(merged.stdout)
    assert _pairs(data) == _pairs(whole)
    assert data["root_cause"]["name"] == whole["root_cause"]["name"]
    assert data["counts"] == whole["counts"]
    text = run("merge", *reports).stdout.decode()
    assert text.startswith("Root-cause candidate: LLM_DEVICE_OUT_OF_MEMORY on prefill-0")


def test_merge_refuses_what_is_not_a_summary(tmp_path):
    bad = tmp_path / "hits.json"
    bad.write_text('{"name": "LLM_TIMEOUT"}\n')
    p = run("merge", str(bad))
    assert p.returncode == 2 and p.stderr.decode().startswith(f"llmstatus: cannot merge {bad}: no 'first_failures'")
    assert len(p.stderr.decode().splitlines()) == 1


@needs
def test_jobs_two_gives_the_output_of_jobs_one(deployment):
    tree, _bundle = deployment
    for fmt in ("text", "json"):
        one = run("scan", "-r", "-j", "1", "--format", fmt, ".", cwd=tree)
        two = run("scan", "-r", "-j", "2", "--format", fmt, ".", cwd=tree)
        assert one.stdout == two.stdout and one.stderr == two.stderr and one.returncode == two.returncode
        assert b"LLM_TIMEOUT" in one.stdout


def test_truncated_gzip_gives_the_lines_zcat_gives(tmp_path):
    text = b"".join(b"[ERROR] worker %d ret = 1343270921\n" % i for i in range(2000))
    path = tmp_path / "cut.log.gz"
    path.write_bytes(gzip.compress(text)[:-10])
    zcat = subprocess.run(["gzip", "-dc", str(path)], capture_output=True, check=False)
    expected = zcat.stdout.count(b"\n")
    assert expected >= 1990
    p = run("scan", "--json", str(path))
    assert len(p.stdout.splitlines()) == expected
    assert p.returncode == 2 and "cut short" in p.stderr.decode()


def test_xz_padding_is_whole_and_gzip_garbage_is_named_after_the_hits(tmp_path):
    if not shutil.which("xz"):
        pytest.skip("needs xz")
    log = tmp_path / "w.log"
    log.write_bytes(FAILURE * 3)
    subprocess.run(["xz", "-k", str(log)], check=True)
    padded = tmp_path / "w.log.xz"
    padded.write_bytes(padded.read_bytes() + b"\0" * 8)  # stream padding: xz -t accepts it
    assert subprocess.run(["xz", "-t", str(padded)], check=False).returncode == 0
    p = run("scan", "--json", str(padded))
    assert (p.returncode, len(p.stdout.splitlines()), p.stderr) == (1, 3, b"")
    garbage = tmp_path / "g.log.gz"
    garbage.write_bytes(gzip.compress(FAILURE * 3) + b"garbage\n")
    p = run("scan", "--json", str(garbage))
    assert len(p.stdout.splitlines()) == 3
    assert p.stderr.decode() == f"llmstatus: cannot read {garbage}: decompression OK, trailing garbage ignored " \
                                "(as gzip says)\n"
    assert p.returncode == 2  # as gzip -t says 2


def test_zstd_long_window_needs_long(tmp_path):
    if not shutil.which("zstd"):
        pytest.skip("needs zstd")
    log = tmp_path / "w.log"
    log.write_bytes(FAILURE * 1000)
    with open(log, "rb") as src, open(tmp_path / "w.zst", "wb") as dst:  # streamed: the frame keeps its 2 GiB window
        subprocess.run(["zstd", "-q", "--long=31", "-c"], stdin=src, stdout=dst, check=True)
    p = run("scan", "--json", str(tmp_path / "w.zst"))
    assert p.returncode == 2 and "scan with --long" in p.stderr.decode() and p.stdout == b""
    p = run("scan", "--json", "--long", str(tmp_path / "w.zst"))
    assert p.returncode == 1 and len(p.stdout.splitlines()) == 1000


def test_empty_directory_and_output_inside_the_scanned_directory(tmp_path):
    empty = tmp_path / "empty"
    empty.mkdir()
    p = run("scan", "-r", str(empty))
    assert p.returncode == 2 and p.stderr.decode() == f"llmstatus: cannot read {empty}: holds no file to scan\n"
    logs = tmp_path / "logs"
    logs.mkdir()
    (logs / "w.log").write_bytes(FAILURE)
    shell = subprocess.run(f"{sys.executable} -m sphinx_llmstatus scan -r logs > logs/out", shell=True,
                           cwd=tmp_path, capture_output=True, check=False, timeout=120)
    assert "input file is also the output" in shell.stderr.decode()
    assert (logs / "out").read_text().count("LLM_LINK_FAILED") >= 1
    assert (logs / "out").stat().st_size < 10_000  # it did not read itself


@pytest.mark.skipif(os.geteuid() == 0 if hasattr(os, "geteuid") else True, reason="root reads any directory")
def test_unreadable_subdirectory_is_named_with_exit_2(tmp_path):
    (tmp_path / "logs" / "locked").mkdir(parents=True)
    (tmp_path / "logs" / "w.log").write_bytes(FAILURE)
    os.chmod(tmp_path / "logs" / "locked", 0)
    try:
        p = run("scan", "-r", str(tmp_path / "logs"))
    finally:
        os.chmod(tmp_path / "logs" / "locked", 0o755)
    assert p.returncode == 2 and "locked: Permission denied" in p.stderr.decode()


def test_archive_nested_deeper_than_three_levels_is_named(tmp_path):
    import io
    import tarfile

    data = FAILURE
    name = "w.log"
    for level in range(5):
        buf = io.BytesIO()
        with tarfile.open(fileobj=buf, mode="w") as tar:
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
        data, name = buf.getvalue(), f"level{level}.tar"
    (tmp_path / "deep.tar").write_bytes(data)
    p = run("scan", str(tmp_path / "deep.tar"))
    assert "nested more than 3 levels deep" in p.stderr.decode() and p.returncode == 2


def _pty_run(args: list[str], stdin: int | None = None) -> tuple[subprocess.Popen, int]:
    import fcntl
    import pty
    import struct
    import termios

    leader, follower = pty.openpty()
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 100, 0, 0))  # a new pty is 0x0
    proc = subprocess.Popen([*CLI, *args], stdin=stdin, stdout=subprocess.PIPE, stderr=follower,
                            env={**os.environ, "NO_COLOR": "1", "COLUMNS": "100"})
    os.close(follower)
    return proc, leader


def _read_all(fd: int) -> bytes:
    out = b""
    while True:
        try:
            chunk = os.read(fd, 65536)
        except OSError:  # the other side closed
            break
        if not chunk:
            break
        out += chunk
    return out


@pytest.mark.skipif(sys.platform == "win32", reason="needs a pseudo-terminal")
def test_progress_line_on_a_terminal_and_none_in_a_pipe(tmp_path):
    logs = tmp_path / "logs"
    logs.mkdir()
    for i in range(3):
        (logs / f"w{i}.log").write_bytes(b"worker ok\n" * 200_000 + FAILURE)
    proc, leader = _pty_run(["scan", "-r", "-j", "1", "--summary", str(logs)])
    proc.wait(timeout=120)
    err = _read_all(leader)
    os.close(leader)
    assert b"scanning" in err and b"files" in err  # tqdm's line on the terminal's stderr
    assert b"scanning" not in proc.stdout.read()  # type: ignore[union-attr]
    piped = run("scan", "-r", "--summary", str(logs))
    assert b"scanning" not in piped.stderr and b"scanning" not in piped.stdout


@pytest.mark.skipif(sys.platform == "win32", reason="needs signals")
def test_ctrl_c_prints_the_summary_of_what_was_scanned_and_exits_130():
    reader, writer = os.pipe()
    proc = subprocess.Popen([*CLI, "scan", "--summary", "-"], stdin=reader, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env={**os.environ, "NO_COLOR": "1"})
    os.close(reader)
    os.write(writer, FAILURE * 5 + b"worker ok\n" * 100)
    time.sleep(1.5)
    os.write(writer, b"worker ok\n" * 100)  # a buffered read returns once more data comes: scanned now
    time.sleep(2)  # the scanner waits for more
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    os.close(writer)
    assert proc.returncode == 130, err
    assert b"LLM_LINK_FAILED" in out and b"Summary: 5 occurrence" in out
    assert b"interrupted" in err


@pytest.mark.skipif(sys.platform == "win32", reason="needs signals")
@pytest.mark.parametrize("form", [["--summary"], ["-C", "2"], ["--json"]])
def test_ctrl_c_keeps_a_failure_queued_behind_a_shared_number(form):
    """A shared number's hit waits for its next lines (LLM DataDist context may be there); a
    failure after it waits behind it. Ctrl-C while reading gives both, as the input's end would (a
    tester's failure was lost: the scanner's queue was dropped)."""
    reader, writer = os.pipe()
    proc = subprocess.Popen([*CLI, "scan", *form, "-"], stdin=reader, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env={**os.environ, "NO_COLOR": "1"})
    os.close(reader)
    os.write(writer, b"info\n" * 200 + b"[ERROR] RUNTIME(77,python): rtMemcpy failed, error code 507053\n" + FAILURE)
    time.sleep(2)  # read, and waiting for more
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    os.close(writer)
    assert proc.returncode == 130, err
    assert b"LLM_LINK_FAILED" in out and (b"507053" in out or b"ACL_ERROR_RT_DEVICE_MEM_ERROR" in out)


def test_stdin_on_a_terminal_says_it_reads_standard_input():
    import pty

    leader, follower = pty.openpty()
    proc = subprocess.Popen([*CLI, "scan"], stdin=follower, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env={**os.environ, "NO_COLOR": "1"})
    os.close(follower)
    time.sleep(2)
    os.write(leader, b"\x04")  # Ctrl-D: the end of input
    out, err = proc.communicate(timeout=60)
    os.close(leader)
    assert b"reading the log from standard input" in err


def test_text_typed_on_a_terminal_then_ctrl_d_is_scanned_and_ends_the_input():
    import pty

    leader, follower = pty.openpty()
    proc = subprocess.Popen([*CLI, "scan", "--json", "-"], stdin=follower, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env={**os.environ, "NO_COLOR": "1"})
    os.close(follower)
    time.sleep(2)
    os.write(leader, FAILURE + b"\x04")  # one Ctrl-D after text: the line, then the end of input
    out, err = proc.communicate(timeout=60)
    os.close(leader)
    assert b'"token": "1343270921"' in out, err


@pytest.mark.skipif(sys.platform == "win32", reason="needs poll on a pipe")
@pytest.mark.parametrize("first", [b"worker ok\n" * 100, b"ok\n"], ids=["whole-head", "head-in-two-writes"])
def test_a_slow_writers_hit_comes_out_before_the_writer_ends(first):
    """``tail -f log | llmstatus scan -``: a read never waits for more than is written (the
    formats are told by the first 512 bytes, from one write or two). A failure is written once
    the lines that may prove its cause have come (evidence.WINDOW_LINES: 200, not one more)."""
    from sphinx_llmstatus.scan.evidence import WINDOW_LINES

    assert b"LLM_LINK_FAILED" in _first_line_while_open(first, FAILURE + b"worker ok\n" * WINDOW_LINES)


def _first_line_while_open(*writes: bytes) -> bytes:
    """``scan -`` on a pipe: ``writes`` written a second apart, then the first line printed while
    the pipe is still open (the writer pauses, it has not ended)."""
    import select

    reader, writer = os.pipe()
    proc = subprocess.Popen([*CLI, "scan", "-"], stdin=reader, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env={**os.environ, "NO_COLOR": "1"})
    os.close(reader)
    try:
        for i, data in enumerate(writes):
            if i:
                time.sleep(1)
            os.write(writer, data)
        assert select.select([proc.stdout], [], [], 60)[0], "no line while the writer pauses"
        return proc.stdout.readline()
    finally:
        os.close(writer)
        proc.communicate(timeout=60)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs named pipes")
def test_a_named_pipe_given_as_a_file_is_read(tmp_path):
    """``llmstatus scan <(zcat log.gz)`` or a FIFO: read as a stream (it cannot be read in place)."""
    fifo = tmp_path / "log.fifo"
    os.mkfifo(fifo)
    proc = subprocess.Popen([*CLI, "scan", "--json", str(fifo)], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    fifo.write_bytes(b"worker ok\n" + FAILURE)  # opens for writing once the scan opens it for reading
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 1 and b'"token": "1343270921"' in out, err


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs named pipes")
def test_a_named_pipe_given_as_a_file_is_scanned_as_it_comes(tmp_path):
    """A named pipe (or ``/dev/stdin``, ``<(...)``) given as a path streams as ``-`` does: a
    tester's writer's hits came only once it closed (the buffered file waited to fill its read)."""
    import select

    from sphinx_llmstatus.scan.evidence import WINDOW_LINES

    fifo = tmp_path / "log.fifo"
    os.mkfifo(fifo)
    proc = subprocess.Popen([*CLI, "scan", str(fifo)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env={**os.environ, "NO_COLOR": "1"})
    writer = os.open(fifo, os.O_WRONLY)  # once the scan opens it for reading
    try:
        os.write(writer, FAILURE + b"worker ok\n" * WINDOW_LINES)
        assert select.select([proc.stdout], [], [], 60)[0], "no line while the writer pauses"
        assert b"LLM_LINK_FAILED" in proc.stdout.readline()
    finally:
        os.close(writer)
        proc.communicate(timeout=60)


@pytest.mark.skipif(sys.platform == "win32", reason="needs a non-blocking pipe")
def test_a_pipe_left_non_blocking_is_read_to_its_end():
    """A descriptor another program left non-blocking: a read of no data is no end of input."""
    reader, writer = os.pipe()
    os.set_blocking(reader, False)
    proc = subprocess.Popen([*CLI, "scan", "--json", "-"], stdin=reader, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env={**os.environ, "NO_COLOR": "1"})
    os.close(reader)
    os.write(writer, b"worker ok\n")
    time.sleep(1.5)
    os.write(writer, FAILURE)
    os.close(writer)
    out, err = proc.communicate(timeout=60)
    assert b'"token": "1343270921"' in out, err


@pytest.mark.skipif(sys.platform == "win32", reason="needs poll on a pipe")
@pytest.mark.parametrize("form", ["gzip", "utf-16", "gzip member", "bzip2 member", "xz member"])
def test_a_slow_writers_compressed_or_utf16_stream_is_scanned_as_it_comes(form):
    """A gzip stream flushed as it is written, or UTF-16 text, from a writer that pauses: the
    decoder reads what is there, not a whole chunk (a tester's hits came only at the end). A
    whole member, the next to come: its lines are given before the next member is waited for (a
    tester's writer of a member every 1.5 s had each member's hits shown with the next)."""
    import bz2
    import lzma
    import zlib

    from sphinx_llmstatus.scan.evidence import WINDOW_LINES

    text = b"worker ok\n" * 100 + FAILURE + b"worker ok\n" * (WINDOW_LINES + 1)
    if form == "gzip":
        packer = zlib.compressobj(6, zlib.DEFLATED, 31)  # the gzip format
        data = packer.compress(text) + packer.flush(zlib.Z_SYNC_FLUSH)
    elif form.endswith("member"):
        data = {"gzip": gzip.compress, "bzip2": bz2.compress, "xz": lzma.compress}[form.split()[0]](text)
    else:
        data = text.decode().encode("utf-16")  # with its BOM
    assert b"LLM_LINK_FAILED" in _first_line_while_open(data)


@pytest.mark.skipif(sys.platform == "win32", reason="needs poll on a pipe")
@pytest.mark.parametrize("then", [b"", b"y" * (3 << 19)], ids=["between lines", "within a line"])
def test_blocks_held_for_the_helper_are_scanned_when_the_writer_pauses(then):
    """Standard input shares its blocks with the helper process while the writer writes on; when
    it pauses, between lines or within a line longer than a pipe's read, the blocks held are
    scanned before the read waits (a tester's hits waited for the next write)."""
    from sphinx_llmstatus.scan.evidence import WINDOW_LINES
    from sphinx_llmstatus.scan.helper import cpus

    if cpus() < 2:
        pytest.skip("no helper on this machine (one CPU)")
    burst = b"[INFO] RUNTIME(4321,python): stream sync ok, task_id=12345678\n" * 200_000  # 12 MB: blocks held
    assert b"LLM_LINK_FAILED" in _first_line_while_open(burst + FAILURE + b"worker ok\n" * (WINDOW_LINES + 1) + then)


@pytest.mark.skipif(sys.platform == "win32", reason="needs poll on a pipe")
def test_blocks_are_held_for_the_helper_half_a_second_at_most():
    """A writer that never pauses 20 ms (a dot every 5 ms, no line break) still gets the hits of
    what it wrote before, once a block has been held for helper.HOLD_SECONDS (a tester's waited
    for the end)."""
    import select

    from sphinx_llmstatus.scan.evidence import WINDOW_LINES
    from sphinx_llmstatus.scan.helper import cpus

    if cpus() < 2:
        pytest.skip("no helper on this machine (one CPU)")
    burst = b"[INFO] RUNTIME(4321,python): stream sync ok, task_id=12345678\n" * 200_000
    reader, writer = os.pipe()
    proc = subprocess.Popen([*CLI, "scan", "-"], stdin=reader, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    os.close(reader)
    try:
        os.write(writer, burst + FAILURE + b"worker ok\n" * WINDOW_LINES)
        start = time.monotonic()
        while not select.select([proc.stdout], [], [], 0.005)[0] and time.monotonic() - start < 30:
            os.write(writer, b".")
        assert b"LLM_LINK_FAILED" in proc.stdout.readline()
        assert time.monotonic() - start < 10, "the hit waited for the writer to pause"
    finally:
        os.close(writer)
        proc.communicate(timeout=60)


def test_a_pipes_reads_go_on_while_more_is_waiting():
    """Standard input read as one block while more waits: a pipe gives one buffer (64 KiB) a
    read, and each block costs the scan a pass; a read stops where none waits."""
    import io

    from sphinx_llmstatus.scan.bundles import _Ends

    class Trickle(io.BytesIO):  # a pipe that gives 1,000 bytes a read
        def __init__(self, data: bytes, fd: int) -> None:
            super().__init__(data)
            self.fd = fd

        def fileno(self) -> int:
            return self.fd

        def read1(self, size: int = -1) -> bytes:
            return self.read(min(size, 1000))

    reader, writer = os.pipe()
    try:
        quiet = _Ends(Trickle(b"x" * 5000, reader))  # nothing waits on the descriptor
        buf = bytearray(1 << 20)
        assert quiet.readinto(memoryview(buf)) == 1000
        os.write(writer, b"!")  # now a read would not wait
        waiting = _Ends(Trickle(b"x" * 5000, reader))
        assert waiting.readinto(memoryview(buf)) == 5000
        assert waiting.readinto(memoryview(buf)) == 0  # the end was read: said once, for good
    finally:
        os.close(reader)
        os.close(writer)


@pytest.mark.parametrize("fmt", ["gzip", "xz"])
def test_big_compressed_file_keeps_every_line_and_the_damage(tmp_path, fmt):
    """A compressed file of 8 MiB and more is decoded by a child process when its format decodes
    slowly (xz; gzip without ISA-L: scan.unpack), in this process when fast: either way the hits
    are those of the plain file, and a cut file gives the lines its tool gives, then its damage."""
    import lzma
    import random

    from sphinx_llmstatus.scan.decompress import fast_gzip
    from sphinx_llmstatus.scan.unpack import decodes_apart

    assert decodes_apart("xz") and decodes_apart("gzip") != fast_gzip() and not decodes_apart("zstd")
    rnd = random.Random(5)
    lines = [b"%032x worker step ok\n" % rnd.getrandbits(128) for _ in range(440_000)]
    for i in range(0, len(lines), 55_000):
        lines[i] = FAILURE
    text = b"".join(lines)
    packed = gzip.compress(text, compresslevel=1) if fmt == "gzip" else lzma.compress(text, preset=0)
    assert len(packed) >= 8 << 20  # the child's threshold (scan.unpack.CHILD_MIN)
    plain, whole, cut = tmp_path / "w.log", tmp_path / "w.log.z", tmp_path / "cut.log.z"
    plain.write_bytes(text)
    whole.write_bytes(packed)
    cut.write_bytes(packed[: len(packed) * 9 // 10])
    expected = run("scan", "--json", str(plain)).stdout.replace(str(plain).encode(), b"F")
    assert run("scan", "--json", str(whole)).stdout.replace(str(whole).encode(), b"F") == expected
    p = run("scan", "--json", str(cut))
    tool = subprocess.run([fmt, "-dc", str(cut)], capture_output=True, check=False).stdout
    assert len(p.stdout.splitlines()) == tool.count(FAILURE) == 8
    assert p.returncode == 2 and "cut short" in p.stderr.decode()


def test_gzip_inflates_alike_with_zlib_and_isa_l(monkeypatch):
    """ISA-L where installed, zlib otherwise: the same bytes and the same damage. A bad checksum
    or length is said after every line it covers, as zcat does (a tester's small file with a bad
    CRC gave no line: the decoder's last step was lost); a header read in pieces is whole."""
    import io
    import zlib

    from sphinx_llmstatus.scan import decompress

    text = b"".join(b"line %d ret = 1343270921\n" % i for i in range(100_000))
    whole = gzip.compress(text)
    crc = whole[:-8] + bytes([whole[-8] ^ 1]) + whole[-7:]
    size = whole[:-4] + bytes([whole[-4] ^ 1]) + whole[-3:]
    # A header with every optional field (extra, name, comment, its own CRC), as gzip -N and others write it.
    head = bytearray(b"\x1f\x8b\x08\x1e" + whole[4:10] + b"\x03\x00abc" + b"name.log\0" + b"a comment\0")
    head += (zlib.crc32(head) & 0xFFFF).to_bytes(2, "little")
    fields = bytes(head) + whole[10:]
    badhead = fields[:len(head) - 1] + bytes([fields[len(head) - 1] ^ 1]) + fields[len(head):]
    cases = ((whole, text, None), (fields, text, None), (whole[:-20_000], None, "cut short"), (crc, text, "corrupt"),
             (size, text, "corrupt"), (badhead, b"", "corrupt"), (b"\x1f\x8b\x08\xe0" + whole[4:], b"", "corrupt"))
    makers = [lambda: False] + ([lambda: True] if decompress.fast_gzip() else [])
    with monkeypatch.context() as broken:  # an isal that is there but cannot load: zlib, no error
        broken.setitem(sys.modules, "isal", None)
        assert not decompress.fast_gzip()
        assert io.BufferedReader(decompress.Decoded(io.BytesIO(whole), "gzip", [])).read() == text
    for fast in makers:
        monkeypatch.setattr(decompress, "fast_gzip", fast)
        for packed, read, said in cases:
            for reads in (io.BytesIO(packed), _Trickle(packed, 5)):  # whole, and 5 bytes a read
                damage: list[str] = []
                out = io.BufferedReader(decompress.Decoded(reads, "gzip", damage)).read()
                assert out == read if read is not None else text.startswith(out)
                assert (said is None and not damage) or (said in damage[0] and "lines before" in damage[0])


@pytest.mark.parametrize(("fmt", "case"), [("gzip", "repeated"), ("gzip", "random"), ("bzip2", "repeated"),
                                           ("xz", "repeated")])
def test_corrupt_compressed_data_keeps_the_lines_its_tool_gives(tmp_path, monkeypatch, fmt, case):
    """Data that is itself corrupt (not a bad checksum, not a cut) keeps the lines before it: the
    decoders raise and keep nothing of the call that met it, so each call gives at most
    decompress.STEP bytes (a tester's file lost up to 4 MiB of lines that gzip -dc prints: it
    loses at most its window, 32 KiB). ISA-L decodes up to its own 32 KiB ahead of what a call
    gives: twice that (a second tester's file, "random": 58,796 bytes short of what zlib decodes).
    Made by the real tool and read back by it, with ISA-L and with zlib for gzip."""
    import random

    from sphinx_llmstatus.scan import decompress
    from sphinx_llmstatus.scan.bundles import inputs

    if shutil.which(fmt) is None:
        pytest.skip(f"{fmt} is not installed")
    if case == "random":  # the second tester's: a hit every 10th line, filler of random floats
        rnd = random.Random(2)
        text = "".join(f"[ERROR] LinkLlmClusters failed, ret = 1343270921 line {i}\n" if i % 10 == 0
                       else f"[INFO] filler {rnd.random()} line {i}\n" for i in range(1, 200_001)).encode()
    else:
        text = b"".join(b"%d LinkLlmClusters failed, ret = 1343270921\n" % i for i in range(300_000))
    plain = tmp_path / "dense.log"  # (the name is in gzip's header: the tester's offset)
    plain.write_bytes(text)
    packed = subprocess.run([fmt, "-c", plain.name], capture_output=True, check=True, cwd=tmp_path).stdout
    at = 2119879 if case == "random" else len(packed) * 3 // 5
    bad = tmp_path / "bad.log.z"
    bad.write_bytes(packed[:at] + b"\xff" * 64 + packed[at + 64:])  # (gzip: "format violated")
    tool = subprocess.run([fmt, "-dc", str(bad)], capture_output=True, check=False).stdout
    assert len(tool) > len(text) // 2  # (what comes out may end in bytes the corrupt data decoded to)
    makers = [(lambda: False, decompress.STEP)]
    if fmt == "gzip" and decompress.fast_gzip():
        makers.append((lambda: True, 2 * decompress.STEP))
    for fast, most in makers:
        monkeypatch.setattr(decompress, "fast_gzip", fast)
        for log in inputs(str(bad), False, None, None):  # read as the scan reads it
            out = log.stream.read()
            # The same bytes, up to where each stopped: the tool's step or ours may end first.
            assert tool.startswith(out) or out.startswith(tool)
            assert len(out) >= len(tool) - most, (len(out), len(tool))
            assert "corrupt" in log.damage[0] and "lines before" in log.damage[0]


class _Trickle(io.BytesIO):
    """A stream that gives ``step`` bytes a read for its first 100 (a header read in pieces),
    then 64 KiB."""

    def __init__(self, data: bytes, step: int) -> None:
        super().__init__(data)
        self.step = step

    def read1(self, size: int = -1) -> bytes:
        most = self.step if self.tell() < 100 else 1 << 16
        return self.read(min(most, size) if size >= 0 else most)


def test_archive_bombs_stay_bounded(tmp_path, monkeypatch):
    """Members are counted across levels and expansion is bounded (limits lowered here: the real
    ones are 100,000 members and 1,000 times past 1 GiB)."""
    import io
    import tarfile
    import zipfile

    from sphinx_llmstatus.scan import bundles, decompress

    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w") as tar:
        for i in range(5):
            info = tarfile.TarInfo(f"m{i}.log")
            info.size = len(FAILURE)
            tar.addfile(info, io.BytesIO(FAILURE))
    (tmp_path / "many.tar").write_bytes(buf.getvalue())
    monkeypatch.setattr(bundles, "MAX_MEMBERS", 3)
    logs = list(bundles.inputs(str(tmp_path / "many.tar")))
    assert [log.name.split("{")[-1] for log in logs[:3]] == ["m0.log}", "m1.log}", "m2.log}"]
    assert logs[-1].error == "holds more than 3 files: the rest were not read"
    monkeypatch.setattr(decompress, "BOMB_FLOOR", 1 << 20)
    monkeypatch.setattr(decompress, "BOMB_RATIO", 100)
    (tmp_path / "zeros.gz").write_bytes(gzip.compress(b"\n" * (8 << 20)))
    (log,) = bundles.inputs(str(tmp_path / "zeros.gz"))
    assert len(log.stream.read()) < 8 << 20  # type: ignore[union-attr]
    assert "archive bomb" in log.damage[0]
    with zipfile.ZipFile(tmp_path / "zeros.zip", "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("zeros.log", b"\n" * (8 << 20))
    (log, *_rest) = bundles.inputs(str(tmp_path / "zeros.zip"))
    assert len(log.stream.read()) < 8 << 20 and "archive bomb" in log.damage[0]  # type: ignore[union-attr]


@pytest.mark.skipif(not shutil.which("zip"), reason="needs zip")
def test_zip_members_that_cannot_be_opened_or_decoded_are_named(tmp_path):
    import zipfile

    (tmp_path / "m.log").write_bytes(FAILURE * 3)
    subprocess.run(["zip", "-q", "-P", "secret", "enc.zip", "m.log"], cwd=tmp_path, check=True)
    p = run("scan", "--summary", str(tmp_path / "enc.zip"))
    assert "Traceback" not in p.stderr.decode() and p.returncode == 2
    assert p.stderr.decode().startswith(f"llmstatus: cannot read {tmp_path / 'enc.zip'}{{m.log}}: cannot be opened")
    with zipfile.ZipFile(tmp_path / "flip.zip", "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("a.log", b"".join(b"worker %d ok\n" % i for i in range(20_000)) + FAILURE)
        z.writestr("b.log", FAILURE)
    data = bytearray((tmp_path / "flip.zip").read_bytes())
    data[200] ^= 0xFF  # inside a.log's deflate data
    (tmp_path / "flip.zip").write_bytes(bytes(data))
    p = run("scan", "--json", str(tmp_path / "flip.zip"))
    err = p.stderr.decode()
    assert "Traceback" not in err and "zip data of this file is cut or corrupt" in err and p.returncode == 2
    assert f"{tmp_path / 'flip.zip'}{{b.log}}" in p.stdout.decode()  # the next member is scanned


def test_archive_of_directories_only_is_named(tmp_path):
    import tarfile

    with tarfile.open(tmp_path / "dirs.tar", "w") as tar:
        info = tarfile.TarInfo("logs/")
        info.type = tarfile.DIRTYPE
        tar.addfile(info)
    p = run("scan", str(tmp_path / "dirs.tar"))
    assert p.returncode == 2 and "the tar archive holds no file to scan" in p.stderr.decode()


@pytest.mark.parametrize(("change", "why"), [
    ({"failures": "many"}, "'failures' is not a count"),
    ({"failures": [1]}, "'failures' is not a count"),
    ({"other_families": []}, "'other_families' is not an object"),
    ({"clusters": [{}]}, "cluster 1: 'cluster_id' is not text"),
    ({"first_failures": [{"name": "LLM_TIMEOUT", "host": ["a"]}]}, "first failure 1: 'host' is not text"),
    ({"counts": {"LLM_FAILED": -5}}, "'counts' is not an object of counts"),
])
def test_merge_names_what_is_wrong_in_a_report(tmp_path, change, why):
    report = {"first_failures": [], "clusters": [], "counts": {}, "failures": 0, **change}
    path = tmp_path / "r.json"
    path.write_text(json.dumps(report))
    p = run("merge", str(path))
    assert p.returncode == 2 and p.stderr.decode() == f"llmstatus: cannot merge {path}: {why}\n"
    path.write_text("[" * 100_000)
    assert "nested too deeply" in run("merge", str(path)).stderr.decode()
    path.write_text('{"first_failures": [], "clusters": [], "counts": {}, "failures": NaN}')
    assert run("merge", str(path)).stderr.decode().endswith("NaN is not JSON\n")


@needs
def test_hosts_when_node_directories_are_given_or_zipped(deployment, tmp_path):
    tree, _bundle = deployment
    p = run("scan", "-r", "--summary", "--json", "prefill-0", "decode-1", cwd=tree)
    first = json.loads(p.stdout)["first_failures"]
    assert {e["host"] for e in first} == {"prefill-0", "decode-1"}  # each directory given is a node
    assert next(e for e in first if e["name"] == "LLM_TIMEOUT")["peer"]["name"] == "LLM_DEVICE_OUT_OF_MEMORY"
    # A process id reused on two nodes scanned together stays two processes.
    for node in ("n1", "n2"):
        (tmp_path / node).mkdir()
        (tmp_path / node / "plog.log").write_bytes(
            b"[ERROR] GE(4242,python):2026-11-30-10:05:00.100.000 [llm_datadist.cc:1]4242 x: ret = 1343270921\n")
    p = run("scan", "-r", "--summary", "--json", str(tmp_path / "n1"), str(tmp_path / "n2"))
    assert [e["host"] for e in json.loads(p.stdout)["first_failures"]] == ["n1", "n2"]
