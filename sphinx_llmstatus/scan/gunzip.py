"""One gzip member (RFC 1952) whose damage is said after every byte it covers is given.

A decoder that checks the member's trailer itself (zlib's or ISA-L's ``decompressobj`` with a
gzip window) raises when the checksum is wrong, and the bytes of the step that reached the
trailer are lost: up to a step of lines, all of a small file's (a tester's 1.1 MB log with a bad
CRC gave no hit, ``zcat`` 40). Here the header and the trailer are read in Python and the
deflate data inflated raw, so the checksum is compared once its bytes are out, as ``zcat`` does.
:class:`Member` has the decompressor interface :class:`~.decompress.Decoded` drives.
"""

from __future__ import annotations

import zlib
from typing import Any

#: Header flags (RFC 1952, 2.3.1): a header CRC, extra field, name, comment; the rest are reserved.
FHCRC, FEXTRA, FNAME, FCOMMENT, RESERVED = 0x02, 0x04, 0x08, 0x10, 0xE0
#: A header longer than this (a name or comment never ended) is damage, not a header.
MOST_HEADER = 1 << 20


def header_length(data: bytes) -> int | None:
    """The length of the member header at the start of ``data``; None while ``data`` is too short
    to tell. ValueError for what is no deflate member's header, or a header its CRC disowns."""
    if len(data) < 10:
        return None
    if data[:3] != b"\x1f\x8b\x08":
        raise ValueError("not a deflate gzip member")
    flags = data[3]
    if flags & RESERVED:
        raise ValueError("unknown header flags set")
    pos = _fields_end(data, flags)
    if pos is None or not flags & FHCRC:
        return pos
    if len(data) < pos + 2:
        return None
    if zlib.crc32(data[:pos]) & 0xFFFF != int.from_bytes(data[pos:pos + 2], "little"):
        raise ValueError("incorrect header check")
    return pos + 2


def _fields_end(data: bytes, flags: int) -> int | None:
    """Where the header's extra field, name and comment (those ``flags`` has) end; None while not
    all of them are in ``data``."""
    pos = 10
    if flags & FEXTRA:
        if len(data) < pos + 2:
            return None
        pos += 2 + int.from_bytes(data[pos:pos + 2], "little")
    for flag in (FNAME, FCOMMENT):  # each ends with a zero byte
        if flags & flag:
            end = data.find(b"\0", pos)
            if end < 0:
                return None
            pos = end + 1
    return pos if len(data) >= pos else None


class Member:
    """One member: ``decompress(data, max_length)``, ``eof``, ``unused_data``, ``unconsumed_tail``
    and ``needs_input`` as zlib's; ``library`` is ``zlib`` or ISA-L's ``isal_zlib`` (its raw
    inflate and ``crc32``). A bad checksum or length raises ``library.error`` at the next call,
    after the bytes it covers were returned."""

    def __init__(self, library: Any) -> None:
        self._lib = library
        self._inflate: Any = None  # the raw inflate, once the header is read
        self._head = b""  # the header read so far
        self._trailer = b""  # the trailer read so far
        self._crc = self._size = 0
        self._bad: str | None = None
        self.eof = False
        self.unused_data = self.unconsumed_tail = b""

    @property
    def needs_input(self) -> bool:
        return self._bad is None

    def decompress(self, data: bytes, max_length: int = 0) -> bytes:
        if self._bad is not None:
            raise self._lib.error(self._bad)
        self.unconsumed_tail = b""
        if self._inflate is None:
            data = self._header(data)
            if self._inflate is None:
                return b""
        out = b""
        if not self._inflate.eof:
            out = self._inflate.decompress(data, max_length)
            self._crc, self._size = self._lib.crc32(out, self._crc), self._size + len(out)
            if not self._inflate.eof:
                self.unconsumed_tail = self._inflate.unconsumed_tail
                return out
            # What follows the deflate data is in unused_data (zlib may leave a copy of it as
            # unconsumed_tail when the call was bounded by max_length: it is not input left).
            data = self._inflate.unused_data
        self._check(data)
        return out

    def _header(self, data: bytes) -> bytes:
        """Take ``data`` into the header; what follows it (the inflate starts once it is whole)."""
        self._head += data
        try:
            n = header_length(self._head)
        except ValueError as exc:
            raise self._lib.error(str(exc)) from None
        if n is None:
            if len(self._head) > MOST_HEADER:
                raise self._lib.error("the header does not end")
            return b""
        rest, self._head = self._head[n:], b""
        self._inflate = self._lib.decompressobj(-15)
        return rest

    def _check(self, data: bytes) -> None:
        """Take ``data`` into the trailer (CRC-32 and length of the bytes given); when whole, the
        member ends, or says its damage at the next call."""
        self._trailer += data
        if len(self._trailer) < 8:
            return
        crc, size = int.from_bytes(self._trailer[:4], "little"), int.from_bytes(self._trailer[4:8], "little")
        if crc != self._crc:
            self._bad = "incorrect data check (CRC-32)"
        elif size != self._size & 0xFFFFFFFF:
            self._bad = "incorrect length check"
        else:
            self.eof, self.unused_data = True, self._trailer[8:]
