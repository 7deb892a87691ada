"""The verdict on one match of a recognition rule: a token, or not.

Each rule of :mod:`sphinx_llmstatus.scan.rules` finds candidates with a
literal-led expression; the function of its kind here decides, reading a
bounded window around the match (the rule's ``reach``): a qualifier or a
repr around a name, the field name or status keyword before a number, a
comparison on either side. Every look is bounded and linear.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Container
from typing import NamedTuple

from ..registry.layout import hccl_error
from ..registry.model import LLM_CODE_BASE, LLM_CODE_MASK, Registry, StatusCode
from .alternation import alternation

#: Status keywords before a shared number (``k_ret = ffffffff``, ``ErrorNo: 4294967295``), in any
#: case: a word, or a head, a joiner and a tail (``ret_code``, ``error no``, ``statuscode``).
#: A field's name whose last part is one of these names a status, not a field (``error_code``).
STATUS_WORDS = ("ret", "rc", "result", "status", "err", "error", "errno", "code")
_KEYWORD_WORDS = (*STATUS_WORDS, "return")
_KEYWORD_JOINED = (
    (("ret",), ("", "_"), ("code", "val", "value")),
    (("return",), (" ", "_"), ("code", "value")),
    (("result",), (" ", "_"), ("code",)),
    (("status",), ("", " ", "_"), ("code",)),
    (("err", "error"), ("", " ", "_"), ("code", "no", "num")),
)
KEYWORDS = tuple(sorted({*_KEYWORD_WORDS, *(head + joiner + tail for heads, joiners, tails in _KEYWORD_JOINED
                                             for head in heads for joiner in joiners for tail in tails)}))
# A keyword (after no letter or digit), blanks, a separator (``:``, ``=``, `` is``, ``[``, ``(``, or
# none) and blanks, right before a number: read backwards, in the reversed text before it (an
# expression searched backwards tries every start). ``==``, ``!=``, ``<=`` and ``>=`` are no separator.
KEYWORD_BEFORE_REVERSED = (r"[ \t]{0,4}(?:(?<!=)[:=](?![=!<>])|si[ \t]|\[|\()?[ \t]{0,4}"
                           f"{alternation(sorted(k[::-1] for k in KEYWORDS))}(?![A-Za-z0-9])")
_KEYWORD_BEFORE = re.compile(KEYWORD_BEFORE_REVERSED, re.IGNORECASE)
#: More characters than a keyword and its separator span (``return value``, blanks, ``:``, blanks: 23).
_KEYWORD_REACH = 28
# "<name> =" / "<name>:" right before a number, the name or the value quoted or not (JSON, a
# Python dict: ``{"ip": 1343270921}``, ``ip='1343270921'``): a field, when the name's end says so.
# The name is the word before the separator, or its last 40 characters: its end is what tells, so
# a multi-pattern engine, which reads no further back, can tell the same
# (:func:`.expressions.unfielded`).
#: A field's separator: ``=``, ``:`` or blanks, and the quote a name or a value may have.
FIELD_SEPARATOR = r"(?:[ \t]{0,4}[:=][ \t]{0,4}|[ \t]{1,4})"
QUOTE = "[\"']"
#: What lies between a field's name and its value (:func:`is_field_value`), and its characters.
_GAP = re.compile(f"{QUOTE}?{FIELD_SEPARATOR}{QUOTE}?")
_GAP_CHARS = " \t:='\""
#: What a field's name ends with when its value is no code (an IP written as an integer, a
#: port, an id): snake_case and camelCase (``cluster_id``, ``remoteIp``, ``devicePort``).
FIELD_SUFFIXES = (
    "ip", "ips", "addr", "address", "host", "port", "pid", "tid", "id", "ids", "uid", "rank", "size",
    "len", "length", "offset", "seq", "index", "idx", "hash", "key", "time", "ts", "timestamp", "count",
    "num", "number", "timeout", "device", "dev",
)
_STATUS_NAMES = re.compile("|".join(STATUS_WORDS), re.IGNORECASE)
_REPR_TAIL = re.compile(r"[ \t]{0,8}:[ \t]{0,8}-?\d{1,20}[ \t]{0,8}>")
_WORD_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_"
_CAMEL = re.compile(r"_|(?<=[a-z0-9])(?=[A-Z])")
#: HCCL's call trace (``CHK_RET`` in ``src/pub_inc/log.h`` of the HCCL/HCOMM sources logs
#: ``[%s]call trace: hcclRet -> %d`` with the ``HcclResult`` a call returned): the number is
#: reported as the HCCL error number of that result (module 5, sub-module HCCL).
HCCL_TRACE = "hcclRet -> "


class Tables(NamedTuple):
    """What the verdicts look up, built once per registry."""

    registry: Registry
    #: Every LLM DataDist code name in a vendor spelling, and other libraries' names that reach logs.
    names: dict[str, StatusCode]
    #: Values that are tokens only after a keyword (they also mean other things).
    shared: dict[int, StatusCode]
    #: HCCL's module number (its call trace's numbers are read as its error numbers), if any.
    trace_module: int | None


class Verdict(NamedTuple):
    """A token: its span relative to the match's start, kind, value, code, and whether it is a
    Python spelling (``LLMStatusCode.X`` or its repr)."""

    start: int
    end: int
    kind: str
    value: int | None
    code: StatusCode | None
    python_form: bool = False


class Seen(NamedTuple):
    """One match of a rule's expression: ``text[start:end]``, where ``text`` is the line or a window
    of it holding all the verdict reads; ``kind`` is the rule's. ``links`` (on a whole line only)
    remembers the qualifier links before each position: the names of one chain share them."""

    text: str
    start: int
    end: int
    kind: str
    links: Chains | None = None


def decide(t: Tables, seen: Seen, include_success: bool) -> Verdict | None:
    """The verdict of the rule of ``seen.kind`` on ``seen``: None when it is no token, nor the
    success code unless ``include_success``, nor an operand of ``==``/``!=``."""
    verdict = VERDICTS[seen.kind](t, seen)
    if verdict is None:
        return None
    if verdict.code is not None and verdict.code.is_success and not include_success:
        return None
    s = seen.start
    if is_comparison_operand(seen.text, s + verdict.start, s + verdict.end):
        return None
    return verdict


def name(t: Tables, seen: Seen) -> Verdict | None:
    """A code name, qualified (``LLMStatusCode.X``, ``ge::X``) or as a Python repr
    (``<LLMStatusCode.X: 1343270921>``, one token)."""
    line, s, end = seen.text, seen.start, seen.end
    code = t.names.get(line[s:end])
    if code is None or (s > 0 and word_char(line[s - 1])):
        return None
    start = qs = qualifier_start(line, s, seen.links)
    python_form = qs < s and "LLMStatusCode" in line[qs:s]
    if python_form:  # a repr: <LLMStatusCode.X: 1343270921> is one token
        lt = line.rfind("<", max(0, qs - 8), qs)
        tail = _REPR_TAIL.match(line, end) if lt >= 0 and not line[lt + 1:qs].strip() else None
        if tail is not None:
            start, end = lt, tail.end()
    return Verdict(start - s, end - s, "name", code.value, code, python_form)


def layout(t: Tables, seen: Seen) -> Verdict | None:
    """A number of the LLM DataDist layout, decimal or hex, as a token of its own and no field's value."""
    line, s, end = seen.text, seen.start, seen.end
    hexed = seen.kind == "lh"
    start = layout_start(line, s, hexed)
    # Where it ends the rule's expression tells (no word nor dotted id goes on).
    if in_word(line, start):
        return None
    value = int(line[s:end], 16 if hexed else 10)
    if (value & LLM_CODE_MASK) != LLM_CODE_BASE or value > 0xFFFFFFFF or is_field_value(line, start, t.names):
        return None
    return Verdict(start - s, end - s, "layout", value, t.registry.by_value(value))


