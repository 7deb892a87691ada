"""Find status codes in text and byte streams: linear time, constant memory, any line length.

How: the input is read in blocks of whole lines, a line too long to hold in
pieces (:mod:`sphinx_llmstatus.scan.reading`). A prefilter
(:mod:`sphinx_llmstatus.scan.prefilter`: Hyperscan, or Python's ``re``)
finds the candidate lines; only those lines are decoded and matched with the
rules (:mod:`sphinx_llmstatus.scan.rules`), which confirm the tokens.

Attribution (issue 10): names and LLM-layout numbers are LLM DataDist's.
A number several layers share (``4294967295``/``ffffffff``, ``507053``,
``507057``) is LLM DataDist's only with LLM DataDist context
(:mod:`sphinx_llmstatus.scan.context`) on its line or on one of the
:data:`NEIGHBOURS` lines before or after it written by the same process;
otherwise it is reported under the family of the line's log module (``GE(``,
``HCCL(``, ``RUNTIME(``...) or of the number (GE's ``FAILED``; ACL runtime
for 507053/507057). Hits that wait for the lines after them are held back,
so hits still come out in order.
"""

from __future__ import annotations

from bisect import bisect_left
from collections import deque
from collections.abc import Callable, Container, Iterable, Iterator
from itertools import chain, islice
from typing import BinaryIO, Protocol, cast

from ..registry.layout import family_error_number
from ..registry.model import LLM_DATADIST, Registry, StatusCode
from . import helper as _helper
from . import prefilter as _prefilter
from . import timemask
from .context import CONTEXT_SPAN, HEAD, NEAR, NO_PREFIX, ContextFinder, Prefix, PrefixReader
from .evidence import book
from .hit import MAX_COLUMNS, Hit, astuple_but_line
from .interrupt import flat, held_back
from .prefilter import Prefiltered
from .reading import READ_SIZE, Block, LongPiece, Pause, iter_segments, line_counts
from .rules import Matcher, Token, Tokens
from .wire import Unpacker

#: Lines looked at on each side of a shared number for LLM DataDist context.
NEIGHBOURS = 3
#: Characters of a long line kept for its excerpt: its start, and around the token.
EXCERPT_HEAD = 200
EXCERPT_AROUND = 200
#: Hits in a run given to the layers above (:data:`Runs`) at most, but for a waiting line's (its
#: hits come at once): ``-C`` holds a run's groups together.
RUN = 1024



def _family_entry(registry: Registry, family: str, value: int) -> StatusCode | None:
    """The registry entry of ``family`` for a number of its own (HCCL's read through its error-number form)."""
    found = family_error_number(value, registry)
    if found is not None and found[0].key == family:
        return registry.by_family_value(family, found[1]) if found[1] else None
    code = registry.by_value(value)
    return code if code is not None and code.family == family else None


class Scanner:
    """The compiled rules, context finder and prefilter for one registry."""

    def __init__(self, registry: Registry, engine: str | None = None) -> None:
        self.registry = registry
        self.matcher = Matcher(registry)
        self.context = ContextFinder(registry)
        self.prefix = PrefixReader(registry)
        self.symptoms = tuple(getattr(registry, "symptoms", ()) or ())
        import re

        symptoms = [re.escape(s.pattern).encode() for s in self.symptoms]
        # The literals of the registry's clue lines (cluster ids, roles, context:
        # :class:`~.timeline.ClueWatch`) and of its causes' evidence (:mod:`.evidence`) join the
        # prefilter, so their lines are found in the same pass as the codes, each line reported apart.
        self.watch_literals = tuple(sorted({c.literal for c in getattr(registry, "log_clues", ()) if c.literal}
                                           | set(book(registry).literals)))
        #: Every watched literal's index: what a scan without a :class:`LineWatch` skips.
        self.unwatched = frozenset(range(len(self.watch_literals)))
        literals = [*self.matcher.literals, *(s.pattern.encode() for s in self.symptoms)]
        self.prefilter = _prefilter.make([*self.matcher.prefilter, *symptoms], literals, engine,
                                         [lit.encode() for lit in self.watch_literals], self._once(registry),
                                         [*self.matcher.prefilter_coloured, *symptoms])
        self.engine = self.prefilter.name
        self.times = timemask.TimeMask(
            [c.pattern for c in getattr(registry, "log_clues", ()) if c.kind == "time"],
            [f.pattern for f in self.prefix.formats],
            [*self.watch_literals, *self.context.words,
             *(t for s in self.symptoms for t in (s.pattern, *getattr(s, "quoted_by", ())))],
            self.matcher.digit_widths(), any(c.isdigit() for n in self.matcher.names for c in n))
        # Most lines hold no symptom: one search tells, before each symptom's own.
        self._any_symptom = re.compile("|".join(re.escape(s.pattern) for s in self.symptoms) or "(?!)").search

    def reading(self, include_success: bool, watch: LineWatch | None) -> _Segments:
        """The state of one scan with these rules (``watch``: what reads the lines of its watched literals)."""
        return _Segments(self, include_success, watch)

    def symptoms_in(self, line: str) -> list[tuple[object, int]]:
        """``(symptom, column)`` of each symptom on ``line`` (its first occurrence), but where the
        line only quotes it (the source line of a traceback)."""
        if self._any_symptom(line) is None:
            return []
        return [(sym, i) for sym in self.symptoms if (i := line.find(sym.pattern)) >= 0 and not sym.quoted(line, i)]

    def _once(self, registry: Registry) -> frozenset[int]:
        """The watched literals only context clues hold (read once per log: :class:`~.timeline.ClueWatch`)."""
        from ..registry.model import ONCE_KINDS

        evidence = book(registry).literals
        kinds: dict[str, set[str]] = {}
        for clue in getattr(registry, "log_clues", ()):
            kinds.setdefault(clue.literal, set()).add(clue.kind)
        return frozenset(i for i, lit in enumerate(self.watch_literals) if lit not in evidence
                         and kinds.get(lit, set()) <= set(ONCE_KINDS))


