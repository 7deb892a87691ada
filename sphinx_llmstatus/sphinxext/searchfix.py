"""Make the HTML search page work for Chinese projects on Sphinx releases that break it.

Sphinx 9.0 writes ``window.Stemmer = ChineseStemmer;`` into
``_static/language_data.js`` for ``language = "zh_CN"``, but ships only the
English stemmer for Chinese (class ``EnglishStemmer``): every search stops on
"ChineseStemmer is not defined" (sphinx-doc/sphinx#14229, fixed upstream by
sphinx-doc/sphinx#14416, which names the class after the stemmer file).

The workaround looks for the defect itself, not for a version: after the build
it points ``window.Stemmer`` at the stemmer class the file really defines, and
does nothing when the name already exists (a fixed Sphinx, another language).
``tests/test_sphinx_searchfix.py`` says when the running Sphinx no longer needs it.
"""

from __future__ import annotations

import re
from pathlib import Path

from sphinx.application import Sphinx
from sphinx.util import logging

logger = logging.getLogger(__name__)

_ASSIGN = re.compile(r"window\.Stemmer\s*=\s*(\w+)\s*;")
_DEFINED = re.compile(r"(?:class|function)\s+(\w+Stemmer)\b|\b(?:var|let|const)\s+(\w+Stemmer)\s*=")


def stemmer_defect(js: str) -> tuple[str, str] | None:
    """``(named, defined)`` when ``js`` assigns an undefined stemmer class, else ``None``.

    ``js`` is the text of ``language_data.js``; ``defined`` is the one stemmer
    class the text defines besides ``BaseStemmer`` (``None`` is returned if there
    is no single such class, as nothing safe can be done then).
    """
    assigned = _ASSIGN.search(js)
    if not assigned:
        return None
    defined = {a or b for a, b in _DEFINED.findall(js)} - {"BaseStemmer"}
    named = assigned.group(1)
    if named in defined or len(defined) != 1:
        return None
    return named, defined.pop()


def fix_language_data(path: Path) -> bool:
    """Repair ``path`` (a ``language_data.js``) in place if it has the defect; ``True`` if changed."""
    try:
        js = path.read_text(encoding="utf-8")
    except OSError:
        return False
    defect = stemmer_defect(js)
    if defect is None:
        return False
    named, defined = defect
    path.write_text(_ASSIGN.sub(f"window.Stemmer = {defined};", js, count=1), encoding="utf-8")
    logger.info("sphinx_llmstatus: search stemmer %s is not defined in %s; using %s "
                "(sphinx-doc/sphinx#14229)", named, path.name, defined)
    return True


def _after_build(app: Sphinx, exception: Exception | None) -> None:
    if exception is None and app.builder.format == "html" and getattr(app.builder, "search", False):
        fix_language_data(Path(app.outdir) / "_static" / "language_data.js")


def setup_searchfix(app: Sphinx) -> None:
    app.connect("build-finished", _after_build)
