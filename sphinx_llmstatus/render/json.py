"""JSON-ready dicts for status codes and scan hits (schema in the README).

Only plain types (str, int, bool, None, list, dict), so ``json.dumps`` works
directly. Text fields keep the registry's `backticks`.
"""

from __future__ import annotations

import functools
import re

from ..registry.model import Registry, StatusCode

TYPE_CHECKING = False  # no typing import at run time: the command must start fast
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable
    from typing import Any

    from ..registry.model import Source
    from ..scan.hit import Hit  # the scanner is not needed to render a code


def _per_api(code: StatusCode, get: Any) -> dict[str, Any]:
    return {view.api: get(view) for view in code.views}


def entry_dict(code: StatusCode, lang: str, registry: Registry | None = None) -> dict[str, Any]:
    """One code: ``name``, ``family`` (``{key, label}``), ``value``, ``hex``, ``python_name``,
    ``cpp_name`` (None when that API lacks the code), and per API (keys ``python``/``cpp``,
    only for APIs that have the code): ``recoverable``, ``meaning``, ``remedy``,
    ``documented``, ``source`` (vendor page or source URL), ``action`` (``immediate``,
    ``investigate``, ``setting``, ``field``, ``sources``; None when not given); plus
    ``related``, ``aliases``, ``note``, ``causes`` (:func:`causes_list`), ``settings``
    (``name``, ``kind``, ``api``, ``unit``, ``default``, ``about``, ``sources``),
    ``frameworks`` (``framework``, ``does``, ``sources``), ``engines`` (which engine
    returns it from which calls: :func:`sphinx_llmstatus.view.code.engines`),
    ``becomes`` (how upper layers report it), ``reported_as_this`` (other layers' codes
    reported as this one), ``spellings`` (other libraries' names), sources as
    ``{key, title, url}``, and ``lang`` (the language of the texts)."""
    from ..view import code as facts

    return {
        "name": code.name,
        "family": facts.family(code, registry, lang),
        "value": code.value,
        "hex": code.hex,
        "python_name": code.python.name if code.python else None,
        "cpp_name": code.cpp.name if code.cpp else None,
        "recoverable": dict(code.recoverable),
        "meaning": _per_api(code, lambda v: v.meaning.get(lang)),
        "remedy": _per_api(code, lambda v: v.remedy.get(lang)),
        "documented": _per_api(code, lambda v: v.documented),
        "source": _per_api(code, lambda v: v.source.url),
        "action": _per_api(code, lambda v: facts.action(v, lang)),
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
        "engines": facts.engines(code, registry, lang),
        "becomes": facts.becomes(code, lang),
        "reported_as_this": facts.reported_as_this(code, registry, lang),
        "spellings": facts.bindings(code, registry, lang),
        "lang": "zh" if lang == "zh" else "en",
    }


def causes_list(code: StatusCode, lang: str) -> list[dict[str, Any]]:
    """Each distinct cause once: ``api`` (the APIs whose view lists it), ``when``, ``check``,
    ``fix``, ``applies_to`` (``frameworks``, ``modes``, ``versions``), ``sources``, ``evidence``
    (``format`` or ``code``, ``against``, ``sources``) and ``unlogged`` (why no log line shows it)."""
    from .causes import applies_to_dict, causes

    return [
        {"api": list(apis), "when": c.when.get(lang), "check": c.check.get(lang), "fix": c.fix.get(lang),
         "applies_to": applies_to_dict(c.applies_to), "sources": _sources(c.sources, lang),
         "evidence": [{"format": e.format, "code": e.code, "against": e.against, "sources": _sources(e.sources, lang)}
                      for e in c.evidence],
         "unlogged": c.unlogged}
        for apis, c in causes(code)
    ]


def _sources(sources: Iterable[Source], lang: str) -> list[dict[str, Any]]:
    from ..view.code import sources as cited

    return cited(sources, lang)


#: Most characters of a log line ``hit_dict`` puts in ``text`` (the start of the line and the
#: text around the token are kept; ``text_truncated`` says when it was cut).
TEXT_CAP = 1000