# Registry is unhashable (it holds dicts): cache by identity, keeping the
# registry alive so the id is not reused.
_SCANNERS: dict[tuple[int, str | None], tuple[Registry, Scanner]] = {}


def scanner(registry: Registry | None = None, engine: str | None = None) -> Scanner:
    """The compiled scanner for ``registry`` (the packaged one by default) and ``engine``, cached."""
    if registry is None:
        from ..registry.packaged import default_registry

        registry = default_registry()
    key = (id(registry), engine)
    entry = _SCANNERS.get(key)
    if entry is None or entry[0] is not registry:
        if len(_SCANNERS) >= 8:
            _SCANNERS.clear()
        entry = _SCANNERS[key] = (registry, Scanner(registry, engine))
    return entry[1]


def matcher(registry: Registry | None = None) -> Matcher:
    """The compiled recognition rules for ``registry`` (see :class:`Matcher`)."""
    return scanner(registry).matcher


# -- scanning --------------------------------------------------------------------------

class _Line:
    """What the hits of one line are made from: its tokens and symptoms, with absolute columns."""

    __slots__ = ("line_no", "head", "pre", "tokens", "symptoms", "excerpts", "length", "text", "near", "kept",
                 "shape", "others_cut")

    def __init__(self, line_no: int, head: bytes, pre: Prefix, text: str | None) -> None:
        self.line_no, self.head, self.pre, self.text = line_no, head, pre, text
        self.tokens: list[Token] = []
        self.symptoms: list[tuple[object, int]] = []
        self.excerpts: dict[int, tuple[str, int, int]] = {}  # long lines: column -> excerpt
        self.length = -1
        self.near: str | None = None  # LLM DataDist context word near the first shared number that has one
        self.kept: dict[object, int] = {}  # long lines: columns kept so far per token kind, and symptoms found
        self.shape: _Shape | None = None  # a short line's: what its text decides
        self.others_cut: int | None = None  # the column from which no other layer's number was read

    def take(self, shape: _Shape) -> None:
        """Make the line's hits from what its shape (a short line's text) decided."""
        self.tokens, self.symptoms, self.shape, self.others_cut = (
            shape.tokens, shape.symptoms, shape, shape.tokens.others_cut)


#: Short lines' shapes remembered (then forgotten all at once), and the longest line remembered:
#: at most SHAPES * SHAPE_BYTES of lines held (a few MB with their tokens).
SHAPES = 4096
SHAPE_BYTES = 1024


class _Shape:
    """What a short line's text decides, whatever its number: its text, tokens, symptoms and prefix,
    whether it holds a shared number and LLM DataDist context for it, and the hits it made (less
    their line number) per context decided.

    A log repeats its lines: a retry loop logs one failure a million times. A line seen before is
    decided once (:meth:`_Segments._shape`); only its number, and a shared number's neighbours,
    differ from one such line to the next."""

    __slots__ = ("text", "head", "pre", "tokens", "symptoms", "shared", "word", "alone", "decided", "made", "span",
                 "keyed")

    def __init__(self, sc: Scanner, raw: bytes, text: str, tokens: Tokens, symptoms: list) -> None:
        self.text, self.head, self.tokens, self.symptoms = text, raw[:CONTEXT_SPAN], tokens, symptoms
        self.pre = sc.prefix(text[:HEAD]) if tokens or symptoms else NO_PREFIX
        self.shared = any(t.kind == "shared" for t in tokens)
        self.word = _word_on(sc, self.head, text, tokens) if self.shared else None
        #: Whether the line alone decides its hits: no shared number, or its context on the line.
        self.alone = not self.shared or bool(self.word)
        #: The context its shared numbers have on the line (None: none, or no shared number).
        self.decided = _on_the_line(self.word) if self.word else None
        #: decided -> each hit's fields but the first two (the line's number and text)
        self.made: dict[tuple[str, str] | None, list[tuple]] = {}
        #: Where the time is, on a shape its lines share whatever their time (:mod:`.timemask`).
        self.span: tuple[int, int] | None = None
        #: Where the time was when the shape was keyed by it, till a second line keyed alike asks
        #: whether it is shared: most shapes of a log never come again, and the check costs.
        self.keyed: tuple[int, int] | None = None

    def shares(self, sc: Scanner, masked: bytes, span: tuple[int, int]) -> bool:
        """Whether a line keyed ``masked`` (:meth:`.timemask.TimeMask.keyed`), its time at ``span``, is of this
        shape; asked first by the second line keyed alike, answered once."""
        if self.keyed == span:
            self.keyed = None
            if self.timeless(sc, masked, span):
                self.span = span
        return self.span == span

    def timeless(self, sc: Scanner, masked: bytes, span: tuple[int, int]) -> bool:
        """Whether lines that differ from this one only by the digits of its time at ``span`` (its
        bytes ``masked`` by :meth:`.timemask.TimeMask.keyed`) hold what it holds (:mod:`.timemask`): nothing
        it was found to hold touches the time, nor may any literal with a digit or rule's number."""
        found = [(c, c + len(sym.pattern)) for sym, c in self.symptoms]
        for t in self.tokens:
            found += [(c, c + t.end - t.start) for c in t.occurrences()]
        a, b = span
        found += [(c, c + len(w)) for c, w in sc.context.find_all(self.text, max(0, a - _WORD), b + _WORD)]
        return not timemask.touches(span, found + sc.prefix.spans(self.text)) and sc.times.free(masked, span)


