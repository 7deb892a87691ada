"""Find the lines worth a close look, fast: Hyperscan when its wheel is there, else literal search.

Every token the rules accept (:mod:`sphinx_llmstatus.scan.rules`) and every
symptom pattern matches one of :attr:`Matcher.prefilter`'s byte patterns
(literals and fixed-width classes, no look-around) and contains one of
:attr:`Matcher.literals`, so the engine only has to run the precise rules on
the lines either prefilter finds. The precise rules decide, so the hits are
identical whichever runs.

Why Hyperscan (``hyperscan`` on PyPI, wheels for Linux x86_64 and aarch64):
measured by ``bench/bench_scan.py`` on the first 20 MB of a log where one
line in three carries LLM DataDist tags, it finds the candidate lines at
about 1 GB/s, RE2 (``google-re2``, one alternation of the same patterns)
at about 325 MB/s, and the pure-Python literal search at about 25 MB/s
(same lines for the first two; the literal search finds more, which the
precise rules then drop). Hyperscan calls back once per match, and a scan
that finds many stops and resumes at the next line.
"""

from __future__ import annotations

import os
import re
from typing import Any, NamedTuple

from . import dbcache

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Container, Sequence

#: ``LLMSTATUS_SCAN_ENGINE=python`` forces the pure-Python prefilter.
ENV = "LLMSTATUS_SCAN_ENGINE"


#: In :meth:`~HyperscanPrefilter.starts_watched`'s lists: the line may hold any watched literal.
ANY = -1
#: The lines that hold watched literals: line start -> the watched literals' indexes found on it.
Watched = dict[int, list[int]]


class Prefiltered(NamedTuple):
    """What the prefilter found in a block: what ``starts_watched`` gives and, when the helper
    process gave it (:mod:`.helper`), the line breaks before each of those lines and before the
    block's end (:func:`~.reading.line_counts`), so this process does not count them again, and
    the lines it decided by their shape (:class:`~.readahead.Premade`)."""

    starts: list[int]
    watched: Watched
    counts: dict[int, int] | None = None
    premade: tuple[dict[int, int], bytes | None] | None = None


class PythonPrefilter:
    """Line starts of the lines holding any of some literals: one C search per literal and line.

    ``literals`` must be a superset test of the patterns (every match of a
    pattern contains one of them): Python's ``re`` has no multi-pattern
    search, but a plain substring search runs in C at memory speed. Those from
    index ``watch_from`` on are watched literals (see :meth:`starts_watched`).
    """

    name = "python"

    def __init__(self, literals: Sequence[bytes], watch_from: int | None = None, once: Container[int] = ()) -> None:
        self._searches = tuple(re.compile(re.escape(lit)).search for lit in literals)
        self._watch_from = len(literals) if watch_from is None else watch_from
        self._once = once

    def starts(self, data: bytes, end: int) -> list[int]:
        """Sorted start offsets of the lines of ``data[:end]`` holding a literal."""
        starts, watched = self.starts_watched(data, end)
        return sorted({*starts, *watched})

    def starts_watched(self, data: bytes | bytearray, end: int, skip: Container[int] = ()) -> tuple[list[int], Watched]:
        """The sorted starts of the lines of ``data[:end]`` holding a pattern's literal, and per line
        the indexes of the watched literals on it (clue and evidence lines, read beside the codes),
        but those in ``skip`` (no longer wanted)."""
        starts: set[int] = set()
        watched: Watched = {}
        find, rfind = data.find, data.rfind
        for i, search in enumerate(self._searches):
            index = i - self._watch_from
            if index >= 0 and index in skip:
                continue
            m = search(data, 0, end)
            while m is not None:
                p = m.start()
                start = rfind(b"\n", 0, p) + 1
                if index < 0:
                    starts.add(start)
                else:
                    watched.setdefault(start, []).append(index)
                    if index in self._once:  # read once per log: its first line in the block is enough
                        break
                nl = find(b"\n", p, end)
                if nl < 0:
                    break
                m = search(data, nl + 1, end)
        return sorted(starts), watched


