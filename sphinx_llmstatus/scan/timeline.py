"""When and where a line was written: its time, its host and role, and the cluster ids it names.

The times and cluster ids are the registry's ``[[log_clue]]`` records (each
with its source and sample lines). A hit's time is read from its own line
(:class:`Times`); cluster ids and roles are found while the stream is read
(:class:`ClueWatch`: the scanner's prefilter finds the lines holding a clue's
literal with the codes, then each clue's bounded pattern reads them), so a
scan costs no per-line Python and no second pass.
The host is the node directory a file was collected under (:func:`host_of`);
the role comes from the log's clues, else from the words of that path.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import NamedTuple

from ..registry.clues import Stamp, read_clue, read_stamp, stamp_text
from ..registry.model import ONCE_KINDS, LogClue, Registry
from .context import PrefixReader

#: Words of a node's directory or file name that say its role. Deployment scripts name pods and
#: directories so (``prefill-0``, ``decode-1``; vLLM's ``kv_producer``/``kv_consumer``): a naming
#: habit, not a log fact, so a clue in the log wins over it.
ROLE_WORDS = (("prefill", "prefill"), ("prompt", "prefill"), ("producer", "prefill"),
              ("decode", "decode"), ("consumer", "decode"))


class Clue(NamedTuple):
    """A line's statement about its writer: ``kind`` (``cluster``, ``peer``, ``role``) and ``value``."""

    kind: str
    value: str
    line_no: int
    process: str | None
    time: Stamp | None


class Times:
    """Reads a line's time by the registry's ``time`` clues (the last one that matched first)."""

    def __init__(self, registry: Registry) -> None:
        self._clues = [c for c in registry.log_clues if c.kind == "time"]

    def __call__(self, line: str) -> Stamp | None:
        for i, clue in enumerate(self._clues):
            stamp = read_stamp(clue, line[:512])
            if stamp is not None:
                if i:  # logs keep one format: try this one first next time
                    self._clues.insert(0, self._clues.pop(i))
                return stamp
        return None


def with_year(stamp: Stamp | None, mtime: float | None) -> Stamp | None:
    """``stamp`` with a year: its own, else the year of ``mtime`` (the file's), else None."""
    if stamp is None or stamp[0] is not None:
        return stamp
    if mtime is None:
        return None
    year = datetime.fromtimestamp(mtime, UTC).year
    return (year, *stamp[1:])


def time_text(stamp: Stamp | None) -> str | None:
    """ISO 8601 text of ``stamp`` (None for None)."""
    return None if stamp is None else stamp_text(stamp)


class ClueWatch:
    """Keeps the clue lines (cluster ids, roles, context) the engine meets: its prefilter finds the
    lines holding a clue's literal in the same pass as the codes and hands them to :meth:`line`."""

    def __init__(self, registry: Registry) -> None:
        self._clues = [c for c in registry.log_clues if c.kind != "time"]
        self._by_literal: dict[str, list[LogClue]] = {}
        for clue in self._clues:
            self._by_literal.setdefault(clue.literal, []).append(clue)
        self._prefix = PrefixReader(registry)
        self._times = Times(registry)
        self.clues: list[Clue] = []
        self._fired: set[str] = set()  # the context clues seen (ids): once per log is enough

    def line(self, line: str, line_no: int, literals: list[str] | None = None) -> None:
        """Read ``line`` (number ``line_no``) for every clue it states (of those whose literal is one
        of ``literals``, when given); a context clue (framework, mode, api, version) once per log."""
        clues = self._clues if literals is None else [c for lit in literals for c in self._by_literal.get(lit, ())]
        for clue in clues:
            if clue.id in self._fired or clue.literal and clue.literal not in line:
                continue
            value = read_clue(clue, line)
            if value is None:
                continue
            if clue.kind in ONCE_KINDS:
                self._fired.add(clue.id)
            self.clues.append(Clue(clue.kind, value, line_no, self._prefix(line).process, self._times(line)))

    def done(self, literal: str) -> bool:
        """True when no clue with ``literal`` has anything left to read in this log."""
        return all(c.id in self._fired for c in self._by_literal.get(literal, ()))


def host_of(parts: tuple[str, ...], root: str | None, each_root_a_node: bool = False) -> str | None:
    """The node a file was collected from, by the habit of collected trees: the first directory
    of its path under the directory scanned (``logs/prefill-0/plog/a.log`` under ``logs``:
    ``prefill-0``), else of its path inside the archive (``b.tar.gz{decode-1/plog/a.log}``:
    ``decode-1``); the directory scanned itself when several were given (``scan -r prefill-0
    decode-1``: ``each_root_a_node``). ``parts`` are the file's path and its members' paths;
    None when they name no directory."""
    if root is not None and each_root_a_node:
        return _parts(root)[-1] if _parts(root) else None
    outer = parts[0] if parts else ""
    candidates = [outer[len(root):] if outer.startswith(root) else outer] if root is not None else []
    candidates += parts[1:2]
    for path in candidates:
        names = _parts(path)
        if len(names) >= 2:
            return names[0]
    return None


def _parts(path: str) -> list[str]:
    """The names of a path's directories and file, without ``.``, ``..`` and empty ones."""
    return [p for p in path.split("/") if p not in ("", ".", "..")]


def role_of_path(name: str) -> str | None:
    """The role the words of a path name (``prefill-0``, ``decode_logs``), or None."""
    lowered = name.lower()
    for word, role in ROLE_WORDS:
        if word in lowered:
            return role
    return None
