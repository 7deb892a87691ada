"""The default language of the user, from the POSIX locale variables."""

from __future__ import annotations

import os
from collections.abc import Mapping


def default_lang(environ: Mapping[str, str] = os.environ) -> str:
    """``"zh"`` when the effective message locale is Chinese, else ``"en"``.

    Reads ``LC_ALL``, then ``LC_MESSAGES``, then ``LANG`` (POSIX precedence:
    the first one set and non-empty wins); ``zh_CN.UTF-8``, ``zh_TW``, ``zh``
    all give ``"zh"``.
    """
    for var in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = environ.get(var)
        if value:
            return "zh" if value.lower().startswith("zh") else "en"
    return "en"
