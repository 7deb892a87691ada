"""Every directive and role snippet of the docs, in reST and in MyST (both fences), gives one doctree.

The snippets in ``docs/snippets/{rst,myst}`` are the authoring guide's
examples; here each is built as a real Sphinx project and its resolved
doctree is compared with one regression file shared by all syntaxes
(the sphinx-design pattern).
"""

from __future__ import annotations

import re

import pytest
from conftest import SNIPPETS

NAMES = sorted(p.stem for p in (SNIPPETS / "rst").glob("*.rst"))


def colon_fenced(markdown: str) -> str:
    """The same MyST snippet written with ``:::`` fences."""
    return re.sub(r"^```", ":::", markdown, flags=re.M)


def doctree_text(app) -> str:
    try:
        doctree = app.env.get_and_resolve_doctree("index", app.builder, tags=app.tags)
    except TypeError:  # Sphinx 8 has no ``tags`` argument
        doctree = app.env.get_and_resolve_doctree("index", app.builder)
    _merge_text(doctree)
    text = doctree.pformat()
    # Syntax-specific attributes that say nothing about the result.
    text = re.sub(r' (source|rawtext|refdoc)="[^"]*"', "", text)
    text = re.sub(r' translatable="[^"]*"', "", text)
    # docutils < 0.22 prints boolean attributes as False/True, newer ones as 0/1.
    text = re.sub(r'="False"', '="0"', text)
    return re.sub(r'="True"', '="1"', text)


def _merge_text(node) -> None:
    """Join adjacent Text nodes: MyST keeps soft line breaks as separate nodes, reST does not."""
    from docutils import nodes

    for element in node.findall(nodes.Element):
        children = element.children
        i = 0
        while i < len(children) - 1:
            if isinstance(children[i], nodes.Text) and isinstance(children[i + 1], nodes.Text):
                merged = nodes.Text(children[i].astext() + children[i + 1].astext())
                element.replace(children[i], merged)
                element.remove(children[i + 1])
            else:
                i += 1


def test_every_snippet_has_both_syntaxes():
    assert NAMES == sorted(p.stem for p in (SNIPPETS / "myst").glob("*.md"))


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("syntax", ["rst", "myst", "myst-colon"])
def test_snippet(project, file_regression, name, syntax):
    if syntax == "rst":
        files = {"index.rst": (SNIPPETS / "rst" / f"{name}.rst").read_text(encoding="utf-8")}
    else:
        text = (SNIPPETS / "myst" / f"{name}.md").read_text(encoding="utf-8")
        files = {"index.md": colon_fenced(text) if syntax == "myst-colon" else text}
    app = project(files, freshenv=True)
    assert app.warning.getvalue() == ""
    file_regression.check(doctree_text(app), basename=f"snippet_{name}", extension=".xml")
