"""The one language resolver of every face: ``en`` or ``zh`` from a setting or the locale.

The command (``--lang``), the magic (``--lang``, ``LLMStatusMagics.lang``) and
the Sphinx extension (``:lang:``, ``llmstatus_language``, ``language``) all
read a language through :func:`normalise_lang`; without one, the command and
the magic follow the POSIX locale (:func:`default_lang`).
"""

from __future__ import annotations

import os
from collections.abc import Mapping

#: The languages of the registry and of the catalog.
LANGS = ("en", "zh")


def normalise_lang(value: str) -> str | None:
    """``zh``, ``zh_CN``, ``zh-TW``, ``zh_Hans``, ``zh_CN.UTF-8`` -> ``zh``; ``en``, ``en_US`` -> ``en``; else None."""
    base = value.strip().lower().replace("-", "_").partition("_")[0].partition(".")[0]
    return base if base in LANGS else None


def default_lang(environ: Mapping[str, str] = os.environ) -> str:
    """``"zh"`` when the effective message locale is Chinese, else ``"en"``.

    Reads ``LC_ALL``, then ``LC_MESSAGES``, then ``LANG`` (POSIX precedence:
    the first one set and non-empty wins); ``zh_CN.UTF-8``, ``zh_TW``, ``zh``
    all give ``"zh"``; ``C``, ``POSIX`` and other languages give ``"en"``.
    """
    for var in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = environ.get(var)
        if value:
            return "zh" if normalise_lang(value) == "zh" else "en"
    return "en"
