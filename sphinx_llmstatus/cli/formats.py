"""The output formats of ``llmstatus`` (``--format text|json|markdown``), one class each.

Every command writes through the methods of one :class:`Format`, picked from
:data:`FORMATS` by name, so each command produces each format and no command
branches on the format. Each method returns the text to write (possibly
empty); renderers are imported when first used, which keeps start-up short.
"""

from __future__ import annotations

import os
import sys
from functools import cached_property, partial

TYPE_CHECKING = False  # typing costs ~3 ms of the `llmstatus CODE` start-up budget
if TYPE_CHECKING:
    from collections.abc import Callable, Iterator, Mapping, Sequence
    from typing import Any

    from ..registry.lookup import Match
    from ..registry.model import Registry, StatusCode
    from ..scan.events import Around as Context
    from ..scan.events import GroupSpan
    from ..scan.hit import Hit
    from ..scan.report import Report

    Found = Sequence[tuple[str, Sequence[Match]]]

#: How text and Markdown name standard input (JSON says ``"-"``).
STDIN_LABEL = "(standard input)"


def _named(file: str) -> str:
    """A file of the scan report (``"-"`` for standard input) as text and Markdown name it."""
    return STDIN_LABEL if file == "-" else file


class Format:
    """Base: ``lang`` (``en``/``zh``), ``color`` (ANSI colours, text only) and the ``registry`` whose
    tables (engines, bindings) the entries show (None: the packaged one)."""

    def __init__(self, lang: str, color: bool = False, registry: Registry | None = None) -> None:
        self.lang, self.color, self.registry = lang, color, registry

    def lookup(self, found: Found, full: bool = False) -> str:
        """Every meaning of every query: ``found`` is ``(query, matches)`` in order; ``full``: the
        whole entry where a format shortens it by default (text)."""
        raise NotImplementedError

    def codes(self, codes: Sequence[StatusCode], api: str | None) -> str:
        """A table (or list) of codes, names in ``api``'s spelling when given."""
        raise NotImplementedError

    def scan_hits(self, before: Context, hits: Sequence[Hit], after: Context, file: str | None,
                  context: bool, rendered: Sequence[str | None] = ()) -> str:
        """One group of scan hits of ``file`` (display name; None: standard input), with context
        lines when ``context``; ``rendered``: each hit's output as :meth:`prerender` made it
        (None for a hit to lay out here)."""
        raise NotImplementedError

    def scan_groups(self, groups: Sequence[GroupSpan], hits: Sequence[Hit],
                    file: str | None) -> str:
        """The hits of several lines with the lines around each (``-C``): ``groups`` are ``(before,
        number of its hits, after)`` of ``hits``, in order; laid out a group at a time."""
        return "".join(self.scan_hits(before, own, after, file, True) for before, own, after in _split(groups, hits))

    def scan_end(self, report: Report, summary_only: bool = False) -> str:
        """After every file was scanned: the report (first failure per process, counts, other
        layers); ``summary_only`` when no hit was written (``--summary``)."""
        raise NotImplementedError

    def prerender(self) -> Callable[[Sequence[Hit], str | None], list[str]] | None:
        """A picklable function giving the output of hits without ``-C`` that depends on nothing
        but the hit and its file (``-j`` workers run it), or None when the format keeps state
        across hits (text and Markdown say each remedy once)."""
        return None

    def merged(self, summary: Mapping[str, Any]) -> str:
        """A merged deployment summary (``llmstatus merge``): text lines (Markdown: a list)."""
        from ..render.text import log_safe
        from ..view.deployment import merged_lines

        return "".join(log_safe(line) + "\n" for line in merged_lines(summary, self.lang, self.registry))


def _split(groups: Sequence[GroupSpan], hits: Sequence[Hit]) -> Iterator[tuple[Context, Sequence[Hit], Context]]:
    """Each group of an event (``-C``) as ``(before, its hits, after)``."""
    at = 0
    for before, count, after in groups:
        yield before, hits[at:at + count], after
        at += count


def _described_alike(hit: Hit) -> tuple:
    """What a hit's description depends on (its code, family, symptom, token, API) but its line:
    a face lays out the description of hits alike once it points to the remedy given (a log
    repeats its codes: a flood of a million lines of one code lays out one)."""
    return (hit.kind, hit.family, id(hit.code), id(hit.symptom), hit.token, hit.value, hit.evidence,
            hit.process_api)


