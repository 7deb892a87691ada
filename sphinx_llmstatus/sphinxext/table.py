"""Code tables: ``.. llm-status::`` without an argument, or ``.. llm-status-table::``.

Options: ``:api: python|cpp|both`` (which API's rows and text; default both),
``:codes:`` (any lookup forms, comma or space separated; default all),
``:recoverable: yes|no``, ``:documented:`` (only rows of the chosen API
pages), ``:columns:`` (from :data:`.content.COLUMNS`), ``:lang: en|zh``.
Each row is a fallback target for roles; the name cell links to the code's
entry when the project has one.
"""

from __future__ import annotations

import difflib
from typing import Any, ClassVar

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx.util.docutils import SphinxDirective
from sphinx.util.typing import OptionSpec

from ..registry.lookup import UnknownStatusCode, filter_codes, lookup
from ..registry.model import StatusCode
from .config import settings
from .content import COLUMNS, DEFAULT_COLUMNS, Renderer
from .diagnostics import Subtype, warn
from .domain import LLMDomain, row_anchor
from .options import api_option, lang_option, name_list, option, recoverable_option
from .state import doc_lang, get_registry, note_registry_dependency

TABLE_OPTIONS: dict[str, Any] = {
    "codes": name_list,
    "recoverable": recoverable_option,
    "documented": directives.flag,
    "columns": name_list,
}


def render_table(directive: SphinxDirective) -> list[nodes.Node]:
    """Build the table for ``directive`` (its options as in the module docstring)."""
    env, options = directive.env, directive.options
    registry = get_registry(env)
    location = directive.get_location()
    apis = option(directive, "api", ("python", "cpp"))
    recoverable = option(directive, "recoverable", None)
    codes = _select_codes(registry, options, apis, recoverable, location)
    columns = _columns(options.get("columns"), location)
    lang = doc_lang(env, option(directive, "lang", None))
    renderer = Renderer(env, registry, lang, settings(env.config).project_lang)

    domain: LLMDomain = env.get_domain("llm")  # type: ignore[assignment]
    document = directive.state.document

    def row_id(code: StatusCode) -> str:
        node_id = row_anchor(code.name)
        if node_id in document.ids:  # a second table of the same page: no second target
            return ""
        domain.note_row(code.name, node_id, directive.lineno)
        return node_id

    table = renderer.code_table(codes, columns, apis, row_id)
    for row in table.findall(nodes.row):
        if "" in row["ids"]:
            row["ids"].remove("")
        if row["ids"]:
            document.set_id(row)
    directive.set_source_info(table)
    return [table]


def _select_codes(registry, options, apis, recoverable, location) -> list[StatusCode]:
    wanted = options.get("codes")
    if wanted:
        codes: list[StatusCode] = []
        for word in wanted:
            try:
                code = lookup(word, registry)[0].code
            except UnknownStatusCode as exc:
                warn(f":codes: {exc.reason()}", Subtype.unknown_code, location=location)
                continue
            if code not in codes:
                codes.append(code)
    else:
        codes = list(registry)
    return filter_codes(codes, api=apis, recoverable=recoverable,
                        documented="documented" in options)


def _columns(requested: list[str] | None, location) -> list[str]:
    if not requested:
        return list(DEFAULT_COLUMNS)
    out = []
    for col in requested:
        col = col.lower()
        if col in COLUMNS:
            out.append(col)
            continue
        close = difflib.get_close_matches(col, list(COLUMNS), n=1)
        hint = f"; did you mean {close[0]!r}?" if close else ""
        warn(f":columns: unknown column {col!r} (choose from {', '.join(COLUMNS)}){hint}",
             Subtype.option, location=location)
    return out or list(DEFAULT_COLUMNS)


class StatusTableDirective(SphinxDirective):
    """``.. llm-status-table::``: a code table (same options as ``.. llm-status::`` without argument)."""

    has_content = False
    option_spec: ClassVar[OptionSpec] = {**TABLE_OPTIONS, "api": api_option, "lang": lang_option}

    def run(self) -> list[nodes.Node]:
        note_registry_dependency(self.env)
        return render_table(self)

