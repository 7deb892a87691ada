"""Open any log: plain, gzip, bzip2, xz or zstd (by content, not name), UTF-16/32; walk directories.

Compressed input is recognised by its magic bytes (a rotated ``worker.log.1``
that is really gzip is read as gzip; a ``.gz`` that is plain text is read as
text) and decompressed as a stream, so memory stays bounded. Corrupt or
truncated compressed data gives every readable line first, then its damage
(:mod:`.decompress`), as ``zcat`` does. zstd needs the ``zstandard`` package
(installed with this package where a wheel exists); a zstd file without it
gives a clear ``OSError``; as ``zstandard``'s streaming reader ends quietly
where a zstd file is cut short, the compressed bytes are followed through the
frame format (:class:`~.decompress.ZstdFrames`) to tell a cut last frame from a whole one.
"""

from __future__ import annotations

import io
import os
import stat
import sys
from collections.abc import Iterator
from typing import BinaryIO, NamedTuple

from .decompress import Budget, Decoded, detect, zstd_reader
from .encoding import looked_at, utf8_stream


def decompressed(stream: BinaryIO, damage: list[str] | None = None, budget: Budget | None = None,
                 long: bool = False) -> BinaryIO:
    """``stream`` itself, or a decompressing reader over it when its first bytes are a known magic.

    ``stream`` needs ``peek`` (buffered readers, ``sys.stdin.buffer``). Damaged
    data (cut, corrupt, trailing garbage) ends the decompressed stream after its
    last readable byte; what went wrong is appended to ``damage`` or, without a
    list, raised as ``OSError`` at the end of the stream (after every readable
    line). Opening raises OSError for zstd input when ``zstandard`` is missing.
    ``long`` allows zstd windows above 128 MiB (``zstd --long``).
    """
    if getattr(stream, "peek", None) is None:
        return stream
    head, stream = looked_at(stream, 8)
    fmt = detect(head)
    if fmt is None:
        return stream
    found: list[str] = [] if damage is None else damage
    if fmt == "zstd":
        reader = zstd_reader(stream, found, budget, long)
    else:
        reader = io.BufferedReader(Decoded(stream, fmt, found, budget))
    return reader if damage is not None else io.BufferedReader(_RaiseAtEnd(reader, found))


class _RaiseAtEnd(io.RawIOBase):
    """``inner``'s bytes, then ``OSError`` for its first damage where it ends."""

    def __init__(self, inner: BinaryIO, damage: list[str]) -> None:
        super().__init__()
        self._inner, self._damage = inner, damage

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: memoryview) -> int:  # type: ignore[override]
        n: int = self._inner.readinto1(buffer)  # type: ignore[attr-defined]
        if n == 0 and self._damage:
            raise OSError(self._damage[0])
        return n

    def close(self) -> None:
        self._inner.close()
        super().close()


def open_log(path: str, stdin: BinaryIO | None = None, long: bool = False) -> BinaryIO:
    """A binary stream of the log's text as UTF-8 bytes: ``-`` is standard input.

    Compressed input is decompressed, UTF-16/32 with a byte-order mark is
    re-encoded. The caller closes it. OSError for unreadable files, and at the
    end of a damaged compressed file (its readable lines come first).
    """
    if path == "-":
        raw: BinaryIO = stdin if stdin is not None else sys.stdin.buffer
    else:
        raw = open(path, "rb")  # noqa: SIM115 (closed by the caller)
    return utf8_stream(decompressed(raw, long=long))


def walk(paths: list[str], recursive: bool, output: os.stat_result | None = None) -> Iterator[Walked]:
    """What to scan for each path given: :class:`Walked` entries, in order, with ``root`` the
    directory given for a file found under it and ``error`` for what cannot be scanned.

    Directories are walked (sorted) when ``recursive``; without it a directory
    is an error, as an unreadable or empty one is. Walking reads regular files
    only (symbolic links to regular files included): FIFOs, devices, sockets and
    broken links met inside a directory are skipped, as ``grep -r`` skips them,
    since reading them could block or never end. ``output`` (the ``stat`` of a
    regular file standard output writes to) is never read: ``scan -r DIR >
    DIR/out`` would read its own output, as grep says.
    """
    for path in paths:
        if path.startswith("-") and path != "-":
            path = os.path.join(".", path)  # a file named "-{x}.log" is not standard input's member
        if path == "-" or not os.path.isdir(path):
            yield _checked(path, None, output)
            continue
        if not recursive:
            yield Walked(path, None, "is a directory (use -r to scan the files in it)")
            continue
        yield from _directory(path, output)


class Walked(NamedTuple):
    path: str
    root: str | None
    error: str | None = None


def _directory(top: str, output: os.stat_result | None) -> Iterator[Walked]:
    problems: list[OSError] = []
    found = 0
    for root, dirs, files in os.walk(top, onerror=problems.append):
        for problem in problems:
            yield Walked(problem.filename or root, top, problem.strerror or str(problem))
        problems.clear()
        dirs.sort()
        for name in sorted(files):
            path = os.path.join(root, name)
            if is_regular(path):
                found += 1
                yield _checked(path, top, output)
    for problem in problems:  # the top directory itself
        yield Walked(problem.filename or top, top, problem.strerror or str(problem))
    if not found and not problems:
        yield Walked(top, top, "holds no file to scan")


def _checked(path: str, root: str | None, output: os.stat_result | None) -> Walked:
    if output is not None and path != "-":
        try:
            st = os.stat(path)
        except OSError:
            return Walked(path, root)  # the opener says why
        if (st.st_dev, st.st_ino) == (output.st_dev, output.st_ino):
            return Walked(path, root, "input file is also the output (not read)")
    return Walked(path, root)


def is_regular(path: str) -> bool:
    """True for a regular file (reading it never waits for a writer)."""
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except OSError:  # a broken link, or gone since the walk listed it
        return False
