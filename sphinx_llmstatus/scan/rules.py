"""What counts as a status code in a log line: the recognition rules, as data.

Built from the registry, never from a hard-coded list of codes. Each
:class:`Rule` of :data:`RULES` is one kind of token: a literal-led expression
finds its candidates (built from the registry's names and values), a verdict
function of :mod:`sphinx_llmstatus.scan.verdicts` decides each match reading
at most ``reach`` characters around it, and sample lines give the tokens it
must find (a test checks them). Not tokens: an operand of ``==`` or ``!=``
(the expected value in ``Check failed: ret == LLM_SUCCESS``); digits inside a
longer token (ids, hashes, URLs, paths, dotted numbers); ``0`` and ``-1`` as
bare numbers (every C call logs ``ret = 0`` and ``ret = -1``); success codes
unless asked for; other layers' numbers past the first :data:`MAX_OTHERS`
different ones on a line (a dump).

:meth:`Matcher.tokens` is the specification of
:mod:`sphinx_llmstatus.scan.reference` (every match of every rule's expression,
decided on the whole line, overlaps dropped leftmost-longest first) with
changes that keep its result: one alternation of the rules' expressions finds
the next match at each position (it starts with a literal, so ``re`` skips to
it in C), but within a layout number, where every verdict refuses; a match is
decided on the window its rule reads, remembered across lines (log lines
repeat their codes with the same words around them); and a layout number that
no check refuses (an operand, within a word, a field's value: told by
expressions in C where its context is clear) or a name that stands alone is
decided by its text alone, remembered (a line may hold 90,000 numbers, each
with different neighbours). Every expression is bounded, so the
whole is linear in the line.
"""

from __future__ import annotations

import re
from collections import defaultdict
from typing import NamedTuple

from ..registry.model import LLM_CODE_BASE, LLM_CODE_MASK, LLM_DATADIST, Registry, StatusCode
from . import dbcache
from .alternation import alternation
from .expressions import (
    OPERAND_AFTER,
    OPERAND_BEFORE_REVERSED,
    by_width,
    clear_before_reversed,
    common_prefix,
    neighbours,
    other_forms,
    unfielded,
)
from .record import Record
from .verdicts import (
    FIELD_SUFFIXES,
    HCCL_TRACE,
    KEYWORD_BEFORE_REVERSED,
    Chains,
    Seen,
    Tables,
    Verdict,
    decide,
    in_word,
    is_field_value,
    layout_start,
    number_start,
    word_char,
)


class Rule(NamedTuple):
    """One kind of token: what it is, the characters its verdict reads before a match's start and
    after its end, and sample lines with the tokens they give (each a text of the line)."""

    kind: str
    what: str
    reach: tuple[int, int]
    samples: tuple[tuple[str, tuple[str, ...]], ...]


