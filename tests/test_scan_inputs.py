"""``llmstatus scan`` given bad or unusual input: one line per unreadable file, the rest still scanned.

Cases from an adversarial run of issue 13 (corrupt and truncated compressed logs,
special files met by ``-r``), and the report's words: standard input named one
way, first failures in every format, Chinese from the catalog.
"""

from __future__ import annotations

import bz2
import gzip
import io
import json
import lzma
import os
import subprocess
import sys
import time

import pytest

from sphinx_llmstatus.scan.encoding import utf8_stream
from sphinx_llmstatus.scan.sources import decompressed

CLI = [sys.executable, "-m", "sphinx_llmstatus"]
FAILURE = b"[ERROR] LinkLlmClusters failed, ret = 1343270921\n"


def run(*args: str, stdin: bytes | None = None, timeout: float = 120) -> subprocess.CompletedProcess:
    env = {**os.environ, "NO_COLOR": "1"}
    return subprocess.run([*CLI, *args], input=stdin, capture_output=True, check=False, timeout=timeout, env=env)


def _zstd(data: bytes) -> bytes:
    zstandard = pytest.importorskip("zstandard")
    return zstandard.ZstdCompressor().compress(data)


BIG = b"".join(b"worker %d ok\n" % i for i in range(200_000)) + FAILURE
CORRUPT = {
    "cut.gz": lambda: gzip.compress(BIG)[:20_000],
    "garbage.gz": lambda: b"\x1f\x8b\x08garbage",
    "bitflip.gz": lambda: (lambda d: d[:200] + bytes(b ^ 0xFF for b in d[200:400]) + d[400:])(gzip.compress(BIG)),
    "cut.xz": lambda: lzma.compress(BIG, preset=0)[:5_000],  # preset 0: the cut is what counts, not the ratio
    "junk.xz": lambda: b"\xfd7zXZ\x00junk",
    "cut.bz2": lambda: bz2.compress(BIG)[:5_000],
    "junk.zst": lambda: b"\x28\xb5\x2f\xfdjunkjunk",
    "cut.zst": lambda: _zstd(BIG)[:5_000],  # zstandard's stream reader itself ends quietly there
}


@pytest.mark.parametrize("name", sorted(CORRUPT))
def test_corrupt_or_truncated_compressed_log_is_one_line_and_the_next_file_is_scanned(tmp_path, name):
    bad = tmp_path / name
    bad.write_bytes(CORRUPT[name]())
    good = tmp_path / "good.log"
    good.write_bytes(FAILURE)
    p = run("scan", "--summary", str(bad), str(good))
    err = p.stderr.decode()
    assert "Traceback" not in err and len(err.splitlines()) == 1, err
    assert err.startswith(f"llmstatus: cannot read {bad}: ") and ("cut short" in err or "corrupt" in err)
    assert p.returncode == 2  # unreadable beats "found a failure"
    assert f"{good}:1" in p.stdout.decode()  # the good file's first failure is in the summary
    piped = run("scan", "-", stdin=CORRUPT[name]())
    assert piped.returncode == 2 and "Traceback" not in piped.stderr.decode()
    assert piped.stderr.decode().startswith("llmstatus: cannot read (standard input): ")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_recursive_scan_skips_fifos_devices_and_broken_links(tmp_path):
    tree = tmp_path / "logs"
    (tree / "sub").mkdir(parents=True)
    (tree / "sub" / "worker.log").write_bytes(FAILURE)
    os.mkfifo(tree / "fifo")
    (tree / "zero").symlink_to("/dev/zero")
    (tree / "broken").symlink_to(tmp_path / "missing")
    (tree / "linked.log").symlink_to(tree / "sub" / "worker.log")
    p = run("scan", "-r", "--json", str(tree), timeout=60)  # reading the FIFO or /dev/zero would hang
    assert p.returncode == 1 and p.stderr == b""
    assert sorted(json.loads(line)["file"] for line in p.stdout.decode().splitlines()) == [
        str(tree / "linked.log"), str(tree / "sub" / "worker.log")]


def test_standard_input_is_named_one_way_in_hits_and_report():
    data = b"(VllmWorker rank=0 pid=9) ERROR x failed, error code is LLMStatusCode.LLM_LINK_FAILED\n" * 2
    data += b"(VllmWorker rank=0 pid=9) ERROR y failed, error code is LLMStatusCode.LLM_FAILED\n"
    text = run("scan", "-", stdin=data).stdout.decode()
    assert "(standard input):1: LLM_LINK_FAILED" in text
    assert "  (standard input):1  process" in text  # the first failure
    assert "LLM_LINK_FAILED at (standard input):1" in text  # the consequence note
    assert "-:1" not in text
    markdown = run("scan", "--format", "markdown", "-", stdin=data).stdout.decode()
    assert "- \\(standard input\\):1 process" in markdown or "- (standard input):1 process" in markdown
    summary = json.loads(run("scan", "--summary", "--json", "-", stdin=data).stdout)
    assert summary["first_failures"][0]["file"] == "-"  # JSON keeps the conventional "-"


