"""Links in print formats: name the target in the text, since nobody can click paper.

After references are resolved, for the plain-text builder and for LaTeX
(unless ``latex_show_urls`` already prints URLs): an external link of ours
(fallback vendor page, source page, API link; class ``llmstatus-external``)
is followed by ``(URL)``, and a titled code mention (``:llm-status:`the link
failed <LLM_LINK_FAILED>```) by ``(LLM_LINK_FAILED)``. The man writer of
docutils and the texinfo writer already print URLs (inline, footnotes); HTML
has the print stylesheet rule in ``llmstatus.css``.

For LaTeX, every table of ours gets a column spec (``tabularcolumns``, see
:class:`TableColumns`): code names keep one line in a column wide enough for
the longest of them, and an entry's label column keeps its words whole.

In the plain-text builder a URL inside a table cell is named by a number
(``[1]``) and printed whole below the table: the text writer wraps a cell's
paragraphs twice and would put spaces into a long URL.
"""

from __future__ import annotations

from typing import Any

from docutils import nodes
from sphinx import addnodes
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


#: Share of the line width (percent) of each kind of column in LaTeX; "text" columns share the rest.
#: A name column fits ``LLM_CLUSTER_NUM_EXCEED_LIMIT`` (28 characters of typewriter type)
#: on one line, so names are never cut; the number column fits ``0x5010B009`` and ``4294967295``.
LATEX_SHARES = {"name": 38, "number": 13, "recoverable": 17, "label": 17}
#: Columns whose words must not be hyphenated ("recov-erable" under a badge, "Re-cov-er-able" as a label).
_WHOLE_WORDS = {"name", "number", "recoverable", "label"}


def latex_colspec(kinds: list[str], name_chars: int = 0) -> str:
    """A ``tabularcolumns`` spec for columns of ``kinds`` (``name``, ``number``, ``recoverable``,
    ``label``, ``text``): fixed shares from :data:`LATEX_SHARES`, the rest split among ``text``.
    A name column whose longest name has more than 31 characters (``ACL_ERROR_RT_VECTOR_CORE_TRAP_
    EXCEPTION``) widens to hold it whole, up to 55%."""
    share_of = dict(LATEX_SHARES)
    if name_chars > 31:
        share_of["name"] = min(55, LATEX_SHARES["name"] * name_chars // 31 + 1)
    fixed = sum(share_of.get(k, 0) for k in kinds)
    texts = kinds.count("text")
    rest = max(100 - fixed, 10 * texts)
    shares = [share_of.get(k) or rest // max(texts, 1) for k in kinds]
    total = sum(shares)
    cols = []
    for kind, share in zip(kinds, shares):
        keep = r"\hyphenpenalty=10000\exhyphenpenalty=10000" if kind in _WHOLE_WORDS else ""
        cols.append(rf">{{\raggedright\arraybackslash{keep}}}\X{{{share}}}{{{total}}}")
    return "".join(cols)


class TableColumns(SphinxPostTransform):
    """LaTeX: put a column spec before each code table and entry table (unless the author set one)."""

    default_priority = 400
    formats = ("latex",)

    def run(self, **kwargs: Any) -> None:
        for table in list(self.document.findall(nodes.table)):
            kinds = table.get("llmstatus_columns")
            if not kinds:
                continue
            parent = table.parent
            index = parent.index(table)
            if index and isinstance(parent[index - 1], addnodes.tabular_col_spec):
                continue
            parent.insert(index, addnodes.tabular_col_spec(
                spec=latex_colspec(list(kinds), table.get("llmstatus_name_chars", 0))))