def _terminal_width() -> int:
    """Columns of the terminal on stdout; :data:`~..render.text.WIDTH` when it is not one."""
    from ..render.text import WIDTH

    try:
        return max(40, os.get_terminal_size(sys.stdout.fileno()).columns)
    except (OSError, ValueError, AttributeError):
        return WIDTH


class TextFormat(Format):
    """Terminal text: cards, aligned tables, ``FILE:LINE:`` hits (grep-like) and a summary."""

    #: Other layers' hits listed in the text report (all of them are counted in the summary).
    MAX_OTHER_SHOWN = 50

    def __init__(self, lang: str, color: bool = False, registry: Registry | None = None) -> None:
        super().__init__(lang, color, registry)
        self._other: list[str] = []
        self._other_count = 0
        # Where each code's remedy was printed (FILE:LINE): later hits of it point there.
        self._remedy_at: dict[str, str] = {}
        # What hits of one code say once its remedy was given: by everything hit_desc reads.
        self._descs: dict[tuple, str] = {}
        self._clipped: dict[tuple[str, int], str] = {}  # hit lines as shown, by text and token start
        # -C state: the file of the last group, its last line shown, its "after" lines not yet
        # shown, and whether any group was shown (for the "--" separators).
        self._ctx_file: str | None = None
        self._ctx_last = 0
        self._ctx_pending: Context = []
        self._ctx_shown = False

    def lookup(self, found: Found, full: bool = False) -> str:
        from ..render import text
        from ..render.labels import label

        blocks = []
        for query, matches in found:
            head = ""
            if len(matches) > 1:
                head = text.style(label("{query}: {n} meanings", self.lang, query=query, n=len(matches)),
                                  "bold", color=self.color) + "\n"
            blocks.append(head + "\n\n".join(text.card(m.code, self.lang, m.reading, self.color, self.registry,
                                                         full=full, width=_terminal_width())
                                               for m in matches))
        return "\n\n".join(blocks) + "\n" if blocks else ""

    def codes(self, codes: Sequence[StatusCode], api: str | None) -> str:
        from ..render.text import table

        return table(codes, self.lang, api=api) + "\n" if codes else ""

    @cached_property
    def _text(self) -> Any:
        """The text renderer (imported at first use, then kept: asked for every line's hits)."""
        from ..render import text

        return text

    def scan_hits(self, before: Context, hits: Sequence[Hit], after: Context, file: str | None,
                  context: bool, rendered: Sequence[str | None] = ()) -> str:
        file = file or STDIN_LABEL
        own = self._own(hits, file)
        if not own:
            return ""
        if not context:
            return "\n".join(own) + "\n"
        return "\n".join(self._with_context(before, own, hits[0].line_no, after, file)) + "\n"

    def scan_groups(self, groups: Sequence[GroupSpan], hits: Sequence[Hit],
                    file: str | None) -> str:
        # The groups' lines joined once, their hits laid out at once (a flood of code lines is a
        # group a line: the line after the last group's, shown without a call).
        file, parts, at = file or STDIN_LABEL, list[str](), 0
        each = self._own_each(hits, file)
        for before, count, after in groups:
            if count == 1:  # (most lines have one hit)
                line = each[at]
                own = [] if line is None else [line]
            else:
                own = [line for line in each[at:at + count] if line is not None]
            line_no, at = hits[at].line_no, at + count
            if not own:
                continue
            if line_no == self._ctx_last + 1 and file == self._ctx_file:  # (as _with_context)
                self._ctx_last, self._ctx_pending = line_no, after
                parts += own
            else:
                parts += self._with_context(before, own, line_no, after, file)
        return "\n".join(parts) + "\n" if parts else ""

    def _own(self, hits: Sequence[Hit], file: str) -> list[str]:
        """The text lines of ``hits`` of LLM DataDist and symptoms; other layers' numbers are kept
        for their own section at the end (:meth:`scan_end`)."""
        return [line for line in self._own_each(hits, file) if line is not None]

    def _own_each(self, hits: Sequence[Hit], file: str) -> list[str | None]:
        """Each of ``hits``' text lines (:meth:`_own`), None for an other layer's."""
        text = self._text
        own: list[str | None] = []
        for h in hits:
            if h.kind == "code" and not h.is_llm_datadist:
                self._other_count += 1
                if len(self._other) < self.MAX_OTHER_SHOWN:
                    self._other.append(self._hit_line(h, file, text))
                own.append(None)
                continue
            line = self._hit_line(h, file, text)
            if h.consequence_of is not None:
                from ..render.labels import label

                f, n, name = h.consequence_of
                where = f"{_named(f)}:{n}"
                line += "\n    " + label("(likely a consequence of {name} at {where})", self.lang,
                                         name=name, where=where)
            own.append(line)
        return own

    def _hit_line(self, hit: Hit, file: str, text: Any) -> str:
        """:func:`~..render.text.hit_line` (``text``: that module), its description made once per
        code, family, symptom, token and API once it points to the remedy given (a log repeats its
        codes: a flood of a million lines of one code lays out one)."""
        key = _described_alike(hit)
        desc = self._descs.get(key)
        if desc is None:
            where = self._remedy_where(hit, file)
            desc = text.hit_desc(hit, self.lang, self.color, where)
            if where is not None or hit.code is None and hit.kind == "code" and hit.is_llm_datadist:
                if len(self._descs) >= 4096:
                    self._descs.clear()
                self._descs[key] = desc
        at = f"{file}:{hit.line_no}"
        if self.color:
            at = text.style(at, "dim", color=True)
        clipped = self._clipped.get((hit.line, hit.start))  # a repeated line's text is one object
        if clipped is None:
            clipped = text.clip_line(hit)
            if len(hit.line) <= 1024:  # (memory: at most 4,096 such lines kept)
                if len(self._clipped) >= 4096:
                    self._clipped.clear()
                self._clipped[hit.line, hit.start] = clipped
        return f"{at}: {desc}\n    {clipped}"

    def _remedy_where(self, hit: Hit, file: str) -> str | None:
        """Where ``hit``'s code (symptom, other layer's code) got its remedy or check already
        (None: this hit gives it)."""
        from ..scan.report import hit_name

        if hit.kind == "code" and hit.is_llm_datadist and hit.code is None:
            return None  # an unknown number has no remedy to repeat
        key = f"{hit.kind}/{hit.family}/{hit_name(hit)}/{hit.api}"
        where = self._remedy_at.get(key)
        if where is None:
            self._remedy_at[key] = f"{_named(file)}:{hit.line_no}"
        return where

    def _with_context(self, before: Context, own: list[str], line_no: int, after: Context, file: str) -> list[str]:
        """The text lines of a group, like ``grep -C``: each line once, ``--`` between groups that
        are not adjacent. The "after" lines wait for the next group, which may show some of them
        as hits."""
        if line_no == self._ctx_last + 1 and file == self._ctx_file:
            # The line after the last group's (a run of hit lines: a flood's every line): the lines
            # before it were shown, and those waiting after the last are its own or later ones.
            self._ctx_last, self._ctx_pending = line_no, after
            return own
        # Line numbers only grow within a file: going back means the same name given again.
        new_file = file != self._ctx_file or line_no <= self._ctx_last
        parts = self._flush_context() if new_file else self._flush_context(until=line_no)
        if new_file:
            self._ctx_file, self._ctx_last = file, 0
        if before and before[-1][0] <= self._ctx_last:  # shown already (a run of hit lines)
            before = []
        elif before:
            before = [(n, t) for n, t in before if n > self._ctx_last]
        first = before[0][0] if before else line_no
        if self._ctx_shown and (new_file or first > self._ctx_last + 1):
            parts.append("--")
        parts += self._context_lines(before) + own
        self._ctx_last, self._ctx_pending, self._ctx_shown = line_no, list(after), True
        return parts

    def _flush_context(self, until: int | None = None) -> list[str]:
        """The waiting "after" lines (those before line ``until`` when given), as text lines."""
        if not self._ctx_pending or until is not None and self._ctx_pending[0][0] >= until:
            self._ctx_pending = []  # (the next group shows them: a run of hit lines)
            return []
        pending = [(n, t) for n, t in self._ctx_pending if until is None or n < until]
        self._ctx_pending = []
        if pending:
            self._ctx_last = pending[-1][0]
        return self._context_lines(pending)

    def _context_lines(self, lines: Context) -> list[str]:
        if not lines:
            return []
        text = self._text
        return [text.style(f"{self._ctx_file}-{n}-", "dim", color=self.color) + "  " + text.clip_line_text(t)
                for n, t in lines]

    def scan_end(self, report: Report, summary_only: bool = False) -> str:
        from ..render import text
        from ..render.labels import label

        tail = self._flush_context()
        head = "\n".join(tail) + "\n" if tail else ""
        if self._other:
            more = self._other_count - len(self._other)
            head += (text.style(label("Other layers (not LLM DataDist; the exit status ignores them)", self.lang),
                               "bold", color=self.color) + ":\n" + "\n".join(self._other) + "\n"
                    + ("… " + label("{n} more not shown", self.lang, n=more) + "\n" if more > 0 else ""))
        from ..view.hits import after_note

        after = {key: after_note(hit, self.lang) for key, hit in report.preceded.items()}
        return head + text.report_summary(report, self.lang, self.color, stdin=STDIN_LABEL, after=after) + "\n"


