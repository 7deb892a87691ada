"""What counts as a status code in a log line (the recognition rules).

Built from the registry, never from a hard-coded list. A token is a candidate
when it is one of:

1. ``name``: a code name in a vendor spelling (canonical, Python or C++ name),
   possibly qualified (``LLMStatusCode.X``, ``ge::X``, ``llm_datadist::X``) or
   as a Python repr (``<LLMStatusCode.X: 1343270921>``, one token). Aliases
   that are another library's names (``ACL_ERROR_RT_...``) are not scanned.
2. ``layout``: a number with the LLM DataDist layout, ``0x5010B000``-
   ``0x5010BFFF``, in decimal (``1343270921``), hex (``0x5010B009``) or bare
   hex (``5010b009``), as a token of its own, unless it is the value of a
   field (``remote_ip=1343270921``, ``port:``, ``pid=``, ``cluster_id=``...:
   an IP written as an integer, a port, an id). Unknown values give a token
   with code None.
3. ``shared``: any other positive registry value (``4294967295``/
   ``ffffffff``, ``507053``, ``507057``) only right after a status keyword:
   ``ret``, ``<x>_ret`` (``k_ret``), ``retcode``, ``return code``, ``rc``,
   ``result``, ``status``, ``status_code``, ``error``, ``err``, ``errno``,
   ``error code``, ``errcode``, ``ErrorNo``, ``code``..., then ``=``, ``:``,
   ``is`` or a space. These numbers belong to several layers; which one is
   decided from the context (:mod:`sphinx_llmstatus.scan.engine`). Decimal,
   or 8 hex digits of one case for values that have 8 hex digits.
4. ``other``: another layer's number after a status keyword: a HIXL/ADXL
   status (``ErrorNo: 103905()``), an ACL runtime code (``ErrCode=507046``) or
   an HCCL error number (``errNo[0x0000000005000007]``, or HCCL's call trace
   ``hcclRet -> 12``, read as the error number of that ``HcclResult``: kind
   ``trace``): reported under its own family, never as LLM DataDist's.
5. ``0`` and ``-1`` are never tokens as bare numbers (every C call logs
   ``ret = 0`` and ``ret = -1``); only as names or reprs.

Not tokens: an operand of ``==`` or ``!=`` (the expected value in ``Check
failed: ret == LLM_SUCCESS``); digits inside a longer token (ids, hashes,
URLs, paths, dotted numbers); success codes unless asked for.

Every rule is linear in the line: the regular expressions have no nested or
adjacent unbounded quantifiers, and every look around a token (qualifier,
keyword, field name, comparison) reads a bounded window of characters.

Speed on long lines (issue 10: any 1 MB line in under 50 ms, even one holding
70,000 codes in random order): each literal-led expression runs on its own;
a match goes to the list of its verdict in a short loop when the characters
around it that settle the verdict (its key) were seen before; repeats are
possessive, and a fixed-width number is first looked for without the
look-ahead of its end (``re`` saves a backtracking context for each
look-around at every match), until too many new keys show a junk line of
near-misses; Hyperscan, where installed, tells which of the rarer
expressions occur on the line.
"""

from __future__ import annotations

import re
from collections.abc import Container, Iterable, Iterator
from itertools import chain, islice, repeat
from operator import ge, sub

from ..registry.layout import hccl_error
from ..registry.model import LLM_CODE_BASE, LLM_CODE_MASK, LLM_DATADIST, Registry, StatusCode

#: Status keywords before a shared number (``k_ret = ffffffff``, ``ErrorNo: 4294967295``).
_KEYWORD = (
    r"(?<![A-Za-z0-9])"
    r"(?:ret(?:_?code|_?val(?:ue)?)?|return(?:[ _](?:code|value))?|rc|result(?:[ _]code)?"
    r"|status(?:[ _]?code)?|err(?:or)?(?:[ _]?(?:code|no|num))?|errno|code)"
    r"[ \t]{0,4}(?:(?<![=!<>])[:=](?!=)|[ \t]is|\[|\()?[ \t]{0,4}"
)
_KEYWORD_END = re.compile(_KEYWORD + r"\Z", re.IGNORECASE)
# "<name> =" / "<name>:" right before a number: a field, when the name says so.
_FIELD_END = re.compile(r"(?<![A-Za-z0-9_])([A-Za-z][A-Za-z0-9_]{0,39})(?:[ \t]{0,4}[:=][ \t]{0,4}|[ \t]{1,4})\Z")
_FIELD_SUFFIXES = (
    "ip", "ips", "addr", "address", "host", "port", "pid", "tid", "id", "ids", "uid", "rank", "size",
    "len", "length", "offset", "seq", "index", "idx", "hash", "key", "time", "ts", "timestamp", "count",
    "num", "number", "timeout", "device", "dev",
)
_STATUS_NAMES = re.compile(r"(?:ret|rc|result|status|err|error|errno|code)", re.IGNORECASE)
_REPR_TAIL = re.compile(r"[ \t]{0,8}:[ \t]{0,8}-?\d{1,20}[ \t]{0,8}>")
_QUALIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,63}\Z")
#: Other layers' numbers are reported (under their family) after a status keyword: the
#: values of the neighbouring families' ``ranges`` (HIXL/ADXL statuses, ACL runtime codes) and
#: their own error-number forms (HCCL's ``errNo[0x0000000005000007]``), from the registry
#: (:func:`_other_forms`). Each with the literal that starts every match (``re`` skips to it in C:
#: the HCCL form is written twice, ``0x`` and ``0X``, as ``0[xX]`` would stop at every "0").


def _digit_range(low: str, high: str) -> str:
    """A regular expression for the decimal numbers of ``low``..``high``, strings of one length."""
    if low == high:
        return low
    if set(low) <= {"0"} and set(high) <= {"9"}:
        return f"[0-9]{{{len(low)}}}"
    if low[0] == high[0]:
        return low[0] + _digit_range(low[1:], high[1:])
    rest = len(low) - 1
    if set(low[1:]) <= {"0"} and set(high[1:]) <= {"9"}:
        return f"[{low[0]}-{high[0]}]" + (f"[0-9]{{{rest}}}" if rest else "")
    parts = [low[0] + _digit_range(low[1:], "9" * rest)]
    if int(high[0]) - int(low[0]) > 1:
        parts.append(f"[{int(low[0]) + 1}-{int(high[0]) - 1}]" + (f"[0-9]{{{rest}}}" if rest else ""))
    parts.append(high[0] + _digit_range("0" * rest, high[1:]))
    return "(?:" + "|".join(parts) + ")"


#: Most values in one expression (Hyperscan bounds a pattern's length).
_GROUP_MAX = 512


