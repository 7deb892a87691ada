"""Reading a log: runs of whole lines, and a line too long to hold as pieces.

The input is read in blocks of whole lines (4 MiB reads into one buffer, with
``readinto1`` where the stream has it, so a pipe is scanned as data arrives
and a file costs no copy besides the read). A line longer than
:data:`LONG_LINE` bytes is read in overlapping pieces: tokens are accepted
only in each piece's own part and the rules look at most :data:`OVERLAP`
bytes around a token, so every token is found once, with its column in the
whole line, whatever the read sizes (a file and a pipe give the same hits).
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Iterable, Iterator
from mmap import mmap
from typing import BinaryIO, NamedTuple, cast

from .context import CONTEXT_SPAN
from .encoding import one_read

READ_SIZE = 4 << 20
#: Lines longer than this (bytes) are scanned in pieces, never held whole.
LONG_LINE = 8 << 20
#: Bytes each long-line piece shares with the next (far more than any token and its look-around).
OVERLAP = 4096
#: Bytes a pipe this process reads is asked to hold (Linux's default most for a user: pipe-max-size).
PIPE_SIZE = 1 << 20
#: A block of the input as read (the reader's own buffer, a slot of shared memory, or bytes).
Data = bytes | bytearray | mmap
#: A buffer the reader reads into.
Buffer = bytearray | mmap


class Block(NamedTuple):
    """A run of whole lines: ``data[:end]``, ending with a line break except at the end of input.
    ``data`` is a buffer reused for the next run (valid until the reader resumes: copy what must
    outlive it)."""

    data: Data
    end: int


class LongPiece(NamedTuple):
    """A piece of a line longer than :data:`LONG_LINE`: ``text`` decoded, tokens accepted with a
    start in ``text[lo:hi]``, ``base`` the characters of the line before ``text``, ``head`` the
    line's first :data:`~.context.CONTEXT_SPAN` bytes, ``final`` True on the line's last piece."""

    text: str
    lo: int
    hi: int
    base: int
    head: bytes
    final: bool


def _same(buffer: Buffer) -> Buffer:
    """The buffer to read into next: the same one."""
    return buffer


def _busy() -> bool:
    """Whether a read would wait for a writer: never for a file."""
    return False


def _readinto(stream: BinaryIO, read: Callable[[int], bytes]) -> Callable[[memoryview], int]:
    """The stream's ``readinto1`` (else ``readinto``, else ``read`` copied into the view)."""
    readinto = getattr(stream, "readinto1", None) or getattr(stream, "readinto", None)
    if readinto is not None:
        return readinto

    def copied(view: memoryview) -> int:
        chunk = read(len(view))
        view[:len(chunk)] = chunk
        return len(chunk)

    return copied


class Pause:
    """Given by :func:`iter_segments` before a read that would wait for a writer (``idle``): what
    the consumer holds must be scanned now, not once more input comes."""


#: The one :class:`Pause`.
PAUSE = Pause()


def iter_segments(stream: BinaryIO, read_size: int = READ_SIZE, swap: Callable[[Buffer], Buffer] | None = None,
                  idle: Callable[[], bool] | None = None) -> Iterator[Block | LongPiece | Pause]:
    """The stream as :class:`Block` (runs of whole lines) and :class:`LongPiece` (pieces of a
    line longer than :data:`LONG_LINE`). Reads with ``readinto1`` (else ``read1``/``read``)
    into one buffer, so a pipe is scanned as data arrives and a file costs no
    copy besides the read. ``swap``, called with the buffer of the block just given once the
    consumer is done with it, returns the buffer to read into next (that one, or one of at least
    :data:`LONG_LINE` bytes the consumer gives: the helper's shared memory, :mod:`.helper`); the
    start of an unfinished line moves to it. Where ``idle`` says a read would wait (a pipe's
    writer pauses, within a line too), :data:`PAUSE` comes first.
    """
    read = one_read(stream)
    readinto = _readinto(stream, read)
    swap, idle = swap or _same, idle or _busy
    # A buffered reader holding bytes already (a format told by peeking) reads its source again
    # before it returns them to a large request: a pipe's writer would have to write more before
    # the first lines are scanned. The first read takes what it holds.
    peek = getattr(stream, "peek", None)
    first = len(peek(1)) if peek is not None else 0
    buf: Buffer = bytearray(read_size)
    fill = 0  # buf[:fill]: the start of an unfinished line (no line break in it)
    while True:
        if fill >= LONG_LINE:  # read the rest of this line in pieces
            rest = yield from _long_line(bytearray(buf[:fill]), read, read_size)
            cut = rest.rfind(b"\n") + 1
            if cut:
                yield Block(rest, cut)
            fill = len(rest) - cut
            buf[:fill] = rest[cut:]
            continue
        if fill == len(buf):  # (a bytearray: a slot holds LONG_LINE bytes)
            cast(bytearray, buf).extend(bytes(len(buf)))
        if idle():
            yield PAUSE
        with memoryview(buf) as view:
            n = readinto(view[fill:fill + (first or read_size)])
        first = 0
        if not n:
            break
        end = fill + n
        cut = buf.rfind(b"\n", fill, end) + 1
        if cut:
            yield Block(buf, cut)
            fill = end - cut
            after = swap(buf)
            after[:fill] = buf[cut:end]
            buf = after
        else:
            fill = end
    if fill:
        yield Block(buf, fill)


