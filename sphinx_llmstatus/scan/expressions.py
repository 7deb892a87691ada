"""Regular expressions built from the registry's values, for the recognition rules.

Pure functions: each turns values (a range, a set of numbers, a list of field
suffixes) into an expression ``re`` and Hyperscan both read. The rules that use
them are in :mod:`sphinx_llmstatus.scan.rules`.
"""

from __future__ import annotations

import re
import string
from typing import NamedTuple

from ..registry.model import LLM_DATADIST, Family, Registry
from .alternation import alternation
from .verdicts import FIELD_SEPARATOR as _SEP
from .verdicts import KEYWORD_BEFORE_REVERSED
from .verdicts import QUOTE as _QUOTE

#: Most values in one expression (Hyperscan bounds a pattern's length).
GROUP_MAX = 512


def common_prefix(a: str, b: str) -> str:
    n = 0
    while n < min(len(a), len(b)) and a[n] == b[n]:
        n += 1
    return a[:n]


def digit_range(low: str, high: str) -> str:
    """A regular expression for the decimal numbers of ``low``..``high``, strings of one length."""
    if low == high:
        return low
    if set(low) <= {"0"} and set(high) <= {"9"}:
        return f"[0-9]{{{len(low)}}}"
    if low[0] == high[0]:
        return low[0] + digit_range(low[1:], high[1:])
    rest = len(low) - 1
    if set(low[1:]) <= {"0"} and set(high[1:]) <= {"9"}:
        return f"[{low[0]}-{high[0]}]" + (f"[0-9]{{{rest}}}" if rest else "")
    parts = [low[0] + digit_range(low[1:], "9" * rest)]
    if int(high[0]) - int(low[0]) > 1:
        parts.append(f"[{int(low[0]) + 1}-{int(high[0]) - 1}]" + (f"[0-9]{{{rest}}}" if rest else ""))
    parts.append(high[0] + digit_range("0" * rest, high[1:]))
    return "(?:" + "|".join(parts) + ")"


def by_width(words: list[str]) -> list[list[str]]:
    """``words`` grouped by length, shortest first, at most :data:`GROUP_MAX` to a group."""
    groups = [sorted(w for w in words if len(w) == n) for n in sorted({len(w) for w in words})]
    return [group[i:i + GROUP_MAX] for group in groups for i in range(0, len(group), GROUP_MAX)]


def neighbours(registry: Registry) -> list[Family]:
    """The families whose numbers a scan reports as another layer's: all but LLM DataDist."""
    return [family for family in registry.families.values() if family.key != LLM_DATADIST]


def other_forms(registry: Registry) -> tuple[tuple[str, str], ...]:
    """``(expression, literal start)`` of every neighbouring family's number form: the values of its
    ``ranges`` (HIXL/ADXL statuses, ACL runtime codes) and its error-number form (HCCL's
    ``errNo[0x0000000005000007]``, written twice, ``0x`` and ``0X``: ``0[xX]`` would make ``re``
    stop at every "0")."""
    forms: list[tuple[str, str]] = []
    for family in neighbours(registry):
        for low, high in family.ranges:
            lo, hi = str(low), str(high)
            if len(lo) != len(hi):  # ranges of mixed widths: one per width
                forms += [(digit_range(a, b), common_prefix(a, b) or a[0]) for a, b in
                          ((lo, "9" * len(lo)), ("1" + "0" * (len(hi) - 1), hi))]
                continue
            forms.append((digit_range(lo, hi), common_prefix(lo, hi) or lo[0]))
        if family.module is not None and family.sub_modules:
            subs = f"0[0-{len(family.sub_modules) - 1:X}]" if len(family.sub_modules) <= 16 else "[0-9A-Fa-f]{2}"
            for x in ("0x", "0X"):
                forms.append((f"{x}0{{0,15}}{family.module:X}{subs}[0-9A-Fa-f]{{4}}", x))
    return tuple(forms)


_WORD = "A-Za-z0-9_"
#: An ``==`` or ``!=`` within the 8 characters after a number that
#: :func:`.verdicts.is_comparison_operand` reads (blanks first, as ``str.lstrip`` strips them).
OPERAND_AFTER = r"\s{0,6}+[=!]="
#: The same within the 8 characters before a number, read in the reversed line.
OPERAND_BEFORE_REVERSED = r"\s{0,6}+=[=!]"