def _by_width(words: list[str]) -> list[list[str]]:
    """``words`` grouped by length (a look-behind needs one width), shortest first, at most
    :data:`_GROUP_MAX` to a group."""
    groups = [sorted(w for w in words if len(w) == n) for n in sorted({len(w) for w in words})]
    return [group[i:i + _GROUP_MAX] for group in groups for i in range(0, len(group), _GROUP_MAX)]


def _alternation(words: list[str]) -> str:
    """One expression matching each of ``words`` (digits and letters, none a prefix of another)
    and nothing else, factored as a trie: ``507(?:053|057)``, which ``re`` tries in time linear in
    the word length, not in their number."""
    if len(words) == 1:
        return re.escape(words[0])
    heads = sorted({w[0] for w in words})
    branches = [re.escape(h) + _alternation([w[1:] for w in words if w[0] == h]) for h in heads]
    return branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"


def _other_forms(registry: Registry) -> tuple[tuple[str, str], ...]:
    """``(expression, literal start)`` of every neighbouring family's number form."""
    forms: list[tuple[str, str]] = []
    for family in registry.families.values():
        if family.key == LLM_DATADIST:
            continue
        for low, high in family.ranges:
            lo, hi = str(low), str(high)
            if len(lo) != len(hi):  # ranges of mixed widths: one per width
                forms += [(_digit_range(a, b), _common_prefix(a, b) or a[0]) for a, b in
                          ((lo, "9" * len(lo)), ("1" + "0" * (len(hi) - 1), hi))]
                continue
            forms.append((_digit_range(lo, hi), _common_prefix(lo, hi) or lo[0]))
        if family.module is not None and family.sub_modules:
            subs = f"0[0-{len(family.sub_modules) - 1:X}]" if len(family.sub_modules) <= 16 else "[0-9A-Fa-f]{2}"
            for x in ("0x", "0X"):
                forms.append((f"{x}0{{0,15}}{family.module:X}{subs}[0-9A-Fa-f]{{4}}", x))
    return tuple(forms)


#: Shared values of one width and case past which their number expression gets no narrow form
#: (:func:`_clean_number` repeats the values in each look-behind): a registry file's thousands.
_CLEAN_MAX = 16

#: HCCL's call trace (``CHK_RET`` in ``src/pub_inc/log.h`` of the HCCL/HCOMM sources logs
#: ``[%s]call trace: hcclRet -> %d`` with the ``HcclResult`` a call returned): the number is
#: reported as the HCCL error number of that result (module 5, sub-module HCCL).
_HCCL_TRACE = "hcclRet -> "
_HCCL_TRACE_FORM = re.escape(_HCCL_TRACE) + "[0-9]{1,2}"
#: The end of a token, for :attr:`Matcher.forms` without look-around.
_FORM_END = r"(?:[^A-Za-z0-9_]|$)"
#: Lines up to this many characters are matched with one alternation.
SHORT_LINE = 2048
#: Characters looked at before a token (keyword, field name, qualifiers).
LOOKBEHIND = 128
_LAYOUT_LAST = LLM_CODE_BASE | ~LLM_CODE_MASK & 0xFFFFFFFF


#: An ANSI control sequence (CSI: ESC [ parameters, intermediates, final byte), bounded.
_ANSI_RE = re.compile(r"\x1b\[[0-?]{0,32}[ -/]{0,4}[@-~]")


def _blank(m: re.Match[str]) -> str:
    return " " * len(m.group())


def _common_prefix(a: str, b: str) -> str:
    n = 0
    while n < min(len(a), len(b)) and a[n] == b[n]:
        n += 1
    return a[:n]


class Token:
    """A candidate on one line: span, kind (``name``/``layout``/``shared``/``other``/``trace``), value and code.

    On a line that repeats a code, one token stands for every occurrence
    decided alike: ``starts`` lists their starts in order (``start`` is the
    first; each spans ``end - start`` characters); None for a single one.
    """

    __slots__ = ("start", "end", "kind", "value", "code", "python_form", "starts")

    def __init__(self, start: int, end: int, kind: str, value: int | None, code: StatusCode | None,
                 python_form: bool = False, starts: list[int] | None = None) -> None:
        self.start, self.end, self.kind, self.value, self.code = start, end, kind, value, code
        self.python_form = python_form
        self.starts = starts

    def occurrences(self) -> list[int]:
        """The start of every occurrence, in order."""
        return self.starts if self.starts is not None else [self.start]


