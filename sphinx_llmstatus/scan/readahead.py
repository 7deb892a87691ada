"""A scan with a helper process: the blocks read ahead for it, and its half of the work on the lines.

The helper process (:mod:`.helper`) prefilters the blocks the command reads ahead
(:func:`read_ahead`, where one may run); where a block's candidate lines are many, it also
finds their shapes as the command's scanner would (:mod:`.engine`) and answers per line the
hits its shape makes, sent once per shape (:mod:`.wire`): :class:`Premade`. The command makes
each such line's hits from its number and text.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import BinaryIO, NamedTuple

from ..registry.model import Registry
from . import helper as _helper
from .context import CONTEXT_SPAN
from .engine import NOTHING, SHAPE_BYTES, LineWatch, Runs, Scanner, _Line, _line_at, _scanned, _Segments, scanner
from .hit import Hit
from .reading import Block, LongPiece, Pause, iter_segments
from .wire import pack_hits


class ReadAhead(NamedTuple):
    """Whether a scan may read ahead for a helper process that prefilters its blocks (:mod:`.helper`:
    the command's choice; a library caller, a notebook, never forks), and for a pipe, whether
    input comes within so many milliseconds (blocks are held for the helper only while it does)."""

    helper: bool = False
    waits: Callable[[int], bool] | None = None


def scan_progress(stream: BinaryIO, registry: Registry, include_success: bool, watch: LineWatch | None,
                  ahead: ReadAhead | None = None) -> Runs:
    """:func:`~.engine.scan_stream`'s hits a run at a time and, after each block read, the number of
    lines read so far (:data:`~.engine.Runs`): what lets a consumer that holds hits (the diagnosis) let them go
    as the stream goes."""
    sc = scanner(registry)
    segments, helped = read_ahead(stream, sc, include_success, ahead)
    return _scanned(segments, _Segments(sc, include_success, watch), True, helped)


def read_ahead(stream: BinaryIO, sc: Scanner, include_success: bool,
               ahead: ReadAhead | None) -> tuple[Iterator[Block | LongPiece | Pause], _helper.Ahead | None]:
    """The segments of ``stream`` and, where a helper may prefilter them (:func:`_read_ahead`), the
    blocks read ahead for it (``ahead`` None: no helper)."""
    helped = _read_ahead(sc, ahead.helper, include_success) if ahead is not None else None
    if ahead is None or helped is None:
        return iter_segments(stream), None
    idle = helped.idle(ahead.waits) if ahead.waits is not None else None
    return iter_segments(stream, swap=helped.swap, idle=idle), helped


def _read_ahead(sc: Scanner, helper: bool, include_success: bool = False) -> _helper.Ahead | None:
    """Blocks read ahead for a helper process (:mod:`.helper`), where one may run: ``helper`` asked,
    Hyperscan (the literal search would look for every watched literal in the helper), 2 CPUs."""
    if not (helper and sc.engine == "hyperscan" and _helper.usable()):
        return None
    return _helper.Ahead(sc.prefilter, Premade(sc, include_success))


#: Shapes whose hits the helper sends or holds at most (then it starts over, from the next block), and lines
#: a block may leave to the command (and more than it decided) before the helper stops deciding
#: the block's lines (a log whose code lines never repeat gains nothing from it: the command decides each).
PREMADE = 4096
LEFT = 256
#: A block's lines per candidate line at most for the helper to decide them: where candidates are
#: fewer, the command's process has time for them, and the helper, which prefilters every block, has not.
SPARSE = 32


class Premade:
    """The helper's half of a scan's work on the lines (:mod:`.helper`: ``decide``): of each block it
    prefilters, the candidate lines a shape decides alone (:class:`~.engine._Shape`), decided as
    the command's scanner decides them.

    On a flood of code lines the command's process spends most of its time finding each line's
    shape (its bytes, its time's place and key); the helper, which only prefilters, has time for
    it. Its answer names per such line the hits its shape makes (their fields but the line's
    number and text, which a shape's lines all share: an index, the hits sent once, from the
    second line of the shape on) or :data:`~.engine.NOTHING`, and the command makes the line's hits
    from its number and text (:meth:`~.engine._Segments._picked`). The lines it leaves (a shared
    number whose context is in the lines around, a line longer than :data:`~.engine.SHAPE_BYTES`,
    a shape's first line, a block's lines once it left more than :data:`LEFT` and than it
    decided) are decided by the command as before: either way the hits are those of each line
    decided alone."""

    def __init__(self, sc: Scanner, include_success: bool) -> None:
        self._scan = _Segments(sc, include_success, None)
        #: id(hits of a shape) -> the hits (kept: the id stays theirs) and their index (None: seen once)
        self._seen: dict[int, tuple[list[tuple], int | None]] = {}
        self._sent = 0

    def __call__(self, data: bytes, end: int, starts: list[int], lines: int) -> tuple[dict[int, int], bytes | None] | None:
        """The lines of ``data[:end]`` (``lines`` line breaks) at ``starts`` decided (line start ->
        index or :data:`NOTHING`), and the hits of the shapes sent from this block on (``(index,
        packed hits)``, pickled); None for a block with fewer than one candidate line in :data:`SPARSE`."""
        if len(starts) * SPARSE < lines:
            return None
        # Shapes seen once are held too: a log whose lines never repeat must not grow them for ever.
        if self._sent >= PREMADE or len(self._seen) >= PREMADE:  # (the command overwrites the indexes)
            self._seen.clear()
            self._sent = 0
        picks: dict[int, int] = {}
        new: list[tuple[int, list[Hit]]] = []
        left = 0
        for s in starts:
            pick = self._pick(data, end, s, new)
            if pick is None:
                left += 1
                if left > max(LEFT, len(picks)) or self._sent >= PREMADE:
                    break
            else:
                picks[s] = pick
        return picks, _pickled(new) if new else None

    def _pick(self, data: bytes, end: int, s: int, new: list[tuple[int, list[Hit]]]) -> int | None:
        raw = _line_at(data, s, end)[0]
        if len(raw) > SHAPE_BYTES:
            return None
        shape, text = self._scan._shape(raw)
        if not (shape.tokens or shape.symptoms):
            return NOTHING
        if not shape.alone:
            return None
        made = shape.made.get(shape.decided)
        if made is None:  # as engine._Run._hits makes them
            ln = _Line(0, raw[:CONTEXT_SPAN], shape.pre, text)
            ln.take(shape)
            self._scan.run._hits(ln, shape.decided)
            made = shape.made[shape.decided]
        made, index = self._seen.get(id(made), (made, None))
        if index is None and id(made) in self._seen:  # its second line: send its hits
            index, self._sent = self._sent, self._sent + 1
            new.append((index, [Hit(0, "", *fields) for fields in made]))
        self._seen[id(made)] = (made, index)
        return index


def _pickled(new: list[tuple[int, list[Hit]]]) -> bytes:
    import pickle

    return pickle.dumps([(index, pack_hits(hits)) for index, hits in new], pickle.HIGHEST_PROTOCOL)
