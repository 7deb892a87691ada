"""The "what do I do now" parts of a code's entry, from the registry's field knowledge (issue #9).

Five sections, each only when the registry has something for the code:

``causes``
    "Causes and checks": per cause, when it happens, what to check, what fixed
    it, where it applies and its sources (links);
``settings``
    the settings that govern the code (option, config, environment variable or
    framework setting), with unit, default and how to set it;
``frameworks``
    "What frameworks do": how serving frameworks react to the code;
``origins``
    "Where it comes from": what to do, which engine returns the code from which
    calls, how upper layers report it, other libraries' names for it
    (:mod:`.origins`);
``reports``
    "Seen in public reports": the public issues and threads the above cite.

Only standard docutils nodes (rubric, definition and field lists, paragraphs,
references), so every builder and MyST render them; the headings go through
the gettext catalog like every other label. In HTML each section folds
(``<details>``, its heading the summary): an entry with nine causes was
7,000 pixels tall. Raw HTML nodes, which every other builder leaves out, make
the fold, so the PDF, the text and the man page show every section whole;
``llmstatus.js`` opens the folds when a page is printed.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from docutils import nodes

from ..registry.model import ApiView, Cause, FrameworkNote, Setting, Source, StatusCode
from ..render.causes import log_evidence
from .content import paragraph
from .labels import N_
from .options import SECTION_CHOICES

if TYPE_CHECKING:
    from .content import Renderer

#: Section names for ``:sections:``, in the order they render.
SECTIONS = SECTION_CHOICES

_API_LABEL = {"python": "Python", "cpp": "C++"}


def details(renderer: Renderer, code: StatusCode, views: Sequence[ApiView],
            sections: Iterable[str] = SECTIONS) -> list[nodes.Node]:
    """Nodes of the chosen ``sections`` (see :data:`SECTIONS`) for ``code`` as seen by ``views``."""
    return [node for section in _sections(renderer, code, views, set(sections)) for node in _fold(section)]


def _fold(section: list[nodes.Node]) -> list[nodes.Node]:
    """``section`` (a heading, then its body) as an HTML ``<details>`` whose summary is the heading."""
    def html(markup: str) -> nodes.raw:
        return nodes.raw("", markup, format="html")

    head, *body = section
    return [html('<details class="llmstatus-fold">'), html("<summary>"), head, html("</summary>"), *body,
            html("</details>")]


def _sections(renderer: Renderer, code: StatusCode, views: Sequence[ApiView],
              wanted: set[str]) -> list[list[nodes.Node]]:
    """Each chosen section as its heading and body, in the order of :data:`SECTIONS`."""
    apis = {v.api for v in views}
    out: list[list[nodes.Node]] = []
    causes = _causes(views)
    settings = [s for s in code.settings if s.api is None or s.api in apis]
    if "causes" in wanted and causes:
        out.append(_section(renderer, N_("Causes and checks"), "causes",
                            [_cause(renderer, cause, api) for cause, api in causes]))
    if "settings" in wanted and settings:
        out.append(_section(renderer, N_("Settings"), "settings", [_setting(renderer, s) for s in settings]))
    if "frameworks" in wanted and code.frameworks:
        out.append(_section(renderer, N_("What frameworks do"), "frameworks",
                            [_framework(renderer, note) for note in code.frameworks]))
    if "origins" in wanted:
        from .origins import origins

        found = origins(renderer, code, views)
        if found:
            out.append(found)
    reports = _issues([*(c for c, _api in causes), *settings, *code.frameworks,
                       *(r for v in views for r in v.readings)])
    if "reports" in wanted and reports:
        items = nodes.bullet_list(classes=["llmstatus-reports"])
        for source in reports:
            items += nodes.list_item("", paragraph([_link(renderer, source)]))
        out.append([_rubric(renderer, N_("Seen in public reports"), "reports"), items])
    return out


def _causes(views: Sequence[ApiView]) -> list[tuple[Cause, str | None]]:
    """Causes of all views, each once; a cause only one of two views has is marked with its API."""
    out: dict[Cause, list[str]] = {}
    for view in views:
        for cause in view.causes:
            out.setdefault(cause, []).append(view.api)
    both = len(views) > 1
    return [(cause, apis[0] if both and len(apis) == 1 else None) for cause, apis in out.items()]


def _rubric(renderer: Renderer, label: str, name: str) -> nodes.rubric:
    text = renderer._(label)
    return nodes.rubric(text, text, classes=[f"llmstatus-{name}-heading"])


def _section(renderer: Renderer, label: str, name: str, items: list[nodes.definition_list_item]) -> list[nodes.Node]:
    return [_rubric(renderer, label, name), nodes.definition_list("", *items, classes=[f"llmstatus-{name}"])]


def _item(term: list[nodes.Node], body: list[nodes.Node]) -> nodes.definition_list_item:
    return nodes.definition_list_item("", nodes.term("", "", *term), nodes.definition("", *body))


def _fields(renderer: Renderer, rows: list[tuple[str, list[nodes.Node]]]) -> nodes.field_list:
    fields = nodes.field_list()
    for label, body in rows:
        text = renderer._(label)
        fields += nodes.field("", nodes.field_name(text, text), nodes.field_body("", paragraph(body)))
    return fields


def _link(renderer: Renderer, source: Source) -> nodes.reference:
    title = source.title.get(renderer.lang)
    return nodes.reference(title, title, refuri=source.url, internal=False, classes=["llmstatus-external"])


def _links(renderer: Renderer, sources: Sequence[Source]) -> list[nodes.Node]:
    out: list[nodes.Node] = []
    for i, source in enumerate(sources):
        if i:
            out.append(nodes.Text("; "))
        out.append(_link(renderer, source))
    return out


def _cause(renderer: Renderer, cause: Cause, api: str | None) -> nodes.definition_list_item:
    term = renderer.inline(cause.when.get(renderer.lang))
    if api:
        term = [nodes.strong("", f"{_API_LABEL[api]}:"), nodes.Text(" "), *term]
    rows: list[tuple[str, list[nodes.Node]]] = [
        (N_("Check"), renderer.inline(cause.check.get(renderer.lang))),
        (N_("Fix"), renderer.inline(cause.fix.get(renderer.lang))),
    ]
    applies = _applies_to(renderer, cause)
    if applies:
        rows.append((N_("Applies to"), [nodes.Text(applies)]))
    rows += [(word, renderer.inline(text)) for word, text in log_evidence(cause, renderer.lang)]
    rows.append((N_("Sources"), _links(renderer, cause.sources)))
    return _item(term, [_fields(renderer, rows)])


def _applies_to(renderer: Renderer, cause: Cause) -> str:
    scope = cause.applies_to
    parts = []
    if scope.frameworks:
        parts.append(", ".join(scope.frameworks))
    if scope.modes:
        parts.append(renderer._(N_("modes")) + ": " + ", ".join(scope.modes))
    if scope.versions:
        parts.append(scope.versions)
    return "; ".join(parts)


def _setting(renderer: Renderer, setting: Setting) -> nodes.definition_list_item:
    facts = [renderer._(_KIND[setting.kind])]
    if setting.api:
        facts.append(_API_LABEL[setting.api])
    if setting.unit:
        facts.append(renderer._(N_("unit")) + ": " + setting.unit)
    if setting.default is not None:
        facts.append(renderer._(N_("default")) + ": " + setting.default)
    term: list[nodes.Node] = [renderer.api_name(setting.name), nodes.Text(f" ({', '.join(facts)})")]
    body: list[nodes.Node] = [paragraph(renderer.inline(setting.about.get(renderer.lang))),
            _fields(renderer, [(N_("Sources"), _links(renderer, setting.sources))])]
    return _item(term, body)


_KIND = {
    "option": N_("API option"),
    "config": N_("configuration"),
    "env": N_("environment variable"),
    "framework": N_("framework setting"),
}


def _framework(renderer: Renderer, note: FrameworkNote) -> nodes.definition_list_item:
    body: list[nodes.Node] = [paragraph(renderer.inline(note.does.get(renderer.lang))),
            _fields(renderer, [(N_("Sources"), _links(renderer, note.sources))])]
    return _item([nodes.Text(note.framework)], body)


def _issues(items: Iterable[Cause | Setting | FrameworkNote | object]) -> list[Source]:
    """Sources of kind ``issue`` the items cite, each once, in order."""
    seen: dict[str, Source] = {}
    for item in items:
        cited = getattr(item, "sources", None) or ((item.source,) if hasattr(item, "source") else ())
        for source in cited:
            if source.kind == "issue":
                seen.setdefault(source.key, source)
    return list(seen.values())
