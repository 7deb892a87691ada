"""Resolution of code mentions: fast for the project's own entries and table rows.

Sphinx's :class:`~sphinx.transforms.post_transforms.ReferencesResolver`
deep-copies every reference's content and dispatches through the domain for
each mention; with thousands of mentions per build that is most of the cost
of a code mention (see ``bench/bench_sphinx_roles.py``). So the role leaves
only a ``literal`` marked with the code name (:data:`.domain.REF_ATTR`), and
this post-transform, just before the standard resolver, links it to
:meth:`.LLMDomain.target_of` (the same decision ``resolve_xref`` makes): the
literal moves into a ``reference``; relative URIs and hover titles are
computed once per target page and code. Generated ``pending_xref`` nodes
(related codes, table name cells, ``:llm:status:``) take the same path.

Links are always computed from the document being written. Sphinx copies
some nodes into other documents after they were resolved (``.. todolist::``
copies todo nodes, already linked for their own page), so each linked
literal keeps its code name and the document it was linked from
(:data:`FROM_ATTR`); a literal found in another document is linked again
from there.

Anything it does not link (no local target, a builder without URIs) becomes
(or stays) a ``pending_xref`` for the standard resolver: intersphinx
(``missing-reference``), ``llmstatus_fallback_url``, then Sphinx's
missing-reference warning. References an ``:external:`` role made are left to
intersphinx.

It also links ``llmstatus_api_links`` targets written ``ref:label`` so that
the API name stays code (Sphinx's ``:ref:`` resolver would make it text).
"""

from __future__ import annotations

from typing import Any
from weakref import WeakKeyDictionary

from docutils import nodes
from sphinx.addnodes import pending_xref
from sphinx.application import Sphinx
from sphinx.builders import Builder
from sphinx.domains.std import StandardDomain
from sphinx.environment import BuildEnvironment
from sphinx.errors import NoUri
from sphinx.transforms.post_transforms import ReferencesResolver, SphinxPostTransform

from .config import is_url, settings
from .diagnostics import Subtype, warn
from .domain import REF_ATTR, LLMDomain, anchor_uri
from .lines import exact_location

#: Attribute of a role's literal whose number means several codes: the warning to give.
AMBIGUOUS_ATTR = "llmstatus_ambiguous"
#: Attribute of a linked literal: the document its link was computed for.
FROM_ATTR = "llmstatus_from"

_BUILDERS: WeakKeyDictionary[BuildEnvironment, Builder] = WeakKeyDictionary()


def remember_builder(app: Sphinx) -> None:
    """``builder-inited``: the builder whose relative URIs the fast path uses."""
    _BUILDERS[app.env] = app.builder


