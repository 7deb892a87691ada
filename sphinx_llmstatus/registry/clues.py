"""Read what a log line states about its writer, by the registry's clues (``[[log_clue]]``)."""

from __future__ import annotations

from datetime import datetime

from .logformat import compiled
from .model import LogClue

#: A time read from a line: year (None when the format prints none), month, day, hour, minute,
#: second, microsecond.
Stamp = tuple[int | None, int, int, int, int, int, int]


def read_stamp(clue: LogClue, line: str) -> Stamp | None:
    """The time a ``time`` clue reads from ``line``, or None (no match, or no such date)."""
    m = compiled(clue.pattern).search(line)
    if m is None:
        return None
    g = m.groupdict()
    frac = (g.get("frac") or "").replace(".", "").replace(",", "")
    try:
        stamp: Stamp = (int(g["year"]) if g.get("year") else None, int(g["month"]), int(g["day"]),
                        int(g["hour"]), int(g["minute"]), int(g["second"]), int((frac + "000000")[:6]))
        datetime(stamp[0] or 2000, *stamp[1:])  # a real date and time (2000: a leap year)
    except (KeyError, TypeError, ValueError):
        return None
    return stamp


def stamp_text(stamp: Stamp) -> str:
    """``YYYY-MM-DDTHH:MM:SS.ffffff`` (ISO 8601), or ``MM-DDTHH:MM:SS.ffffff`` without a year;
    the fraction only where it is not zero."""
    year, month, day, hour, minute, second, micro = stamp
    text = f"{month:02d}-{day:02d}T{hour:02d}:{minute:02d}:{second:02d}"
    if micro:
        text += f".{micro:06d}"
    return f"{year:04d}-{text}" if year is not None else text


def read_clue(clue: LogClue, line: str) -> str | None:
    """What ``clue`` reads from ``line`` as text: the time (:func:`stamp_text`), the cluster id, the
    role, what a context clue shows or the version; None when the line does not state it."""
    if clue.kind == "time":
        stamp = read_stamp(clue, line)
        return None if stamp is None else stamp_text(stamp)
    if clue.literal and clue.literal not in line:
        return None
    m = compiled(clue.pattern).search(line)
    if m is None:
        return None
    if clue.kind == "role":
        return clue.role
    if clue.shows is not None:
        return clue.shows
    return m.group("version" if clue.kind == "version" else "cluster")
