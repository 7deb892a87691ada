"""What a scan found, for a person on call: first failure per process, counts, consequences.

Real logs repeat (FIELD-NOTES.md section 3): after the first ``LLM_LINK_FAILED``
a process logs several ``LLM_FAILED`` lines that only pass the failure on.
:class:`Report` takes the hits in file order and keeps, per process (on its
host, when the path names the node; else in its file), the first LLM DataDist
failure (the earliest, when rotated files of one process come out of order);
a later generic code (``LLM_FAILED``, ``LLM_UNKNOWN_ERROR``) in the same
process after a specific first failure is marked as its likely consequence.
:meth:`Report.first_failures` orders them by the time their lines print, with
host, role and the peer cluster each process named (:mod:`.peers` joins both
sides of a link).
"""

from __future__ import annotations

from bisect import bisect_right
from collections import Counter
from collections.abc import Callable, Iterable
from typing import NamedTuple

from .diagnosis import diagnosis_dict
from .hit import Hit
from .peers import link, pid_of, root_cause
from .timeline import Clue, role_of_path, time_text, with_year

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ..registry.clues import Stamp
    from ..registry.model import ApiView


class Place(NamedTuple):
    """Where an input's lines come from: its node (``host``), the role its node or path names
    (:func:`~.timeline.role_of_path`; a clue in the log wins), its mtime."""

    host: str | None = None
    role: str | None = None
    mtime: float | None = None
    #: What tells two hosts of the same name apart (the directory scanned): part of a process's key.
    group: str | None = None


#: Values of the codes that only pass a failure on (0xFFFFFFFF, -1).
GENERIC_VALUES = frozenset({0xFFFFFFFF, -1})


def hit_view(hit: Hit) -> ApiView | None:
    """The API view whose remedy a report shows for ``hit``: the API the hit was read as,
    else the code's first view; None for a hit without a known code."""
    if hit.code is None:
        return None
    return (hit.code.view(hit.api) if hit.api else None) or (hit.code.views[0] if hit.code.views else None)


def hit_name(hit: Hit) -> str:
    """The name a hit is counted under: the code, the other family's name, the symptom id, or the hex."""
    if hit.kind == "symptom":
        return str(getattr(hit.symptom, "id", "symptom"))
    if hit.code is not None:
        return hit.code.name
    if hit.other_name:
        return hit.other_name
    return f"0x{(hit.value or 0) & 0xFFFFFFFF:08X}"


def is_generic(hit: Hit) -> bool:
    """True for an LLM DataDist code that only says "failed" (``LLM_FAILED``, ``LLM_UNKNOWN_ERROR``)."""
    return hit.code is not None and hit.code.value in GENERIC_VALUES


