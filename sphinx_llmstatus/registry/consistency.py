"""The style rules the packaged registry keeps: backticks name only what the entry declares.

Not run on load: a user's registry file that rewrites a remedy in its own
words must load whatever it puts in backticks. The test suite runs
:func:`problems` on the packaged registry (``tests/test_registry_consistency.py``).

The rules: every backticked token of a view's meaning or remedy is a status
code or one of the view's ``functions``/``options``/``modes``, and each of
those appears backticked in both languages; a cause, reading, setting,
framework note or symptom backticks only codes, API names some view lists,
settings (of the code; of any code for a symptom) and its own ``terms``; each
term is backticked in both languages; an action's ``setting`` is a setting of its code; no cause
applies to a manager mode whose engines never return its code.
"""

from __future__ import annotations

import re

from .model import LANGS, Registry, StatusCode, Text

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator, Mapping

_BACKTICK = re.compile(r"`([^`]+)`")


def problems(registry: Registry) -> list[str]:
    """``entry: field: reason`` for every breach of the rules, in registry order."""
    known = {s.upper() for c in registry for s in c.spellings}
    api_names = {n for c in registry for v in c.views for n in v.api_names}
    out: list[str] = []
    for code in registry:
        out += [f"{code.name}: {field}: {reason}" for field, reason in _code_problems(code, known, api_names)]
    out += list(_mode_problems(registry))
    all_settings = {s.name for c in registry for s in c.settings}
    for symptom in registry.symptoms:
        allowed = api_names | all_settings | set(symptom.terms)
        out += [f"symptom.{symptom.id}: {field}: {reason}"
                for field, reason in _backticks({"check": symptom.check}, allowed, known, symptom.terms)]
    return out


def _code_problems(code: StatusCode, known: set[str], api_names: set[str]) -> Iterator[tuple[str, str]]:
    for view in code.views:
        listed = set(view.api_names)
        for field in ("meaning", "remedy"):
            for lang in LANGS:
                for token in _BACKTICK.findall(getattr(view, field).get(lang)):
                    ident = token.split("=")[0].strip()
                    if ident not in listed and ident.upper() not in known:
                        yield (f"{view.api}.{field}.{lang}",
                               f"`{token}` is neither a code nor listed in functions/options/modes")
        for api_name in view.api_names:
            for lang in LANGS:
                shown = {t.split("=", 1)[0] for t in _BACKTICK.findall(view.meaning.get(lang) + "\n"
                                                                        + view.remedy.get(lang))}
                if api_name not in shown:
                    yield f"{view.api}.remedy.{lang}", f"names no `{api_name}`, which the entry lists"
    settings = {s.name for s in code.settings}
    for view in code.views:
        if view.action is not None and view.action.setting and view.action.setting not in settings:
            yield f"{view.api}.action.setting", f"{view.action.setting!r} is not a setting of the code"
    allowed = api_names | settings
    for view in code.views:
        for i, cause in enumerate(view.causes, 1):
            texts = {k: getattr(cause, k) for k in ("when", "check", "fix")}
            for field, reason in _backticks(texts, allowed | set(cause.terms), known, cause.terms):
                yield f"{view.api}.causes[{i}].{field}", reason
        for i, reading in enumerate(view.readings, 1):
            texts = {k: t for k in ("meaning", "remedy") if (t := getattr(reading, k)) is not None}
            for field, reason in _backticks(texts, allowed | set(reading.terms), known, reading.terms):
                yield f"{view.api}.readings[{i}].{field}", reason
    for i, setting in enumerate(code.settings, 1):
        for field, reason in _backticks({"about": setting.about}, allowed | set(setting.terms), known, setting.terms):
            yield f"settings[{i}].{field}", reason
    for i, note in enumerate(code.frameworks, 1):
        for field, reason in _backticks({"does": note.does}, allowed | set(note.terms), known, note.terms):
            yield f"frameworks[{i}].{field}", reason


def _mode_problems(registry: Registry) -> Iterator[str]:
    """No cause applies to a manager mode whose engines never return its code (the engine rows,
    ``engines.toml``, say which engine returns which code)."""
    for code in registry:
        rows = registry.returns_of(code)
        if not rows:
            continue
        returned = {m for r in rows if not r.never and r.engine in registry.engines
                    for m in registry.engines[r.engine].modes}
        for view in code.views:
            for i, cause in enumerate(view.causes, 1):
                for mode in cause.applies_to.modes:
                    if mode not in returned:
                        yield (f"{code.name}: {view.api}.causes[{i}].applies_to.modes: no engine of {mode} mode "
                               "returns this code")


def _backticks(texts: Mapping[str, Text], allowed: set[str], codes: set[str],
               terms: tuple[str, ...]) -> Iterator[tuple[str, str]]:
    """Every backticked token of ``texts`` is a code, an ``allowed`` name (``name=value`` allowed
    too) or a term; every term is backticked in each language somewhere."""
    for field, text in texts.items():
        for lang in LANGS:
            for token in _BACKTICK.findall(text.get(lang)):
                ident = token.split("=")[0].strip()
                if token not in allowed and ident not in allowed and ident.upper() not in codes:
                    yield (f"{field}.{lang}", f"`{token}` is neither a code, a listed API name, "
                                              "a setting of the code nor one of its terms")
    for term in terms:
        for lang in LANGS:
            if not any(f"`{term}`" in t.get(lang) for t in texts.values()):
                yield "terms", f"`{term}` is listed but not used in backticks in the {lang} text"
