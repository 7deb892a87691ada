"""Both sides of a link: a failure joined to the process on the other end, and the root cause.

A decode worker that fails pulling KV cache named the cluster it pulls from
(vLLM-Ascend logs ``remote cluster id is: 1000`` before ``pull_blocks``);
the prefill worker named its own (``Cluster 1000 start to listen request from
peers``). :func:`link` gives each first failure whose process named a peer
cluster the other side: that process's own first failure when it has one,
else where it announced the cluster. :func:`root_cause` names the earliest
first failure of the deployment and the failures that followed it on the
other side of a link. Both work on the JSON entries of a summary, so
``llmstatus merge`` of per-node reports pairs exactly as one scan of every log.
"""

from __future__ import annotations

from collections.abc import Sequence

Entry = dict[str, object]


def pid_of(process: object) -> str | None:
    """The process id of a process label (``4242 (python)`` -> ``4242``)."""
    return str(process).split(" ", 1)[0] if process else None


def _where(entry: Entry) -> tuple[object, str | None]:
    """What places a process: its host where known, else its file; with its pid."""
    return (("host", entry["host"]) if entry.get("host") else ("file", entry.get("file")), pid_of(entry.get("process")))


def link(entries: list[Entry], clusters: Sequence[Entry]) -> list[Entry]:
    """``entries`` (first failures, in time order) with ``peer`` set where the other side is known."""
    announced: dict[str, Entry] = {}
    for cluster in clusters:
        announced.setdefault(str(cluster["cluster_id"]), cluster)
    failing: dict[tuple[object, str | None], Entry] = {}
    for entry in entries:
        failing.setdefault(_where(entry), entry)
    for entry in entries:
        entry.pop("peer", None)
        remote = entry.get("remote_cluster")
        where = announced.get(str(remote)) if remote is not None else None
        if where is None or _where(where) == _where(entry):
            continue
        other = failing.get(_where(where))
        side = other if other is not None else where
        entry["peer"] = {"cluster_id": str(remote), "host": side.get("host"), "file": side.get("file"),
                         "line": side.get("line"), "time": side.get("time"),
                         "name": other.get("name") if other is not None else None}
    return entries


def root_cause(entries: Sequence[Entry]) -> Entry | None:
    """The deployment's root-cause candidate: the earliest first failure with a time (else the
    first one), with ``followed_by``: the later failures whose peer is its process."""
    if not entries:
        return None
    root = entries[0]
    followed = [{k: e.get(k) for k in ("name", "time", "host", "process", "file", "line", "remote_cluster")}
                for e in entries[1:] if _peer_is(e, root)]
    return {**{k: root.get(k) for k in ("name", "time", "host", "process", "role", "file", "line")},
            "followed_by": followed}


def _peer_is(entry: Entry, root: Entry) -> bool:
    peer = entry.get("peer")
    if not isinstance(peer, dict) or peer.get("name") is None:
        return False
    return peer.get("file") == root.get("file") and peer.get("line") == root.get("line")
