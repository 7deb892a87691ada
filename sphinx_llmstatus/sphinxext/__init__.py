"""The Sphinx face of sphinx_llmstatus: domain ``llm``, ``llm-status`` directive and role.

``setup()`` registers everything; HTML builders also get ``llmstatus.css``.
Imported only by Sphinx (via ``sphinx_llmstatus.setup``), never by the
command or the IPython magic.
"""

from __future__ import annotations

from pathlib import Path

from sphinx.application import Sphinx
from sphinx.config import Config
from sphinx.util.typing import ExtensionMetadata

from .. import __version__
from . import config
from .breaks import setup_breaks
from .domain import LLMDomain, fallback_reference, outdated_mentions, warn_unresolved
from .entry import StatusDirective
from .labels import CATALOG, LOCALE_DIR
from .printing import NameLinkTargets, NameLinkTargetsLatex, TableColumns
from .publish import setup_publish
from .resolver import CheckApiLinks, LocalStatusReferences, remember_builder
from .role import StatusRole
from .search_zh import SearchChineseBigrams
from .searchfix import setup_searchfix
from .state import validate_registry
from .table import StatusTableDirective

STATIC_DIR = Path(__file__).resolve().parent / "static"

#: Bump when the stored environment data changes shape (or the packaged registry changes meaning).
ENV_VERSION = 4


def _add_static_path(app: Sphinx, config: Config) -> None:
    # On config-inited, before Sphinx compares the config with the saved one:
    # appended later, every incremental build would see a changed
    # html_static_path. Non-HTML builders never copy it, so it is harmless there.
    if str(STATIC_DIR) not in config.html_static_path:
        config.html_static_path.append(str(STATIC_DIR))


def _add_css(app: Sphinx) -> None:
    # CSS only where it can apply: HTML-family builders; never written into outdir by hand.
    if app.builder.format == "html":
        app.add_css_file("llmstatus.css")
        app.add_js_file("llmstatus.js")  # folded sections open when a page is printed


def setup(app: Sphinx) -> ExtensionMetadata:
    config.register(app)
    app.add_domain(LLMDomain)
    app.add_directive_to_domain("llm", "status", StatusDirective)
    app.add_directive_to_domain("llm", "table", StatusTableDirective)
    app.add_role_to_domain("llm", "status", StatusRole())
    # Global aliases, so authors need not set a default domain.
    app.add_directive("llm-status", StatusDirective)
    app.add_directive("llm-status-table", StatusTableDirective)
    app.add_role("llm-status", StatusRole())
    app.add_post_transform(LocalStatusReferences)
    app.add_post_transform(NameLinkTargets)
    app.add_post_transform(NameLinkTargetsLatex)
    app.add_post_transform(TableColumns)
    app.add_post_transform(CheckApiLinks)
    app.add_message_catalog(CATALOG, str(LOCALE_DIR))
    setup_searchfix(app)  # Chinese search on Sphinx 9.0 (sphinx-doc/sphinx#14229)
    app.add_search_language(SearchChineseBigrams)  # Chinese words typed without spaces (issue 24)
    setup_publish(app)
    setup_breaks(app)  # titles wrap after underscores on a phone
    app.connect("config-inited", _add_static_path)
    app.connect("builder-inited", _add_css)
    app.connect("builder-inited", remember_builder)
    app.connect("builder-inited", validate_registry)
    app.connect("env-get-updated", outdated_mentions)
    # After intersphinx (priority 500): the vendor page is the last resort.
    app.connect("missing-reference", fallback_reference, priority=900)
    app.connect("warn-missing-reference", warn_unresolved)
    return {
        "version": __version__,
        "env_version": ENV_VERSION,
        "parallel_read_safe": True,
        "parallel_write_safe": True,
    }
