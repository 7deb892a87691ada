"""Turn whatever a user pastes into status codes, and search the registry.

Accepted forms (case-insensitive where letters appear):

* a name in either API's spelling or an alias: ``llm_param_invalid``,
  ``LLM_WAIT_PROCESS_TIMEOUT``, ``ACL_ERROR_RT_DEVICE_MEM_ERROR``;
* the enum as Python prints it: ``LLMStatusCode.LLM_LINK_FAILED`` (``str()``)
  and ``<LLMStatusCode.LLM_LINK_FAILED: 1343270921>`` (``repr()``); C++
  qualified names ``llm_datadist::LLM_LINK_FAILED`` / ``ge::...``;
* hex with or without ``0x``: ``0x5010b005``, ``5010B005``;
* decimal, also signed: ``1343270917``, ``-1`` (both ``LLM_UNKNOWN_ERROR`` and
  ``LLM_FAILED`` read as a signed int32), and signed hex ``-0x1``; leading
  zeros are ignored (``0000001343270921``);
* a name pasted with spaces for underscores (``LLM LINK FAILED``, from an
  issue title), when its words are not codes on their own;
* another library's spelling of a code (the registry's ``[[spelling]]``
  rows): the pybind constants ``llm_datadist_wrapper.kLinKFailed``, MindSpore
  Lite's exception classes ``mindspore_lite.llm_engine.LLMOutOfMemory``;
* a neighbouring layer's code: a HIXL/ADXL status (``103900``,
  ``hixl::PARAM_INVALID``), an HCCL error number (``0x0000000005000007``)
  or ``HcclResult`` name, an ACL runtime code.

A name with a letter from another script that looks Latin (Cyrillic ``І``,
Greek ``Ο``) is refused with the foreign character named.
"""

from __future__ import annotations

import re
from functools import lru_cache

from .layout import GeErrorLayout, decode_layout, family_error_number, has_llm_layout, is_ge_number
from .model import LANGS, LLM_DATADIST, Registry, StatusCode, _Record
from .packaged import default_registry

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable

# Patterns, compiled on first use (re's cache) rather than at import: a query
# needs one or two of them, and each compile is start-up time of `llmstatus CODE`.
_REPR_RE = r"^<\s*LLMStatusCode\.([A-Za-z0-9_]+)\s*:\s*(-?\d+)\s*>$"
_QUALIFIED_RE = r"^(?:[A-Za-z_][A-Za-z0-9_]*(?:\.|::))+([A-Za-z][A-Za-z0-9_]*)$"
_HEX_RE = r"^(?:0[xX])?([0-9A-Fa-f]+)[uU]?$"
_SIGNED_HEX_RE = r"^([+-])0[xX]([0-9A-Fa-f]+)[uU]?$"
_NAME_WORDS_RE = r"^[A-Za-z0-9]+(?:[\s_-]+[A-Za-z0-9]+)+$"

class Match(_Record):
    """One meaning of a lookup query: ``code`` and how the query was read (``reading``)."""

    __slots__ = ("code", "reading")
    code: StatusCode
    reading: str  # e.g. "name", "Python name", "hex", "decimal", "signed int32"


_TOO_LONG = "too long"


