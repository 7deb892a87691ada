"""The "Where it comes from" part of an entry: the code's layer, what to do, which engine returns
it from which calls, how upper layers report it, and other libraries' names for it.

The facts are decided once in :mod:`sphinx_llmstatus.view.code`; this module only lays them out
as standard docutils nodes (a rubric and a definition list), like :mod:`.details`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from docutils import nodes

from ..registry.model import ApiView, StatusCode
from ..view import code as facts
from .content import paragraph
from .labels import N_

if TYPE_CHECKING:
    from .content import Renderer

_API_LABEL = {"python": "Python", "cpp": "C++"}


def origins(renderer: Renderer, code: StatusCode, views: Sequence[ApiView]) -> list[nodes.Node]:
    """Nodes of the section, or ``[]`` when the registry knows none of it for ``code``."""
    lang, registry = renderer.lang, renderer.registry
    items: list[nodes.definition_list_item] = []
    for view in views:
        act = facts.action(view, lang)
        if act is not None:
            items.append(_action(renderer, view, act))
    rows = facts.engines(code, registry, lang)
    if rows:
        items.append(_engines(renderer, code, rows))
    becomes = facts.becomes(code, lang)
    if becomes:
        items.append(_item(renderer._(N_("Reported as")), [
            paragraph([renderer.code_xref(b["code"]), nodes.Text(f" ({b['via']}) "), *_links(b["sources"])])
            for b in becomes]))
    reported = facts.reported_as_this(code, registry, lang)
    if reported:
        items.append(_item(renderer._(N_("Reported as this code")), [
            paragraph([renderer.code_xref(r["code"]), nodes.Text(f" ({r['family']}; {r['via']})")])
            for r in reported]))
    names = facts.bindings(code, registry, lang)
    if names:
        items.append(_item(renderer._(N_("Other spellings")), [
            paragraph([nodes.literal(n["qualified"], n["qualified"]), nodes.Text(f" ({n['label']}) "),
                       *_links(n["sources"])]) for n in names]))
    if not items:
        return []
    text = renderer._(N_("Where it comes from"))
    return [nodes.rubric(text, text, classes=["llmstatus-origins-heading"]),
            nodes.definition_list("", *items, classes=["llmstatus-origins"])]


def _item(term: str, body: list[nodes.Node]) -> nodes.definition_list_item:
    return nodes.definition_list_item("", nodes.term(term, term), nodes.definition("", *body))


def _links(found: list[dict[str, Any]]) -> list[nodes.Node]:
    out: list[nodes.Node] = []
    for i, source in enumerate(found):
        out.append(nodes.Text("; " if i else "("))
        text = f"{source['title']}, {source['lines']}" if source["lines"] else source["title"]
        out.append(nodes.reference(text, text, refuri=source["url"], internal=False, classes=["llmstatus-external"]))
    if out:
        out.append(nodes.Text(")"))
    return out


def _action(renderer: Renderer, view: ApiView, act: dict[str, Any]) -> nodes.definition_list_item:
    from ..view.origins import ACTION_WORDS

    target = act["setting"] or act["field"]
    now, then = (renderer._(ACTION_WORDS.get(w, w)) for w in (act["immediate"], act["investigate"]))
    text = (f"{renderer._(N_('now'))}: {now}; {renderer._(N_('then'))}: {then}"
            + (f" ({target})" if target else "") + " ")
    return _item(f"{renderer._(N_('Action'))} ({_API_LABEL[view.api]})",
                 [paragraph([nodes.Text(text), *_links(act["sources"])])])


def _engines(renderer: Renderer, code: StatusCode, rows: list[dict[str, Any]]) -> nodes.definition_list_item:
    body: list[nodes.Node] = []
    never = facts.never_returned_in(code, renderer.registry)
    returned = [m for row in rows if row["returned"] for m in row["modes"]]
    if never and returned:
        body.append(paragraph([nodes.Text(renderer._(
            N_("In {never} mode this code is never returned: if you see it, you are on the {returned} engine.")).format(
            never=" / ".join(never), returned=" / ".join(dict.fromkeys(returned))))]))
    items = nodes.bullet_list(classes=["llmstatus-engines"])
    for row in rows:
        if row["returned"]:
            what: list[nodes.Node] = [nodes.literal(", ".join(row["calls"]), ", ".join(row["calls"]))]
        else:
            what = [nodes.Text(renderer._(N_("never returned")))]
            if row["folded_into"]:
                what += [nodes.Text(" ("), nodes.Text(renderer._(N_("reports"))), nodes.Text(" "),
                         renderer.code_xref(row["folded_into"]), nodes.Text(")")]
        items += nodes.list_item("", paragraph([nodes.strong(row["label"], row["label"]), nodes.Text(": "), *what,
                                                nodes.Text(" "), *_links(row["sources"])]))
    body.append(items)
    return _item(renderer._(N_("Engines")), body)
