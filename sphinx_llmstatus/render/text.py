"""Plain text for terminals: code cards, tables, scan hits and summaries.

Every function returns a string (no trailing newline) and never prints.
``color=True`` adds ANSI colours; the caller decides (TTY, ``NO_COLOR``).
Registry text marks API names with `backticks`; plain text drops them.
"""

from __future__ import annotations

import re
import textwrap

TYPE_CHECKING = False  # no typing import at run time: the command must start fast

from ..registry.model import ApiView, StatusCode
from .labels import labels

if TYPE_CHECKING:  # the scanner is not needed to render a code
    from collections.abc import Iterable, Mapping

    from ..scan.hit import Hit

_ANSI = {"bold": "1", "dim": "2", "red": "31", "green": "32", "yellow": "33", "cyan": "36"}
_BACKTICK_RE = re.compile(r"`([^`]*)`")
_CONTROL_RE = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")
#: Characters of a scanned line shown around a hit.
LINE_WIDTH = 160


def plain(text: str) -> str:
    """Registry text for a terminal: `backticks` dropped."""
    return _BACKTICK_RE.sub(r"\1", text)


def style(text: str, *names: str, color: bool = False) -> str:
    """``text`` wrapped in the ANSI codes ``names`` (bold, red...), or unchanged without colour."""
    if not color or not names:
        return text
    return "\x1b[" + ";".join(_ANSI[n] for n in names) + "m" + text + "\x1b[0m"


def first_sentence(text: str) -> str:
    """The first sentence of ``text`` (up to ``. `` or ``。``), for one-line displays."""
    text = plain(text).strip()
    m = re.search(r"(?<=[.!?])\s|(?<=[。！？])", text)
    return text[: m.start()].strip() if m else text


def recoverable_text(code: StatusCode, lang: str) -> str:
    """``yes`` when both APIs agree, else ``Python yes, C++ no``."""
    lab = labels(lang)
    values = dict(code.recoverable)
    if len(set(values.values())) == 1:
        return lab[next(iter(values.values()))]
    return ", ".join(f"{lab[api]} {lab[v]}" for api, v in values.items())


def _recoverable_colour(value: str) -> tuple[str, ...]:
    return {"yes": ("yellow",), "no": ("red", "bold"), "n/a": ("green",)}.get(value, ())


def _qualified(view: ApiView) -> str:
    return f"LLMStatusCode.{view.name}" if view.api == "python" else f"llm_datadist::{view.name}"


def _wrap(label: str, text: str, lang: str, indent: int = 2) -> list[str]:
    head = " " * indent + label + ": "
    if lang == "zh":
        return [head + text]
    return textwrap.wrap(text, width=100, initial_indent=head,
                         subsequent_indent=" " * len(head), break_on_hyphens=False) or [head]


def card(code: StatusCode, lang: str, reading: str | None = None, color: bool = False) -> str:
    """A multi-line description of one code: names per API, hex/decimal,
    recoverable per API, meaning, remedy per API, related codes, note, vendor pages.

    ``reading`` (e.g. ``"signed int32 (-1 = 0xFFFFFFFF)"``) says how the query
    was read, when that is not obvious.
    """
    lab = labels(lang)
    number = f"{code.hex} = {code.value}" if code.hex else str(code.value)
    out = [style(code.name, "bold", color=color) + "  " + number]
    if reading and reading not in ("name", "decimal", "hex"):
        out.append(f"  {lab['read_as'].capitalize()}: {reading}")
    for view in code.views:
        rec = style(lab[view.recoverable], *_recoverable_colour(view.recoverable), color=color)
        extra = "" if view.documented else f"  ({lab['undocumented']})"
        out.append(f"  {lab[view.api]:<7} {_qualified(view):<48} {lab['recoverable'].lower()}: {rec}{extra}")
    views = code.views
    same_meaning = len({v.meaning.get(lang) for v in views}) == 1
    same_remedy = len({v.remedy.get(lang) for v in views}) == 1
    for field, same in (("meaning", same_meaning), ("remedy", same_remedy)):
        if same:
            out += _wrap(lab[field], plain(getattr(views[0], field).get(lang)), lang)
        else:
            for view in views:
                out += _wrap(f"{lab[field]} ({lab[view.api]})", plain(getattr(view, field).get(lang)), lang)
    if code.note is not None:
        out += _wrap(lab["note"], plain(code.note.get(lang)), lang)
    if code.related:
        out.append(f"  {lab['related']}: {', '.join(code.related)}")
    for view in views:
        out.append(f"  {lab['source']} ({lab[view.api]}): {view.source.title.get(lang)}\n"
                   f"    {style(view.source.url, 'cyan', color=color)}")
    return "\n".join(out)


def table(codes: Iterable[StatusCode], lang: str, api: str | None = None) -> str:
    """One row per code: name (in ``api``'s spelling when given), hex, decimal,
    recoverable, and the first sentence of the meaning."""
    lab = labels(lang)
    rows = []
    for code in codes:
        view = code.view(api) if api else None
        name = view.name if view else code.name
        if view is not None:
            rec = lab[view.recoverable]
            meaning = view.meaning.get(lang)
        else:
            rec = recoverable_text(code, lang)
            meaning = code.views[0].meaning.get(lang)
        rows.append((name, code.hex or "-", str(code.value), rec, first_sentence(meaning)))
    head = (lab["name"], lab["hex"], lab["decimal"], lab["recoverable"], lab["meaning"])
    widths = [max(_width(r[i]) for r in [head, *rows]) for i in range(4)]
    lines = []
    for row in [head, *rows]:
        cells = [row[i] + " " * (widths[i] - _width(row[i])) for i in range(4)]
        lines.append("  ".join(cells + [row[4]]).rstrip())
    return "\n".join(lines)


