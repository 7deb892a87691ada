"""Which cause of a failure the log proves: the diagnosis each failure hit carries.

For each LLM DataDist failure, the lines of the same process within
:data:`~.evidence.WINDOW_LINES` lines and :data:`~.evidence.WINDOW_SECONDS`
seconds before and after it are read for the evidence of the code's causes (:mod:`.evidence`). A cause
is ``confirmed`` when such a line (or an earlier failure its evidence names)
is there, ``excluded`` when a line rules it out or the log's context (framework,
manager mode) is one it cannot apply to, and a ``candidate`` otherwise: never
confirmed without a line. :class:`Diagnoser` holds each log's events until the
lines after a failure are read (the scanner says how far it has read after
each block), so a diagnosis is the same whether the hits stream, go to
``--summary``, come from a ``-j`` worker, a file or a pipe; the evidence lines
kept are those the windows of the failures held, or still to come, can need.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections import deque
from collections.abc import Callable, Iterator
from functools import cache
from typing import TYPE_CHECKING, Any, NamedTuple

from ..registry.clues import Stamp
from ..registry.model import ONCE_KINDS, Cause, Registry, StatusCode
from .evidence import PROOF_TEXT, WINDOW_LINES, Line, Lines, book, same_process, seconds, within
from .hit import Hit
from .interrupt import held_back

if TYPE_CHECKING:
    from .events import Found
    from .timeline import ClueWatch

#: Lines that prove a cause kept per cause, the nearest to the failure (a log repeating the line
#: a thousand times proves it no better, and each would be in every report of the failure).
PROOFS = 3


class Proof(NamedTuple):
    """A line that proves a cause (or rules it out): its number and text (at most :data:`PROOF_TEXT`)."""

    line: int
    text: str


class Judged(NamedTuple):
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


class Diagnosis(NamedTuple):
    """Every cause of a failure's code, judged by the lines around it, confirmed ones first."""

    causes: tuple[Judged, ...]
    context: tuple[Context, ...] = ()

    def where(self, verdict: str) -> tuple[Judged, ...]:
        """The causes judged ``verdict``, in rank order."""
        return tuple(j for j in self.causes if j.verdict == verdict)


def _near(items: list, line: int) -> list:
    """The items (sorted by line, their ``[0]``) within the line window of ``line``."""
    lo = bisect_left(items, line - WINDOW_LINES, key=lambda s: s[0])
    hi = bisect_right(items, line + WINDOW_LINES, key=lambda s: s[0])
    return items[lo:hi]


def _excluded_by_context(cause: Cause, context: dict[str, Context]) -> str:
    """``mode`` or ``framework`` when the log's context is one the cause cannot apply to, else ``""``."""
    mode, framework = context.get("mode"), context.get("framework")
    if mode is not None and cause.applies_to.modes and mode.value not in cause.applies_to.modes:
        return "mode"
    frameworks = cause.applies_to.frameworks
    if framework is not None and frameworks and "api" not in frameworks and framework.value not in frameworks:
        return "framework"
    return ""


def _nearest(proofs: list[Proof], line: int) -> tuple[Proof, ...]:
    """The :data:`PROOFS` lines nearest ``line``, in line order."""
    nearest = sorted(dict.fromkeys(proofs), key=lambda p: abs(p.line - line))[:PROOFS]
    return tuple(sorted(nearest, key=lambda p: p.line))


class _Lines(NamedTuple):
    """The lines that prove one cause, and those that rule it out."""

    pro: list[Line]
    con: list[Line]


def _by_cause(code: StatusCode, proofs: list[Line]) -> dict[tuple[str, int], _Lines]:
    """``proofs`` by the cause of ``code`` each proves or rules out: one pass, whatever their number."""
    out: dict[tuple[str, int], _Lines] = {}
    for seen in proofs:
        for ref in seen.refs or ():
            found = ref.of(code) if ref.code == code.name else None
            if found is not None:
                lines = out.setdefault((ref.api, ref.cause), _Lines([], []))
                (lines.con if found[1].against else lines.pro).append(seen)
    return out


def _shown(lines: list[Line], line: int) -> list[Proof]:
    """The proofs of the :data:`PROOFS` lines of ``lines`` nearest ``line`` (each laid out once)."""
    return [Proof(s.line, s.shown()) for s in sorted(lines, key=lambda s: abs(s.line - line))[:PROOFS]]


def _judge_cause(cause: Cause, at: tuple[str, int], line: int, seen: _Lines,
                 prior: list[tuple[int, str, str]], context: dict[str, Context]) -> Judged:
    api, index = at
    if seen.con:
        return Judged(api, index, "excluded", _nearest(_shown(seen.con, line), line), "against")
    why = _excluded_by_context(cause, context)
    if why:
        shown = context["mode" if why == "mode" else "framework"]
        return Judged(api, index, "excluded", (Proof(shown.line, f"{shown.kind}: {shown.value}"),), why)
    pro = _shown(seen.pro, line) + [Proof(n, text) for ev in cause.evidence if ev.code is not None
                                    for n, name, text in prior if name == ev.code]
    if pro:
        return Judged(api, index, "confirmed", _nearest(pro, line))
    return Judged(api, index, "candidate")


