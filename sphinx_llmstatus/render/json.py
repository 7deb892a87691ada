"""JSON-ready dicts for status codes and scan hits (schema in the README).

Only plain types (str, int, bool, None, list, dict), so ``json.dumps`` works
directly. Text fields keep the registry's `backticks`.
"""

from __future__ import annotations

TYPE_CHECKING = False  # no typing import at run time: the command must start fast
if TYPE_CHECKING:
    from typing import Any

from ..registry.model import StatusCode

if TYPE_CHECKING:  # the scanner is not needed to render a code
    from ..scan.hit import Hit


def _per_api(code: StatusCode, get: Any) -> dict[str, Any]:
    return {view.api: get(view) for view in code.views}


def entry_dict(code: StatusCode, lang: str) -> dict[str, Any]:
    """One code: ``name``, ``value``, ``hex``, ``python_name``, ``cpp_name`` (None when
    that API lacks the code), and per API (keys ``python``/``cpp``, only for APIs
    that have the code): ``recoverable``, ``meaning``, ``remedy``, ``documented``,
    ``source`` (vendor page or source URL); plus ``related``, ``aliases``, ``note``
    and ``lang`` (the language of the texts)."""
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
        "lang": "zh" if lang == "zh" else "en",
    }


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
