"""Site-only extension: write the generated pages of the troubleshooting site before reading.

Generated (all git-ignored), everything from the packaged registry or from
real runs, so the site cannot drift from the package:

* ``docs/codes/<NAME>.md``: one page per status code (stable URL
  ``codes/<NAME>.html#<NAME>``) and ``docs/codes/index.md``;
* ``docs/_generated/*.md``: fragments that hand-written pages ``{include}``
  (Python vs C++ differences, layout tables, the registry's field reference from
  its schema, captured CLI and notebook output);
* ``docs/_generated/snippets/``: no-index copies of the authoring snippets.

The extension itself puts every number form of a code into the index, so the
search page finds ``1343270921``; :func:`always_rewrite_code_pages` works around
a Sphinx bug that drops those entries on incremental builds.
"""

from __future__ import annotations

import logging
import re
from pathlib import Path

import captured
import site_i18n
from code_pages import code_page, codes_index
from compare_pages import differences, engines_matrix, field_reference, layout_tables
from sphinx.application import Sphinx
from sphinx.config import Config
from sphinx.environment import BuildEnvironment

from sphinx_llmstatus.registry import default_registry

DOCS = Path(__file__).resolve().parent.parent
GENERATED = DOCS / "_generated"


def no_index(snippet: str) -> str:
    """The snippet with ``:no-index:`` added to single-code entries (the site documents each code once)."""
    rst = re.sub(r"^(\.\. llm-status:: \S+\n)", r"\1   :no-index:\n", snippet, flags=re.M)
    return re.sub(r"^(```\{llm-status\} \S+\n)", r"\1:no-index:\n", rst, flags=re.M)


def write_if_changed(path: Path, text: str) -> None:
    """Write only on change, so Sphinx re-reads only what really changed."""
    path.parent.mkdir(parents=True, exist_ok=True)
    if not path.exists() or path.read_text(encoding="utf-8") != text:
        path.write_text(text, encoding="utf-8")


def generate(app: Sphinx, config: Config) -> None:
    site_i18n.use(config.language)
    if site_i18n.is_chinese(config.language):
        # conf.py cannot see ``-D language=``: the title of the Chinese site is set here.
        config.html_title = "LLM DataDist 状态码"
        config.latex_documents = [(doc, tex, "LLM DataDist 状态码", author, theme)
                                  for doc, tex, _title, author, theme in config.latex_documents]
        _quiet_jieba()
    registry = default_registry()
    codes = list(registry)  # every family's: a page per code
    out = DOCS / "codes"
    wanted = {f"{c.name}.md" for c in codes} | {"index.md"}
    for stale in out.glob("*.md"):
        if stale.name not in wanted:
            stale.unlink()
    write_if_changed(out / "index.md", codes_index(registry))
    for code in codes:
        write_if_changed(out / f"{code.name}.md", code_page(code, registry))
    write_if_changed(GENERATED / "python-vs-cpp.md", differences(registry))
    write_if_changed(GENERATED / "layout.md", layout_tables(registry))
    write_if_changed(GENERATED / "engines.md", engines_matrix(registry))
    write_if_changed(GENERATED / "registry-fields.md", field_reference() + "\n")
    for snippet in (DOCS / "snippets").glob("*/*"):
        target = GENERATED / "snippets" / snippet.parent.name / snippet.name
        text = snippet.read_text(encoding="utf-8")
        write_if_changed(target, no_index(text) if "no-index" not in text else text)
    captured.capture_all(config.language or "en")


def _quiet_jieba() -> None:
    """jieba (Chinese words for the search index) logs at DEBUG level to stderr by default."""
    try:
        import jieba
    except ImportError:
        return
    jieba.setLogLevel(logging.WARNING)


def always_rewrite_code_pages(app: Sphinx, env: BuildEnvironment, added, changed, removed) -> list[str]:
    """Re-read the code pages on every build.

    Why: on an incremental build Sphinx reloads ``searchindex.js`` without its
    ``indexentries`` and only re-feeds the pages it writes, so unchanged code
    pages would lose their number entries (``IndexBuilder.load``; open upstream as
    sphinx-doc/sphinx#12599; seen here: a second no-change build had 0 entries).
    """
    return sorted(d for d in env.found_docs if d.startswith("codes/") and d not in changed)


_TEXT_WITH_UNDERSCORE = re.compile(r">([^<>]*_[^<>]*)<")


def names_break_at_underscores(app: Sphinx, pagename: str, templatename: str, context: dict, doctree) -> None:
    """Let the sidebar wrap a long code name after an underscore, never mid-word.

    furo's sidebar breaks words "anywhere" (``LLM_KV_CACHE_NOT_EXIS`` / ``T``);
    a ``<wbr>`` after each underscore of the link texts gives it better places.
    Runs after furo's own handler, which computes ``furo_navigation_tree``.
    """
    tree = context.get("furo_navigation_tree")
    if tree:
        context["furo_navigation_tree"] = _TEXT_WITH_UNDERSCORE.sub(
            lambda m: ">" + m.group(1).replace("_", "_<wbr>") + "<", tree)


def setup(app: Sphinx) -> dict:
    app.connect("html-page-context", names_break_at_underscores, priority=600)
    app.connect("config-inited", generate)
    app.connect("env-get-outdated", always_rewrite_code_pages)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
