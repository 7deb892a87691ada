"""Self-contained, escaped HTML fragments for status codes (notebook output, no Sphinx).

Every string that comes from the registry (names, meanings, remedies, notes,
source titles and URLs) or from the user (queries, pasted log lines) goes
through :func:`html.escape`; registry text in `backticks` becomes ``<code>``
after escaping. The fragments load nothing: no ``<link>``, ``<script>``,
``<img>``, fonts or ``url()``. Colours never set the text colour: text
inherits the front-end's foreground, and accents are borders and translucent
tints that read on JupyterLab's light and dark themes alike, with JupyterLab's
``--jp-*`` variables (and fallbacks) for borders and fonts. Alignment is
inline (``text-align:left``) because JupyterLab right-aligns table cells.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterable, Sequence

from ..registry.model import Source, StatusCode
from ..view.hits import HitRow
from .labels import N_, RECOVERABLE_WORDS, api_label, label, scan_title

TYPE_CHECKING = False
if TYPE_CHECKING:
    pass

_BACKTICK_RE = re.compile(r"`([^`]+)`")

#: Translucent accents: legible over white and over JupyterLab's dark grey.
_ACCENT = {
    "yes": "rgba(46, 160, 67, 0.75)",
    "no": "rgba(218, 54, 51, 0.75)",
    "mixed": "rgba(210, 153, 34, 0.8)",
    "n/a": "rgba(128, 128, 128, 0.6)",
    "unknown": "rgba(128, 128, 128, 0.6)",
}
_TINT = {
    "yes": "rgba(46, 160, 67, 0.15)",
    "no": "rgba(218, 54, 51, 0.15)",
    "mixed": "rgba(210, 153, 34, 0.18)",
    "n/a": "rgba(128, 128, 128, 0.15)",
    "unknown": "rgba(128, 128, 128, 0.15)",
}
_BORDER = "var(--jp-border-color2, rgba(128, 128, 128, 0.4))"
_MONO = "var(--jp-code-font-family, ui-monospace, SFMono-Regular, Menlo, Consolas, monospace)"
_BOX = (
    f"border:1px solid {_BORDER};border-radius:4px;padding:0.45em 0.8em;margin:0.35em 0;"
    "background:transparent;color:inherit;max-width:100%;overflow-x:auto"
)
#: Readings not worth a line: the query was the name or the number itself.
_OBVIOUS_READINGS = ("name", "decimal", "hex")
#: Column headings of a code card and of a scan report.
CARD_COLUMNS = (N_("API"), N_("Name"), N_("Recoverable"), N_("Meaning"), N_("Remedy"), N_("Source"))
HIT_COLUMNS = (N_("Line"), N_("Log line"), N_("Code"), N_("Recoverable"), N_("Remedy"))
_CELL = "text-align:left;vertical-align:top;padding:0.2em 0.6em"
_DIM = "opacity:0.75"

def esc(text: object) -> str:
    """``html.escape`` of ``str(text)``, quotes included."""
    return html.escape(str(text), quote=True)


def rich(text: str) -> str:
    """Escape registry text, then turn its `backticked` names into ``<code>``."""
    return _BACKTICK_RE.sub(
        lambda m: f'<code style="font-family:{_MONO}">{m.group(1)}</code>', esc(text)
    )


def code_name(text: str) -> str:
    return f'<code style="font-family:{_MONO};font-weight:600">{esc(text)}</code>'


def overall_recoverable(code: StatusCode) -> str:
    """``yes``/``no``/``n/a``/``unknown`` when every API agrees, else ``mixed``."""
    values = set(code.recoverable.values())
    return values.pop() if len(values) == 1 else "mixed"


def badge(value: str, lang: str) -> str:
    """A small tinted pill for a recoverable value; the text colour is inherited."""
    key = value if value in _ACCENT else "unknown"
    shown = label(value, lang) if value in RECOVERABLE_WORDS else value
    return (
        f'<span style="border:1px solid {_ACCENT[key]};background:{_TINT[key]};'
        f'border-radius:3px;padding:0 0.35em;white-space:nowrap">{esc(shown)}</span>'
    )


def _th(text: str) -> str:
    return f'<th style="{_CELL}">{text}</th>'


def _td(text: str, extra: str = "") -> str:
    return f'<td style="{_CELL}{extra}">{text}</td>'


def _numbers(code: StatusCode) -> str:
    parts = [esc(code.hex)] if code.hex else []
    parts.append(esc(code.value))
    return " · ".join(parts)


def card(code: StatusCode, lang: str, reading: str | None = None) -> str:
    """One code as an HTML card.

    Shows the canonical name, hex and decimal, how the query was read
    (``reading``), then per API: name, recoverable, meaning, remedy and the
    source page; then related codes and the note. Returns a ``<div>``.
    """
    accent = _ACCENT.get(overall_recoverable(code), _ACCENT["unknown"])
    head = (
        f'<div style="font-size:1.05em">{code_name(code.name)} '
        f'<span style="{_DIM};font-family:{_MONO}">{_numbers(code)}</span>'
    )
    if reading and reading not in _OBVIOUS_READINGS:
        head += f' <span style="{_DIM};font-size:0.9em">({esc(label("read as", lang))} {esc(reading)})</span>'
    head += "</div>"
    rows = []
    for view in code.views:
        source = _link(view.source, lang)
        if not view.documented:
            source += f' <span style="{_DIM}">({esc(label("not on the vendor page", lang))})</span>'
        rows.append(
            "<tr>"
            + _td(esc(api_label(view.api)))
            + _td(code_name(view.name))
            + _td(badge(view.recoverable, lang))
            + _td(rich(view.meaning.get(lang)))
            + _td(rich(view.remedy.get(lang)))
            + _td(source)
            + "</tr>"
        )
    header = "".join(
        _th(esc(label(k, lang))) for k in CARD_COLUMNS
    )
    body = (
        f'<table style="border-collapse:collapse;margin:0.4em 0;width:auto">'
        f"<thead><tr>{header}</tr></thead><tbody>{''.join(rows)}</tbody></table>"
    )
    extra = []
    if code.related:
        extra.append(
            f"<div><b>{esc(label('Related codes', lang))}:</b> "
            + ", ".join(code_name(r) for r in code.related)
            + "</div>"
        )
    if code.note is not None:
        extra.append(f"<div><b>{esc(label('Note', lang))}:</b> {rich(code.note.get(lang))}</div>")
    extra += _rows(code, lang)
    extra += _causes(code, lang)
    return (
        f'<div class="llmstatus llmstatus-card" style="{_BOX};border-left:4px solid {accent}">'
        + head + body + "".join(extra) + "</div>"
    )


def _rows(code: StatusCode, lang: str) -> list[str]:
    """The card's layer, action, engine, "reported as" and spelling rows (view/origins.py)."""
    from ..view.origins import layer_row, origin_rows

    layer = layer_row(code, lang)
    rows = ([layer] if layer else []) + origin_rows(code, lang)
    return [f"<div><b>{esc(name)}:</b> {esc(text)}</div>" if name else f"<div>{esc(text)}</div>"
            for name, text in rows]


