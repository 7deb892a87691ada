"""What every renderer shows of a code's causes, settings and framework notes (issue 9).

A cause that the Python and the C++ views both list is shown once, with both
APIs. Readers are duck-typed on the registry model (``view.causes``,
``code.settings``, ``code.frameworks``), each defaulting to empty, so a
registry file written before these fields existed renders as before.
"""

from __future__ import annotations

from .labels import N_, api_label, label

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


#: Why no log line shows a cause (``unlogged`` in the registry), as a reader is told.
UNLOGGED = {
    "config": N_("it lies in configuration the process does not print"),
    "call-order": N_("it lies in the order or arguments of the caller's calls, which nothing logs"),
    "deployment": N_("it lies in the deployment around the process (network, containers, devices)"),
    "peer": N_("it happens on the other side of the link: look in the peer's log"),
    "resources": N_("memory and capacity at the time are not logged"),
    "no-log-call": N_("the code path that returns the code logs nothing specific to it"),
}


def log_evidence(cause: Cause, lang: str) -> list[tuple[str, str]]:
    """What the log shows of ``cause``, as ``(label, registry-style text)`` rows: ``Log evidence``
    (the format strings of the log calls that prove it, in backticks, or an earlier code),
    ``Ruled out by`` (lines against it), ``Not in the log`` (why no line shows it)."""
    pro: list[str] = []
    con: list[str] = []
    for ev in getattr(cause, "evidence", ()):
        if ev.code is not None:
            pro.append(label("an earlier {code} in the same process", lang, code=f"`{ev.code}`"))
        else:
            (con if ev.against else pro).append(f"`{ev.format}`")
    rows = []
    if pro:
        rows.append((N_("Log evidence"), "; ".join(pro)))
    if con:
        rows.append((N_("Ruled out by"), "; ".join(con)))
    unlogged = getattr(cause, "unlogged", None)
    if not pro and unlogged in UNLOGGED:
        rows.append((N_("Not in the log"), label(UNLOGGED[unlogged], lang)))
    return rows
