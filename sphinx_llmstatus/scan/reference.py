"""The specification of the recognition rules: every match of every rule, decided on the whole line.

:meth:`.rules.Matcher.tokens` finds the same tokens faster (one alternation,
verdicts remembered by window, numbers in a clear context by text); the tests check it against :func:`tokens`
here on random lines full of near-misses, and bench/ has the timings. Nothing
here is tuned: it is meant to be read.
"""

from __future__ import annotations

import re

from .rules import OTHER_KINDS, Matcher, blank_colours, past_others
from .verdicts import Seen, decide


def tokens(matcher: Matcher, line: str, include_success: bool = False) -> list[tuple]:
    """``(start, end, kind, value, code)`` of each token of ``line``, in order: each rule's
    expression tried at every position, each match decided on the whole line, and of two that
    overlap the leftmost, then the longest, kept. Terminal colours are blanked first (columns kept).
    Other layers' numbers are kept up to the first that is past :data:`~.rules.MAX_OTHERS`
    different ones (in the order of their matches), and none from there on."""
    line = blank_colours(line)
    found = []
    for kind, expression in matcher.expressions:
        rx = re.compile(expression)
        m = rx.search(line)
        while m is not None:
            s, e = m.span()
            verdict = decide(matcher.tables, Seen(line, s, e, kind), include_success)
            if verdict is not None:
                found.append((s + verdict.start, s + verdict.end, verdict.kind, verdict.value, verdict.code))
            m = rx.search(line, s + 1)
    found.sort(key=lambda t: (t[0], -t[1]))
    found = _others_cut(found)
    kept, last_end = [], -1
    for t in found:
        if t[0] >= last_end:
            kept.append(t)
            last_end = t[1]
    return kept


def _others_cut(found: list[tuple]) -> list[tuple]:
    """``found`` without other layers' numbers from the first past the line's
    :data:`~.rules.MAX_OTHERS` different ones."""
    others: set[int | None] = set()
    for i, t in enumerate(found):
        if t[2] in OTHER_KINDS and past_others(others, t[3]):
            return found[:i] + [t for t in found[i:] if t[2] not in OTHER_KINDS]
    return found