class UnknownStatusCode(LookupError):
    """The query names no status code of the registry.

    ``query`` is the input as given; ``suggestions`` holds up to three close
    code names (possibly empty). For numbers, ``value`` is the number and
    ``layout`` its GE error-number fields (None when it does not fit 32 bits);
    ``family`` names a neighbouring code family it belongs to, if any, and
    ``detail`` what that family calls it (``HCCL_E_UNAVAIL, sub-module HCCL``).
    """

    def __init__(
        self,
        query: str,
        suggestions: tuple[str, ...] = (),
        *,
        value: int | None = None,
        layout: GeErrorLayout | None = None,
        family: str | None = None,
        detail: str | None = None,
    ):
        self.query, self.suggestions = query, suggestions
        self.value, self.layout, self.family, self.detail = value, layout, family, detail
        super().__init__(self.reason())

    @property
    def is_llm_layout(self) -> bool:
        """True when the number has the LLM DataDist layout but is not in the registry."""
        return self.layout is not None and self.layout.is_llm_datadist

    def reason(self) -> str:
        """One line: what was not found, why, and the suggestions."""
        if not _normalise(self.query):
            msg = "no status code given (the text is empty)"
        elif self.family == _TOO_LONG:
            msg = f"{self.query} is not an LLM DataDist status code (does not fit in 32 bits)"
        elif self.value is not None:
            hex_form = f"0x{self.value & 0xFFFFFFFF:08X}"
            shown = self.query
            if -(2**31) <= self.value <= 0xFFFFFFFF and hex_form.lower() != "0x" + self.query.lower().removeprefix("0x").zfill(8):
                shown = f"{self.query} ({hex_form})"
            if self.is_llm_layout and self.layout is not None:
                msg = f"{shown} has the LLM DataDist layout but is not a known code ({self.layout.describe()})"
            elif self.family:
                what = f"a {self.family} error number ({self.detail})" if self.detail else f"a {self.family} code"
                msg = f"{shown} is {what}, not an LLM DataDist status code"
            elif self.layout is not None:
                msg = f"{shown} is not an LLM DataDist status code (GE layout: {self.layout.describe()})"
            elif 0 <= self.value <= 0xFFFFFFFF or -(2**31) <= self.value < 0:
                msg = f"{shown} is not an LLM DataDist status code (nor a GE error number: its fields are not GE's)"
            else:
                msg = f"{shown} is not an LLM DataDist status code (does not fit in 32 bits)"
        else:
            msg = f"unknown LLM DataDist status code {quoted(self.query)}"
            foreign = _foreign_letters(self.query)
            if foreign:
                msg += ": it contains " + ", ".join(foreign) + ", not an ASCII letter"
        if self.suggestions:
            msg += "; did you mean " + ", ".join(self.suggestions) + "?"
        return msg


def quoted(text: str) -> str:
    """``text`` in quotes for a one-line message: bytes that were not UTF-8 (surrogate escapes
    from the command line) as ``\\xff``, the way file names are shown; other characters that
    do not print (controls) escaped as ``repr`` does."""
    def shown(ch: str) -> str:
        if "\udc80" <= ch <= "\udcff":
            return f"\\x{ord(ch) - 0xDC00:02x}"
        return ch if ch.isprintable() else repr(ch)[1:-1]

    if len(text) > _QUOTED_MAX:  # a message is one line: a huge query (a 1 MB role) is cut, its length said
        return "'" + "".join(map(shown, text[:_QUOTED_MAX])) + f"…' ({len(text)} characters)"
    return "'" + "".join(map(shown, text)) + "'"


#: Most characters of a query a message quotes.
_QUOTED_MAX = 80


def _foreign_letters(text: str, limit: int = 3) -> list[str]:
    """``'І' (U+0406 CYRILLIC CAPITAL LETTER ...)`` for each non-ASCII letter of a name that also has
    Latin letters: look-alikes from Cyrillic or Greek that make a name print like a known one."""
    if not any(ch.isascii() and ch.isalpha() for ch in text):
        return []
    import unicodedata

    out: list[str] = []
    for ch in dict.fromkeys(text):
        if not ch.isascii() and unicodedata.category(ch).startswith("L"):
            out.append(f"{ch!r} (U+{ord(ch):04X} {unicodedata.name(ch, 'unnamed character')})")
            if len(out) == limit:
                break
    return out


def _normalise(query: str) -> str:
    return query.strip().strip("`'\"").strip().rstrip(",.;")


#: Fullwidth ASCII (U+FF01-U+FF5E) and the ideographic space, as a CJK keyboard types them: a code
#: typed ``０x５０１０Ｂ００９`` or ``ＬＬＭ＿ＬＩＮＫ＿ＦＡＩＬＥＤ`` is read as its ASCII twin.
_FULLWIDTH = {0xFF01 + i: 0x21 + i for i in range(94)} | {0x3000: 0x20}


