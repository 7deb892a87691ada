"""Generated parts of the "Python vs C++" and "Code layout" pages, from the registry.

Each function returns MyST text that a hand-written page pulls in with
``{include}``: the prose lives in git, the facts come from the registry.
"""

from __future__ import annotations

from site_i18n import _
from site_i18n import lang as _lang

from sphinx_llmstatus.registry import schema
from sphinx_llmstatus.registry.layout import FIELDS, KNOWN, decode_layout
from sphinx_llmstatus.registry.model import LLM_CODE_BASE, LLM_DATADIST, Registry, StatusCode


def _role(name: str) -> str:
    return f"{{llm-status}}`{name}`"


def _lit(names: tuple[str, ...] | list[str]) -> str:
    return ", ".join(f"`{n}`" for n in names) or "—"


def _table(header: list[str], rows: list[list[str]], shares: list[int] | None = None, small: bool = False) -> str:
    """A Markdown table; in the PDF its columns take ``shares`` of the width (default: the first
    38%, which holds code names whole, the rest split evenly), ragged right, and ``small`` sets it
    in a smaller font (a table of many narrow columns)."""
    rest = len(header) - 1
    shares = shares or [38] + [62 // rest] * rest
    spec = "".join(rf">{{\raggedright\arraybackslash}}\X{{{s}}}{{{sum(shares)}}}" for s in shares)
    lines = ["```{tabularcolumns} " + spec, "```", "", "| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(cell.replace("|", "\\|") for cell in row) + " |" for row in rows]
    if small:
        # conf.py sets every table in \small at its start: within this group, \small is \scriptsize.
        lines = ["```{raw} latex", r"\begingroup\let\small\scriptsize", "```", "", *lines, "",
                 "```{raw} latex", r"\endgroup", "```"]
    return "\n".join(lines)


def _directive_table(codes: list[StatusCode], columns: str, api: str | None = None) -> str:
    opts = [f":codes: {', '.join(c.name for c in codes)}", f":columns: {columns}"]
    if api:
        opts.append(f":api: {api}")
    return "```{llm-status-table}\n" + "\n".join(opts) + "\n```"


def differences(registry: Registry) -> str:
    """The groups of differences between the two vendor pages, as MyST."""
    codes = list(registry.in_family(LLM_DATADIST))
    both = [c for c in codes if c.python and c.cpp]
    renamed = [c for c in both if "name" in c.disagreements]
    recov = [c for c in both if "recoverable" in c.disagreements]
    differ = [c for c in both if set(c.disagreements) & {"modes", "functions", "remedy"}]
    remedy = [c for c in both if c.names_differ]
    py_only = [c for c in codes if c.python and not c.cpp]
    cpp_only = [c for c in codes if c.cpp and not c.python]
    one_page = [c for c in codes if len(c.documented_by) == 1]
    no_page = [c for c in codes if not c.documented_by]
    out: list[str] = []

    out += ["## " + _("Names that differ"), "",
            _("{n} codes have one number but two spellings. Search and roles accept both.").format(n=len(renamed)),
            "",
            _table([_("Code"), _("Python `LLMStatusCode` member"), _("C++ constant"), _("Value")],
                   [[_role(c.name), f"`{c.python.name}`", f"`{c.cpp.name}`", f"`{c.hex}`"] for c in renamed],
                   shares=[29, 29, 29, 13]),  # three names of up to 24 characters, each whole
            ""]

    out += ["## " + _("Recoverable on one page, not on the other"), "",
            _("{n} codes. Only codes that both pages document are compared: a missing row "
              "is no disagreement.").format(n=len(recov)), "",
            _directive_table(recov, "name, hex, recoverable, remedy"), ""]

    out += ["## " + _("Remedies that really differ"), "",
            _("{n} codes whose pages give different steps, restrict the code to different "
              "manager modes, or name a call or option that has no counterpart on the other page.").format(
                n=len(differ)), "",
            _table([_("Code"), _("Differs in"), _("Python page modes"), _("C++ page modes")],
                   [[_role(c.name), ", ".join(_(d) for d in c.disagreements if d in ("modes", "functions", "remedy")),
                     _lit(c.python.modes), _lit(c.cpp.modes)] for c in differ]),
            "", _directive_table(differ, "name, remedy"), ""]

    out += ["## " + _("Remedies that name different functions or options"), "",
            _("{n} codes. Take the remedy of the API you call: the names below are what "
              "each page tells you to call or set (often the same step, spelled for each API).").format(
                n=len(remedy)), "",
            _table([_("Code"), _("Python remedy names"), _("C++ remedy names")],
                   [[_role(c.name), _lit(c.python.functions + c.python.options),
                     _lit(c.cpp.functions + c.cpp.options)] for c in remedy]),
            "", _("The full remedies, side by side:"), "",
            _directive_table(remedy, "name, remedy"), ""]

    out += ["## " + _("Codes one API does not have"), "",
            _("Python only ({n}): these numbers are not `constexpr Status` constants "
              "(runtime codes, or a Python literal).").format(n=len(py_only)), "",
            _directive_table(py_only, "name, python, decimal, recoverable, meaning", "python"), "",
            _("C++ only ({n}): Python has no member for these numbers and raises "
              "{failed} instead, so a Python user never sees the name.").format(
                n=len(cpp_only), failed=_role("LLM_FAILED")), "",
            _directive_table(cpp_only, "name, cpp, hex, decimal, meaning", "cpp"), ""]

    out += ["## " + _("Codes on one vendor page only, or on neither"), "",
            _("On one page only ({n}):").format(n=len(one_page)), "",
            _table([_("Code"), _("Documented by"), _("Not documented by")],
                   [[_role(c.name), _api_list(c.documented_by),
                     _api_list(tuple(v.api for v in c.views if v.api not in c.documented_by))]
                    for c in one_page]), "",
            _("On neither page ({n}): the constants exist in the public sources, "
              "but no vendor page describes them; the text on this site is written from their names "
              "and the headers, and recoverability shows as *not documented*.").format(n=len(no_page)), "",
            _directive_table(no_page, "name, python, cpp, hex, decimal"), ""]
    return "\n".join(out)


def _api_list(apis: tuple[str, ...]) -> str:
    return ", ".join({"python": _("Python page"), "cpp": _("C++ page")}[a] for a in apis) or "—"


def layout_tables(registry: Registry) -> str:
    """Field table of the layout, one row per registry code with it, and the codes without it."""
    out: list[str] = []
    rows, start = [], 32
    for name, width in FIELDS:
        start -= width
        known = ", ".join(f"{v} = {_(label)}" for v, label in KNOWN.get(name, {}).items()) or _("the code number `n`")
        rows.append([f"`{name}`", str(width), f"{start + width - 1}–{start}", known])
    out += ["## " + _("The fields"), "",
            _table([_("Field"), _("Bits"), _("Bit positions"), _("Value in LLM DataDist codes")], rows), ""]

    # Every row has the same five upper fields, so the table shows them once, above it,
    # and keeps the columns that tell the codes apart (so it fits a page without scrolling).
    upper = [name for name, _ in FIELDS][:-1]
    layout_rows, others, fixed = [], [], None
    for code in registry.in_family(LLM_DATADIST):
        if not code.is_llm_layout:
            others.append(code)
            continue
        f = decode_layout(code.value).as_dict()
        fixed = fixed or ", ".join(f"`{n}` = {f[n]}" for n in upper)
        layout_rows.append([_role(code.name), f"`{code.hex}`", str(code.value), str(f[FIELDS[-1][0]])])
    out += ["## " + _("Every code with the layout"), "",
            _("{n} codes, `{base} + n`. In every row {fixed}; the last column is `{field}`, "
              "the code number `n`.").format(n=len(layout_rows), base=f"0x{LLM_CODE_BASE:08X}",
                                             fixed=fixed, field=FIELDS[-1][0]), "",
            _table([_("Code"), _("Hex"), _("Decimal"), f"`{FIELDS[-1][0]}` (n)"], layout_rows), ""]

    other_rows = []
    for code in others:
        if code.value < 0:
            why = _("negative: a Python literal, never a `uint32` status")
        elif code.value == 0:
            why = _("success: all fields zero")
        elif code.value == 0xFFFFFFFF:
            why = _("all bits set: the generic failure, `-1` as a signed 32-bit integer")
        else:
            family = registry.family_of_number(code.value)
            why = f"{family.label.get(_lang()) if family else _('other family')}: `{decode_layout(code.value).describe()}`"
        other_rows.append([_role(code.name), f"`{code.short_hex or '—'}`", str(code.value), why])
    out += ["## " + _("Codes without the layout"), "",
            _table([_("Code"), _("Hex"), _("Decimal"), _("Why")], other_rows), ""]
    return "\n".join(out)


def engines_matrix(registry: Registry) -> str:
    """The code x engine x call matrix (``docs/engines.md`` includes it): which engine of LLM DataDist
    returns which code (the matrix), and from which calls (a list per engine below it)."""
    engines = list(registry.engines.values())
    lang = _lang()
    out = ["## " + _("The engines"), ""]
    for engine in engines:
        modes = ", ".join(f"`{m}`" for m in engine.modes)
        out += [f"**{engine.label.get(lang)}**" + (f" ({modes})" if modes else "") + ": "
                + engine.about.get(lang), ""]
    rows, calls = [], {e.key: [] for e in engines}
    for code in registry.in_family(LLM_DATADIST):
        by_engine = {r.engine: r for r in registry.returns_of(code)}
        if not by_engine:
            continue
        cells = []
        for engine in engines:
            row = by_engine.get(engine.key)
            if row is None:
                cells.append("")
            elif row.never:
                cells.append(f"→ {_role(row.folded_into)}" if row.folded_into else "—")
            else:
                cells.append("✓")
                calls[engine.key].append(f"- {_role(code.name)}: " + ", ".join(f"`{c}`" for c in row.calls))
        rows.append([_role(code.name), *cells])
    out += ["## " + _("Which engine returns which code"), "",
            _("✓: the engine returns the code; —: it never does; → a code: it never does, and reports that code "
              "instead. The calls "
              "that return each code are listed per engine below, and every cell is cited on the code's page, "
              "under \"Where it comes from\"."), "",
            _table([_("Code"), *(e.label.get(lang) for e in engines)], rows,
                   shares=[28] + [72 // len(engines)] * len(engines), small=True), ""]
    out += ["## " + _("The calls that return each code"), ""]
    for engine in engines:
        out += [f"### {engine.label.get(lang)}", "", *calls[engine.key], ""]
    return "\n".join(out)


def field_reference() -> str:
    """The registry's field reference (``docs/registry.md`` includes it), from its schema."""
    out = []
    for table, doc, fields in schema.reference():
        rows = [[f"`{key}`", kind + (", " + _("required") if required else ""), meaning]
                for key, kind, required, meaning in fields]
        out += [f"### `{table}`", "", doc, "", _table([_("Key"), _("Type"), _("Meaning")], rows, shares=[22, 30, 48]),
                ""]
    return "\n".join(out)