def _on_line(made: list[tuple], line_no: int, text: str) -> list[Hit]:
    """The hits a shape made (:attr:`_Shape.made`), on line ``line_no`` of ``text``."""
    if len(made) == 1:  # (most lines hold one code)
        return [Hit(line_no, text, *made[0])]
    return [Hit(line_no, text, *fields) for fields in made]


def _on_the_line(word: str) -> tuple[str, str]:
    """A shared number's attribution by the LLM DataDist context ``word`` on its line."""
    return LLM_DATADIST, f"LLM DataDist context {word!r} on the line"


def _word_on(sc: Scanner, head: bytes, text: str | None, tokens: list[Token], near: str | None = None) -> str | None:
    """The LLM DataDist context word on a line with a shared number: in its head, else near the
    number (``near``: a long line's, searched piece by piece as they came)."""
    word = sc.context.find_bytes(head, 0, len(head))
    if not word:
        word = near if text is None else _first_near(sc, text, tokens)
    return word


class _Pending:
    """The hits of one line, waiting for the lines after it (context of a shared number)."""

    __slots__ = ("line", "after")

    def __init__(self, line: _Line, after: list[bytes]) -> None:
        self.line, self.after = line, after


class _Run:
    """State of one scan: line count, the last lines (for context), hits held back."""

    def __init__(self, sc: Scanner) -> None:
        self.sc = sc
        self.line_no = 1
        self.tail: deque[bytes] = deque(maxlen=NEIGHBOURS)  # heads of the last lines read
        self.queue: deque[Hit | _Pending] = deque()
        self.taken: list[Hit] = []  # off the queue, not given yet (:meth:`ready`)

    def _context_of(self, raw: bytes, process: str | None) -> str | None:
        if self.sc.prefix(raw[:HEAD].decode("utf-8", "replace")).process != process:
            return None
        return self.sc.context.find_bytes(raw, 0, len(raw))

    def _near(self, lines: list[bytes], process: str | None, where: str) -> str | None:
        for distance, raw in enumerate(lines, 1):
            word = self._context_of(raw, process)
            if word:
                return f"LLM DataDist context {word!r} {distance} line{'s' if distance > 1 else ''} {where} (same process)"
        return None

    def add(self, ln: _Line, before: list[bytes], after: list[bytes], complete: bool) -> None:
        """Queue the hits of ``ln``; ``after`` are the lines after it known so far (all if ``complete``)."""
        shape = ln.shape
        if not (shape.shared if shape is not None else any(t.kind == "shared" for t in ln.tokens)):
            self.queue.extend(self._hits(ln, None))
            return
        if shape is not None and shape.word:
            self.queue.extend(self._hits(ln, shape.decided))
            return
        word = None if shape is not None else _word_on(self.sc, ln.head, ln.text, ln.tokens, ln.near)
        if word:
            self.queue.extend(self._hits(ln, _on_the_line(word)))
            return
        near = self._near(list(reversed(before)), ln.pre.process, "before")
        if near:
            self.queue.extend(self._hits(ln, ("llm_datadist", near)))
            return
        pending = _Pending(ln, after[:NEIGHBOURS])
        if complete or len(pending.after) >= NEIGHBOURS:
            self.queue.extend(self._resolve(pending))
        else:
            self.queue.append(pending)

    def _resolve(self, p: _Pending) -> list[Hit]:
        near = self._near(p.after, p.line.pre.process, "after")
        return self._hits(p.line, ("llm_datadist", near) if near else None)

    def _attribute(self, t: Token, pre: Prefix, decided: tuple[str, str] | None) -> tuple[str, str]:
        """``(family, evidence)`` of one token: its own family for another layer's number, LLM DataDist
        for names and layout numbers, and for a shared number what its context (``decided``) or its
        line's module says (else the family that number belongs to by default)."""
        registry = self.sc.registry
        if t.kind in ("trace", "other"):
            family = registry.family_of_number(t.value or 0)
            key = family.key if family is not None else "acl_runtime"
            label = family.label.en if family is not None else key
            if t.kind == "trace":  # HCCL's CHK_RET line: the HcclResult a call returned
                return key, f"{label} call trace (hcclRet -> {(t.value or 0) & 0xFFFF})"
            return key, f"{label} number after a status keyword"
        if t.kind == "shared" and decided is not None:
            return decided
        if t.kind == "shared":
            module_family = self.sc.prefix.families.get(pre.module or "")
            if module_family is not None:
                return module_family, f"{pre.module}( log line, no LLM DataDist context nearby"
            reading = registry.default_reading(t.value or 0)
            return (reading.family if reading is not None else "acl_runtime",
                    "no LLM DataDist context on the line or its neighbours")
        return LLM_DATADIST, "code name" if t.kind == "name" else "LLM DataDist number layout (0x5010Bxxx)"

    def _other_reading(self, family: str, value: int) -> dict[str, object]:
        """What another family's number is: its registry entry (name, meaning, first check) or its
        reading of a shared number, else only that it is that family's."""
        registry = self.sc.registry
        reading = registry.shared_reading(family, value)
        if reading is not None:
            return {"other_name": reading.name, "other_meaning": (reading.meaning.en, reading.meaning.zh)}
        entry = _family_entry(registry, family, value)
        if entry is not None:
            view = next((v for v in entry.views if v.documented), entry.views[0])
            # The vendor's own advice where a page documents the code; else what the first cause checks.
            check = view.remedy if view.documented or not view.causes else view.causes[0].check
            return {"other": entry, "other_name": entry.name, "other_meaning": (view.meaning.en, view.meaning.zh),
                    "other_check": (check.en, check.zh)}
        fam = registry.families.get(family)
        label = fam.label.en if fam is not None else family
        return {"other_name": str(value), "other_meaning": (f"{label}: another layer's code, not LLM DataDist's",
                                                           f"{label}：其他组件的错误码，不属于 LLM DataDist")}

    def _hits(self, ln: _Line, decided: tuple[str, str] | None) -> list[Hit]:
        """The hits of ``ln``; a short line's made once per shape and context (their fields but the
        line number: a positional ``Hit`` is the cheapest to make)."""
        shape = ln.shape
        if shape is None:
            return self._made(ln, decided)
        made = shape.made.get(decided)
        if made is None:
            made = shape.made[decided] = [astuple_but_line(h)[1:] for h in self._made(ln, decided)]
        return _on_line(made, ln.line_no, ln.text)  # type: ignore[arg-type]  # a short line's

    def _made(self, ln: _Line, decided: tuple[str, str] | None) -> list[Hit]:
        pre = ln.pre
        groups: dict[tuple, list[Token]] = {}
        family_of: dict[tuple, tuple[str, str]] = {}
        for t in ln.tokens:
            fe = self._attribute(t, pre, decided)
            key = (fe[0], t.value, t.code.name if t.code is not None else None)
            groups.setdefault(key, []).append(t)
            family_of.setdefault(key, fe)
        length = ln.length if ln.text is None else len(ln.text)
        out: list[Hit] = []
        for key, toks in groups.items():
            first = toks[0]
            family, evidence = family_of[key]
            code, extra = first.code, {}
            if family != LLM_DATADIST:
                extra = self._other_reading(family, first.value or 0)
                if code is not None and extra["other_name"] in code.spellings:
                    extra["related"] = code  # 507053: also the Python API's LLM_DEVICE_MEM_ERROR
                code = None
            text, start, end = self._excerpt(ln, first.start, first.end)
            columns = first.occurrences() if len(toks) == 1 else sorted(
                chain.from_iterable(t.occurrences() for t in toks))
            out.append(Hit(ln.line_no, text, start, end, text[start:end], first.value, code,
                           family=family, evidence=evidence, column=first.start,
                           columns=tuple(columns[:MAX_COLUMNS]),
                           columns_truncated=len(columns) > MAX_COLUMNS, line_length=length,
                           process=pre.process, process_api=pre.api, others_cut=ln.others_cut,
                           **extra))  # type: ignore[arg-type]
        out += self._symptom_hits(ln, length)
        if len(out) > 1:
            out.sort(key=lambda h: h.column)
        return out

    def _symptom_hits(self, ln: _Line, length: int) -> list[Hit]:
        registry, pre, out = self.sc.registry, ln.pre, []
        for sym, col in ln.symptoms:
            text, start, end = self._excerpt(ln, col, col + len(sym.pattern))  # type: ignore[attr-defined]
            likely = getattr(sym, "likely", None)
            code = registry.get(likely) if likely else None
            named = code or next((registry.get(c) for c in getattr(sym, "codes", ())), None)
            # A message LLM DataDist raises with its code (raise_if_false) is a failure of that code.
            raised = code is not None and getattr(sym, "raised", False)
            out.append(Hit(ln.line_no, text, start, end, text[start:end], code.value if code else None, code,
                           family=named.family if named is not None else LLM_DATADIST,
                           evidence=f"{'message' if raised else 'symptom'} {sym.id}",  # type: ignore[attr-defined]
                           column=col, line_length=length, process=pre.process, process_api=pre.api,
                           kind="code" if raised else "symptom", symptom=sym, others_cut=ln.others_cut))
        return out

    @staticmethod
    def _excerpt(ln: _Line, s: int, e: int) -> tuple[str, int, int]:
        if ln.text is not None:
            return ln.text, s, e
        return ln.excerpts[s]

    def lines_read(self, heads: list[bytes]) -> None:
        """Lines that follow everything queued: give them to the hits waiting for context."""
        if heads:
            for item in self.queue:
                if isinstance(item, _Pending) and len(item.after) < NEIGHBOURS:
                    item.after.extend(heads[: NEIGHBOURS - len(item.after)])

    def ready(self, final: bool = False) -> bool:
        """Take the first hits whose context is known (at the end of input, whatever it is) off
        the queue into :attr:`taken`, in order, with Ctrl-C held back: about :data:`RUN` of them
        (whether there are any). They wait there to be given (:func:`_ready`): Ctrl-C, delivered
        as the hold ends, would lose a list on its way out."""
        queue, out = self.queue, self.taken
        if not queue:
            return bool(out)
        with held_back():
            while queue and len(out) < RUN:
                item = queue[0]
                if isinstance(item, _Pending):
                    if len(item.after) < NEIGHBOURS and not final:
                        break
                    out += self._resolve(item)
                else:
                    out.append(item)
                queue.popleft()
        return bool(out)