def lookup(query: str, registry: Registry | None = None) -> tuple[Match, ...]:
    """All meanings of ``query`` (see the module docstring for the forms).

    Returns one :class:`Match` per meaning, most direct first (``-1`` gives two).
    Raises :class:`UnknownStatusCode` when nothing matches.
    """
    reg = registry if registry is not None else default_registry()
    text = _normalise(query.translate(_FULLWIDTH))
    if not text:
        raise UnknownStatusCode(query)

    family = None
    m = re.match(_REPR_RE, text) if text.startswith("<") else None
    if m:
        text = m.group(1)
    else:
        q = re.match(_QUALIFIED_RE, text) if ("." in text or ":" in text) else None
        if q and not re.match(_HEX_RE, text):
            family = _namespace_family(text[: -len(q.group(1))], reg)
            text = q.group(1)

    code = reg.get(text)
    if code is not None and family in (None, code.family):
        return (Match(code, _name_reading(code, text)),)
    if family is not None:  # hixl::FAILED: the name within that family's codes
        for candidate in reg.in_family(family):
            view = next((v for v in candidate.views if v.name == text.upper()), None)
            if view is not None:
                api = "cpp" if "::" in query else "python"
                view = candidate.view(api) or view
                return (Match(candidate, f"{'C++' if view.api == 'cpp' else 'Python'} name"),)
        code = None
    bound = reg.by_spelling(text)
    if bound is not None:
        return (Match(bound[0], f"{bound[1].binding} name"),)
    code = _spaced_name(text, reg)
    if code is not None:
        return (Match(code, "name"),)

    if _too_long(text):
        # Python refuses to convert digit strings of thousands of digits, and no
        # status code needs more than 10: answer without converting.
        raise UnknownStatusCode(f"{text[:12]}...({len(text)} characters)", family=_TOO_LONG)
    number = _parse_number(text)
    if number is not None:
        return _lookup_number(text, number, reg)
    raise UnknownStatusCode(query, suggest(text, reg))


def _namespace_family(qualifier: str, reg: Registry) -> str | None:
    """The family whose namespace ``qualifier`` (``hixl::``, ``adxl.``) names, if any."""
    namespace = qualifier.rstrip(":.").rsplit(":", 1)[-1].rsplit(".", 1)[-1].lower()
    for family in reg.families.values():
        if namespace in family.namespaces:
            return family.key
    return None


def _spaced_name(text: str, reg: Registry) -> StatusCode | None:
    """The code named by ``LLM LINK FAILED`` (spaces or hyphens for underscores), when no word is a code."""
    if not (any(c.isspace() or c == "-" for c in text) and re.match(_NAME_WORDS_RE, text)):
        return None
    words = re.split(r"[\s_-]+", text)
    # Words that are LLM DataDist codes on their own (another layer's generic FAILED is no reason).
    if any(_own(reg.get(w)) or _parse_number(w) is not None for w in words):
        return None
    return reg.get("_".join(words))


def _own(code: StatusCode | None) -> bool:
    return code is not None and code.family == LLM_DATADIST


def _name_reading(code: StatusCode, text: str) -> str:
    up = text.upper()
    for view in code.views:
        if view.name == up and view.name != code.name:
            return f"{'Python' if view.api == 'python' else 'C++'} name"
    return "alias" if up in code.aliases else "name"


def _too_long(text: str) -> bool:
    digits = text.lstrip("+-")
    digits = (digits[2:] if digits[:2].lower() == "0x" else digits).lstrip("0")  # leading zeros are free
    return len(digits) > 20 and (_is_decimal(text) or re.match(_HEX_RE, text) is not None)


def _is_decimal(text: str) -> bool:
    """``^[+-]?\\d+$`` without a regular expression."""
    return (text[1:] if text[:1] in ("+", "-") else text).isdecimal()


def _parse_number(text: str) -> int | None:
    if _is_decimal(text):
        return int(text, 10)
    signed = re.match(_SIGNED_HEX_RE, text)
    if signed:
        return int(signed.group(2), 16) * (-1 if signed.group(1) == "-" else 1)
    m = re.match(_HEX_RE, text)
    if m and (text[:2].lower() == "0x" or any(c in "abcdefABCDEF" for c in m.group(1))):
        return int(m.group(1), 16)
    return None


