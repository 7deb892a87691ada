"""The ``llm`` domain: the ``status`` object type, its targets, inventory and resolution.

Targets come in two kinds: a code's entry (``.. llm-status:: CODE``) and a row
of a code table. A reference resolves to the entry, else to a table row; if
the project has neither, ``resolve_xref`` returns None so intersphinx can try,
and :func:`fallback_reference` (a late ``missing-reference`` handler) links the
vendor page or warns.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from typing import Any, ClassVar

from docutils import nodes
from docutils.nodes import Element
from sphinx.addnodes import pending_xref
from sphinx.builders import Builder
from sphinx.domains import Domain, ObjType
from sphinx.environment import BuildEnvironment
from sphinx.util.nodes import make_refnode

from ..registry.lookup import UnknownStatusCode, lookup
from .config import registry_lang
from .diagnostics import Subtype, warn
from .labels import _ as llm_
from .state import get_registry

ENTRY, ROW = "entry", "row"

#: Attribute of the ``literal`` a role leaves in the doctree: the code name to link.
REF_ATTR = "llmstatus_ref"

_PLAIN_WORD = re.compile(r"^[A-Za-z_][A-Za-z0-9_-]*$")
_HEXLIKE = re.compile(r"^(?:0[xX])?[0-9A-Fa-f]+$")


def anchor(name: str) -> str:
    """HTML id of a code's entry: the code name itself, so ``page.html#LLM_LINK_FAILED`` works."""
    return name


def row_anchor(name: str) -> str:
    return f"llm-row-{name}"


class LLMDomain(Domain):
    """Domain ``llm`` with object type ``status`` (LLM DataDist status codes)."""

    name = "llm"
    label = "LLM DataDist"
    object_types = {"status": ObjType(llm_("status code"), "status")}
    # Directives and roles are filled in by setup() to keep imports one-way.
    directives: ClassVar[dict[str, Any]] = {}
    roles: ClassVar[dict[str, Any]] = {}
    initial_data: ClassVar[dict[str, dict[str, tuple[str, str, int]]]] = {
        "entries": {},  # name -> (docname, node id, line)
        "rows": {},  # name -> (docname, node id, line)
    }
    data_version = 1

    @property
    def entries(self) -> dict[str, tuple[str, str, int]]:
        return self.data.setdefault("entries", {})

    @property
    def rows(self) -> dict[str, tuple[str, str, int]]:
        return self.data.setdefault("rows", {})

    # -- recording -------------------------------------------------------------------

    def note_entry(self, name: str, node_id: str, location: Element) -> None:
        """Record a code's entry; warn ``llmstatus.duplicate`` if it is documented elsewhere."""
        docname, line = self.env.docname, location.line or 0
        new = (docname, node_id, line)
        old = self.entries.get(name)
        if old is not None:
            self._warn_duplicate(name, keep := min(old, new), max(old, new))
            self.entries[name] = keep
        else:
            self.entries[name] = new

    def note_row(self, name: str, node_id: str, line: int) -> None:
        """Record a table row as a fallback target (first row wins, no warning)."""
        new = (self.env.docname, node_id, line)
        old = self.rows.get(name)
        self.rows[name] = new if old is None else min(old, new)

    def _warn_duplicate(self, name: str, kept: tuple[str, str, int], other: tuple[str, str, int]) -> None:
        env = self.env
        warn(
            f"LLM status code {name} is documented twice: at {env.doc2path(kept[0])}:{kept[2]} "
            f"and {env.doc2path(other[0])}:{other[2]}; use :no-index: on one of them",
            Subtype.duplicate,
            location=(other[0], other[2]),
        )

    # -- incremental and parallel builds ---------------------------------------------

    def clear_doc(self, docname: str) -> None:
        for table in (self.entries, self.rows):
            for name, (doc, _id, _line) in list(table.items()):
                if doc == docname:
                    del table[name]

    def merge_domaindata(self, docnames: Iterable[str], otherdata: dict[str, Any]) -> None:
        docs = set(docnames)
        for name, new in otherdata.get("entries", {}).items():
            if new[0] not in docs:
                continue
            old = self.entries.get(name)
            if old is not None and old != new:
                self._warn_duplicate(name, min(old, new), max(old, new))
                new = min(old, new)
            self.entries[name] = new
        for name, new in otherdata.get("rows", {}).items():
            if new[0] in docs:
                old = self.rows.get(name)
                self.rows[name] = new if old is None else min(old, new)

    # -- inventory and search --------------------------------------------------------

    def get_objects(self) -> Iterator[tuple[str, str, str, str, str, int]]:
        for name, (docname, node_id, _line) in sorted(self.entries.items()):
            yield name, name, "status", docname, node_id, 1
        for name, (docname, node_id, _line) in sorted(self.rows.items()):
            if name not in self.entries:
                yield name, name, "status", docname, node_id, 2

    def get_full_qualified_name(self, node: Element) -> str | None:
        return node.get("reftarget")

    # -- resolution -------------------------------------------------------------------

    def _canonical(self, target: str) -> str | None:
        """The code name ``target`` means, or None.

        MyST asks every domain about every ``[](#anchor)`` of a project, so a
        plain word that is no code name returns at once: a full lookup would
        compute spelling suggestions for each heading anchor.
        """
        registry = get_registry(self.env)
        code = registry.get(target)
        if code is not None:
            return code.name
        if _PLAIN_WORD.match(target) and not _HEXLIKE.match(target):
            return None
        try:
            return lookup(target, registry)[0].code.name
        except UnknownStatusCode:
            return None

    def target_of(self, name: str) -> tuple[str, str] | None:
        """``(docname, node id)`` of the project's target for code ``name``: its entry, else a table row."""
        found = self.entries.get(name) or self.rows.get(name)
        return (found[0], found[1]) if found else None

    def title(self, name: str) -> str:
        """Hover title of a link to ``name``: ``NAME: meaning`` (cached per code and language)."""
        lang = registry_lang(self.env.config)
        titles = self.__dict__.setdefault("_titles", {})
        key = (name, lang)
        title = titles.get(key)
        if title is None:
            code = get_registry(self.env)[name]
            view = code.python or code.cpp
            title = titles[key] = f"{name}: {view.meaning.get(lang)}" if view else name
        return title

    def _refnode(self, builder: Builder, fromdocname: str, name: str,
                 where: tuple[str, str], contnode: Element) -> nodes.reference:
        return make_refnode(builder, fromdocname, where[0], where[1], contnode, self.title(name))

    def resolve_xref(
        self, env: BuildEnvironment, fromdocname: str, builder: Builder, typ: str,
        target: str, node: pending_xref, contnode: Element,
    ) -> nodes.reference | None:
        name = target if target in self.entries else self._canonical(target)
        if name is None:
            return None
        entry = self.entries.get(name)
        if entry is not None:
            return self._refnode(builder, fromdocname, name, entry[:2], contnode)
        if node.get("llmstatus_silent"):
            return contnode  # type: ignore[return-value]  # a table's own name cell: no entry, so no link
        row = self.rows.get(name)
        if row is not None:
            return self._refnode(builder, fromdocname, name, row[:2], contnode)
        return None

    def resolve_any_xref(
        self, env: BuildEnvironment, fromdocname: str, builder: Builder, target: str,
        node: pending_xref, contnode: Element,
    ) -> list[tuple[str, nodes.reference]]:
        name = self._canonical(target)
        where = self.target_of(name) if name else None
        if name is None or where is None:
            return []
        return [("llm:status", self._refnode(builder, fromdocname, name, where, contnode))]