class JsonFormat(Format):
    """JSON: one array per lookup/search/list; scan writes JSON Lines, one object per hit."""

    @staticmethod
    def _dump(value: Any) -> str:
        from ..render.json import dumps

        return dumps(value, indent=2) + "\n"

    def lookup(self, found: Found, full: bool = False) -> str:
        from ..render.json import entry_dict

        return self._dump([{**entry_dict(m.code, self.lang, self.registry), "query": query, "reading": m.reading}
                           for query, matches in found for m in matches])

    def codes(self, codes: Sequence[StatusCode], api: str | None) -> str:
        from ..render.json import entry_dict

        return self._dump([entry_dict(c, self.lang, self.registry) for c in codes])

    def scan_hits(self, before: Context, hits: Sequence[Hit], after: Context, file: str | None,
                  context: bool, rendered: Sequence[str | None] = ()) -> str:
        from ..render.json import hit_json

        file = file or "-"
        extra: dict[str, Any] = {}
        if context:
            extra = {"before": [{"line": n, "text": t} for n, t in before],
                     "after": [{"line": n, "text": t} for n, t in after]}
        return "".join(line if line is not None else hit_json(h, file, self.lang, extra) + "\n"
                       for h, line in zip(hits, rendered or [None] * len(hits)))

    def prerender(self) -> Callable[[Sequence[Hit], str | None], list[str]] | None:
        return partial(json_lines, lang=self.lang)


    def scan_end(self, report: Report, summary_only: bool = False) -> str:
        from ..render.json import dumps

        # JSON Lines of hits stay hits only; --summary prints the report as one object.
        return dumps(report.as_dict(self.lang)) + "\n" if summary_only else ""

    def merged(self, summary: Mapping[str, Any]) -> str:
        from ..render.json import dumps

        return dumps(summary) + "\n"


