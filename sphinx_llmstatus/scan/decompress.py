"""Decompress gzip, bzip2, xz and zstd streams and keep every readable byte of a damaged one.

Incidents live on crashed nodes, whose last log was cut mid-write. ``zcat``
prints every line before the cut and then says the file ends too early; so do
these readers: decoding stops where the data stops making sense, the bytes
decoded so far are delivered, and the damage is written into a list the caller
reports after the file's hits. Streams that the tools accept stay whole:
concatenated members (``cat a.gz b.gz``), zero padding after a member (tar
blocks; xz's stream padding), and trailing garbage after a complete member,
which ``gzip`` ignores with a warning. Memory stays bounded: each decoder is
asked for at most :data:`CHUNK` bytes at a time (gzip, bzip2 and xz for
:data:`STEP`). :class:`Budget` stops a stream that expands like an archive bomb.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from typing import Any, BinaryIO, Protocol

from .encoding import one_read

#: Most bytes read or produced per step (few Python steps per megabyte).
CHUNK = 1 << 22
#: Most bytes one gzip, bzip2 or xz decoder call gives, from at most :data:`STEP_INPUT` bytes.
#: Data that is itself corrupt loses what its call was decoding (the libraries raise and keep
#: nothing): at most this, as ``zcat`` loses at most its window (32 KiB) of lines; with ISA-L
#: twice this (it decodes up to its own 32 KiB ahead of what a call gives). Small steps
#: also decode faster than big ones (in the CPU's cache; ISA-L 0.19 s against 0.28 s for
#: 200 MB, zlib alike), and :meth:`Decoded.readinto` fills a read from several.
STEP = 1 << 15
STEP_INPUT = 1 << 14
#: An input may expand this many times its compressed size (after :data:`BOMB_FLOOR` bytes) ...
BOMB_RATIO = 1000
#: ... once it has produced this many bytes; real logs compress 5 to 50 times.
BOMB_FLOOR = 1 << 30
#: The largest zstd window taken without ``--long``: the ``zstd`` command's default limit (128 MiB).
ZSTD_WINDOW = 1 << 27
#: The largest with ``--long`` (``zstd --long=31``, RFC 8878's maximum).
ZSTD_LONG_WINDOW = 1 << 31


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


class ZstdFrames:
    """The compressed bytes of a zstd stream as the decompressor reads them (``read``), followed
    through the frame format of RFC 8878 (section 3.1: a frame's magic, header descriptor and
    header, then blocks, each with a 3-byte header giving its type, size and whether it is the
    last, then an optional 4-byte checksum; skippable frames give their size) without decoding
    them. :meth:`whole` tells whether the data read so far ends at the end of a frame."""

    def __init__(self, stream: BinaryIO) -> None:
        self._stream = stream
        self._state, self._need, self._head, self._skip = "magic", 4, b"", 0
        self._checksum = False
        self._held = b""
        self._frames = 0  # frames begun

    def read(self, size: int = -1) -> bytes:
        given = b""
        while not given and self._state != "garbage":  # (an empty read is the end: none before it)
            data = self._stream.read(size)
            if not data:
                if self._head and self._state == "magic" and not _magic_start(self._head):
                    self._state = "garbage"  # (else a magic number's start: a cut, as whole() says)
                break
            given = self._follow(data)
        return given

    def _follow(self, data: bytes) -> bytes:
        """Follow ``data`` through the format; what of it to give the decoder now. The start of a
        magic number after a frame is held back until the rest tells whether a frame begins."""
        buf, self._held = self._held + data, b""
        pos, n, base = 0, len(data), len(buf) - len(data)
        magic_at = 0  # where in ``buf`` the magic number being read began
        while pos < n and self._state != "unknown":
            if self._skip:  # a block's content, a header's fields, a skippable frame: not read
                step = min(self._skip, n - pos)
                self._skip -= step
                pos += step
                continue
            if self._state == "magic" and not self._head:
                magic_at = base + pos
            take = min(self._need - len(self._head), n - pos)
            self._head += data[pos:pos + take]
            pos += take
            if len(self._head) == self._need:
                self._parsed(int.from_bytes(self._head, "little"))
                self._head = b""
        if self._state == "unknown" and self._frames:  # after a whole frame: garbage, not given
            self._state = "garbage"
            return buf[:magic_at]
        if self._state == "magic" and self._head and self._frames:
            self._held = buf[magic_at:]
            return buf[:magic_at]
        return buf

    def _parsed(self, value: int) -> None:
        if self._state == "magic":
            if value == ZSTD_MAGIC:
                self._state, self._need = "descriptor", 1
                self._frames += 1
            elif value & ~0xF == ZSTD_SKIPPABLE:
                self._state, self._need = "skippable", 4
                self._frames += 1
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

    @property
    def garbage(self) -> bool:
        """Whether bytes after a whole frame begin no frame (``zstd -d``: "unknown header"): they
        are not given, for the decoder would fail on them and lose what it decoded before."""
        return self._state == "garbage"

    def whole(self) -> bool:
        """True when the bytes read end where a frame ends (or are not zstd at all, or what
        follows the last frame is not one: :attr:`garbage`)."""
        return self._state in ("unknown", "garbage") or (self._state == "magic" and not self._head and not self._skip)

    def close(self) -> None:
        self._stream.close()


def _magic_start(head: bytes) -> bool:
    """Whether ``head`` (1-3 bytes) begins a frame's magic number or a skippable frame's."""
    skippable = ZSTD_SKIPPABLE.to_bytes(4, "little")  # (its first byte's low 4 bits vary)
    return ZSTD_MAGIC.to_bytes(4, "little").startswith(head) or (
        head[0] & ~0xF == skippable[0] and skippable[1:].startswith(head[1:]))


class Budget:
    """Bytes read from disk and bytes decompressed from them, for one input and all it holds."""

    def __init__(self) -> None:
        self.read = 0
        self.made = 0

    def produced(self, n: int) -> str | None:
        """Count ``n`` decompressed bytes; the reason to stop when the input looks like a bomb."""
        self.made += n
        if self.made > BOMB_FLOOR and self.made > BOMB_RATIO * max(self.read, 1):
            return (f"expands more than {BOMB_RATIO:,} times its size (an archive bomb?): "
                    f"reading stopped after {self.made:,} bytes")
        return None


class Counted(io.RawIOBase):
    """A file's bytes, counted into a :class:`Budget` as they are read (and told to ``on_read``)."""

    def __init__(self, raw: BinaryIO, budget: Budget, on_read: Callable[[int], None] | None = None) -> None:
        super().__init__()
        self._raw, self._budget, self._on_read = raw, budget, on_read

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:  # a zip on disk is read in place, not copied (bundles._seekable)
        return self._raw.seekable()

    def seek(self, offset: int, whence: int = io.SEEK_SET) -> int:
        return self._raw.seek(offset, whence)

    def tell(self) -> int:
        return self._raw.tell()

    def readinto(self, buffer: memoryview) -> int:  # type: ignore[override]
        n: int = self._raw.readinto(buffer)  # type: ignore[attr-defined]
        self._budget.read += n
        if self._on_read is not None:
            self._on_read(self._budget.read)
        return n

    def close(self) -> None:
        self._raw.close()
        super().close()


