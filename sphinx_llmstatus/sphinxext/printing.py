"""Links in print formats: name the target in the text, since nobody can click paper.

After references are resolved, for the plain-text builder and for LaTeX
(unless ``latex_show_urls`` already prints URLs): an external link of ours
(fallback vendor page, source page, API link; class ``llmstatus-external``)
is followed by ``(URL)``, and a titled code mention (``:llm-status:`the link
failed <LLM_LINK_FAILED>```) by ``(LLM_LINK_FAILED)``. The man writer of
docutils and the texinfo writer already print URLs (inline, footnotes); HTML
has the print stylesheet rule in ``llmstatus.css``.

In the plain-text builder a URL inside a table cell is named by a number
(``[1]``) and printed whole below the table: the text writer wraps a cell's
paragraphs twice and would put spaces into a long URL.
"""

from __future__ import annotations

from typing import Any

from docutils import nodes
from sphinx.transforms.post_transforms import ReferencesResolver, SphinxPostTransform


class NameLinkTargets(SphinxPostTransform):
    """Append ``(URL)`` / ``(CODE)`` after our links in text and LaTeX output."""

    default_priority = ReferencesResolver.default_priority + 10

    formats: tuple[str, ...] = ("text",)

    def run(self, **kwargs: Any) -> None:
        for literal in list(self.document.findall(nodes.literal)):
            if "llmstatus_target" not in literal:
                continue
            after = literal.parent if isinstance(literal.parent, nodes.reference) else literal
            _append_after(after, [nodes.Text(f" ({literal['llmstatus_target']})")])
        text = "text" in self.formats  # NameLinkTargetsLatex runs the same code for LaTeX
        notes: dict[nodes.table, list[str]] = {}
        for ref in list(self.document.findall(nodes.reference)):
            uri = ref.get("refuri", "")
            if "llmstatus-external" in ref["classes"] and "://" in uri and ref.astext() != uri:
                table = _enclosing_table(ref) if text else None
                if table is None:
                    shown = nodes.reference(uri, uri, refuri=uri, internal=False)
                    _append_after(ref, [nodes.Text(" ("), shown, nodes.Text(")")])
                    continue
                uris = notes.setdefault(table, [])
                if uri not in uris:
                    uris.append(uri)
                _append_after(ref, [nodes.Text(f" [{uris.index(uri) + 1}]")])
        for table, uris in notes.items():  # a literal block: the text writer never wraps it
            listing = "\n".join(f"[{n}] {uri}" for n, uri in enumerate(uris, 1))
            _append_after(table, [nodes.literal_block(listing, listing, classes=["llmstatus-urls"])])


def _enclosing_table(node: nodes.Node) -> nodes.table | None:
    while node is not None and not isinstance(node, nodes.table):
        node = node.parent
    return node


class NameLinkTargetsLatex(NameLinkTargets):
    """The same for LaTeX, unless ``latex_show_urls`` already prints every URL."""

    formats = ("latex",)

    def is_supported(self) -> bool:
        return super().is_supported() and self.config.latex_show_urls in ("no", False, None)


def _append_after(node: nodes.Node, new: list[nodes.Node]) -> None:
    parent = node.parent
    index = parent.index(node) + 1
    parent[index:index] = new