RULES = (
    Rule("name", "a code name in a vendor spelling (canonical, Python or C++), possibly qualified "
         "(LLMStatusCode.X, ge::X) or as a Python repr (<LLMStatusCode.X: 1343270921>, one token); "
         "another library's alias (ACL_ERROR_RT_...) is not scanned. A qualified name's verdict reads "
         "its whole qualifier chain, bounded (8 links of at most 66 characters)",
         (8, 8), (
             ("llm_datadist.status.LLMException: error code is LLMStatusCode.LLM_LINK_FAILED",
              ("LLMStatusCode.LLM_LINK_FAILED",)),
             ("got <LLMStatusCode.LLM_TIMEOUT: 1343270917>", ("<LLMStatusCode.LLM_TIMEOUT: 1343270917>",)),
             ("Check failed: ret == LLM_SUCCESS", ()),
             ("LLM_TIMEOUTX and xLLM_TIMEOUT", ()),
         )),
    Rule("lh", "a number of the LLM DataDist layout 0x5010B000-0x5010BFFF in hex, bare or after 0x, "
         "as a token of its own and no field's value", (51, 8), (
             ("PullKvBlocks failed, layer = 3, role = decoder, ret = 5010b002", ("5010b002",)),
             ("ret=0x5010B009", ("0x5010B009",)),
             ("hash 5010b0091, cluster_id:0x5010b009", ()),
         )),
    Rule("ld", "a number of the LLM DataDist layout in decimal (1343270912-1343275007), as a token "
         "of its own and no field's value (remote_ip=, port:, cluster_id=: an IP written as an "
         "integer, a port, an id)", (51, 8), (
             ("[ERROR] LinkLlmClusters failed, ret = 1343270921", ("1343270921",)),
             ("LLM_TIMEOUT 1343270917", ("LLM_TIMEOUT", "1343270917")),
             ("link remote_ip=1343270921, remoteIp 1343270921, /data/1343270921.log", ()),
         )),
    Rule("sv", "a value several layers share (4294967295/ffffffff, 507053, 507057) right after a "
         "status keyword (ret, k_ret, rc, result, status, error, errno, error code, ErrorNo, code...) "
         "and =, :, is or a space: which layer's it is comes from the context", (31, 8), (
             ("[ERROR] GE(1,python) PullKvCache: ErrorNo: 4294967295(failed)", ("4294967295",)),
             ("k_ret = ffffffff, error code is 507053", ("ffffffff", "507053")),
             ("id=4294967295 size 507053 /data/status507053 a1b2_rc507057", ()),
         )),
    Rule("ov", "another layer's number right after a status keyword: a HIXL/ADXL status, an ACL "
         "runtime code, or an HCCL error number (errNo[0x0000000005000007]), reported under its own "
         "family", (31, 8), (
             ("transfer failed, ErrorNo: 103905()", ("103905",)),
             ("aclrtMemcpy ErrCode=507046, errNo[0x0000000005000007]", ("507046", "0x0000000005000007")),
             ("batch 507046 done", ()),
         )),
    Rule("hr", "HCCL's call trace (CHK_RET in src/pub_inc/log.h of HCCL: [%s]call trace: hcclRet -> %d): "
         "the HcclResult a call returned, read as an HCCL error number", (8, 8), (
             ("[HcclCommInitRootInfo]call trace: hcclRet -> 7", ("7",)),
             ("call trace: hcclRet -> 99", ()),
         )),
)
#: Characters each rule kind's verdict reads around a match (the key of its remembered verdict);
#: a qualified name (after ``.`` or ``:``) reads its chain (8 links of 66), a repr's ``<`` and a
#: comparison before it (560 in all), and a repr's tail and a comparison after it.
REACH = {rule.kind: rule.reach for rule in RULES} | {"qualified": (560, 64)}
#: After a match's end, the expression reads no further (the verdict does, within the reach).
_AFTER = r"(?![A-Za-z0-9_])(?![-./#%@+][A-Za-z0-9])"
#: Characters matched past a piece's end (``hi``) for a match that starts in it: longer than any match.
_PAST_HI = 96
#: Characters matched before a piece's start (``lo``): a token that starts before it (a repr) may
#: cover a match after it, which is then no token of its own.
_BEFORE_LO = REACH["qualified"][0] + 64
#: An ANSI control sequence (CSI: ESC [ parameters, intermediates, final byte), bounded.
_ANSI_RE = re.compile(r"\x1b\[[0-?]{0,32}[ -/]{0,4}[@-~]")
#: Verdicts remembered across lines (then forgotten all at once).
_REMEMBERED = 1 << 14
_UNSEEN = object()
#: The rules of layout numbers (:meth:`Matcher._layout`).
_LAYOUT = frozenset({"lh", "ld"})
#: The rules of other layers' numbers, and the kinds of their tokens.
_OTHER_RULES = frozenset({"ov", "hr"})
OTHER_KINDS = frozenset({"other", "trace"})
#: Most different numbers of other layers one line lists: as many as LLM DataDist's layout holds.
#: An HCCL error number has 262,144 values, so a line of a megabyte (a dump) could list 66,000,
#: each a hit with its excerpt (100 MB of JSON, seconds); after them the line is read for LLM
#: DataDist's own codes only, and :attr:`Tokens.others_cut` says from which column.
MAX_OTHERS = 4096