def _line_at(data: bytes, s: int, end: int) -> tuple[bytes, int]:
    """The line at ``s`` of ``data[:end]`` without its line end (a slice of ``data``: a bytearray's
    is one too), and where its line break is (-1: it has none, the input's last line)."""
    nl = data.find(b"\n", s, end)
    return data[s:end if nl < 0 else nl].removesuffix(b"\r"), nl


def _heads_after(data: bytes, start: int, end: int, limit: int) -> list[bytes]:
    """The first :data:`CONTEXT_SPAN` bytes of up to ``limit`` lines of ``data[start:end]``."""
    out: list[bytes] = []
    pos = start
    while pos < end and len(out) < limit:
        nl = data.find(b"\n", pos, end)
        stop = end if nl < 0 else nl
        out.append(data[pos:min(stop, pos + CONTEXT_SPAN)])
        if nl < 0:
            break
        pos = nl + 1
    return out


def _heads_before(data: bytes, start: int, limit: int) -> list[bytes]:
    """The heads of up to ``limit`` lines ending before offset ``start`` (a line start), in order."""
    out: list[bytes] = []
    stop = start - 1  # the line break ending the previous line
    while stop >= 0 and len(out) < limit:
        begin = data.rfind(b"\n", 0, stop) + 1
        out.append(data[begin:min(stop, begin + CONTEXT_SPAN)])
        stop = begin - 1
    out.reverse()
    return out


