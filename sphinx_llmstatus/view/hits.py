"""One scanned occurrence as a report row: what every face shows for it, decided once.

A hit is one of four kinds, and each face used to tell them apart on its own (three
``hit_name`` functions; the Markdown and notebook reports showed an HCCL symptom as an unknown
LLM DataDist code named after its text, with no check). :class:`HitRow` holds the kind, the name
to show, the layer, the verdict and what to do, in one language; text, HTML and Markdown only
lay it out.
"""

from __future__ import annotations

from typing import NamedTuple

from ..registry.model import LLM_DATADIST
from ..scan.report import hit_name

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections import Counter
    from collections.abc import Callable, Sequence

    from ..registry.model import StatusCode
    from ..scan.hit import Hit
    from ..scan.report import Report

#: ``kind`` values: an LLM DataDist code of the registry, an LLM DataDist number the registry does
#: not know, another layer's code (HCCL, HIXL/ADXL, ACL runtime, MindIE), a framework's words
#: for a hidden code.
KINDS = ("code", "unknown", "other", "symptom")


class HitRow(NamedTuple):
    """One occurrence, reduced to what a report shows.

    ``name`` is the code's name, the other layer's name, the symptom's id or the unknown number in
    hex; ``number`` its hex (None where there is none); ``layer`` the family's label;
    ``recoverable`` the verdict for ``api`` (``""`` for other layers and symptoms, which have none);
    ``advice`` the remedy of an LLM DataDist code, else the check to make first, and ``advice_kind``
    says which (``remedy``, ``check``, or ``pointer``: where an earlier row gave it, see
    :class:`AdviceOnce`); ``likely`` the code a symptom stands for; ``note`` says which earlier
    failure of its process this one likely follows from (:meth:`~..scan.report.Report.triage`).
    """

    line_no: int
    line: str
    token: str
    kind: str
    name: str
    number: str | None
    layer: str
    code: StatusCode | None
    api: str | None
    recoverable: str
    advice: str
    advice_kind: str
    likely: str | None = None
    note: str | None = None

    def qualifier(self, lang: str) -> str:
        """What the name is, when it is not an LLM DataDist code of the registry: ``unknown LLM
        DataDist code``, ``HCCL, not LLM DataDist``, ``symptom -> LLM_LINK_FAILED``; else ``""``."""
        from ..render.labels import label

        if self.kind == "unknown":
            return label("unknown LLM DataDist code", lang)
        if self.kind == "other":
            return f"{self.layer}, {label('not LLM DataDist', lang)}"
        if self.kind == "symptom":
            return label("symptom {id}", lang, id="").strip() + (f" -> {self.likely}" if self.likely else "")
        return ""

    def advice_label(self, lang: str) -> str:
        """``Remedy`` or ``Check``, in ``lang``: what :attr:`advice` is."""
        from ..render.labels import label

        return label("Check" if self.advice_kind == "check" else "Remedy", lang)

    @property
    def remedy(self) -> str:
        """The remedy (empty for a row whose advice is a check or a pointer to an earlier row)."""
        return self.advice if self.advice_kind == "remedy" else ""

    @classmethod
    def from_hit(cls, hit: Hit, lang: str, api: str | None = None, line: str | None = None,
                 where: Callable[[str, int], str] | None = None) -> HitRow:
        """The row of a scanner hit; ``api`` (``--api``) picks the API whose verdict is shown;
        ``line`` is the log line as the face will show it (clipped and made safe by the caller);
        ``where`` names a line of a file the face's way (``app.log:12``; default ``Line 12``)."""
        from ..render.labels import family_label, label

        kind = hit_kind(hit)
        shown = hit_api(hit, api) if kind == "code" else None
        view = hit.code.view(shown) if (hit.code is not None and shown) else None
        advice, advice_kind = _advice(hit, kind, view, lang)
        return cls(line_no=hit.line_no, line=line if line is not None else hit.line, token=str(hit.token),
                   kind=kind, name=hit_name(hit), number=_number(hit, kind),
                   layer=family_label(hit.family if kind != "symptom" else LLM_DATADIST, lang),
                   code=hit.code, api=shown,
                   recoverable=(view.recoverable if view else "unknown") if kind in ("code", "unknown") else "",
                   advice=advice, advice_kind=advice_kind,
                   likely=hit.code.name if kind == "symptom" and hit.code is not None else None,
                   note=_note(hit, lang, where or (lambda _file, n: f"{label('Line', lang)} {n}")))


