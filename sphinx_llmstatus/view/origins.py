"""Where a code comes from, as labelled rows every card shows: its layer (another layer's code),
what to do, which engine returns it from which calls, how upper layers report it, and other
libraries' names for it.

The terminal, HTML and Markdown cards used to decide this each on their own, and only the
terminal showed it (issue 24); now each lays out the same ``(label, text)`` rows.
"""

from __future__ import annotations

from ..render.labels import N_
from . import code as facts

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ..registry.model import Registry, StatusCode

#: The action vocabulary (registry/model.py ACTIONS) as a reader sees it: the keys themselves in
#: English, translated in Chinese (the keys stay in JSON, for automation).
ACTION_WORDS = {
    "none": N_("nothing"), "retry": N_("retry"), "relink": N_("relink"), "raise-setting": N_("raise-setting"),
    "free-or-resize-pool": N_("free-or-resize-pool"), "fix-config": N_("fix-config"), "fix-call": N_("fix-call"),
    "restart-process": N_("restart-process"), "collect-and-escalate": N_("collect-and-escalate"),
}


def origin_rows(code: StatusCode, lang: str, registry: Registry | None = None,
                short: bool = False) -> list[tuple[str, str]]:
    """``(label, text)`` rows in ``lang``; a row with an empty label is a sentence of its own.
    ``short`` (a terminal's first screen): the engines that return the code on one row without
    their calls, and no other libraries' spellings."""
    from ..render.labels import api_label, label

    out: list[tuple[str, str]] = []
    for view in code.views:
        act = facts.action(view, lang)
        if act is not None:
            target = act["setting"] or act["field"]
            now, then = (label(ACTION_WORDS.get(w, w), lang) for w in (act["immediate"], act["investigate"]))
            steps = now if now == then else f"{now}, {label('then', lang)} {then}"
            out.append((f"{label('Action', lang)} ({api_label(view.api)})", steps + (f" ({target})" if target else "")))
    out += _engine_rows(code, lang, registry, short)
    for b in facts.becomes(code, lang):
        out.append((label("Reported as", lang), f"{b['code']} ({b['via']})"))
    names = [] if short else [b["qualified"] for b in facts.bindings(code, registry, lang)]
    if names:
        out.append((label("Other spellings", lang), ", ".join(dict.fromkeys(names))))
    return out


def layer_row(code: StatusCode, lang: str, registry: Registry | None = None) -> tuple[str, str] | None:
    """``("Layer", "HCCL (not LLM DataDist)")`` for another layer's code, else None: a card says it
    first."""
    from ..render.labels import label

    if not facts.is_neighbour(code):
        return None
    return label("Layer", lang), f"{facts.family(code, registry, lang)['label']} ({label('not LLM DataDist', lang)})"


def _engine_rows(code: StatusCode, lang: str, registry: Registry | None, short: bool) -> list[tuple[str, str]]:
    from ..render.labels import label

    rows = facts.engines(code, registry, lang)
    out: list[tuple[str, str]] = []
    never = facts.never_returned_in(code, registry)
    returned = [m for row in rows if row["returned"] for m in row["modes"]]
    if never and returned:
        out.append(("", label("In {never} mode this code is never returned: if you see it, you are on the {returned} engine.",
                              lang, never=" / ".join(never), returned=" / ".join(dict.fromkeys(returned)))))
    if short:  # the engines that return it on one row, their calls in --full
        returning = [row["label"] for row in rows if row["returned"]]
        if returning:
            out.append((label("Returned by", lang), "; ".join(returning)))
    for row in rows:
        if row["returned"]:
            if short:
                continue
            what = ", ".join(row["calls"])
        else:
            what = label("never returned", lang) + (
                f" ({label('reports {name} instead', lang, name=row['folded_into'])})" if row["folded_into"] else "")
        out.append((row["label"], what))
    return out