def layout_start(line: str, s: int, hexed: bool) -> int:
    """Where the layout number matched at ``s`` starts: with its ``0x``, if hex and it has one."""
    return s - 2 if hexed and line[max(0, s - 2):s] in ("0x", "0X") else s


def _after_keyword(seen: Seen) -> int | None:
    """The start (with its ``0x``) of a number right after a status keyword and no part of a longer
    word (``ret = ffffffff``, not ``/data/status507053`` or ``a1b2_rc507057``), else None."""
    line, s, end = seen.text, seen.start, seen.end
    start = number_start(line, s)
    if in_word(line, start) or not ends_number(line, end):
        return None
    return start if keyword_before(line, start) else None


def number_start(line: str, s: int) -> int:
    """Where the number matched at ``s`` starts: with the ``0x`` before it, if any."""
    return s - 2 if line[max(0, s - 2):s] in ("0x", "0X") and line[s:s + 2] not in ("0x", "0X") else s


def keyword_before(line: str, s: int) -> bool:
    """True when a status keyword and its separator end at ``s`` (``ret = ``, ``error code is``)."""
    return _KEYWORD_BEFORE.match(line[max(0, s - _KEYWORD_REACH):s][::-1]) is not None


def shared(t: Tables, seen: Seen) -> Verdict | None:
    """A value several layers share (``ffffffff``, ``507053``) after a status keyword."""
    start = _after_keyword(seen)
    if start is None:
        return None
    s, text = seen.start, seen.text[seen.start:seen.end]
    value = int(text, 16) if start < s or len(text) == 8 else int(text)
    code = t.shared.get(value)
    return None if code is None else Verdict(start - s, seen.end - s, "shared", value, code)


