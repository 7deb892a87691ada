"""Find status codes in text and byte streams: linear time, constant memory, any line length.

How: the input is read in blocks of whole lines (4 MiB reads). A prefilter
(:mod:`sphinx_llmstatus.scan.prefilter`: Hyperscan, or Python's ``re``)
finds the lines holding a possible token; only those lines are decoded and
matched with the precise rules (:mod:`sphinx_llmstatus.scan.rules`).

A line longer than :data:`LONG_LINE` bytes is read in overlapping pieces:
tokens are accepted only in each piece's own part and the rules look at
most :data:`OVERLAP` bytes around a token, so every token is found once,
with its column in the whole line, whatever the read sizes (a file and a
pipe give the same hits).

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
from collections.abc import Callable, Container, Generator, Iterable, Iterator
from itertools import chain, islice
from typing import BinaryIO, Protocol

from ..registry.layout import family_error_number
from ..registry.model import LLM_DATADIST, Registry, StatusCode
from . import prefilter as _prefilter
from .context import CONTEXT_SPAN, HEAD, NEAR, ContextFinder, Prefix, PrefixReader
from .evidence import book
from .hit import MAX_COLUMNS, Hit
from .rules import Matcher, Token

READ_SIZE = 4 << 20
#: Lines longer than this (bytes) are scanned in pieces, never held whole.
LONG_LINE = 8 << 20
#: Bytes each long-line piece shares with the next (far more than any token and its look-around).
OVERLAP = 4096
#: Lines looked at on each side of a shared number for LLM DataDist context.
NEIGHBOURS = 3
#: Characters of a long line kept for its excerpt: its start, and around the token.
EXCERPT_HEAD = 200
EXCERPT_AROUND = 200



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
                                         self.matcher.field_vetoed)
        self.engine = self.prefilter.name

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


# -- reading ---------------------------------------------------------------------------

def iter_segments(stream: BinaryIO, read_size: int = READ_SIZE) -> Iterator[tuple]:
    """The stream as ``("lines", data, end)`` runs of whole lines and ``("long", ...)`` long-line pieces.

    ``data[:end]`` ends with a line break except at the end of input; ``data``
    is a buffer reused for the next run (valid until the generator resumes:
    copy what must outlive it). A long-line piece is ``("long", text, lo, hi,
    base, head, final)``: ``text`` decoded, tokens accepted with a start in
    ``text[lo:hi]``, ``base`` the characters of the line before ``text``,
    ``head`` the line's first :data:`CONTEXT_SPAN` bytes, ``final`` True on
    the line's last piece. Reads with ``readinto1`` (else ``read1``/``read``)
    into one buffer, so a pipe is scanned as data arrives and a file costs no
    copy besides the read.
    """
    read = getattr(stream, "read1", None) or stream.read
    readinto = getattr(stream, "readinto1", None) or getattr(stream, "readinto", None)
    if readinto is None:
        def readinto(view: memoryview) -> int:
            chunk = read(len(view))
            view[:len(chunk)] = chunk
            return len(chunk)
    buf = bytearray(read_size)
    fill = 0  # buf[:fill]: the start of an unfinished line (no line break in it)
    while True:
        if fill >= LONG_LINE:  # read the rest of this line in pieces
            rest = yield from _long_line(bytearray(buf[:fill]), read, read_size)
            cut = rest.rfind(b"\n") + 1
            if cut:
                yield "lines", rest, cut
            fill = len(rest) - cut
            buf[:fill] = rest[cut:]
            continue
        if fill == len(buf):
            buf.extend(bytes(len(buf)))
        with memoryview(buf) as view:
            n = readinto(view[fill:])
        if not n:
            break
        end = fill + n
        cut = buf.rfind(b"\n", fill, end) + 1
        if cut:
            yield "lines", buf, cut
            buf[:end - cut] = buf[cut:end]
            fill = end - cut
        else:
            fill = end
    if fill:
        yield "lines", buf, fill


def _char_start(buf: bytearray | bytes, i: int) -> int:
    # Move back to the first byte of a UTF-8 character (at most 3 steps).
    for _ in range(3):
        if i <= 0 or not 0x80 <= buf[i] < 0xC0:
            break
        i -= 1
    return i


def _long_line(buf: bytearray, read: Callable[[int], bytes], read_size: int) -> Generator[tuple, None, bytearray]:
    """Pieces of one line longer than :data:`LONG_LINE`; returns what follows its line break."""
    head = bytes(buf[:CONTEXT_SPAN])
    base = 0  # characters of the line before buf[0]
    lo = 0  # bytes of buf already accepted by the previous piece
    eof = False
    while True:
        nl = buf.find(b"\n")
        if nl >= 0 or eof:
            end = nl if nl >= 0 else len(buf)
            line = buf[:end]
            if line.endswith(b"\r"):
                line = line[:-1]
            text = line.decode("utf-8", "replace")
            lo_c = len(buf[:lo].decode("utf-8", "replace"))
            yield "long", text, lo_c, len(text), base, head, True
            return bytearray(buf[end + 1:]) if nl >= 0 else bytearray()
        if len(buf) >= LONG_LINE:
            cut = _char_start(buf, len(buf) - OVERLAP)
            keep = _char_start(buf, cut - OVERLAP)
            text = buf.decode("utf-8", "replace")
            lo_c = len(buf[:lo].decode("utf-8", "replace"))
            hi_c = len(buf[:cut].decode("utf-8", "replace"))
            yield "long", text, lo_c, hi_c, base, head, False
            base += len(buf[:keep].decode("utf-8", "replace"))
            lo = cut - keep
            del buf[:keep]
        chunk = read(read_size)
        if chunk:
            buf += chunk
        else:
            eof = True


# -- scanning --------------------------------------------------------------------------

class _Line:
    """What the hits of one line are made from: its tokens and symptoms, with absolute columns."""

    __slots__ = ("line_no", "head", "pre", "tokens", "symptoms", "excerpts", "length", "text", "near", "kept")

    def __init__(self, line_no: int, head: bytes, pre: Prefix, text: str | None) -> None:
        self.line_no, self.head, self.pre, self.text = line_no, head, pre, text
        self.tokens: list[Token] = []
        self.symptoms: list[tuple[object, int]] = []
        self.excerpts: dict[int, tuple[str, int, int]] = {}  # long lines: column -> excerpt
        self.length = -1
        self.near: str | None = None  # LLM DataDist context word near the first shared number that has one
        self.kept: dict[object, int] = {}  # long lines: columns kept so far per token kind, and symptoms found


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
        if not any(t.kind == "shared" for t in ln.tokens):
            self.queue.extend(self._hits(ln, None))
            return
        word = self.sc.context.find_bytes(ln.head, 0, len(ln.head))
        if not word:  # a long line's pieces were searched as they came
            word = ln.near if ln.text is None else _first_near(self.sc, ln.text, ln.tokens)
        if word:
            self.queue.extend(self._hits(ln, ("llm_datadist", f"LLM DataDist context {word!r} on the line")))
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
                           process=pre.process, process_api=pre.api, **extra))  # type: ignore[arg-type]
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
                           kind="code" if raised else "symptom", symptom=sym))
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

    def ready(self, final: bool = False) -> Iterator[Hit]:
        """Hits whose context is known, in order (all of them at the end of input)."""
        queue = self.queue
        while queue:
            item = queue[0]
            if isinstance(item, _Pending):
                if len(item.after) < NEIGHBOURS and not final:
                    return
                queue.popleft()
                yield from self._resolve(item)
            else:
                queue.popleft()
                yield item


#: Bytes counted per step by :func:`_newlines` (small enough to reuse freed memory).
_COUNT_STEP = 1 << 18


def _newlines(data: bytes, lo: int, hi: int) -> int:
    """The line breaks in ``data[lo:hi]``.

    ``bytes.replace`` finds a single byte with ``memchr``, about twice as fast
    as ``bytes.count``'s byte loop (measured on 4 MiB of log: 1.3 ms against
    3.5 ms), the main cost of a whole-file scan after the prefilter.
    """
    n = 0
    for a in range(lo, hi, _COUNT_STEP):
        piece = data[a:min(hi, a + _COUNT_STEP)]
        n += len(piece) - len(piece.replace(b"\n", b""))
    return n


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


def _still_wanted(literals: list[int] | None, skip: Container[int]) -> list[int] | None:
    """``literals`` but those the watch no longer wants (it may stop wanting one within a block)."""
    if not literals or not skip:
        return literals
    return [i for i in literals if i not in skip]


def _scan_segments(segments: Iterable[tuple], sc: Scanner, include_success: bool,
                   watch: LineWatch | None = None, progress: bool = False) -> Iterator[Hit]:
    run = _Run(sc)
    m, starts_of = sc.matcher, sc.prefilter.starts_watched
    symptoms = sc.symptoms
    long_ln: _Line | None = None
    for seg in segments:
        if seg[0] == "lines":
            data: bytes = seg[1]
            end = seg[2]
            run.lines_read(_heads_after(data, 0, end, NEIGHBOURS))
            pos = 0
            tail = list(run.tail)
            starts, watched = starts_of(data, end, watch.skip if watch is not None else sc.unwatched)
            coded: Container[int] = ()
            watching = watch is not None and bool(watched)
            if watching:  # the watched lines join in order; only the others may hold codes
                coded, starts = set(starts), sorted({*starts, *watched})
            literals: list[int] | None = None
            for s in starts:
                run.line_no += _newlines(data, pos, s)
                pos = s
                if watching:
                    literals = _still_wanted(watched.get(s), watch.skip)  # type: ignore[union-attr]  # a watch
                    if not literals and s not in coded:
                        continue
                nl = data.find(b"\n", s, end)
                e = end if nl < 0 else nl
                raw = data[s:e]
                if raw.endswith(b"\r"):
                    raw = raw[:-1]
                line = raw.decode("utf-8", "replace")
                if watching:
                    if literals:
                        watch.line(line, run.line_no, literals)  # type: ignore[union-attr]  # coded: a watch
                    if s not in coded:
                        continue
                tokens = m.tokens(line, include_success=include_success)
                found = [(sym, i) for sym in symptoms if (i := line.find(sym.pattern)) >= 0 and not sym.quoted(line, i)]
                if not tokens and not found:
                    continue
                ln = _Line(run.line_no, raw[:CONTEXT_SPAN], sc.prefix(line[:HEAD]), line)
                ln.tokens, ln.symptoms = tokens, found
                before = _heads_before(data, s, NEIGHBOURS)
                if len(before) < NEIGHBOURS:
                    before = (tail + before)[-NEIGHBOURS:]
                after = _heads_after(data, e + 1, end, NEIGHBOURS) if nl >= 0 else []
                run.add(ln, before, after, complete=False)
            run.line_no += _newlines(data, pos, end)
            if data[end - 1] == 10:  # b"\n"
                run.tail.extend(_heads_before(data, end, NEIGHBOURS))
            else:  # the input's last line, without a line break
                last = data.rfind(b"\n", 0, end) + 1
                run.tail.extend([*_heads_before(data, last, NEIGHBOURS - 1), data[last:min(end, last + CONTEXT_SPAN)]])
            yield from run.ready()
            if progress:  # the lines read so far (scan_progress): a held failure's window may be whole
                yield run.line_no - 1  # type: ignore[misc]
        else:
            _, text, lo, hi, base, head, final = seg
            if long_ln is None:
                before = list(run.tail)
                run.lines_read([head])
                long_ln = _Line(run.line_no, head, sc.prefix(head[:HEAD].decode("utf-8", "replace")), None)
                long_before = before
            toks = m.tokens(text, lo, hi, include_success)
            if long_ln.near is None:
                long_ln.near = _first_near(sc, text, toks)
            kept = long_ln.kept
            for t in toks:
                # A hit keeps the first MAX_COLUMNS columns of its code: once a token has more on
                # this line, later pieces add none (memory stays bounded however many it repeats).
                key = (t.kind, t.value, t.code.name if t.code else None, t.end - t.start)
                have = kept.get(key, 0)
                if have > MAX_COLUMNS:
                    continue
                if t.starts is not None:
                    t.starts = list(map(base.__add__, islice(t.starts, MAX_COLUMNS + 1 - have)))
                kept[key] = have + len(t.occurrences())
                long_ln.excerpts[base + t.start] = _long_excerpt(text, base, t.start, t.end)
                t.start, t.end = base + t.start, base + t.end
                long_ln.tokens.append(t)
            for sym in symptoms:  # its first occurrence on the line, as on a short line
                if ("symptom", sym.id) not in kept:
                    i = text.find(sym.pattern, lo, hi + len(sym.pattern) - 1)
                    if 0 <= i < hi:
                        kept["symptom", sym.id] = 1
                        long_ln.excerpts[base + i] = _long_excerpt(text, base, i, i + len(sym.pattern))
                        long_ln.symptoms.append((sym, base + i))
            if final:
                long_ln.length = base + len(text)
                if long_ln.tokens or long_ln.symptoms:
                    run.add(long_ln, long_before, [], complete=False)
                run.tail.append(head)
                run.line_no += 1
                long_ln = None
                yield from run.ready()
    yield from run.ready(final=True)


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


def scan_progress(stream: BinaryIO, registry: Registry, include_success: bool,
                  watch: LineWatch | None) -> Iterator[Hit | int]:
    """:func:`scan_stream`'s hits and, after each block read, the number of lines read so far (an
    ``int``): what lets a consumer that holds hits (the diagnosis) let them go as the stream goes."""
    return _scan_segments(iter_segments(stream), scanner(registry), include_success, watch, progress=True)


def scan_text(
    text: str, *, registry: Registry | None = None, include_success: bool = False, engine: str | None = None,
) -> Iterator[Hit]:
    """Every status code in ``text`` (see :func:`scan_stream`); lines split at ``\\n``."""
    import io

    data = text.encode("utf-8", "replace")
    # A read buffer the size of the text, not READ_SIZE: zeroing 4 MiB would cost more than a short text's scan.
    segments = iter_segments(io.BytesIO(data), min(READ_SIZE, len(data) + 1))
    return _scan_segments(segments, scanner(registry, engine), include_success)


def scan_with_context(
    stream: BinaryIO,
    context: int,
    *,
    registry: Registry | None = None,
    include_success: bool = False,
    engine: str | None = None,
    watch: LineWatch | None = None,
    progress: bool = False,
) -> Iterator[tuple[list[tuple[int, str]], list[Hit], list[tuple[int, str]]]]:
    """Groups of hits with ``context`` lines around them, like ``grep -C``.

    Yields ``(before, hits, after)`` per line with hits: ``before``/``after``
    are the ``(line_no, line)`` pairs of the ``context`` lines on each side,
    whole even where they hold hits themselves or belong to a neighbouring
    group's window, so that each group stands alone (a JSON object, a table
    row); a display that prints groups in order skips the lines it already
    printed, as ``grep -C`` does. With ``progress``, the number of lines read so far comes
    between groups too (an ``int``, as :func:`scan_progress` gives it).
    The hits are those of :func:`scan_stream` (the same engine reads the
    stream); every line is also split out here to show the context, so this
    is slower. Memory: the :func:`scan_stream` bound plus ``context`` lines
    (long lines are kept as their first :data:`EXCERPT_HEAD` characters).
    """
    lines: deque[tuple[int, str]] = deque()  # recent lines, for "before"
    counter = [0]
    group: list = [None]  # the group being filled with "after" lines

    def keep(n: int, raw: bytes) -> None:
        if raw.endswith(b"\r"):
            raw = raw[:-1]
        item = (n, raw[:4 * EXCERPT_HEAD].decode("utf-8", "replace"))
        g = group[0]
        if g is not None and g[1][0].line_no < n <= g[1][0].line_no + context:
            g[2].append(item)
        lines.append(item)

    def recording(segments: Iterator[tuple]) -> Iterator[tuple]:
        for seg in segments:
            # Hits wait for at most NEIGHBOURS later lines: older lines are no one's "before".
            while lines and lines[0][0] < counter[0] - context - NEIGHBOURS - 1:
                lines.popleft()
            if seg[0] == "lines":
                data = bytes(seg[1][:seg[2]])
                parts = data.split(b"\n")
                if data.endswith(b"\n"):
                    parts.pop()
                for raw in parts:
                    counter[0] += 1
                    keep(counter[0], raw)
            elif seg[6]:  # the last piece of a long line
                counter[0] += 1
                keep(counter[0], seg[5])
            yield seg

    hits = _scan_segments(recording(iter_segments(stream)), scanner(registry, engine), include_success, watch,
                          progress)
    for hit in hits:
        g = group[0]
        if isinstance(hit, int):  # lines read so far (progress): a group whose lines are all read is done
            if g is not None and g[1][0].line_no + context <= hit:
                yield g
                group[0] = None
            yield hit
            continue
        if g is not None and g[1][0].line_no == hit.line_no:
            g[1].append(hit)
            continue
        if g is not None:
            yield g
        # Hits come in line order: lines before this one's window are no later hit's either. What
        # is left starts at the window, whose lines are numbered one after another.
        while lines and lines[0][0] < hit.line_no - context:
            lines.popleft()
        window = list(islice(lines, 2 * context + 1))
        before = [(n, t) for n, t in window if n < hit.line_no]
        after = [(n, t) for n, t in window if hit.line_no < n <= hit.line_no + context]
        group[0] = (before, [hit], after)
    if group[0] is not None:
        yield group[0]
