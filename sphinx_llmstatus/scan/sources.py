"""Open any log: plain, gzip, bzip2, xz or zstd (by content, not name), UTF-16/32; walk directories.

Compressed input is recognised by its magic bytes (a rotated ``worker.log.1``
that is really gzip is read as gzip; a ``.gz`` that is plain text is read as
text) and decompressed as a stream, so memory stays bounded. zstd needs the
``zstandard`` package (installed with this package where a wheel exists); a
zstd file without it gives a clear ``OSError``.
"""

from __future__ import annotations

import io
import os
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


def decompressed(stream: BinaryIO) -> BinaryIO:
    """``stream`` itself, or a decompressing reader over it when its first bytes are a known magic.

    ``stream`` needs ``peek`` (buffered readers, ``sys.stdin.buffer``). Raises
    OSError for zstd input when the ``zstandard`` package is missing.
    """
    peek = getattr(stream, "peek", None)
    if peek is None:
        return stream
    fmt = detect(peek(8)[:8])
    if fmt is None:
        return stream
    if fmt == "gzip":
        import gzip

        return gzip.GzipFile(fileobj=stream, mode="rb")  # type: ignore[return-value]
    if fmt == "bzip2":
        import bz2

        return bz2.BZ2File(stream, "rb")  # type: ignore[return-value]
    if fmt == "xz":
        import lzma

        return lzma.LZMAFile(stream, "rb")  # type: ignore[return-value]
    try:
        import zstandard
    except ImportError:
        raise OSError("zstd-compressed input needs the 'zstandard' package (pip install zstandard)") from None
    reader = zstandard.ZstdDecompressor().stream_reader(stream, read_across_frames=True)
    return io.BufferedReader(reader)


def open_log(path: str, stdin: BinaryIO | None = None) -> BinaryIO:
    """A binary stream of the log's text as UTF-8 bytes: ``-`` is standard input.

    Compressed input is decompressed, UTF-16/32 with a byte-order mark is
    re-encoded. The caller closes it. OSError for unreadable files.
    """
    if path == "-":
        raw: BinaryIO = stdin if stdin is not None else sys.stdin.buffer
    else:
        raw = open(path, "rb")  # noqa: SIM115 (closed by the caller)
    stream = decompressed(raw)
    if stream is not raw:
        stream = stream if hasattr(stream, "peek") else io.BufferedReader(stream)  # type: ignore[type-var]
    return utf8_stream(stream)


def expand(paths: list[str], recursive: bool) -> Iterator[tuple[str, OSError | None]]:
    """``(path, error)`` for each file to scan: directories walked (sorted) when ``recursive``.

    A directory without ``recursive`` gives an ``IsADirectoryError`` entry; a
    missing path is passed through for the opener to report.
    """
    for path in paths:
        if path != "-" and os.path.isdir(path):
            if not recursive:
                yield path, IsADirectoryError(21, "is a directory (use -r to scan the files in it)")
                continue
            for root, dirs, files in os.walk(path):
                dirs.sort()
                for name in sorted(files):
                    yield os.path.join(root, name), None
        else:
            yield path, None
