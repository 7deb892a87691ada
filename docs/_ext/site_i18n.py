"""Translations of the text the site generator writes (code pages, generated tables).

Hand-written pages go through Sphinx's own i18n (``locale_dirs``, catalog
``docs/locales/<lang>/LC_MESSAGES/site.po``). The generator's phrases are
marked with :func:`_` and live in ``generated.po`` beside it; ``make site-pot``
extracts both (see ``docs/_ext/catalogs.py``). The generator writes each page
in the build's language, so a per-code sentence never reaches a translator.
"""

from __future__ import annotations

from pathlib import Path

from babel.messages.pofile import read_po

LOCALES = Path(__file__).resolve().parent.parent / "locales"
DOMAIN = "generated"

_current: dict[str, str] = {}
_language = ["en"]


def use(language: str | None) -> None:
    """Translate :func:`_` calls into ``language`` (``zh_CN``...; English when no catalog)."""
    _current.clear()
    _language[0] = "zh" if is_chinese(language) else "en"
    path = LOCALES / (language or "en") / "LC_MESSAGES" / f"{DOMAIN}.po"
    if not path.exists():
        return
    with path.open("rb") as fh:
        catalog = read_po(fh)
    _current.update({m.id: m.string for m in catalog if m.id and m.string and not m.fuzzy})


def _(message: str) -> str:
    """``message`` in the language set by :func:`use` (itself when untranslated)."""
    return _current.get(message, message)


def lang() -> str:
    """The registry language of the build (``en`` or ``zh``), for registry text the pages carry."""
    return _language[0]


def is_chinese(language: str | None) -> bool:
    return (language or "").lower().replace("-", "_").startswith("zh")
