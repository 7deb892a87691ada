"""Find status codes in text and byte streams, fast and in constant memory.

How: the input is read in blocks of whole lines (4 MiB reads). For each
literal that every hit token contains (:attr:`Matcher.literals`, a handful of
short byte strings such as ``LLM_`` and ``5010``), one regex search per
occurrence runs over the whole block in C; only the lines holding a literal
are decoded and matched with the precise rules. Ordinary lines cost a few
passes of a C literal search and nothing in Python.

Lines longer than :data:`MAX_PIECE` are scanned in pieces of about that size,
cut at whitespace where possible; each piece is reported with the line's
number.
"""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Iterable, Iterator
from typing import BinaryIO

from ..registry.model import Registry
from .hit import Hit
from .rules import Matcher

READ_SIZE = 4 << 20
MAX_PIECE = 16 << 20
_CUT_WINDOW = 4096


# Registry is unhashable (it holds dicts): cache by identity, keeping the
# registry alive so the id is not reused.
_MATCHERS: dict[int, tuple[Registry, Matcher]] = {}


def matcher(registry: Registry | None = None) -> Matcher:
    """The compiled rules for ``registry`` (the packaged one by default), cached."""
    if registry is None:
        from ..registry.loader import default_registry

        registry = default_registry()
    entry = _MATCHERS.get(id(registry))
    if entry is None or entry[0] is not registry:
        if len(_MATCHERS) >= 8:
            _MATCHERS.clear()
        entry = _MATCHERS[id(registry)] = (registry, Matcher(registry))
    return entry[1]


def iter_blocks(stream: BinaryIO, read_size: int = READ_SIZE) -> Iterator[tuple[bytearray, int]]:
    """``(buffer, end)`` pairs: ``buffer[:end]`` is a run of whole lines of ``stream``.

    The last run may lack its line break, and a line longer than
    :data:`MAX_PIECE` comes in pieces. The buffer is reused: a pair is valid
    only until the next one is requested. Uses ``readinto1``/``read1`` when
    the stream has them, so a pipe is scanned as data arrives.
    """
    buf = bytearray(read_size)
    readinto = getattr(stream, "readinto1", None) or getattr(stream, "readinto", None)
    read = getattr(stream, "read1", None) or stream.read
    filled = 0
    while True:
        if len(buf) - filled < read_size // 2:
            buf.extend(bytes(read_size))  # a long line: grow up to MAX_PIECE
        if readinto is not None:
            with memoryview(buf) as view:
                n = readinto(view[filled:]) or 0
        else:
            data = read(len(buf) - filled)
            n = len(data)
            buf[filled:filled + n] = data
        if not n:
            break
        end = filled + n
        cut = buf.rfind(b"\n", filled, end) + 1
        if cut == 0:
            if end < MAX_PIECE:
                filled = end
                continue
            cut = _piece_cut(buf, end)
        yield buf, cut
        rest = end - cut
        buf[:rest] = buf[cut:end]
        if len(buf) > 2 * read_size and rest < read_size:
            del buf[read_size:]
        filled = rest
    if filled:
        yield buf, filled


def _piece_cut(buf: bytearray, end: int) -> int:
    # Cut a newline-free run at the last whitespace of its final window so
    # that no token is split, or at the end when there is none.
    lo = max(0, end - _CUT_WINDOW)
    best = max(buf.rfind(ch, lo, end) for ch in (b" ", b"\t", b"\r", b","))
    return best + 1 if best > 0 else end


def _candidate_lines(block: bytes | bytearray, end: int, searches: tuple) -> list[int]:
    """Start offsets of the lines of ``block[:end]`` that contain a literal, sorted."""
    starts: set[int] = set()
    find, rfind = block.find, block.rfind
    for search in searches:
        m = search(block, 0, end)
        while m is not None:
            p = m.start()
            starts.add(rfind(b"\n", 0, p) + 1)
            stop = find(b"\n", p, end)
            if stop < 0:
                break
            m = search(block, stop + 1, end)
    return sorted(starts)


def _decode_line(block: bytes | bytearray, start: int, end: int) -> str:
    stop = block.find(b"\n", start, end)
    raw = block[start:end if stop < 0 else stop]
    if raw.endswith(b"\r"):
        raw = raw[:-1]
    return raw.decode("utf-8", "replace")


def _scan_blocks(
    blocks: Iterable[tuple[bytes | bytearray, int]], m: Matcher, include_success: bool
) -> Iterator[Hit]:
    searches = tuple(re.compile(re.escape(lit)).search for lit in m.literals)
    line_no = 1
    for block, end in blocks:
        pos = 0
        for start in _candidate_lines(block, end, searches):
            line_no += block.count(b"\n", pos, start)
            pos = start
            yield from m.hits(_decode_line(block, start, end), line_no, include_success)
        line_no += block.count(b"\n", pos, end)


def scan_stream(
    stream: BinaryIO, *, registry: Registry | None = None, include_success: bool = False
) -> Iterator[Hit]:
    """Every status code in a binary stream, in order, one :class:`Hit` per occurrence.

    Reads ``stream`` to its end in blocks (constant memory, any line length,
    any bytes: invalid UTF-8 is decoded with replacement characters). The
    success code is skipped unless ``include_success``. ``registry`` defaults
    to the packaged one. I/O errors of ``stream`` propagate.
    """
    return _scan_blocks(iter_blocks(stream), matcher(registry), include_success)


def scan_text(
    text: str, *, registry: Registry | None = None, include_success: bool = False
) -> Iterator[Hit]:
    """Every status code in ``text`` (see :func:`scan_stream`); lines split at ``\\n``."""
    data = text.encode("utf-8", "replace")
    return _scan_blocks([(data, len(data))] if data else [], matcher(registry), include_success)


def scan_with_context(
    stream: BinaryIO,
    context: int,
    *,
    registry: Registry | None = None,
    include_success: bool = False,
) -> Iterator[tuple[list[tuple[int, str]], list[Hit], list[tuple[int, str]]]]:
    """Groups of hits with ``context`` lines around them, like ``grep -C``.

    Yields ``(before, hits, after)`` per line with hits: ``before``/``after``
    are ``(line_no, line)`` pairs not already shown in a previous group.
    Slower than :func:`scan_stream` (every line is split out), same memory
    bound plus ``context`` lines.
    """
    m = matcher(registry)
    lits = tuple(lit.decode("ascii") for lit in m.literals)
    before: deque[tuple[int, str]] = deque(maxlen=max(context, 0))
    pending: tuple[list[tuple[int, str]], list[Hit], list[tuple[int, str]]] | None = None
    after_left = 0
    line_no = 0
    for buf, end in iter_blocks(stream):
        block = bytes(buf[:end])
        for raw in block.split(b"\n")[:-1] if block.endswith(b"\n") else block.split(b"\n"):
            line_no += 1
            if raw.endswith(b"\r"):
                raw = raw[:-1]
            line = raw.decode("utf-8", "replace")
            hits = list(m.hits(line, line_no, include_success)) if any(lit in line for lit in lits) else []
            if hits:
                if pending is not None:
                    yield pending
                pending = (list(before), hits, [])
                before.clear()
                after_left = context
            elif pending is not None and after_left > 0:
                pending[2].append((line_no, line))
                after_left -= 1
            else:
                if pending is not None:
                    yield pending
                    pending = None
                before.append((line_no, line))
        # A long-line piece without a newline is counted as its own line here.
    if pending is not None:
        yield pending
