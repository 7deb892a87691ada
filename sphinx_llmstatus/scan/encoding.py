"""Logs that are not UTF-8 on the byte level: UTF-16/UTF-32 files with a byte-order mark.

The scanner works on bytes and looks for ASCII literals, so a UTF-16 log
(Windows tools write them) would silently show no code at all. Such a stream
is recognised by its byte-order mark and re-encoded to UTF-8 on the fly.
"""

from __future__ import annotations

import codecs
import io
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

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        while not self._pending:
            raw = self._stream.read(_CHUNK)
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


def utf8_stream(stream: BinaryIO) -> BinaryIO:
    """``stream`` itself, or a :class:`Utf8Reader` over it when it starts with a UTF-16/32 BOM.

    Needs ``peek`` (buffered readers, ``sys.stdin.buffer``) to look without consuming.
    """
    peek = getattr(stream, "peek", None)
    if peek is None:
        return stream
    codec = detect_bom(peek(4)[:4])
    if codec is None:
        return stream
    skip = 4 if codec.startswith("utf-32") else 2
    return io.BufferedReader(Utf8Reader(stream, codec, skip))