def other(t: Tables, seen: Seen) -> Verdict | None:
    """Another layer's number after a status keyword (HIXL/ADXL, ACL runtime, HCCL's errNo)."""
    start = _after_keyword(seen)
    if start is None:
        return None
    s, text = seen.start, seen.text[seen.start:seen.end]
    value = int(text, 16) if text[:2] in ("0x", "0X") else int(text)
    if value in t.shared or t.registry.family_of_number(value) is None:
        return None
    return Verdict(start - s, seen.end - s, "other", value, None)


def trace(t: Tables, seen: Seen) -> Verdict | None:
    """HCCL's call trace ``hcclRet -> 12``: the token is the number, read as an HCCL error number."""
    line, s = seen.text, seen.start
    if t.trace_module is None or in_word(line, s):
        return None
    value = t.trace_module << 24 | int(line[s + len(HCCL_TRACE):seen.end])
    if hccl_error(value, t.registry) is None:
        return None
    return Verdict(len(HCCL_TRACE), seen.end - s, "trace", value, None)


#: The verdict function of each rule kind (:data:`.rules.RULES`).
VERDICTS: dict[str, Callable[[Tables, Seen], Verdict | None]] = {
    "name": name, "lh": layout, "ld": layout, "sv": shared, "ov": other, "hr": trace}


def ends_number(line: str, end: int) -> bool:
    """True when a number may end at ``end``: no word character follows, nor a ``-./#%@+`` and a
    letter or digit (a dotted or dashed id, a path, a version)."""
    c = line[end:end + 1]
    if not c or not c.isascii():
        return True
    if c.isalnum() or c == "_":
        return False
    nxt = line[end + 1:end + 2]
    return not (c in "-./#%@+" and nxt.isascii() and nxt.isalnum())


def in_word(line: str, s: int) -> bool:
    """True when ``line[s]`` continues a word, a path, a URL or a dotted/dashed id."""
    if s == 0:
        return False
    c = line[s - 1]
    if c in _WORD_CHARS:  # (one character: word_char, without a call)
        return True
    return c in "-./#%@+" and s >= 2 and line[s - 2].isascii() and line[s - 2].isalnum()


def word_char(c: str) -> bool:
    return c.isascii() and (c.isalnum() or c == "_")


def qualifier_start(line: str, s: int, links: Chains | None = None) -> int:
    """Start of the ``a.b::`` qualifier chain ending at ``s``: at most 8 links, each an identifier of
    at most 64 characters (a longer word, or one after a letter outside ASCII, ends the chain).
    ``links`` remembers the links of the line (see :class:`Seen`)."""
    if links is not None:
        return links.start(line, s)
    start = s
    for _ in range(8):
        p = _link_before(line, start)
        if p is None:
            break
        start = p
    return start


class Chains:
    """The qualifier links of one line, remembered: the starts of the (at most 8) links back from
    each position, each position's made from the one before it. A line of names chained by ``.``
    and ``::`` walks each link once, not once for each of the 8 names after it."""

    __slots__ = ("_back",)

    def __init__(self) -> None:
        self._back: dict[int, tuple[int, ...]] = {}

    def start(self, line: str, s: int) -> int:
        """:func:`qualifier_start` of ``s``."""
        back = self._back.get(s)
        if back is None:
            back = self._walk(line, s)
        return back[-1] if back else s

    def _walk(self, line: str, s: int) -> tuple[int, ...]:
        """The links back from ``s``: walked until a position already known, the chain's end or 8
        links, then each position's made from the one before it (after 8 links, only ``s``'s is
        known: a chain of 500,000 links before one name is not walked to its start)."""
        todo: list[tuple[int, int | None]] = []  # (position, start of the link before it), nearest first
        pos: int | None = s
        known: tuple[int, ...] | None = None
        while pos is not None and known is None:
            if len(todo) == 8:
                back = self._back[s] = tuple(p for _, p in todo)  # type: ignore[misc]  # (none is None)
                return back
            p = _link_before(line, pos)
            todo.append((pos, p))
            pos = p
            known = None if p is None else self._back.get(p)
        back = known or ()
        for pos_, p in reversed(todo):
            back = () if p is None else (p, *back)[:8]
            self._back[pos_] = back
        return back