def _width(text: str) -> int:
    # CJK characters take two terminal columns.
    return sum(2 if "\u2e80" <= ch <= "\uffdc" else 1 for ch in text)


def clip_line(hit: Hit, width: int = LINE_WIDTH) -> str:
    """The hit's line for a terminal: control characters replaced; a long line keeps its start
    (rank, pid, time) and the text around the token, and loses the middle (``…``)."""
    line = hit.line
    if len(line) > width:
        head = width // 3
        if hit.start + 40 <= width:
            line = line[:width] + "…"
        else:
            lo = max(head, hit.start - width // 4)
            hi = lo + width - head
            line = line[:head] + " … " + line[lo:hi] + ("…" if hi < len(hit.line) else "")
    return _CONTROL_RE.sub("\ufffd", line).strip()


def clip_line_text(line: str, width: int = LINE_WIDTH) -> str:
    """A context line for display: control characters replaced, cut to ``width`` characters."""
    if len(line) > width:
        line = line[:width] + "…"
    return _CONTROL_RE.sub("\ufffd", line).rstrip()


def hit_name(hit: Hit, lang: str) -> str:
    """The code name for a hit, or ``unknown LLM DataDist code 0x5010B0FF``."""
    if hit.code is None:
        return f"{labels(lang)['unknown_code']} 0x{(hit.value or 0) & 0xFFFFFFFF:08X}"
    return hit.code.name


def hit_line(hit: Hit, lang: str, file: str | None = None, color: bool = False) -> str:
    """Two lines: ``FILE:LINE: NAME HEX recoverable: X: remedy``, then the clipped log line.

    The remedy is whole, on one line (``grep``-able); where the APIs disagree
    and the token does not say which API wrote it, both are given.
    """
    lab = labels(lang)
    where = f"{file}:{hit.line_no}" if file is not None else f"{hit.line_no}"
    code = hit.code
    if hit.kind == "symptom":
        sym = hit.symptom
        check = getattr(sym, "check", None)
        likely = f" -> {code.name}" if code is not None else ""
        desc = (style(f"symptom {getattr(sym, 'id', '')}", "yellow", "bold", color=color) + likely
                + (f": {plain(check.get(lang))}" if check is not None else ""))
    elif hit.family != "llm_datadist":
        from ..registry.layout import FAMILY_LABELS

        meaning = hit.other_meaning[1 if lang == "zh" else 0] if hit.other_meaning else ""
        also = f"; LLM DataDist's Python API calls it {hit.related.name}" if hit.related is not None else ""
        desc = (style(f"[{FAMILY_LABELS.get(hit.family, hit.family)}] {hit.other_name or hit.token}", "yellow",
                      color=color)
                + (f" 0x{hit.value:08X}" if hit.value is not None and hit.value >= 0 else "")
                + f": {meaning}{also} ({hit.evidence})")
    elif code is None:
        from ..registry.layout import decode_layout

        layout = decode_layout(hit.value or 0)
        desc = style(hit_name(hit, lang), "red", "bold", color=color) + f" ({layout.describe()})"
    else:
        # The API the token was written by, when its form tells; else every API,
        # so a C++ reader is never shown only the Python page's verdict.
        view = code.view(hit.api) if hit.api else None
        views = [view] if view is not None else list(code.views)
        colour = ("green",) if code.is_success else ("red", "bold")
        if len({(v.recoverable, v.remedy.get(lang)) for v in views}) == 1:
            rec = views[0].recoverable
            verdict = style(lab[rec], *_recoverable_colour(rec), color=color)
            remedy = plain(views[0].remedy.get(lang))
        else:
            verdict = recoverable_text(code, lang)
            remedy = " | ".join(f"{lab[v.api]}: {plain(v.remedy.get(lang))}" for v in views)
        desc = (
            style(code.name, *colour, color=color)
            + (f" {code.hex}" if code.hex else "")
            + f" {lab['recoverable'].lower()}: {verdict}: {remedy}"
        )
    return f"{style(where, 'dim', color=color)}: {desc}\n    {clip_line(hit)}"


def summary(counts: Mapping[tuple[str, int | None], int], codes: Mapping[tuple[str, int | None], StatusCode | None],
            lang: str, color: bool = False) -> str:
    """The per-code summary after a scan.

    ``counts`` maps ``(name, value)`` keys (as made by :func:`summary_key`) to
    occurrence counts; ``codes`` maps the same keys to the code (None when
    unknown). Most frequent first.
    """
    lab = labels(lang)
    if not counts:
        return lab["no_hits"]
    failures = sum(n for k, n in counts.items() if not ((code := codes[k]) is not None and code.is_success))
    out = [style(lab["summary"], "bold", color=color) + ": "
           + lab["scan_summary"].format(n=sum(counts.values()), k=len(counts), f=failures)]
    width = max(len(k[0]) for k in counts)
    for key, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0][0])):
        code = codes[key]
        rec = recoverable_text(code, lang) if code is not None else lab["unknown"]
        hexv = code.hex if code is not None and code.hex else f"0x{(key[1] or 0) & 0xFFFFFFFF:08X}"
        out.append(f"  {n:>7}  {key[0]:<{width}}  {hexv}  {lab['recoverable'].lower()}: {rec}")
    return "\n".join(out)


def summary_key(hit: Hit) -> tuple[str, int | None]:
    """The key a hit is counted under in :func:`summary`."""
    return (hit.code.name if hit.code is not None else f"0x{(hit.value or 0) & 0xFFFFFFFF:08X}", hit.value if hit.code is None else hit.code.value)