def hit_text(hit: Hit, cap: int = TEXT_CAP) -> tuple[str, bool]:
    """``(text, truncated)``: the hit's line, or its start, ``…`` and the text around the token."""
    line = hit.line
    if len(line) <= cap and hit.line_length <= len(line):
        return line, False
    if len(line) <= cap:  # already an excerpt of a longer line
        return line, True
    head = cap // 4
    lo = max(head, hit.start - cap // 3)
    hi = min(len(line), lo + cap - head)
    return line[:head] + " … " + line[lo:hi] + (" …" if hi < len(line) else ""), True


def hit_json(hit: Hit, file: str | None, lang: str = "en", extra: dict[str, Any] | None = None) -> str:
    """:func:`hit_dict` (with ``extra`` keys) as one line of JSON, its ``diagnosis`` last. The
    diagnosis of a run of failures is one object (the scan reuses it while the evidence around
    them is the same): it is laid out once, not once per hit (1M failure lines: one layout)."""
    if hit.code is None:
        out = dumps({**hit_dict(hit, file, lang), **(extra or {})})
    else:  # a code's advice, the keys after the hit's own, is the same on every hit of it: laid out once
        out = (f"{dumps(_own_fields(hit, file, lang))[:-1]}, {_advice_json(hit.code, lang)}"
               + (f", {dumps(extra)[1:]}" if extra else "}"))
    if hit.diagnosis is None or hit.code is None:
        return out
    from ..scan.diagnosis import diagnosis_dict

    code, diagnosis = hit.code, hit.diagnosis
    laid_out = _laid_out(_DIAGNOSIS_JSON, (id(diagnosis), code.name, lang), diagnosis,
                         lambda: dumps(diagnosis_dict(code, diagnosis, lang)))  # type: ignore[arg-type]
    return f'{out[:-1]}, "diagnosis": {laid_out}}}'


#: Laid-out diagnoses by (id, code, language), with the object (an id is only unique while it lives).
_DIAGNOSIS_JSON: dict[tuple, tuple[object, str]] = {}
#: Laid-out advice (:func:`_advice_json`) by (id, language), with the code, likewise.
_ADVICE_JSON: dict[tuple, tuple[object, str]] = {}


def _laid_out(cache: dict[tuple, tuple[object, str]], key: tuple, owner: object, make: Callable[[], str]) -> str:
    """``make()``, remembered in ``cache`` under ``key`` while ``owner`` (whose id the key holds) lives."""
    cached = cache.get(key)
    if cached is None or cached[0] is not owner:
        if len(cache) >= 1024:
            cache.clear()
        cached = cache[key] = (owner, make())
    return cached[1]


def _advice_json(code: StatusCode, lang: str) -> str:
    """``"recoverable": {...}, "remedy": {...}`` of :func:`hit_dict` for a hit of ``code``."""
    return _laid_out(_ADVICE_JSON, (id(code), lang), code, lambda: dumps(_advice(code, lang))[1:-1])


def _advice(code: StatusCode, lang: str) -> dict[str, Any]:
    return {"recoverable": dict(code.recoverable), "remedy": _per_api(code, lambda v: v.remedy.get(lang))}


def hit_dict(hit: Hit, file: str | None, lang: str = "en", diagnosis: bool = True) -> dict[str, Any]:
    """One scan hit (one code on one line): ``file`` (``"-"`` for standard input),
    ``line`` (1-based), ``column`` (1-based, in characters, first occurrence),
    ``columns`` (every occurrence of the code on the line; ``columns_truncated``),
    ``token``, ``text`` (the line, at most :data:`TEXT_CAP` characters: its start and
    the text around the token; ``text_truncated`` and ``line_length`` say so),
    ``kind`` (``code`` or ``symptom``), ``family`` (``llm_datadist``, ``ge``,
    ``acl_runtime``, ``hccl``, ``hixl``), ``evidence``, ``process``, ``name``
    (the LLM DataDist code; for other families their own name; the likely code
    of a symptom; None for an unknown code), ``value``, ``hex``, ``known``,
    ``success``, ``failure`` (counts for the exit status), ``api`` (the API
    whose view applies), ``recoverable`` and ``remedy`` per API; for other
    families ``meaning``, ``check`` (what to check first), ``becomes`` (the LLM
    DataDist codes it is reported as) and ``llm_datadist_name`` (the Python API's
    name for 507053/507057); for symptoms ``symptom`` and ``check``; for unknown codes
    ``layout`` (the GE fields); ``likely_consequence_of`` (``{file, line, name}``)
    when the hit likely only passes on an earlier failure of its process; for a failure, ``diagnosis``
    (:func:`~sphinx_llmstatus.scan.diagnosis.diagnosis_dict`: the causes its log proves, the
    candidates and their checks, the excluded ones and why, the context)."""
    out = _own_fields(hit, file, lang)
    code, value = hit.code, hit.value
    if code is not None:
        out.update(_advice(code, lang))
        if diagnosis and hit.diagnosis is not None:
            from ..scan.diagnosis import diagnosis_dict

            out["diagnosis"] = diagnosis_dict(code, hit.diagnosis, lang)  # type: ignore[arg-type]
    elif hit.family != "llm_datadist":
        out["recoverable"] = {}
        out["remedy"] = {}
        out["meaning"] = (hit.other_meaning[1] if lang == "zh" else hit.other_meaning[0]) if hit.other_meaning else None
        if hit.kind != "symptom":  # a symptom's check is its own (_own_fields)
            out["check"] = (hit.other_check[1] if lang == "zh" else hit.other_check[0]) if hit.other_check else None
        out["llm_datadist_name"] = hit.related.name if hit.related is not None else None
        if hit.other is not None:
            out["recoverable"] = dict(hit.other.recoverable)
            out["becomes"] = [b.code for b in hit.other.becomes]
    else:
        from ..registry.layout import decode_layout

        out["recoverable"] = {}
        out["remedy"] = {}
        out["layout"] = decode_layout(value).as_dict() if value is not None else None
    return out


def _own_fields(hit: Hit, file: str | None, lang: str) -> dict[str, Any]:
    """The keys of :func:`hit_dict` every hit has, in order, and a symptom's."""
    code = hit.code
    value = hit.value
    text, truncated = hit_text(hit)
    out: dict[str, Any] = {
        "file": file,
        "line": hit.line_no,
        "column": hit.column + 1,
        "columns": [c + 1 for c in hit.columns],
        "columns_truncated": hit.columns_truncated,
        "token": hit.token,
        "text": text,
        "text_truncated": truncated,
        "line_length": hit.line_length,
        "kind": hit.kind,
        "family": hit.family,
        "evidence": hit.evidence,
        "process": hit.process,
        "name": code.name if code else (hit.other_name if hit.family != "llm_datadist" else None),
        "value": value,
        "hex": f"0x{value & 0xFFFFFFFF:08X}" if value is not None and value >= 0 else None,
        "known": code is not None or hit.other_name is not None,
        "success": hit.is_success,
        "failure": hit.is_failure,
        "api": hit.api,
    }
    if hit.consequence_of is not None:
        file_, line_, name_ = hit.consequence_of
        out["likely_consequence_of"] = {"file": file_, "line": line_, "name": name_}
    if hit.others_cut is not None:
        out["others_cut_at"] = hit.others_cut + 1
    if hit.kind == "symptom":
        sym = hit.symptom
        out["symptom"] = getattr(sym, "id", None)
        check = getattr(sym, "check", None)
        out["check"] = check.get(lang) if check is not None else None
        out["failure"] = False
    return out


def dumps(value: Any, indent: int | None = None) -> str:
    """``json.dumps(value)`` with non-ASCII text as it is, but every character of
    :data:`~sphinx_llmstatus.render.text.UNSAFE_CHARS` as a ``\\uXXXX`` escape (``json`` escapes C0
    itself; the rest, here): the same JSON value,
    which a terminal can show without acting on it (C1 controls, bidirectional overrides, U+2028),
    and which encodes to UTF-8 even with the lone surrogates of undecodable file-name bytes."""
    import json

    text = json.dumps(value, ensure_ascii=False, indent=indent)
    if text.isprintable():  # none of them is (json escapes C0 and a newline of ``indent`` is)
        return text
    # Only strings can hold these characters: JSON's own syntax is ASCII.
    return _unsafe().sub(lambda m: f"\\u{ord(m.group()):04x}", text)


@functools.lru_cache(maxsize=1)
def _unsafe() -> re.Pattern[str]:
    """The characters :func:`dumps` escapes."""
    from .text import UNSAFE_BEYOND_C0

    return re.compile(f"[{UNSAFE_BEYOND_C0}]")
