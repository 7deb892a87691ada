"""Option converters shared by the directives (docutils-style: raise ValueError on bad input)."""

from __future__ import annotations

from docutils.parsers.rst import directives

API_CHOICES = {"python": ("python",), "cpp": ("cpp",), "both": ("python", "cpp")}
COLUMN_SEPARATORS = ","


def api_option(argument: str | None) -> tuple[str, ...]:
    """``python``, ``cpp`` or ``both`` -> the APIs to show."""
    value = directives.choice((argument or "").strip().lower(), tuple(API_CHOICES))
    return API_CHOICES[value]


def lang_option(argument: str | None) -> str:
    """``en`` or ``zh`` (``zh_CN``, ``zh-TW``... map to ``zh``)."""
    value = (argument or "").strip().lower().replace("-", "_")
    if value.startswith("zh"):
        return "zh"
    return directives.choice(value, ("en",))


def recoverable_option(argument: str | None) -> str:
    return directives.choice((argument or "").strip().lower(), ("yes", "no"))


def name_list(argument: str | None) -> list[str]:
    """Comma- or space-separated words."""
    return [w for w in (argument or "").replace(",", " ").split() if w]