class Tokens(list):
    """The tokens of a line (a list of :class:`Token`), and ``others_cut``: the column from which
    no other layer's number was read (the first one past :data:`MAX_OTHERS` different ones), if any."""

    others_cut: int | None = None


class OnLine(NamedTuple):
    """What the verdicts on one line share: the line, the line reversed (what comes before a
    number is read forwards there), and its qualifier links (the names of a chain share them)."""

    text: str
    reversed: str
    links: Chains


class Token(Record):
    """A candidate on one line: span, kind (``name``/``layout``/``shared``/``other``/``trace``), value and code.

    On a line that repeats a code, one token stands for every occurrence
    decided alike: ``starts`` lists their starts in order (``start`` is the
    first; each spans ``end - start`` characters); None for a single one.
    """

    __slots__ = ("start", "end", "kind", "value", "code", "python_form", "starts")

    def __init__(self, start: int, end: int, kind: str, value: int | None,  # noqa: PLR0913  (a record's fields)
                 code: StatusCode | None, python_form: bool = False, starts: list[int] | None = None) -> None:
        self.start = start
        self.end = end
        self.kind = kind
        self.value = value
        self.code = code
        self.python_form = python_form
        self.starts = starts

    def occurrences(self) -> list[int]:
        """The start of every occurrence, in order."""
        return self.starts if self.starts is not None else [self.start]


def _tables(registry: Registry) -> Tables:
    own = registry.in_family(LLM_DATADIST)
    names: dict[str, StatusCode] = {}
    for code in own:  # another layer's names (PARAM_INVALID, HCCL_E_...) are no LLM DataDist tokens
        for spelling in (code.name, *(v.name for v in code.views)):
            names.setdefault(spelling, code)
    for spelled in registry.bound_names:  # other libraries' names that reach logs (LLMOutOfMemory)
        binding, bound = registry.bindings.get(spelled.binding), registry.get(spelled.code)
        if binding is not None and binding.in_logs and bound is not None and bound.family == LLM_DATADIST:
            names.setdefault(spelled.name, bound)
    shared = {c.value: c for c in own if c.value is not None and c.value > 0 and not c.is_llm_layout}
    hccl = next((f for f in registry.families.values() if f.module is not None), None)
    return Tables(registry, names, shared, hccl.module if hccl is not None else None)


