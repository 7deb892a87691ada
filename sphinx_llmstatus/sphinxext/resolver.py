"""Fast resolution of ``llm:status`` references to the project's own entries and table rows.

Sphinx's :class:`~sphinx.transforms.post_transforms.ReferencesResolver`
deep-copies every reference's content and dispatches through the domain for
each mention; with thousands of mentions per build that is most of the cost
of a code mention (see ``bench/bench_sphinx_roles.py``). This post-transform
runs just before it and links the references that have a local target (entry,
then row) by moving the existing ``literal`` into a ``reference``, with the
relative URI and hover title computed once per target page and code.

Anything it does not link (no local target, a builder that raises
:class:`~sphinx.errors.NoUri`) is left as a ``pending_xref`` for the
standard resolver, so the order stays: entry, row, intersphinx
(``missing-reference``), ``llmstatus_fallback_url``, warning.
"""

from __future__ import annotations

from typing import Any

from docutils import nodes
from sphinx.addnodes import pending_xref
from sphinx.errors import NoUri
from sphinx.transforms.post_transforms import ReferencesResolver, SphinxPostTransform

from .diagnostics import Subtype, warn
from .domain import LLMDomain


class LocalStatusReferences(SphinxPostTransform):
    """Replace ``llm:status`` pending references that have a local target by references."""

    default_priority = ReferencesResolver.default_priority - 1

    def run(self, **kwargs: Any) -> None:
        domain: LLMDomain = self.env.get_domain("llm")  # type: ignore[assignment]
        entries, rows = domain.entries, domain.rows
        if not entries and not rows:
            return
        # Sphinx 9 deprecates SphinxTransform.app; env._app is what its own resolver uses.
        app = getattr(self.env, "_app", None) or self.app
        builder = app.builder
        current = self.env.docname
        uris: dict[tuple[str, str], str | None] = {}
        for node in list(self.document.findall(pending_xref)):
            if node.get("refdomain") != "llm":
                continue
            name = node["reftarget"]
            found = entries.get(name)
            if found is None:
                if node.get("llmstatus_silent"):
                    node.replace_self(node.children)  # a table's own name cell: no link
                    continue
                found = rows.get(name)
                if found is None:
                    continue  # intersphinx, then the fallback URL: the standard resolver
            todoc, node_id = found[0], found[1]
            fromdoc = node.get("refdoc", current)
            ref = nodes.reference("", "", internal=True, reftitle=domain.title(name))
            if fromdoc == todoc:
                ref["refid"] = node_id
            else:
                key = (fromdoc, todoc)
                if key not in uris:
                    try:
                        uris[key] = builder.get_relative_uri(fromdoc, todoc)
                    except NoUri:
                        uris[key] = None
                base = uris[key]
                if base is None:
                    continue
                ref["refuri"] = f"{base}#{node_id}"
            ref.extend(node.children)  # move the literal: no deep copy
            node.replace_self(ref)


class CheckApiLinks(SphinxPostTransform):
    """Warn (once per target) when an ``llmstatus_api_links`` Sphinx target resolved to nothing.

    Runs after every resolver, intersphinx included: an API name that is still
    a bare literal (not inside a reference) did not link.
    """

    default_priority = ReferencesResolver.default_priority + 1

    def is_supported(self) -> bool:
        links = self.config.llmstatus_api_links
        return any("://" not in t and not t.startswith(("/", "#")) for t in links.values())

    def run(self, **kwargs: Any) -> None:
        for literal in self.document.findall(nodes.literal):
            target = literal.get("llmstatus_api_target")
            if target and not isinstance(literal.parent, nodes.reference):
                warn(f"llmstatus_api_links: {literal.astext()!r} maps to {target!r}, which no "
                     f"object of this project or its intersphinx inventories matches",
                     Subtype.unresolved, location=literal, once=True)
