"""Links in print formats: name the target in the text, since nobody can click paper.

After references are resolved, for the plain-text builder and for LaTeX
(unless ``latex_show_urls`` already prints URLs): an external link of ours
(fallback vendor page, source page, API link; class ``llmstatus-external``)
is followed by ``(URL)``, and a titled code mention (``:llm-status:`the link
failed <LLM_LINK_FAILED>```) by ``(LLM_LINK_FAILED)``. The man writer of
docutils and the texinfo writer already print URLs (inline, footnotes); HTML
has the print stylesheet rule in ``llmstatus.css``.
"""

from __future__ import annotations

from typing import Any

from docutils import nodes
from sphinx.transforms.post_transforms import ReferencesResolver, SphinxPostTransform


class NameLinkTargets(SphinxPostTransform):
    """Append ``(URL)`` / ``(CODE)`` after our links in text and LaTeX output."""

    default_priority = ReferencesResolver.default_priority + 10

    def is_supported(self) -> bool:
        fmt = self.env._builder_cls.format if hasattr(self.env, "_builder_cls") else self.app.builder.format
        if fmt == "text":
            return True
        return fmt == "latex" and self.config.latex_show_urls in ("no", False, None)

    def run(self, **kwargs: Any) -> None:
        for literal in list(self.document.findall(nodes.literal)):
            if "llmstatus_target" not in literal:
                continue
            after = literal.parent if isinstance(literal.parent, nodes.reference) else literal
            _append_after(after, [nodes.Text(f" ({literal['llmstatus_target']})")])
        for ref in list(self.document.findall(nodes.reference)):
            uri = ref.get("refuri", "")
            if "llmstatus-external" in ref["classes"] and "://" in uri and ref.astext() != uri:
                shown = nodes.reference(uri, uri, refuri=uri, internal=False)
                _append_after(ref, [nodes.Text(" ("), shown, nodes.Text(")")])



def _append_after(node: nodes.Node, new: list[nodes.Node]) -> None:
    parent = node.parent
    index = parent.index(node) + 1
    parent[index:index] = new
