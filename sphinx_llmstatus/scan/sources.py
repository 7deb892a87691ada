"""Open any log: plain, gzip, bzip2, xz or zstd (by content, not name), UTF-16/32; walk directories.

Compressed input is recognised by its magic bytes (a rotated ``worker.log.1``
that is really gzip is read as gzip; a ``.gz`` that is plain text is read as
text) and decompressed as a stream, so memory stays bounded. Corrupt or
truncated compressed data is an ``OSError`` naming the format, like any other
unreadable file. zstd needs the ``zstandard`` package (installed with this
package where a wheel exists); a zstd file without it gives a clear
``OSError``. One limit: ``zstandard``'s streaming reader ends quietly where a
zstd file is cut short (it gives no error for a truncated last frame), so the
part before the cut is scanned without a warning.
"""

from __future__ import annotations

import io
import os
import stat
import sys
from collections.abc import Iterator
from typing import BinaryIO

from .encoding import utf8_stream

#: Magic bytes -> format.
MAGIC = (
    (b"\x1f\x8b", "gzip"),
    (b"BZh", "bzip2"),
    (b"\xfd7zXZ\x00", "xz"),
    (b"\x28\xb5\x2f\xfd", "zstd"),
)


def detect(head: bytes) -> str | None:
    """The compression format ``head`` (the first bytes of a stream) starts with, or None."""
    for magic, name in MAGIC:
        if head.startswith(magic):
            return name
    return None


class _Checked(io.RawIOBase):
    """A decompressing reader whose decoding errors (``EOFError`` for a cut file,
    ``zlib.error``, ``lzma.LZMAError``, ``zstandard.ZstdError``) become ``OSError``
    naming the format: the caller reports an unreadable file and goes on."""

    def __init__(self, inner: BinaryIO, fmt: str, errors: tuple[type[BaseException], ...]) -> None:
        super().__init__()
        self._inner, self._fmt, self._errors = inner, fmt, errors

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: memoryview) -> int:  # type: ignore[override]
        try:
            return self._inner.readinto(buffer)  # type: ignore[attr-defined]
        except self._errors as exc:
            raise OSError(f"{self._fmt} data is truncated or corrupt ({exc})") from None

    def close(self) -> None:
        self._inner.close()
        super().close()


def decompressed(stream: BinaryIO) -> BinaryIO:
    """``stream`` itself, or a decompressing reader over it when its first bytes are a known magic.

    ``stream`` needs ``peek`` (buffered readers, ``sys.stdin.buffer``). Reads
    from the decompressing reader raise OSError for corrupt or truncated data;
    opening raises OSError for zstd input when the ``zstandard`` package is missing.
    """
    peek = getattr(stream, "peek", None)
    if peek is None:
        return stream
    fmt = detect(peek(8)[:8])
    if fmt is None:
        return stream
    errors: tuple[type[BaseException], ...] = (EOFError,)
    if fmt == "gzip":
        import gzip
        import zlib

        inner: BinaryIO = gzip.GzipFile(fileobj=stream, mode="rb")  # type: ignore[assignment]
        errors += (zlib.error,)
    elif fmt == "bzip2":
        import bz2

        inner = bz2.BZ2File(stream, "rb")  # type: ignore[assignment]
    elif fmt == "xz":
        import lzma

        inner = lzma.LZMAFile(stream, "rb")  # type: ignore[assignment]
        errors += (lzma.LZMAError,)
    else:
        try:
            import zstandard
        except ImportError:
            raise OSError("zstd-compressed input needs the 'zstandard' package (pip install zstandard)") from None
        inner = zstandard.ZstdDecompressor().stream_reader(stream, read_across_frames=True)
        errors += (zstandard.ZstdError,)
    return io.BufferedReader(_Checked(inner, fmt, errors))


def open_log(path: str, stdin: BinaryIO | None = None) -> BinaryIO:
    """A binary stream of the log's text as UTF-8 bytes: ``-`` is standard input.

    Compressed input is decompressed, UTF-16/32 with a byte-order mark is
    re-encoded. The caller closes it. OSError for unreadable files.
    """
    if path == "-":
        raw: BinaryIO = stdin if stdin is not None else sys.stdin.buffer
    else:
        raw = open(path, "rb")  # noqa: SIM115 (closed by the caller)
    return utf8_stream(decompressed(raw))


def expand(paths: list[str], recursive: bool) -> Iterator[tuple[str, OSError | None]]:
    """``(path, error)`` for each file to scan: directories walked (sorted) when ``recursive``.

    A directory without ``recursive`` gives an ``IsADirectoryError`` entry; a
    missing path is passed through for the opener to report. Walking reads
    regular files only (symbolic links to regular files included): FIFOs,
    devices, sockets and broken links met inside a directory are skipped, as
    ``grep -r`` skips them, since reading them could block or never end.
    """
    for path in paths:
        if path != "-" and os.path.isdir(path):
            if not recursive:
                yield path, IsADirectoryError(21, "is a directory (use -r to scan the files in it)")
                continue
            for root, dirs, files in os.walk(path):
                dirs.sort()
                for name in sorted(files):
                    found = os.path.join(root, name)
                    if _is_regular(found):
                        yield found, None
        else:
            yield path, None


def _is_regular(path: str) -> bool:
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except OSError:  # a broken link, or gone since the walk listed it
        return False
