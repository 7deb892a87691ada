"""Objects returned by ``%llmstatus`` / ``%%llmstatus``: usable in code, rich in Jupyter.

Each result carries its data as attributes (``r.value``, ``r.recoverable``,
``r.codes``, ``r.hits``...) and displays itself as ``text/plain`` in a
terminal and as ``text/html`` plus ``text/markdown`` in Jupyter
(``_repr_mimebundle_``, with ``_repr_pretty_``, ``_repr_html_`` and
``_repr_markdown_`` for front-ends that ask for one type). Rendering is done
on display, by the plain-text, HTML and Markdown renderers of
:mod:`sphinx_llmstatus.render`; nothing here imports IPython.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from functools import cached_property
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the registry is imported on first use, not when the extension loads
    from ..registry.lookup import Match
    from ..registry.model import StatusCode

class Result:
    """Shared display protocol; subclasses implement ``text``, ``html`` and ``markdown``."""

    lang: str = "en"

    def text(self) -> str:  # pragma: no cover - abstract
        raise NotImplementedError

    def html(self) -> str:  # pragma: no cover - abstract
        raise NotImplementedError

    def markdown(self) -> str:  # pragma: no cover - abstract
        raise NotImplementedError

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None) -> dict[str, str]:
        bundle = {"text/plain": self.text(), "text/html": self.html(), "text/markdown": self.markdown()}
        if include:
            bundle = {k: v for k, v in bundle.items() if k in include}
        if exclude:
            bundle = {k: v for k, v in bundle.items() if k not in exclude}
        return bundle

    def _repr_html_(self) -> str:
        return self.html()

    def _repr_markdown_(self) -> str:
        return self.markdown()

    def _repr_pretty_(self, p: Any, cycle: bool) -> None:
        p.text(self.text())

    def __str__(self) -> str:
        return self.text()


def _view_for_display(code: StatusCode, api: str | None = None):
    """The view to quote for a one-API answer: ``api`` if the code has it, else Python, else C++."""
    return (code.view(api) if api else None) or code.python or code.cpp


class CardResult(Result):
    """The answer to ``%llmstatus CODE``: one card per meaning of the query.

    ``matches`` holds every meaning (``-1`` has two); the scalar attributes
    (``name``, ``value``, ``recoverable``...) describe the first, most direct
    one, and ``ambiguous`` says whether there are others.
    """

    def __init__(self, matches: Sequence[Match], lang: str, query: str | None = None):
        self.matches: tuple[Match, ...] = tuple(matches)
        self.lang = lang
        self.query = query

    # -- data ------------------------------------------------------------------
    @property
    def codes(self) -> tuple[StatusCode, ...]:
        """Every code the query means, most direct first."""
        return tuple(m.code for m in self.matches)

    @property
    def code(self) -> StatusCode:
        return self.matches[0].code

    @property
    def ambiguous(self) -> bool:
        return len(self.matches) > 1

    @property
    def name(self) -> str:
        """Canonical name (the C++ constant where there is one)."""
        return self.code.name

    @property
    def names(self) -> Mapping[str, str]:
        """``{"python": ..., "cpp": ...}``: the spelling in each API that has the code."""
        return MappingProxyType({v.api: v.name for v in self.code.views})

    @property
    def value(self) -> int | None:
        return self.code.value

    @property
    def hex(self) -> str | None:
        return self.code.hex

    @property
    def recoverable(self) -> Mapping[str, str]:
        """``{"python": "yes", "cpp": "no"}``: recoverable per API (``yes``/``no``/``n/a``/``unknown``)."""
        return self.code.recoverable

    @property
    def meaning(self) -> str:
        """Meaning in ``lang``, as the Python API page words it (the C++ page for C++-only codes)."""
        return _view_for_display(self.code).meaning.get(self.lang)

    @property
    def remedy(self) -> Mapping[str, str]:
        """Remedy per API, in ``lang``."""
        return MappingProxyType({v.api: v.remedy.get(self.lang) for v in self.code.views})

    @property
    def related(self) -> tuple[str, ...]:
        return self.code.related

    @property
    def url(self) -> str:
        """The vendor page (or source) the first view cites."""
        return _view_for_display(self.code).source.url

    # -- display ---------------------------------------------------------------
    def _pairs(self) -> list[tuple[StatusCode, str | None]]:
        return [(m.code, m.reading) for m in self.matches]

    def text(self) -> str:
        from ..render import text as render_text
        from ..render.labels import label

        parts = []
        if self.query is not None and self.ambiguous:
            parts.append(label("{query}: {n} meanings", self.lang, query=self.query, n=len(self.matches)))
        parts += [render_text.card(code, self.lang, reading=reading, full=True) for code, reading in self._pairs()]
        return "\n\n".join(p.rstrip("\n") for p in parts)

    def html(self) -> str:
        from ..render import html as render_html

        return render_html.cards(self._pairs(), self.lang, self.query)

    def markdown(self) -> str:
        from ..render import markdown as render_md

        return render_md.cards(self._pairs(), self.lang, self.query)

    def __repr__(self) -> str:
        return f"<CardResult {' | '.join(c.name for c in self.codes)}>"


class ListResult(Result):
    """A table of codes: ``%llmstatus`` alone, a partial name, or ``--search``.

    Iterable and indexable like a tuple of :class:`StatusCode`;
    ``r["LLM_LINK_FAILED"]`` also works with any spelling.
    """

    def __init__(self, codes: Sequence[StatusCode], lang: str, *, api: str | None = None, title: str = ""):
        self.codes: tuple[StatusCode, ...] = tuple(codes)
        self.lang = lang
        self.api = api
        self.title = title

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(c.name for c in self.codes)

    def __len__(self) -> int:
        return len(self.codes)

    def __iter__(self) -> Iterator[StatusCode]:
        return iter(self.codes)

    def __contains__(self, item: object) -> bool:
        if isinstance(item, str):
            return any(item.upper() in (s.upper() for s in c.spellings) for c in self.codes)
        return item in self.codes

    def __getitem__(self, key: int | str) -> StatusCode:
        if isinstance(key, str):
            for c in self.codes:
                if key.upper() in (s.upper() for s in c.spellings):
                    return c
            raise KeyError(key)
        return self.codes[key]

    def text(self) -> str:
        from ..render import text as render_text

        if not self.codes:
            return self.title
        body = render_text.table(self.codes, self.lang, api=self.api).rstrip("\n")
        return f"{self.title}\n{body}" if self.title else body

    def html(self) -> str:
        from ..render import html as render_html

        if not self.codes:
            return render_html.note(self.title)
        return render_html.table(self.codes, self.lang, api=self.api, caption=self.title or None)

    def markdown(self) -> str:
        from ..render import markdown as render_md

        if not self.codes:
            return render_md.note(self.title)
        return render_md.table(self.codes, self.lang, api=self.api, caption=self.title or None)

    def __repr__(self) -> str:
        return f"<ListResult {len(self.codes)} codes>"


class ScanResult(Result):
    """What ``%%llmstatus`` found in a pasted log.

    ``hits`` is every occurrence (the shared scanner's ``Hit`` objects: line
    number, line, token, value, code); ``codes`` the distinct known codes in
    order of first appearance; ``counts`` occurrences per code name (unknown
    numbers of the LLM DataDist layout count under their token). The display
    lists at most ``limit`` occurrences (None: all); the attributes hold all.
    ``text`` is the scanned text; ``lines`` (its line count) is computed on
    first use, so that returning the result costs nothing beyond the scan.
    """

    def __init__(
        self,
        hits: Sequence[Any],
        lang: str,
        *,
        text: str,
        api: str | None = None,
        include_success: bool = False,
        limit: int | None = None,
        report: Any = None,
    ):
        if report is None:  # hits not triaged yet (scan_text's): triaged here, as the scan would
            from ..scan.report import Report

            report = Report()
            hits = report.triage("", hits)
        #: What the triage of the hits made (:meth:`~..scan.report.Report.triage`).
        self.report = report
        # LLM DataDist hits (and symptoms) here; other layers' numbers (GE, ACL runtime,
        # HCCL, HIXL, scan/report.py) in ``other``, listed apart and never as LLM codes.
        every = tuple(hits)
        self.hits: tuple[Any, ...] = tuple(h for h in every if getattr(h, "family", "llm_datadist") == "llm_datadist")
        self.other: tuple[Any, ...] = tuple(h for h in every if getattr(h, "family", "llm_datadist") != "llm_datadist")
        self.lang = lang
        self.text_scanned = text
        self.api = api
        self.include_success = include_success
        self.limit = limit

    def __len__(self) -> int:
        return len(self.hits)

    def __iter__(self) -> Iterator[Any]:
        return iter(self.hits)

    @staticmethod
    def _key(hit: Any) -> str:
        from ..scan.report import hit_name  # other layers' numbers count under their own name

        return hit_name(hit)

    @cached_property
    def lines(self) -> int:
        """Number of lines scanned (a last line without a newline counts)."""
        text = self.text_scanned
        return text.count("\n") + (0 if not text or text.endswith("\n") else 1)

    @cached_property
    def counts(self) -> Mapping[str, int]:
        """``{name: occurrences}`` in order of first appearance."""
        return MappingProxyType(dict(Counter(self._key(h) for h in self.hits)))

    @cached_property
    def codes(self) -> tuple[StatusCode, ...]:
        seen: dict[str, StatusCode] = {}
        for h in self.hits:
            if h.code is not None:
                seen.setdefault(h.code.name, h.code)
        return tuple(seen.values())

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(self.counts)

    def rows(self):
        """The displayed occurrences as :class:`~sphinx_llmstatus.render.html.HitRow`."""
        from ..render.labels import label
        from ..render.text import clip_line
        from ..view.hits import AdviceOnce, HitRow

        shown = self.hits if self.limit is None else self.hits[: self.limit]
        once, line = AdviceOnce(), label("Line", self.lang)
        return [once.shorten(HitRow.from_hit(h, self.lang, self.api, line=clip_line(h)), f"{line} {h.line_no}",
                             self.lang) for h in shown]

    def _args(self) -> dict[str, Any]:
        return dict(
            lines=self.lines, total=len(self.hits), success_hidden=not self.include_success
        )

    def text(self) -> str:
        from ..render.labels import RECOVERABLE_WORDS, label, scan_title
        from ..render.text import plain

        title = scan_title(self.lang, total=len(self.hits), lines=self.lines,
                           success_hidden=not self.include_success)
        out = [title]
        if not self.hits:
            out.append(label("No LLM DataDist status code found.", self.lang))
            return "\n".join(out)
        rows = self.rows()
        for row in rows:
            qualifier = row.qualifier(self.lang)
            name = row.name + (f" ({qualifier})" if qualifier else "")
            hexa = f" {row.number}" if row.number and row.number != row.name else ""
            rec = label(row.recoverable, self.lang) if row.recoverable in RECOVERABLE_WORDS else row.recoverable
            verdict = f"  [{label('Recoverable', self.lang)}: {rec}]" if rec else ""
            out.append(f"{label('Line', self.lang)} {row.line_no}: {name}{hexa}{verdict}")
            out.append(f"    {row.line}")
            if row.note:
                out.append(f"    {row.note}")
            if row.advice:
                out.append(f"    {row.advice_label(self.lang)}: {' '.join(plain(row.advice).split())}")
        if len(self.hits) > len(rows):
            out.append("… " + label("{n} more not shown", self.lang, n=len(self.hits) - len(rows)))
        out.append(
            f"{label('Summary', self.lang)}: " + ", ".join(f"{n} × {c}" for n, c in self.counts.items())
        )
        out += self.report_lines()
        return "\n".join(out)

    def report_lines(self) -> list[str]:
        """First failure per process and other layers' codes (view/hits.py), one line each."""
        from ..view.hits import report_notes

        return report_notes([*self.hits, *self.other], self.report, self.lang)

    def html(self) -> str:
        from ..render import html as render_html

        notes = "".join(f"<div>{render_html.esc(line)}</div>" for line in self.report_lines())
        return render_html.hits_table(self.rows(), list(self.counts.items()), self.lang, **self._args()) + notes

    def markdown(self) -> str:
        from ..render import markdown as render_md

        notes = "".join(f"- {render_md.esc(line)}\n" for line in self.report_lines())
        table = render_md.hits_table(self.rows(), list(self.counts.items()), self.lang, **self._args())
        return table + ("\n" + notes if notes else "")

    def __repr__(self) -> str:
        return f"<ScanResult {len(self.hits)} hits in {self.lines} lines>"


