"""The events of scanning one log (:func:`.pipeline.events`): opened, a line's hits, closed, failed.

Plain picklable records: a ``-j`` worker sends them to the command (:mod:`.parallel`,
:mod:`.wire`), and the diagnosis holds them until the lines after a failure are read
(:mod:`.diagnosis`).
"""

from __future__ import annotations

from typing import NamedTuple

from .hit import Hit
from .timeline import Clue

#: Numbered lines shown around a hit's line (``-C``).
Around = list[tuple[int, str]]
#: One line's group in an event of several (``-C``): the lines before it, the number of its hits
#: (the next ones of the event's ``hits``), the lines after it.
GroupSpan = tuple[Around, int, Around]


class Opened(NamedTuple):
    name: str
    mtime: float | None
    #: The outer path and each member's path (see :func:`.bundles.provenance`).
    parts: tuple[str, ...] = ()


class Found(NamedTuple):
    name: str
    before: Around
    hits: list[Hit]
    after: Around
    #: Each hit's output as ``ScanOptions.render`` made it in a worker (empty: not made).
    rendered: tuple[str, ...] = ()
    #: With ``-C``: the lines' groups of ``hits``, in order, each ``(before, number of its hits,
    #: after)`` (then ``before`` and ``after`` are empty): an event holds many lines' hits.
    groups: tuple[GroupSpan, ...] = ()


class Closed(NamedTuple):
    name: str
    damage: tuple[str, ...]
    error: str | None
    clues: tuple[Clue, ...]


class Failed(NamedTuple):
    name: str
    reason: str


Event = Opened | Found | Closed | Failed
