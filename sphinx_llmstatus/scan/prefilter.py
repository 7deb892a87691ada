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
from typing import Any

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
                 vetoed: dict[int, int] | None = None) -> None:
        import hyperscan

        self._hs = hyperscan
        self._watch_from = len(patterns) if watch_from is None else watch_from
        self._vetoed = vetoed or {}
        # A watched literal read once per log (a context clue) is reported once per scan call: a
        # framework's file name on every sixth line would otherwise cost a callback each. A
        # pattern whose longer matches are vetoed reports the leftmost start of each.
        single, leftmost = hyperscan.HS_FLAG_SINGLEMATCH, hyperscan.HS_FLAG_SOM_LEFTMOST
        self._db = _database(hyperscan, patterns, [
            single if i - self._watch_from in once else leftmost if i in self._vetoed else 0
            for i in range(len(patterns))])

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
        # The rules blank terminal colours (\x1b[...m) first, which may change a field's name: a
        # block holding one keeps every number for the rules.
        vetoed = self._vetoed if data.find(b"\x1b", 0, end) < 0 else {}

        def on_match(i: int, start: int, to: int, _flags: int, _ctx: object) -> bool:
            if i in vetoed and to - start > vetoed[i]:  # a field's value (Matcher.field_vetoed)
                return False
            found.append((to, i))
            return len(found) >= batch

        view = memoryview(data)
        pos = 0
        try:
            while pos < end:
                found.clear()
                stopped = False
                try:
                    self._db.scan(view[pos:end] if pos else view[:end], match_event_handler=on_match)
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


def _database(hs: Any, patterns: Sequence[bytes], flags: int | Sequence[int] = 0) -> Any:
    """The block-mode database of ``patterns`` (each with ``flags``, or with its own): loaded from
    the user's cache when :mod:`.dbcache` trusts it, else compiled and cached. Hyperscan refuses a
    database of another version or CPU (a home shared by x86_64 and aarch64 hosts then compiles again)."""
    each = [flags] * len(patterns) if isinstance(flags, int) else list(flags)
    shown = b"flags %d" % each[0] if len(set(each)) == 1 else b"flags " + b",".join(b"%d" % f for f in each)
    key = b"\n".join([dbcache.MAGIC, shown, *patterns]) + b"\n\n"
    where = dbcache.directory()
    path = dbcache.path_for(where, key) if where is not None else None
    data = dbcache.read(path) if path is not None else None
    if data is not None and data.startswith(key):
        try:
            db = hs.loadb(data[len(key):], hs.HS_MODE_BLOCK)
            db.scratch = hs.Scratch(db)
            if dbcache.proves(lambda text: _ids(hs, db, text), patterns):
                return db
        except hs.error:
            pass
    db = hs.Database(mode=hs.HS_MODE_BLOCK)
    db.compile(expressions=list(patterns), ids=list(range(len(patterns))), elements=len(patterns), flags=each)
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
         vetoed: dict[int, int] | None = None) -> PythonPrefilter | HyperscanPrefilter:
    """The prefilter ``engine`` (``hyperscan``/``python``; None: ``$LLMSTATUS_SCAN_ENGINE`` or the fastest).

    Hyperscan matches ``patterns``; the Python one looks for ``literals``
    (each pattern's matches contain one). Both also look for the ``watched``
    literals, whose lines :meth:`~HyperscanPrefilter.starts_watched` reports
    apart too; of those whose indexes are in ``once``, a block's first line is
    enough. A match of a pattern whose index is in ``vetoed`` and that is longer than
    the length given there is no candidate (a field's value: Hyperscan only; the
    literal search leaves it to the rules). Raises ValueError for an engine that is unknown or not installed.
    """
    engine = engine or os.environ.get(ENV) or available()[0]
    if engine not in available():
        raise ValueError(f"scan engine {engine!r} is not available here (have: {', '.join(available())})")
    if engine == "hyperscan":
        return HyperscanPrefilter([*patterns, *(re.escape(w) for w in watched)], len(patterns), once, vetoed)
    return PythonPrefilter([*literals, *watched], len(literals), once)
