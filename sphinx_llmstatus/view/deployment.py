"""The deployment-wide words of a scan report: when and where each first failure happened, the
other side of its link, and the root-cause candidate. Decided once, in the user's language; the
text, Markdown and notebook reports lay them out (entries are :meth:`Report.first_failures`')."""

from __future__ import annotations

from collections.abc import Mapping

from ..registry.model import Registry
from ..render.labels import label

Entry = Mapping[str, object]


def when(time: object) -> str:
    """An ISO time as a person reads it: ``2026-11-30 10:05:00.100`` (milliseconds)."""
    if not time:
        return ""
    text = str(time).replace("T", " ")
    head, dot, frac = text.partition(".")
    return f"{head}.{frac[:3]}" if dot else head


def where(entry: Entry, lang: str) -> str:
    """``2026-11-30 10:05:00.100  prefill-0 (prefill)``: time, host and role, as far as known."""
    host, role = entry.get("host"), entry.get("role")
    node = str(host) if host else ""
    if role:
        named = _role(str(role), lang)
        node = f"{node} ({named})" if node else named
    return "  ".join(part for part in (when(entry.get("time")), node) if part)


def _role(role: str, lang: str) -> str:
    if role == "prefill":
        return label("prefill", lang)
    return label("decode", lang) if role == "decode" else role


def peer_note(entry: Entry, lang: str) -> str | None:
    """The other side of the failure's link, and whether it failed first; None when unknown."""
    peer = entry.get("peer")
    if not isinstance(peer, Mapping):
        return None
    who = str(peer.get("host") or peer.get("file") or "?")
    fmt = {"cluster": peer.get("cluster_id"), "who": who, "name": peer.get("name"),
           "time": when(peer.get("time")) or "?"}
    if peer.get("name") is None:
        return label("linked with cluster {cluster} ({who}), which logged no failure", lang, **fmt)
    mine, theirs = entry.get("time"), peer.get("time")
    if mine and theirs and str(theirs) <= str(mine):
        return label("linked with cluster {cluster} ({who}): follows its {name} at {time}", lang, **fmt)
    return label("linked with cluster {cluster} ({who}), which failed later with {name} at {time}", lang, **fmt)


def root_lines(root: Entry | None, count: int, lang: str) -> list[str]:
    """The root-cause candidate and the failures that followed it across a link; nothing when the
    scan found fewer than two first failures (the one failure says it all) or no time to order them."""
    if root is None or count < 2 or not root.get("time"):
        return []
    place = str(root.get("host") or root.get("file"))
    out = [label("Root-cause candidate: {name} on {place} at {time} (the earliest first failure)", lang,
                 name=root.get("name"), place=place, time=when(root.get("time")))]
    followed = root.get("followed_by")
    for item in followed if isinstance(followed, list) else ():
        out.append("  " + label("then {name} on {place} at {time}, on the other side of the link", lang,
                                name=item.get("name"), place=item.get("host") or item.get("file"),
                                time=when(item.get("time")) or "?"))
    return out


def confirmed_lines(entry: Entry, lang: str, registry: Registry | None = None) -> list[str]:
    """A merged report's confirmed causes of one first failure, from its ``diagnosis``: ``cause:
    ... (line N: ...)`` each, the cause in ``lang`` from ``registry`` by its ``api`` and ``index``
    (the report's own words when it names no cause the registry has); nothing without one."""
    diagnosis = entry.get("diagnosis")
    confirmed = diagnosis.get("confirmed") if isinstance(diagnosis, Mapping) else None
    out = []
    for item in confirmed if isinstance(confirmed, list) else ():
        if not isinstance(item, Mapping):  # a report is another's file: take only what has the shape
            continue
        evidence = item.get("evidence")
        first = evidence[0] if isinstance(evidence, list) and evidence and isinstance(evidence[0], Mapping) else {}
        cause = _cause_text(entry.get("name"), item, lang, registry).replace("`", "")  # as text shows names
        said = label("{cause} (line {line}: {text})", lang, cause=cause, line=first.get("line"),
                     text=str(first.get("text", "")).strip()) if first else cause
        out.append(f"{label('cause', lang)}: {said}")
    return out


def _cause_text(name: object, item: Mapping[str, object], lang: str, registry: Registry | None) -> str:
    """The registry's words for the cause ``item`` names (``api``, ``index``) of code ``name``."""
    code = registry.get(name) if registry is not None and isinstance(name, str) else None
    view = code.view(str(item.get("api"))) if code is not None else None
    index = item.get("index")
    if view is not None and isinstance(index, int) and not isinstance(index, bool) and 0 <= index < len(view.causes):
        return view.causes[index].when.get(lang)
    return str(item.get("cause"))


def merged_lines(summary: Mapping[str, object], lang: str, registry: Registry | None = None) -> list[str]:
    """A merged summary (``llmstatus merge``) as lines: the root-cause candidate, each first failure
    (time, node, file, line, process, code, the other side of its link), the counts."""
    entries = summary.get("first_failures")
    items = [e for e in entries if isinstance(e, Mapping)] if isinstance(entries, list) else []
    root = summary.get("root_cause")
    out = root_lines(root if isinstance(root, Mapping) else None, len(items), lang)
    if items:
        out.append(label("First failure per process", lang) + ":")
    for entry in items:
        process = entry.get("process") or label("process (unnamed)", lang)
        place = ":".join(str(part) for part in (entry.get("file"), entry.get("line")) if part is not None)
        out.append("  " + "  ".join(str(part) for part in (where(entry, lang), place, process, entry.get("name")) if part))
        out += ["    " + line for line in confirmed_lines(entry, lang, registry)]
        note = peer_note(entry, lang)
        if note:
            out.append("    " + note)
    counts = summary.get("counts")
    if isinstance(counts, Mapping) and counts:
        out.append(label("Summary", lang) + ": " + ", ".join(f"{n} × {name}" for name, n in counts.items()))
    elif not items:
        out.append(label("No LLM DataDist status code found.", lang))
    return out