class LineWatch(Protocol):
    """What reads the lines holding the scanner's :attr:`~Scanner.watch_literals` (clues, evidence)."""

    @property
    def skip(self) -> Container[int]:
        """Indexes of the watched literals no longer wanted (the prefilter drops their matches)."""

    def line(self, text: str, line_no: int, literals: list[int]) -> None:
        """Read line ``line_no``, which holds the watched literals of those indexes
        (:data:`~.prefilter.ANY`: any of them)."""


class Keeper(Protocol):
    """What keeps the lines a scan reads (``-C``'s context: :mod:`.around`), given them as it
    starts to read them, in order."""

    def block(self, data: bytes, end: int) -> None:
        """The block ``data[:end]``, of whole lines."""

    def long_line(self, head: bytes) -> None:
        """A line read in pieces: its first bytes."""


def _still_wanted(literals: list[int] | None, skip: Container[int]) -> list[int] | None:
    """``literals`` but those the watch no longer wants (it may stop wanting one within a block)."""
    if not literals or not skip:
        return literals
    return [i for i in literals if i not in skip]


#: Candidate lines read with Ctrl-C held back at a time (:meth:`_Segments.finish`): a Ctrl-C waits
#: for at most this many (~13 ms of lines that are all codes).
AT_ONCE = 256


class _Block:
    """A block being read: its bytes, the candidate lines still to read, its line counts, the
    heads of the lines before it, the number of its first line, and the lines the helper decided
    (line start -> :class:`~.readahead.Premade`'s index of the hits they make, or :data:`NOTHING`)."""

    __slots__ = ("data", "end", "todo", "counts", "tail", "first", "picks")

    def __init__(self, data: bytes, end: int, todo: Iterator[tuple[int, list[int] | None, bool]],
                 counts: dict[int, int], tail: list[bytes], first: int) -> None:
        self.data, self.end, self.todo, self.counts, self.tail, self.first = data, end, todo, counts, tail, first
        self.picks: dict[int, int] = {}