#: Bytes counted per step by :func:`newlines` (small enough to reuse freed memory).
_COUNT_STEP = 1 << 18
#: Spans counted with ``count`` (``replace`` wins only where its copies cost less than its speed).
_SHORT_SPAN = 1 << 12


def newlines(data: Data, lo: int, hi: int) -> int:
    """The line breaks in ``data[lo:hi]``.

    ``bytes.replace`` finds a single byte with ``memchr``, about twice as fast
    as ``bytes.count``'s byte loop (measured on 4 MiB of log: 1.3 ms against
    3.5 ms), the main cost of a whole-file scan after the prefilter.
    """
    if hi - lo < _SHORT_SPAN:  # between two lines of a block of code lines (an mmap has no count)
        return data[lo:hi].count(b"\n")
    n = 0
    for a in range(lo, hi, _COUNT_STEP):
        piece = data[a:min(hi, a + _COUNT_STEP)]
        n += len(piece) - len(piece.replace(b"\n", b""))
    return n


def line_counts(data: Data, end: int, positions: Iterable[int]) -> dict[int, int]:
    """The line breaks in ``data`` before each of ``positions`` (offsets below ``end``) and before ``end``."""
    counts, n, pos = {}, 0, 0
    for p in sorted({*positions, end}):
        n += newlines(data, pos, p)
        counts[p], pos = n, p
    return counts


def widen_pipe(fd: int) -> None:
    """Let the pipe ``fd`` hold :data:`PIPE_SIZE` bytes where the system allows. A pipe holds
    64 KiB: its writer waits while a block is scanned, and each read takes at most that. A wider
    one is written on meanwhile, and a read takes more at once."""
    try:
        import fcntl

        fcntl.fcntl(fd, fcntl.F_SETPIPE_SZ, PIPE_SIZE)
    except (ImportError, AttributeError, OSError):  # not Linux, or over the user's limit
        pass


def _char_start(buf: bytearray | bytes, i: int) -> int:
    # Move back to the first byte of a UTF-8 character (at most 3 steps).
    for _ in range(3):
        if i <= 0 or not 0x80 <= buf[i] < 0xC0:
            break
        i -= 1
    return i


def _long_line(buf: bytearray, read: Callable[[int], bytes], read_size: int) -> Generator[LongPiece, None, bytearray]:
    """Pieces of one line longer than :data:`LONG_LINE`; returns what follows its line break."""
    head = bytes(buf[:CONTEXT_SPAN])
    base = 0  # characters of the line before buf[0]
    lo = 0  # bytes of buf already accepted by the previous piece
    eof = False
    while True:
        nl = buf.find(b"\n")
        if nl >= 0 or eof:
            end = nl if nl >= 0 else len(buf)
            line = buf[:end]
            if line.endswith(b"\r"):
                line = line[:-1]
            text = line.decode("utf-8", "replace")
            lo_c = len(buf[:lo].decode("utf-8", "replace"))
            yield LongPiece(text, lo_c, len(text), base, head, True)
            return bytearray(buf[end + 1:]) if nl >= 0 else bytearray()
        if len(buf) >= LONG_LINE:
            cut = _char_start(buf, len(buf) - OVERLAP)
            keep = _char_start(buf, cut - OVERLAP)
            text = buf.decode("utf-8", "replace")
            lo_c = len(buf[:lo].decode("utf-8", "replace"))
            hi_c = len(buf[:cut].decode("utf-8", "replace"))
            yield LongPiece(text, lo_c, hi_c, base, head, False)
            base += len(buf[:keep].decode("utf-8", "replace"))
            lo = cut - keep
            del buf[:keep]
        chunk = read(read_size)
        if chunk:
            buf += chunk
        else:
            eof = True