class Matcher:
    """The recognition rules compiled for one registry.

    ``expressions`` are ``(kind, expression)`` of the rules, in the order the
    alternation tries them; ``literals`` are byte strings of which every token
    contains at least one (ASCII, case-sensitive, for a quick literal
    prefilter); ``prefilter`` are byte regular expressions (no look-around)
    that every token matches, for a multi-pattern engine, but a number that
    is a field's value; ``prefilter_coloured`` are the same with those
    numbers, for text holding terminal colours (the rules blank them, which
    may change a field's name).
    """

    def __init__(self, registry: Registry):
        self.registry = registry
        self.tables = _tables(registry)
        self.names, self.shared_values = self.tables.names, self.tables.shared
        self.other_forms = other_forms(registry)
        lo, hi = str(LLM_CODE_BASE), str(LLM_CODE_BASE | ~LLM_CODE_MASK & 0xFFFFFFFF)
        self._dec_prefix = common_prefix(lo, hi) if len(lo) == len(hi) else ""
        self._hex_prefix = f"{LLM_CODE_BASE >> 16:x}"
        self._dec_width = len(lo)
        # The layout numbers (no end: each use adds its own) and the shared values' spellings.
        self._layout_hex = f"{self._hex_prefix}[bB][0-9A-Fa-f]{{3}}"
        self._layout_dec = (f"{re.escape(self._dec_prefix)}[0-9]{{{self._dec_width - len(self._dec_prefix)}}}"
                            if self._dec_prefix else "")
        self._hexes = sorted(f"{v:08x}" for v in self.shared_values if v >= 0x10000000)
        self._decimals = [str(v) for v in sorted(self.shared_values)]
        self.expressions = self._expressions()
        self._any, self._kinds = self._alternation(self.expressions)
        # After MAX_OTHERS other layers' numbers on a line: the rules of LLM DataDist's own codes
        # (compiled at the first such line: each compile is a few ms of every scan's start).
        self._own: tuple[re.Pattern[str], tuple[str, ...]] | None = None
        self.literals = self._literals(sorted({n[:4] for n in self.names}))
        self.prefilter = self._prefilter()
        self.prefilter_coloured = self._prefilter(fields=False)
        # Verdicts by (kind, include_success, text) for a match decided by its text alone
        # (:meth:`_by_text`), else (kind, include_success, start and end in the window, the window).
        self._verdicts: dict[tuple, Verdict | None] = {}
        self._by_kind = {"lh": self._layout, "ld": self._layout, "name": self._name, "sv": self._keyworded,
                         "ov": self._keyworded}
        self._clear_before = re.compile(clear_before_reversed(FIELD_SUFFIXES)).match
        self._operand_after = re.compile(OPERAND_AFTER).match
        self._operand_before = re.compile(OPERAND_BEFORE_REVERSED).match
        # A status keyword right before, after no word character (in the reversed line).
        self._keyword_before = re.compile(f"(?=[^A-Za-z0-9_])(?:{KEYWORD_BEFORE_REVERSED})", re.IGNORECASE).match

    @staticmethod
    def _alternation(expressions: list[tuple[str, str]]) -> tuple[re.Pattern[str], tuple[str, ...]]:
        """One expression of ``expressions``, and the rule of each group index (``lastindex``)."""
        # Repeats are possessive: ``re`` then keeps no backtracking state per repeat. Each rule's
        # expression ends with an empty group: the match's ``lastindex`` names its rule (a group
        # around the whole expression would stop ``re`` skipping to the literals: 5-10x the time).
        return (re.compile("|".join(f"(?:{x}())" for _, x in expressions).replace("}", "}+")),
                ("", *(kind for kind, _ in expressions)))

    def _own_rules(self) -> tuple[re.Pattern[str], tuple[str, ...]]:
        """The alternation of LLM DataDist's own rules (without other layers' numbers) and its kinds."""
        if self._own is None:
            self._own = self._alternation([(k, x) for k, x in self.expressions if k not in _OTHER_RULES])
        return self._own

    def _expressions(self) -> list[tuple[str, str]]:
        """``(kind, expression)`` of every rule, one per literal start: names (whole words),
        layout numbers, the shared values by width and case (a registry file may add thousands),
        other layers' number forms (not the shared values), HCCL's call trace."""
        words = sorted(self.names, key=lambda n: (-len(n), n))  # longest first: one may start another
        out = [("name", "(?:" + "|".join(map(re.escape, words)) + ")(?![A-Za-z0-9_])")]
        out.append(("lh", self._layout_hex + _AFTER))
        if self._layout_dec:
            out.append(("ld", self._layout_dec + _AFTER))
        hexes, decimals = self._hexes, self._decimals
        for group in (*by_width(hexes), *by_width([h.upper() for h in hexes]), *by_width(decimals)):
            out.append(("sv", alternation(group) + _AFTER))
        for form, head in self.other_forms:
            rests = [d[len(head):] for d in decimals if d.startswith(head)]
            precise = head + f"(?!(?:{'|'.join(rests)})(?![0-9]))" + form[len(head):] if rests else form
            out.append(("ov", precise + _AFTER))
        out.append(("hr", re.escape(HCCL_TRACE) + "[0-9]{1,2}" + _AFTER))
        return out

    def _literals(self, heads: list[str]) -> tuple[bytes, ...]:
        """The literals of :attr:`literals`: none holding a shorter one (the shorter finds its lines too)."""
        lits: set[str] = {*heads, self._hex_prefix, self._hex_prefix.upper(), HCCL_TRACE}
        if self._dec_prefix:
            lits.add(self._dec_prefix[1:] or self._dec_prefix)  # a rarer first byte makes the search faster
        lits.update(self._hexes)
        lits.update(h.upper() for h in self._hexes)
        merged: list[str] = []
        for d in self._decimals:  # 507053, 507057 -> 50705
            if merged and len(p := common_prefix(merged[-1], d)) >= 5:
                merged[-1] = p
            else:
                merged.append(d)
        lits.update(merged)
        lits.update(head for _, head in self.other_forms)  # other layers' numbers
        keep: set[str] = set()
        for lit in sorted(lits, key=len):
            if not any(lit[i:j] in keep for i in range(len(lit)) for j in range(i + 1, len(lit) + 1)):
                keep.add(lit)
        return tuple(s.encode("ascii") for s in sorted(keep, key=lambda k: (len(k), k)))

    def _prefilter(self, fields: bool = True) -> tuple[bytes, ...]:
        """:attr:`prefilter` (or, without ``fields``, :attr:`prefilter_coloured`). A layout number
        that is a field's value (``remote_ip=1343270921``) is told in the multi-pattern engine:
        its expressions take only what may come before a number that is none
        (:func:`~.expressions.unfielded`), so such a number is never reported. The HCCL form keeps
        its end: else every ``0x5010B009`` would be a candidate through it."""
        end = r"(?:[^A-Za-z0-9_]|$)"
        hexes, decimal = self._layout_hex, self._layout_dec or "(?!)"
        layouts = [hexes, decimal]
        if fields:
            lead, quoted, ways, cut = unfielded(FIELD_SUFFIXES)
            # A bare hex number after ``0x``: whatever comes before the ``0x`` tells.
            layouts = [f"(?:^|[^ \\t:=xX'\"]|(?:^|[^0])[xX]|{quoted}|(?:{lead}|{quoted})0[xX]|{ways}(?:0[xX])?){hexes}",
                       f"(?:{lead}|{quoted}|{ways}){decimal}", f"{cut}(?:(?:0[xX])?{hexes}|{decimal})"]
            # What each may come after: the cache's probes.
            base = [f"{LLM_CODE_BASE >> 16:x}b000", str(LLM_CODE_BASE)]
            for layout, text in zip(layouts, ["(" + base[0], "(" + base[1], "q=" + base[1]], strict=True):
                dbcache.vouch(layout.encode(), text.encode())
        return (
            tuple(re.escape(n).encode() for n in sorted(self.names))
            + tuple(x.encode() for x in layouts)
            + tuple(f"(?i:{alternation(group)})".encode() for group in by_width(self._hexes))
            + tuple(alternation(group).encode() for group in by_width(self._decimals))
            + ("|".join(form + end if head in ("0x", "0X") else form
                        for form, head in self.other_forms).encode() or b"(?!)",
               (re.escape(HCCL_TRACE) + "[0-9]{1,2}").encode())
        )

    def tokens(self, line: str, lo: int = 0, hi: int | None = None, include_success: bool = False) -> Tokens:
        """The tokens of ``line`` whose match starts in ``[lo, hi)``, left to right.

        ``lo``/``hi`` let a long line be scanned in overlapping pieces: the
        rules read at most a few hundred characters around a match, and the
        matches up to :data:`_BEFORE_LO` characters before ``lo`` are decided
        too, as a token among them may cover one after ``lo``. Each
        position where an expression matches is decided (a match that is no
        token hides none after it) but within a layout number, where every
        verdict refuses; occurrences decided alike come back as one
        :class:`Token` (``starts``). Past :data:`MAX_OTHERS` different numbers of other
        layers, the rest is searched for LLM DataDist's own codes only (``others_cut``).
        """
        line = blank_colours(line)
        hi = len(line) if hi is None else hi
        search, stop = self._any.search, min(len(line), hi + _PAST_HI)
        spans: list[tuple[int, int, Verdict, int]] = []
        on = OnLine(line, line[::-1], Chains())
        kinds, by_kind, windowed = self._kinds, self._by_kind, self._windowed
        others: set[int | None] = set()
        cut = None
        m = search(line, max(0, lo - _BEFORE_LO), stop)
        while m is not None and m.start() < hi:
            s, e = m.span()
            kind = kinds[m.lastindex]  # type: ignore[index]
            verdict = by_kind.get(kind, windowed)(on, s, e, kind, include_success)
            if verdict is not None:
                if verdict.kind in OTHER_KINDS and past_others(others, verdict.value):
                    own, kinds = self._own_rules()
                    cut, search = s + verdict.start, own.search
                else:
                    spans.append((s + verdict.start, s + verdict.end, verdict, s))
            # Every match that starts after a letter, digit or ``_`` is refused (but after ``0x``),
            # so none within a layout number (hex digits, no ``x``) is tried.
            m = search(line, e if kind in _LAYOUT else s + 1, stop)
        found = grouped(spans, lo)
        found.others_cut = cut
        return found

    def digit_widths(self) -> frozenset[int]:
        """How many digits a number of the rules spans where it is digits alone: a layout or
        shared number, another layer's (a time's digits could spell one: :mod:`.timemask`)."""
        widths = {len(d) for d in self._decimals} | {len(h) for h in self._hexes if h.isdigit()}
        if self._layout_dec:
            widths.add(self._dec_width)
        for family in neighbours(self.registry):
            for low, high in family.ranges:
                widths.update(range(len(str(low)), len(str(high)) + 1))
        return frozenset(widths)

    def _layout(self, on: OnLine, s: int, e: int, kind: str, include_success: bool) -> Verdict | None:
        """The verdict on a layout number: none for an operand of ``==`` or ``!=`` (read as
        :func:`~.verdicts.is_comparison_operand` reads it, by two expressions in C), within a word
        or an id (``a.1343270921``, ``/5010b009``: :func:`~.verdicts.in_word`) or a field's value
        (:func:`~.verdicts.is_field_value`); else it depends on its text alone, nor on the case of
        its hex digits, and is remembered by it. Where the context is clear
        (:func:`~.expressions.clear_before_reversed`, one expression in C) neither check can
        refuse it and none is asked: a Python step at a time, they cost a line of 90,000 layout
        numbers after ``rc=`` or a blank most of its scan."""
        line = on.text
        start = layout_start(line, s, kind == "lh")
        if self._operand(on, start, e):
            return None
        if self._clear_before(on.reversed, len(line) - start) is None and (
                in_word(line, start) or is_field_value(line, start, self.names)):
            return None
        # (0x5010B00a and 0X5010b00A make one verdict: a line of them in random case, 56,000 texts.)
        return self._by_text((kind, include_success, line[start:e].lower()), line, s, e)

    def _name(self, on: OnLine, s: int, e: int, kind: str, include_success: bool) -> Verdict | None:
        """The verdict on a code's name: one that stands alone (after no ``.``, ``:`` nor word
        character) and is no comparison's operand is a token whatever comes around it, remembered
        by its text; a qualified one (or a repr) is decided on its chain (:meth:`_windowed`)."""
        line = on.text
        before = line[s - 1] if s else ""
        if before and before in ".:":
            return self._windowed(on, s, e, kind, include_success)
        if word_char(before) or self._operand(on, s, e):
            return None
        return self._by_text((kind, include_success, line[s:e]), line, s, e)

    def _keyworded(self, on: OnLine, s: int, e: int, kind: str, include_success: bool) -> Verdict | None:
        """The verdict on a shared value or another layer's number: right after a status keyword
        (read in the reversed line, as :func:`~.verdicts.keyword_before` reads it) and no
        comparison's operand, it depends on its text alone and is remembered by it (a keyword's
        separator is never ``==`` nor ``!=``); after no keyword, or before ``==``/``!=``, it is
        none (after a word character, which the expression refuses, it is within a word). (A line
        of 150,000 bare ``507053`` each after a different character decided each on its window:
        1.1 s.)"""
        line = on.text
        start = number_start(line, s)
        if self._keyword_before(on.reversed, len(line) - start) is None:
            return None
        if self._operand_after(line, e) is not None:  # (a keyword's separator is no ``==`` before it)
            return None
        return self._by_text((kind, include_success, line[start:e]), line, s, e)

    def _operand(self, on: OnLine, start: int, end: int) -> bool:
        """:func:`~.verdicts.is_comparison_operand` of ``on.text[start:end]``, read by two expressions in C."""
        return (self._operand_after(on.text, end) is not None
                or self._operand_before(on.reversed, len(on.text) - start) is not None)

    def _by_text(self, key: tuple[str, bool, str], line: str, s: int, e: int) -> Verdict | None:
        """The verdict on the match ``line[s:e]``, remembered by ``key`` (its kind, whether success
        is asked for, and the text it is decided by: its context can refuse it nothing)."""
        verdict = self._verdicts.get(key, _UNSEEN)
        if verdict is _UNSEEN:
            verdict = self._remember(key, Seen(line, s, e, key[0]), key[1])
        return verdict  # type: ignore[return-value]

    def _windowed(self, on: OnLine, s: int, e: int, kind: str, include_success: bool) -> Verdict | None:
        """The verdict on a match of another rule, remembered by the window its rule reads (a
        qualified name's reaches back over its chain), decided on that window, a qualified name's
        on the line with its links (the names of a chain share them)."""
        line = on.text
        qualified = kind == "name" and s > 0 and line[s - 1] in ".:"
        before, after = REACH["qualified" if qualified else kind]
        w0 = max(0, s - before)
        key = (kind, include_success, s - w0, e - w0, line[w0:e + after])
        verdict = self._verdicts.get(key, _UNSEEN)
        if verdict is _UNSEEN:
            seen = Seen(line, s, e, kind, on.links) if qualified else Seen(key[4], s - w0, e - w0, kind)
            verdict = self._remember(key, seen, include_success)
        return verdict  # type: ignore[return-value]

    def _remember(self, key: tuple, seen: Seen, include_success: bool) -> Verdict | None:
        """Decide ``seen`` and remember its verdict by ``key`` (at most :data:`_REMEMBERED`, then all are forgotten)."""
        if len(self._verdicts) >= _REMEMBERED:
            self._verdicts.clear()
        verdict = self._verdicts[key] = decide(self.tables, seen, include_success)
        return verdict


