"""Site-only extension: write the generated pages of the troubleshooting site before reading.

Generated (all git-ignored), everything from the packaged registry or from
real runs, so the site cannot drift from the package:

* ``docs/codes/<NAME>.md``: one page per status code (stable URL
  ``codes/<NAME>.html#<NAME>``) and ``docs/codes/index.md``;
* ``docs/_generated/*.md``: fragments that hand-written pages ``{include}``
  (Python vs C++ differences, layout tables, captured CLI and notebook output);
* ``docs/_generated/snippets/``: no-index copies of the authoring snippets.

It also puts every number form of a code into the search index (see
:func:`add_number_index_entries`).
"""

from __future__ import annotations

import re
from pathlib import Path

from docutils import nodes
from sphinx import addnodes
from sphinx.application import Sphinx
from sphinx.config import Config
from sphinx.environment import BuildEnvironment

import captured
from code_pages import code_page, codes_index, number_forms
from compare_pages import differences, layout_tables
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
    registry = default_registry()
    codes = list(registry)
    out = DOCS / "codes"
    wanted = {f"{c.name}.md" for c in codes} | {"index.md"}
    for stale in out.glob("*.md"):
        if stale.name not in wanted:
            stale.unlink()
    write_if_changed(out / "index.md", codes_index(codes))
    for code in codes:
        write_if_changed(out / f"{code.name}.md", code_page(code))
    write_if_changed(GENERATED / "python-vs-cpp.md", differences(registry))
    write_if_changed(GENERATED / "layout.md", layout_tables(registry))
    for snippet in (DOCS / "snippets").glob("*/*"):
        target = GENERATED / "snippets" / snippet.parent.name / snippet.name
        text = snippet.read_text(encoding="utf-8")
        write_if_changed(target, no_index(text) if "no-index" not in text else text)
    captured.capture_all(config.language or "en")


def add_number_index_entries(app: Sphinx, doctree: nodes.document) -> None:
    """Give each indexed code entry index entries for its numbers and other spellings.

    Why: Sphinx's full-text index drops all-digit words (``word_filter``) and
    its search page skips all-digit query terms, so ``1343270921`` can only be
    found through ``indexentries`` (matched by substring in searchtools.js).
    The extension adds ``0x5010B009``; this adds ``1343270921``, ``5010b009``
    and the other API's spelling (``LLM_WAIT_PROCESS_TIMEOUT``), each with the
    entry's own anchor as target. Belongs in the extension (asked for).
    """
    registry = default_registry()
    for desc in doctree.findall(addnodes.desc):
        if desc.get("domain") != "llm" or desc.get("objtype") != "status" or desc.get("no-index"):
            continue
        sig = desc.next_node(addnodes.desc_signature)
        name_node = sig.next_node(addnodes.desc_name) if sig else None
        code = registry.get(name_node.astext()) if name_node else None
        index = desc.parent[desc.parent.index(desc) - 1] if desc.parent.index(desc) else None
        if code is None or not isinstance(index, addnodes.index) or not sig["ids"]:
            continue
        have = {entry[1].split(";")[0].strip().lower() for entry in index["entries"]}
        for form in [*number_forms(code), *(s for s in code.spellings if s != code.name)]:
            if form.lower() not in have:
                index["entries"].append(("single", f"{form}; {code.name}", sig["ids"][0], "", None))


def always_rewrite_code_pages(app: Sphinx, env: BuildEnvironment, added, changed, removed) -> list[str]:
    """Re-read the code pages on every build.

    Why: on an incremental build Sphinx reloads ``searchindex.js`` without its
    ``indexentries`` and only re-feeds the pages it writes, so unchanged code
    pages would lose their number entries (``IndexBuilder.load``; open upstream as
    sphinx-doc/sphinx#12599; seen here: a second no-change build had 0 entries).
    """
    return sorted(d for d in env.found_docs if d.startswith("codes/") and d not in changed)


def setup(app: Sphinx) -> dict:
    app.connect("config-inited", generate)
    app.connect("doctree-read", add_number_index_entries)
    app.connect("env-get-outdated", always_rewrite_code_pages)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