def _note(hit: Hit, lang: str, where: Callable[[str, int], str]) -> str | None:
    """``(likely a consequence of NAME at WHERE)`` for a hit the triage marked, else None."""
    from ..render.labels import label

    if hit.consequence_of is None:
        return None
    file, line_no, name = hit.consequence_of
    return label("(likely a consequence of {name} at {where})", lang, name=name, where=where(file, line_no))


def hit_kind(hit: Hit) -> str:
    """Which of :data:`KINDS` ``hit`` is."""
    if hit.kind == "symptom":
        return "symptom"
    if hit.family != LLM_DATADIST:
        return "other"
    return "code" if hit.code is not None else "unknown"


def hit_api(hit: Hit, forced: str | None = None) -> str | None:
    """Which API's verdict to show: ``forced`` (``--api``) when the code has that API, else the
    API the scanner read from the token's form, else the code's first API (Python first)."""
    code = hit.code
    if code is None:
        return None
    if forced and code.view(forced) is not None:
        return forced
    return hit.api or (code.views[0].api if code.views else None)


def _number(hit: Hit, kind: str) -> str | None:
    if kind == "code":
        return hit.code.hex if hit.code is not None else None
    if hit.value is None or hit.value < 0 or kind == "symptom":
        return None
    return f"0x{hit.value & 0xFFFFFFFF:08X}"


def _advice(hit: Hit, kind: str, view: object, lang: str) -> tuple[str, str]:
    index = 1 if lang == "zh" else 0
    if kind == "symptom":
        check = getattr(hit.symptom, "check", None)
        return (check.get(lang) if check is not None else ""), "check"
    if kind == "other":
        return (hit.other_check[index] if hit.other_check else ""), "check"
    remedy = getattr(view, "remedy", None)
    return (remedy.get(lang) if remedy is not None else ""), "remedy"


def report_notes(hits: Sequence[Hit], report: Report, lang: str) -> list[str]:
    """What a scan report says after its rows, one sentence each, in ``lang``: the first failure
    of each process (and what it came after), the likely consequences of it, then each other
    layer's codes, from the ``report`` the triage of ``hits`` made. The notebook's text, HTML and
    Markdown all show these lines (the HTML and Markdown used to leave them out)."""
    from ..render.labels import family_label, label
    from ..render.text import log_safe, plain, process_label

    line = label("Line", lang)
    followed = [f"{line} {hit.line_no} {hit_name(hit)} {note}" for hit in sorted(hits, key=lambda h: (h.line_no, h.column))
                if (note := _note(hit, lang, lambda _file, n: f"{line} {n}")) is not None]
    first = label("First failure per process", lang)
    out = []
    from .diagnosis import diagnosis_lines, line_label, said, told_before, told_note

    ordered = report.ordered()
    for (key, _file, hit, _entry), told in zip(ordered, told_before([(f, h) for _k, f, h, _e in ordered], lang), strict=True):
        out.append(f"{first}: {line} {hit.line_no} {hit_name(hit)}, {process_label(hit.process, lang)}")
        if told is not None:
            out[-1] += ": " + told_note(told, lang, lambda _file, n: f"{line} {n}")
        elif hit.diagnosis is not None and hit.code is not None:
            # Each face escapes these lines its way; the log's words are made terminal-safe first.
            out += [f"{line_label(d.kind, lang)}: {said(d, lang, plain, log_safe)}" for d in
                    diagnosis_lines(hit.code, hit.diagnosis, lang)]  # type: ignore[arg-type]
        if key in report.preceded:
            out.append(after_note(report.preceded[key], lang))
    out += followed
    out += [f"{family_label(family, lang)} ({label('not LLM DataDist', lang)}): {counts_text(counts, lang)}"
            for family, counts in report.other.items()]
    return out + cut_notes(report, lang, lambda _file, n: f"{line} {n}")


