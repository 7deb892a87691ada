"""Markdown for status codes (the ``text/markdown`` of notebook output; no Sphinx).

Front-ends render raw HTML inside Markdown, so every string from the registry
or the user is HTML-escaped and then has its Markdown punctuation
backslash-escaped; registry `backticks` become ``<code>`` around the escaped
text (a Markdown code span would show the entities literally). Newlines in
table cells become spaces so a hostile string cannot break the table.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterable, Sequence

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ..scan.hit import Hit
    from ..view.diagnosis import DiagnosisLine

from ..registry.model import RECOVERABLE_VALUES, Source, StatusCode
from .html import CARD_COLUMNS, HIT_COLUMNS, HitRow
from .labels import N_, api_label, label, scan_title
from .text import terminal_safe

_BACKTICK_RE = re.compile(r"`([^`]+)`")
# Inline Markdown syntax; block markers (#, -, +, =, !) only matter at the start
# of a line, handled in esc(); < > & are HTML-escaped.
_MD_SPECIAL = "\\`*_[]|~"  # (the backslash first: escaping the others adds one)
_SPACE_RE = re.compile(r"\s+")
_URL_UNSAFE_RE = re.compile(r"[\s\x00-\x1f\x7f-\x9f<>\\]")


def esc(text: object) -> str:
    """Plain text as inert Markdown: HTML-escaped, punctuation backslash-escaped, one line."""
    flat = str(text)
    if not flat.isprintable() or "  " in flat:  # (else its only spaces are single ones: a log line's)
        flat = terminal_safe(_SPACE_RE.sub(" ", flat))
    out = html.escape(flat, quote=True)
    for c in _MD_SPECIAL:  # (a scan of the text each, in C: faster than one substitution)
        if c in out:
            out = out.replace(c, "\\" + c)
    return "\\" + out if out[:1] in ("#", "-", "+", "=", "!") else out


def url(address: str) -> str:
    """A link target for ``[text](<...>)``: whitespace, controls and ``<>`` percent-encoded, then HTML-escaped.

    A newline in a registry URL would otherwise end the link and start new
    Markdown (an image, a heading) on the next line.
    """
    return html.escape(_URL_UNSAFE_RE.sub(_percent, address), quote=True)


def _percent(m: re.Match[str]) -> str:
    return "".join(f"%{b:02X}" for b in m.group().encode("utf-8", "surrogatepass"))


def rich(text: str) -> str:
    """Registry text: escaped, with `backticked` names as ``<code>``."""
    out, pos = [], 0
    for m in _BACKTICK_RE.finditer(text):
        out.append(esc(text[pos : m.start()]))
        out.append(f"<code>{esc(m.group(1))}</code>")
        pos = m.end()
    out.append(esc(text[pos:]))
    return "".join(out)


def _code(text: str) -> str:
    return f"<code>{esc(text)}</code>"


def _row(cells: Iterable[str]) -> str:
    return "| " + " | ".join(cells) + " |"


def _rule(n: int) -> str:
    return "|" + "---|" * n


def card(code: StatusCode, lang: str, reading: str | None = None) -> str:
    """One code as Markdown: heading line, a per-API table, related codes and note."""
    head = f"**{_code(code.name)}**"
    numbers = ([code.hex] if code.hex else []) + ([str(code.value)] if code.value is not None else [])
    head += " " + " · ".join(esc(n) for n in numbers)
    if reading and reading not in ("name", "decimal", "hex"):
        head += f" ({esc(label('read as', lang))} {esc(reading)})"
    lines = [head, "", _row(esc(label(k, lang)) for k in CARD_COLUMNS), _rule(len(CARD_COLUMNS))]
    for view in code.views:
        source = _link(view.source, lang)
        if not view.documented:
            source += f" ({esc(label('not on the vendor page', lang))})"
        lines.append(
            _row(
                [
                    esc(api_label(view.api)), _code(view.name), esc(label(view.recoverable, lang)),
                    rich(view.meaning.get(lang)), rich(view.remedy.get(lang)), source,
                ]
            )
        )
    if code.related:
        lines += ["", f"**{esc(label('Related codes', lang))}:** " + ", ".join(_code(r) for r in code.related)]
    if code.note is not None:
        lines += ["", f"**{esc(label('Note', lang))}:** {rich(code.note.get(lang))}"]
    lines += _rows(code, lang)
    lines += _causes(code, lang)
    return "\n".join(lines) + "\n"


def _rows(code: StatusCode, lang: str) -> list[str]:
    """The card's layer, action, engine, "reported as" and spelling rows (view/origins.py)."""
    from ..view.origins import layer_row, origin_rows

    layer = layer_row(code, lang)
    rows = ([layer] if layer else []) + origin_rows(code, lang)
    return ["", *(f"- **{esc(name)}:** {esc(text)}" if name else f"- {esc(text)}" for name, text in rows)] if rows else []


