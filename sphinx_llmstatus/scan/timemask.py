"""A line's time, read apart from what the line says: what lets a retry loop's lines share a shape.

A loop that fails logs the same line a million times, each with its own time
(``[ERROR] GE(77,python):2026-11-30-10:00:01.123.456 [...] ... ret = 1343270921``).
The engine decides a line once per *shape* (:class:`~.engine._Shape`); keyed by the
line's bytes, no two such lines share one. Keyed by the line with its time's digits
zeroed (:meth:`TimeMask.key`), they do, and the hits of each line are made from the
shape with the line's own text.

The times are the registry's ``time`` clues (the ones the timeline reads). A shape
is shared that way only where that cannot change what the line is found to hold:

- the line is ASCII (a byte offset is a column), its time is bounded by no letter
  or digit on either side, and on the line that made the shape no token, symptom,
  context word or log format's match touches the time (:meth:`TimeMask.free`);
- the rules read digits only by class (a digit stays a digit) outside a match,
  and no rule's match can start in, or reach into, a time so bounded
  (each starts with a letter or a run of at least 5 digits, or is read by class);
  a literal of the registry with a digit (a symptom such as ``errno:111``) could:
  a line holding one is never keyed by its time (:attr:`TimeMask.digits`);
- no log format spells a digit of its own (they read pids by class): else no line is.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

#: The bytes of a line searched for its time (as the timeline reads it).
TIME_HEAD = 512
#: Characters of a literal kept on each side of its digits (:func:`_around_digits`).
AROUND = 4
#: Places a time was found lately, tried before a search.
PLACES = 4
_ZEROS = bytes.maketrans(b"123456789", b"000000000")
#: A pattern's escapes, counts and digit range (`0-9`): what remains holds its own digits, if any.
_NOT_LITERAL = re.compile(r"\\.|\{\d*,?\d*\}|0-9")
#: A back-reference compares what it read, digits too.
_BACKREF = re.compile(r"\\[1-9]|\(\?P=")


def spells_digit(pattern: str) -> bool:
    """Whether a regular expression reads some digit other than by class (``20\\d{2}``, ``\\1``)."""
    return _BACKREF.search(pattern) is not None or any(c.isdigit() for c in _NOT_LITERAL.sub("", pattern))


class TimeMask:
    """The registry's time patterns on a line's bytes, and what may not share a shape by its time."""

    def __init__(self, times: Iterable[str], formats: Iterable[str], literals: Iterable[str]) -> None:
        patterns = [t for t in times if t.isascii()]
        # A log format that spells a digit could read a time's digits: no line is keyed by its time.
        self.on = bool(patterns) and not any(map(spells_digit, formats))
        self._times = [re.compile(p.encode()) for p in patterns]
        self._seen: list[tuple[re.Pattern[bytes], int]] = []  # (pattern, start) of the latest times
        pieces = sorted({p for w in literals for p in _around_digits(w)})
        #: What the registry's literals hold around a digit (a time's digits could spell one), and
        #: the longest: a literal whose digit is in a time has such a piece within that of the time.
        self.digits = re.compile("|".join(map(re.escape, pieces)).encode()) if pieces else None
        self._margin = max(map(len, pieces), default=0)

    def span(self, raw: bytes) -> tuple[int, int] | None:
        """Where the time of ``raw`` is, when the line may be keyed by it (bounded, ASCII, no literal
        with a digit), else None."""
        if not self.on or not raw.isascii():
            return None
        m = self._where(raw)
        if m is None:
            return None
        a, b = m.span()
        if not _bounded(raw, a, b) or (self.digits is not None and
                                        self.digits.search(raw, max(0, a - self._margin), b + self._margin)):
            return None
        return a, b

    def _where(self, raw: bytes) -> re.Match[bytes] | None:
        """The time of ``raw``: where a time was found lately first (a log writes its times at a
        few places: tried there, a time costs a tenth of a search), else searched for."""
        seen = self._seen
        for i, (pattern, at) in enumerate(seen):
            m = pattern.match(raw, at, TIME_HEAD)
            if m is not None:
                if i:
                    seen.insert(0, seen.pop(i))
                return m
        for pattern in self._times:
            m = pattern.search(raw, 0, TIME_HEAD)
            if m is not None:
                seen.insert(0, (pattern, m.start()))
                del seen[PLACES:]
                return m
        return None


def _around_digits(word: str) -> list[str]:
    """The pieces of ``word`` around each run of digits (up to :data:`AROUND` characters on each side)."""
    return [word[max(0, m.start() - AROUND):m.end() + AROUND] for m in re.finditer(r"[0-9]+", word)]


def key(raw: bytes, span: tuple[int, int]) -> bytes:
    """``raw`` with the digits of its time zeroed (same length: every column kept)."""
    a, b = span
    return raw[:a] + raw[a:b].translate(_ZEROS) + raw[b:]


def _bounded(raw: bytes, a: int, b: int) -> bool:
    """No word character right before or after ``raw[a:b]``: its digit runs end within it."""
    before, after = raw[a - 1:a] if a else b"", raw[b:b + 1]
    return not (before.isalnum() or before == b"_" or after.isalnum() or after == b"_")


def touches(span: tuple[int, int], spans: Iterable[tuple[int, int]]) -> bool:
    """Whether any of ``spans`` overlaps ``span``."""
    a, b = span
    return any(s < b and a < e for s, e in spans)