class HyperscanPrefilter:
    """Same as :class:`PythonPrefilter`, with a Hyperscan block-mode database (the patterns from
    index ``watch_from`` on are the watched literals)."""

    name = "hyperscan"

    def __init__(self, patterns: Sequence[bytes], watch_from: int | None = None, once: Container[int] = (),
                 coloured: Sequence[bytes] | None = None) -> None:
        import hyperscan

        self._hs = hyperscan
        self._watch_from = len(patterns) if watch_from is None else watch_from
        # A watched literal read once per log (a context clue) is reported once per scan call: a
        # framework's file name on every sixth line would otherwise cost a callback each.
        self._flags = [hyperscan.HS_FLAG_SINGLEMATCH if i - self._watch_from in once else 0
                       for i in range(len(patterns))]
        self._db = _database(hyperscan, patterns, self._flags)
        self._coloured: tuple[list[bytes], list[int], list[int]] | None = None
        if coloured is not None:  # in place of the patterns before the watched ones, ids kept apart
            if len(coloured) > self._watch_from:
                raise ValueError("more coloured patterns than patterns they stand for")
            rest = range(self._watch_from, len(patterns))
            self._coloured = ([*coloured, *(patterns[i] for i in rest)], [*range(len(coloured)), *rest],
                              [0] * len(coloured) + self._flags[self._watch_from:])
        self._coloured_db: Any = None

    def _database_for(self, data: bytes | bytearray, end: int) -> Any:
        """The database for ``data[:end]``: the one without the field vetoes where it holds a
        terminal colour (the rules blank it, which may change a field's name), compiled then."""
        if self._coloured is None or data.find(b"\x1b", 0, end) < 0:
            return self._db
        if self._coloured_db is None:
            patterns, ids, flags = self._coloured
            self._coloured_db = _database(self._hs, patterns, flags, ids)
        return self._coloured_db

    #: Matches collected per scan call; past that the scan stops and resumes at the next line,
    #: so a block of lines full of matches costs one callback per line, not per match.
    BATCH = 1024

    def starts(self, data: bytes, end: int) -> list[int]:
        starts, watched = self.starts_watched(data, end)
        return sorted({*starts, *watched})

    def starts_watched(self, data: bytes | bytearray, end: int, skip: Container[int] = ()) -> tuple[list[int], Watched]:
        out: list[int] = []
        watched: Watched = {}
        found: list[tuple[int, int]] = []
        batch = self.BATCH
        terminated = self._hs.ScanTerminated
        db = self._database_for(data, end)

        def on_match(i: int, _from: int, to: int, _flags: int, _ctx: object) -> bool:
            found.append((to, i))
            return len(found) >= batch

        view = memoryview(data)
        pos = 0
        try:
            while pos < end:
                found.clear()
                stopped = False
                try:
                    db.scan(view[pos:end] if pos else view[:end], match_event_handler=on_match)
                except terminated:
                    stopped = True
                if not found:
                    break
                line_end, lines, watched_lines = self._lines(data, end, pos, found, skip)
                out += lines
                watched.update(watched_lines)  # each pass reads lines after the last pass's
                if stopped:
                    # The rest of the last line's matches went unreported: it is a candidate for the
                    # rules (they decide) and may hold any watched literal.
                    start = data.rfind(b"\n", 0, pos + found[-1][0] - 1) + 1
                    if not out or out[-1] != start:
                        out.append(start)
                    watched[start] = [ANY]
                if not stopped or line_end >= end:
                    break
                pos = line_end + 1
        finally:
            view.release()
        return out, watched

    def _lines(self, data: bytes | bytearray, end: int, pos: int, found: list[tuple[int, int]],
               skip: Container[int]) -> tuple[int, list[int], Watched]:
        """The matches ``found`` (ends in ``data[pos:end]``, in order) by line: the end of the last
        line, the starts of the lines with a pattern's match, and of those with a watched literal's
        (but those in ``skip``) with the literals' indexes."""
        out: list[int] = []
        watched: Watched = {}
        find, rfind, watch_from = data.find, data.rfind, self._watch_from
        line_end, start, coded = -1, 0, False
        for to, i in found:
            p = pos + to - 1  # last byte of the match
            if data[p] == 10:  # the line break a form's end took ([^A-Za-z0-9_]): still its line
                p -= 1
            if p >= line_end:
                start = rfind(b"\n", 0, p) + 1
                nl = find(b"\n", p, end)
                line_end, coded = (end if nl < 0 else nl), False
            if i < watch_from:
                if not coded:
                    out.append(start)
                    coded = True
            elif i - watch_from not in skip:
                watched.setdefault(start, []).append(i - watch_from)
        return line_end, out, watched