class _Segments:
    """One scan's reading of its segments: the candidate lines of each run, and the pieces of a long
    line, made into queued hits (:class:`_Run`).

    Ctrl-C comes between two runs of :data:`AT_ONCE` lines, never within a line (SIGINT is held back
    meanwhile: :func:`~.interrupt.held_back`); the block it cut is read to its end by
    :meth:`finish`, as the scan gives what it read. Cut within a line, a block lost its other lines
    and every later line its number (a numbered log's line 165,907 was reported as 15,886)."""

    def __init__(self, sc: Scanner, include_success: bool, watch: LineWatch | None) -> None:
        self.sc, self.include_success, self.watch = sc, include_success, watch
        self.run = _Run(sc)
        self.long_ln: _Line | None = None  # the long line being read in pieces
        self.long_before: list[bytes] = []
        self.block: _Block | None = None  # the block being read
        self.shapes: dict[bytes, _Shape] = {}  # short lines seen, by their bytes
        self.timeless: dict[bytes, _Shape] = {}  # and by their bytes with their time zeroed
        self.premade: dict[int, list[tuple]] = {}  # the hits of the shapes the helper sent, by index
        self._unpacker: Unpacker | None = None
        #: What keeps the lines read, given each block and long line as its reading starts (-C).
        self.kept: Keeper | None = None

    def lines(self, data: bytes, end: int, found: Prefiltered | None = None) -> None:
        """Queue the hits of the lines of ``data[:end]``, and read its watched lines (``found``: the
        prefilter's answer for the block, with its line counts, when another process gave it:
        :mod:`.helper`)."""
        with held_back():
            if self.kept is not None:
                self.kept.block(data, end)
            run = self.run
            run.lines_read(_heads_after(data, 0, end, NEIGHBOURS))
            if found is None:
                found = Prefiltered(*self.sc.prefilter.starts_watched(data, end, self.skip()))
            counts = found.counts or line_counts(data, end, [*found.starts, *found.watched])
            self.block = _Block(data, end, self._candidates(found), counts, list(run.tail), run.line_no)
            if found.premade is not None:
                self.block.picks = self._take(*found.premade)
        self.finish()

    def _take(self, picks: dict[int, int], sent: bytes | None) -> dict[int, int]:
        """A block's lines the helper decided (:class:`~.readahead.Premade`), the hits of the shapes it sent first kept."""
        if sent is not None:
            import pickle

            if self._unpacker is None:
                self._unpacker = Unpacker(self.sc.registry)
            for index, hits in pickle.loads(sent):  # our own helper's, through our own pipe
                self.premade[index] = [astuple_but_line(h)[1:] for h in self._unpacker.hits(hits)]
        return picks

    def finish(self) -> None:
        """Read the rest of the block being read (all of it, but where Ctrl-C cut it)."""
        block, run = self.block, self.run
        if block is None:
            return
        more = True
        while more:
            with held_back():
                n, picks = 0, block.picks
                for s, literals, coded in islice(block.todo, AT_ONCE):
                    run.line_no = block.first + block.counts[s]
                    pick = picks.get(s) if coded else None
                    if pick is None:
                        self._line(block.data, block.end, s, literals, block.tail if coded else None)
                    else:
                        self._picked(block.data, block.end, s, literals, pick)
                    n += 1
                more = n == AT_ONCE
        with held_back():
            self._ended(block)
            self.block = None

    def _ended(self, block: _Block) -> None:
        """The block is read: the line after it, and the heads of its last lines."""
        run, data, end = self.run, block.data, block.end
        run.line_no = block.first + block.counts[end]
        if data[end - 1] == 10:  # b"\n"
            run.tail.extend(_heads_before(data, end, NEIGHBOURS))
        else:  # the input's last line, without a line break
            last = data.rfind(b"\n", 0, end) + 1
            run.tail.extend([*_heads_before(data, last, NEIGHBOURS - 1), data[last:min(end, last + CONTEXT_SPAN)]])

    def skip(self) -> Container[int]:
        """The watched literals' indexes the prefilter may leave out."""
        return self.watch.skip if self.watch else self.sc.unwatched

    def _candidates(self, found: Prefiltered) -> Iterator[tuple[int, list[int] | None, bool]]:
        """``(line start, watched literals on it, whether it may hold codes)`` of the lines the
        prefilter found, in order. A watch may stop wanting a literal within the block: what it
        wants is asked line by line."""
        watch = self.watch
        starts, watched = found.starts, found.watched
        if watch is None or not watched:
            for s in starts:
                yield s, None, True
            return
        coded, skip = set(starts), watch.skip
        for s in sorted({*starts, *watched}):
            literals = watched.get(s)
            if literals:
                literals = _still_wanted(literals, skip)
            has_code = s in coded
            if literals or has_code:
                yield s, literals, has_code

    def _line(self, data: bytes, end: int, s: int, literals: list[int] | None,
              tail: list[bytes] | None) -> None:
        """Read the line at ``s``: give it to the watch for its ``literals``; with ``tail`` (the
        heads of the lines before the block: it may hold codes), queue its hits."""
        raw, nl = _line_at(data, s, end)
        raw = bytes(raw)  # hashable (the reader's buffer is a bytearray)
        run = self.run
        if tail is None:  # a watched line only
            shape = self.shapes.get(raw)
            text = shape.text if shape is not None else raw.decode("utf-8", "replace")
            self.watch.line(text, run.line_no, literals)  # type: ignore[union-attr,arg-type]  # literals: a watch
            return
        shape, text = self._shape(raw)
        if literals:
            self.watch.line(text, run.line_no, literals)  # type: ignore[union-attr]
        if not (shape.tokens or shape.symptoms):
            return
        made = shape.made.get(shape.decided) if shape.alone else None
        if made is not None:  # decided by the line alone, as before
            run.queue.extend(_on_line(made, run.line_no, text))
            return
        ln = _Line(run.line_no, raw[:CONTEXT_SPAN], shape.pre, text)
        ln.take(shape)
        before: list[bytes] = []
        after: list[bytes] = []
        if shape.shared and not shape.word:  # only a shared number without context looks at its neighbours
            before = _heads_before(data, s, NEIGHBOURS)
            if len(before) < NEIGHBOURS:
                before = (tail + before)[-NEIGHBOURS:]
            after = _heads_after(data, nl + 1, end, NEIGHBOURS) if nl >= 0 else []
        run.add(ln, before, after, complete=False)

    def _picked(self, data: bytes, end: int, s: int, literals: list[int] | None, pick: int) -> None:
        """Read the line at ``s``, which the helper decided (:class:`~.readahead.Premade`): its hits are those of
        the shape ``pick``, on this line (none: :data:`NOTHING`); give it to the watch for its ``literals``."""
        if pick == NOTHING and not literals:
            return
        text = _line_at(data, s, end)[0].decode("utf-8", "replace")
        run = self.run
        if literals:
            self.watch.line(text, run.line_no, literals)  # type: ignore[union-attr]
        if pick != NOTHING:
            run.queue.extend(_on_line(self.premade[pick], run.line_no, text))

    def _shape(self, raw: bytes) -> tuple[_Shape, str]:
        """The shape of the line ``raw`` and its text: the shape of a line seen before, or of one that
        differed from it only by its time (:mod:`.timemask`), else a new one (remembered when short)."""
        shape = self.shapes.get(raw)
        if shape is not None:
            return shape, shape.text
        sc, short = self.sc, len(raw) <= SHAPE_BYTES
        keyed = sc.times.keyed(raw) if short else None
        first = None
        if keyed is not None:
            first = self.timeless.get(keyed[0])
            if first is not None and first.shares(sc, *keyed):
                return first, raw.decode("ascii")  # (an ASCII line: timemask)
        text = raw.decode("utf-8", "replace")
        shape = _Shape(sc, raw, text, sc.matcher.tokens(text, include_success=self.include_success),
                       sc.symptoms_in(text))
        if short:
            _remember(self.shapes, raw, shape)
            if keyed is not None and first is None:
                shape.keyed = keyed[1]
                _remember(self.timeless, keyed[0], shape)
        return shape, text

    def piece(self, p: LongPiece) -> None:
        """Read a piece of a long line; queue the line's hits after its last piece (whole: Ctrl-C
        waits for it)."""
        with held_back():
            self._piece(p)

    def _piece(self, p: LongPiece) -> None:
        sc, run = self.sc, self.run
        if p.final and self.kept is not None:
            self.kept.long_line(p.head)
        if self.long_ln is None:
            self.long_before = list(run.tail)
            run.lines_read([p.head])
            self.long_ln = _Line(run.line_no, p.head, sc.prefix(p.head[:HEAD].decode("utf-8", "replace")), None)
        ln = self.long_ln
        tokens = sc.matcher.tokens(p.text, p.lo, p.hi, self.include_success)
        if ln.others_cut is None and tokens.others_cut is not None:
            ln.others_cut = p.base + tokens.others_cut
        if ln.near is None:
            ln.near = _first_near(sc, p.text, tokens)
        _keep_tokens(ln, p, tokens)
        _keep_symptoms(ln, p, sc.symptoms)
        if p.final:
            ln.length = p.base + len(p.text)
            if ln.tokens or ln.symptoms:
                run.add(ln, self.long_before, [], complete=False)
            run.tail.append(p.head)
            run.line_no += 1
            self.long_ln = None