def json_lines(hits: Sequence[Hit], name: str, lang: str) -> list[str]:
    """The JSON Lines of ``hits`` of the input ``name`` as :class:`JsonFormat` writes them without
    ``-C``: what a ``-j`` worker prepares, so that the command only writes it."""
    from ..render.json import hit_json

    file = shown_name(name) or "-"
    return [hit_json(h, file, lang) + "\n" for h in hits]


def shown_name(name: str) -> str | None:
    """How an input is named in the output: its path escaped, standard input's members after
    :data:`STDIN_LABEL`; None for standard input itself (each format names it)."""
    from .output import shown_path

    if name == "-":
        return None
    if name.startswith("-{"):
        return STDIN_LABEL + shown_path(name[1:])
    return shown_path(name)


class MarkdownFormat(Format):
    """Markdown (for issues and chat): cards with per-API tables, code tables, one row per hit."""

    def __init__(self, lang: str, color: bool = False, registry: Registry | None = None) -> None:
        super().__init__(lang, color, registry)
        self._scan_started = False
        from ..view.hits import AdviceOnce

        self._once = AdviceOnce()  # a remedy or check once per code, later rows point at it
        #: The cells of hits described alike (:func:`_described_alike`) once they point to the advice given.
        self._cells: dict[tuple | None, str] = {}

    def lookup(self, found: Found, full: bool = False) -> str:
        from ..render import markdown

        return "\n---\n\n".join(markdown.cards([(m.code, m.reading) for m in matches], self.lang, query)
                                for query, matches in found)

    def codes(self, codes: Sequence[StatusCode], api: str | None) -> str:
        from ..render import markdown

        return markdown.table(codes, self.lang, api=api) if codes else ""

    def scan_hits(self, before: Context, hits: Sequence[Hit], after: Context, file: str | None,
                  context: bool, rendered: Sequence[str | None] = ()) -> str:
        from ..render import markdown, text
        from ..view.hits import HitRow

        # Every hit is a row: other layers' codes and symptoms say what they are and what to check.
        own = list(hits)
        if not own:
            return ""
        head = ""
        if not self._scan_started:
            self._scan_started = True
            head = markdown.hits_header(self.lang, with_file=True, with_context=context)
        around = [(n, text.clip_line_text(t)) for n, t in (*before, *after)] if context else None
        named = _named(file or STDIN_LABEL)
        out = [head]
        for h in own:
            line = text.clip_line(h)
            key = _described_alike(h) if h.consequence_of is None else None
            cells = self._cells.get(key)
            if cells is None:
                row = self._once.shorten(HitRow.from_hit(h, self.lang, line=line, where=lambda f, n: f"{_named(f)}:{n}"),
                                         f"{named}:{h.line_no}", self.lang)
                cells = markdown.hit_cells(row, self.lang)
                if key is not None and (row.advice_kind == "pointer" or not row.advice):  # (the same from now on)
                    if len(self._cells) >= 4096:
                        self._cells.clear()
                    self._cells[key] = cells
            out.append(markdown.hit_row_of(h.line_no, line, cells, file=file or STDIN_LABEL, context=around) + "\n")
        return "".join(out)

    def merged(self, summary: Mapping[str, Any]) -> str:
        from ..render.markdown import esc
        from ..view.deployment import merged_lines

        # The same lines as the text: indented ones as (nested) list items, the others as paragraphs.
        out: list[str] = []
        for line in merged_lines(summary, self.lang, self.registry):
            depth = (len(line) - len(line.lstrip(" "))) // 2
            if depth:
                out.append("  " * (depth - 1) + f"- {esc(line.strip())}\n")
            else:
                out.append(("\n" if out else "") + f"{esc(line)}\n\n")
        return "".join(out)

    def scan_end(self, report: Report, summary_only: bool = False) -> str:
        from ..render import markdown
        from ..render.labels import family_label, label
        from ..scan.peers import root_cause
        from ..view.deployment import peer_note, root_lines, where
        from ..view.hits import after_note, cut_notes, shown_counts

        counts = [(name, n) for name, n in report.counts.most_common()]
        notes = []
        for family, c in report.other.items():
            shown, more = shown_counts(c)
            counts += [(f"{name} ({family}, not LLM DataDist)", n) for name, n in shown]
            if more:
                notes.append(f"{family_label(family, self.lang)}: … " + label("{n} more not shown", self.lang, n=f"{more:,}"))

        ordered = report.ordered()
        items = [(_named(f), h, [note for note in (peer_note(entry, self.lang),
                                                    after_note(report.preceded[key], self.lang)
                                                    if key in report.preceded else None) if note])
                 for key, f, h, entry in ordered]
        head = root_lines(root_cause([row[3] for row in ordered]), len(ordered), self.lang)
        first = markdown.first_failures(items, self.lang, head, [where(row[3], self.lang) for row in ordered])
        notes += cut_notes(report, self.lang, lambda f, n: f"{_named(f)}:{n}")
        tail = "".join(f"\n{markdown.esc(note)}\n" for note in notes)
        return ("\n" if self._scan_started else "") + first + markdown.summary(counts, self.lang) + tail


#: ``--format`` name -> its class.
FORMATS: Mapping[str, type[Format]] = {"text": TextFormat, "json": JsonFormat, "markdown": MarkdownFormat}


def formatter(name: str, lang: str, color: bool, registry: Registry | None = None) -> Format:
    """A fresh :class:`Format` for ``--format name`` (one per run: markdown scans keep state)."""
    return FORMATS[name](lang, color, registry)