def _lookup_number(text: str, number: int, reg: Registry) -> tuple[Match, ...]:
    is_hex = not _is_decimal(text)
    matches: list[Match] = []
    code = reg.by_value(number)
    if code is not None:
        matches.append(Match(code, "hex" if is_hex else "decimal"))
    if number < 0 and number >= -(2**31):
        unsigned = reg.by_value(number & 0xFFFFFFFF)
        if unsigned is not None:
            matches.append(Match(unsigned, f"signed int32 ({number} = 0x{number & 0xFFFFFFFF:08X})"))
    elif not is_hex and len(text) == 8 and code is None:
        # 8 digits with no a-f letter, e.g. 5010B00x typed without letters: try hex too.
        as_hex = reg.by_value(int(text, 16))
        if as_hex is not None:
            matches.append(Match(as_hex, "hex"))
    if not matches and 0 <= number <= 0xFFFFFFFF:
        found = family_error_number(number, reg)  # HCCL's errNo[0x0000000005000007]
        if found is not None and found[1]:
            family_code = reg.by_family_value(found[0].key, found[1])
            if family_code is not None:
                matches.append(Match(family_code, f"{found[0].label.en} error number (sub-module {found[2]})"))
    if matches:
        return tuple(matches)
    unsigned_value = number & 0xFFFFFFFF if -(2**31) <= number < 0 else number
    # Only numbers whose fields are GE's are shown as a GE layout (0x05000007 is HCCL's).
    layout = decode_layout(unsigned_value) if is_ge_number(unsigned_value) else None
    suggestions: tuple[str, ...] = ()
    if layout is not None and has_llm_layout(unsigned_value):
        near = sorted(
            (c for c in reg if c.is_llm_layout), key=lambda c: abs((c.value or 0) - unsigned_value)
        )[:3]
        suggestions = tuple(c.name for c in near)
    neighbour = reg.family_of_number(number)
    detail = None
    found = family_error_number(number, reg)
    if found is not None:
        detail = f"value {found[1]}, sub-module {found[2]}"
    raise UnknownStatusCode(
        text, suggestions, value=number, layout=layout, family=neighbour.label.en if neighbour else None,
        detail=detail,
    )


def suggest(text: str, registry: Registry | None = None, limit: int = 3) -> tuple[str, ...]:
    """Up to ``limit`` code names close to ``text`` (difflib ratio, then substring)."""
    import difflib  # only unknown input needs it; keeps `llmstatus CODE` start-up short

    reg = registry if registry is not None else default_registry()
    up = _normalise(text).upper()
    if not up:
        return ()
    spellings = {s.upper(): reg[s].name for s in reg.spellings}
    # Compare without the LLM_ prefix every code shares: with it, any word
    # looks half-similar to every code ("nonsense" ~ LLM_SUCCESS).
    bare: dict[str, str] = {}
    for spelled in spellings:  # LLM DataDist's first: LLM_TIMEOUTT suggests LLM_TIMEOUT, not HIXL's TIMEOUT
        bare.setdefault(spelled.removeprefix("LLM_"), spelled)
    probe = up.removeprefix("LLM_")
    out: list[str] = []
    for hit in difflib.get_close_matches(probe, list(bare), n=limit * 2, cutoff=0.6):
        name = spellings[bare[hit]]
        if name not in out:
            out.append(name)
    if len(out) < limit and len(probe) >= 3:
        for cand in spellings:
            if probe in cand and spellings[cand] not in out:
                out.append(spellings[cand])
    return tuple(out[:limit])


def filter_codes(
    codes: Iterable[StatusCode],
    *,
    api: str | Iterable[str] | None = None,
    recoverable: str | None = None,
    documented: bool = False,
    family: str | None = LLM_DATADIST,
) -> list[StatusCode]:
    """The codes, in order, that pass every filter given.

    ``family``: only the codes of that family (LLM DataDist's by default; None:
    every family's).
    ``api``: ``"python"``, ``"cpp"`` or several; a code passes if one of those
    APIs has it (None: any API). ``documented``: only the views whose vendor
    page has a row count. ``recoverable`` (``"yes"``, ``"no"``...): one of the
    remaining views must say so. Shared by the table directive, the command's
    ``list`` and the magic's filters.
    """
    apis = None if api is None else ((api,) if isinstance(api, str) else tuple(api))
    out = []
    for code in codes:
        if family is not None and code.family != family:
            continue
        views = [v for v in code.views if apis is None or v.api in apis]
        if documented:
            views = [v for v in views if v.documented]
        if views and (not recoverable or any(v.recoverable == recoverable for v in views)):
            out.append(code)
    return out


