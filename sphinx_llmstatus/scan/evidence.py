"""The registry's evidence, indexed for the scan: which causes a log line proves or rules out.

Each cause of a code may carry ``evidence`` (:class:`~..registry.model.Evidence`):
the format string of an upstream log call, matched as its literal pieces in
order (linear), or a code whose earlier failure proves the cause. The scanner's
prefilter finds the lines holding an evidence literal in its one pass over the
stream (:attr:`Book.literals` join it, like the clue literals); :class:`Lines`
keeps them, as found, while a failure near them may still need them, and reads
them (:meth:`Book.read`, the writer, the time) only when one does.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Callable
from typing import NamedTuple

from ..registry.clues import Stamp
from ..registry.model import Cause, Evidence, Registry, StatusCode
from .context import PrefixReader

#: How far from a failure its evidence may be: lines before and after, and seconds when both are dated.
WINDOW_LINES = 200
WINDOW_SECONDS = 120
#: Characters of an evidence line kept around the literal found (and of its start, for its writer).
AROUND = 1000
HEAD = 200
#: Evidence lines of a failure's code read for it, the nearest (a log may repeat one every line).
NEAREST = 32
#: Characters of an evidence line a report shows: the line, or its start and the text around the match.
PROOF_TEXT = 300


class Ref(NamedTuple):
    """One evidence of one cause: the code's canonical name, the API whose view holds the cause,
    the cause's index in that view, the evidence's index in the cause."""

    code: str
    api: str
    cause: int
    evidence: int

    def of(self, code: StatusCode) -> tuple[Cause, Evidence] | None:
        """The cause and evidence this refers to in ``code`` (None when the registry has no such)."""
        view = code.view(self.api)
        if view is None or self.cause >= len(view.causes):
            return None
        cause = view.causes[self.cause]
        return (cause, cause.evidence[self.evidence]) if self.evidence < len(cause.evidence) else None


class Book:
    """Every evidence format of a registry, by the literal the prefilter looks for."""

    def __init__(self, registry: Registry) -> None:
        self._by_literal: dict[str, list[tuple[Ref, Evidence]]] = {}
        named: set[str] = set()
        for code in registry.holding("evidence"):
            for view in code.views:
                for i, cause in enumerate(view.causes):
                    for j, ev in enumerate(cause.evidence):
                        if ev.format:
                            self._by_literal.setdefault(ev.literal, []).append((Ref(code.name, view.api, i, j), ev))
                        elif ev.code is not None:
                            named.add(ev.code)
        #: The codes whose earlier failure is evidence of some cause (their failures are kept).
        self.named: frozenset[str] = frozenset(named)
        #: The literals of every evidence format, for the scanner's prefilter.
        self.literals: frozenset[str] = frozenset(self._by_literal)

    def read(self, line: str, literals: list[str] | None = None) -> tuple[Ref, ...]:
        """The evidence ``line`` holds (every piece of its format, in order); only of the formats
        whose literal is one of ``literals``, when given (the ones the prefilter found on it)."""
        found = self._by_literal.items() if literals is None else (
            (lit, self._by_literal[lit]) for lit in literals if lit in self._by_literal)
        return tuple(ref for lit, refs in found if lit in line for ref, ev in refs if ev.matches(line))


_BOOKS: dict[int, tuple[Registry, Book]] = {}


def book(registry: Registry) -> Book:
    """The :class:`Book` of ``registry``, built once per registry."""
    entry = _BOOKS.get(id(registry))
    if entry is None or entry[0] is not registry:
        if len(_BOOKS) >= 8:
            _BOOKS.clear()
        entry = _BOOKS[id(registry)] = (registry, Book(registry))
    return entry[1]


class Line:
    """An evidence line as the scan found it: its number, its start and the text around the literal
    found; its evidence, writer and time are read when a failure near it asks (:meth:`Lines.near`)."""

    __slots__ = ("line", "head", "text", "at", "whole", "literals", "refs", "codes", "process", "time", "seconds")

    def __init__(self, line: int, text: str, literals: list[str] | None) -> None:
        self.line, self.literals, self.head = line, literals, text[:HEAD]
        at = min((i for lit in literals or () if (i := text.find(lit)) >= 0), default=0)
        lo = max(0, at - AROUND)  # a long line is kept around the literal (the pieces sit near it)
        self.text, self.at, self.whole = text[lo:at + AROUND], at - lo, lo == 0 and at + AROUND >= len(text)
        self.refs: tuple[Ref, ...] | None = None
        self.codes: frozenset[str] = frozenset()  # the codes whose causes it holds evidence of
        self.process: str | None = None
        self.time: Stamp | None = None
        self.seconds: tuple[float | None, float] | None = None  # its time as seconds (see within)

    def shown(self) -> str:
        """The line as a report shows it: whole up to :data:`PROOF_TEXT` characters; else its first
        :data:`PROOF_TEXT` when the literal found is among them; else its start and the text there."""
        if self.whole and len(self.text) <= PROOF_TEXT:
            return self.text
        if self.whole and self.at < PROOF_TEXT - 80:
            return self.text[:PROOF_TEXT] + " …"
        return f"{self.head[:80]} … {self.text[max(0, self.at - 40):self.at + 180]} …"


class Lines:
    """The evidence lines of one log, kept while a failure within :data:`WINDOW_LINES` of them may
    still be judged: memory follows the window, not the log."""

    def __init__(self, registry: Registry, times: Callable[[str], Stamp | None]) -> None:
        self._book = book(registry)
        self._prefix = PrefixReader(registry)
        self._times = times
        self.seen: list[Line] = []
        self._at: list[int] = []  # each seen line's number (bisected for every failure)

    def line(self, text: str, line_no: int, literals: list[str] | None = None) -> None:
        """Keep ``text`` (line ``line_no``, holding the watched ``literals``) if it may be evidence."""
        mine = literals if literals is None else [lit for lit in literals if lit in self._book.literals]
        if mine != []:
            self.seen.append(Line(line_no, text, mine))
            self._at.append(line_no)

    def any_between(self, lo: int, hi: int) -> bool:
        """Whether a line kept is numbered from ``lo`` to ``hi``."""
        at = self._at
        return bisect_left(at, lo) < bisect_right(at, hi)

    def forget_before(self, line: int) -> None:
        """Let go of the lines before ``line`` (no failure held or to come can need them): called
        between blocks, so a block's lines wait for its failures."""
        if self._at and self._at[0] < line:
            gone = bisect_left(self._at, line)
            del self.seen[:gone], self._at[:gone]

    def wants(self, literal: str) -> bool:
        """True when ``literal`` is an evidence format's (its lines are always read)."""
        return literal in self._book.literals

    def near(self, line: int, process: str | None, code: str) -> list[Line]:
        """The :data:`NEAREST` lines nearest ``line`` within its window, of ``process`` (or of no named
        one), that hold evidence of ``code``'s causes, in line order; read from the failure outwards,
        so a log repeating a line reads a few of them, not the window."""
        seen, at = self.seen, self._at
        lo = bisect_left(at, line - WINDOW_LINES)
        hi = bisect_right(at, line + WINDOW_LINES, lo)
        if lo == hi:
            return []  # most failures of a log have no evidence line near: asked of each
        before = bisect_left(at, line, lo, hi) - 1
        after = before + 1
        out: list[Line] = []
        while len(out) < NEAREST and (before >= lo or after < hi):
            if after >= hi or before >= lo and line - seen[before].line <= seen[after].line - line:
                candidate, before = seen[before], before - 1
            else:
                candidate, after = seen[after], after + 1
            self._read(candidate)
            if code in candidate.codes and same_process(candidate.process, process):
                out.append(candidate)
        return sorted(out, key=lambda s: s.line)

    def holding(self, code: str) -> list[Line]:
        """Every line kept that holds evidence of ``code``'s causes (a text read whole: an exception)."""
        for seen in self.seen:
            self._read(seen)
        return [s for s in self.seen if code in s.codes]

    def _read(self, seen: Line) -> None:
        if seen.refs is None:
            seen.refs = self._book.read(seen.text, seen.literals)
            seen.codes = frozenset(r.code for r in seen.refs)
            seen.process = self._prefix(seen.head).process
            seen.time = self._times(seen.head)
            seen.seconds = seconds(seen.time)


