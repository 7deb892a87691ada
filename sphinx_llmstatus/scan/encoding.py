"""Logs that are not UTF-8 on the byte level: UTF-16/UTF-32 files with a byte-order mark.

The scanner works on bytes and looks for ASCII literals, so a UTF-16 log
(Windows tools write them) would silently show no code at all. Such a stream
is recognised by its byte-order mark and re-encoded to UTF-8 on the fly.
"""

from __future__ import annotations

import codecs
import io
from collections.abc import Callable
from typing import BinaryIO

# Longest first: the UTF-32 LE mark starts with the UTF-16 LE one.
_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32-le"), (codecs.BOM_UTF32_BE, "utf-32-be"),
    (codecs.BOM_UTF16_LE, "utf-16-le"), (codecs.BOM_UTF16_BE, "utf-16-be"),
)
_CHUNK = 1 << 20


def detect_bom(head: bytes) -> str | None:
    """The codec named by the byte-order mark at the start of ``head``, or None (UTF-8 or unknown)."""
    for bom, codec in _BOMS:
        if head.startswith(bom):
            return codec
    return None


class Utf8Reader(io.RawIOBase):
    """A binary stream giving the UTF-8 encoding of ``stream`` decoded as ``codec``.

    The byte-order mark is dropped; undecodable input becomes U+FFFD. Reads
    are bounded (about 1 MiB of text at a time), so memory stays constant.
    """

    def __init__(self, stream: BinaryIO, codec: str, skip: int) -> None:
        super().__init__()
        self._decoder = codecs.getincrementaldecoder(codec)("replace")
        self._stream, self._skip, self._pending = stream, skip, b""
        self._read = one_read(stream)

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        while not self._pending:
            raw = self._read(_CHUNK)
            if self._skip:
                raw, self._skip = raw[self._skip:], 0
            text = self._decoder.decode(raw, final=not raw)
            self._pending = text.encode("utf-8")
            if not raw:
                break
        n = min(len(buffer), len(self._pending))
        buffer[:n] = self._pending[:n]
        self._pending = self._pending[n:]
        return n


def one_read(stream: BinaryIO) -> Callable[[int], bytes]:
    """``stream``'s ``read1`` (else its ``read``): at most ``n`` bytes of what one read gives, so
    that a pipe's slow writer is not waited for until a chunk is full, as ``read(n)`` would."""
    return getattr(stream, "read1", None) or stream.read


def waitless(stream: BinaryIO) -> Callable[[memoryview], int]:
    """A ``readinto`` of ``stream`` that returns what one read gives, as soon as it has any.

    A buffered reader's ``readinto1`` that holds some bytes and is asked for more reads its
    source again before returning them, and from a pipe that waits for the writer's next write
    (CPython 3.11-3.13). So ``read1`` is used, which returns the bytes held, until one read
    gives less than asked: the reader then holds nothing, and its raw file is read straight into
    the buffer (no copy, one system call)."""
    read1 = one_read(stream)
    raw = getattr(stream, "raw", None)
    emptied = False

    def readinto(buffer: memoryview) -> int:
        nonlocal emptied
        if emptied:
            return raw.readinto(buffer) or 0  # type: ignore[union-attr]
        chunk = read1(len(buffer))
        buffer[:len(chunk)] = chunk
        emptied = raw is not None and len(chunk) < len(buffer)
        return len(chunk)

    return readinto


class _Prefixed(io.RawIOBase):
    """``head`` (bytes already read from ``stream``), then the rest of ``stream``."""

    def __init__(self, head: bytes, stream: BinaryIO) -> None:
        super().__init__()
        self._head, self._stream = head, stream
        self._read = waitless(stream)

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        if self._head:
            n = min(len(buffer), len(self._head))
            buffer[:n] = self._head[:n]
            self._head = self._head[n:]
            return n
        return self._read(buffer)

    def close(self) -> None:
        self._stream.close()
        super().close()


def looked_at(stream: BinaryIO, n: int) -> tuple[bytes, BinaryIO]:
    """``(head, stream)``: the first ``n`` bytes of ``stream`` (fewer only where it ends first) and a
    stream that still starts with them. ``stream`` needs ``peek`` (buffered readers,
    ``sys.stdin.buffer``); ``peek`` alone gives what one read brought, which from a pipe
    may be a single byte: then the bytes are read and put back in front."""
    head = stream.peek(n)[:n]  # type: ignore[attr-defined]
    if len(head) >= n:
        return head, stream
    # Read by single reads of what is missing, never more: a buffered reader keeps nothing past
    # the head, whose next large read would wait on a pipe for more than its writer wrote.
    parts = [stream.read1(n)]  # type: ignore[attr-defined]
    while parts[-1] and (got := sum(map(len, parts))) < n:
        parts.append(stream.read1(n - got))  # type: ignore[attr-defined]
    head = b"".join(parts)
    return head, io.BufferedReader(_Prefixed(head, stream))


def utf8_stream(stream: BinaryIO) -> BinaryIO:
    """``stream`` itself, or a :class:`Utf8Reader` over it when it starts with a UTF-16/32 BOM.

    Needs ``peek`` (buffered readers, ``sys.stdin.buffer``) to look without consuming.
    """
    if getattr(stream, "peek", None) is None:
        return stream
    head, stream = looked_at(stream, 4)
    codec = detect_bom(head)
    if codec is None:
        return stream
    skip = 4 if codec.startswith("utf-32") else 2
    return io.BufferedReader(Utf8Reader(stream, codec, skip))
