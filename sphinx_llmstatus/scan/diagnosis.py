"""Which cause of a failure the log proves: the diagnosis each failure hit carries.

For each LLM DataDist failure, the lines of the same process within
:data:`WINDOW_LINES` lines and :data:`WINDOW_SECONDS` seconds before and after
it are read for the evidence of the code's causes (:mod:`.evidence`). A cause
is ``confirmed`` when such a line (or an earlier failure its evidence names)
is there, ``excluded`` when a line rules it out or the log's context (framework,
manager mode) is one it cannot apply to, and a ``candidate`` otherwise: never
confirmed without a line. :class:`Diagnoser` holds each log's events until the
lines after a failure are read, so a diagnosis is the same whether the hits
stream, go to ``--summary`` or come from a ``-j`` worker; memory stays bounded
by the window.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime
from functools import cache
from typing import TYPE_CHECKING, Any, NamedTuple

from ..registry.clues import Stamp
from ..registry.model import CONTEXT_KINDS, Cause, Registry, StatusCode
from .context import PrefixReader
from .evidence import Ref, book
from .hit import Hit

if TYPE_CHECKING:
    from .pipeline import Found
    from .timeline import ClueWatch

#: How far from a failure its evidence may be: lines before and after, and seconds when both are dated.
WINDOW_LINES = 200
WINDOW_SECONDS = 120
#: Characters of an evidence line kept (the line itself is in the log).
PROOF_TEXT = 300
#: Evidence lines and failures kept per log (older ones are dropped in halves past twice this).
KEEP = 4096


@dataclass(frozen=True, slots=True)
class Proof:
    """A line that proves a cause (or rules it out): its number and text (at most :data:`PROOF_TEXT`)."""

    line: int
    text: str


@dataclass(frozen=True, slots=True)
class Judged:
    """One cause of the failure's code (``api`` view, index ``cause``) and what the log says of it:
    ``verdict`` ``confirmed``, ``candidate`` or ``excluded``; ``why`` an exclusion's reason
    (``against``: a line rules it out; ``mode``, ``framework``: the context does)."""

    api: str
    cause: int
    verdict: str
    proofs: tuple[Proof, ...] = ()
    why: str = ""

    def of(self, code: StatusCode) -> Cause:
        """The registry cause this judges."""
        return code.view(self.api).causes[self.cause]  # type: ignore[union-attr]


class Context(NamedTuple):
    """What the log shows of where the failure ran: ``kind`` (``framework``, ``mode``, ``api``,
    ``version``), its value and the line that shows it (0: the failure's own line prefix)."""

    kind: str
    value: str
    line: int


@dataclass(frozen=True, slots=True)
class Diagnosis:
    """Every cause of a failure's code, judged by the lines around it, confirmed ones first."""

    causes: tuple[Judged, ...]
    context: tuple[Context, ...] = ()

    def where(self, verdict: str) -> tuple[Judged, ...]:
        """The causes judged ``verdict``, in rank order."""
        return tuple(j for j in self.causes if j.verdict == verdict)


class _Seen(NamedTuple):
    line: int
    process: str | None
    time: Stamp | None
    text: str
    refs: tuple[Ref, ...]


class Watcher:
    """The evidence lines of one log, read as the scan meets them (bounded: :data:`KEEP`)."""

    def __init__(self, registry: Registry, times: object) -> None:
        self._book = book(registry)
        self._prefix = PrefixReader(registry)
        self._times = times
        self.seen: list[_Seen] = []

    def line(self, text: str, line_no: int, literals: list[str] | None = None) -> None:
        """Read ``text`` (line ``line_no``, holding the watched ``literals``) for evidence."""
        refs = self._book.read(text, literals)
        if refs:
            self.seen.append(_Seen(line_no, self._prefix(text).process, self._times(text),  # type: ignore[operator]
                                   text[:PROOF_TEXT], refs))
            if len(self.seen) > 2 * KEEP:
                del self.seen[:KEEP]

    def wants(self, literal: str) -> bool:
        """True when ``literal`` is an evidence format's (its lines are always read)."""
        return literal in self._book.literals


def _seconds(a: Stamp, b: Stamp) -> float:
    """Seconds between two times (a missing year: both taken in one leap year)."""
    year = a[0] or b[0] or 2000
    ta = datetime(a[0] or year, *a[1:])
    tb = datetime(b[0] or year, *b[1:])
    return abs((ta - tb).total_seconds())


def _near(items: list, line: int) -> list:
    """The items (sorted by line, each ``.line`` or ``[0]``) within the line window of ``line``."""
    lo = bisect_left(items, line - WINDOW_LINES, key=lambda s: s[0])
    hi = bisect_right(items, line + WINDOW_LINES, key=lambda s: s[0])
    return items[lo:hi]


def _same_process(a: str | None, b: str | None) -> bool:
    return a is None or b is None or a == b


def _excluded_by_context(cause: Cause, context: dict[str, Context]) -> str:
    """``mode`` or ``framework`` when the log's context is one the cause cannot apply to, else ``""``."""
    mode, framework = context.get("mode"), context.get("framework")
    if mode is not None and cause.applies_to.modes and mode.value not in cause.applies_to.modes:
        return "mode"
    frameworks = cause.applies_to.frameworks
    if framework is not None and frameworks and "api" not in frameworks and framework.value not in frameworks:
        return "framework"
    return ""


def _judge_cause(cause: Cause, at: tuple[str, int], proofs: list[_Seen],
                 prior: list[tuple[int, str, str]], context: dict[str, Context]) -> Judged:
    api, index = at
    pro: list[Proof] = []
    con: list[Proof] = []
    for seen in proofs:
        for ref in seen.refs:
            if (ref.api, ref.cause) == at and ref.evidence < len(cause.evidence):
                (con if cause.evidence[ref.evidence].against else pro).append(Proof(seen.line, seen.text))
    for ev in cause.evidence:
        if ev.code is not None:
            pro += [Proof(line, text) for line, name, text in prior if name == ev.code]
    if con:
        return Judged(api, index, "excluded", tuple(con), "against")
    why = _excluded_by_context(cause, context)
    if why:
        line = context["mode" if why == "mode" else "framework"]
        return Judged(api, index, "excluded", (Proof(line.line, f"{line.kind}: {line.value}"),), why)
    if pro:
        return Judged(api, index, "confirmed", tuple(dict.fromkeys(pro)))
    return Judged(api, index, "candidate")


def judge(code: StatusCode, api: str | None, line: int, proofs: list[_Seen],
          prior: list[tuple[int, str, str]], context: dict[str, Context]) -> Diagnosis:
    """Every cause of ``code`` (of the ``api`` view, or of both when the API is not known) judged by
    the evidence lines ``proofs`` and the earlier failures ``prior`` near ``line``."""
    views = [v for v in code.views if api is None or v.api == api] or list(code.views)
    judged = [_judge_cause(cause, (view.api, i), proofs, prior, context)
              for view in views for i, cause in enumerate(view.causes)]

    def rank(j: Judged) -> tuple[int, int]:
        order = ("confirmed", "candidate", "excluded").index(j.verdict)
        return order, min((abs(p.line - line) for p in j.proofs), default=0) if order == 0 else 0

    return Diagnosis(tuple(sorted(judged, key=rank)), tuple(context.values()))


#: Lines of an exception's text read by :func:`diagnose_text` (a traceback is short; a hostile one is cut).
TEXT_LINES = 10_000


def diagnose_text(code: StatusCode, text: str, registry: Registry, api: str | None = "python") -> Diagnosis:
    """The diagnosis of a failure of ``code`` whose whole story is ``text``: an exception's message
    and traceback (``%llmstatus --last``). Every line is evidence; the context is what any line shows."""
    from .timeline import ClueWatch

    lines = text.splitlines()[:TEXT_LINES]
    watch = ClueWatch(registry)
    evidence = Watcher(registry, lambda _line: None)
    for no, line in enumerate(lines, 1):
        watch.line(line, no)
        evidence.line(line, no)
    context: dict[str, Context] = {}
    for clue in watch.clues:
        if clue.kind in CONTEXT_KINDS or clue.kind == "version":
            context.setdefault(clue.kind, Context(clue.kind, clue.value, clue.line_no))
    api = context["api"].value if "api" in context else api
    proofs = [s for s in evidence.seen if any(r.code == code.name for r in s.refs)]
    return judge(code, api, len(lines), proofs, [], context)


@cache
def _named_codes(code: StatusCode) -> frozenset[str]:
    """The codes whose earlier failure is evidence of one of ``code``'s causes."""
    return frozenset(ev.code for view in code.views for cause in view.causes for ev in cause.evidence
                     if ev.code is not None)


class Diagnoser:
    """Attaches a :class:`Diagnosis` to each failure hit of one log's events, holding them until the
    lines after the failure (:data:`WINDOW_LINES`) are read or the log ends."""

    def __init__(self, registry: Registry, watch: ClueWatch, evidence: Watcher, times: object) -> None:
        self._registry, self._watch, self._evidence, self._times = registry, watch, evidence, times
        self._pending: list[Found] = []
        self._failures: list[tuple[int, str | None, str, str]] = []  # line, process, name, text
        self._cache: dict[tuple, Diagnosis] = {}

    def feed(self, found: Found) -> Iterator[Found]:
        """Take ``found``; yield the events whose window has been read, in order."""
        for hit in found.hits:
            if hit.is_failure and hit.code is not None:
                self._failures.append((hit.line_no, hit.process, hit.code.name, hit.line[:PROOF_TEXT]))
        if len(self._failures) > 2 * KEEP:
            del self._failures[:KEEP]
        self._pending.append(found)
        progress = found.hits[0].line_no if found.hits else 0
        while self._pending and self._settled(self._pending[0], progress):
            yield self._diagnosed(self._pending.pop(0))

    def flush(self) -> Iterator[Found]:
        """The events still held (the log has ended)."""
        while self._pending:
            yield self._diagnosed(self._pending.pop(0))

    @staticmethod
    def _settled(found: Found, progress: int) -> bool:
        lines = [h.line_no for h in found.hits if h.is_failure]
        return not lines or max(lines) + WINDOW_LINES < progress

    def _diagnosed(self, found: Found) -> Found:
        for hit in found.hits:
            if hit.is_failure and hit.code is not None:
                # The scan's own new hit, not yet handed out: filled in place (a copy per failure costs).
                object.__setattr__(hit, "diagnosis", self.diagnose(hit))
        return found

    def _context(self, hit: Hit) -> dict[str, Context]:
        """What the log has shown of the context so far (the first of each kind: a log is one
        deployment's), and the API of the hit's own line prefix when no line said."""
        out: dict[str, Context] = {}
        for clue in self._watch.clues:
            if clue.kind in CONTEXT_KINDS or clue.kind == "version":
                out.setdefault(clue.kind, Context(clue.kind, clue.value, clue.line_no))
        if "api" not in out and hit.process_api is not None:
            out["api"] = Context("api", hit.process_api, 0)
        return out

    def diagnose(self, hit: Hit) -> Diagnosis:
        """The diagnosis of the failure ``hit`` from the lines read so far."""
        assert hit.code is not None
        name = hit.code.name
        proofs = [s for s in _near(self._evidence.seen, hit.line_no)
                  if _same_process(s.process, hit.process) and any(r.code == name for r in s.refs)]
        if proofs:
            when = self._times(hit.line)  # type: ignore[operator]
            proofs = [s for s in proofs if when is None or s.time is None or _seconds(when, s.time) <= WINDOW_SECONDS]
        named = _named_codes(hit.code)
        prior = [(line, code, text) for line, process, code, text in _near(self._failures, hit.line_no)
                 if code in named and line < hit.line_no and _same_process(process, hit.process)] if named else []
        context = self._context(hit)
        api = context["api"].value if "api" in context else hit.api
        key = (name, api, tuple((s.line, s.refs) for s in proofs), tuple(prior), tuple(context.values()))
        got = self._cache.get(key)
        if got is None:
            if len(self._cache) >= KEEP:
                self._cache.clear()
            got = self._cache[key] = judge(hit.code, api, hit.line_no, proofs, prior, context)
        return got


def _cause(code: StatusCode, judged: Judged, lang: str) -> dict[str, Any]:
    cause = judged.of(code)
    out: dict[str, Any] = {"cause": cause.when.get(lang), "check": cause.check.get(lang), "fix": cause.fix.get(lang),
                           "api": judged.api, "index": judged.cause}
    if judged.verdict == "confirmed":
        out["evidence"] = [{"line": p.line, "text": p.text} for p in judged.proofs]
    elif judged.verdict == "excluded":
        out["why"] = judged.why
        out["evidence"] = [{"line": p.line, "text": p.text} for p in judged.proofs]
    elif cause.unlogged:
        out["unlogged"] = cause.unlogged
    return out


def diagnosis_dict(code: StatusCode, diagnosis: Diagnosis, lang: str = "en") -> dict[str, Any]:
    """``{confirmed: [{cause, check, fix, api, index, evidence: [{line, text}]}], candidates: [{cause,
    check, fix, api, index, unlogged?}], excluded: [{..., why, evidence}], context: {kind: value}}``:
    ``index`` is the cause's place among the causes of the code's ``api`` view in the registry."""
    return {
        "confirmed": [_cause(code, j, lang) for j in diagnosis.where("confirmed")],
        "candidates": [_cause(code, j, lang) for j in diagnosis.where("candidate")],
        "excluded": [_cause(code, j, lang) for j in diagnosis.where("excluded")],
        "context": {c.kind: c.value for c in diagnosis.context},
    }
