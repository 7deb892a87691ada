"""Files an HTML build publishes beside its pages for tools and agents.

- ``llmstatus_catalog``: ``catalog.json``, its JSON Schema and ``catalog.csv``
  (:mod:`sphinx_llmstatus.view.catalog`).
- ``llmstatus_llms_txt``: a Markdown copy of each page that holds entries
  (``codes/LLM_LINK_FAILED.md`` beside ``codes/LLM_LINK_FAILED.html``: the
  entries as ``llmstatus --format markdown`` prints them, with causes and sources),
  ``llms.txt`` (the project, then every entry's copy with its meaning, then the
  other pages; relative links, `llmstxt.org <https://llmstxt.org/>`__) and
  ``llms-full.txt`` (every copy, one after the other). A page's source holds only
  the directive, which an agent cannot read; the copy holds what the reader sees.

Both from the build's registry (packaged data plus ``llmstatus_registry_files``) and
language, written when the build finished without error.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from ..render import markdown
from ..view import catalog
from .config import settings
from .state import get_registry

if TYPE_CHECKING:
    from sphinx.application import Sphinx

    from ..registry.model import Registry


def write_catalog(app: Sphinx, exception: BaseException | None) -> None:
    if exception is not None or app.builder.format != "html" or not settings(app.config).catalog:
        return
    catalog.write(str(app.outdir), get_registry(app.env))


def _pages_with_entries(app: Sphinx) -> dict[str, list[str]]:
    """docname -> the codes whose entries it holds, in the order of their lines."""
    pages: dict[str, list[tuple[int, str]]] = {}
    for name, places in app.env.get_domain("llm").entries.items():  # type: ignore[attr-defined]
        docname, _node_id, line = places[0]
        pages.setdefault(docname, []).append((line, name))
    return {doc: [name for _line, name in sorted(found)] for doc, found in sorted(pages.items())}


def _title(app: Sphinx, docname: str) -> str:
    title = app.env.titles.get(docname)
    return title.astext() if title is not None else docname


def page_markdown(app: Sphinx, docname: str, names: list[str], registry: Registry, lang: str) -> str:
    """The Markdown copy of ``docname``: its title, then each entry's card."""
    cards = [markdown.card(registry[name], lang) for name in names if name in registry]
    return f"# {_title(app, docname)}\n\n" + "\n---\n\n".join(cards)


def write_llms_txt(app: Sphinx, exception: BaseException | None) -> None:
    if exception is not None or app.builder.format != "html" or not settings(app.config).llms_txt:
        return
    registry, lang = get_registry(app.env), settings(app.config).registry_lang
    pages = _pages_with_entries(app)
    copies = []
    for docname, names in pages.items():
        text = page_markdown(app, docname, names, registry, lang)
        path = os.path.join(app.outdir, docname + ".md")
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(text)
        copies.append(text)
    with open(os.path.join(app.outdir, "llms-full.txt"), "w", encoding="utf-8") as fh:
        fh.write("\n\n".join(copies))
    with open(os.path.join(app.outdir, "llms.txt"), "w", encoding="utf-8") as fh:
        fh.write(llms_txt(app, pages, registry, lang))


def llms_txt(app: Sphinx, pages: dict[str, list[str]], registry: Registry, lang: str) -> str:
    """``llms.txt``: the project, each entry's Markdown copy with its meaning, the other pages."""
    lines = [f"# {app.config.project}", ""]
    root = app.config.root_doc
    lines += [f"> {_title(app, root)}: every status code documented here, with its meaning, "
              "whether to retry, and what to do. Each code's Markdown copy holds its causes, checks, "
              "fixes and sources; catalog.json (when published) holds them all as data.", "",
              "## Status codes", ""]
    for docname, names in pages.items():
        for name in names:
            code = registry.get(name)
            view = code.views[0] if code is not None and code.views else None
            meaning = markdown.rich(view.meaning.get(lang)) if view is not None else ""
            lines.append(f"- [{name}]({docname}.md): {meaning}".rstrip(": "))
    lines += ["", "## Pages", ""]
    for docname in sorted(app.env.found_docs):
        if docname not in pages:
            lines.append(f"- [{_title(app, docname)}]({app.builder.get_target_uri(docname)})")
    return "\n".join(lines) + "\n"


def setup_publish(app: Sphinx) -> None:
    app.connect("build-finished", write_catalog)
    app.connect("build-finished", write_llms_txt)