class Matcher:
    """The recognition rules compiled for one registry.

    ``literals`` are byte strings of which every token contains at least one
    (ASCII, case-sensitive, for a quick literal prefilter); ``prefilter`` are
    byte regular expressions (no look-around) that every token matches, for
    a multi-pattern engine. :meth:`tokens` applies the precise rules to one line.
    """

    def __init__(self, registry: Registry):
        self.registry = registry
        own = registry.in_family(LLM_DATADIST)
        names: dict[str, StatusCode] = {}
        for code in own:  # another layer's names (PARAM_INVALID, HCCL_E_...) are no LLM DataDist tokens
            for spelling in (code.name, *(v.name for v in code.views)):
                names.setdefault(spelling, code)
        for spelled in registry.bound_names:  # other libraries' names that reach logs (LLMOutOfMemory)
            binding, bound = registry.bindings.get(spelled.binding), registry.get(spelled.code)
            if binding is not None and binding.in_logs and bound is not None and bound.family == LLM_DATADIST:
                names.setdefault(spelled.name, bound)
        self.names = names
        #: Values that are tokens only after a keyword (they also mean other things).
        self.shared_values: dict[int, StatusCode] = {
            c.value: c for c in own if c.value is not None and c.value > 0 and not c.is_llm_layout}
        other_forms = self.other_forms = _other_forms(registry)
        hccl = next((f for f in registry.families.values() if f.module is not None), None)
        self._trace_module = hccl.module if hccl is not None else None
        heads = sorted({n[:4] for n in names})
        lo, hi = str(LLM_CODE_BASE), str(_LAYOUT_LAST)
        dec_prefix = _common_prefix(lo, hi) if len(lo) == len(hi) else ""
        layout_dec = re.escape(dec_prefix) + f"[0-9]{{{len(lo) - len(dec_prefix)}}}" if dec_prefix else r"(?!)"
        layout_hex = f"{LLM_CODE_BASE >> 16:x}[bB][0-9A-Fa-f]{{3}}"
        hex_values = sorted(f"{v:08x}" for v in self.shared_values if v >= 0x10000000)
        after = r"(?![A-Za-z0-9_])(?![-./#%@+][A-Za-z0-9])"
        # One expression per literal start: Python's re then skips to each
        # occurrence of the literal in C, so a line without one costs almost
        # nothing whatever its length; boundaries and keywords are checked
        # on the (few) matches, in bounded windows.
        # (expression, kind, what every match holds for a multi-pattern engine). Repeats are
        # possessive and a name has no look-ahead (it takes every word character after its
        # head; a longer word is no name): ``re`` saves a backtracking context for each
        # look-around and repeat that may give back, at every match, which on a line dense with
        # codes costs more than the rest of the match. A number keeps the look-ahead of its end:
        # ``re`` then drops in C the many near-misses of a junk line (``5010b0091``), which
        # would each cost a decision in Python.
        scans = [(re.escape(h) + r"[A-Za-z0-9_]*+", "name", re.escape(h) + r"[A-Za-z0-9_]{0,60}") for h in heads]
        scans += [(layout_hex + after, "lh", layout_hex), (layout_dec + after, "ld", layout_dec)]
        # One expression per width and case of the shared values, not one per value: a registry
        # file may add thousands (each expression costs milliseconds to compile, and a pass).
        decimals = [str(v) for v in sorted(self.shared_values)]
        for group in (*_by_width(hex_values), *_by_width([h.upper() for h in hex_values]), *_by_width(decimals)):
            if group:
                form = _alternation(group)
                scans.append((form + after, "sv", form))
        for form, head in other_forms:
            # Not the shared values (``507[0-9]{3}`` and 507053): those are "sv" matches.
            rests = [d[len(head):] for d in decimals if d.startswith(head)]
            precise = head + f"(?!(?:{'|'.join(rests)})(?![0-9]))" + form[len(head):] if rests else form
            # The HCCL form's end also for the multi-pattern engine: it would count every 0x5010B009.
            scans.append((precise + after, "ov", form + _FORM_END if head in ("0x", "0X") else form))
        scans.append((_HCCL_TRACE_FORM + after, "hr", _HCCL_TRACE_FORM))
        self._scans = [(re.compile(p.replace("}", "}+")), kind) for p, kind, _ in scans]
        # Long lines: each fixed-width number also without the look-ahead of its end, tried
        # first (_collect_long): on a line dense with codes, where their keys repeat, a number's
        # end is checked once per key (_decide: _ends_number) instead of at every match.
        self._fast = tuple(re.compile(rx.pattern.removesuffix(after)) if rx.pattern.endswith(after) else rx
                           for rx, _ in self._scans)
        #: One byte pattern per expression of the long-line rules, in their order, that every
        #: match holds (the expression without its look-around), for a multi-pattern engine to
        #: tell which occur on a line (``present`` of :meth:`tokens`). None for LLM DataDist's
        #: names and layout numbers: run on every long line, as a line dense with codes has them
        #: all and Hyperscan spent more on counting their many occurrences than ``re`` does.
        self.forms = tuple(None if kind in ("name", "lh", "ld") else form.encode() for _, kind, form in scans)
        self._looked_for = tuple(form is not None for form in self.forms)
        self._widths = tuple(_fixed_width(fast.pattern) for fast in self._fast)
        # Short lines: one alternation of the same expressions (one call instead of one per
        # literal; on a long line the literal-led expressions above skip faster). No groups:
        # then every branch starts with a literal and ``re`` skips to their first characters
        # in C (10x faster on log lines); the branch is found again on each match.
        # A name keeps its bounded form here: taking a whole overlong word would hide the
        # number glued inside it (``..._ret507053``) that the long-line expressions, run one
        # after the other, find.
        self._short = re.compile("|".join(f"(?:{form}(?![A-Za-z0-9_]))" if kind == "name" else f"(?:{rx.pattern})"
                                          for (rx, kind), (_, _, form) in zip(self._scans, scans)))
        self._verdicts: dict[tuple, tuple | None] = {}  # see _remembered
        self._stops_of: tuple[str | None, bytes] = (None, b"")  # see _stops
        # Long lines: where a number's verdict depends on its text alone (_clean_number, _narrow).
        lh, ld = f"{LLM_CODE_BASE >> 16:x}", re.escape(dec_prefix)
        lh_rest, ld_rest = "[bB][0-9A-Fa-f]{3}" + after, f"[0-9]{{{len(lo) - len(dec_prefix)}}}" + after
        self._clean: dict[str, list[tuple[re.Pattern[str], str]]] = {}  # kind -> (expression, context)
        for _, kind, form in scans:
            if kind == "lh":
                forms = [(_clean_number(lh, lh_rest, layout=True), ""),
                         (_clean_number(lh, lh_rest, layout=True, hexed=True), "0x")]
            elif kind == "ld" and dec_prefix:
                forms = [(_clean_number(ld, ld_rest, layout=True), "")]
            elif kind == "sv" and form.count("|") < _CLEAN_MAX:  # each look-behind holds the values again
                forms = [(_clean_number(form, after, layout=False), "")]
            else:
                continue
            self._clean.setdefault(kind, []).extend((re.compile(c), "ret = " + x) for c, x in forms)
        self.literals = self._literals(heads, dec_prefix, hex_values)
        # A layout number that is a field's value (remote_ip=1343270921) is told in the multi-pattern
        # engine: its expression takes the field's name too where there is one (_field_form), and a
        # match longer than the number (leftmost start) is a field's value, no candidate.
        field = _field_form()
        self.prefilter = (
            tuple(re.escape(n).encode() for n in sorted(names))
            + (f"(?:{field}(?:0[xX])?)?{layout_hex}".encode(), f"(?:{field})?{layout_dec}".encode())
            + tuple(f"(?i:{_alternation(group)})".encode() for group in _by_width(hex_values))
            + tuple(_alternation(group).encode() for group in _by_width(decimals))
            # (The HCCL form with its end: else every 0x5010B009 would be a candidate through it.)
            + ("|".join(form + _FORM_END if head in ("0x", "0X") else form
                        for form, head in other_forms).encode() or b"(?!)", _HCCL_TRACE_FORM.encode())
        )

        first = len(names)
        #: Indexes of :attr:`prefilter` whose matches are a field's value when they are longer than
        #: this (the engine reports the leftmost start of each match): the layout numbers.
        self.field_vetoed = {first: 8, first + 1: len(lo)}

    def _literals(self, heads: list[str], dec_prefix: str, hex_values: list[str]) -> tuple[bytes, ...]:
        lits: set[str] = set(heads)
        lits.add(f"{LLM_CODE_BASE >> 16:x}")
        lits.add(f"{LLM_CODE_BASE >> 16:X}")
        if dec_prefix:
            lits.add(dec_prefix[1:] or dec_prefix)  # a rarer first byte makes the search faster
        for h in hex_values:
            lits.update((h, h.upper()))
        decimals = sorted(str(v) for v in self.shared_values)
        merged: list[str] = []
        for d in decimals:  # 507053, 507057 -> 50705
            if merged and len(p := _common_prefix(merged[-1], d)) >= 5:
                merged[-1] = p
            else:
                merged.append(d)
        lits.update(merged)
        lits.update(head for _, head in self.other_forms)  # other layers' numbers
        lits.add(_HCCL_TRACE)
        keep: set[str] = set()  # no literal holding a shorter one: the shorter finds its lines too
        for lit in sorted(lits, key=len):
            if not any(lit[i:j] in keep for i in range(len(lit)) for j in range(i + 1, len(lit) + 1)):
                keep.add(lit)
        return tuple(s.encode("ascii") for s in sorted(keep, key=lambda k: (len(k), k)))

    def _short_matches(self, line: str, lo: int, stop: int) -> Iterator[tuple[re.Match[str], str]]:
        for m in self._short.finditer(line, lo, stop):
            # The alternation took the first branch that matches here (names come first).
            s = m.start()
            yield m, next(kind for rx, kind in self._scans if rx.match(line, s, stop) is not None)

    def tokens(self, line: str, lo: int = 0, hi: int | None = None,
               include_success: bool = False, present: Container[int] | None = None) -> list[Token]:
        """The candidates of ``line`` whose start is in ``[lo, hi)``, left to right.

        ``present``: the indexes of the :attr:`forms` that occur in the line
        (a superset will do), when a multi-pattern engine has told; on a long
        line the expressions of the other forms are not run. None: run all.

        ``lo``/``hi`` let a long line be scanned in overlapping pieces: the
        rules read at most :data:`LOOKBEHIND` characters before a token and a
        few dozen after it. Each match is decided from the characters around
        it that the rules read (:data:`_REACH`), once per distinct window.
        Where a long line repeats itself with a period (a code logged 90,000
        times), the matches of one period stand for all the periods whose
        surroundings repeat too (:func:`_periodic`). Occurrences decided alike
        come back as one :class:`Token` (``starts``).
        """
        if "\x1b" in line:
            # Terminal colours written into the log (`\x1b[31mLLM_LINK_FAILED\x1b[0m`) are blanked,
            # every column kept, so that a coloured name or number is a token of its own.
            line = _ANSI_RE.sub(_blank, line)
        hi = len(line) if hi is None else hi
        found: dict[tuple | None, list[int]] = {}  # verdict (relative to the match) -> match starts
        self._find(line, lo, hi, include_success, found, present)
        if self._stops_of[0] is not None:
            self._stops_of = (None, b"")  # let the line go
        return _tokens(found)

    def _find(self, line: str, lo: int, hi: int, include_success: bool, found: dict[tuple | None, list[int]],
              present: Container[int] | None) -> None:
        """Fill ``found`` for :meth:`tokens`."""
        stop = min(len(line), hi + 96)
        caches: dict[object, dict[str, list[int]]] = {kind: {} for kind in _REACH}
        if stop - lo <= SHORT_LINE:
            self._collect(line, [(kind, (m,)) for m, kind in self._short_matches(line, lo, stop)],
                          0, hi, include_success, found, caches)
            return
        period = _periodic(line, lo, hi) if hi - lo >= PERIODIC_LINE else None
        if period is None:
            self._collect_long(line, lo, stop, 0, hi, include_success, found, caches, present)
            return
        p, first, last = period  # the matches starting in [first, last) repeat those of [first, first + p)
        # (Each match before ``first + p`` ends, and is looked at, before ``first + p + _RESUME``.)
        self._collect_long(line, lo, min(stop, first + p + _RESUME), 0, first + p, include_success, found, caches,
                           present)
        for verdict, starts in found.items():
            if verdict is not None:
                ref = [x for x in starts if first <= x < first + p]
                starts.extend(chain.from_iterable(range(x + p, last, p) for x in ref))
        # A match before ``last`` may cover a later start: resume a match length earlier.
        self._collect_long(line, max(lo, last - _RESUME), stop, last, hi, include_success, found, caches, present)

    def _collect_long(self, line: str, pos: int, stop: int, lo: int, hi: int, include_success: bool,
                      found: dict[tuple | None, list[int]], caches: dict[object, dict[str, list[int]]],
                      present: Container[int] | None) -> None:
        """:meth:`_collect` for the matches in ``line[pos:stop]`` of each literal-led expression in turn
        (each skips to its literal in C), starting in ``[lo, hi)``, on a long line, with the same keys
        (the characters around a match that settle its verdict) and caches. A dense line has a match
        every dozen characters: the loops below are kept short; a number whose key was not seen yet
        is decided by :meth:`_number`; a match near the line's start, or a qualified name whose
        window was not seen yet, by :meth:`_collect`."""
        for i, (rx, kind) in enumerate(self._scans):
            if present is not None and self._looked_for[i] and i not in present:
                continue
            if kind == "name":
                self._collect_names(line, rx, pos, stop, lo, hi, include_success, found, caches)
                continue
            narrow = kind in self._clean
            before, after = (_NARROW, _NARROW_AFTER) if narrow else _REACH[kind]
            get = (caches.setdefault(("narrow", kind), {}) if narrow else caches[kind]).get
            wide_before, wide_after = _REACH[kind]
            wide_get = caches[kind].get
            low = max(lo, before, wide_before)
            width = self._widths[i]
            if width:  # every match has this length: no need of its end
                reach, wide_reach = width + after, width + wide_after
                # The expression without its end's look-ahead first; after _FAST_MISSES keys not
                # seen before (a junk line of near-misses such as 5010b0091, each a new key), the
                # rest of the line with it, so that ``re`` drops the near-misses in C.
                misses = 0
                matches = self._past_start(line, rx, kind, self._fast[i].finditer(line, pos, stop), low, lo, hi,
                                           include_success, found, caches)
                again = True
                while again:
                    again = False
                    for s in map(_START, matches):
                        if s >= hi:
                            break
                        starts = get(line[s - before:s + reach], _UNSEEN)
                        if starts is _WIDE:  # a number its narrow key does not settle: its wide window
                            starts = wide_get(line[s - wide_before:s + wide_reach], _UNSEEN)
                        if starts is _UNSEEN:
                            misses += 1
                            if misses == _FAST_MISSES and rx is not self._fast[i]:
                                again, matches = True, rx.finditer(line, s, stop)
                                break
                            starts = self._number(line, s, s + width, kind, include_success, found, caches)
                        starts.append(s)
                continue
            for s, e in map(_SPAN, self._past_start(line, rx, kind, rx.finditer(line, pos, stop), low, lo, hi,
                                                    include_success, found, caches)):
                if s >= hi:
                    break
                starts = get(line[s - before:e + after], _UNSEEN)
                if starts is _WIDE:
                    starts = wide_get(line[s - wide_before:e + wide_after], _UNSEEN)
                if starts is _UNSEEN:
                    starts = self._number(line, s, e, kind, include_success, found, caches)
                starts.append(s)

    def _past_start(self, line: str, rx: re.Pattern[str], kind: str, matches: Iterator[re.Match[str]], low: int,
                    lo: int, hi: int, include_success: bool, found: dict[tuple | None, list[int]],
                    caches: dict[object, dict[str, list[int]]]) -> Iterator[re.Match[str]]:
        """``matches`` from the first that starts at ``low`` or later; those before it that start
        at ``lo`` or later are decided one by one by :meth:`_collect` (near the line's start a
        window is cut short, so it is no key), each matched again alike with ``rx``."""
        for m in matches:
            s = m.start()
            if s >= low:
                return chain((m,), matches)
            if s >= lo:
                self._collect(line, ((kind, rx.finditer(line, s, m.end())),), lo, hi, include_success, found, caches)
        return iter(())

    def _number(self, line: str, s: int, e: int, kind: str, include_success: bool,
                found: dict[tuple | None, list[int]], caches: dict[object, dict[str, list[int]]],
                narrow: bool = True) -> list[int]:
        """The starts list of the number ``line[s:e]`` (at least its window's reach from the
        line's start), its keys remembered in ``caches``: with ``narrow`` (long lines), from the
        few characters around it when they settle its verdict (a random id nearby leaves these
        alike while the wide window differs), else from its window (:data:`_REACH`)."""
        decide = self._remembered
        if narrow and kind in self._clean:  # its narrow key first
            keys = caches.setdefault(("narrow", kind), {})
            key = line[s - _NARROW:e + _NARROW_AFTER]
            starts = keys.get(key, _UNSEEN)
            if starts is _UNSEEN:
                starts = keys[key] = self._narrow(key, e - s, kind, include_success, found)
            if starts is not _WIDE:
                return starts
        before, after = _REACH[kind]
        wide = caches[kind]
        key = line[s - before:e + after]
        starts = wide.get(key, _UNSEEN)
        if starts is _UNSEEN:
            verdict = decide(key, before, before + e - s, line[s:e], kind, include_success)
            starts = wide[key] = found.setdefault(verdict, [])
        return starts

    def _collect_names(self, line: str, rx: re.Pattern[str], pos: int, stop: int, lo: int, hi: int,
                       include_success: bool, found: dict[tuple | None, list[int]],
                       caches: dict[object, dict[str, list[int]]]) -> None:
        """:meth:`_collect_long` for the matches of a name expression."""
        before, after = _REACH["name"]
        cache = caches["name"]
        get, decide = cache.get, self._remembered
        q_short, q_long = (caches.setdefault(("qualified", a), {}).get for a in _QUALIFIED_AFTER)
        stops = b""
        low, end = max(lo, before), len(line)
        matches = self._past_start(line, rx, "name", rx.finditer(line, pos, stop), low, lo, hi, include_success,
                                   found, caches)
        for s, e in map(_SPAN, matches):
            if s >= hi:
                break
            # A qualified name (after "." or ":", which its key holds) is decided by its own window.
            starts = get(key := line[s - before:e + after], _UNSEEN)
            if starts is _UNSEEN:
                if line[s - 1] in ".:":
                    starts = cache[key] = _QUALIFIED
                else:
                    verdict = decide(key, before, before + e - s, line[s:e], "name", include_success)
                    starts = cache[key] = found.setdefault(verdict, [])
            if starts is not _QUALIFIED:
                starts.append(s)
                continue
            # As _qualified_reach, inline (names are many).
            stops = stops or self._stops(line)
            b = s - stop_at + 16 if (stop_at := stops.rfind(b"|", s - _QUALIFIED_BEFORE, s)) >= 0 \
                else _QUALIFIED_BEFORE
            if s >= b and e + _QUALIFIED_AFTER[1] <= end:  # (a window cut by the line's end: _collect)
                starts = q_short(line[s - b:e + _QUALIFIED_AFTER[0]], _UNSEEN)
                if starts is _WIDE:  # a repr's tail follows
                    starts = q_long(line[s - b:e + _QUALIFIED_AFTER[1]], _UNSEEN)
                if starts is not _UNSEEN:
                    starts.append(s)
                    continue
            self._collect(line, (("name", rx.finditer(line, s, e)),), lo, hi, include_success, found, caches)

    def _collect(self, line: str, runs: Iterable[tuple[str, Iterable[re.Match[str]]]], lo: int, hi: int,
                 include_success: bool, found: dict[tuple | None, list[int]],
                 caches: dict[object, dict[str, list[int]]]) -> None:
        """Add to ``found`` the starts of the matches of ``runs`` starting in ``[lo, hi)``, by verdict
        (``found[None]``: not a token); remember each key's list in ``caches``."""
        decide = self._remembered
        long_line = len(line) > SHORT_LINE
        for kind, matches in runs:
            reach = _REACH[kind]
            cache = caches[kind]
            names = kind == "name"
            for m in matches:
                s = m.start()
                if s >= hi:
                    break
                if s < lo:
                    continue
                if not names and s >= reach[0]:
                    self._number(line, s, m.end(), kind, include_success, found, caches, long_line).append(s)
                    continue
                k, (before, after), c = kind, reach, cache
                if names and s > 0 and line[s - 1] in ".:":
                    k = "qualified"
                    before, after = _qualified_reach(line, s, m.end(), self._stops(line))
                    # One cache per width after (the window says how far back it reaches), for
                    # windows the line's end does not cut (two cut ones may be alike).
                    whole = m.end() + _QUALIFIED_AFTER[1] <= len(line)
                    c = caches.setdefault((k, after) if whole else (k, before, after), {})
                    if after != _QUALIFIED_AFTER[0] and s >= before and whole:
                        caches.setdefault((k, _QUALIFIED_AFTER[0]), {})[line[s - before:m.end() + _QUALIFIED_AFTER[0]]] = _WIDE
                if s < before:  # near the line's start: the window starts with the line
                    verdict = decide(line[:m.end() + after], s, m.end(), m.group(), k, include_success)
                    found.setdefault(verdict, []).append(s)
                    continue
                window = line[s - before:m.end() + after]
                starts = c.get(window, _UNSEEN)
                if starts is _UNSEEN:
                    verdict = decide(window, before, before + m.end() - s, m.group(), k, include_success)
                    starts = c[window] = found.setdefault(verdict, [])
                starts.append(s)

    def _stops(self, line: str) -> bytes:
        """:func:`_stops` of ``line``, kept while :meth:`tokens` works on it."""
        if self._stops_of[0] is not line:
            self._stops_of = (line, _stops(line))
        return self._stops_of[1]

    def _narrow(self, key: str, length: int, kind: str, include_success: bool,
                found: dict[tuple | None, list[int]]) -> list[int]:
        """The starts list in ``found`` of the number ``key[_NARROW:_NARROW + length]`` (``found[None]``:
        not a token) when ``key`` settles its verdict (a clean expression matches it), else :data:`_WIDE`."""
        tail = key[_NARROW + length:].lstrip()
        if tail[:1] in ("", "=", "!"):  # a comparison may follow beyond the key
            return _WIDE
        text = key[_NARROW:_NARROW + length]
        for rx, before in self._clean[kind]:
            if rx.match(key, _NARROW) is not None:
                verdict = self._remembered(f"{before}{text} ", len(before), len(before) + length, text, kind,
                                           include_success)
                return found.setdefault(verdict, [])
        return _WIDE

    def _remembered(self, window: str, s: int, end: int, text: str, kind: str,
                    include_success: bool) -> tuple | None:
        """:meth:`_decide` on a window holding all a verdict depends on, remembered across lines
        (log lines repeat their codes with the same words around them)."""
        key = (kind, s, end, include_success, window)
        verdict = self._verdicts.get(key, _UNSEEN)
        if verdict is _UNSEEN:
            if len(self._verdicts) >= _REMEMBERED:
                self._verdicts.clear()
            verdict = self._verdicts[key] = self._decide(window, s, end, text, kind, include_success)
        return verdict  # type: ignore[return-value]

    def _decide(self, line: str, s: int, end: int, text: str, kind: str,
                include_success: bool) -> tuple | None:
        """The verdict on the match ``line[s:end] == text`` of ``kind``: None, or
        ``(start - s, end - s, kind, value, code, python_form, wholeness)`` of its token
        (:func:`_wholeness`)."""
        code: StatusCode | None
        python_form = False
        if kind in ("name", "qualified"):
            code = self.names.get(text)
            if code is None or (s > 0 and _WORD_CHAR(line[s - 1])):
                return None
            start = qs = _qualifier_start(line, s)
            if qs < s:
                python_form = "LLMStatusCode" in line[qs:s]
                if python_form:  # a repr: <LLMStatusCode.X: 1343270921> is one token
                    lt = line.rfind("<", max(0, qs - 8), qs)
                    tail = _REPR_TAIL.match(line, end) if lt >= 0 and not line[lt + 1:qs].strip() else None
                    if tail is not None:
                        start, end = lt, tail.end()
            value = code.value
            tok_kind = "name"
        elif kind == "hr":  # hcclRet -> 12: the token is the number
            start = s + len(_HCCL_TRACE)
            if self._trace_module is None:
                return None
            value = self._trace_module << 24 | int(text[len(_HCCL_TRACE):])
            if _in_word(line, s) or hccl_error(value, self.registry) is None:
                return None
            code, tok_kind = None, "trace"
        elif kind in ("lh", "ld"):
            start = s - 2 if kind == "lh" and line[s - 2:s] in ("0x", "0X") else s
            if _in_word(line, start) or not _ends_number(line, end):
                return None
            value = int(text, 16) if kind == "lh" else int(text)
            if (value & LLM_CODE_MASK) != LLM_CODE_BASE or value > 0xFFFFFFFF:
                return None
            if _is_field_value(line, start, self.names):
                return None
            code = self.registry.by_value(value)
            tok_kind = "layout"
        else:
            start = s - 2 if line[s - 2:s] in ("0x", "0X") and text[:2] not in ("0x", "0X") else s
            if not _ends_number(line, end) or _KEYWORD_END.search(line, max(0, start - 28), start) is None:
                return None
            shared = self.shared_values
            if kind == "sv":
                hexed = start < s or len(text) == 8
                value = int(text, 16) if hexed else int(text)
                code = shared.get(value)
                if code is None:
                    return None
                tok_kind = "shared"
            else:
                value = int(text, 16) if text[:2] in ("0x", "0X") else int(text)
                if value in shared or self.registry.family_of_number(value) is None:
                    return None
                code, tok_kind = None, "other"
        if code is not None and code.is_success and not include_success:
            return None
        if _is_comparison_operand(line, start, end):
            return None
        return (start - s, end - s, tok_kind, value, code, python_form,
                _wholeness(line[start:end], line[start - 1:start], line[end:end + 1]))


