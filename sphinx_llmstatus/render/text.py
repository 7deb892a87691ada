"""Plain text for terminals: code cards, tables, scan hits and summaries.

Every function returns a string (no trailing newline) and never prints.
``color=True`` adds ANSI colours; the caller decides (TTY, ``NO_COLOR``).
Registry text marks API names with `backticks`; plain text drops them.
"""

from __future__ import annotations

import re
from functools import lru_cache

TYPE_CHECKING = False  # no typing import at run time: the command must start fast

from ..registry.model import Registry, StatusCode
from .labels import api_label, family_label, label, spelled

if TYPE_CHECKING:  # the scanner is not needed to render a code
    from collections.abc import Iterable, Mapping
    from typing import Any

    from ..scan.hit import Hit
    from ..scan.report import Report

_ANSI = {"bold": "1", "dim": "2", "red": "31", "green": "32", "yellow": "33", "cyan": "36"}
#: Columns of the wrapped paragraphs of a card.
WIDTH = 100
_BACKTICK_RE = re.compile(r"`([^`]*)`")
#: What no output writes raw (the class of a regular expression): control characters (C0, DEL,
#: C1: a terminal acts on them), line and paragraph separators, the bidirectional controls that
#: reorder what follows them on screen (U+202E...), and the lone surrogates that stand for
#: undecodable bytes (surrogateescape). Text and Markdown show them as escapes (:func:`terminal_safe`),
#: JSON as ``\uXXXX`` (:func:`sphinx_llmstatus.render.json.dumps`; JSON escapes C0 itself).
UNSAFE_BEYOND_C0 = r"\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff"
UNSAFE_CHARS = r"\x00-\x1f" + UNSAFE_BEYOND_C0
_UNSAFE_RE = f"[{UNSAFE_CHARS}]"  # compiled on first use
#: Characters of a scanned line shown around a hit.
LINE_WIDTH = 160


@lru_cache(maxsize=1024)
def plain(text: str) -> str:
    """Registry text for a terminal: `backticks` dropped (remembered: a scan repeats its codes' texts)."""
    return _BACKTICK_RE.sub(r"\1", text)


def _escape(m: re.Match[str]) -> str:
    o = ord(m.group())
    if 0xDC80 <= o <= 0xDCFF:  # an undecodable byte, as os.fsdecode keeps it
        return f"\\x{o - 0xDC00:02x}"
    return f"\\x{o:02x}" if o < 0x100 else f"\\u{o:04x}"


def terminal_safe(text: str) -> str:
    """``text`` with the characters of :data:`UNSAFE_CHARS` as visible escapes (``\\x1b``, ``\\u202e``,
    ``\\xff`` for an undecodable byte).

    The one sanitiser of file names, log lines, process names and registry strings written as
    text or Markdown: nothing raw can move the cursor, recolour the terminal, make a link,
    reorder the line or break it.
    """
    return text if text.isprintable() else re.sub(_UNSAFE_RE, _escape, text)


def style(text: str, *names: str, color: bool = False) -> str:
    """``text`` wrapped in the ANSI codes ``names`` (bold, red...), or unchanged without colour."""
    if not color or not names:
        return text
    return "\x1b[" + ";".join(_ANSI[n] for n in names) + "m" + text + "\x1b[0m"


def first_sentence(text: str) -> str:
    """The first sentence of ``text`` (up to ``. `` or ``。``), for one-line displays."""
    text = plain(text).strip()
    m = re.search(r"[.!?]\s|[。！？]", text)
    return text[: m.start() + 1].strip() if m else text


def recoverable_text(code: StatusCode, lang: str) -> str:
    """``yes`` when both APIs agree, else ``Python yes, C++ no``."""
    values = dict(code.recoverable)
    if len(set(values.values())) == 1:
        return label(next(iter(values.values())), lang)
    return ", ".join(f"{api_label(api)} {label(v, lang)}" for api, v in values.items())


def _recoverable_colour(value: str) -> tuple[str, ...]:
    return {"yes": ("yellow",), "no": ("red", "bold"), "n/a": ("green",)}.get(value, ())


def _wrap(label: str, text: str, lang: str, indent: int = 2, width: int = WIDTH) -> list[str]:
    """``label: text`` filled to ``width`` columns, continued under the text."""
    head = " " * indent + label + ": "
    return fill(head, text, width, lang)