def judge(code: StatusCode, api: str | None, line: int, proofs: list[Line],
          prior: list[tuple[int, str, str]], context: dict[str, Context]) -> Diagnosis:
    """Every cause of ``code`` (of the ``api`` view, or of both when the API is not known) judged by
    the evidence lines ``proofs`` and the earlier failures ``prior`` near ``line``."""
    views = [v for v in code.views if api is None or v.api == api] or list(code.views)
    by_cause = _by_cause(code, proofs)
    none = _Lines([], [])
    judged = [_judge_cause(cause, (view.api, i), line, by_cause.get((view.api, i), none), prior, context)
              for view in views for i, cause in enumerate(view.causes)]

    def rank(j: Judged) -> tuple[int, int]:
        order = ("confirmed", "candidate", "excluded").index(j.verdict)
        return order, min((abs(p.line - line) for p in j.proofs), default=0) if order == 0 else 0

    return Diagnosis(tuple(sorted(judged, key=rank)), tuple(context.values()))


#: Lines of an exception's text read by :func:`diagnose_text`, its last (a traceback is short; a
#: hostile one is cut, and the message ends it).
TEXT_LINES = 10_000


def diagnose_text(code: StatusCode, text: str, registry: Registry, api: str | None = "python") -> Diagnosis:
    """The diagnosis of a failure of ``code`` whose whole story is ``text``: an exception's message
    and traceback (``%llmstatus --last``). Every line is evidence; the context is what any line shows."""
    from .timeline import ClueWatch

    lines = text.splitlines()
    first = max(0, len(lines) - TEXT_LINES)  # a traceback ends with its message: keep the end
    lines = lines[first:]
    watch = ClueWatch(registry)
    evidence = Lines(registry, lambda _line: None)
    for no, line in enumerate(lines, first + 1):
        watch.line(line, no)
        evidence.line(line, no)
    context: dict[str, Context] = {}
    for clue in watch.clues:
        if clue.kind in ONCE_KINDS:
            context.setdefault(clue.kind, Context(clue.kind, clue.value, clue.line_no))
    api = context["api"].value if "api" in context else api
    return judge(code, api, first + len(lines), evidence.holding(code.name), [], context)


@cache
def _named_codes(code: StatusCode) -> frozenset[str]:
    """The codes whose earlier failure is evidence of one of ``code``'s causes."""
    return frozenset(ev.code for view in code.views for cause in view.causes for ev in cause.evidence
                     if ev.code is not None)


