"""Option converters shared by the directives.

A bad value does not raise (docutils would turn that into an ERROR that
``suppress_warnings`` cannot reach): the converter returns a :class:`BadValue`
and :func:`option` warns ``llmstatus.option`` and uses the default.
"""

from __future__ import annotations

import difflib
from typing import Any

from .config import normalise_lang
from .diagnostics import Subtype, warn

API_CHOICES = {"python": ("python",), "cpp": ("cpp",), "both": ("python", "cpp")}


class BadValue(str):
    """An option value a converter rejected, with the values it accepts."""

    choices: tuple[str, ...] = ()
    #: Why, when it is not "not one of the choices".
    reason: str | None = None


def _bad(value: str, choices: tuple[str, ...], reason: str | None = None) -> BadValue:
    bad = BadValue(value)
    bad.choices, bad.reason = choices, reason
    return bad


def api_option(argument: str | None) -> tuple[str, ...] | BadValue:
    """``python``, ``cpp`` or ``both`` -> the APIs to show."""
    value = (argument or "").strip().lower()
    return API_CHOICES[value] if value in API_CHOICES else _bad(value, tuple(API_CHOICES))


def lang_option(argument: str | None) -> str | BadValue:
    """``en`` or ``zh`` (``zh_CN``, ``zh-TW``, ``en_US``... map to ``zh``/``en``)."""
    value = (argument or "").strip()
    return normalise_lang(value) or _bad(value.lower(), ("en", "zh"))


def recoverable_option(argument: str | None) -> str | BadValue:
    """``yes`` or ``no``."""
    value = (argument or "").strip().lower()
    return value if value in ("yes", "no") else _bad(value, ("yes", "no"))


#: ``:sections:`` of an entry (see :mod:`.details`); ``none`` leaves them all out.
SECTION_CHOICES = ("causes", "settings", "frameworks", "origins", "reports")


def sections_option(argument: str | None) -> tuple[str, ...] | BadValue:
    """``causes, settings, frameworks, origins, reports`` (any of them, comma or space separated), or ``none``."""
    words = tuple(dict.fromkeys(w.lower() for w in name_list(argument)))  # a section named twice: once
    if words == ("none",):
        return ()
    if "none" in words:
        return _bad("none", (*SECTION_CHOICES, "none"), "'none' means no section and stands alone")
    bad = [w for w in words if w not in SECTION_CHOICES]
    if bad or not words:
        return _bad(bad[0] if bad else "", (*SECTION_CHOICES, "none"))
    return words


def name_list(argument: str | None) -> list[str]:
    """Comma- or space-separated words."""
    return [w for w in (argument or "").replace(",", " ").split() if w]


def option(directive: Any, name: str, default: Any) -> Any:
    """The converted value of option ``name``; for a bad value, a warning and ``default``."""
    value = directive.options.get(name, default)
    if not isinstance(value, BadValue):
        return value
    if value.reason is not None:
        warn(f":{name}: {value.reason}; using the default", Subtype.option, location=directive.get_location())
        return default
    close = difflib.get_close_matches(value, value.choices, n=1)
    hint = f"; did you mean {close[0]!r}?" if close else ""
    warn(f":{name}: {str(value)!r} is not one of {', '.join(value.choices)}{hint}; "
         f"using the default", Subtype.option, location=directive.get_location())
    return default