def fill(head: str, text: str, width: int, lang: str, hang: int | None = None) -> list[str]:
    """``head`` then ``text`` filled to ``width`` display columns, later lines indented as far as
    ``head`` is wide (or ``hang`` columns); English breaks at spaces only, Chinese also between any
    two wide characters."""
    # What textwrap.wrap does with break_long_words and break_on_hyphens off; importing
    # textwrap compiles its regexes, a tenth of the `llmstatus CODE` start-up budget.
    pad = " " * (_width(head) if hang is None else hang)
    lines, line, empty = [], head, True
    for unit in (_UNITS_ZH if lang == "zh" else _UNITS).findall(text):
        if unit.isspace():
            if not empty:
                line += " "
            continue
        if not empty and _width(line) + _width(unit) > width:
            lines.append(line.rstrip())
            line, empty = pad, True
        line, empty = line + unit, False
    return [*lines, line.rstrip()]


#: What a line may break between: spaces and words; in Chinese also each wide character.
_UNITS = re.compile(r"\s+|\S+")
_UNITS_ZH = re.compile(r"\s+|[\x21-\x7e]+|\S")


def card(code: StatusCode, lang: str, reading: str | None = None, color: bool = False,
         registry: Registry | None = None, *, full: bool = False, width: int = WIDTH) -> str:
    """A multi-line description of one code: its layer (when not LLM DataDist), names per API,
    hex/decimal, recoverable per API, meaning, remedy per API, related codes, note, what to do,
    which engines return it, how upper layers report it, other libraries' names, vendor pages.

    ``reading`` (e.g. ``"signed int32 (-1 = 0xFFFFFFFF)"``) says how the query
    was read, when that is not obvious. Short by default, to read in one screen: the first
    :data:`TOP_CAUSES` causes with their checks and a pointer to the rest; ``full``: every cause
    with its check, fix and sources, the settings and what frameworks do. Text is filled to
    ``width`` columns.
    """

    from ..view.origins import layer_row

    out = [style(code.name, "bold", color=color) + "  " + _number(code)]
    layer = layer_row(code, lang, registry)
    if layer is not None:
        out.append(f"  {layer[0]}: {layer[1]}")
    if reading and reading not in ("name", "decimal", "hex"):
        out.append(f"  {label('read as', lang).capitalize()}: {reading}")
    recoverable = label("Recoverable", lang).lower()
    names = {view.api: spelled(code, view) for view in code.views}
    column = max(map(_width, names.values()), default=0)
    for view in code.views:
        rec = style(label(view.recoverable, lang), *_recoverable_colour(view.recoverable), color=color)
        extra = "" if view.documented else f"  ({label('not on the vendor page; our description', lang)})"
        name = names[view.api] + " " * (column - _width(names[view.api]))
        line = f"  {api_label(view.api):<7} {name}  {recoverable}: {rec}"
        out += [line + extra] if not extra or _width(line + extra) <= width else [line, " " * 10 + extra.strip()]
    views = code.views
    same_meaning = len({v.meaning.get(lang) for v in views}) == 1
    same_remedy = len({v.remedy.get(lang) for v in views}) == 1
    for field, word, same in (("meaning", label("Meaning", lang), same_meaning),
                              ("remedy", label("Remedy", lang), same_remedy)):
        if same:
            out += _wrap(word, plain(getattr(views[0], field).get(lang)), lang, width=width)
        else:
            for view in views:
                out += _wrap(f"{word} ({api_label(view.api)})", plain(getattr(view, field).get(lang)), lang,
                             width=width)
    if code.note is not None:
        out += _wrap(label("Note", lang), plain(code.note.get(lang)), lang, width=width)
    if code.related:
        out += _wrap(label("Related codes", lang), ", ".join(code.related), lang, width=width)
    out += _where_it_comes_from(code, lang, registry, width, full)
    out += _checklist(code, lang, color, full, width)
    for view in views:
        out += fill(f"  {label('Source', lang)} ({api_label(view.api)}): ", terminal_safe(view.source.title.get(lang)),
                    width, lang, hang=4)
        out.append(f"    {style(terminal_safe(view.source.url), 'cyan', color=color)}")
    return "\n".join(out)


def _number(code: StatusCode) -> str:
    """``0x5010B009 = 1343270921``; the decimal alone for another layer's plain numbers; ``""`` for a string code."""
    if code.value is None:
        return ""
    return f"{code.hex} = {code.value}" if code.hex and (code.is_llm_layout or code.value == 0xFFFFFFFF) \
        else str(code.value)


def _where_it_comes_from(code: StatusCode, lang: str, registry: Registry | None, width: int = WIDTH,
                         full: bool = True) -> list[str]:
    """The rows of :func:`..view.origins.origin_rows`, one filled line each (short unless ``full``)."""
    from ..view.origins import origin_rows

    out: list[str] = []
    for name, text in origin_rows(code, lang, registry, short=not full):
        out += fill(f"  {name}: " if name else "  ", text, width, lang, hang=6 if name else 2)
    return out