#: Characters the rules read before a match's start and after its end, by kind of match:
#: a name's comparison check (8 each side), or after ``.``/``:`` its qualifier chain
#: (8 links of at most 66 characters, then ``<`` and a comparison) and repr tail; a
#: layout number's 0x, field name and keyword (51); a shared or other number's 0x and
#: keyword (31); an HCCL call trace's word boundary (8); 8 after for the comparison. A
#: verdict depends on nothing else.
_REACH = {"name": (8, 8), "qualified": (560, 64), "lh": (51, 8), "ld": (51, 8), "sv": (31, 8), "ov": (31, 8),
          "hr": (8, 8)}
#: A qualified name's window reaches back to 16 characters before the last character its
#: chain stops at (else _REACH's 560), and 9 characters after it unless a repr's tail
#: follows (then 64). Which start the window has is read from the window itself (it holds
#: that stop, then only chain characters up to the name), so one cache per width after serves.
_QUALIFIED_BEFORE = _REACH["qualified"][0]
_QUALIFIED_AFTER = (9, _REACH["qualified"][1])
_UNSEEN: list[int] = []
_WIDE: list[int] = []
_QUALIFIED: list[int] = []  # the key of a qualified name in the cache of names (it has its own)
#: Characters of a number's narrow key (long lines) before its start (``_ret = 0x``, ``status: ``;
#: a longer clean context is read in the wide window) and after its end (its boundary and the
#: first character that is not a blank, which rules out a comparison).
_NARROW, _NARROW_AFTER = 10, 3
#: Keys not seen before on a long line after which a number expression is run with the
#: look-ahead of its end (see Matcher._fast).
_FAST_MISSES = 2048
#: Verdicts remembered across lines (then forgotten all at once).
_REMEMBERED = 1 << 14
#: ASCII characters a qualifier chain (letters, digits, "_", "." and ":", _qualifier_start)
#: stops at, as "|": a qualified name's window starts 16 characters before the last one
#: (for "<" and "=="), not _REACH's 560, so the names before it do not make it distinct.
_QUALIFIER_STOPS = bytes(ord("-") if chr(i).isascii() and (chr(i).isalnum() or chr(i) in "_.:") else ord("|")
                         for i in range(256))


