"""A layout number in a clear context is decided by its text alone (issue 20).

A 1 MB line of 90,000 layout numbers after ``rc=`` or a blank paid Python's
checks of each number's context (``verdicts.in_word``, ``is_field_value``,
``is_comparison_operand``) a step at a time: 1.3-2 s. ``Matcher`` now reads a
sufficient condition for passing them all with two expressions in C
(``expressions.clear_before_reversed`` in the reversed line, ``OPERAND_AFTER``)
and remembers such a number's verdict by its text. Checked here: the condition
never holds where a check refuses; the name of a field (``verdicts.field_name``),
now read with ``str.rstrip``, is the one the expression it states finds, and
the status keywords, now read in the reversed text, are the expression they were; and whole lines decide as the
specification (``tests/test_scan_dense.py`` compares more).
"""

from __future__ import annotations

import random
import re

import pytest

from sphinx_llmstatus.scan import engine, reference
from sphinx_llmstatus.scan.expressions import OPERAND_AFTER, clear_before_reversed
from sphinx_llmstatus.scan.verdicts import (
    FIELD_SEPARATOR,
    FIELD_SUFFIXES,
    QUOTE,
    field_name,
    in_word,
    is_comparison_operand,
    is_field_value,
    keyword_before,
    layout_start,
)

# What comes before a number, in pieces: field names in every case and glue, status words and
# keywords, separators (valid, too long, doubled), comparisons, ids, blanks outside ASCII.
PIECES = [*map(chr, range(32, 127)), "\t", "\x0b", "\x0c", "\r", "\x1c", "\u3000", "\u2028", "\x85", "é", "ip", "Ip", "IP", "iP", "zip", "Zip",
          "zIP", "port", "_id", "_ID", "xId", "x1Id", "rc", "ret", "err", "error ", "code", "num", "Num", "errNum",
          "err_num", "error num", "LLM_TIMEOUT", "timeout", "TimeOut", " = ", ": ", "  =  ", "     ", "errno",
          "ret_code", "x" * 41, "A" * 39, "==", "!=", "!", "::", ":=", "=:", "!:", "0x", "size", "_SIZE", "IPs", "ts", "d", "e", "'", '"']
NUMBERS = ["1343270921", "0x5010b009", "5010b00d", "0X5010BFFF"]


def _context(rnd: random.Random) -> tuple[str, int, int]:
    before = "".join(rnd.choice(PIECES) for _ in range(rnd.randint(0, 12)))
    number = rnd.choice(NUMBERS)
    line = before + number + "".join(rnd.choice(PIECES) for _ in range(rnd.randint(0, 5)))
    return line, len(before), len(before) + len(number)


@pytest.mark.parametrize("seed", range(6))
def test_a_clear_context_passes_every_check(seed):
    rnd = random.Random(seed)
    names, clear = engine.scanner().matcher.names, 0
    before, after = re.compile(clear_before_reversed(FIELD_SUFFIXES)).match, re.compile(OPERAND_AFTER).match
    for _ in range(20_000):
        line, start, end = _context(rnd)
        if before(line[::-1], len(line) - start) and not after(line, end):
            clear += 1
            assert not in_word(line, start), line
            assert not is_field_value(line, start, names), line
            assert not is_comparison_operand(line, start, end), line
    assert clear > 4_000  # the condition is met often, or it tests nothing


# The expression is_field_value states in its docstring, searched as it was until 2026-12.
_NAME_END = f"{QUOTE}?{FIELD_SEPARATOR}{QUOTE}?\\Z"
_FIELD_END = re.compile(r"(?<![A-Za-z0-9_])([A-Za-z0-9_]{1,40}+)" + _NAME_END)
_FIELD_TAIL = re.compile(r"([A-Za-z0-9_]{1,40}+)" + _NAME_END)


@pytest.mark.parametrize("seed", range(6))
def test_the_field_read_backwards_is_the_expression(seed):
    rnd = random.Random(seed)
    for _ in range(20_000):
        line, start, _end = _context(rnd)
        lo = max(0, start - 48)
        m = _FIELD_END.search(line, lo, start) or _FIELD_TAIL.search(line, lo, start)
        assert field_name(line, start) == (m.group(1) if m else None), line


# The status keywords as one expression, searched backwards as they were until 2026-12.
_KEYWORD_END = re.compile(
    r"(?<![A-Za-z0-9])(?:ret(?:_?code|_?val(?:ue)?)?|return(?:[ _](?:code|value))?|rc|result(?:[ _]code)?"
    r"|status(?:[ _]?code)?|err(?:or)?(?:[ _]?(?:code|no|num))?|errno|code)"
    r"[ \t]{0,4}(?:(?<![=!<>])[:=](?!=)|[ \t]is|\[|\()?[ \t]{0,4}\Z", re.IGNORECASE)
_KEYWORD_PIECES = [*PIECES, "RET", "Ret", "return", "RC", "result", "status", "ERROR", "_code", "val", "value",
                   " no", " is", " IS", "<=", ">=", ": ", "\t\t", "k_", "[", "("]


@pytest.mark.parametrize("seed", range(6))
def test_the_keyword_read_backwards_is_the_expression(seed):
    rnd = random.Random(seed)
    for _ in range(20_000):
        before = "".join(rnd.choice(_KEYWORD_PIECES) for _ in range(rnd.randint(0, 10)))
        line, s = before + rnd.choice(["507053", "ffffffff", "=5"]), len(before)
        assert keyword_before(line, s) == (_KEYWORD_END.search(line, max(0, s - 48), s) is not None), line


@pytest.mark.parametrize("line", [
    "rc=1343270921 rc=1343271024 d=1343270922 zip=1343270923 0x5010b00d 0x5010b00e x_ID 1343270924",
    "remoteIp 1343270921 ErrNum=1343270921 error num 1343270921 err_num=1343270921 !=1343270921 ! = 1343270921",
    "'rc': 1343270921, \"x\": 0x5010b009 rc  =  1343270921 a\u3000= 1343270921 ==\u30001343270921 ret == 5010b009",
    # Shared values and other layers' numbers after status keywords, and near-misses.
    "ret = ffffffff rc:507053 ErrorNo: 103905 error code is 507046 k_ret=ffffffff ret == ffffffff errno 507053 != x "
    "ret(4294967295) status[0xffffffff] err_num=507057 a_rc=507053 rc is507053 ret 0x0000000005000007 RET=0XFFFFFFFF",
])
def test_lines_of_clear_and_unclear_numbers_decide_as_the_specification(line):
    matcher = engine.scanner().matcher
    for text in (line, line * 500):
        found = sorted((s, s + t.end - t.start, t.kind, t.value, t.code)
                       for t in matcher.tokens(text) for s in t.occurrences())
        assert found == reference.tokens(matcher, text)


def test_a_hex_number_starts_at_its_0x():
    assert layout_start("ret=0x5010b009", 6, hexed=True) == 4
    assert layout_start("ret=5010b009", 4, hexed=True) == 4
    assert layout_start("0x1343270921", 2, hexed=False) == 2