def _link_before(line: str, pos: int) -> int | None:
    """Start of the qualifier link right before ``pos`` (``a.`` or ``a::``), if any."""
    two = line[max(0, pos - 2):pos]
    hi = pos - 1 if two[-1:] == "." else pos - 2 if two == "::" else -1
    return None if hi < 0 else _link_start(line, hi)


def _link_start(line: str, hi: int) -> int | None:
    """Start of the qualifier link ending at ``hi``: the longest identifier
    (``[A-Za-z_][A-Za-z0-9_]{0,63}``) ending there, unless a letter or digit comes before it; else
    None. Read with ``str.rstrip`` in C: a regular expression searched backwards tries every start."""
    piece = line[max(0, hi - 64):hi]
    word = piece[len(piece.rstrip(_WORD_CHARS)):].lstrip("0123456789")
    p = hi - len(word)
    if not word or (p > 0 and (line[p - 1].isalnum() or line[p - 1] == "_")):
        return None
    return p


def is_field_value(line: str, s: int, codes: Container[str]) -> bool:
    """True when the number at ``s`` is the value of a field such as ``remote_ip=`` or ``port:``
    (:func:`field_name`): the name is told by its end, whatever comes before (``the_peer_listen_ip=``,
    ``_ip:``); never after a status code's name in ``codes`` (``LLM_TIMEOUT 1343270917`` is two
    codes, though the name ends like a ``timeout`` field) nor a status keyword (``err_num=``)."""
    field = field_name(line, s)
    return field is not None and field not in codes and _named_field(field) and not keyword_before(line, s)


def field_name(line: str, s: int) -> str | None:
    """The name of the field whose value would start at ``s``, if any: either may be quoted
    (``"ip": 1343270921``, ``port='1343270922'``).

    As an expression, the name is the group of ``(?<![A-Za-z0-9_])([A-Za-z0-9_]{1,40}+)`` or
    else of ``([A-Za-z0-9_]{1,40}+)``, followed by a quote or none, a :data:`FIELD_SEPARATOR` and a
    quote or none, searched in the 48 characters before ``s`` and ending there: the word's last 40
    characters within them. It is read backwards with ``str.rstrip`` in C instead: an expression
    searched backwards tries every start (on a 1 MB line of numbers after ``rc=``, its three
    searches a number were a third of the scan)."""
    if s == 0 or line[s - 1] not in _GAP_CHARS:  # (most numbers: no separator right before)
        return None
    before = line[max(0, s - 48):s]
    head = before.rstrip(_GAP_CHARS)
    if len(head) == len(before) or _GAP.fullmatch(before, len(head)) is None:
        return None
    return head[len(head.rstrip(_WORD_CHARS)):][-40:] or None


@functools.lru_cache(maxsize=4096)
def _named_field(field: str) -> bool:
    """True when ``field`` (a word) names a field whose value is no code: it ends with one of
    :data:`FIELD_SUFFIXES` as snake or camel case, or is one, and its last part is no status word."""
    if _STATUS_NAMES.fullmatch(field.rsplit("_", 1)[-1]):
        return False
    last = _CAMEL.split(field)[-1].lower()
    return last in FIELD_SUFFIXES or field.lower() in FIELD_SUFFIXES


def is_comparison_operand(line: str, start: int, end: int) -> bool:
    """True for the operand of ``==`` or ``!=`` (``Check failed: ret == LLM_SUCCESS``)."""
    near = line[max(0, start - 8):end + 8]
    if "=" not in near:  # (most numbers: one search in C)
        return False
    before = line[max(0, start - 8):start].rstrip()
    after = line[end:end + 8].lstrip()
    return before.endswith(("==", "!=")) or after.startswith(("==", "!="))