def _database(hs: Any, patterns: Sequence[bytes], flags: int | Sequence[int] = 0,
              ids: Sequence[int] | None = None) -> Any:
    """The block-mode database of ``patterns`` (each with ``flags``, or with its own, and its index
    or its one of ``ids``): loaded from the user's cache when :mod:`.dbcache` trusts it, else
    compiled and cached. Hyperscan refuses a database of another version or CPU (a home shared by
    x86_64 and aarch64 hosts then compiles again)."""
    each = [flags] * len(patterns) if isinstance(flags, int) else list(flags)
    ids = list(range(len(patterns))) if ids is None else list(ids)
    shown = b"flags %d" % each[0] if len(set(each)) == 1 else b"flags " + b",".join(b"%d" % f for f in each)
    if ids != list(range(len(patterns))):
        shown += b"\nids " + b",".join(b"%d" % i for i in ids)
    key = b"\n".join([dbcache.MAGIC, shown, *patterns]) + b"\n\n"
    where = dbcache.directory()
    path = dbcache.path_for(where, key) if where is not None else None
    data = dbcache.read(path) if path is not None else None
    if data is not None and data.startswith(key):
        try:
            db = hs.loadb(data[len(key):], hs.HS_MODE_BLOCK)
            db.scratch = hs.Scratch(db)
            if dbcache.proves(lambda text: _ids(hs, db, text), patterns, ids):
                return db
        except hs.error:
            pass
    db = hs.Database(mode=hs.HS_MODE_BLOCK)
    db.compile(expressions=list(patterns), ids=ids, elements=len(patterns), flags=each)
    if path is not None:
        try:
            dbcache.write(path, key + hs.dumpb(db))
        except hs.error:
            pass
    return db


def _ids(hs: Any, db: Any, text: bytes) -> set[int]:
    """The ids of the patterns of ``db`` that match ``text``."""
    found: set[int] = set()

    def on_match(i: int, _from: int, _to: int, _flags: int, _ctx: object) -> None:
        found.add(i)

    db.scan(text, match_event_handler=on_match)
    return found


def available() -> tuple[str, ...]:
    """The prefilters that can run here, fastest first."""
    try:
        import hyperscan  # noqa: F401
    except ImportError:
        return ("python",)
    return ("hyperscan", "python")


def make(patterns: Sequence[bytes], literals: Sequence[bytes], engine: str | None = None,
         watched: Sequence[bytes] = (), once: Container[int] = (),
         coloured: Sequence[bytes] | None = None) -> PythonPrefilter | HyperscanPrefilter:
    """The prefilter ``engine`` (``hyperscan``/``python``; None: ``$LLMSTATUS_SCAN_ENGINE`` or the fastest).

    Hyperscan matches ``patterns``; the Python one looks for ``literals``
    (each pattern's matches contain one). Both also look for the ``watched``
    literals, whose lines :meth:`~HyperscanPrefilter.starts_watched` reports
    apart too; of those whose indexes are in ``once``, a block's first line is
    enough. ``coloured`` stand for ``patterns`` where the text holds a terminal
    colour (Hyperscan only; the literal search leaves fields to the rules). Raises ValueError for an engine that is unknown or not installed.
    """
    engine = engine or os.environ.get(ENV) or available()[0]
    if engine not in available():
        raise ValueError(f"scan engine {engine!r} is not available here (have: {', '.join(available())})")
    if engine == "hyperscan":
        return HyperscanPrefilter([*patterns, *(re.escape(w) for w in watched)], len(patterns), once, coloured)
    return PythonPrefilter([*literals, *watched], len(literals), once)
