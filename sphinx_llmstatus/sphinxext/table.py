"""Code tables: ``.. llm-status::`` without an argument, or ``.. llm-status-table::``.

Options: ``:api: python|cpp|both`` (which API's rows and text; default both),
``:codes:`` (any lookup forms, comma or space separated; default all),
``:family:`` (a family of the registry, ``hixl``, ``hccl``..., or ``all``; default
LLM DataDist's codes, or every family of the codes ``:codes:`` names),
``:recoverable: yes|no``, ``:documented:`` (only rows of the chosen API
pages), ``:columns:`` (from :data:`.content.COLUMNS`), ``:lang: en|zh``.
Each row is a fallback target for roles; the name cell links to the code's
entry when the project has one.

The table is laid out for its reader, so that every column fits a desktop
page (about 700 px of text in furo at 1280 px) instead of hiding behind a
sideways scrollbar. Related columns share one cell:

* ``name``, ``python``, ``cpp``: one *Code* cell, the name once when both
  APIs spell it alike, each API's spelling on its own line when they differ,
  and "Python only" / "C++ only" when a code exists in one API (a table of
  one API, ``:api: python``, shows that API's spelling only);
* ``hex``, ``decimal``: one *Number* cell, hex above decimal;
* ``meaning``, ``remedy``: one cell, the remedy as a second paragraph;
* ``recoverable``: one badge when the APIs agree, one line per API when not.
"""

from __future__ import annotations

import difflib
from typing import Any, ClassVar

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx.util.docutils import SphinxDirective
from sphinx.util.typing import OptionSpec

from ..registry.lookup import UnknownStatusCode, filter_codes, lookup
from ..registry.model import LLM_DATADIST, StatusCode
from ..view.links import row_anchor
from .config import settings
from .content import _API_LABEL, COLUMNS, DEFAULT_COLUMNS, Renderer, build_table, paragraph
from .diagnostics import Subtype, warn
from .domain import LLMDomain
from .labels import N_
from .options import api_option, lang_option, name_list, option, recoverable_option
from .state import doc_lang, get_registry, note_registry_dependency

TABLE_OPTIONS: dict[str, Any] = {
    "codes": name_list,
    "family": directives.unchanged_required,
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

    table = code_table(renderer, codes, columns, apis, row_id)
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
    family = options.get("family", "all" if wanted else LLM_DATADIST).strip()
    if family != "all" and family not in registry.families:
        warn(f":family: unknown family {family!r} (choose from {', '.join(registry.families)} or all)",
             Subtype.option, location=location)
        family = LLM_DATADIST
    return filter_codes(codes, api=apis, recoverable=recoverable,
                        documented="documented" in options, family=None if family == "all" else family)


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


#: The cells of a table: each requested column goes into the first group it belongs to.
_GROUPS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("name", ("name", "python", "cpp")),
    ("number", ("hex", "decimal")),
    ("recoverable", ("recoverable",)),
    ("text", ("meaning", "remedy")),
)
_ONLY = {"python": N_("Python only"), "cpp": N_("C++ only")}


def code_table(renderer: Renderer, codes, columns, apis, row_id) -> nodes.table:
    """A table of ``codes`` (docutils nodes) with ``columns`` grouped as the module docstring says.

    ``apis``: the APIs whose views are shown; ``row_id(code)`` gives each row's
    anchor ("" for none). Column widths (``colspec``) are characters for the
    text builder and ratios for the others.
    """
    _ = renderer._
    groups = [(key, [c for c in members if c in columns]) for key, members in _GROUPS]
    groups = [(key, cols) for key, cols in groups if cols]
    groups.sort(key=lambda group: min(columns.index(c) for c in group[1]))
    header = [_(_group_title(key, cols)) for key, cols in groups]
    rows, ids = [], []
    for code in codes:
        views = [v for v in code.views if v.api in apis]
        rows.append([_group_cell(renderer, code, views, key, cols, apis) for key, cols in groups])
        ids.append(row_id(code))
    widths = [max(_group_width(key, cols, codes), len(h) + 2) for (key, cols), h in zip(groups, header)]
    table = build_table(header, rows, widths, classes=["llmstatus-table"], row_ids=ids)
    table["llmstatus_columns"] = [key for key, _cols in groups]  # LaTeX column spec (printing.py)
    table["llmstatus_name_chars"] = _group_width("name", ["name"], codes) - 2
    return table