#: Lines at least this long (characters) are looked at for a repeating stretch.
PERIODIC_LINE = 1 << 15
#: Longest period looked for (characters).
MAX_PERIOD = 4096
#: Characters before a match's start that decide whether it matches (another match of the same
#: word may cover it) and what it is (a qualifier chain), and after it (its length and reach).
_LOCAL_BEFORE, _LOCAL_AFTER = 640, 256
#: Where to resume matching before a start (longer than any match).
_RESUME = 256


def _periodic(line: str, lo: int, hi: int) -> tuple[int, int, int] | None:
    """``(p, first, last)``: the matches starting in ``[first + p, last)`` are those of
    ``[first, first + p)`` shifted by multiples of ``p``, or None.

    Every rule reads at most :data:`_LOCAL_BEFORE` characters before a match
    and :data:`_LOCAL_AFTER` after it (whether a character starts a match,
    which depends on the word it is in, and the verdict, :data:`_REACH`), so
    this holds when ``line[x] == line[x + p]`` from ``first -`` that many
    characters to ``last +`` that many. The period is found from a sample in
    the middle of ``[lo, hi)``; the stretch is measured with string
    comparisons (linear).
    """
    mid = (lo + hi) // 2
    sample = line[mid:mid + 64]
    nxt = line.find(sample, mid + 1, min(hi, mid + MAX_PERIOD + 64))
    if nxt < 0:
        return None
    p = nxt - mid
    right = _same_until(line, mid, p, hi - p)  # line[x] == line[x + p] for x in [mid, right)
    left = _same_from(line, mid, p, lo)  # ... and for x in [left, mid)
    first = left + _LOCAL_BEFORE
    last = min(hi, right + p - _LOCAL_AFTER)
    if last - first < 4 * p or last - first < PERIODIC_LINE // 2:
        return None
    return p, first, last


