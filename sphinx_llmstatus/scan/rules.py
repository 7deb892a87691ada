"""What counts as a status code in a log line (the recognition rules).

Built from the registry, never from a hard-coded list. A token is a hit when
it is one of:

1. A code name in a vendor spelling (canonical, Python or C++ name), possibly
   qualified (``LLMStatusCode.X``, ``ge::X``, ``llm_datadist::X``) or as a
   Python repr (``<LLMStatusCode.X: 1343270921>``, one hit). Aliases that are
   another library's names (``ACL_ERROR_RT_...``) are not scanned.
2. A number with the LLM DataDist layout, ``0x5010B000``-``0x5010BFFF``, in
   decimal (``1343270921``), hex (``0x5010B009``) or bare hex (``5010b009``),
   anywhere, as a token of its own. Unknown values give a hit with code None.
3. Any other positive registry value (``4294967295``/``0xFFFFFFFF`` =
   ``LLM_FAILED``, ``507053``, ``507057``) only right after a status keyword
   (``ret``, ``retcode``, ``return code``, ``status``, ``status_code``,
   ``error code``, ``errcode``, ``ErrorNo``, ``errno``...) and ``=``, ``:``,
   ``is`` or a space: these numbers also mean other things (UINT32_MAX, ACL
   runtime errors of other libraries). Decimal, or 8-digit hex for values
   that have 8 hex digits.
4. ``0`` and ``-1`` are never hits as bare numbers (every C call logs
   ``ret = 0`` and ``ret = -1``); only as names or reprs.

Not hits: a token that is an operand of ``==`` or ``!=`` (the expected value
in ``Check failed: ret == LLM_SUCCESS``); digits inside a longer token (ids,
hashes, URLs, paths, dotted numbers); success codes unless asked for.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from ..registry.model import LLM_CODE_BASE, LLM_CODE_MASK, Registry, StatusCode
from .hit import Hit

_KEYWORDS = (
    r"ret(?:_?code|_?val(?:ue)?)?|return[ _](?:code|value)|rc|result[ _]code"
    r"|status(?:[ _]?code)?|err(?:or)?[ _]?(?:code|no|num)|errno"
)
_NOT_IN_WORD_BEFORE = r"(?<![A-Za-z0-9_])(?<![A-Za-z0-9][-./#%@+])"
_NOT_IN_WORD_AFTER = r"(?![A-Za-z0-9_])(?![-./#%@+][A-Za-z0-9])"
_LAYOUT_LAST = LLM_CODE_BASE | ~LLM_CODE_MASK & 0xFFFFFFFF


def _common_prefix(a: str, b: str) -> str:
    n = 0
    while n < min(len(a), len(b)) and a[n] == b[n]:
        n += 1
    return a[:n]


class Matcher:
    """The recognition rules compiled for one registry.

    ``literals`` are byte strings of which every hit token contains at least
    one; the engine finds candidate lines with them and runs :meth:`hits` on
    those lines only.
    """

    def __init__(self, registry: Registry):
        self.registry = registry
        names: dict[str, StatusCode] = {}
        for code in registry:
            for spelling in (code.name, *(v.name for v in code.views)):
                names.setdefault(spelling, code)
        self.names = names
        self.context_values = {
            c.value: c for c in registry if c.value > 0 and not c.is_llm_layout
        }
        alt = "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True))
        self.pattern = re.compile(
            rf"(?P<repr><\s*LLMStatusCode\.(?P<rname>{alt})\s*:\s*-?\d+\s*>)"
            rf"|(?<![A-Za-z0-9_])(?P<qual>(?:[A-Za-z_][A-Za-z0-9_]*(?:\.|::))*)(?P<name>{alt})(?![A-Za-z0-9_])"
            rf"|(?<![A-Za-z0-9_])(?i:{_KEYWORDS})(?![A-Za-z0-9_])"
            rf"\s*(?:(?<![=!<>])[:=](?!=)|\bis\b)?\s*"
            rf"(?P<cnum>0[xX](?P<cx>[0-9A-Fa-f]+)|(?P<cd>\d{{1,20}})(?![A-Za-z0-9_])|(?P<ch>[0-9A-Fa-f]{{8}})){_NOT_IN_WORD_AFTER}"
            rf"|{_NOT_IN_WORD_BEFORE}(?P<num>(?:0[xX])?(?P<nx>{LLM_CODE_BASE >> 16:x}[bB][0-9A-Fa-f]{{3}})"
            rf"|(?P<nd>\d{{10}})){_NOT_IN_WORD_AFTER}"
        )
        self.literals = self._literals()

    def _literals(self) -> tuple[bytes, ...]:
        lits: set[str] = {n[:4] for n in self.names}
        # Every hex layout number contains the top 16 bits; every decimal one
        # the common prefix of the range's ends (its first digit dropped: a
        # rarer first byte makes the literal search faster).
        lits.add(f"{LLM_CODE_BASE >> 16:x}")
        lits.add(_common_prefix(str(LLM_CODE_BASE), str(_LAYOUT_LAST))[1:])
        decimals = sorted(str(v) for v in self.context_values)
        for v in self.context_values:
            if v >= 0x10000000:
                lits.update((f"{v:x}", f"{v:X}"))
        # Merge decimals that share a long prefix (507053, 507057 -> 50705).
        merged: list[str] = []
        for d in decimals:
            if merged and len(p := _common_prefix(merged[-1], d)) >= 5:
                merged[-1] = p
            else:
                merged.append(d)
        lits.update(merged)
        # Drop literals that contain another literal.
        out = sorted(lits, key=len)
        keep: list[str] = []
        for lit in out:
            if not any(k in lit for k in keep):
                keep.append(lit)
        return tuple(s.encode("ascii") for s in keep)

    def _token_has_literal(self, token: str) -> bool:
        return any(lit.decode("ascii") in token for lit in self.literals)

    def hits(self, line: str, line_no: int, include_success: bool = False) -> Iterator[Hit]:
        """Every hit on one decoded line (no line ending), left to right."""
        for m in self.pattern.finditer(line):
            code: StatusCode | None
            if m.group("repr") is not None:
                start, end = m.span("repr")
                code = self.names[m.group("rname")]
                value: int | None = code.value
            elif m.group("name") is not None:
                start, end = m.start("qual"), m.end("name")
                code = self.names[m.group("name")]
                value = code.value
            elif m.group("cnum") is not None:
                start, end = m.span("cnum")
                digits = m.group("cx") or m.group("ch")
                value = int(digits, 16) if digits else int(m.group("cd"))
                if _has_layout(value):
                    code = self.registry.by_value(value)
                else:
                    code = self.context_values.get(value)
                    if code is None:
                        continue
                    if digits and (len(digits) != 8 or not (digits.islower() or digits.isupper())):
                        continue
            else:
                start, end = m.span("num")
                value = int(m.group("nx"), 16) if m.group("nx") else int(m.group("nd"))
                if not _has_layout(value):
                    continue
                code = self.registry.by_value(value)
            token = line[start:end]
            if code is not None and code.is_success and not include_success:
                continue
            if _is_comparison_operand(line, start, end) or not self._token_has_literal(token):
                continue
            yield Hit(line_no, line, start, end, token, value, code)


def _has_layout(value: int) -> bool:
    return 0 <= value <= 0xFFFFFFFF and (value & LLM_CODE_MASK) == LLM_CODE_BASE


def _is_comparison_operand(line: str, start: int, end: int) -> bool:
    before = line[max(0, start - 8):start].rstrip()
    after = line[end:end + 8].lstrip()
    return before.endswith(("==", "!=")) or after.startswith(("==", "!="))