def search(text: str, registry: Registry | None = None) -> tuple[StatusCode, ...]:
    """Codes whose text contains every word of ``text``, the most relevant first.

    The text of a code is its names, meanings, remedies, notes and API names,
    the when/check/fix of its causes, other pages' readings, its settings and
    framework notes, and the symptoms that point at it. Matching is
    case-insensitive and covers English and Chinese; Chinese text needs no
    spaces (``建链`` matches any text containing it). A code whose every word is
    in its names or meaning comes before one that has a word only in a remedy,
    which comes before one that has it only in a cause (:func:`_rank`); then LLM
    DataDist's codes before other layers'; then the earlier the words stand in their
    lines, the better (``建链失败`` before ``尚未建链``); then registry order. An empty query returns every code, in order.
    """
    reg = registry if registry is not None else default_registry()
    words = [w.casefold() for w in _normalise(text).split()]
    if not words:
        return tuple(reg)
    symptoms = _symptom_text(reg)
    ranked = []
    for index, code in enumerate(reg):
        names, meanings, remedies, rest = _tiers(code)
        rank = _rank((names, meanings, remedies, rest + symptoms.get(code.name, "")), words)
        if rank is not None:
            # At equal tiers, LLM DataDist's own code before another layer's (``timed out``: LLM_TIMEOUT
            # before HIXL_TIMEOUT), then by the columns.
            ranked.append(((*rank[:2], code.family != LLM_DATADIST, rank[2]), index, code))
    return tuple(code for _rank_, _index, code in sorted(ranked, key=lambda r: (r[0], r[1])))


def _rank(tiers: tuple[str, ...], words: list[str]) -> tuple[int, int, int] | None:
    """``(worst tier, sum of tiers, sum of columns)`` of the words' first places in the lowest tier that
    holds each (tier 0: names, 1: meanings, 2: remedies and notes, 3: the rest); None when a word is
    in none."""
    places = []
    for word in words:
        for tier, text in enumerate(tiers):
            i = text.find(word)
            if i >= 0:
                places.append((tier, i - text.rfind("\n", 0, i) - 1))
                break
        else:
            return None
    return max(t for t, _ in places), sum(t for t, _ in places), sum(c for _, c in places)


def _texts(*texts: object) -> list[str]:
    return [t.get(lang) for t in texts if t is not None for lang in LANGS]  # type: ignore[attr-defined]


@lru_cache(maxsize=1024)
def _tiers(code: StatusCode) -> tuple[str, str, str, str]:
    """A code's searchable text by relevance: names; meanings; remedies, notes and API names; the rest
    (causes, readings, settings, framework notes). Each casefolded, one text per line."""
    names, meanings, remedies, rest = list(code.spellings), [], _texts(code.note), []
    for view in code.views:
        meanings += _texts(view.meaning)
        remedies += _texts(view.remedy) + list(view.api_names)
        for cause in view.causes:
            rest += _texts(cause.when, cause.check, cause.fix) + list(cause.terms)
        for reading in view.readings:
            rest += _texts(reading.meaning, reading.remedy)
    for setting in code.settings:
        rest += [setting.name] + _texts(setting.about)
    for note in code.frameworks:
        rest += [note.framework] + _texts(note.does)
    return tuple("\n".join(part).casefold() for part in (names, meanings, remedies, rest))  # type: ignore[return-value]


@lru_cache(maxsize=8)
def _symptom_text(registry: Registry) -> dict[str, str]:
    """Per code name, the patterns and checks of the symptoms that name it."""
    out: dict[str, str] = {}
    for symptom in registry.symptoms:
        text = "\n" + "\n".join([symptom.pattern, symptom.framework] + _texts(symptom.check)).casefold()
        for name in dict.fromkeys(([symptom.likely] if symptom.likely else []) + list(symptom.codes)):
            out[name] = out.get(name, "") + text
    return out