#: Causes a short card shows (``--full``: all).
TOP_CAUSES = 3


def _checklist(code: StatusCode, lang: str, color: bool, full: bool, width: int) -> list[str]:
    """Causes as a checklist (``[ ]``, where each applies, then its check); ``full`` adds each
    cause's fix and sources, the settings and what frameworks do; a short card ends with how many
    more there are and the command that shows them."""
    from .causes import applies_to, causes, log_evidence

    out: list[str] = []
    found = causes(code)
    if found:
        out.append("  " + style(label("Causes and checks", lang), "bold", color=color) + ":")
    # Short: the first sentence of each (the whole texts are one --full away).
    cut = (lambda text: text) if full else first_sentence
    for apis, cause in found if full else found[:TOP_CAUSES]:
        where = applies_to(cause, apis, len(code.views))
        out += fill("    [ ] ", cut(plain(cause.when.get(lang))) + (f" ({where})" if where else ""), width, lang)
        out += _wrap(label("Check", lang), cut(plain(cause.check.get(lang))), lang, 8, width)
        if full:
            out += _wrap(label("Fix", lang), plain(cause.fix.get(lang)), lang, 8, width)
            for word, text in log_evidence(cause, lang):
                out += _wrap(label(word, lang), terminal_safe(plain(text)), lang, 8, width)
            out.append(f"        {label('Sources', lang)}:")  # one address a line: each can be copied
            out += [f"          {terminal_safe(s.url)}" for s in cause.sources]
    settings, notes = getattr(code, "settings", ()), getattr(code, "frameworks", ())
    if full:
        return out + _settings_and_frameworks(settings, notes, lang, color, width)
    more = max(len(found) - TOP_CAUSES, 0)
    if more or settings or notes:
        out += fill("  ", label("{n} more causes, the fixes, settings and sources: llmstatus --full {name}",
                                lang, n=more, name=code.name), width, lang)
    return out


def _settings_and_frameworks(settings: Iterable[Any], notes: Iterable[Any], lang: str, color: bool,
                             width: int) -> list[str]:
    from .causes import setting_head

    out: list[str] = []
    if settings:
        out.append("  " + style(label("Settings", lang), "bold", color=color) + ":")
        for s in settings:
            out += fill(f"    - {setting_head(s, lang)}: ", plain(s.about.get(lang)), width, lang, hang=6)
    if notes:
        out.append("  " + style(label("What frameworks do", lang), "bold", color=color) + ":")
        for n in notes:
            out += fill(f"    - {n.framework}: ", plain(n.does.get(lang)), width, lang, hang=6)
    return out


def table(codes: Iterable[StatusCode], lang: str, api: str | None = None) -> str:
    """One row per code: name (in ``api``'s spelling when given), hex, decimal,
    recoverable, and the first sentence of the meaning."""
    rows = []
    for code in codes:
        view = code.view(api) if api else None
        name = view.name if view else code.name
        if view is not None:
            rec = label(view.recoverable, lang)
            meaning = view.meaning.get(lang)
        else:
            rec = recoverable_text(code, lang)
            meaning = code.views[0].meaning.get(lang)
        value = "-" if code.value is None else str(code.value)  # a code spelled as a string has no number
        rows.append((name, code.hex or "-", value, rec, first_sentence(meaning)))
    head = tuple(label(word, lang) for word in ("Name", "Hex", "Decimal", "Recoverable", "Meaning"))
    widths = [max(_width(r[i]) for r in [head, *rows]) for i in range(4)]
    lines = []
    for row in [head, *rows]:
        cells = [row[i] + " " * (widths[i] - _width(row[i])) for i in range(4)]
        lines.append("  ".join(cells + [row[4]]).rstrip())
    return "\n".join(lines)


def _width(text: str) -> int:
    """Terminal columns of ``text``: wide and full-width characters (CJK) take two."""
    if text.isascii():
        return len(text)
    from unicodedata import east_asian_width

    return sum(2 if east_asian_width(ch) in ("W", "F") else 1 for ch in text)


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
    return log_safe(line).strip()


def clip_line_text(line: str, width: int = LINE_WIDTH) -> str:
    """A context line for display: control characters replaced, cut to ``width`` characters."""
    if len(line) > width:
        line = line[:width] + "…"
    return log_safe(line).rstrip()


def log_safe(line: str) -> str:
    """A log line for display: :func:`terminal_safe`, a tab shown as a space."""
    return terminal_safe(line.replace("\t", " "))