def _link(source: Source, lang: str) -> str:
    return (f'<a href="{esc(source.url)}" target="_blank" rel="noopener noreferrer">'
            f"{esc(source.title.get(lang))}</a>")


def _details(title: str, items: list[str]) -> str:
    """A collapsed ``<details>`` block: ``title (n)`` and a numbered list."""
    return (f'<details style="margin:0.3em 0"><summary><b>{esc(title)}</b> ({len(items)})</summary>'
            f'<ol style="margin:0.2em 0;padding-left:1.6em">{"".join(items)}</ol></details>')


def _causes(code: StatusCode, lang: str) -> list[str]:
    """Causes, settings and framework notes of ``code``, each a collapsed list (nothing when empty)."""
    from .causes import applies_to, causes, log_evidence, setting_head

    def line(word: str, body: str) -> str:
        return f"<div><b>{esc(label(word, lang))}:</b> {body}</div>"

    blocks = []
    items = []
    for apis, cause in causes(code):
        where = applies_to(cause, apis, len(code.views))
        items.append(
            '<li style="margin:0.25em 0">' + line(N_("When"), rich(cause.when.get(lang)))
            + line(N_("Check"), rich(cause.check.get(lang))) + line(N_("Fix"), rich(cause.fix.get(lang)))
            + (line(N_("Applies to"), esc(where)) if where else "")
            + "".join(line(word, rich(text)) for word, text in log_evidence(cause, lang))
            + f'<div style="{_DIM}">{esc(label("Sources", lang))}: '
            + ", ".join(_link(s, lang) for s in cause.sources) + "</div></li>"
        )
    if items:
        blocks.append(_details(label("Causes and checks", lang), items))
    settings = [
        f"<li>{code_name(s.name)} <span style=\"{_DIM}\">{esc(setting_head(s, lang).removeprefix(s.name).strip())}"
        f"</span>: {rich(s.about.get(lang))} ({', '.join(_link(src, lang) for src in s.sources)})</li>"
        for s in getattr(code, "settings", ())
    ]
    if settings:
        blocks.append(_details(label("Settings", lang), settings))
    notes = [
        f"<li><b>{esc(n.framework)}</b>: {rich(n.does.get(lang))} ({', '.join(_link(src, lang) for src in n.sources)})</li>"
        for n in getattr(code, "frameworks", ())
    ]
    if notes:
        blocks.append(_details(label("What frameworks do", lang), notes))
    return blocks


def cards(matches: Sequence[tuple[StatusCode, str | None]], lang: str, query: str | None = None) -> str:
    """Several cards in one block; with more than one, a line says how many meanings ``query`` has."""
    parts = []
    if query is not None and len(matches) > 1:
        parts.append(f"<div><b>{esc(label('{query}: {n} meanings', lang, query=query, n=len(matches)))}</b></div>")
    parts += [card(code, lang, reading) for code, reading in matches]
    return '<div class="llmstatus">' + "".join(parts) + "</div>"


