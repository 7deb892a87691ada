"""A line's time, read apart from what the line says: what lets a retry loop's lines share a shape.

A loop that fails logs the same line a million times, each with its own time
(``[ERROR] GE(77,python):2026-11-30-10:00:01.123.456 [...] ... ret = 1343270921``).
The engine decides a line once per *shape* (:class:`~.engine._Shape`); keyed by the
line's bytes, no two such lines share one. Keyed by the line with its time's digits
zeroed (:meth:`TimeMask.keyed`), they do, and the hits of each line are made from the shape
with the line's own text.

The times are the registry's ``time`` clues (the ones the timeline reads). Lines
share a shape that way only where that cannot change what they are found to hold:

- the line is ASCII (a byte offset is a column) and no word character touches its
  time (:meth:`TimeMask.keyed`): its digit runs end within it;
- on the line that made the shape no token, symptom, context word or log format's
  match touches the time (:meth:`~.engine._Shape.timeless`). Outside a match the
  rules read a digit only by class (a digit stays a digit);
- no rule's number may be made of the time's digits on any line with that key
  (:meth:`TimeMask.free`): each digit run of the time is within a word or a dotted
  id (every rule refuses a number there), or it is followed by no letter, is of no
  width a number of the rules has (the registry's), and follows no HCCL call trace;
- no literal of the registry with a digit (a symptom such as ``errno:111``) may
  overlap the time of any line with that key (:meth:`TimeMask.free`: its pieces
  around a digit, any digit in their place, searched near the time);
- no log format reads a digit other than by class (:func:`spells_digit`): else no
  line is keyed by its time.

``tests/test_scan_timemask.py`` checks lines built to trip this against each line
decided alone.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import cached_property

from .verdicts import HCCL_TRACE, in_word, word_char

#: The bytes of a line searched for its time (as the timeline reads it).
TIME_HEAD = 512
#: Characters of a literal kept on each side of its digits (:func:`_around_digits`).
AROUND = 4
#: Bytes of a line's start that tell where its time is (:meth:`TimeMask._searched`), and the most
#: such starts remembered (then all are forgotten).
HEAD_BYTES = 16
PLACES = 4096
#: The bytes of a word character (a time's digit run goes on through one).
_WORD = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_")
_DIGITS = re.compile(r"[0-9]+")
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

    def __init__(self, times: Iterable[str], formats: Iterable[str], literals: Iterable[str],
                 widths: Iterable[int] = (), named_digits: bool = False) -> None:
        patterns = [t for t in times if t.isascii()]
        # A log format that spells a digit could read a time's digits: no line is keyed by its time.
        self.on = bool(patterns) and not any(map(spells_digit, formats))
        self._patterns = patterns
        #: Where the time was on lines that start alike (their first bytes, digits zeroed).
        self._places: dict[bytes, tuple[int, int, bytes]] = {}
        pieces = {p for w in literals for p in _around_digits(w)}
        # What the literals hold around a digit, any digit in its place: a line one of which may
        # overlap the time (some other time would spell the literal) is not keyed by its time.
        self._anydigit = sorted({re.sub(rb"[0-9]", rb"[0-9]", re.escape(p).encode()) for p in pieces})
        self._margin = max(map(len, pieces), default=0)
        #: How many digits a rule's number spans where it is digits alone, and whether a code's
        #: name holds a digit (it might end in the time's).
        self._widths, self._named_digits = frozenset(widths), named_digits

    # Compiled when first used: a log without a code line never looks for a time (the scan's start).
    @cached_property
    def _times(self) -> list[re.Pattern[bytes]]:
        return [re.compile(p.encode()) for p in self._patterns]

    @cached_property
    def _digits(self) -> re.Pattern[bytes] | None:
        return re.compile(b"|".join(self._anydigit)) if self._anydigit else None

    def keyed(self, raw: bytes) -> tuple[bytes, tuple[int, int]] | None:
        """``(key, span)`` of ``raw``: where its time is (an ASCII line whose time no word character
        touches) and the line with the time's digits zeroed (same length: every column kept);
        else None."""
        if not self.on or not raw.isascii():
            return None
        head = raw[:HEAD_BYTES].translate(_ZEROS)
        place = self._places.get(head)
        if place is not None:  # where the time was on the last line that started alike
            a, b, zeroed = place
            if raw[a:b].translate(_ZEROS) != zeroed:
                place = None
        if place is None:
            place = self._searched(raw, head)
            if place is None:
                return None
            a, b, zeroed = place
        if (a and raw[a - 1] in _WORD) or (b < len(raw) and raw[b] in _WORD):
            return None  # a digit run of the time may go on past it
        return raw[:a] + zeroed + raw[b:], (a, b)

    def free(self, masked: bytes, span: tuple[int, int]) -> bool:
        """Whether no literal with a digit, nor a rule's number, may overlap the time of a line keyed
        ``masked`` (whatever the digits of each line with that key)."""
        a, b = span
        if self._digits is not None and self._digits.search(masked, max(0, a - self._margin), b + self._margin):
            return False
        text = masked.decode("ascii")  # (only an ASCII line has a span)
        return not any(self._may_be_number(text, *m.span()) for m in _DIGITS.finditer(text, a, b))

    def _may_be_number(self, text: str, s: int, e: int) -> bool:
        """Whether other digits in the run ``text[s:e]`` of a time may make a token of it. A rule's
        number is no token where the verdicts find it within a word (:func:`~.verdicts.in_word`;
        but after ``0x``, which they read as the number's), nor where it starts within the run.
        Else: a letter after it (a hex number, ``5010b``, ``0x``), its width that of a number of
        the rules, or HCCL's call trace before it may make one."""
        if text[s - 2:s] not in ("0x", "0X") and in_word(text, s):
            return self._named_digits and word_char(text[s - 1])  # a code's name may end in it
        return text[e:e + 1].isalpha() or e - s in self._widths or text.endswith(HCCL_TRACE, 0, s)

    def _searched(self, raw: bytes, head: bytes) -> tuple[int, int, bytes] | None:
        """Where the time of ``raw`` is, searched for, and its bytes with the digits zeroed; kept
        for the lines that start as it does (``head``: its first bytes, digits zeroed). A log
        writes its time at one place per kind of line: where the bytes there have the same
        digits and separators as the time found, they are taken as the line's time, unsearched
        (a tenth of the cost). Whatever span is taken, the checks of :meth:`free` and
        :meth:`~.engine._Shape.timeless` hold for any digits in it."""
        for pattern in self._times:
            m = pattern.search(raw, 0, TIME_HEAD)
            if m is not None:
                if len(self._places) >= PLACES:
                    self._places.clear()
                a, b = m.span()
                place = self._places[head] = (a, b, raw[a:b].translate(_ZEROS))
                return place
        return None


def _around_digits(word: str) -> list[str]:
    """The pieces of ``word`` around each run of digits (up to :data:`AROUND` characters on each side)."""
    return [word[max(0, m.start() - AROUND):m.end() + AROUND] for m in re.finditer(r"[0-9]+", word)]


def touches(span: tuple[int, int], spans: Iterable[tuple[int, int]]) -> bool:
    """Whether any of ``spans`` overlaps ``span``."""
    a, b = span
    return any(s < b and a < e for s, e in spans)
