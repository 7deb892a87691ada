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

from ..registry.model import RECOVERABLE_VALUES, StatusCode
from .html import HitRow
from .labels import label, scan_title

_BACKTICK_RE = re.compile(r"`([^`]+)`")
# Inline Markdown syntax; block markers (#, -, +, =, !) only matter at the start
# of a line, handled in esc(); < > & are HTML-escaped.
_MD_SPECIAL_RE = re.compile(r"([\\`*_\[\]|~])")
_SPACE_RE = re.compile(r"\s+")


def esc(text: object) -> str:
    """Plain text as inert Markdown: HTML-escaped, punctuation backslash-escaped, one line."""
    flat = _SPACE_RE.sub(" ", str(text))
    out = _MD_SPECIAL_RE.sub(r"\\\1", html.escape(flat, quote=True))
    return "\\" + out if out[:1] in ("#", "-", "+", "=", "!") else out


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
    numbers = ([code.hex] if code.hex else []) + [str(code.value)]
    head += " " + " · ".join(esc(n) for n in numbers)
    if reading and reading not in ("name", "decimal", "hex"):
        head += f" ({esc(label('read_as', lang))} {esc(reading)})"
    keys = ("api", "name", "recoverable", "meaning", "remedy", "source")
    lines = [head, "", _row(esc(label(k, lang)) for k in keys), _rule(len(keys))]
    for view in code.views:
        source = f"[{esc(view.source.title.get(lang))}](<{html.escape(view.source.url, quote=True)}>)"
        if not view.documented:
            source += f" ({esc(label('not_documented', lang))})"
        lines.append(
            _row(
                [
                    esc(label(view.api, lang)), _code(view.name), esc(label(view.recoverable, lang)),
                    rich(view.meaning.get(lang)), rich(view.remedy.get(lang)), source,
                ]
            )
        )
    if code.related:
        lines += ["", f"**{esc(label('related', lang))}:** " + ", ".join(_code(r) for r in code.related)]
    if code.note is not None:
        lines += ["", f"**{esc(label('note', lang))}:** {rich(code.note.get(lang))}"]
    return "\n".join(lines) + "\n"


def cards(matches: Sequence[tuple[StatusCode, str | None]], lang: str, query: str | None = None) -> str:
    """Several cards separated by rules; with more than one, a first line counts the meanings."""
    parts = []
    if query is not None and len(matches) > 1:
        parts.append(f"**{esc(label('meanings', lang, query=query, n=len(matches)))}**\n")
    parts += [card(code, lang, reading) for code, reading in matches]
    return "\n---\n\n".join(parts)


def table(codes: Iterable[StatusCode], lang: str, api: str | None = None, caption: str | None = None) -> str:
    """Codes as a Markdown table: name, hex, decimal, recoverable per API, meaning."""
    apis = (api,) if api else ("python", "cpp")
    head = [label("name", lang), label("hex", lang), label("decimal", lang)]
    head += [
        label("recoverable", lang) if api else f"{label('recoverable', lang)} ({label(a, lang)})" for a in apis
    ]
    head.append(label("meaning", lang))
    lines = [f"**{esc(caption)}**", ""] if caption else []
    lines += [_row(esc(h) for h in head), _rule(len(head))]
    for code in codes:
        view = code.view(api) if api else (code.python or code.cpp)
        cells = [_code(view.name if api and view else code.name), esc(code.hex or ""), esc(code.value)]
        for a in apis:
            v = code.view(a)
            cells.append(esc(label(v.recoverable, lang)) if v else "—")
        cells.append(rich(view.meaning.get(lang)) if view else "")
        lines.append(_row(cells))
    return "\n".join(lines) + "\n"


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
        return "\n".join(out + [esc(label("no_codes", lang))]) + "\n"
    keys = ("line", "text", "code", "recoverable", "remedy")
    out += [_row(esc(label(k, lang)) for k in keys), _rule(len(keys))]
    for row in rows:
        name = row.code.name if row.code is not None else row.token
        out.append(
            _row(
                [esc(row.line_no), _code(row.line), _code(name), esc(label(row.recoverable, lang)
                 if row.recoverable in RECOVERABLE_VALUES else row.recoverable), rich(row.remedy)]
            )
        )
    if total > len(rows):
        out += ["", esc("… " + label("more", lang, n=total - len(rows)))]
    out += ["", f"**{esc(label('summary', lang))}:** " + ", ".join(f"{_code(n)} × {c}" for n, c in counts)]
    return "\n".join(out) + "\n"


def note(text: str) -> str:
    """A one-line message as escaped Markdown."""
    return esc(text) + "\n"