def table(codes: Iterable[StatusCode], lang: str, api: str | None = None, caption: str | None = None) -> str:
    """Codes as an HTML table: name, hex, decimal, recoverable per API, meaning.

    With ``api`` (``"python"`` or ``"cpp"``) the names, recoverable and
    meaning are that API's. ``caption`` (plain text, escaped) goes on top.
    """
    apis = (api,) if api else ("python", "cpp")
    head = _th(esc(label("Name", lang))) + _th(esc(label("Hex", lang))) + _th(esc(label("Decimal", lang)))
    head += "".join(
        _th(esc(f"{label('Recoverable', lang)} ({api_label(a)})" if not api else label("Recoverable", lang)))
        for a in apis
    )
    head += _th(esc(label("Meaning", lang)))
    rows = []
    for code in codes:
        view = code.view(api) if api else (code.python or code.cpp)
        name = view.name if api and view else code.name
        cells = _td(code_name(name)) + _td(esc(code.hex or ""), f";font-family:{_MONO}")
        cells += _td(esc("" if code.value is None else code.value), f";font-family:{_MONO}")
        for a in apis:
            v = code.view(a)
            cells += _td(badge(v.recoverable, lang) if v else "—")
        cells += _td(rich(view.meaning.get(lang)) if view else "")
        rows.append(f"<tr>{cells}</tr>")
    cap = f"<div><b>{esc(caption)}</b></div>" if caption else ""
    return (
        f'<div class="llmstatus llmstatus-table" style="{_BOX}">{cap}'
        f'<table style="border-collapse:collapse;width:auto"><thead><tr>{head}</tr></thead>'
        f"<tbody>{''.join(rows)}</tbody></table></div>"
    )


def hits_table(
    rows: Sequence[HitRow],
    counts: Sequence[tuple[str, int]],
    lang: str,
    *,
    lines: int,
    total: int,
    success_hidden: bool,
) -> str:
    """A log-scan report: one row per occurrence, then the per-code counts.

    ``rows`` may be the first part of ``total`` occurrences (a note says how
    many are not shown); ``counts`` is ``(name, n)`` in display order;
    ``lines`` is the number of lines scanned.
    """
    title = scan_title(lang, total=total, lines=lines, success_hidden=success_hidden)
    parts = [f'<div class="llmstatus llmstatus-scan" style="{_BOX}"><div><b>{esc(title)}</b></div>']
    if not total:
        parts.append(f"<div>{esc(label('No LLM DataDist status code found.', lang))}</div></div>")
        return "".join(parts)
    head = "".join(
        _th(esc(label(k, lang))) for k in HIT_COLUMNS
    )
    body = []
    for row in rows:
        code_cell = code_name(row.name)
        if row.number and row.number != row.name:
            code_cell += f'<br><span style="{_DIM};font-family:{_MONO}">{esc(row.number)}</span>'
        if row.qualifier(lang):
            code_cell += f'<br><span style="{_DIM}">{esc(row.qualifier(lang))}</span>'
        advice = (f"<b>{esc(row.advice_label(lang))}:</b> " if row.advice_kind == "check" and row.advice else "")
        if row.note:  # a likely consequence: said before the advice it shares with its cause
            advice = f"<i>{esc(row.note)}</i>" + ("<br>" + advice if advice or row.advice else "")
        body.append(
            "<tr>"
            + _td(esc(row.line_no), f";font-family:{_MONO}")
            # A column wide enough to read a log line (a long remedy beside it squeezed it to ~20
            # characters), broken at spaces first and inside a word only when one does not fit.
            + _td(f'<code style="font-family:{_MONO};white-space:pre-wrap;overflow-wrap:anywhere;'
                  f'display:inline-block;min-width:min(48ch,60vw)">{esc(row.line)}</code>')
            + _td(code_cell)
            + _td(badge(row.recoverable, lang) if row.recoverable else "")
            + _td(advice + rich(row.advice))
            + "</tr>"
        )
    parts.append(
        f'<table style="border-collapse:collapse;width:auto"><thead><tr>{head}</tr></thead>'
        f"<tbody>{''.join(body)}</tbody></table>"
    )
    if total > len(rows):
        parts.append(f'<div style="{_DIM}">… {esc(label("{n} more not shown", lang, n=total - len(rows)))}</div>')
    summary = ", ".join(f"{code_name(name)} × {n}" for name, n in counts)
    parts.append(f"<div><b>{esc(label('Summary', lang))}:</b> {summary}</div></div>")
    return "".join(parts)


def note(text: str) -> str:
    """A one-line message (escaped) in the same frame as the other fragments."""
    return f'<div class="llmstatus llmstatus-note" style="{_BOX}">{esc(text)}</div>'