def _same_until(line: str, x: int, p: int, limit: int) -> int:
    """The first ``y >= x`` (at most ``limit``) with ``line[y] != line[y + p]``."""
    step = 64
    while x < limit:
        n = min(step, limit - x)
        if line[x:x + n] == line[x + p:x + p + n]:
            x += n
            step *= 2
            continue
        while n > 1:  # the mismatch is in line[x:x + n]
            half = n // 2
            if line[x:x + half] == line[x + p:x + p + half]:
                x += half
                n -= half
            else:
                n = half
        return x
    return limit


def _same_from(line: str, x: int, p: int, limit: int) -> int:
    """The least ``y >= limit`` with ``line[z] == line[z + p]`` for every ``z`` in ``[y, x)``."""
    step = 64
    while x > limit:
        n = min(step, x - limit)
        if line[x - n:x] == line[x - n + p:x + p]:
            x -= n
            step *= 2
            continue
        while n > 1:  # the mismatch is in line[x - n:x]
            half = n // 2
            if line[x - half:x] == line[x - half + p:x + p]:
                x -= half
                n -= half
            else:
                n = half
        return x
    return limit


def _tokens(found: dict[tuple | None, list[int]]) -> list[Token]:
    """Tokens, in order, from the verdicts and the starts of the matches decided so."""
    groups: list[Token] = []
    found.pop(None, None)  # not tokens
    whole = _WHOLE_WORD | _WHOLE_CHAIN
    for (ds, de, kind, value, code, python_form, wholeness), starts in found.items():  # type: ignore[misc]
        whole &= wholeness
        starts.sort()  # a code's spellings come from several expressions
        if ds:
            starts = list(map(ds.__add__, starts))
        groups.append(Token(starts[0], starts[0] + de - ds, kind, value, code, python_form,
                            starts if len(starts) > 1 else None))
    if len(groups) < 2:
        if not groups or groups[0].starts is None:
            return groups
        occ, width = groups[0].starts, groups[0].end - groups[0].start
        if all(map(ge, map(sub, islice(occ, 1, None), occ), repeat(width))):  # no two overlap
            return groups
    if whole:  # all whole words, or all whole chains: no two overlap unless two start at one place,
        # and then they are the same characters: only groups of one width may share a start.
        widths: dict[int, list[Token]] = {}
        for t in groups:
            widths.setdefault(t.end - t.start, []).append(t)
        if all(len(alike) < 2 or len(set(chain.from_iterable(t.occurrences() for t in alike)))
               == sum(len(t.occurrences()) for t in alike) for alike in widths.values()):
            groups.sort(key=lambda t: t.start)
            return groups
    begins = sorted(chain.from_iterable(t.occurrences() for t in groups))
    ends = sorted(chain.from_iterable(map((t.end - t.start).__add__, t.occurrences()) for t in groups))
    if all(map(ge, islice(begins, 1, None), ends)):  # no two overlap
        groups.sort(key=lambda t: t.start)
        return groups
    # A repr or a qualified name covers another match: one by one, the longest first.
    out = sorted((Token(s, s + t.end - t.start, t.kind, t.value, t.code, t.python_form)
                  for t in groups for s in t.occurrences()), key=lambda t: (t.start, -t.end))
    kept: list[Token] = []
    last_end = -1
    for t in out:
        if t.start >= last_end:  # the number inside a repr is part of it
            kept.append(t)
            last_end = t.end
    return kept