class Diagnoser:
    """Attaches a :class:`Diagnosis` to each failure hit of one log's events, holding them until the
    lines after the failure (:data:`WINDOW_LINES`) are read or the log ends."""

    def __init__(self, registry: Registry, watch: ClueWatch, evidence: Lines,
                 times: Callable[[str], Stamp | None]) -> None:
        self._watch, self._evidence, self._times = watch, evidence, times
        # The events held, each with its failures and the lines of its first and last (None: none).
        self._pending: deque[tuple[Found, list[Hit], int | None, int | None]] = deque()
        # The failures of the codes some cause names as evidence: line, process, name, text, time.
        self._named = book(registry).named
        self._failures: list[tuple[int, str | None, str, str, tuple[float | None, float] | None]] = []
        self._clues_read = 0  # clues of the watch looked at for context
        self._context: list[Context] = []  # the context clues read so far (a few: each once per log)
        self._cache: dict[tuple, Diagnosis] = {}

    def feed(self, found: Found) -> Iterator[Found]:
        """Take ``found`` now (whole, with Ctrl-C held back: an event holds many hits,
        :data:`~.pipeline.BATCH`); the events whose window has been read, in order, as they are
        taken from the ones held."""
        with held_back():
            failed = [hit for hit in found.hits if hit.is_failure]
            for hit in failed:
                if hit.code is not None and hit.code.name in self._named:
                    self._failures.append((hit.line_no, hit.process, hit.code.name, hit.line[:PROOF_TEXT],
                                           seconds(self._times(hit.line))))
            if failed:  # hits come in line order
                self._pending.append((found, failed, failed[0].line_no, failed[-1].line_no))
            else:
                self._pending.append((found, failed, None, None))
        return self.read_to(found.hits[0].line_no if found.hits else 0)

    def read_to(self, line: int) -> Iterator[Found]:
        """The lines up to ``line`` are read: yield the events whose window is, in order."""
        pending = self._pending
        while pending and (pending[0][3] is None or pending[0][3] + WINDOW_LINES <= line):
            yield self._next()
        self._forget(line)

    def flush(self) -> Iterator[Found]:
        """The events still held (the log has ended)."""
        while self._pending:
            yield self._next()

    def _next(self) -> Found:
        """The first event held, diagnosed, then let go: Ctrl-C while it is judged leaves it held
        (:meth:`flush` judges it again), so that none of its hits is lost."""
        found = self._diagnosed(*self._pending[0][:2])
        del self._pending[0]  # (no call from here to the layer above: no Ctrl-C)
        return found

    def _forget(self, read: int) -> None:
        """Let go of the evidence and failures that no failure held, or still to come, can need: the
        held ones lie in their windows; the ones to come, after the lines read (the scanner may still
        hold the last few lines' hits: twice the window is kept)."""
        # The first event held holds the earliest failure held (events without one are not held).
        first = self._pending[0][2] if self._pending else None
        cutoff = (read - WINDOW_LINES if first is None else min(first, read - WINDOW_LINES)) - WINDOW_LINES
        self._evidence.forget_before(cutoff)
        if self._failures and self._failures[0][0] < cutoff:
            del self._failures[:bisect_left(self._failures, cutoff, key=lambda f: f[0])]

    def _diagnosed(self, found: Found, failed: list[Hit]) -> Found:
        """``found`` with each of its ``failed`` hits diagnosed (in place: the scan's own new hits).

        Where no line in reach of any of them can prove a cause and the log's context is the same
        for all (:meth:`_alike`), a failure's diagnosis is its code's, token's and process API's:
        made once per batch. A flood of a million failures is a batch after batch of those."""
        failed = [hit for hit in failed if hit.code is not None]
        if not failed:
            return found
        if not self._alike(failed[0].line_no, failed[-1].line_no):
            for hit in failed:
                hit.diagnosis = self.diagnose(hit)
            return found
        made: dict[tuple, Diagnosis] = {}
        for hit in failed:
            key = (hit.code.name, hit.token, hit.process_api)  # type: ignore[union-attr]  # (filtered)
            got = made.get(key)
            hit.diagnosis = got if got is not None else made.setdefault(key, self.diagnose(hit))
        return found

    def _alike(self, first: int, last: int) -> bool:
        """Whether the failures on lines ``first`` to ``last`` have no evidence line and no earlier
        failure in reach, and see the same context (no context line between the ends of their windows)."""
        lo, hi = first - WINDOW_LINES, last + WINDOW_LINES
        if self._evidence.any_between(lo, hi) or bisect_left(self._failures, hi + 1, key=lambda f: f[0]) \
                > bisect_left(self._failures, lo, key=lambda f: f[0]):
            return False
        self._read_clues()
        return not any(first + WINDOW_LINES < c.line <= hi for c in self._context)

    def _context_of(self, hit: Hit) -> dict[str, Context]:
        """What the log shows of the context up to the end of the failure's window (the first of
        each kind: a log is one deployment's; a line past the window is not read the same in a file
        and a pipe), and the API of the hit's own line prefix when no line said."""
        self._read_clues()
        out: dict[str, Context] = {}
        for shown in self._context:
            if shown.line <= hit.line_no + WINDOW_LINES:
                out.setdefault(shown.kind, shown)
        if "api" not in out and hit.process_api is not None:
            out["api"] = Context("api", hit.process_api, 0)
        return out

    def _read_clues(self) -> None:
        """Take the context clues the watch read since last asked."""
        clues = self._watch.clues
        if len(clues) > self._clues_read:
            self._context += [Context(c.kind, c.value, c.line_no) for c in clues[self._clues_read:]
                              if c.kind in ONCE_KINDS]
            self._clues_read = len(clues)

    def _prior(self, hit: Hit) -> list[tuple[int, str, str, tuple[float | None, float] | None]]:
        """The failures before ``hit`` in its window and process whose code is evidence of a cause."""
        named = _named_codes(hit.code)
        if not named:
            return []
        return [(line, code, text, when) for line, process, code, text, when in _near(self._failures, hit.line_no)
                if code in named and line < hit.line_no and same_process(process, hit.process)]

    def diagnose(self, hit: Hit) -> Diagnosis:
        """The diagnosis of the failure ``hit`` from the lines read so far."""
        code = hit.code
        assert code is not None
        proofs = self._evidence.near(hit.line_no, hit.process, code.name)
        prior = self._prior(hit)
        context = self._context_of(hit)
        api = context["api"].value if "api" in context else hit.api
        if proofs or prior:  # the failure's time matters only to the lines that could prove a cause
            when = seconds(self._times(hit.line))
            proofs = [s for s in proofs if within(when, s.seconds)]
            prior = [p for p in prior if within(when, p[3])]
        # Where the failure is matters once lines prove something (the nearest are shown first).
        earlier = [p[:3] for p in prior]
        key = ((code.name, api, tuple(s.line for s in proofs), tuple(earlier), tuple(context.values()),
                hit.line_no) if proofs or prior else (code.name, api, tuple(context.values())))
        got = self._cache.get(key)
        if got is None:
            if len(self._cache) >= 1024:
                self._cache.clear()
            got = self._cache[key] = judge(code, api, hit.line_no, proofs, earlier, context)
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