class LastResult(CardResult):
    """``%llmstatus --last``: the codes carried by the session's last exception.

    ``exception`` is the exception object; ``how`` says where the codes came
    from (``"status_code attribute"`` or ``"message and traceback text"``);
    ``hits`` are the scanner hits when they came from text. With no code
    found, ``codes`` is empty and the scalar attributes raise IndexError.
    """

    def __init__(
        self,
        exception: BaseException,
        matches: Sequence[Match],
        lang: str,
        *,
        how: str,
        hits: Sequence[Any] = (),
        diagnosis: Any = None,
    ):
        super().__init__(matches, lang)
        self.exception = exception
        self.how = how
        self.hits = tuple(hits)
        #: Which cause of the first code the exception's text and traceback prove (None: no code).
        self.diagnosis = diagnosis

    @property
    def summary(self) -> str:
        """``TypeName: message`` of the exception, on one line, cut at 200 characters."""
        from .lastexc import safe_str

        msg = " ".join(safe_str(self.exception).split())
        if len(msg) > 200:
            msg = msg[:199] + "…"
        return f"{type(self.exception).__name__}: {msg}" if msg else type(self.exception).__name__

    def _head(self) -> str:
        from ..render.labels import label

        # ``how`` is "status_code attribute", "message and traceback text", or both joined by "; ".
        how = "; ".join(label(part, self.lang) for part in self.how.split("; "))
        first = f"{label('Last exception', self.lang)}: {self.summary}"
        if not self.matches:
            return f"{first}\n{label('No LLM DataDist status code in it (checked: {how}).', self.lang, how=how.strip())}"
        return "\n".join([first, *self._diagnosis(), label("Status code from its {how}:", self.lang, how=how)])

    def _diagnosis(self) -> list[str]:
        """The diagnosis lines (``cause: ...``, ``check: ...``, ``fix: ...``) of the first code."""
        if self.diagnosis is None:
            return []
        from ..render.text import log_safe, plain
        from ..view.diagnosis import diagnosis_lines, line_label, said

        return [f"{line_label(d.kind, self.lang)}: {said(d, self.lang, plain, log_safe)}"
                for d in diagnosis_lines(self.code, self.diagnosis, self.lang)]

    def text(self) -> str:
        if not self.matches:
            return self._head()
        return self._head() + "\n\n" + super().text()

    def html(self) -> str:
        from ..render import html as render_html

        head = "".join(f"<div>{render_html.esc(line)}</div>" for line in self._head().splitlines())
        if not self.matches:
            return f'<div class="llmstatus llmstatus-note">{head}</div>'
        return f'<div class="llmstatus">{head}{super().html()}</div>'

    def markdown(self) -> str:
        from ..render import markdown as render_md

        head = "  \n".join(render_md.esc(line) for line in self._head().splitlines()) + "\n"
        return head if not self.matches else head + "\n" + super().markdown()

    def __repr__(self) -> str:
        return f"<LastResult {type(self.exception).__name__}: {' | '.join(c.name for c in self.codes) or 'no code'}>"