#: Status names and separators before a number that make it neither a field's value
#: (_is_field_value) nor keyword-less (_KEYWORD_END): ``k_ret = ``, ``error ``, ``rc:``.
_STATUS_WORDS = ("ret", "rc", "result", "status", "err", "error", "errno", "code")
_STATUS_SEPS = (" = ", "=", ": ", ":", " ")
#: Characters before a number (or its 0x) that decide nothing: no word, path, field
#: separator, blank or comparison (_in_word, _is_field_value, _is_comparison_operand).
_PLAIN_BEFORE_NUMBER = r"[^A-Za-z0-9_\s\-./#%@+:=]"
#: No comparison after a token (_is_comparison_operand reads 8 characters).
_NO_COMPARISON_AFTER = r"(?!\s{0,6}[=!]=)"


def _behind(contexts: Iterable[str], literal: str) -> str:
    """A regular expression true where ``literal`` (just matched) follows one of ``contexts``
    (fixed-width expressions): lookbehinds placed after the literal."""
    return "(?:" + "|".join(f"(?<={c}{literal})" for c in contexts) + ")"


def _clean_number(literal: str, rest: str, layout: bool, hexed: bool = False) -> str:
    """A number's expression matching only where its verdict depends on its text alone: after
    a status name (``ret = ``) and, for a layout number, after a plain character or a digit
    and a blank (no field name ends with a digit); ``hexed``: after those and ``0x``."""
    x = "0[xX]" if hexed else ""
    widths = sorted({len(w) for w in _STATUS_WORDS})
    words = ["|".join("".join(f"[{c.upper()}{c}]" for c in w) for w in _STATUS_WORDS if len(w) == n) for n in widths]
    # The separator first: a number after another separator costs one look each.
    status = "|".join(f"(?<={re.escape(sep)}{x}{literal})"
                      + _behind([f"[^A-Za-z0-9](?:{w}){re.escape(sep)}{x}" for w in words], literal)
                      for sep in _STATUS_SEPS)
    plain = [_behind([f"{_PLAIN_BEFORE_NUMBER}{x}", f"[0-9][ ]{x}"], literal)] if layout else []
    return literal + "(?:" + "|".join([*plain, status]) + ")" + rest + _NO_COMPARISON_AFTER


# Called by ``map`` in C: a bytecode less per match than ``m.start()`` in the loop.
_START, _SPAN = re.Match.start, re.Match.span


def _fixed_width(pattern: str) -> int | None:
    """The length of every match of ``pattern`` when it has one and no look-around (literals,
    classes, fixed repeats, alternations of one width such as ``50705(?:3|7)``), else None."""
    from re import _parser  # the parser behind re.compile: the expression's own reading

    if re.search(r"\(\?<?[=!]", pattern):
        return None
    low, high = _parser.parse(pattern).getwidth()
    return low if low == high else None


