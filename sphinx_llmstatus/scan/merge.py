"""``llmstatus merge``: per-node summaries joined into the deployment's, as one scan would give.

Each node runs ``llmstatus scan --summary --json`` where its logs are (by the
cluster's own scheduler) and the reports are merged where the person on call
is. A summary keeps what the joins need, as plain JSON: every first failure
with its time, host, process and the peer cluster it named, and where each
process announced its own cluster id. :func:`merge` keeps the earliest first
failure per host and process, adds the counts, and pairs and ranks again
with :mod:`.peers`, the code one scan of every log runs.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from .peers import link, pid_of, root_cause
from .report import sort_by_time


class NotASummary(ValueError):
    """The JSON is not what ``scan --summary --json`` writes."""


_TEXT = (str, type(None))
#: The fields of a first failure and of a cluster announcement, with the types they may hold.
_FAILURE_FIELDS = {"name": (str,), "time": _TEXT, "file": _TEXT, "line": (int, type(None)), "process": _TEXT,
                   "host": _TEXT, "role": _TEXT, "remote_cluster": _TEXT}
_CLUSTER_FIELDS = {"cluster_id": (str,), "time": _TEXT, "file": _TEXT, "line": (int, type(None)),
                   "process": _TEXT, "host": _TEXT, "role": _TEXT}


def check(report: Any) -> Mapping[str, Any]:
    """``report`` when it has a summary's shape; NotASummary saying what is wrong otherwise."""
    if not isinstance(report, Mapping):
        raise NotASummary("not a JSON object (write it with llmstatus scan --summary --json)")
    for key, kind in (("first_failures", list), ("clusters", list), ("counts", Mapping)):
        if not isinstance(report.get(key), kind):
            raise NotASummary(f"no {key!r} {'list' if kind is list else 'object'} "
                              "(write it with llmstatus scan --summary --json)")
    for i, item in enumerate(report["first_failures"], 1):
        _fields(item, _FAILURE_FIELDS, f"first failure {i}")
    for i, item in enumerate(report["clusters"], 1):
        _fields(item, _CLUSTER_FIELDS, f"cluster {i}")
    for key in ("counts", "likely_consequences", "symptoms"):
        _counts(report.get(key, {}), key)
    others = report.get("other_families", {})
    if not isinstance(others, Mapping):
        raise NotASummary("'other_families' is not an object")
    for family, counts in others.items():
        _counts(counts, f"other_families.{family}")
    failures = report.get("failures", 0)
    if not isinstance(failures, int) or isinstance(failures, bool) or failures < 0:
        raise NotASummary("'failures' is not a count")
    return report


def _fields(item: Any, fields: Mapping[str, tuple[type, ...]], what: str) -> None:
    if not isinstance(item, Mapping):
        raise NotASummary(f"{what} is not an object")
    for key, kinds in fields.items():
        value = item.get(key)
        if (value is None and key in ("name", "cluster_id")) or not isinstance(value, kinds) or isinstance(value, bool):
            raise NotASummary(f"{what}: {key!r} is not {'text' if str in kinds else 'a number'}")


def _counts(counts: Any, what: str) -> None:
    if not isinstance(counts, Mapping) or not all(
            isinstance(n, int) and not isinstance(n, bool) and n >= 0 for n in counts.values()):
        raise NotASummary(f"{what!r} is not an object of counts")


def merge(reports: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """One summary from several (each checked with :func:`check`)."""
    entries: list[dict[str, Any]] = []
    seen: set[tuple[object, ...]] = set()
    for entry in sort_by_time(dict(e) for r in reports for e in r["first_failures"]):
        host = entry.get("host")
        process = str(entry["process"]) if entry.get("process") else None  # checked: text or None
        key = (host, pid_of(process)) if host and process else (entry.get("file"), process)
        if key not in seen:
            seen.add(key)
            entries.append(entry)
    clusters = [dict(c) for r in reports for c in r["clusters"] if isinstance(c, Mapping)]
    first = link(entries, clusters)
    return {
        "root_cause": root_cause(first),
        "first_failures": first,
        "clusters": clusters,
        "counts": _summed(r.get("counts") for r in reports),
        "likely_consequences": _summed(r.get("likely_consequences") for r in reports),
        "failures": sum(int(r.get("failures") or 0) for r in reports),
        "other_families": {family: _summed(r.get("other_families", {}).get(family) for r in reports)
                           for family in dict.fromkeys(f for r in reports for f in r.get("other_families") or {})},
        "symptoms": _summed(r.get("symptoms") for r in reports),
    }


def _summed(counts: Any) -> dict[str, int]:
    total: Counter[str] = Counter()
    for c in counts:
        if isinstance(c, Mapping):  # checked: counts
            total.update(c)
    return dict(total.most_common())
