"""Open any log: plain, gzip, bzip2, xz or zstd (by content, not name), UTF-16/32; walk directories.

Compressed input is recognised by its magic bytes (a rotated ``worker.log.1``
that is really gzip is read as gzip; a ``.gz`` that is plain text is read as
text) and decompressed as a stream, so memory stays bounded. Corrupt or
truncated compressed data is an ``OSError`` naming the format, like any other
unreadable file. zstd needs the ``zstandard`` package (installed with this
package where a wheel exists); a zstd file without it gives a clear
``OSError``; as ``zstandard``'s streaming reader ends quietly where a zstd file
is cut short, the compressed bytes are followed through the frame format
(:class:`_ZstdFrames`) to tell a cut last frame from a whole one.
"""

from __future__ import annotations

import io
import os
import stat
import sys
from collections.abc import Callable, Iterator
from typing import BinaryIO

from .encoding import looked_at, utf8_stream

#: A zstd frame's magic number and a skippable frame's (its low 4 bits vary), little-endian (RFC 8878).
ZSTD_MAGIC, ZSTD_SKIPPABLE = 0xFD2FB528, 0x184D2A50

#: Magic bytes -> format.
MAGIC = (
    (b"\x1f\x8b", "gzip"),
    (b"BZh", "bzip2"),
    (b"\xfd7zXZ\x00", "xz"),
    (ZSTD_MAGIC.to_bytes(4, "little"), "zstd"),
)


def detect(head: bytes) -> str | None:
    """The compression format ``head`` (the first bytes of a stream) starts with, or None."""
    for magic, name in MAGIC:
        if head.startswith(magic):
            return name
    if len(head) >= 4 and int.from_bytes(head[:4], "little") & ~0xF == ZSTD_SKIPPABLE:
        return "zstd"  # a skippable frame first (pzstd writes one)
    return None


class _Checked(io.RawIOBase):
    """A decompressing reader whose decoding errors (``EOFError`` for a cut file,
    ``zlib.error``, ``lzma.LZMAError``, ``zstandard.ZstdError``) become ``OSError``
    naming the format: the caller reports an unreadable file and goes on. ``whole``:
    called at the end of the data, False when the input was cut short (``EOFError``)."""

    def __init__(self, inner: BinaryIO, fmt: str, errors: tuple[type[BaseException], ...],
                 whole: Callable[[], bool] | None = None) -> None:
        super().__init__()
        self._inner, self._fmt, self._errors, self._whole = inner, fmt, errors, whole

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: memoryview) -> int:  # type: ignore[override]
        try:
            n: int = self._inner.readinto(buffer)  # type: ignore[attr-defined]
            if n == 0 and buffer and self._whole is not None and not self._whole():
                raise EOFError("the data ends inside a frame")
            return n
        except self._errors as exc:
            if "ictionary" in str(exc):  # zstd: "Dictionary mismatch", the file is whole
                raise OSError(f"{self._fmt} data needs the dictionary it was compressed with ({exc})") from None
            raise OSError(f"{self._fmt} data is truncated or corrupt ({exc})") from None

    def close(self) -> None:
        self._inner.close()
        super().close()


#: The largest zstd window (RFC 8878: 2**31 bytes where the decoder allows it; ``zstd --long=31``).
_ZSTD_MAX_WINDOW = 1 << 31


class _ZstdFrames:
    """The compressed bytes of a zstd stream as the decompressor reads them (``read``), followed
    through the frame format of RFC 8878 (section 3.1: a frame's magic, header descriptor and
    header, then blocks, each with a 3-byte header giving its type, size and whether it is the
    last, then an optional 4-byte checksum; skippable frames give their size) without decoding
    them. :meth:`whole` tells whether the data read so far ends at the end of a frame."""

    def __init__(self, stream: BinaryIO) -> None:
        self._stream = stream
        self._state, self._need, self._head, self._skip = "magic", 4, b"", 0
        self._checksum = False

    def read(self, size: int = -1) -> bytes:
        data = self._stream.read(size)
        pos, n = 0, len(data)
        while pos < n and self._state != "unknown":
            if self._skip:  # a block's content, a header's fields, a skippable frame: not read
                step = min(self._skip, n - pos)
                self._skip -= step
                pos += step
                continue
            take = min(self._need - len(self._head), n - pos)
            self._head += data[pos:pos + take]
            pos += take
            if len(self._head) == self._need:
                self._parsed(int.from_bytes(self._head, "little"))
                self._head = b""
        return data

    def _parsed(self, value: int) -> None:
        if self._state == "magic":
            if value == ZSTD_MAGIC:
                self._state, self._need = "descriptor", 1
            elif value & ~0xF == ZSTD_SKIPPABLE:
                self._state, self._need = "skippable", 4
            else:  # not zstd: the decompressor says so
                self._state = "unknown"
        elif self._state == "descriptor":
            single = value >> 5 & 1
            self._checksum = bool(value >> 2 & 1)
            # Window descriptor, dictionary id, frame content size: passed over.
            self._skip = (1 - single) + (0, 1, 2, 4)[value & 3] + (single, 2, 4, 8)[value >> 6]
            self._state, self._need = "block", 3
        elif self._state == "block":
            self._skip = 1 if value >> 1 & 3 == 1 else value >> 3  # an RLE block holds one byte
            if value & 1:  # the last block
                self._skip += 4 * self._checksum
                self._state, self._need = "magic", 4
        else:  # a skippable frame's size
            self._skip = value
            self._state, self._need = "magic", 4

    def whole(self) -> bool:
        """True when the bytes read end where a frame ends (or are not zstd at all)."""
        return self._state == "unknown" or (self._state == "magic" and not self._head and not self._skip)

    def close(self) -> None:
        self._stream.close()


def decompressed(stream: BinaryIO) -> BinaryIO:
    """``stream`` itself, or a decompressing reader over it when its first bytes are a known magic.

    ``stream`` needs ``peek`` (buffered readers, ``sys.stdin.buffer``). Reads
    from the decompressing reader raise OSError for corrupt or truncated data;
    opening raises OSError for zstd input when the ``zstandard`` package is missing.
    """
    if getattr(stream, "peek", None) is None:
        return stream
    head, stream = looked_at(stream, 8)
    fmt = detect(head)
    if fmt is None:
        return stream
    errors: tuple[type[BaseException], ...] = (EOFError,)
    whole: Callable[[], bool] | None = None  # zstd: see _ZstdFrames
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
        frames = _ZstdFrames(stream)
        whole = frames.whole
        # Any window zstd allows (``zstd --long=31``), not only the 128 MiB the library accepts by
        # default: a log rotated with --long is whole. The window is allocated as it fills.
        decompressor = zstandard.ZstdDecompressor(max_window_size=_ZSTD_MAX_WINDOW)
        # (``frames`` has the ``read`` and ``close`` that stream_reader asks of a source)
        inner = decompressor.stream_reader(frames, read_across_frames=True)  # type: ignore[arg-type]
        errors += (zstandard.ZstdError,)
    return io.BufferedReader(_Checked(inner, fmt, errors, whole))


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