def _ends_number(line: str, end: int) -> bool:
    """True when a number may end at ``end``: no word character follows, nor a ``-./#%@+`` and a
    letter or digit (a dotted or dashed id, a path, a version)."""
    c = line[end:end + 1]
    if not c or not c.isascii():
        return True
    if c.isalnum() or c == "_":
        return False
    nxt = line[end + 1:end + 2]
    return not (c in "-./#%@+" and nxt.isascii() and nxt.isalnum())


def _in_word(line: str, s: int) -> bool:
    """True when ``line[s]`` continues a word, a path, a URL or a dotted/dashed id."""
    if s == 0:
        return False
    c = line[s - 1]
    if _WORD_CHAR(c):
        return True
    return c in "-./#%@+" and s >= 2 and line[s - 2].isascii() and line[s - 2].isalnum()


def _WORD_CHAR(c: str) -> bool:  # noqa: N802 (a predicate used like a character class)
    return c.isascii() and (c.isalnum() or c == "_")


def _qualifier_start(line: str, s: int) -> int:
    """Start of the ``a.b::`` qualifier chain ending at ``s`` (at most 8 links, bounded)."""
    start = s
    for _ in range(8):
        if line[start - 1:start] == ".":
            sep = 1
        elif line[start - 2:start] == "::":
            sep = 2
        else:
            break
        m = _QUALIFIER.search(line, max(0, start - sep - 64), start - sep)
        if m is None or (m.start() > 0 and (line[m.start() - 1].isalnum() or line[m.start() - 1] == "_")):
            break
        start = m.start()
    return start


#: Bits of a token's wholeness: the token is a whole word (letters, digits, "_", with none of
#: them on either side), or a whole chain (the same with "." and ":"). Two whole words, or two
#: whole chains, overlap only where both start; a word inside a chain (``LLM_FAILED`` in
#: ``LLM_FAILED.LLM_TIMEOUT``) or a number glued to its keyword may overlap another token.
_WHOLE_WORD, _WHOLE_CHAIN = 1, 2


def _wholeness(token: str, before: str, after: str) -> int:
    """The :data:`_WHOLE_WORD`/:data:`_WHOLE_CHAIN` bits of ``token`` between the characters
    ``before`` and ``after`` (``""`` at the line's ends)."""
    if not token.isascii():
        return 0
    bits = 0
    if token.replace("_", "0").isalnum() and not _WORD_CHAR(before) and not _WORD_CHAR(after):
        bits |= _WHOLE_WORD
    if (token.replace("_", "0").replace(".", "0").replace(":", "0").isalnum()
            and not _WORD_CHAR(before) and before not in (".", ":") and not _WORD_CHAR(after) and after not in (".", ":")):
        bits |= _WHOLE_CHAIN
    return bits


def _stops(line: str) -> bytes:
    """``line`` with the characters a qualifier chain stops at as ``|`` (:data:`_QUALIFIER_STOPS`);
    ``b"-"`` when it is not ASCII (then no window is narrowed)."""
    return line.encode("ascii").translate(_QUALIFIER_STOPS) if line.isascii() else b"-"


def _qualified_reach(line: str, s: int, end: int, stops: bytes) -> tuple[int, int]:
    """Characters the rules read before and after a qualified name ``line[s:end]`` (:data:`_REACH`),
    narrowed to the last character its chain stops at and to a missing repr tail."""
    before = _QUALIFIED_BEFORE
    stop = stops.rfind(b"|", s - before, s)
    if stop >= 0:  # the chain, "<" and "==" are read back to 16 before the stop
        before = s - stop + 16
    if line[end:end + 9].lstrip(" \t")[:1] == ":":
        return before, _QUALIFIED_AFTER[1]  # a repr's tail
    return before, _QUALIFIED_AFTER[0]  # its blanks (up to 8) and the "==" check are read


#: Field names the multi-pattern engine tells (:func:`_field_form`): up to this many characters,
#: so that name and separator stay within what :func:`_is_field_value` reads (48).
_FIELD_FORM_NAME = 30


def _field_form() -> str:
    """An expression (no look-around, for a multi-pattern engine) of a field's name and separator
    right before a number, matching only where :func:`_is_field_value` says the number is a field's
    value: a non-word character, then a whole name that is a field suffix in any case
    (``IP=``), or ends with one as snake case (``remote_ip:``, ``cluster_ID``) or camel case
    (``remoteIp``, ``devicePORT``) in lower, upper or title case, at most
    :data:`_FIELD_FORM_NAME` characters. ``num`` is left out: ``err_num`` is a status keyword."""
    suffixes = [x for x in _FIELD_SUFFIXES if x != "num"]
    cased = "|".join(sorted({v for x in suffixes for v in (x, x.upper(), x.title())}, key=lambda v: (-len(v), v)))
    titled = "|".join(sorted({v for x in suffixes for v in (x.upper(), x.title())}, key=lambda v: (-len(v), v)))
    whole = "(?i:" + "|".join(sorted(suffixes, key=lambda v: (-len(v), v))) + ")"
    rest = _FIELD_FORM_NAME - 2 - max(map(len, suffixes))
    name = (f"(?:{whole}|[A-Za-z][A-Za-z0-9_]{{0,{rest}}}_(?:{cased})"
            f"|[A-Za-z][A-Za-z0-9_]{{0,{rest}}}[a-z0-9](?:{titled}))")
    return f"[^A-Za-z0-9_]{name}(?:[ \t]{{0,4}}[:=][ \t]{{0,4}}|[ \t]{{1,4}})"


def _is_field_value(line: str, s: int, codes: Container[str]) -> bool:
    """True when the number at ``s`` is the value of a field such as ``remote_ip=`` or ``port:``;
    never after a status code's name in ``codes`` (``LLM_TIMEOUT 1343270921`` is two codes,
    though the name ends like a ``timeout`` field)."""
    m = _FIELD_END.search(line, max(0, s - 48), s)
    if m is None:
        return False
    name = m.group(1)
    if (name in codes or _STATUS_NAMES.fullmatch(name.rsplit("_", 1)[-1])
            or _KEYWORD_END.search(line, max(0, s - 48), s)):
        return False
    low = name.lower()
    # snake_case and camelCase: cluster_id, remoteIp, devicePort
    last = re.split(r"_|(?<=[a-z0-9])(?=[A-Z])", name)[-1].lower()
    return last in _FIELD_SUFFIXES or low in _FIELD_SUFFIXES


def _is_comparison_operand(line: str, start: int, end: int) -> bool:
    before = line[max(0, start - 8):start].rstrip()
    after = line[end:end + 8].lstrip()
    return before.endswith(("==", "!=")) or after.startswith(("==", "!="))