def _link(source: Source, lang: str) -> str:
    return f"[{esc(source.title.get(lang))}](<{url(source.url)}>)"


def _causes(code: StatusCode, lang: str) -> list[str]:
    """Causes as a numbered list (one line each), then settings and framework notes."""
    from .causes import applies_to, causes, log_evidence, setting_head

    def part(word: str, body: str) -> str:
        return f"**{esc(label(word, lang))}:** {body}"

    out: list[str] = []
    found = causes(code)
    if found:
        out += ["", f"**{esc(label('Causes and checks', lang))}:**", ""]
    for i, (apis, cause) in enumerate(found, 1):
        where = applies_to(cause, apis, len(code.views))
        parts = [part(N_("When"), rich(cause.when.get(lang))), part(N_("Check"), rich(cause.check.get(lang))),
                 part(N_("Fix"), rich(cause.fix.get(lang)))]
        if where:
            parts.append(part(N_("Applies to"), esc(where)))
        parts += [part(word, rich(text)) for word, text in log_evidence(cause, lang)]
        parts.append(part(N_("Sources"), ", ".join(_link(s, lang) for s in cause.sources)))
        out.append(f"{i}. " + " ".join(parts))
    settings = getattr(code, "settings", ())
    if settings:
        out += ["", f"**{esc(label('Settings', lang))}:**", ""]
        out += [f"- {esc(setting_head(s, lang))}: {rich(s.about.get(lang))} "
                f"({', '.join(_link(src, lang) for src in s.sources)})" for s in settings]
    notes = getattr(code, "frameworks", ())
    if notes:
        out += ["", f"**{esc(label('What frameworks do', lang))}:**", ""]
        out += [f"- {esc(n.framework)}: {rich(n.does.get(lang))} ({', '.join(_link(src, lang) for src in n.sources)})"
                for n in notes]
    return out


def cards(matches: Sequence[tuple[StatusCode, str | None]], lang: str, query: str | None = None) -> str:
    """Several cards separated by rules; with more than one, a first line counts the meanings."""
    parts = []
    if query is not None and len(matches) > 1:
        parts.append(f"**{esc(label('{query}: {n} meanings', lang, query=query, n=len(matches)))}**\n")
    parts += [card(code, lang, reading) for code, reading in matches]
    return "\n---\n\n".join(parts)


def table(codes: Iterable[StatusCode], lang: str, api: str | None = None, caption: str | None = None,
          anchors: bool = False) -> str:
    """Codes as a Markdown table: name, hex, decimal, recoverable per API, meaning; ``anchors``: each
    name cell holds the row's anchor (:func:`~sphinx_llmstatus.view.links.row_anchor`), for a site."""
    from ..view.links import row_anchor

    apis = (api,) if api else ("python", "cpp")
    head = [label("Name", lang), label("Hex", lang), label("Decimal", lang)]
    head += [
        label("Recoverable", lang) if api else f"{label('Recoverable', lang)} ({api_label(a)})" for a in apis
    ]
    head.append(label("Meaning", lang))
    lines = [f"**{esc(caption)}**", ""] if caption else []
    lines += [_row(esc(h) for h in head), _rule(len(head))]
    for code in codes:
        view = code.view(api) if api else (code.python or code.cpp)
        name = _code(view.name if api and view else code.name)
        if anchors:
            name = f'<span id="{row_anchor(code.name)}"></span>{name}'
        cells = [name, esc(code.hex or ""), esc("" if code.value is None else code.value)]
        for a in apis:
            v = code.view(a)
            cells.append(esc(label(v.recoverable, lang)) if v else "—")
        cells.append(rich(view.meaning.get(lang)) if view else "")
        lines.append(_row(cells))
    return "\n".join(lines) + "\n"


def hits_header(lang: str, *, with_file: bool = False, with_context: bool = False) -> str:
    """The heading row and rule of a scan report table (``with_file``: a first column for the
    file; ``with_context``: a last column for the lines around each hit, ``-C``)."""
    keys = ((N_("File"),) if with_file else ()) + HIT_COLUMNS + ((N_("Context"),) if with_context else ())
    return _row(esc(label(k, lang)) for k in keys) + "\n" + _rule(len(keys)) + "\n"


def hit_row(row: HitRow, lang: str, *, file: str | None = None,
            context: Sequence[tuple[int, str]] | None = None) -> str:
    """One occurrence as a table row (no newline); ``file`` fills the file column of
    :func:`hits_header`, ``context`` (``(line number, text)`` pairs) its context column."""
    return hit_row_of(row.line_no, row.line, hit_cells(row, lang), file=file, context=context)


