"""Hits with the lines around them, like ``grep -C``."""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterator
from typing import BinaryIO, NamedTuple, cast

from ..registry.model import Registry
from .engine import EXCERPT_HEAD, NEIGHBOURS, LineWatch, _scanned, _Segments, scanner
from .hit import Hit
from .interrupt import flat, relay
from .readahead import ReadAhead, read_ahead


class Group(NamedTuple):
    """The hits of one line with the ``(line_no, line)`` pairs of the lines before and after it."""

    before: list[tuple[int, str]]
    hits: list[Hit]
    after: list[tuple[int, str]]


#: A :class:`Group` as the scan makes it, a plain tuple of the same fields: a flood of code lines
#: is a group a line, and a named tuple took 6 times as long to make (``scan -C``'s pipeline takes
#: these; :func:`scan_with_context` names them).
Made = tuple[list[tuple[int, str]], list[Hit], list[tuple[int, str]]]


#: Bytes of a line kept for the context (decoded): a long line's start.
_KEPT = 4 * EXCERPT_HEAD


def _kept(raw: bytes) -> str:
    """A line as it is kept: without its line end, its first :data:`_KEPT` bytes decoded."""
    return raw.removesuffix(b"\r")[:_KEPT].decode("utf-8", "replace")


def _kept_lines(data: bytes) -> list[str]:
    """The lines of a block of whole lines as they are kept (:func:`_kept`); an ASCII block (most
    logs) decoded and split at once."""
    if not data.isascii():
        parts = data.split(b"\n")
        if data.endswith(b"\n"):
            parts.pop()
        return [_kept(raw) for raw in parts]
    texts = data.decode("ascii").split("\n")
    if data.endswith(b"\n"):
        texts.pop()
    if b"\r" in data:
        texts = [t.removesuffix("\r") for t in texts]
    if max(map(len, texts), default=0) > _KEPT:
        texts = [t[:_KEPT] for t in texts]
    return texts


class _Around:
    """The lines a scan keeps for its groups: the recent ones (for ``before``) and the groups
    still filling with their ``after`` lines (a hit near the end of a block is given before the
    next block's lines are read). The scanner gives it each block, and each long line, as it
    starts to read it (:class:`~.engine.Keeper`): a block it read ahead (:mod:`.helper`) is kept
    when its turn comes, not while it waits."""

    def __init__(self, context: int) -> None:
        self.context = context
        self.lines: list[tuple[int, str]] = []  # numbered one after another
        self.read = 0  # lines read so far
        self.open: list[Made] = []  # in line order; the last may still take hits

    def block(self, data: bytes, end: int) -> None:
        """Keep the lines of the block ``data[:end]``."""
        self._let_go()
        self._keep(_kept_lines(bytes(data[:end])))

    def long_line(self, head: bytes) -> None:
        """Keep a long line (read in pieces), as its first characters (``head``: its first bytes)."""
        self._let_go()
        self._keep([_kept(head)])

    def _let_go(self) -> None:
        # Hits wait for at most NEIGHBOURS later lines: older lines are no one's "before".
        if self.lines:
            del self.lines[:max(0, self.read - self.context - NEIGHBOURS - 1 - self.lines[0][0])]

    def _keep(self, texts: list[str]) -> None:
        """Keep ``texts``, the next lines read; add each to the "after" of the groups open whose
        window it is in: only the first ``context`` can be (an open group's line was read)."""
        start = self.read + 1
        items = list(zip(range(start, start + len(texts)), texts))
        for item in items[:self.context]:
            for _, hits, after in self.open:  # (hits wait for at most a few lines: few groups are open)
                if hits[0].line_no < item[0] <= hits[0].line_no + self.context:
                    after.append(item)
        self.lines.extend(items)
        self.read += len(texts)

    def read_to(self, line_no: int) -> list[Made]:
        """The groups whose lines are all read by line ``line_no`` (they are let go)."""
        return self._whole(line_no, kept=0)

    def add(self, hits: list[Hit]) -> list[Made]:
        """Take ``hits``, a run in line order: each into the newest group when on its line, else
        into a new one; returns the earlier groups whose lines are all read (they are let go)."""
        lines, context, groups = self.lines, self.context, self.open
        first = lines[0][0]
        last = groups[-1][1][0].line_no if groups else 0
        for hit in hits:
            line_no = hit.line_no
            if line_no == last:
                groups[-1][1].append(hit)
                continue
            # The lines kept are numbered one after another, and the hit's own was read: its
            # window is found by position.
            at, last = line_no - first, line_no
            groups.append((lines[at - context if at > context else 0:at], [hit], lines[at + 1:at + 1 + context]))
        return self._whole(self.read, kept=1)

    def _whole(self, line_no: int, kept: int) -> list[Made]:
        """The oldest groups whose lines are all read by line ``line_no``, leaving ``kept`` newest open."""
        groups = self.open  # (in line order: found by bisection, a run's groups are let go at once)
        n = bisect_right(groups, line_no - self.context, hi=max(0, len(groups) - kept), key=_line_of)
        done = groups[:n]
        del groups[:n]
        return done

    def rest(self) -> list[Made]:
        """The groups still open at the end of the input."""
        done, self.open = self.open, []
        return done