def hit_name(hit: Hit, lang: str) -> str:
    """The code name for a hit, or ``unknown LLM DataDist code 0x5010B0FF``."""
    if hit.code is None:
        return f"{label('unknown LLM DataDist code', lang)} 0x{(hit.value or 0) & 0xFFFFFFFF:08X}"
    return hit.code.name


def hit_line(hit: Hit, lang: str, file: str | None = None, color: bool = False,
             remedy_at: str | None = None) -> str:
    """Two lines: ``FILE:LINE: NAME HEX recoverable: X: remedy``, then the clipped log line.

    The remedy is whole, on one line (``grep``-able); where the APIs disagree
    and the token does not say which API wrote it, both are given. ``remedy_at``
    (``FILE:LINE`` of an earlier hit of the code) replaces the remedy by a pointer to it:
    a log repeating one code a thousand times gets its remedy once.
    """
    where = f"{file}:{hit.line_no}" if file is not None else f"{hit.line_no}"
    return f"{style(where, 'dim', color=color)}: {hit_desc(hit, lang, color, remedy_at)}\n    {clip_line(hit)}"


def hit_desc(hit: Hit, lang: str, color: bool = False, remedy_at: str | None = None) -> str:
    """What :func:`hit_line` says of the hit's code after ``FILE:LINE:``: the same for every hit of
    one code, family, symptom, token form and API (the caller may keep it)."""
    code = hit.code
    if hit.kind == "symptom":
        sym = hit.symptom
        check = getattr(sym, "check", None)
        likely = f" -> {code.name}" if code is not None else ""
        said = label("check as at {where}", lang, where=remedy_at) if remedy_at else (
            plain(check.get(lang)) if check is not None else "")
        desc = (style(label("symptom {id}", lang, id=getattr(sym, "id", "")), "yellow", "bold", color=color) + likely
                + (f": {said}" if said else ""))
    elif hit.family != "llm_datadist":
        meaning = hit.other_meaning[1 if lang == "zh" else 0] if hit.other_meaning else ""
        also = (("；" if lang == "zh" else "; ") + label("LLM DataDist's Python API calls it {name}", lang,
                                                         name=hit.related.name)
                if hit.related is not None else "")
        check = (("；" if lang == "zh" else "; ") + (label("check as at {where}", lang, where=remedy_at) if remedy_at
                 else label("check", lang) + ": " + plain(hit.other_check[1 if lang == "zh" else 0]))) \
            if hit.other_check else ""
        hexed = hit.token[:2] in ("0x", "0X") or hit.family == "ge"  # as the log wrote it, or GE's 0xFFFFFFFF
        desc = (style(f"[{family_label(hit.family, lang)}] {hit.other_name or hit.token}", "yellow",
                      color=color)
                + (f" 0x{hit.value:08X}" if hexed and hit.value is not None and hit.value >= 0 else "")
                + f": {plain(meaning).rstrip('。.')}{also}{check} ({hit.evidence})")
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
        alike = len({(v.recoverable, v.remedy.get(lang)) for v in views}) == 1
        if alike:
            rec = views[0].recoverable
            verdict = style(label(rec, lang), *_recoverable_colour(rec), color=color)
        else:
            verdict = recoverable_text(code, lang)
        if remedy_at is not None:
            remedy = label("remedy as at {where}", lang, where=remedy_at)
        elif alike:
            remedy = plain(views[0].remedy.get(lang))
        else:
            remedy = " | ".join(f"{api_label(v.api)}: {plain(v.remedy.get(lang))}" for v in views)
        desc = (
            style(code.name, *colour, color=color)
            + (f" {code.hex}" if code.hex else "")
            + f" {label('Recoverable', lang).lower()}: {verdict}: {remedy}"
        )
    return desc


def summary(counts: Mapping[tuple[str, int | None], int], codes: Mapping[tuple[str, int | None], StatusCode | None],
            lang: str, color: bool = False) -> str:
    """The per-code summary after a scan.

    ``counts`` maps ``(name, value)`` keys (as made by :func:`summary_key`) to
    occurrence counts; ``codes`` maps the same keys to the code (None when
    unknown). Most frequent first.
    """
    if not counts:
        return label("No LLM DataDist status code found.", lang)
    failures = sum(n for k, n in counts.items() if not ((code := codes[k]) is not None and code.is_success))
    out = [style(label("Summary", lang), "bold", color=color) + ": "
           + label("{n} occurrence(s) of {k} code(s), {f} failure(s)", lang,
                   n=sum(counts.values()), k=len(counts), f=failures)]
    recoverable = label("Recoverable", lang).lower()
    width = max(len(k[0]) for k in counts)
    for key, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0][0])):
        code = codes[key]
        rec = recoverable_text(code, lang) if code is not None else label("unknown", lang)
        hexv = code.hex if code is not None and code.hex else f"0x{(key[1] or 0) & 0xFFFFFFFF:08X}"
        out.append(f"  {n:>7}  {key[0]:<{width}}  {hexv}  {recoverable}: {rec}")
    return "\n".join(out)