def hit_cells(row: HitRow, lang: str) -> str:
    """The cells of ``row`` that its code decides (name, recoverable, advice), laid out: what a
    face may reuse for the rows of one code once its advice was given."""
    recoverable = label(row.recoverable, lang) if row.recoverable in RECOVERABLE_VALUES else row.recoverable
    qualifier = row.qualifier(lang)
    name = _code(row.name) + (f" ({esc(qualifier)})" if qualifier else "")
    advice = (f"{esc(row.advice_label(lang))}: " if row.advice_kind == "check" and row.advice else "") + rich(row.advice)
    if row.note:  # a likely consequence: said before the advice it shares with its cause
        advice = f"*{esc(row.note)}*" + (" " + advice if advice else "")
    return " | ".join((name, esc(recoverable), advice))


def hit_row_of(line_no: int, line: str, cells: str, *, file: str | None = None,
               context: Sequence[tuple[int, str]] | None = None) -> str:
    """:func:`hit_row` of a line (its number, its text as shown) and the cells its code decides
    (:func:`hit_cells`)."""
    head = [esc(file)] if file is not None else []
    tail = [cells]
    if context is not None:
        # One cell: a table row cannot hold a newline, <br> is what GitHub and Jupyter break on.
        tail.append("<br>".join(_code(f"{n}: {text}") for n, text in context))
    return _row([*head, esc(line_no), _code(line), *tail])


def first_failures(items: Sequence[tuple[str, Hit, Sequence[str]]], lang: str, head: Sequence[str] = (),
                   places: Sequence[str] = ()) -> str:
    """``head`` (the root-cause lines), ``**First failure per process:**`` and one item per
    ``(file, hit, notes)`` (time and node from ``places``, file, line, process, code, remedy, then
    its notes: the other side of its link, what it came after), then a blank line; empty when
    ``items`` is."""
    if not items:
        return ""
    from ..scan.report import hit_name, hit_view
    from ..view.diagnosis import line_label, said, told_before, told_note
    from .text import process_label

    out = [f"**{esc(line.strip())}**" if not line.startswith(" ") else f"- {esc(line.strip())}" for line in head]
    out += ["", f"**{esc(label('First failure per process', lang))}:**", ""] if head else \
        [f"**{esc(label('First failure per process', lang))}:**", ""]
    for i, ((file, hit, notes), told) in enumerate(zip(items, told_before([item[:2] for item in items], lang), strict=True)):
        view = hit_view(hit)
        remedy = f": {rich(view.remedy.get(lang))}" if view is not None else ""
        if told is not None:
            remedy = ": " + esc(told_note(told, lang, lambda f, n: f"{f}:{n}"))
        place = f"{esc(places[i])} " if i < len(places) and places[i] else ""
        out.append(f"- {place}{esc(f'{file}:{hit.line_no}')} {esc(process_label(hit.process, lang))} "
                   f"{_code(hit_name(hit))}{remedy}")
        out += [f"  - **{esc(line_label(line.kind, lang))}:** {said(line, lang, rich, esc)}"
                for line in (_diagnosis(hit, lang) if told is None else [])]
        out += [f"  - {esc(note)}" for note in notes]
    return "\n".join(out) + "\n\n"


def _diagnosis(hit: Hit, lang: str) -> list[DiagnosisLine]:
    if hit.diagnosis is None or hit.code is None:
        return []
    from ..view.diagnosis import diagnosis_lines

    return diagnosis_lines(hit.code, hit.diagnosis, lang)  # type: ignore[arg-type]


def summary(counts: Sequence[tuple[str, int]], lang: str) -> str:
    """``**Summary:** NAME × n, ...``, or the no-code sentence when ``counts`` is empty."""
    if not counts:
        return esc(label("No LLM DataDist status code found.", lang)) + "\n"
    return f"**{esc(label('Summary', lang))}:** " + ", ".join(f"{_code(n)} × {c}" for n, c in counts) + "\n"


def hits_table(
    rows: Sequence[HitRow],
    counts: Sequence[tuple[str, int]],
    lang: str,
    *,
    lines: int,
    total: int,
    success_hidden: bool,
) -> str:
    """A log-scan report as Markdown (same content as :func:`..html.hits_table`)."""
    title = scan_title(lang, total=total, lines=lines, success_hidden=success_hidden)
    out = [f"**{esc(title)}**", ""]
    if not total:
        return "\n".join(out) + "\n" + summary((), lang)
    out.append(hits_header(lang) + "\n".join(hit_row(row, lang) for row in rows))
    if total > len(rows):
        out += ["", esc("… " + label("{n} more not shown", lang, n=total - len(rows)))]
    return "\n".join(out) + "\n\n" + summary(counts, lang)


def note(text: str) -> str:
    """A one-line message as escaped Markdown."""
    return esc(text) + "\n"