def _line_of(group: Made) -> int:
    return group[1][0].line_no


def scan_with_context(
    stream: BinaryIO,
    context: int,
    *,
    registry: Registry | None = None,
    include_success: bool = False,
    watch: LineWatch | None = None,
    progress: bool = False,
) -> Iterator[Group]:
    """Groups of hits with ``context`` lines around them, like ``grep -C``.

    Yields a :class:`Group` ``(before, hits, after)`` per line with hits:
    ``before``/``after`` are the ``(line_no, line)`` pairs of the ``context``
    lines on each side, whole even where they hold hits themselves or belong
    to a neighbouring group's window, so that each group stands alone (a JSON
    object, a table row); a display that prints groups in order skips the
    lines it already printed, as ``grep -C`` does. With ``progress``, the
    number of lines read so far comes between groups too (an ``int``, as
    :func:`~.readahead.scan_progress` gives it). The hits are those of
    :func:`~.engine.scan_stream`; every line is also split out here to show
    the context, so this is slower. Memory: the :func:`~.engine.scan_stream`
    bound plus ``context`` lines (long lines are kept as their first
    :data:`~.engine.EXCERPT_HEAD` characters).
    """
    runs = context_groups(stream, context, scanner(registry).reading(include_success, watch), progress)
    return cast("Iterator[Group]", flat(relay(runs, _named)))  # (with progress, the ints between them too, as documented)


def _named(run: list[Made] | int) -> tuple[list[Group] | int]:
    return (run,) if isinstance(run, int) else ([Group._make(g) for g in run],)


def context_groups(stream: BinaryIO, context: int, scan: _Segments, progress: bool,
                   ahead: ReadAhead | None = None) -> Iterator[list[Made] | int]:
    """:func:`scan_with_context`'s groups a run at a time (lists, never empty), as they are made
    (:data:`Made`), the lines read by ``scan`` (:meth:`~.engine.Scanner.reading`); ``ahead``:
    whether a helper process may prefilter the blocks (:class:`~.readahead.ReadAhead`)."""
    segments, helped = read_ahead(stream, scan.sc, scan.include_success, ahead)
    around = _Around(context)
    scan.kept = around
    # The lines read so far always: they let go the groups whose last lines came.
    runs = _scanned(segments, scan, True, helped)

    def step(item: list[Hit] | int) -> tuple[list[Made] | int, ...]:
        # A tuple, not a generator: made for every run, and taken when called (relay holds
        # Ctrl-C back meanwhile).
        if isinstance(item, int):
            done = around.read_to(item)
            return ((done, item) if done else (item,)) if progress else ((done,) if done else ())
        done = around.add(item)
        return (done,) if done else ()

    try:
        yield from relay(runs, step)
    except KeyboardInterrupt:  # the groups of what was read, as at the end (:mod:`.interrupt`)
        yield from _given(around.rest())
        raise
    yield from _given(around.rest())


def _given(groups: list[Made]) -> Iterator[list[Made]]:
    if groups:
        yield groups
