"""Docutils nodes for registry content: inline text, badges, a code's entry body, code tables.

Only standard docutils and Sphinx nodes are produced (paragraph, literal,
inline, table, pending_xref, reference), so every builder and MyST work
without extra visitors; HTML styling hangs on ``llmstatus-*`` classes.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from docutils import nodes
from sphinx import addnodes

from ..registry.model import LLM_DATADIST, Registry, StatusCode
from .config import is_url, settings
from .labels import N_, label

if TYPE_CHECKING:
    from sphinx.environment import BuildEnvironment

_BACKTICK_SPLIT = re.compile(r"`([^`]+)`")

#: Table columns authors can pick with ``:columns:``.
COLUMNS: dict[str, str] = {
    "name": N_("Code"),
    "python": N_("Python name"),
    "cpp": N_("C++ name"),
    "hex": N_("Hex"),
    "decimal": N_("Decimal"),
    "recoverable": N_("Recoverable"),
    "meaning": N_("Meaning"),
    "remedy": N_("Remedy"),
}
DEFAULT_COLUMNS = ("name", "hex", "decimal", "recoverable", "meaning")

_API_LABEL = {"python": "Python", "cpp": "C++"}
_BADGE_TEXT = {
    "yes": N_("recoverable"),
    "no": N_("not recoverable"),
    "n/a": N_("not applicable"),
    "unknown": N_("not documented"),
}


class Renderer:
    """Builds nodes for one directive: knows the registry, language and env."""

    def __init__(self, env: BuildEnvironment, registry: Registry, lang: str, project_lang: str):
        self.env, self.registry, self.lang, self.project_lang = env, registry, lang, project_lang
        self.api_links: dict[str, str] = settings(env.config).api_links

    def _(self, message: str) -> str:
        return label(message, self.lang, self.project_lang)

    # -- inline ---------------------------------------------------------------

    def code_xref(self, name: str, *, text: str | None = None) -> nodes.Node:
        """A cross-reference to a code, generated from registry text.

        It resolves like the role but does not warn when nothing links it
        (``refwarn=False``: the author did not write it; ``nitpicky`` still
        reports it). A link to the table row that holds it is left out (see
        :mod:`.resolver`).
        """
        lit = nodes.literal(text or name, text or name, classes=["llmstatus-code"])
        ref = addnodes.pending_xref(
            "", lit, refdomain="llm", reftype="status", reftarget=name,
            refexplicit=False, refwarn=False, refdoc=self.env.docname,
        )
        self.env.get_domain("llm").note_mention(self.env.docname, name)  # type: ignore[attr-defined]
        return ref

    def api_name(self, name: str) -> nodes.Node:
        """An API name as code; linked when ``llmstatus_api_links`` maps it (see :func:`api_target`)."""
        lit = nodes.literal(name, name, classes=["llmstatus-api"])
        target = self.api_links.get(name.split("=")[0].strip())
        if not target:
            return lit
        if is_url(target):
            return nodes.reference("", "", lit, refuri=target, internal=False,
                                   classes=["llmstatus-external"])
        domain, reftype, reftarget = api_target(target)
        lit["llmstatus_api_target"] = target  # checked after resolution (resolver.CheckApiLinks)
        return addnodes.pending_xref(
            "", lit, refdomain=domain, reftype=reftype, reftarget=reftarget,
            refexplicit=True, refwarn=False, refdoc=self.env.docname,
        )

    def inline(self, text: str) -> list[nodes.Node]:
        """Registry text with `backticked` names turned into code and links."""
        out: list[nodes.Node] = []
        for i, part in enumerate(_BACKTICK_SPLIT.split(text)):
            if not part:
                continue
            if i % 2 == 0:
                out.append(nodes.Text(part))
            elif part in self.registry:
                out.append(self.code_xref(self.registry[part].name, text=part))
            else:
                out.append(self.api_name(part))
        return out

    def para(self, text: str, classes: Sequence[str] = ()) -> nodes.paragraph:
        return paragraph(self.inline(text), classes)

    def badge(self, recoverable: str) -> nodes.inline:
        key = recoverable.replace("/", "")
        text = self._(_BADGE_TEXT[recoverable])
        return nodes.inline(text, text, classes=["llmstatus-badge", f"llmstatus-recoverable-{key}"])

    # -- a code's entry ------------------------------------------------------------

    def entry_body(self, code: StatusCode, apis: Sequence[str],
                   details: Sequence[nodes.Node] = ()) -> list[nodes.Node]:
        """Meaning, note, per-API table (with sources), ``details`` (see :mod:`.details`), related codes."""
        views = [v for v in code.views if v.api in apis]
        out: list[nodes.Node] = []
        if code.family != LLM_DATADIST:  # another layer's code: say so before anything else
            family = self.registry.families.get(code.family)
            name = family.label.get(self.lang) if family is not None else code.family
            out.append(paragraph([nodes.strong("", self._("Layer")), nodes.Text(f": {name} ("),
                                  nodes.Text(self._("not LLM DataDist")), nodes.Text(")")], ["llmstatus-layer"]))
        meanings = {v.meaning.get(self.lang) for v in views}
        if len(meanings) == 1:
            out.append(self.para(meanings.pop(), ["llmstatus-meaning"]))
        if code.note is not None:
            note = nodes.note("", self.para(code.note.get(self.lang)), classes=["llmstatus-note"])
            out.append(note)
        if views:
            out.append(self._api_table(code, views))
        out.extend(details)
        if code.related:
            p = paragraph([nodes.strong("", self._("Related codes")), nodes.Text(": ")],
                          ["llmstatus-related"])
            for i, name in enumerate(code.related):
                if i:
                    p += nodes.Text(", ")
                p += self.code_xref(self.registry[name].name)
            out.append(p)
        return out

    def _api_table(self, code: StatusCode, views: Sequence) -> nodes.table:
        header = [self._("Field")] + [_API_LABEL[v.api] for v in views]
        def row(label: str, cells: list[list[nodes.Node]]) -> list[list[nodes.Node]]:
            return [[nodes.Text(self._(label))], *cells]

        rows = [
            row(N_("Name"), [[nodes.literal(v.name, v.name)] for v in views]),
            row(N_("Recoverable"), [[self.badge(v.recoverable)] for v in views]),
        ]
        if len({v.meaning.get(self.lang) for v in views}) > 1:
            rows.append(row(N_("Meaning"), [self.inline(v.meaning.get(self.lang)) for v in views]))
        rows.append(row(N_("Remedy"), [self.inline(v.remedy.get(self.lang)) for v in views]))
        rows.append(row(N_("Source"), [self._source_cell(v) for v in views]))
        widths = [16] + [42] * len(views)
        table = build_table(header, rows, widths, classes=["llmstatus-entry-table"])
        table["llmstatus_columns"] = ["label"] + ["text"] * len(views)  # LaTeX column spec (printing.py)
        return table

    def _source_cell(self, view) -> list[nodes.Node]:
        title = view.source.title.get(self.lang)
        ref = nodes.reference(title, title, refuri=view.source.url, internal=False,
                              classes=["llmstatus-external"])
        status = self._("vendor page") if view.documented else self._("not on the vendor page")
        return [ref, nodes.Text(f" ({status})")]


_XREF_TARGET = re.compile(r"^(?:(?P<domain>[a-z0-9]+):)?(?P<role>[a-z0-9]+):(?P<target>[^:].*)$")


def api_target(target: str) -> tuple[str, str, str]:
    """``(domain, role, target)`` of an ``llmstatus_api_links`` value that is not a URL.

    ``py:meth:llm_datadist.LLMDataDist.link_clusters`` and
    ``cpp:func:llm_datadist::LlmDataDist::LinkLlmClusters`` name a domain and
    role; ``ref:label`` and ``doc:api/index`` are standard roles; a bare word
    is a ``:ref:`` label.
    """
    found = _XREF_TARGET.match(target)
    if not found:
        return "std", "ref", target
    return found["domain"] or "std", found["role"], found["target"]


def paragraph(children: Sequence[nodes.Node], classes: Sequence[str] = ()) -> nodes.paragraph:
    """A paragraph of generated registry text, kept out of the project's gettext catalogs.

    The registry carries its own English and Chinese text (``:lang:``,
    ``llmstatus_language``), so a project's translators never see it; MyST
    sets a source on generated nodes, which would otherwise make it extractable.
    """
    return nodes.paragraph("", "", *children, classes=list(classes), translatable=False)


def build_table(
    header: Sequence[str],
    rows: Sequence[Sequence[list[nodes.Node]]],
    widths: Sequence[int],
    classes: Sequence[str] = (),
    row_ids: Sequence[str] | None = None,
) -> nodes.table:
    """A docutils table (table/tgroup/colspec/thead/tbody) from cells of nodes."""
    table = nodes.table("", classes=list(classes))
    tgroup = nodes.tgroup("", cols=len(header))
    table += tgroup
    for w in widths:
        tgroup += nodes.colspec(colwidth=w)
    thead = nodes.thead()
    tgroup += thead
    thead += _row([[nodes.Text(h)] for h in header])
    tbody = nodes.tbody()
    tgroup += tbody
    for i, cells in enumerate(rows):
        row = _row(cells)
        if row_ids is not None:
            row["ids"].append(row_ids[i])
        tbody += row
    return table


def _row(cells: Sequence[list[nodes.Node]]) -> nodes.row:
    row = nodes.row()
    for cell in cells:
        entry = nodes.entry()
        if cell and all(isinstance(n, nodes.paragraph) for n in cell):
            entry.extend(cell)
        else:
            entry += paragraph(cell)
        row += entry
    return row