class _Decoder(Protocol):
    eof: bool
    unused_data: bytes

    def decompress(self, data: bytes, max_length: int = ...) -> bytes: ...


def _isal_zlib() -> Any:
    """ISA-L's zlib API (``isal`` on PyPI, where its wheels are), or None where it is not there or
    cannot load (a broken install falls back to zlib, never fails the scan)."""
    try:
        from isal import isal_zlib
    except ImportError:
        return None
    return isal_zlib


def fast_gzip() -> bool:
    """Whether gzip is inflated by ISA-L: 3.6x zlib's speed on a 40 MB gzip log (0.21 s against
    0.77 s), the same bytes."""
    return _isal_zlib() is not None


def _new_decoder(fmt: str) -> tuple[_Decoder, tuple[type[BaseException], ...]]:
    """A fresh decompressor for one member of ``fmt`` and the errors its corrupt data raises."""
    if fmt == "gzip":  # its header and trailer read here: a bad checksum loses no line (.gunzip)
        import zlib

        from .gunzip import Member

        library = (_isal_zlib() if fast_gzip() else None) or zlib
        return Member(library), (library.error,)
    if fmt == "bzip2":
        import bz2

        return bz2.BZ2Decompressor(), (OSError, ValueError)  # type: ignore[return-value]
    import lzma

    return lzma.LZMADecompressor(lzma.FORMAT_XZ), (lzma.LZMAError,)  # type: ignore[return-value]


