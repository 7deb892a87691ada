"""JSON-ready dicts for status codes and scan hits (schema in the README).

Only plain types (str, int, bool, None, list, dict), so ``json.dumps`` works
directly. Text fields keep the registry's `backticks`.
"""

from __future__ import annotations

from ..registry.model import StatusCode

TYPE_CHECKING = False  # no typing import at run time: the command must start fast
if TYPE_CHECKING:
    from collections.abc import Iterable
    from typing import Any

    from ..registry.model import Source
    from ..scan.hit import Hit  # the scanner is not needed to render a code


def _per_api(code: StatusCode, get: Any) -> dict[str, Any]:
    return {view.api: get(view) for view in code.views}


def entry_dict(code: StatusCode, lang: str) -> dict[str, Any]:
    """One code: ``name``, ``value``, ``hex``, ``python_name``, ``cpp_name`` (None when
    that API lacks the code), and per API (keys ``python``/``cpp``, only for APIs
    that have the code): ``recoverable``, ``meaning``, ``remedy``, ``documented``,
    ``source`` (vendor page or source URL); plus ``related``, ``aliases``, ``note``,
    ``causes`` (:func:`causes_list`), ``settings`` (``name``, ``kind``, ``api``, ``unit``,
    ``default``, ``about``, ``sources``), ``frameworks`` (``framework``, ``does``,
    ``sources``), sources as ``{key, title, url}``, and ``lang`` (the language of the texts)."""
    return {
        "name": code.name,
        "value": code.value,
        "hex": code.hex,
        "python_name": code.python.name if code.python else None,
        "cpp_name": code.cpp.name if code.cpp else None,
        "recoverable": dict(code.recoverable),
        "meaning": _per_api(code, lambda v: v.meaning.get(lang)),
        "remedy": _per_api(code, lambda v: v.remedy.get(lang)),
        "documented": _per_api(code, lambda v: v.documented),
        "source": _per_api(code, lambda v: v.source.url),
        "related": list(code.related),
        "aliases": list(code.aliases),
        "note": code.note.get(lang) if code.note else None,
        "causes": causes_list(code, lang),
        "settings": [
            {"name": s.name, "kind": s.kind, "api": s.api, "unit": s.unit, "default": s.default,
             "about": s.about.get(lang), "sources": _sources(s.sources, lang)}
            for s in getattr(code, "settings", ())
        ],
        "frameworks": [
            {"framework": n.framework, "does": n.does.get(lang), "sources": _sources(n.sources, lang)}
            for n in getattr(code, "frameworks", ())
        ],
        "lang": "zh" if lang == "zh" else "en",
    }


def causes_list(code: StatusCode, lang: str) -> list[dict[str, Any]]:
    """Each distinct cause once: ``api`` (the APIs whose view lists it), ``when``, ``check``,
    ``fix``, ``applies_to`` (``frameworks``, ``modes``, ``versions``) and ``sources``."""
    from .causes import applies_to_dict, causes

    return [
        {"api": list(apis), "when": c.when.get(lang), "check": c.check.get(lang), "fix": c.fix.get(lang),
         "applies_to": applies_to_dict(c.applies_to), "sources": _sources(c.sources, lang)}
        for apis, c in causes(code)
    ]


def _sources(sources: Iterable[Source], lang: str) -> list[dict[str, Any]]:
    return [{"key": s.key, "title": s.title.get(lang), "url": s.url} for s in sources]


def hit_dict(hit: Hit, file: str | None, lang: str = "en") -> dict[str, Any]:
    """One scan hit: ``file`` (``"-"`` for standard input), ``line`` (1-based),
    ``column`` (1-based, in characters), ``token``, ``text`` (the whole line),
    ``name`` (None for an unknown code), ``value``, ``hex``, ``known``,
    ``success``, ``api`` (the API the token's form points to), ``recoverable``
    and ``remedy`` per API; for unknown codes ``layout`` (the GE fields)."""
    code = hit.code
    value = hit.value
    out: dict[str, Any] = {
        "file": file,
        "line": hit.line_no,
        "column": hit.start + 1,
        "token": hit.token,
        "text": hit.line,
        "name": code.name if code else None,
        "value": value,
        "hex": f"0x{value & 0xFFFFFFFF:08X}" if value is not None and value >= 0 else None,
        "known": code is not None,
        "success": hit.is_success,
        "api": hit.api,
    }
    if code is not None:
        out["recoverable"] = dict(code.recoverable)
        out["remedy"] = _per_api(code, lambda v: v.remedy.get(lang))
    else:
        from ..registry.layout import decode_layout

        out["recoverable"] = {}
        out["remedy"] = {}
        out["layout"] = decode_layout(value).as_dict() if value is not None else None
    return out