#: In the helper's answers (:class:`~.readahead.Premade`): a line found to hold no code nor symptom.
NOTHING = -1


def _remember(shapes: dict[bytes, _Shape], key: bytes, shape: _Shape) -> None:
    """Remember ``shape`` by ``key``: at most :data:`SHAPES` (then all are forgotten)."""
    if len(shapes) >= SHAPES:
        shapes.clear()
    shapes[key] = shape


def _keep_tokens(ln: _Line, p: LongPiece, tokens: list[Token]) -> None:
    """Add a long line's piece's tokens to ``ln``, with columns in the whole line. A hit keeps the
    first MAX_COLUMNS columns of its code: once a token has more on this line, later pieces add
    none (memory stays bounded however many it repeats)."""
    kept, base = ln.kept, p.base
    for t in tokens:
        key = (t.kind, t.value, t.code.name if t.code else None, t.end - t.start)
        have = kept.get(key, 0)
        if have > MAX_COLUMNS:
            continue
        if t.starts is not None:
            t.starts = list(map(base.__add__, islice(t.starts, MAX_COLUMNS + 1 - have)))
        kept[key] = have + len(t.occurrences())
        ln.excerpts[base + t.start] = _long_excerpt(p.text, base, t.start, t.end)
        t.start, t.end = base + t.start, base + t.end
        ln.tokens.append(t)


def _keep_symptoms(ln: _Line, p: LongPiece, symptoms: tuple) -> None:
    """Add to ``ln`` each symptom's first occurrence on the long line, as on a short line."""
    for sym in symptoms:
        if ("symptom", sym.id) not in ln.kept:
            i = p.text.find(sym.pattern, p.lo, p.hi + len(sym.pattern) - 1)
            if 0 <= i < p.hi:
                ln.kept["symptom", sym.id] = 1
                ln.excerpts[p.base + i] = _long_excerpt(p.text, p.base, i, i + len(sym.pattern))
                ln.symptoms.append((sym, p.base + i))


def _scan_segments(segments: Iterable[Block | LongPiece | Pause], sc: Scanner, include_success: bool,
                   watch: LineWatch | None = None, progress: bool = False,
                   ahead: _helper.Ahead | None = None) -> Iterator[Hit]:
    """The hits of ``segments`` (:func:`~.reading.iter_segments`), in order; with ``progress``,
    after each run of lines, the number of lines read so far (an ``int``); with ``ahead``, blocks
    are read ahead and prefiltered by a second process too (:func:`~.readahead.read_ahead`)."""
    # (with progress, the ints between the hits too: its callers, tests, tell them apart)
    return cast("Iterator[Hit]", flat(_scanned(segments, _Segments(sc, include_success, watch), progress, ahead)))


#: What :func:`_scanned` gives: the hits of a run of lines, in order (never empty), or the lines
#: read so far. A run at a time: a flood of code lines is a hit a line, and each layer above
#: takes a run in one step.
Runs = Iterator["list[Hit] | int"]


def _scanned(segments: Iterable[Block | LongPiece | Pause], scan: _Segments, progress: bool,
             ahead: _helper.Ahead | None) -> Runs:
    """:func:`_scan_segments`' hits a run at a time (:data:`Runs`), with the scan's state made by
    the caller (:attr:`_Segments.kept`)."""
    interrupted = False
    try:
        for seg in segments:
            if ahead is not None:
                yield from _ahead(scan, ahead, seg, progress)
            elif isinstance(seg, Pause):
                continue
            elif isinstance(seg, Block):
                yield from _block(scan, cast(bytes, seg.data), seg.end, None, progress)  # the reader's buffer
            else:
                yield from _piece(scan, seg)
        yield from _rest(scan, ahead, progress)
    except KeyboardInterrupt:  # Ctrl-C while reading: every line read gives its hits, as at the end
        interrupted = True
        yield from _rest(scan, ahead, progress)
        raise
    finally:
        if ahead is not None:
            ahead.close(interrupted)


def _rest(scan: _Segments, ahead: _helper.Ahead | None, progress: bool) -> Runs:
    """The hits of all that was read: the block Ctrl-C cut, the blocks held, then the hits still
    waiting for lines. The cut block's go up before a held block is read, as after any block:
    reading a block lets go the lines kept for the groups of the hits before it (``-C``)."""
    scan.finish()
    if ahead is not None:
        yield from _ready(scan)
        yield from _held(scan, ahead, progress)
    yield from _ready(scan, final=True)


def _ready(scan: _Segments, final: bool = False) -> Runs:
    """The hits whose context is known (all at the end), a run of about :data:`RUN` at a time."""
    run = scan.run
    while run.ready(final):
        hits, run.taken = run.taken, []  # (no call from here to the layer above: no Ctrl-C)
        yield hits