def clear_before_reversed(suffixes: tuple[str, ...]) -> str:
    """An expression of a context in which no check of :mod:`.verdicts` refuses a number before
    which it matches (neither :func:`~.verdicts.in_word`, :func:`~.verdicts.is_field_value` with
    fields named by ``suffixes``, nor the look before it of
    :func:`~.verdicts.is_comparison_operand`), read in the reversed line from the character
    before the number: a sufficient condition, anchored, so ``re`` reads it from one place in C
    (an expression searched backwards tries every start).

    It is the line's start; a character of no word, separator, quote, blank or id; one of an id's
    (``-./#%@+``) after no letter or digit; or blanks (any white space, as ``str.rstrip`` strips
    it) and quotes with one ``:`` or ``=``, or two with a blank between them (so no ``==`` ends
    them, and no field has them), not after a ``!``, after no word or after one that names no field
    whatever its start: none that ends, in any case, with one of ``suffixes`` where a name's last
    part may start (after ``_``, at the word's start, or at an upper-case letter after a
    lower-case one or a digit); or separators no field has (a ``!``, two of ``:`` and ``=``, or
    five blanks in a row, among blanks and quotes) after anything, unless ``==`` or ``!=`` comes
    first after blanks; or a status keyword and its separator, after no word character (a
    field's name that is a keyword names no field: ``err_num=``). So ``rc=``, ``zip=``, ``d=``, ``ErrNum:``, ``x::``,
    ``ip=:`` and a blank after a number are clear; ``remoteIp``, ``x_ID`` and ``==`` are left
    to the checks."""
    may_name = (f"(?i:{alternation(sorted({x[::-1] for x in suffixes}))})"
                "(?:_|(?![A-Za-z0-9_])|(?<=[A-Z])(?=[a-z0-9]))")
    return (r"""\Z|[^A-Za-z0-9_\s:='"\-./#%@+]|[-./#%@+](?![A-Za-z0-9])"""
            r"""|(?=[\s:='"])[\s"']{0,16}+(?:[:=](?:[\s"']{1,16}+[:=])?)?[\s"']{0,16}+"""
            rf"""(?:\Z|[^A-Za-z0-9_\s:='"!]|[0-9_]|(?!{may_name})[A-Za-z])"""
            # Separators no field has (a ``!``, two of ``:``/``=``, five blanks), after anything; no ``==``/``!=`` nearest.
            r"""|(?!\s*+=[=!])(?=[\s"']{0,16}+(?:!|[:=][\s"']{0,16}+[!:=])|[\s"':=!]{0,16}?[ \t]{5})"""
            f"|(?=[^A-Za-z0-9_])(?i:{KEYWORD_BEFORE_REVERSED})")


_WORD_CHARS = string.ascii_letters + string.digits + "_"


class Unfielded(NamedTuple):
    """What may come right before a number that is no field's value (:func:`unfielded`)."""

    #: The start of the text, or one character that is no separator and no quote (``ret(1343270921``).
    lead: str
    #: A quote after the start or a character that is no separator (``id"1343270921``).
    quoted: str
    #: The other ways, one union, then a quote or none: a separator run no field has, a
    #: separator after no name or after a name that is no field's.
    ways: str
    #: Anchored apart (Hyperscan checks an anchored expression at the start only; in the union it
    #: cost 15x the time): a separator after a word as short as a suffix at the start of the
    #: text, which may have cut a longer word there (a long line's piece: ``ip`` of ``zip``).
    cut: str


