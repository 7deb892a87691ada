"""The words of every face (command, notebook, Sphinx), from one gettext catalog.

Messages are the English words themselves (gettext ``msgid``); Chinese comes
from ``sphinx_llmstatus/locales/zh/LC_MESSAGES/sphinx_llmstatus.mo`` through
stdlib :mod:`gettext`, the catalog the Sphinx face registers with
``app.add_message_catalog``. English needs no catalog, so an English answer
never imports :mod:`gettext` (the command's start-up stays short).

To add a word: pass it to ``label(...)`` as a literal (or mark it with ``N_``),
add it to ``locales/sphinx_llmstatus.pot`` and the zh ``.po``, and compile
the ``.mo`` (``msgfmt`` or ``pybabel compile``); ``tests/test_sphinx_i18n.py``
checks that the three agree with the code.
"""

from __future__ import annotations

import os
from functools import lru_cache

TYPE_CHECKING = False
if TYPE_CHECKING:
    import gettext

    from ..registry.model import ApiView, StatusCode

#: gettext domain and directory of the shipped catalogs.
CATALOG = "sphinx_llmstatus"
LOCALE_DIR = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "locales")
#: gettext locale of each registry language.
_GETTEXT_LANG = {"zh": "zh_CN", "en": "en"}
#: Display names of the APIs (not translated).
API_NAMES = {"python": "Python", "cpp": "C++"}


def N_(message: str) -> str:
    """Mark ``message`` for the catalog; it is translated where it is used."""
    return message


#: The recoverable values of the registry, as words (``label(value, lang)``).
RECOVERABLE_WORDS = (N_("yes"), N_("no"), N_("n/a"), N_("unknown"))


@lru_cache(maxsize=4)
def translations(lang: str) -> gettext.NullTranslations:
    """The shipped catalog of ``lang`` (``en``/``zh``); English falls back to the messages themselves."""
    import gettext

    return gettext.translation(CATALOG, localedir=LOCALE_DIR, languages=[_GETTEXT_LANG.get(lang, lang)],
                               fallback=True)


def label(message: str, lang: str, **fmt: object) -> str:
    """``message`` in ``lang`` (``"zh"`` from the catalog, else English), formatted with ``fmt``."""
    text = translations("zh").gettext(message) if lang == "zh" else message
    return text.format(**fmt) if fmt else text


def family_label(family: str, lang: str = "en") -> str:
    """The display name of a code family (``hixl``: ``HIXL/ADXL``), from the packaged registry."""
    from ..registry.packaged import default_registry

    found = default_registry().families.get(family)
    return found.label.get(lang) if found is not None else family


def spelled(code: StatusCode, view: ApiView) -> str:
    """How ``view``'s API writes ``code`` in source (``LLMStatusCode.X``, ``hixl::FAILED``, ``HCCL_E_PARA``)."""
    from ..registry.packaged import default_registry

    family = default_registry().families.get(code.family)
    return family.spelled(view) if family is not None else view.name


def api_label(api: str) -> str:
    """``Python`` or ``C++``."""
    return API_NAMES.get(api, api)


def scan_title(lang: str, *, total: int, lines: int, success_hidden: bool) -> str:
    """The heading of a scan report: occurrences, lines scanned, and whether success codes were hidden."""
    title = label("{n} status code occurrences in {lines} lines", lang, n=total, lines=lines)
    return f"{title} ({label('success codes hidden; --all lists them', lang)})" if success_hidden else title