def report_summary(report: Report, lang: str, color: bool = False, stdin: str = "-",
                   after: Mapping[tuple[str, str | None], str] | None = None) -> str:
    """The end of a text scan: first failure per process (with its remedy), the per-code
    :func:`summary`, how many generic codes are likely consequences, other layers, symptoms.
    ``stdin`` is how standard input (file ``-`` in the report) is named; ``after`` says, per first
    failure's key, what its process logged before it (view.hits.after_note)."""
    from ..scan.report import hit_name, hit_view
    from ..view.deployment import peer_note, root_lines, where
    from ..view.diagnosis import told_before, told_note
    from ..view.hits import counts_text, cut_notes

    lines = []
    ordered = report.ordered()
    if ordered:
        from ..scan.peers import root_cause

        lines += [log_safe(line) for line in root_lines(root_cause([row[3] for row in ordered]), len(ordered), lang)]
        lines.append(style(label("First failure per process", lang), "bold", color=color) + ":")
        named = [(stdin if file == "-" else file, hit) for _key, file, hit, _entry in ordered]
        for (key, _file, hit, entry), (file, _hit), told in zip(ordered, named, told_before(named, lang), strict=True):
            view = hit_view(hit)
            remedy = plain(view.remedy.get(lang)) if view is not None else ""
            if told is not None:
                remedy = told_note(told, lang, lambda f, n: f"{f}:{n}")
            place = where(entry, lang)
            lines.append(f"  {log_safe(place) + '  ' if place else ''}{file}:{hit.line_no}  "
                         f"{process_label(hit.process, lang)}  "
                         f"{style(hit_name(hit), 'red', 'bold', color=color)}" + (f": {remedy}" if remedy else ""))
            lines += diagnosis_text(hit, lang, color) if told is None else []
            peer = peer_note(entry, lang)
            if peer:  # the other side of its link, and whether it failed first
                lines.append("    " + log_safe(peer))
            if after and key in after:  # the layer below often failed first: say so, with its check
                lines.append("    " + log_safe(after[key]))
    keys = {name: (name, report.codes[name].value) for name in report.counts}
    lines.append(summary({keys[n]: c for n, c in report.counts.items()},
                         {keys[n]: report.codes[n].code for n in report.counts}, lang, color))
    for name, n in report.consequences.items():
        lines.append("  " + label("({n} {name} lines follow an earlier failure of their process: likely consequences)",
                                  lang, n=n, name=name))
    not_ours = label("not LLM DataDist", lang)
    for fam, counter in report.other.items():
        lines.append(f"  {family_label(fam, lang)}: {counts_text(counter, lang)} ({not_ours})")
    lines += ["  " + log_safe(note) for note in cut_notes(report, lang, lambda f, n: f"{stdin if f == '-' else f}:{n}")]
    if report.symptoms:
        lines.append(f"  {label('symptoms', lang)}: "
                     + ", ".join(f"{n} × {name}" for name, n in report.symptoms.most_common()))
    return "\n".join(lines)


def diagnosis_text(hit: Hit, lang: str, color: bool = False, indent: str = "    ") -> list[str]:
    """The diagnosis of a failure hit, a line per cause, check and fix (nothing without one)."""
    if hit.diagnosis is None or hit.code is None:
        return []
    from ..view.diagnosis import diagnosis_lines, line_label, said

    return [f"{indent}{style(line_label(line.kind, lang), 'bold', color=color)}: {said(line, lang, plain, log_safe)}"
            for line in diagnosis_lines(hit.code, hit.diagnosis, lang)]  # type: ignore[arg-type]


def process_label(process: str | None, lang: str) -> str:
    """``process 4242 (python)``, or ``process (unnamed)`` when the line does not say."""
    if not process:
        return label("process (unnamed)", lang)
    return label("process {process}", lang, process=log_safe(process))  # the log's words: escaped


def summary_key(hit: Hit) -> tuple[str, int | None]:
    """The key a hit is counted under in :func:`summary`."""
    return (hit.code.name if hit.code is not None else f"0x{(hit.value or 0) & 0xFFFFFFFF:08X}", hit.value if hit.code is None else hit.code.value)
