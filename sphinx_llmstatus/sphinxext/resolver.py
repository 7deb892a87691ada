"""Resolution of code mentions: fast for the project's own entries and table rows.

Sphinx's :class:`~sphinx.transforms.post_transforms.ReferencesResolver`
deep-copies every reference's content and dispatches through the domain for
each mention; with thousands of mentions per build that is most of the cost
of a code mention (see ``bench/bench_sphinx_roles.py``). So the role leaves
only a ``literal`` marked with the code name (:data:`.domain.REF_ATTR`), and
this post-transform, just before the standard resolver, links it when the
project has a target (entry, then row): the literal moves into a
``reference``, the relative URI and hover title are computed once per target
page and code. Generated ``pending_xref`` nodes (related codes, table name
cells) get the same fast path.

Anything it does not link (no local target, a builder that raises
:class:`~sphinx.errors.NoUri`) becomes (or stays) a ``pending_xref`` for the
standard resolver, so the order stays: entry, row, intersphinx
(``missing-reference``), ``llmstatus_fallback_url``, warning.

It also links ``llmstatus_api_links`` targets written ``ref:label`` so that
the API name stays code (Sphinx's ``:ref:`` resolver would make it text).
"""

from __future__ import annotations

from typing import Any

from docutils import nodes
from sphinx.addnodes import pending_xref
from sphinx.domains.std import StandardDomain
from sphinx.errors import NoUri
from sphinx.transforms.post_transforms import ReferencesResolver, SphinxPostTransform

from .diagnostics import Subtype, warn
from .domain import REF_ATTR, LLMDomain


class LocalStatusReferences(SphinxPostTransform):
    """Replace ``llm:status`` pending references that have a local target by references."""

    default_priority = ReferencesResolver.default_priority - 1

    def run(self, **kwargs: Any) -> None:
        domain: LLMDomain = self.env.get_domain("llm")  # type: ignore[assignment]
        entries, rows = domain.entries, domain.rows
        # Sphinx 9 deprecates SphinxTransform.app; env._app is what its own resolver uses.
        app = getattr(self.env, "_app", None) or self.app
        self._builder = app.builder
        self._uris: dict[tuple[str, str], str | None] = {}
        current = self.env.docname
        # Role mentions: bare literals marked with the code name.
        for literal in list(self.document.findall(nodes.literal)):
            name = literal.get(REF_ATTR)
            if name is None:
                continue
            fromdoc = literal.attributes.pop("refdoc", current)
            del literal[REF_ATTR]
            found = domain.target_of(name)
            if found is None or not self._link(literal, fromdoc, found[0], found[1],
                                               domain.title(name), wrap=True):
                # intersphinx, then the fallback URL: the standard resolver's job
                xref = pending_xref("", refdomain="llm", reftype="status", reftarget=name,
                                    refexplicit="llmstatus_target" in literal, refwarn=False,
                                    refdoc=fromdoc)
                literal.parent.replace(literal, xref)  # not replace_self: keep classes off xref
                xref += literal
        # Generated references (related codes, table name cells) and API label links.
        api_labels = any(not _is_url(t) for t in self.config.llmstatus_api_links.values())
        if not entries and not rows and not api_labels:
            return
        for node in list(self.document.findall(pending_xref)):
            refdomain = node.get("refdomain")
            if refdomain == "std" and api_labels:
                self._api_label(node, current)
                continue
            if refdomain != "llm":
                continue
            name = node["reftarget"]
            target = entries.get(name)
            if target is None:
                if node.get("llmstatus_silent"):
                    node.replace_self(node.children)  # a table's own name cell: no link
                    continue
                target = rows.get(name)
                if target is None:
                    continue
            self._link(node, node.get("refdoc", current), target[0], target[1], domain.title(name))

    def _link(self, node: nodes.Element, fromdoc: str, todoc: str, node_id: str, title: str,
              wrap: bool = False) -> bool:
        """Replace ``node`` by a reference to ``todoc#node_id``; False if the builder has no URI.

        The reference holds ``node`` itself (``wrap``) or its children: moved, never copied.
        """
        ref = nodes.reference("", "", internal=True)
        if title:
            ref["reftitle"] = title
        if fromdoc == todoc:
            ref["refid"] = node_id
        else:
            key = (fromdoc, todoc)
            if key not in self._uris:
                try:
                    self._uris[key] = self._builder.get_relative_uri(fromdoc, todoc)
                except NoUri:
                    self._uris[key] = None
            base = self._uris[key]
            if base is None:
                return False  # the standard resolver knows what to do without a URI
            ref["refuri"] = f"{base}#{node_id}"
        if wrap:
            node.parent.replace(node, ref)
            ref += node
        else:
            ref.extend(node.children)
            node.replace_self(ref)
        return True

    def _api_label(self, node: pending_xref, current: str) -> None:
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
            self._link(node, node.get("refdoc", current), docname, labelid, "")


def _is_url(target: str) -> bool:
    return "://" in target or target.startswith(("/", "#"))


class CheckApiLinks(SphinxPostTransform):
    """Warn (once per target) when an ``llmstatus_api_links`` Sphinx target resolved to nothing.

    Runs after every resolver, intersphinx included: an API name that is still
    a bare literal (not inside a reference) did not link.
    """

    default_priority = ReferencesResolver.default_priority + 1

    def is_supported(self) -> bool:
        return any(not _is_url(t) for t in self.config.llmstatus_api_links.values())

    def run(self, **kwargs: Any) -> None:
        for literal in self.document.findall(nodes.literal):
            target = literal.get("llmstatus_api_target")
            if target and not isinstance(literal.parent, nodes.reference):
                warn(f"llmstatus_api_links: {literal.astext()!r} maps to {target!r}, which no "
                     f"object of this project or its intersphinx inventories matches",
                     Subtype.unresolved, location=literal, once=True)