class Decoded(io.RawIOBase):
    """The decompressed bytes of a gzip, bzip2 or xz stream, all members, up to any damage.

    Damage (a cut, corrupt data, trailing garbage, a bomb) ends the stream
    quietly and is appended to ``damage``: the lines before it are scanned.
    """

    def __init__(self, raw: BinaryIO, fmt: str, damage: list[str], budget: Budget | None = None) -> None:
        super().__init__()
        self._raw, self._fmt, self._damage, self._budget = raw, fmt, damage, budget
        self._read = one_read(raw)
        self._decoder, self._errors = _new_decoder(fmt)
        self._input, self._out, self._done = b"", b"", False
        self._at = 0  # self._out[self._at:] is still to be read
        self._short = False  # the last read of input gave less than asked
        self._full = False  # the decoder's last call gave a whole step: it may hold more

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: memoryview) -> int:  # type: ignore[override]
        """Fills ``buffer`` from the decoder's steps, but gives what it has before a read of
        input that may wait (the last read was short: a pipe's writer has not written more)."""
        n = 0
        while n < len(buffer):
            if self._at >= len(self._out):
                if self._done or (n and self._short and self._needs_read()):
                    break
                self._out, self._at = b"", 0
                self._step()
                continue
            k = min(len(buffer) - n, len(self._out) - self._at)
            buffer[n:n + k] = memoryview(self._out)[self._at:self._at + k]  # no copy of what is left
            self._at += k
            n += k
        return n

    def _stop(self, why: str) -> None:
        self._damage.append(why)
        self._done = True

    def _needs_read(self) -> bool:
        """Whether the next step reads input: none is left and the decoder holds no more output
        (its last call gave less than a step: ISA-L keeps what it decoded past one inside), or a
        member has ended and what follows it is too short to tell what comes next."""
        d = self._decoder
        if d.eof:  # (what _next_member reads more for: zero padding, or less than a header)
            return len((d.unused_data + self._input).lstrip(b"\0")) < 8
        return not (self._input or self._full) and getattr(d, "needs_input", True)

    def _step(self) -> None:
        d = self._decoder
        if d.eof:
            self._next_member(d.unused_data + self._input)
            return
        if self._needs_read():
            self._input = self._read(STEP_INPUT)
            self._short = len(self._input) < STEP_INPUT
            if not self._input:
                self._stop(f"{self._fmt} data ends before the end of its stream (cut short): "
                           "the lines before the cut were scanned")
                return
        data, self._input = self._input, b""
        try:
            self._out = d.decompress(data, STEP)
        except self._errors as exc:
            self._stop(f"{self._fmt} data is corrupt ({exc}): the lines before it were scanned")
            return
        self._full = len(self._out) == STEP
        self._input = getattr(d, "unconsumed_tail", b"")
        if self._budget is not None:
            bomb = self._budget.produced(len(self._out))
            if bomb:
                self._stop(bomb)

    def _next_member(self, rest: bytes) -> None:
        """After a whole member: zero padding, then another member, the end, or garbage."""
        while not rest.strip(b"\0"):
            more = self._read(STEP_INPUT)
            if not more:
                self._done = True  # whole (padding included, as gzip and xz accept it)
                return
            rest = more
        rest = rest.lstrip(b"\0")
        while len(rest) < 8:
            more = self._read(STEP_INPUT)
            if not more:
                break
            rest += more
        if detect(rest) != self._fmt:
            self._stop(f"decompression OK, trailing garbage ignored (as {self._fmt} says)")
            return
        self._decoder, _ = _new_decoder(self._fmt)
        self._input = rest

    def close(self) -> None:
        self._raw.close()
        super().close()


