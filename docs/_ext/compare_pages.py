"""Generated parts of the "Python vs C++" and "Code layout" pages, from the registry.

Each function returns MyST text that a hand-written page pulls in with
``{include}``: the prose lives in git, the facts come from the registry.
"""

from __future__ import annotations

from sphinx_llmstatus.registry.layout import FIELDS, KNOWN, decode_layout, neighbour_family
from sphinx_llmstatus.registry.model import LLM_CODE_BASE, Registry, StatusCode


def _role(name: str) -> str:
    return f"{{llm-status}}`{name}`"


def _lit(names: tuple[str, ...] | list[str]) -> str:
    return ", ".join(f"`{n}`" for n in names) or "—"


def _table(header: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(cell.replace("|", "\\|") for cell in row) + " |" for row in rows]
    return "\n".join(lines)


def _directive_table(codes: list[StatusCode], columns: str, api: str | None = None) -> str:
    opts = [f":codes: {', '.join(c.name for c in codes)}", f":columns: {columns}"]
    if api:
        opts.append(f":api: {api}")
    return "```{llm-status-table}\n" + "\n".join(opts) + "\n```"


def differences(registry: Registry) -> str:
    """The groups of differences between the two vendor pages, as MyST."""
    codes = list(registry)
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

    out += ["## Names that differ", "",
            f"{len(renamed)} codes have one number but two spellings. Search and roles accept both.", "",
            _table(["Code", "Python `LLMStatusCode` member", "C++ constant", "Value"],
                   [[_role(c.name), f"`{c.python.name}`", f"`{c.cpp.name}`", f"`{c.hex}`"] for c in renamed]),
            ""]

    out += ["## Recoverable on one page, not on the other", "",
            f"{len(recov)} codes. Only codes that both pages document are compared: a missing row "
            "is no disagreement.", "",
            _directive_table(recov, "name, hex, recoverable, remedy"), ""]

    out += ["## Remedies that really differ", "",
            f"{len(differ)} codes whose pages give different steps, restrict the code to different "
            "manager modes, or name a call or option that has no counterpart on the other page.", "",
            _table(["Code", "Differs in", "Python page modes", "C++ page modes"],
                   [[_role(c.name), ", ".join(d for d in c.disagreements if d in ("modes", "functions", "remedy")),
                     _lit(c.python.modes), _lit(c.cpp.modes)] for c in differ]),
            "", _directive_table(differ, "name, remedy"), ""]

    out += ["## Remedies that name different functions or options", "",
            f"{len(remedy)} codes. Take the remedy of the API you call: the names below are what "
            "each page tells you to call or set (often the same step, spelled for each API).", "",
            _table(["Code", "Python remedy names", "C++ remedy names"],
                   [[_role(c.name), _lit(c.python.functions + c.python.options),
                     _lit(c.cpp.functions + c.cpp.options)] for c in remedy]),
            "", "The full remedies, side by side:", "",
            _directive_table(remedy, "name, remedy"), ""]

    out += ["## Codes one API does not have", "",
            f"Python only ({len(py_only)}): these numbers are not `constexpr Status` constants "
            "(runtime codes, or a Python literal).", "",
            _directive_table(py_only, "name, python, decimal, recoverable, meaning", "python"), "",
            f"C++ only ({len(cpp_only)}): Python has no member for these numbers and raises "
            f"{_role('LLM_FAILED')} instead, so a Python user never sees the name.", "",
            _directive_table(cpp_only, "name, cpp, hex, decimal, meaning", "cpp"), ""]

    out += ["## Codes on one vendor page only, or on neither", "",
            f"On one page only ({len(one_page)}):", "",
            _table(["Code", "Documented by", "Not documented by"],
                   [[_role(c.name), _api_list(c.documented_by),
                     _api_list(tuple(v.api for v in c.views if v.api not in c.documented_by))]
                    for c in one_page]), "",
            f"On neither page ({len(no_page)}): the constants exist in the public sources, "
            "but no vendor page describes them; the text on this site is written from their names "
            "and the headers, and recoverability shows as *not documented*.", "",
            _directive_table(no_page, "name, python, cpp, hex, decimal"), ""]
    return "\n".join(out)


def _api_list(apis: tuple[str, ...]) -> str:
    return ", ".join({"python": "Python page", "cpp": "C++ page"}[a] for a in apis) or "—"


def layout_tables(registry: Registry) -> str:
    """Field table of the layout, one row per registry code with it, and the codes without it."""
    out: list[str] = []
    rows, start = [], 32
    for name, width in FIELDS:
        start -= width
        known = ", ".join(f"{v} = {label}" for v, label in KNOWN.get(name, {}).items()) or "the code number `n`"
        rows.append([f"`{name}`", str(width), f"{start + width - 1}–{start}", known])
    out += ["## The fields", "", _table(["Field", "Bits", "Bit positions", "Value in LLM DataDist codes"], rows), ""]

    # Every row has the same five upper fields, so the table shows them once, above it,
    # and keeps the columns that tell the codes apart (so it fits a page without scrolling).
    upper = [name for name, _ in FIELDS][:-1]
    layout_rows, others, fixed = [], [], None
    for code in registry:
        if not code.is_llm_layout:
            others.append(code)
            continue
        f = decode_layout(code.value).as_dict()
        fixed = fixed or ", ".join(f"`{n}` = {f[n]}" for n in upper)
        layout_rows.append([_role(code.name), f"`{code.hex}`", str(code.value), str(f[FIELDS[-1][0]])])
    out += ["## Every code with the layout", "",
            f"{len(layout_rows)} codes, `0x{LLM_CODE_BASE:08X} + n`. In every row {fixed}; "
            f"the last column is `{FIELDS[-1][0]}`, the code number `n`.", "",
            _table(["Code", "Hex", "Decimal", f"`{FIELDS[-1][0]}` (n)"], layout_rows), ""]

    other_rows = []
    for code in others:
        if code.value < 0:
            why = "negative: a Python literal, never a `uint32` status"
        elif code.value == 0:
            why = "success: all fields zero"
        elif code.value == 0xFFFFFFFF:
            why = "all bits set: the generic failure, `-1` as a signed 32-bit integer"
        else:
            why = f"{neighbour_family(code.value) or 'other family'}: `{decode_layout(code.value).describe()}`"
        other_rows.append([_role(code.name), f"`{code.short_hex or '—'}`", str(code.value), why])
    out += ["## Codes without the layout", "",
            _table(["Code", "Hex", "Decimal", "Why"], other_rows), ""]
    return "\n".join(out)
