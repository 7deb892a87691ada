"""A big compressed file decompressed by a child process while this one scans.

Decompressing bzip2, xz, or gzip through zlib takes as long as scanning the bytes or longer,
and a thread cannot share the work (the decoder gets the GIL back too rarely to keep up), so
such a compressed file on disk larger than :data:`CHILD_MIN` is decoded by a child
Python process running the same readers (:mod:`.decompress`: every readable
byte, the damage after it, the bomb budget, ``--long``). The child reads the
file through the descriptor it inherits, so this process sees how far it got
(the progress line), writes the bytes to a pipe and, at the end, its damage
as one JSON line on stderr. It ignores Ctrl-C (the command handles it) and
ends when the pipe is closed.

    python -m sphinx_llmstatus.scan.unpack FD FORMAT [--long]   # the child
"""

from __future__ import annotations

import io
import json
import os
import sys
from collections.abc import Callable
from typing import BinaryIO

from .reading import widen_pipe

#: Compressed files smaller than this are decoded in this process (a child costs ~40 ms).
CHILD_MIN = 8 << 20


def decodes_apart(fmt: str) -> bool:
    """Whether a big file of ``fmt`` is decoded by a child. Not zstd, nor gzip where ISA-L inflates
    it (:func:`~.decompress.fast_gzip`): they decode several times faster than this process
    scans, and a pipe's hand-over would cost more than the child saves (a 40 MB gzip log of
    200 MB: 0.54 s in this process, 0.77 s with a child; zstd 0.58 s and 0.76 s)."""
    from .decompress import fast_gzip

    return fmt in ("bzip2", "xz") or (fmt == "gzip" and not fast_gzip())


class ChildDecoded(io.RawIOBase):
    """The decompressed bytes of the file open as ``fd`` (positioned at its start), decoded by a
    child process; its damage lands in ``damage`` when the bytes end."""

    def __init__(self, fd: int, fmt: str, damage: list[str], long: bool,
                 on_read: Callable[[int], None] | None = None) -> None:
        import subprocess  # (here: a scan of no big bzip2 or xz file does not pay its import)

        super().__init__()
        args = [sys.executable, "-m", "sphinx_llmstatus.scan.unpack", str(fd), fmt, *(["--long"] if long else [])]
        self._proc = subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                      stderr=subprocess.PIPE, pass_fds=(fd,), bufsize=0)
        widen_pipe(self._proc.stdout.fileno())  # type: ignore[union-attr]
        self._fd, self._damage, self._on_read, self._ended = fd, damage, on_read, False

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: memoryview) -> int:  # type: ignore[override]
        if self._ended:
            return 0
        assert self._proc.stdout is not None
        n: int = self._proc.stdout.readinto(buffer)  # type: ignore[attr-defined]
        if self._on_read is not None:
            self._on_read(os.lseek(self._fd, 0, os.SEEK_CUR))
        if n == 0:
            self._ended = True
            self._finish()
        return n

    def _finish(self) -> None:
        assert self._proc.stderr is not None
        report = self._proc.stderr.read(1 << 20)
        self._proc.wait()
        try:
            found = json.loads(report.decode("utf-8").splitlines()[-1])
            self._damage.extend(str(d) for d in found)
        except (ValueError, IndexError):
            self._damage.append(f"the decompressing process failed (exit status {self._proc.returncode})")

    def close(self) -> None:
        if self._proc.poll() is None:
            self._proc.kill()
            self._proc.wait()
        for pipe in (self._proc.stdout, self._proc.stderr):
            if pipe is not None:
                pipe.close()
        super().close()


def _write_all(data: memoryview) -> None:
    while data:
        data = data[os.write(1, data):]


def _child(argv: list[str]) -> int:
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the command's to handle
    fd, fmt, long = int(argv[0]), argv[1], "--long" in argv[2:]
    from .decompress import Budget, Counted, Decoded, zstd_reader

    damage: list[str] = []
    budget = Budget()
    raw = io.BufferedReader(Counted(os.fdopen(fd, "rb", buffering=0), budget), 1 << 20)
    reader: BinaryIO = zstd_reader(raw, damage, budget, long) if fmt == "zstd" else \
        Decoded(raw, fmt, damage, budget)  # type: ignore[assignment]
    buf = bytearray(1 << 22)
    view = memoryview(buf)
    try:
        while n := reader.readinto(view):  # type: ignore[attr-defined]
            _write_all(view[:n])
    except BrokenPipeError:  # the command stopped reading: nothing more to do
        return 0
    sys.stderr.write(json.dumps(damage) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(_child(sys.argv[1:]))