def blank_colours(line: str) -> str:
    """``line`` with terminal colours written into the log (``\x1b[31mLLM_LINK_FAILED\x1b[0m``)
    blanked, every column kept, so that a coloured name or number is a token of its own."""
    return _ANSI_RE.sub(lambda m: " " * len(m.group()), line) if "\x1b" in line else line


def past_others(others: set[int | None], value: int | None) -> bool:
    """Whether another layer's number ``value`` is past the :data:`MAX_OTHERS` different ones of
    ``others``, the line's so far (each number is added the first time)."""
    if value in others:
        return False
    if len(others) >= MAX_OTHERS:
        return True
    others.add(value)
    return False


def grouped(spans: list[tuple[int, int, Verdict, int]], lo: int = 0) -> Tokens:
    """Tokens, in order, from ``(start, end, verdict, match start)`` spans: where two overlap (a
    repr covers its number, a qualified name the names of its chain) the leftmost, then the longest,
    stays; then those whose match starts before ``lo`` go (a piece before had them); the
    occurrences of one verdict make one token."""
    if any(a[1] > b[0] for a, b in zip(spans, spans[1:])):
        kept, last_end = [], -1
        for span in sorted(spans, key=lambda x: (x[0], -x[1])):
            if span[0] >= last_end:
                kept.append(span)
                last_end = span[1]
        spans = kept
    starts: defaultdict[Verdict, list[int]] = defaultdict(list)
    for start, _end, verdict, at in spans:
        if at >= lo:
            starts[verdict].append(start)
    return Tokens(Token(at[0], at[0] + v.end - v.start, v.kind, v.value, v.code, v.python_form,
                        at if len(at) > 1 else None) for v, at in starts.items())