def same_process(a: str | None, b: str | None) -> bool:
    """Two lines' writers may be one process: the same, or either not named."""
    return a is None or b is None or a == b


def seconds(stamp: Stamp | None) -> tuple[float | None, float] | None:
    """A time as seconds: in its own year (None without one) and in a leap year (2000), for
    :func:`within`; None for no time."""
    if stamp is None:
        return None
    from datetime import datetime

    epoch = datetime(1970, 1, 1)  # naive, as the log's times: no time zone, no daylight saving
    in_2000 = (datetime(2000, *stamp[1:]) - epoch).total_seconds()
    own = (datetime(*stamp) - epoch).total_seconds() if stamp[0] is not None else None  # type: ignore[arg-type]
    return own, in_2000


def within(a: tuple[float | None, float] | None, b: tuple[float | None, float] | None) -> bool:
    """Two lines' times (:func:`seconds`) are within :data:`WINDOW_SECONDS`, or either is not dated.
    A time without a year is compared with the other in one leap year, so 29 February is a day."""
    if a is None or b is None:
        return True
    if a[0] is not None and b[0] is not None:
        return abs(a[0] - b[0]) <= WINDOW_SECONDS
    apart = abs(a[1] - b[1]) % _LEAP_YEAR  # without a year, 31 December is next to 1 January
    return min(apart, _LEAP_YEAR - apart) <= WINDOW_SECONDS


_LEAP_YEAR = 366 * 86400.0