class Report:
    """Counts and first failures of one scan (one or more files), fed hit by hit in file order."""

    def __init__(self, times: Callable[[str], Stamp | None] | None = None) -> None:
        #: (file or host, process) -> the first LLM DataDist failure of that process.
        self.first: dict[tuple[str, str | None], tuple[str, Hit]] = {}
        #: How a line's time is read (:class:`~.timeline.Times`); None: times are not read.
        self._times = times
        #: input name -> where its lines come from; input name -> its clue lines.
        self.places: dict[str, Place] = {}
        self.clues: dict[str, tuple[Clue, ...]] = {}
        self._indexes: dict[str, tuple[dict, dict]] = {}  # _clue_index
        #: Years the lines read so far print (:meth:`time_of`).
        self._years: Counter[int] = Counter()
        #: LLM DataDist code name -> hits; family -> name -> hits; symptom id -> hits.
        self.counts: Counter[str] = Counter()
        self.other: dict[str, Counter[str]] = {}
        self.symptoms: Counter[str] = Counter()
        self.consequences: Counter[str] = Counter()
        self.codes: dict[str, Hit] = {}
        #: (file, process) -> the last symptom, else the last other layer's code, seen before the
        #: process's first failure; then the one its first failure came after (``preceded``).
        self._before: dict[tuple[str, str | None], Hit] = {}
        self.preceded: dict[tuple[str, str | None], Hit] = {}
        #: (file, line) -> the column from which the line was read for LLM DataDist's codes only
        #: (:attr:`.hit.Hit.others_cut`: too many other layers' numbers on it).
        self.others_cut: dict[tuple[str, int], int] = {}
        # (code, diagnosis, lang) -> its JSON form, made once: the processes of a deployment that fail
        # alike share one (200,000 of them made 4 KB each while the report was written).
        self._diagnoses: dict[tuple[str, object, str], dict[str, object]] = {}

    def add(self, file: str, hit: Hit) -> tuple[str, Hit] | None:
        """Count ``hit`` (found in ``file``); return ``(file, first failure)`` when it is a likely consequence of it."""
        code = hit.code
        name = code.name if code is not None and hit.kind == "code" else hit_name(hit)  # (hit_name, spelled out)
        if hit.others_cut is not None:
            self.others_cut.setdefault((file, hit.line_no), hit.others_cut)
        if not hit.is_llm_datadist:  # a symptom, another layer's code
            self._note_before(file, hit)
            if hit.kind == "symptom":
                self.symptoms[name] += 1
            else:
                self.other.setdefault(hit.family, Counter())[name] += 1
            return None
        self.counts[name] += 1
        self.codes.setdefault(name, hit)
        if code is not None and code.is_success:  # no failure (is_failure, knowing the rest)
            return None
        key = self.key(file, hit.process)
        first = self.first.get(key)
        if first is None or (first[0] != file and self._earlier(file, hit, first)):
            self.first[key] = (file, hit)
            earlier = self._before.pop(key, None)
            if earlier is not None:
                self.preceded[key] = earlier
            return None
        if is_generic(hit) and not is_generic(first[1]):
            self.consequences[name] += 1
            return first
        return None

    def triage(self, file: str, hits: Iterable[Hit]) -> list[Hit]:
        """Add ``hits`` (found in ``file``, in order) and return them, each generic failure that
        follows a specific first failure of its process marked as its likely consequence
        (``consequence_of``: file, line, name). What the command, the notebook and the MCP tool
        report is decided here, once."""
        out = []
        for hit in hits:
            first = self.add(file, hit)
            if first is not None:
                hit = hit._replace(consequence_of=(first[0], first[1].line_no, hit_name(first[1])))
            out.append(hit)
        return out

    def _note_before(self, file: str, hit: Hit) -> None:
        """Remember ``hit`` (a symptom or another layer's code) while its process has no failure yet:
        a symptom is kept over a bare code, since it says what to check."""
        key = self.key(file, hit.process)
        if key in self.first:
            return
        kept = self._before.get(key)
        if kept is None or hit.kind == "symptom" or kept.kind != "symptom":
            self._before[key] = hit

    @property
    def failures(self) -> int:
        """LLM DataDist failure hits (what makes ``llmstatus scan`` exit 1)."""
        return sum(n for name, n in self.counts.items() if not self.codes[name].is_success)

    def key(self, file: str, process: str | None) -> tuple[str, str | None]:
        """A process's key: its host and pid where the path names the node, else its file."""
        place = self.places.get(file)
        if place is not None and place.host is not None and process:
            return (place.group or place.host, pid_of(process))
        return (file, process)

    def time_of(self, file: str, hit: Hit) -> Stamp | None:
        """The time ``hit``'s line prints. A line without a year (vLLM's ``11-30 10:05:03``) takes
        the year the scan's other lines print most (logs of one incident share it), else its file's."""
        if self._times is None:
            return None
        return self._dated(self._times(hit.line), file)

    def _dated(self, stamp: Stamp | None, file: str) -> Stamp | None:
        if stamp is None:
            return None
        if stamp[0] is not None:
            self._years[stamp[0]] += 1
            return stamp
        if self._years:
            return (self._years.most_common(1)[0][0], *stamp[1:])
        place = self.places.get(file)
        return with_year(stamp, place.mtime if place else None)

    def note_clues(self, file: str, clues: tuple[Clue, ...]) -> None:
        """Keep an input's clue lines (their years date the lines that print none)."""
        self.clues[file] = clues
        self._indexes.pop(file, None)
        for clue in clues:
            if clue.time is not None and clue.time[0] is not None:
                self._years[clue.time[0]] += 1

    def _earlier(self, file: str, hit: Hit, first: tuple[str, Hit]) -> bool:
        new, old = self.time_of(file, hit), self.time_of(*first)
        return new is not None and old is not None and new < old

    def _role(self, file: str, process: str | None) -> str | None:
        roles = self._clue_index(file)[0]
        found = roles.get(pid_of(process)) or roles.get(None)
        if found is not None:
            return found
        place = self.places.get(file)
        return place.role if place is not None else role_of_path(file)

    def _remote(self, file: str, hit: Hit) -> str | None:
        """The cluster the process last named as its peer before ``hit``, in the same file."""
        peers = self._clue_index(file)[1]
        best: tuple[int, str] | None = None
        for pid in (pid_of(hit.process), None):  # its own lines, and lines that name no process
            named = peers.get(pid, [])
            i = bisect_right(named, (hit.line_no, "\uffff"))
            if i and (best is None or named[i - 1][0] > best[0]):
                best = named[i - 1]
        return best[1] if best is not None else None

    def _clue_index(self, file: str) -> tuple[dict[str | None, str], dict[str | None, list[tuple[int, str]]]]:
        """An input's role clues by pid (the first) and peer clues by pid (line-sorted), made once."""
        index = self._indexes.get(file)
        if index is None:
            roles: dict[str | None, str] = {}
            peers: dict[str | None, list[tuple[int, str]]] = {}
            for clue in self.clues.get(file, ()):
                pid = pid_of(clue.process)
                if clue.kind == "role":
                    roles.setdefault(pid, clue.value)
                elif clue.kind == "peer":
                    peers.setdefault(pid, []).append((clue.line_no, clue.value))
            index = self._indexes[file] = (roles, peers)
        return index

    def first_failures(self, lang: str = "en") -> list[dict[str, object]]:
        """``[{name, time, file, line, process, host, role}]`` ordered by time (failures without a
        time after the timed ones, in order of appearance), with ``after: {line, name, family,
        kind}`` when the process logged a symptom or another layer's code before it (the layer
        below that failed first, as often as not), ``remote_cluster`` when it named the cluster it
        links with, ``peer`` when the other side of that link was found (:func:`.peers.link`), and
        ``diagnosis`` (its texts in ``lang``)."""
        return [entry for _key, _file, _hit, entry in self.ordered(lang)]

    def ordered(self, lang: str = "en") -> list[tuple[tuple[str, str | None], str, Hit, dict[str, object]]]:
        """``(key, file, hit, entry)`` of each first failure, in the order of :meth:`first_failures`."""
        rows = {id(entry): (key, file, hit, entry) for key, (file, hit) in self.first.items()
                for entry in (self._entry(key, file, hit, lang),)}
        entries = link(sort_by_time(row[3] for row in rows.values()), self.clusters())
        return [rows[id(entry)] for entry in entries]

    def _entry(self, key: tuple[str, str | None], file: str, hit: Hit, lang: str) -> dict[str, object]:
        place = self.places.get(file, Place())
        item: dict[str, object] = {"name": hit_name(hit), "time": time_text(self.time_of(file, hit)), "file": file,
                                   "line": hit.line_no, "process": hit.process, "host": place.host,
                                   "role": self._role(file, hit.process)}
        earlier = self.preceded.get(key)
        if earlier is not None:
            item["after"] = {"line": earlier.line_no, "name": hit_name(earlier), "family": earlier.family,
                             "kind": earlier.kind}
        remote = self._remote(file, hit)
        if remote is not None:
            item["remote_cluster"] = remote
        if hit.diagnosis is not None and hit.code is not None:
            said = (hit.code.name, hit.diagnosis, lang)
            if said not in self._diagnoses:
                self._diagnoses[said] = diagnosis_dict(hit.code, hit.diagnosis, lang)  # type: ignore[arg-type]
            item["diagnosis"] = self._diagnoses[said]
        return item

    def clusters(self) -> list[dict[str, object]]:
        """Where each process named its own cluster id: ``[{cluster_id, host, file, line, process,
        time, role}]``, the first time per cluster id and file."""
        out: list[dict[str, object]] = []
        seen: set[tuple[str, str]] = set()
        for file, clues in self.clues.items():
            place = self.places.get(file, Place())
            for clue in clues:
                if clue.kind != "cluster" or (clue.value, file) in seen:
                    continue
                seen.add((clue.value, file))
                out.append({"cluster_id": clue.value, "host": place.host, "file": file, "line": clue.line_no,
                            "process": clue.process, "time": time_text(self._dated(clue.time, file)),
                            "role": self._role(file, clue.process)})
        return out

    def as_dict(self, lang: str = "en") -> dict[str, object]:
        """The JSON summary object (``llmstatus scan --summary --json``), its texts in ``lang``."""
        first = self.first_failures(lang)
        cut = {"others_cut": [{"file": file, "line": line, "column": column + 1}
                              for (file, line), column in self.others_cut.items()]} if self.others_cut else {}
        return {
            "root_cause": root_cause(first),
            "first_failures": first,
            "clusters": self.clusters(),
            "counts": dict(self.counts.most_common()),
            "likely_consequences": dict(self.consequences.most_common()),
            "failures": self.failures,
            "other_families": {fam: dict(c.most_common()) for fam, c in self.other.items()},
            "symptoms": dict(self.symptoms.most_common()),
            **cut,
        }


def sort_by_time(entries: Iterable[dict[str, object]]) -> list[dict[str, object]]:
    """``entries`` ordered by their ``time`` (ISO text sorts as time; a time without a year after
    those with one), entries without a time last, in their order."""
    items = list(entries)
    timed = sorted((e for e in items if e.get("time")), key=lambda e: (len(str(e["time"])) < 19, str(e["time"])))
    return timed + [e for e in items if not e.get("time")]