class LocalStatusReferences(SphinxPostTransform):
    """Link code mentions that have a target in this project; leave the rest to Sphinx's resolver."""

    default_priority = ReferencesResolver.default_priority - 1

    def run(self, **kwargs: Any) -> None:
        domain: LLMDomain = self.env.get_domain("llm")  # type: ignore[assignment]
        self._builder = _BUILDERS[self.env]
        self._uris: dict[str, str | None] = {}
        self._current = current = self.env.docname
        # Role mentions: bare literals marked with the code name.
        for literal in list(self.document.findall(nodes.literal)):
            name = literal.get(REF_ATTR)
            if name is None:
                continue
            linked_from = literal.get(FROM_ATTR)
            if linked_from is not None:
                if linked_from != current and isinstance(literal.parent, nodes.reference):
                    self._relink(literal, literal.parent, domain.target_of(name))  # copied here
                continue
            if AMBIGUOUS_ATTR in literal.attributes:
                ambiguous = literal.attributes.pop(AMBIGUOUS_ATTR)
                warn(ambiguous, Subtype.ambiguous, location=exact_location(self.env, literal))
            if literal.astext() != name:  # a number or other spelling: print formats name the code
                literal["llmstatus_target"] = name
            found = domain.target_of(name)
            if found is None or not self._link(literal, found, domain.title(name), wrap=True):
                # intersphinx, the fallback URL, the missing-reference warning: the standard resolver's job
                del literal[REF_ATTR]
                xref = pending_xref("", refdomain="llm", reftype="status", reftarget=name,
                                    refexplicit=literal.astext() != name, refwarn=True,
                                    refdoc=current)
                literal.parent.replace(literal, xref)  # not replace_self: keep classes off xref
                xref += literal
        # Generated references (related codes, table name cells, :llm:status:) and API label links.
        api_labels = any(not is_url(t) for t in settings(self.config).api_links.values())
        for node in list(self.document.findall(pending_xref)):
            refdomain = node.get("refdomain")
            if refdomain == "std" and api_labels:
                self._api_label(node)
            elif refdomain == "llm" and "intersphinx" not in node:
                name = node["reftarget"]
                found = domain.target_of(name)
                if found is not None:
                    node["refdoc"] = current
                    self._link(node, found, domain.title(name))

    def _link(self, node: nodes.Element, target: tuple[str, str], title: str, wrap: bool = False) -> bool:
        """Replace ``node`` by a reference to ``target`` (docname, id); False if the builder has no URI.

        The reference holds ``node`` itself (``wrap``) or its children: moved,
        never copied. A link to the table row that holds the node (a table's
        own name cell) is left out: the node's text stays, unlinked.
        """
        todoc, node_id = target
        ref = nodes.reference("", "", internal=True, reftitle=title) if title else \
            nodes.reference("", "", internal=True)
        if todoc == self._current:
            if not wrap and _inside(node, node_id):
                node.replace_self(node.children)
                return True
            ref["refid"] = node_id
        else:
            base = self._uri(todoc)
            if base is None:
                return False  # the standard resolver knows what to do without a URI
            ref["refuri"] = anchor_uri(base, node_id)
        if wrap:  # a role's literal, which keeps its code name
            node.parent.replace(node, ref)
            ref += node
            node[FROM_ATTR] = self._current
            return True
        ref.extend(node.children)
        node.replace_self(ref)
        if len(ref) and isinstance(ref[0], nodes.literal) and node.get("refdomain") == "llm":
            ref[0][REF_ATTR] = node["reftarget"]
            ref[0][FROM_ATTR] = self._current
        return True

    def _uri(self, todoc: str) -> str | None:
        """Relative URI from the current document to ``todoc`` (once per page), None without URIs."""
        if todoc not in self._uris:
            try:
                self._uris[todoc] = self._builder.get_relative_uri(self._current, todoc)
            except NoUri:
                self._uris[todoc] = None
        return self._uris[todoc]

    def _relink(self, literal: nodes.literal, ref: nodes.Element, target: tuple[str, str] | None) -> None:
        """Point ``ref``, linked for another document, at ``target`` from the current one."""
        if target is None:
            return
        todoc, node_id = target
        if todoc == self._current:
            ref.attributes.pop("refuri", None)
            ref["refid"] = node_id
        else:
            base = self._uri(todoc)
            if base is None:
                return
            ref.attributes.pop("refid", None)
            ref["refuri"] = anchor_uri(base, node_id)
        literal[FROM_ATTR] = self._current

    def _api_label(self, node: pending_xref) -> None:
        """An ``llmstatus_api_links`` ``ref:label`` target: link, keeping the name as code.

        Sphinx's ``:ref:`` resolver replaces the content by plain text; API
        names in remedies should look like the other API names.
        """
        if node.get("reftype") != "ref" or not node.children or \
                not isinstance(node[0], nodes.Element) or not node[0].get("llmstatus_api_target"):
            return
        std: StandardDomain = self.env.get_domain("std")  # type: ignore[assignment]
        docname, labelid = std.anonlabels.get(node["reftarget"].lower(), ("", ""))
        if docname:
            self._link(node, (docname, labelid), "")


def _inside(node: nodes.Node, node_id: str) -> bool:
    parent = node.parent
    while parent is not None:
        if node_id in parent.get("ids", ()):
            return True
        parent = parent.parent
    return False


class CheckApiLinks(SphinxPostTransform):
    """Warn (once per target) when an ``llmstatus_api_links`` Sphinx target resolved to nothing.

    Runs after every resolver, intersphinx included: an API name that is still
    a bare literal (not inside a reference) did not link.
    """

    default_priority = ReferencesResolver.default_priority + 1

    def is_supported(self) -> bool:
        return any(not is_url(t) for t in settings(self.config).api_links.values())

    def run(self, **kwargs: Any) -> None:
        for literal in self.document.findall(nodes.literal):
            target = literal.get("llmstatus_api_target")
            if target and not isinstance(literal.parent, nodes.reference):
                warn(f"llmstatus_api_links: {literal.astext()!r} maps to {target!r}, which no "
                     f"object of this project or its intersphinx inventories matches",
                     Subtype.unresolved, location=literal, once=True)
