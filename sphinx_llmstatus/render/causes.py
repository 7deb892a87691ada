"""What every renderer shows of a code's causes, settings and framework notes (issue 9).

A cause that the Python and the C++ views both list is shown once, with both
APIs. Readers are duck-typed on the registry model (``view.causes``,
``code.settings``, ``code.frameworks``), each defaulting to empty, so a
registry file written before these fields existed renders as before.
"""

from __future__ import annotations

from .labels import api_label, label

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ..registry.model import AppliesTo, Cause, Setting, StatusCode


def causes(code: StatusCode) -> list[tuple[tuple[str, ...], Cause]]:
    """``(apis, cause)`` for each distinct cause of ``code``, in view order (Python first)."""
    out: dict[Cause, list[str]] = {}
    for view in code.views:
        for cause in getattr(view, "causes", ()):
            out.setdefault(cause, []).append(view.api)
    return [(tuple(apis), cause) for cause, apis in out.items()]


def applies_to(cause: Cause, apis: tuple[str, ...], n_views: int) -> str:
    """``Python; vllm-ascend; CacheManager; CANN 8.1 and later``: where the cause applies, or ``""``.

    The API is named only when the code has another API that does not list the cause.
    """
    where: AppliesTo | None = getattr(cause, "applies_to", None)
    parts = [" / ".join(api_label(a) for a in apis)] if len(apis) < n_views else []
    if where:
        parts += [", ".join(where.frameworks), ", ".join(where.modes), where.versions or ""]
    return "; ".join(p for p in parts if p)


def applies_to_dict(where: AppliesTo | None) -> dict[str, object]:
    """``{"frameworks": [...], "modes": [...], "versions": str | None}`` (JSON)."""
    if where is None:
        return {"frameworks": [], "modes": [], "versions": None}
    return {"frameworks": list(where.frameworks), "modes": list(where.modes), "versions": where.versions}


def setting_head(setting: Setting, lang: str) -> str:
    """``sync_kv_timeout (option, ms, default 5000, Python)``: a setting's name and facts."""
    facts = [setting.kind, setting.unit or ""]
    if setting.default:
        facts.append(label("default {value}", lang, value=setting.default))
    if setting.api:
        facts.append(api_label(setting.api))
    return f"{setting.name} ({', '.join(f for f in facts if f)})"