def _ahead(scan: _Segments, ahead: _helper.Ahead, seg: Block | LongPiece | Pause, progress: bool) -> Runs:
    """Take ``seg`` with blocks read ahead: into a slot, or (a log's first block, a long line's
    piece, a big block) after the blocks held; at a pause of the input, scan the blocks held."""
    if isinstance(seg, Block) and ahead.takes(seg.end):
        ahead.add(seg.data, seg.end)
        if ahead.full():  # a slot to read the next block into
            yield from _block(scan, *ahead.oldest(scan.skip()), progress)
        return
    yield from _held(scan, ahead, progress)
    if isinstance(seg, Block):
        yield from _block(scan, cast(bytes, seg.data), seg.end, None, progress)
    elif isinstance(seg, LongPiece):
        yield from _piece(scan, seg)


def _held(scan: _Segments, ahead: _helper.Ahead, progress: bool) -> Runs:
    """The hits of every block ``ahead`` holds, in order."""
    while ahead.held():
        yield from _block(scan, *ahead.oldest(scan.skip()), progress)


def _block(scan: _Segments, data: bytes, end: int, found: Prefiltered | None,
           progress: bool) -> Runs:
    scan.lines(data, end, found)
    yield from _ready(scan)
    if progress:  # the lines read so far (scan_progress): a held failure's window may be whole
        yield scan.run.line_no - 1


def _piece(scan: _Segments, seg: LongPiece) -> Runs:
    scan.piece(seg)
    if seg.final:
        yield from _ready(scan)


#: More characters than any context word has.
_WORD = 128


def _first_near(sc: Scanner, text: str, tokens: list[Token]) -> str | None:
    """The LLM DataDist context word near the first shared number of ``tokens`` that has one, or None.

    Near: wholly within :data:`NEAR` characters before its start or after its
    end; of several, the last. The text around the numbers is searched once,
    and each word is matched to the numbers by bisection (linear in the line
    whatever the numbers repeat).
    """
    shared = [t for t in tokens if t.kind == "shared"]
    if not shared:
        return None
    if len(shared) == 1:
        starts = shared[0].occurrences()
        ends = list(map((shared[0].end - shared[0].start).__add__, starts))
    else:  # tokens do not overlap: starts and ends sort alike
        starts = sorted(chain.from_iterable(t.occurrences() for t in shared))
        ends = sorted(chain.from_iterable(map((t.end - t.start).__add__, t.occurrences()) for t in shared))
    find_all, lo, hi = sc.context.find_all, max(0, starts[0] - NEAR), ends[-1] + NEAR
    words = _words(find_all, text, lo, hi, hi)
    for pos, word in words:
        i = bisect_left(ends, pos + len(word) - NEAR)  # the first number the word ends near enough to
        if i < len(starts) and starts[i] - NEAR <= pos:
            limit = ends[i] + NEAR
            for pos, later in words:  # the last word near that number
                if pos + len(later) > limit:
                    break
                word = later
            return word
    return None


def _words(find_all: Callable[[str, int, int], list[tuple[int, str]]], text: str, lo: int, hi: int,
           stop: int) -> Iterator[tuple[int, str]]:
    """The context words starting in ``[lo, hi)``, in order, searched 64 KiB at a time (the caller
    stops at the first one it needs) and never past ``stop``; a word cut by a piece's end is
    found whole by the next search."""
    step, end, after = 1 << 16, lo, lo
    while end < hi:
        start, end = max(0, end - _WORD), min(hi, end + step)
        for w in find_all(text, start, min(stop, end + _WORD)):
            if after <= w[0] < end:
                after = w[0] + len(w[1])
                yield w
        step *= 2


def _long_excerpt(text: str, base: int, s: int, e: int) -> tuple[str, int, int]:
    """A long line's excerpt for the token ``text[s:e]``: the line's start when in reach, `` … `` and the text around."""
    lo, hi = max(0, s - EXCERPT_AROUND), min(len(text), e + EXCERPT_AROUND)
    if base == 0 and lo <= EXCERPT_HEAD:
        return text[:hi] + " …", s, e
    # The line's own start is not in this piece: the caller's head is shown by the renderers.
    return "… " + text[lo:hi] + " …", s - lo + 2, e - lo + 2


def scan_stream(
    stream: BinaryIO, *, registry: Registry | None = None, include_success: bool = False,
    engine: str | None = None, watch: LineWatch | None = None,
) -> Iterator[Hit]:
    """Every status code in a binary stream, in order: one :class:`Hit` per code per line.

    Reads ``stream`` to its end (constant memory, any line length, any bytes:
    invalid UTF-8 is decoded with replacement characters). The success code
    is skipped unless ``include_success``. ``registry`` defaults to the
    packaged one; ``engine`` picks the prefilter (``hyperscan``, ``python``;
    default the fastest installed). I/O errors of ``stream`` propagate.
    ``watch`` reads each line holding a watched literal of the scanner (clues,
    evidence: :class:`LineWatch`), in the same pass.
    """
    return _scan_segments(iter_segments(stream), scanner(registry, engine), include_success, watch)


def scan_text(
    text: str, *, registry: Registry | None = None, include_success: bool = False, engine: str | None = None,
) -> Iterator[Hit]:
    """Every status code in ``text`` (see :func:`scan_stream`); lines split at ``\\n``."""
    import io

    data = text.encode("utf-8", "replace")
    # A read buffer the size of the text, not READ_SIZE: zeroing 4 MiB would cost more than a short text's scan.
    segments = iter_segments(io.BytesIO(data), min(READ_SIZE, len(data) + 1))
    return _scan_segments(segments, scanner(registry, engine), include_success)
