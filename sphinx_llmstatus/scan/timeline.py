"""When and where a line was written: its time, its host and role, and the cluster ids it names.

The times and cluster ids are the registry's ``[[log_clue]]`` records (each
with its source and sample lines). A hit's time is read from its own line
(:class:`Times`); cluster ids and roles are found while the stream is read
(:class:`ClueWatch`: each clue's literal is looked for with ``bytes.find``,
then its bounded pattern reads the line), so a scan costs no per-line Python.
The host is the node directory a file was collected under (:func:`host_of`);
the role comes from the log's clues, else from the words of that path.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import lru_cache

from ..registry.clues import Stamp, read_clue, read_stamp, stamp_text
from ..registry.model import Registry
from .context import PrefixReader

#: Words of a node's directory or file name that say its role. Deployment scripts name pods and
#: directories so (``prefill-0``, ``decode-1``; vLLM's ``kv_producer``/``kv_consumer``): a naming
#: habit, not a log fact, so a clue in the log wins over it.
ROLE_WORDS = (("prefill", "prefill"), ("prompt", "prefill"), ("producer", "prefill"),
              ("decode", "decode"), ("consumer", "decode"))


@dataclass(frozen=True)
class Clue:
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
    """Passes the engine's segments through, noting the clue lines (cluster ids, roles) in them."""

    def __init__(self, registry: Registry) -> None:
        self._clues = [c for c in registry.log_clues if c.kind != "time"]
        # One pass of the scanner's own prefilter (Hyperscan where installed) finds their lines.
        self._lines_with = _line_finder(tuple(sorted({c.literal.encode("utf-8") for c in self._clues})))
        self._prefix = PrefixReader(registry)
        self._times = Times(registry)
        self.clues: list[Clue] = []
        self._lines = 0

    def segments(self, segments: Iterator[tuple]) -> Iterator[tuple]:
        """``segments`` unchanged; clue lines of their whole-line runs are kept in :attr:`clues`."""
        for seg in segments:
            if seg[0] == "lines":
                self._look(seg[1], seg[2])
            elif seg[6]:  # the last piece of a long line: counted, not read for clues
                self._lines += 1
            yield seg

    def _look(self, buf: bytes | bytearray, end: int) -> None:
        if self._lines_with is not None:
            for start in self._lines_with(buf, end):  # type: ignore[arg-type]  # a bytearray reads as bytes
                stop = buf.find(b"\n", start, end)
                line = bytes(buf[start:stop if stop >= 0 else end]).decode("utf-8", "replace")
                self._note(line, self._lines + buf.count(b"\n", 0, start) + 1)
        self._lines += buf.count(b"\n", 0, end) + (0 if buf[end - 1:end] == b"\n" else 1)

    def _note(self, line: str, line_no: int) -> None:
        for clue in self._clues:
            value = read_clue(clue, line)
            if value is not None:
                self.clues.append(Clue(clue.kind, value, line_no, self._prefix(line).process, self._times(line)))


@lru_cache(maxsize=8)
def _line_finder(literals: tuple[bytes, ...]) -> Callable[[bytes, int], list[int]] | None:
    """The starts of the lines of ``data[:end]`` that hold one of ``literals`` (None: none to find)."""
    if not literals:
        return None
    import re

    from .prefilter import make

    return make([re.escape(lit) for lit in literals], literals).starts


def host_of(name: str, root: str | None) -> str | None:
    """The node a file was collected from: the first directory of its path under the directory
    scanned (``logs/prefill-0/plog/a.log`` under ``logs``: ``prefill-0``), or of its path inside
    an archive (``b.tar.gz{decode-1/plog/a.log}``: ``decode-1``); None when the path has none."""
    outer, brace, inner = name.partition("{")
    if brace:
        parts = inner.rstrip("}").split("{")[0].split("/")
    elif root is not None:
        rel = outer[len(root):].lstrip("/") if outer.startswith(root) else outer
        parts = rel.split("/")
    else:
        return None
    parts = [p for p in parts if p not in ("", ".")]
    return parts[0] if len(parts) >= 2 else None


def role_of_path(name: str) -> str | None:
    """The role the words of a path name (``prefill-0``, ``decode_logs``), or None."""
    lowered = name.lower()
    for word, role in ROLE_WORDS:
        if word in lowered:
            return role
    return None