def test_markdown_report_opens_with_the_first_failure_per_process(tmp_path):
    log = tmp_path / "w.log"
    log.write_bytes(b"[ERROR] GE(4242,python):x [llm_datadist.cc:1] ErrorNo: 4294967295(failed) LinkLlmClusters\n"
                    + FAILURE)
    for args in (("--summary",), ()):
        text = run("scan", "--format", "markdown", *args, str(log)).stdout.decode()
        first = text.index("**First failure per process:**")
        assert first < text.index("**Summary:**")
        assert "process 4242 (python) <code>LLM\\_FAILED</code>: " in text


def test_the_scan_report_speaks_chinese_from_the_catalog(tmp_path):
    log = tmp_path / "w.log"
    log.write_bytes(b"(VllmWorker rank=0 pid=9) ERROR x: LLMStatusCode.LLM_LINK_FAILED\n"
                    b"(VllmWorker rank=0 pid=9) ERROR y: LLMStatusCode.LLM_FAILED\n"
                    b"[ERROR] GE(5,ker):x [error_tracking.cc:113] ErrorNo: 4294967295(failed)\n")
    text = run("--lang", "zh", "scan", str(log)).stdout.decode()
    for english in ("First failure", "process (unnamed)", "likely a consequence", "Other layers",
                    "not LLM DataDist", "lines follow"):
        assert english not in text, english
    assert "各进程的首个失败" in text and "其他层" in text and "多半是" in text


@pytest.mark.parametrize("engine", __import__("sphinx_llmstatus.scan.prefilter", fromlist=["x"]).available())
def test_codes_in_terminal_colours_are_found_with_their_columns(engine):
    """Logs copied from a coloured terminal: the escape sequences are token boundaries."""
    from sphinx_llmstatus.scan import scan_text

    text = ("ERROR \x1b[31mLLM_LINK_FAILED\x1b[0m\n"
            "ERROR ret=\x1b[1m1343270921\x1b[0m\n"
            "\x1b[1;31mERROR\x1b[0m PullKvBlocks failed, ret = \x1b[33m5010b01a\x1b[0m\n"
            "no code: \x1b[31m13432709210\x1b[0m x\x1b[0mLLM_LINK_FAILEDx\n")
    hits = [(h.line_no, h.column, h.code.name) for h in scan_text(text, engine=engine)]
    assert hits == [(1, 11, "LLM_LINK_FAILED"), (2, 14, "LLM_LINK_FAILED"), (3, 49, "LLM_TIMEOUT")]
    p = run("scan", "-", stdin=text.encode())
    assert p.returncode == 1 and b"\x1b" not in p.stdout  # the excerpt shows no raw escape


def _zstd_shapes() -> dict[str, list[bytes]]:
    """Zstd streams of several shapes, as their frames."""
    zstandard = pytest.importorskip("zstandard")
    text = b"".join(b"worker %d ret = %d\n" % (i, i * 7919) for i in range(20_000))
    c = zstandard.ZstdCompressor
    skippable = b"\x50\x2a\x4d\x18" + (5).to_bytes(4, "little") + b"hello"  # as pzstd writes first
    streamed = io.BytesIO()
    with c(write_checksum=True).stream_writer(streamed, closefd=False) as writer:
        for i in range(0, len(text), 7_000):  # many blocks, some of them small
            writer.write(text[i:i + 7_000])
            writer.flush(zstandard.FLUSH_BLOCK)
    return {
        "one frame": [c().compress(text)],
        "checksum, no content size": [c(write_checksum=True, write_content_size=False).compress(text)],
        "two frames": [c().compress(text[:5_000]), c(level=19).compress(text[5_000:])],
        "skippable frame first": [skippable, c().compress(text)],
        "skippable frame between": [c().compress(text[:5_000]), skippable, c().compress(text[5_000:])],
        "RLE blocks": [c().compress(text[:20] + b"a" * 1_000_000)],
        "streamed blocks": [streamed.getvalue()],
    }


