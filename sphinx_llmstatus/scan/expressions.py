"""Regular expressions built from the registry's values, for the recognition rules.

Pure functions: each turns values (a range, a set of numbers, a list of field
suffixes) into an expression ``re`` and Hyperscan both read. The rules that use
them are in :mod:`sphinx_llmstatus.scan.rules`.
"""

from __future__ import annotations

import re

from ..registry.model import LLM_DATADIST, Registry

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


def alternation(words: list[str]) -> str:
    """One expression matching each of ``words`` (digits and letters, none a prefix of another)
    and nothing else, factored as a trie: ``507(?:053|057)``, which ``re`` tries in time linear in
    the word length, not in their number."""
    if len(words) == 1:
        return re.escape(words[0])
    heads = sorted({w[0] for w in words})
    branches = [re.escape(h) + alternation([w[1:] for w in words if w[0] == h]) for h in heads]
    return branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"


def other_forms(registry: Registry) -> tuple[tuple[str, str], ...]:
    """``(expression, literal start)`` of every neighbouring family's number form: the values of its
    ``ranges`` (HIXL/ADXL statuses, ACL runtime codes) and its error-number form (HCCL's
    ``errNo[0x0000000005000007]``, written twice, ``0x`` and ``0X``: ``0[xX]`` would make ``re``
    stop at every "0")."""
    forms: list[tuple[str, str]] = []
    for family in registry.families.values():
        if family.key == LLM_DATADIST:
            continue
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


#: Field names a multi-pattern engine tells (:func:`field_form`): up to this many characters,
#: so that name and separator stay within what :func:`.verdicts.is_field_value` reads (48).
FIELD_FORM_NAME = 30


def field_form(suffixes: tuple[str, ...]) -> str:
    """An expression (no look-around, for a multi-pattern engine) of a field's name and separator
    right before a number, matching only where :func:`.verdicts.is_field_value` says the number is
    a field's value: a non-word character, then a whole name that is one of ``suffixes`` in any
    case (``IP=``), or that ends with one as snake case (``remote_ip:``, ``cluster_ID``) or camel
    case (``remoteIp``, ``devicePORT``) in lower, upper or title case, at most
    :data:`FIELD_FORM_NAME` characters. ``num`` is left out: ``err_num`` is a status keyword."""
    kept = [x for x in suffixes if x != "num"]

    def longest_first(words: set[str]) -> str:
        return "|".join(sorted(words, key=lambda v: (-len(v), v)))

    cased = longest_first({v for x in kept for v in (x, x.upper(), x.title())})
    titled = longest_first({v for x in kept for v in (x.upper(), x.title())})
    rest = FIELD_FORM_NAME - 2 - max(map(len, kept))
    name = (f"(?:(?i:{longest_first(set(kept))})|[A-Za-z][A-Za-z0-9_]{{0,{rest}}}_(?:{cased})"
            f"|[A-Za-z][A-Za-z0-9_]{{0,{rest}}}[a-z0-9](?:{titled}))")
    return f"[^A-Za-z0-9_]{name}(?:[ \\t]{{0,4}}[:=][ \\t]{{0,4}}|[ \\t]{{1,4}})"