class AdviceOnce:
    """What to do is said once per name in a report: the first row of a code, symptom or other
    layer's code gives its remedy or check, later rows point at that row (a log repeating a failure
    a thousand times used to repeat its remedy a thousand times)."""

    def __init__(self) -> None:
        self._first: dict[tuple[str, str, str | None], str] = {}

    def first_at(self, row: HitRow, where: str) -> str | None:
        """Where ``row``'s advice was given already (None: ``row`` gives it, at ``where``)."""
        key = (row.kind, row.name, row.api)
        if key not in self._first:
            self._first[key] = where
            return None
        return self._first[key]

    def shorten(self, row: HitRow, where: str, lang: str) -> HitRow:
        """``row``, or ``row`` with its advice replaced by a pointer to the row that gave it."""
        from ..render.labels import label

        given = self.first_at(row, where) if row.advice else None
        if given is None:
            return row
        pointer = label("remedy as at {where}" if row.advice_kind == "remedy" else "check as at {where}",
                        lang, where=given)
        return row._replace(advice=pointer, advice_kind="pointer")


#: Most names of one other layer a report's summary lists, the most frequent first (a dump's
#: line may list 4,096: the summary was one line of 61,000 characters).
OTHERS_SHOWN = 20


def shown_counts(counts: Counter[str]) -> tuple[list[tuple[str, int]], int]:
    """The :data:`OTHERS_SHOWN` most frequent ``(name, n)`` of ``counts``, and how many more there are."""
    return counts.most_common(OTHERS_SHOWN), max(0, len(counts) - OTHERS_SHOWN)


def counts_text(counts: Counter[str], lang: str) -> str:
    """``3 × HCCL_E_UNAVAIL, 1 × 83956525, … 4,076 more not shown``: :func:`shown_counts` as text."""
    from ..render.labels import label

    shown, more = shown_counts(counts)
    return ", ".join([f"{n} × {name}" for name, n in shown]
                     + ([f"… {label('{n} more not shown', lang, n=f'{more:,}')}"] if more else []))


def cut_notes(report: Report, lang: str, where: Callable[[str, int], str]) -> list[str]:
    """A sentence per line read for LLM DataDist's codes only after too many other layers'
    numbers (:attr:`.report.Report.others_cut`); ``where(file, line)`` names the line as the
    face names a hit's (``a.log:2``, ``Line 2``)."""
    from ..render.labels import label
    from ..scan.rules import MAX_OTHERS

    return [label(
        "{where}: more than {n} different other layers' numbers; only LLM DataDist codes read from column {column}",
        lang, where=where(file, line), n=f"{MAX_OTHERS:,}", column=f"{column + 1:,}")
        for (file, line), column in report.others_cut.items()]


def after_note(earlier: Hit, lang: str) -> str:
    """What a first failure came after in its process, and what to check about it: ``after
    symptom hccl-ranktable-devid-mismatch at line 1: check: HCCL found ...`` (Report.preceded)."""
    from ..render.labels import label
    from ..render.text import plain

    row = HitRow.from_hit(earlier, lang)
    what = f"{row.name} ({row.qualifier(lang)})" if row.qualifier(lang) else row.name
    check = f": {row.advice_label(lang)}: {plain(row.advice)}" if row.advice else ""
    return label("after {what} at line {line}", lang, what=what, line=earlier.line_no) + check
