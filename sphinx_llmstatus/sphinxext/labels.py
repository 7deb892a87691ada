"""User-visible labels, translated through gettext catalogs shipped in ``sphinx_llmstatus/locales``.

In the project's language they go through :mod:`sphinx.locale`; a directive
whose ``:lang:`` differs from the project's gets the catalog of that language.
"""

from __future__ import annotations

from pathlib import Path

from sphinx.locale import get_translation

from ..render.labels import CATALOG, translations

LOCALE_DIR = Path(__file__).resolve().parent.parent / "locales"

_ = get_translation(CATALOG)


def N_(message: str) -> str:
    """Mark ``message`` for extraction into the catalog; it is translated later, where used."""
    return message

# One loader of the shipped catalog for every face (render/labels.py).
_catalog = translations


def label(message: str, lang: str, project_lang: str) -> str:
    """``message`` translated for ``lang`` (``"en"``/``"zh"``).

    ``project_lang`` is the registry language the project's ``language`` maps
    to (see :class:`.config.Settings`); when they agree, the translator
    Sphinx set up for ``language`` is used (``add_message_catalog``, so a
    project's own catalog can reword a label), else the shipped catalog of
    ``lang`` directly. Sphinx finds no catalog for locales such as
    ``zh-Hans`` (gettext only strips ``_`` suffixes), so an untranslated
    label in a Chinese project also comes from the shipped catalog. Only
    ``zh`` is shipped; anything else reads English.
    """
    if lang == project_lang:
        translated = str(_(message))
        if translated != message or lang == "en":
            return translated
    return _catalog(lang).gettext(message)