class Salvaged(io.RawIOBase):
    """A reader whose errors end the stream instead of losing it: bytes already read stay
    delivered, the error is appended to ``damage`` (as ``what(exc)``). Reads are at most
    ``step`` bytes, so an error loses at most what one read was decoding."""

    def __init__(self, inner: BinaryIO, damage: list[str], errors: tuple[type[BaseException], ...],
                 what: Callable[[BaseException], str], budget: Budget | None = None, step: int = CHUNK) -> None:
        super().__init__()
        self._inner, self._damage, self._errors, self._what = inner, damage, errors, what
        self._budget, self._done, self._step = budget, False, step

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: memoryview) -> int:  # type: ignore[override]
        """Fills ``buffer`` in reads of ``step`` bytes (fewer at the end or the damage)."""
        n = 0
        while n < len(buffer) and not self._done:
            try:
                data = self._inner.read(min(len(buffer) - n, self._step))
            except self._errors as exc:
                self._damage.append(self._what(exc))
                self._done = True
                break
            if not data:
                break
            buffer[n:n + len(data)] = data
            n += len(data)
            if len(data) < self._step:  # what a pipe or a decoder had: give it now
                break
        if self._budget is not None and n:
            bomb = self._budget.produced(n)
            if bomb:
                self._damage.append(bomb)
                self._done = True
        return n

    def close(self) -> None:
        self._inner.close()
        super().close()


def zstd_reader(stream: BinaryIO, damage: list[str], budget: Budget | None, long: bool) -> BinaryIO:
    """The decompressed bytes of a zstd stream (``zstandard``), up to any damage.

    Windows above 128 MiB (``zstd --long``) are refused unless ``long``, as the
    ``zstd`` command refuses them without ``--long=31``: such a window is
    memory the decoder would take. A cut last frame is told from a whole one
    by following the frame format (:class:`ZstdFrames`).
    """
    try:
        import zstandard
    except ImportError:
        raise OSError("zstd-compressed input needs the 'zstandard' package (pip install zstandard)") from None
    frames = ZstdFrames(stream)
    decompressor = zstandard.ZstdDecompressor(max_window_size=ZSTD_LONG_WINDOW if long else ZSTD_WINDOW)
    inner = decompressor.stream_reader(frames, read_across_frames=True)  # type: ignore[arg-type]
    return io.BufferedReader(_ZstdChecked(inner, frames, damage, budget))


def _zstd_problem(exc: BaseException) -> str:
    text = str(exc)
    if "ictionary" in text:
        return f"zstd data needs the dictionary it was compressed with ({text})"
    if "memory" in text or "indow" in text:
        return ("zstd data uses a window above 128 MiB (made with zstd --long): scan with --long to allow "
                "up to 2 GiB of memory for it, as zstd --long=31 does")
    return f"zstd data is corrupt ({text}): the lines before it were scanned"


class _ZstdChecked(Salvaged):
    """:class:`Salvaged` for zstd, which also says when the data ends inside a frame."""

    def __init__(self, inner: BinaryIO, frames: object, damage: list[str], budget: Budget | None) -> None:
        import zstandard

        super().__init__(inner, damage, (zstandard.ZstdError,), _zstd_problem, budget)
        self._frames = frames

    def readinto(self, buffer: memoryview) -> int:  # type: ignore[override]
        n = super().readinto(buffer)
        if n == 0 and not self._done and self._frames.garbage:  # type: ignore[attr-defined]
            self._damage.append('zstd data ends with bytes that are no frame (zstd -d says "unknown header"): '
                                "the frames before them were scanned")
            self._done = True
        if n == 0 and not self._done and not self._frames.whole():  # type: ignore[attr-defined]
            self._damage.append("zstd data ends inside a frame (cut short): the lines before the cut were scanned")
            self._done = True
        return n