def unfielded(suffixes: tuple[str, ...]) -> Unfielded:
    """Expressions (no look-around, for a multi-pattern engine) of what may come right before a
    number that is no field's value. A number is a field's value here when a separator (``=``,
    ``:`` or blanks, as :func:`.verdicts.is_field_value` reads them), with a quote or none on
    either side (JSON, a Python dict), follows a word that is one of ``suffixes`` in any case
    (``IP=``), or ends with one as snake case (``remote_ip:``, ``cluster_ID``) or camel case
    (``remoteIp``, ``devicePORT``) in lower, upper or title case, whatever comes before that end.
    ``num`` is left out: ``err_num`` is a status keyword.

    Why the complement: a multi-pattern engine has no look-behind, and reporting every number to
    veto the fields afterwards costs a callback each (a log dense with ids and IPs written as
    integers pays one per line). Each expression reads back only a separator and a name's end
    (the longest suffix and one character): reading a name's start too (a name of at most 30
    characters led by a letter, as the rule was until 2026-12) took 1.6-1.8 times the Hyperscan time
    on a log dense with field values. The name is read backwards from the separator through a trie of
    the reversed endings (:func:`_not_a_name`), so its expression's size is the endings' length."""
    kept = tuple(x for x in suffixes if x != "num")
    quote = _QUOTE
    return Unfielded(
        r"^|[^ \t:='\"]",
        f"(?:^|[^ \\t:=]){quote}",
        "(?:" + "|".join((
            # Two separators, five blanks, or more than a field's nine characters of them.
            r"[ \t:=]{10}|(?:[:=][ \t]{0,7}[:=]|[ \t]{5})[ \t:=]{0,7}",
            # A separator after no name (nor a quoted one).
            f"(?:^|[^{_WORD} \\t:='\"]|(?:^|[^{_WORD}]){quote}){_SEP}",
            f"{_not_a_name(kept)}{quote}?{_SEP}",
        )) + f"){quote}?",
        f"^[{_WORD}]{{1,{max(map(len, kept))}}}{quote}?{_SEP}{quote}?",
    )


def _not_a_name(kept: tuple[str, ...]) -> str:
    """An expression of a word's end (the word itself where it is short) that is no field's name of
    :func:`unfielded`. Reading backwards, a field's name ends with one of ``kept`` in lower, upper
    or title case after ``_`` (upper and title case also after a lower-case letter or digit); a
    word that leaves this trie before such an end is no field's name, and neither is a whole word
    short of it (but one of ``kept`` itself, ``uId`` for ``uid``)."""
    return _before(_endings(kept), "", frozenset(kept))


#: A trie node: the next character read backwards -> the node it leads to.
_Node = dict[str, dict]
#: The node of an end: the word is a field's name, whatever comes before.
_END: _Node = {}


def _endings(kept: tuple[str, ...]) -> _Node:
    """The trie of the reversed ends of a field's name (:func:`_not_a_name`)."""
    trie: _Node = {}
    for x in kept:
        for v in {x, x.upper(), x.title()}:
            node = _way(trie, v[::-1])
            if node is None:  # a shorter end already holds it (``x_id`` after ``_id``)
                continue
            node["_"] = _END
            if v != x:  # upper or title case: also after a lower-case letter or digit (camel case)
                for ch in string.ascii_lowercase + string.digits:
                    if node.get(ch, _END) is not _END:
                        raise ValueError(f"field suffix {v!r} after {ch!r} is both an end and a way on")
                    node[ch] = _END
    return trie


def _way(trie: _Node, chars: str) -> _Node | None:
    """The node ``chars`` lead to from the root, made where missing; None past an end."""
    node = trie
    for ch in chars:
        node = node.setdefault(ch, {})
        if node is _END:
            return None
    return node


def _before(node: _Node, tail: str, words: frozenset[str]) -> str:
    """What may come before ``tail``, read backwards to ``node``, for the word to be no field's name."""
    whole = f"(?:^|[^{_WORD}])"  # the word ends here: it is tail
    ways = [whole] if tail and tail.lower() not in words else []
    ways.append(char_class(set(_WORD_CHARS) - set(node)))  # no ending has it here: no name
    for ch, child in sorted(node.items()):
        # An end (_END) is a field's name whatever comes before: no way on.
        way = "" if child is _END else _before(child, ch + tail, words)
        if way:
            ways.append(way + re.escape(ch))
    return "(?:" + "|".join(ways) + ")"


def char_class(chars: set[str]) -> str:
    """``[...]`` of ``chars`` (word characters), with runs written as ranges (``[0-9A-Z_a-h]``)."""
    codes = sorted(map(ord, chars))
    runs: list[list[int]] = []
    for c in codes:
        if runs and c == runs[-1][1] + 1:
            runs[-1][1] = c
        else:
            runs.append([c, c])
    return "[" + "".join(chr(a) if a == b else f"{chr(a)}{chr(b)}" if b == a + 1 else f"{chr(a)}-{chr(b)}"
                         for a, b in runs) + "]"