def test_zstd_cut_anywhere_inside_a_frame_is_an_error_and_whole_frames_are_read():
    """``zstandard``'s stream reader gives no error for a cut last frame: the frame format is
    followed (sources.ZstdFrames) so that every cut inside a frame is an OSError (after the bytes
    before the cut) and every whole stream, of any shape, is read whole."""
    for name, frames in _zstd_shapes().items():
        data = b"".join(frames)
        whole = decompressed(io.BufferedReader(io.BytesIO(data))).read()
        assert len(whole) > 100_000, name
        ends = {sum(map(len, frames[:i + 1])) for i in range(len(frames))}  # nothing is cut there
        for cut in sorted({*range(4, 64), *range(64, len(data), max(1, len(data) // 200)), len(data) - 1} - ends):
            with pytest.raises(OSError, match="zstd data (ends inside a frame|is corrupt)"):
                decompressed(io.BufferedReader(io.BytesIO(data[:cut]))).read()


@pytest.mark.parametrize("garbage", [b"g", b"abc", b"\0" * 100, b"garbage after the last frame\n" * 1000,
                                     b"\x28\xb5\x2f\0"])  # (a magic number's start, then no frame)
def test_zstd_with_garbage_after_its_frames_gives_every_frame_then_says_so(garbage):
    """``zstd -dc`` writes every frame, then says "unknown header": so does the scan. Before, the
    decoder failed on the garbage and lost what it had decoded of the frames before (a tester:
    76 of 20,000 lines): the garbage never reaches it."""
    for name, frames in _zstd_shapes().items():
        data = b"".join(frames)
        whole = decompressed(io.BufferedReader(io.BytesIO(data))).read()
        for reader in (io.BytesIO, _OneByteAtATime):  # (a byte a read: a magic number across reads)
            damage: list[str] = []
            got = decompressed(io.BufferedReader(reader(data + garbage)), damage).read()
            assert got == whole, (name, reader)
            assert len(damage) == 1 and damage[0].startswith("zstd data ends with bytes that are no frame")


class _OneByteAtATime(io.RawIOBase):
    """A pipe whose writer sends one byte at a time: each read gives one byte."""

    def __init__(self, data: bytes) -> None:
        super().__init__()
        self._data = data

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        n = min(1, len(buffer), len(self._data))
        buffer[:n] = self._data[:n]
        self._data = self._data[n:]
        return n


@pytest.mark.parametrize("form", ["gzip", "bzip2", "xz", "zstd", "utf-16", "utf-32", "plain", "short", "empty"])
def test_formats_are_told_when_the_first_reads_bring_one_byte(form):
    """``peek`` gives what one read brought (one byte from a slow pipe): the magic bytes and
    byte-order marks are still read whole, and every byte of the input comes through."""
    text = FAILURE * 3
    data = {"gzip": lambda: gzip.compress(text), "bzip2": lambda: bz2.compress(text), "xz": lambda: lzma.compress(text),
            "zstd": lambda: _zstd(text), "utf-16": lambda: text.decode().encode("utf-16"),
            "utf-32": lambda: text.decode().encode("utf-32"), "plain": lambda: text, "short": lambda: b"LLM",
            "empty": lambda: b""}[form]()
    slow = io.BufferedReader(_OneByteAtATime(data))
    assert len(slow.peek(8)) <= 1  # what detection used to see
    got = utf8_stream(decompressed(io.BufferedReader(_OneByteAtATime(data)))).read()
    assert got == (data if form in ("short", "empty") else text)


def test_compressed_log_on_a_pipe_whose_first_write_is_one_byte():
    data = gzip.compress(FAILURE)
    p = subprocess.Popen([*CLI, "scan", "--json", "-"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE)
    p.stdin.write(data[:1])  # type: ignore[union-attr]
    p.stdin.flush()  # type: ignore[union-attr]
    time.sleep(0.3)  # the scanner's first read returns this one byte
    out, err = p.communicate(data[1:], timeout=60)
    assert p.returncode == 1 and err == b""
    assert [json.loads(line)["name"] for line in out.decode().splitlines()] == ["LLM_LINK_FAILED"]


def test_zstd_with_a_long_window_needs_long_and_a_missing_dictionary_is_named():
    """``zstd --long=28`` and more write frames whose window is above 128 MiB: as the ``zstd``
    command, the scan reads them only when told (``--long``: the window is memory it would take),
    and says how. A frame compressed with a dictionary cannot be read without it: the message
    says so, not "corrupt"."""
    zstandard = pytest.importorskip("zstandard")
    text = FAILURE * 50
    params = zstandard.ZstdCompressionParameters.from_level(3, window_log=30, enable_ldm=True)
    streamed = io.BytesIO()
    with zstandard.ZstdCompressor(compression_params=params).stream_writer(streamed, closefd=False) as writer:
        writer.write(text)  # streamed: no content size, so the frame asks for the whole window
    assert decompressed(io.BufferedReader(io.BytesIO(streamed.getvalue())), long=True).read() == text
    with pytest.raises(OSError, match="window above 128 MiB.*--long"):
        decompressed(io.BufferedReader(io.BytesIO(streamed.getvalue()))).read()
    samples = [b"worker %d ret = %d LinkLlmClusters failed\n" % (i, i * 31) for i in range(2_000)]
    dictionary = zstandard.train_dictionary(2_000, samples)
    packed = zstandard.ZstdCompressor(dict_data=dictionary).compress(text)
    with pytest.raises(OSError, match="zstd data needs the dictionary it was compressed with"):
        decompressed(io.BufferedReader(io.BytesIO(packed))).read()