def _in_intersphinx(env: BuildEnvironment, name: str) -> bool:
    """True when sphinx.ext.intersphinx resolves ``llm:status`` ``name`` from an inventory.

    Every ``missing-reference`` listener runs, even after an earlier one has
    answered, so the fallback must not link or warn what intersphinx linked.
    """
    inventory = getattr(env, "intersphinx_inventory", None)
    if not inventory:
        return False
    disabled = set(getattr(env.config, "intersphinx_disabled_reftypes", ()) or ())
    if disabled & {"*", "llm:*", "llm:status"}:
        return False
    return name in inventory.get("llm:status", {})


def fallback_reference(app: Any, env: BuildEnvironment, node: pending_xref,
                       contnode: Element) -> Element | None:
    """Last resort for ``llm`` references nothing else resolved: the fallback URL, or a warning.

    Connected to ``missing-reference`` after intersphinx. Returns None when an
    intersphinx inventory has the code (intersphinx links it); else a reference
    to ``llmstatus_fallback_url`` (the code's vendor page by default); else
    warns ``llmstatus.unresolved`` (not for links the extension generated
    itself, e.g. related codes) and returns the text unlinked.
    """
    if node.get("refdomain") != "llm":
        return None
    target = node["reftarget"]
    if _in_intersphinx(env, target):
        return None
    registry = get_registry(env)
    code = registry.get(target)
    template = env.config.llmstatus_fallback_url
    url = None
    if code is not None and template:
        if template == "vendor":
            url = code.views[0].source.url
        else:
            url = template.format(name=code.name, value=code.value, hex=code.hex or "")
    if url:
        title = env.get_domain("llm").title(target)  # type: ignore[attr-defined]
        ref = nodes.reference("", "", internal=False, refuri=url, reftitle=title,
                              classes=["llmstatus-external"])
        ref += contnode
        return ref
    if not node.get("llmstatus_quiet"):
        warn(f"LLM status code {target} is not documented in this project and no fallback URL "
             f"is set", Subtype.unresolved, location=node)
    return contnode  # handled: plain text, and no second (nitpicky) warning from Sphinx
