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

from .peers import link, root_cause
from .report import pid_of, sort_by_time


class NotASummary(ValueError):
    """The JSON is not what ``scan --summary --json`` writes."""


def check(report: Any) -> Mapping[str, Any]:
    """``report`` when it has a summary's shape; NotASummary saying what is missing otherwise."""
    if not isinstance(report, Mapping):
        raise NotASummary("not a JSON object (write it with llmstatus scan --summary --json)")
    for key, kind in (("first_failures", list), ("clusters", list), ("counts", Mapping)):
        if not isinstance(report.get(key), kind):
            raise NotASummary(f"no {key!r} {'list' if kind is list else 'object'} "
                              "(write it with llmstatus scan --summary --json)")
    for item in report["first_failures"]:
        if not isinstance(item, Mapping) or not isinstance(item.get("name"), str):
            raise NotASummary("a first failure without a name")
    return report


def merge(reports: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """One summary from several (each checked with :func:`check`)."""
    entries: list[dict[str, Any]] = []
    seen: set[tuple[object, ...]] = set()
    for entry in sort_by_time(dict(e) for r in reports for e in r["first_failures"]):
        host = entry.get("host")
        key = (host, pid_of(str(entry.get("process")))) if host and entry.get("process") else \
            (entry.get("file"), entry.get("process"))
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
        if isinstance(c, Mapping):
            total.update({str(k): int(v) for k, v in c.items() if isinstance(v, int)})
    return dict(total.most_common())
