"""What a code's entry says beyond its vendor rows: its layer, which engine returns it from which
calls, how upper layers report it, other libraries' names for it, and what to do about it.

Each function returns plain data (dicts of strings, lists) in one language; every face lays out
the same data (issue 19: "every face says it where it matters").
"""

from __future__ import annotations

import re

from ..registry.model import LLM_DATADIST, ApiView, Registry, Source, StatusCode

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable
    from typing import Any


def _registry(registry: Registry | None) -> Registry:
    if registry is not None:
        return registry
    from ..registry.packaged import default_registry

    return default_registry()


def sources(found: Iterable[Source], lang: str) -> list[dict[str, Any]]:
    """``[{key, title, url, lines}]``: each citation with the title in ``lang``, its URL (pointing at
    the cited lines) and those lines (``"L255-L260"``, None for the whole source)."""
    return [{"key": s.citation, "title": s.title.get(lang), "url": s.url, "lines": s.lines} for s in found]


def family(code: StatusCode, registry: Registry | None, lang: str) -> dict[str, str]:
    """``{key, label}`` of the layer the code belongs to."""
    found = _registry(registry).families.get(code.family)
    return {"key": code.family, "label": found.label.get(lang) if found is not None else code.family}


def engines(code: StatusCode, registry: Registry | None, lang: str) -> list[dict[str, Any]]:
    """Per engine: ``engine``, ``label``, ``modes``, ``returned`` (False: this engine never returns
    the code), ``calls``, ``message``, ``folded_into`` (the code it reports instead) and ``sources``.
    Empty for a code no engine row mentions (another layer's code)."""
    reg = _registry(registry)
    out = []
    for row in reg.returns_of(code):
        engine = reg.engines.get(row.engine)
        out.append({"engine": row.engine, "label": engine.label.get(lang) if engine else row.engine,
                    "modes": list(engine.modes) if engine else [], "returned": not row.never,
                    "calls": list(row.calls), "message": row.message, "folded_into": row.folded_into,
                    "sources": sources(row.sources, lang)})
    return out


def never_returned_in(code: StatusCode, registry: Registry | None) -> list[str]:
    """The manager modes whose engines never return ``code`` (``["CacheManager"]`` for
    ``LLM_PROCESSING_LINK``): what a face says where a reader picks a cause."""
    reg = _registry(registry)
    rows = reg.returns_of(code)
    returned = {m for r in rows if not r.never for m in reg.engines[r.engine].modes if r.engine in reg.engines}
    never = [m for r in rows if r.never and r.engine in reg.engines for m in reg.engines[r.engine].modes]
    return [m for m in dict.fromkeys(never) if m not in returned]


def becomes(code: StatusCode, lang: str) -> list[dict[str, Any]]:
    """``[{code, via, sources}]``: how upper layers report this code."""
    return [{"code": b.code, "via": b.via, "sources": sources(b.sources, lang)} for b in code.becomes]


def reported_as_this(code: StatusCode, registry: Registry | None, lang: str) -> list[dict[str, Any]]:
    """``[{code, family, via}]``: the other layers' codes that upper layers report as this one."""
    reg = _registry(registry)
    return [{"code": other.name, "family": family(other, reg, lang)["label"], "via": b.via}
            for other in reg.reported_as(code) for b in other.becomes if b.code == code.name]


def bindings(code: StatusCode, registry: Registry | None, lang: str) -> list[dict[str, Any]]:
    """``[{binding, label, name, qualified, message, sources}]``: other libraries' names for the code."""
    reg = _registry(registry)
    out = []
    for spelled in reg.spellings_of(code):
        found = reg.bindings.get(spelled.binding)
        qualifier = found.qualifier if found is not None else None
        out.append({"binding": spelled.binding, "label": found.label.get(lang) if found else spelled.binding,
                    "name": spelled.name, "qualified": f"{qualifier}.{spelled.name}" if qualifier else spelled.name,
                    "message": spelled.message, "sources": sources(spelled.sources, lang)})
    return out


def action(view: ApiView, lang: str) -> dict[str, Any] | None:
    """``{immediate, investigate, setting, field, sources}`` of a view's action, or None."""
    act = view.action
    if act is None:
        return None
    return {"immediate": act.immediate, "investigate": act.investigate, "setting": act.setting,
            "field": act.field, "sources": sources(act.sources, lang)}


def is_neighbour(code: StatusCode) -> bool:
    """True for another layer's code (HIXL/ADXL, HCCL, ACL runtime, MindIE): never a scan failure."""
    return code.family != LLM_DATADIST


_CJK = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\u3000-\u303f\uff00-\uffef"
# Patterns as strings, compiled (and cached by re) on first use: compiling them at import cost
# 3 ms of every `llmstatus CODE`, which never asks for a headline.
_HEAD_END = r"[：:。；;（]|\.(?:\s|$)| \("
_SPACE_BY_CJK = f"(?<=[{_CJK}]) +| +(?=[{_CJK}])"


def headline(meaning: str) -> str:
    """The first clause of a meaning, as a reader would type it: ``建链失败`` for ``建链失败。``,
    ``两个cache不匹配`` for ``两个 cache 不匹配：在 ...``, ``Establishing the link failed``.
    Markup goes, and so do the spaces Chinese text puts around Latin words (typed without them)."""
    head = re.split(_HEAD_END, meaning.replace("`", ""), maxsplit=1)[0].strip()
    return re.sub(_SPACE_BY_CJK, "", head)
