"""The ``llm`` domain: the ``status`` object type, its targets, inventory and resolution.

Targets come in two kinds: a code's entry (``.. llm-status:: CODE``) and a row
of a code table. :meth:`LLMDomain.target_of` is the one place that decides
where a code links (entry, else table row; the first by document name when
several pages have one); ``resolve_xref``, ``resolve_any_xref`` and the fast
write-time resolver (:mod:`.resolver`) all ask it. When the project has no
target, ``resolve_xref`` returns None so intersphinx can try, then
:func:`fallback_reference` (a late ``missing-reference`` handler) links the
vendor page; anything still unresolved goes through Sphinx's
``warn-missing-reference`` (so ``nitpicky`` and ``nitpick_ignore`` apply),
where :func:`warn_unresolved` words the warning.

Every documenting location is kept, not only the first, so deleting or
moving one page of two that document a code leaves the other as the target,
as a fresh build would; pages that mention a code are rewritten when its
target changes (:func:`outdated_mentions`).
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterable, Iterator
from typing import Any, ClassVar

from docutils import nodes
from docutils.nodes import Element
from sphinx.addnodes import pending_xref
from sphinx.builders import Builder
from sphinx.domains import Domain, ObjType
from sphinx.environment import BuildEnvironment

from ..registry.lookup import UnknownStatusCode, lookup
from ..view.links import fallback_url
from .config import settings
from .diagnostics import Subtype, warn
from .labels import _ as llm_
from .lines import exact_location
from .state import get_registry

#: Attribute of the ``literal`` a role leaves in the doctree: the code name to link.
REF_ATTR = "llmstatus_ref"

_PLAIN_WORD = re.compile(r"^[A-Za-z_][A-Za-z0-9_-]*$")
_HEXLIKE = re.compile(r"^(?:0[xX])?[0-9A-Fa-f]+$")

#: ``(docname, node id, line)`` of one documenting location.
Location = tuple[str, str, int]


class LLMDomain(Domain):
    """Domain ``llm`` with object type ``status`` (LLM DataDist status codes)."""

    name = "llm"
    label = "LLM DataDist"
    object_types = {"status": ObjType(llm_("status code"), "status")}
    dangling_warnings = {"status": "LLM status code %(target)s is not documented in this project"}
    initial_data: ClassVar[dict[str, dict[str, Any]]] = {
        "entries": {},  # name -> sorted [(docname, node id, line)]
        "rows": {},  # name -> sorted [(docname, node id, line)]
        "mentions": {},  # docname -> {names it links}
        "targets": {},  # name -> (docname, node id) as of the last build, for outdated_mentions
    }
    data_version = 2

    @property
    def entries(self) -> dict[str, list[Location]]:
        return self.data["entries"]

    @property
    def rows(self) -> dict[str, list[Location]]:
        return self.data["rows"]

    @property
    def mentions(self) -> dict[str, set[str]]:
        return self.data["mentions"]

    # -- recording -------------------------------------------------------------------

    def note_entry(self, name: str, node_id: str, location: Element) -> None:
        """Record a code's entry; warn ``llmstatus.duplicate`` if it is documented elsewhere."""
        new = (self.env.docname, node_id, location.line or 0)
        places = self.entries.setdefault(name, [])
        if places:
            kept = min(places[0], new)
            self._warn_duplicate(name, kept, max(places[0], new))
        bisect.insort(places, new)

    def note_row(self, name: str, node_id: str, line: int) -> None:
        """Record a table row as a fallback target (the first by document wins, no warning)."""
        bisect.insort(self.rows.setdefault(name, []), (self.env.docname, node_id, line))

    def note_mention(self, docname: str, name: str) -> None:
        """Record that ``docname`` links code ``name`` (rewritten when its target changes)."""
        self.mentions.setdefault(docname, set()).add(name)

    def _warn_duplicate(self, name: str, kept: Location, other: Location) -> None:
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
            for name, places in list(table.items()):
                kept = [p for p in places if p[0] != docname]
                if kept:
                    table[name] = kept
                else:
                    del table[name]
        self.mentions.pop(docname, None)

    def merge_domaindata(self, docnames: Iterable[str], otherdata: dict[str, Any]) -> None:
        docs = set(docnames)
        for name, places in otherdata["entries"].items():
            for new in places:
                if new[0] not in docs:
                    continue
                mine = self.entries.setdefault(name, [])
                if mine:
                    self._warn_duplicate(name, min(mine[0], new), max(mine[0], new))
                bisect.insort(mine, new)
        for name, places in otherdata["rows"].items():
            for new in places:
                if new[0] in docs:
                    bisect.insort(self.rows.setdefault(name, []), new)
        for docname, names in otherdata["mentions"].items():
            if docname in docs:
                self.mentions.setdefault(docname, set()).update(names)

    def outdated_mentions(self) -> list[str]:
        """Documents that link a code whose target moved since the last build (and remember the new targets)."""
        mentioned = set().union(*self.mentions.values()) if self.mentions else set()
        current = {name: self.target_of(name) for name in mentioned}
        before = self.data["targets"]
        changed = {name for name, where in current.items() if before.get(name) != where}
        self.data["targets"] = current
        return sorted(doc for doc, names in self.mentions.items() if not names.isdisjoint(changed))

    # -- inventory and search --------------------------------------------------------

    def get_objects(self) -> Iterator[tuple[str, str, str, str, str, int]]:
        for name, places in sorted(self.entries.items()):
            yield name, name, "status", places[0][0], places[0][1], 1
        for name, places in sorted(self.rows.items()):
            if name not in self.entries:
                yield name, name, "status", places[0][0], places[0][1], 2

    def get_full_qualified_name(self, node: Element) -> str | None:
        return node.get("reftarget")

    # -- resolution -------------------------------------------------------------------

    def canonical(self, target: str) -> str | None:
        """The code name ``target`` means (any spelling or number form), or None.

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
        """``(docname, node id)`` where code ``name`` links in this project: its entry, else a table row.

        The one decision of where a code links, for every resolver.
        """
        places = self.entries.get(name) or self.rows.get(name)
        return (places[0][0], places[0][1]) if places else None

    def title(self, name: str) -> str:
        """Hover title of a link to ``name``: ``NAME: meaning`` (cached per code and language), NAME
        spelled as its entry shows it (an entry for Python readers: the Python spelling)."""
        lang = settings(self.env.config).registry_lang
        target = self.target_of(name)
        titles = self.__dict__.setdefault("_titles", {})
        key = (name, target, lang)
        title = titles.get(key)
        if title is None:
            code = get_registry(self.env)[name]
            shown = target[1] if target is not None and target[1] in code.spellings else name
            view = code.python or code.cpp
            title = titles[key] = f"{shown}: {view.meaning.get(lang)}" if view else shown
        return title

    def resolve_xref(
        self, env: BuildEnvironment, fromdocname: str, builder: Builder, typ: str,
        target: str, node: pending_xref, contnode: Element,
    ) -> nodes.reference | None:
        name = self.canonical(target)
        where = self.target_of(name) if name else None
        if name is None or where is None:
            return None
        todoc, node_id = where
        ref = nodes.reference("", "", internal=True, reftitle=self.title(name))
        if todoc == fromdocname:
            ref["refid"] = node_id
        else:  # make_refnode, but right on singlehtml too
            ref["refuri"] = anchor_uri(builder.get_relative_uri(fromdocname, todoc), node_id)
        ref += contnode
        return ref

    def resolve_any_xref(
        self, env: BuildEnvironment, fromdocname: str, builder: Builder, target: str,
        node: pending_xref, contnode: Element,
    ) -> list[tuple[str, nodes.reference]]:
        found = self.resolve_xref(env, fromdocname, builder, "status", target, node, contnode)
        return [("llm:status", found)] if found is not None else []


def anchor_uri(base: str, node_id: str) -> str:
    """``page.html#ID``; just ``#ID`` when the page is the current one under another name
    (singlehtml's ``#document-b``: every document is on the one page, and ``#document-b#ID``
    would be a dead link)."""
    return f"#{node_id}" if base.startswith("#") else f"{base}#{node_id}"


def outdated_mentions(app: Any, env: BuildEnvironment) -> list[str]:
    """``env-get-updated``: rewrite pages whose code links point elsewhere now."""
    domain: LLMDomain = env.get_domain("llm")  # type: ignore[assignment]
    return domain.outdated_mentions()


def fallback_reference(app: Any, env: BuildEnvironment, node: pending_xref,
                       contnode: Element) -> nodes.reference | None:
    """``missing-reference``, after intersphinx: a link to ``llmstatus_fallback_url``, or None.

    The default fallback is the code's vendor page; a template is filled in
    with the code's ``{name}``, ``{value}`` and ``{hex}``. None (no code, or
    the fallback is off) leaves the reference to Sphinx's missing-reference
    warning, worded by :func:`warn_unresolved`.
    """
    if node.get("refdomain") != "llm":
        return None
    template = settings(env.config).fallback_url
    if not template:
        return None
    code = get_registry(env).get(node["reftarget"])
    url = fallback_url(code, template) if code is not None else None
    if code is None or url is None:
        return None
    domain: LLMDomain = env.get_domain("llm")  # type: ignore[assignment]
    ref = nodes.reference("", "", internal=False, refuri=url, reftitle=domain.title(code.name),
                          classes=["llmstatus-external"])
    ref += contnode
    return ref


def warn_unresolved(app: Any, domain: Domain | None, node: pending_xref) -> bool | None:
    """``warn-missing-reference`` for ``llm``: a typed ``llmstatus`` warning at the mention's own line.

    Sphinx calls it only when the reference should warn (``refwarn``, or
    ``nitpicky`` and not in ``nitpick_ignore``).
    """
    if domain is None or domain.name != "llm":
        return None
    target = node["reftarget"]
    env = domain.env
    registry = get_registry(env)
    location = exact_location(env, node)
    if registry.get(target) is None:
        try:
            lookup(target, registry)
        except UnknownStatusCode as exc:
            warn(exc.reason(), Subtype.unknown_code, location=location)
            return True
    warn(f"LLM status code {target} is not documented in this project and no fallback URL "
         f"is set", Subtype.unresolved, location=location)
    return True