def _group_title(key: str, cols: list[str]) -> str:
    if key == "number" and len(cols) == 2:
        return N_("Number")
    if key == "text" and len(cols) == 2:
        return N_("Meaning and remedy")
    if key == "name":
        return COLUMNS["name"] if "name" in cols or len(cols) > 1 else COLUMNS[cols[0]]
    return COLUMNS[cols[0]]


def _group_cell(renderer: Renderer, code: StatusCode, views, key: str, cols: list[str], apis) -> list[nodes.Node]:
    _ = renderer._
    colon = "：" if renderer.lang == "zh" else ": "
    if key == "name":
        if len(views) == 1 and len(apis) == 1:  # a one-API table names the code as that API spells it
            return [paragraph([renderer.code_xref(code.name, text=views[0].name)])]
        out: list[nodes.Node] = [paragraph([renderer.code_xref(code.name)])]
        shown = [v for v in views if v.api in cols or "name" in cols]
        if any(v.name != code.name for v in shown):
            for v in shown:
                out.append(paragraph([nodes.Text(_API_LABEL[v.api] + colon),
                                      nodes.literal(v.name, v.name, classes=["llmstatus-name"])],
                                     ["llmstatus-api-name"]))
        # "C++ only" tells an LLM DataDist reader which API lacks the code; another layer's codes
        # have one API each, so there it would only be noise.
        if len(apis) > 1 and len(views) == 1 and code.family == LLM_DATADIST:
            only = _(_ONLY[views[0].api])
            out.append(paragraph([nodes.inline(only, only)], ["llmstatus-only"]))
        return out
    if key == "number":
        parts: list[nodes.Node] = []
        if "hex" in cols and code.hex:
            parts.append(nodes.literal(code.hex, code.hex, classes=["llmstatus-hex"]))
        if "decimal" in cols or not code.hex:
            if parts:
                parts.append(nodes.Text(" "))
            parts.append(nodes.literal(str(code.value), str(code.value), classes=["llmstatus-decimal"]))
        return [paragraph(parts, ["llmstatus-number"])]
    if key == "recoverable":
        verdicts = {v.recoverable for v in views}
        if len(verdicts) == 1:
            return [paragraph([renderer.badge(verdicts.pop())])]
        return [paragraph([nodes.Text(f"{_API_LABEL[v.api]} "), renderer.badge(v.recoverable)],
                          ["llmstatus-api-verdict"]) for v in views]
    out = []
    for field in cols:  # meaning, then remedy
        texts = {getattr(v, field).get(renderer.lang) for v in views}
        lead: list[nodes.Node] = []
        if len(cols) == 2 and field == "remedy":
            lead = [nodes.strong("", _(COLUMNS["remedy"])), nodes.Text(colon)]
        if len(texts) == 1:
            out.append(paragraph(lead + renderer.inline(texts.pop()), [f"llmstatus-{field}"]))
            continue
        # The APIs disagree: one paragraph each, so the two texts read apart.
        for v in views:
            out.append(paragraph(lead + [nodes.strong("", _API_LABEL[v.api]), nodes.Text(colon),
                                         *renderer.inline(getattr(v, field).get(renderer.lang))],
                                 [f"llmstatus-{field}"]))
    return out


def _group_width(key: str, cols: list[str], codes) -> int:
    """Width in characters: what the text builder uses as is, other writers as ratios.

    The name column fits the longest name (plus the quotes the text writer
    adds), so ``LLM_CLUSTER_NUM_EXCEED_LIMIT`` is never broken in plain text.
    """
    if key == "name":
        names = [len(c.name) for c in codes]
        names += [len(v.name) + 8 for c in codes for v in c.views if v.name != c.name]
        return max(names, default=8) + 2
    if key == "number":
        return 12
    if key == "recoverable":
        return 22  # "C++ not recoverable" on one line
    return 60 if len(cols) == 2 else 40


class StatusTableDirective(SphinxDirective):
    """``.. llm-status-table::``: a code table (same options as ``.. llm-status::`` without argument)."""

    has_content = False
    option_spec: ClassVar[OptionSpec] = {**TABLE_OPTIONS, "api": api_option, "lang": lang_option}

    def run(self) -> list[nodes.Node]:
        note_registry_dependency(self.env)
        return render_table(self)

