"""Typed, immutable model of the status-code registry.

No Sphinx, docutils or IPython here: every face of the package (the Sphinx
extension, the IPython magic, the ``llmstatus`` command) reads this model.
"""

from __future__ import annotations

from collections.abc import Mapping as _MappingABC
from types import MappingProxyType

# Plain __slots__ classes rather than dataclasses: importing dataclasses (and
# typing) costs more than the whole `llmstatus CODE` budget (bench/bench_cli_startup.py).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
    from typing import Any, Literal

    #: ``python`` is ``LLMStatusCode`` (the ``status_code`` of ``LLMException``);
    #: ``cpp`` is the ``constexpr Status`` constants.
    Api = Literal["python", "cpp"]
    #: ``n/a`` is for success only; ``unknown`` for codes no vendor page documents.
    Recoverable = Literal["yes", "no", "n/a", "unknown"]
    Lang = Literal["en", "zh"]

APIS: tuple[Api, ...] = ("python", "cpp")
RECOVERABLE_VALUES: tuple[str, ...] = ("yes", "no", "n/a", "unknown")
LANGS: tuple[Lang, ...] = ("en", "zh")

#: Every LLM DataDist code built by the GE error-number macro is this base plus
#: a 12-bit value (runtime=1, type=1, level=0, sysid=8 GE, modid=11 LLM engine).
LLM_CODE_BASE = 0x5010B000
LLM_CODE_MASK = 0xFFFFF000
#: The key of LLM DataDist's own family; every other family is a neighbouring layer.
LLM_DATADIST = "llm_datadist"


class _Record:
    """Immutable record: positional or keyword construction in ``__slots__`` order,
    ``repr``, field-wise equality and hashing."""

    __slots__: tuple[str, ...] = ()

    _defaults: dict[str, object] = {}

    def __init__(self, *args: object, **fields: object) -> None:
        slots = self.__slots__
        if args:
            if len(args) > len(slots):
                raise TypeError(f"{type(self).__name__} takes at most {len(slots)} fields")
            fields.update(zip(slots, args))
        defaults, setter = self._defaults, object.__setattr__
        for name in slots:
            setter(self, name, fields.pop(name) if name in fields else defaults.get(name))
        if fields:
            raise TypeError(f"{type(self).__name__} got unexpected fields {sorted(fields)}")

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable")

    def __repr__(self) -> str:
        inner = ", ".join(f"{n}={getattr(self, n)!r}" for n in self.__slots__)
        return f"{type(self).__name__}({inner})"

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return all(getattr(self, n) == getattr(other, n) for n in self.__slots__)

    def __hash__(self) -> int:
        return hash(tuple(getattr(self, n) for n in self.__slots__))


class Text(_Record):
    """One sentence or paragraph in both languages of the registry: ``Text(en=..., zh=...)``."""

    __slots__ = ("en", "zh")
    en: str
    zh: str

    def get(self, lang: str) -> str:
        """The text in ``lang`` (``"en"`` or ``"zh"``; anything else gives English)."""
        return self.zh if lang == "zh" else self.en


#: What a source is: a vendor documentation page, an upstream source file, or a
#: public issue / pull request / discussion thread.
SOURCE_KINDS: tuple[str, ...] = ("page", "source", "issue")
#: Kinds of :class:`Setting`.
SETTING_KINDS: tuple[str, ...] = ("option", "config", "env", "framework")
#: What a code's ``differs`` list may say about its two vendor pages (see :attr:`StatusCode.disagreements`).
DIFFERS: tuple[str, ...] = ("functions", "remedy")


class Source(_Record):
    """Where a fact comes from: a vendor page, a public source file or a public issue thread.

    ``api`` is None when the source covers both APIs (an issue thread, a
    framework's file); ``version`` names the page or release the facts come
    from (``"CANN 8.0.RC3"``), when known. ``lines`` is set on a citation of
    some lines of a file (``"L255-L260"``, cited as ``key#L255-L260``): ``url``
    then points at them.
    """

    __slots__ = ("key", "api", "kind", "title", "url", "version", "lines")
    key: str
    api: Api | None
    kind: Literal["page", "source", "issue"]
    title: Text
    url: str
    version: str | None
    lines: str | None

    @property
    def citation(self) -> str:
        """How the registry cites it: ``key`` or ``key#L255-L260``."""
        return f"{self.key}#{self.lines}" if self.lines else self.key

    def at(self, lines: str) -> Source:
        """This source cited at ``lines`` (``"L255-L260"``): the same source, its URL pointing there."""
        cited, setter = object.__new__(Source), object.__setattr__  # made at every start: no generic __init__
        for name in self.__slots__:
            setter(cited, name, getattr(self, name))
        setter(cited, "url", f"{self.url.split('#', 1)[0]}#{lines}")
        setter(cited, "lines", lines)
        return cited


class Family(_Record):
    """A layer whose codes appear in KV-transfer logs (``llm_datadist``, ``hixl``, ``hccl``...).

    ``namespaces`` are the qualifiers of its constants (``hixl::PARAM_INVALID``),
    ``log_modules`` the plog module tags of its lines (``HCCL(``), ``ranges`` the
    ``(low, high)`` values that are its numbers in a log; ``context_words`` words
    only its own lines hold (LLM DataDist's calls, enum and package); ``module``
    and ``sub_modules`` describe an error-number form of its own (HCCL's
    ``errNo[0x0000000005000007]``: module in bits 24-31, sub-module in 16-23, the
    code's value below), None and () for families whose numbers are the values.
    ``string_codes`` is True for a family whose codes are strings (MindIE);
    ``python_prefix`` and ``cpp_prefix`` what each API writes before a name.
    """

    __slots__ = ("key", "label", "about", "sources", "namespaces", "log_modules", "ranges", "context_words",
                 "module", "sub_modules", "string_codes", "python_prefix", "cpp_prefix")
    _defaults = {"namespaces": (), "log_modules": (), "ranges": (), "context_words": (), "sub_modules": (),
                 "string_codes": False, "python_prefix": "", "cpp_prefix": ""}
    key: str
    label: Text
    about: Text
    sources: tuple[Source, ...]
    namespaces: tuple[str, ...]
    log_modules: tuple[str, ...]
    ranges: tuple[tuple[int, int], ...]
    context_words: tuple[str, ...]
    module: int | None
    sub_modules: tuple[str, ...]
    string_codes: bool
    python_prefix: str
    cpp_prefix: str

    def spelled(self, view: ApiView) -> str:
        """How ``view``'s API writes the code in source (``LLMStatusCode.LLM_LINK_FAILED``, ``hixl::FAILED``)."""
        return (self.python_prefix if view.api == "python" else self.cpp_prefix) + view.name

    def holds(self, value: int) -> bool:
        """True when ``value`` is one of this family's numbers (its ``ranges``)."""
        return any(low <= value <= high for low, high in self.ranges)

    def error_number(self, number: int) -> tuple[int, str] | None:
        """``(value, sub-module)`` of ``number`` read as this family's own error-number form, else None."""
        if self.module is None or not 0 <= number <= 0xFFFFFFFF or number >> 24 != self.module:
            return None
        sub = (number >> 16) & 0xFF
        return (number & 0xFFFF, self.sub_modules[sub]) if sub < len(self.sub_modules) else None


class Framework(_Record):
    """A framework (or the plain API, ``api``) that causes, notes and symptoms name by ``key``."""

    __slots__ = ("key", "label", "sources")
    _defaults = {"sources": ()}
    key: str
    label: Text
    sources: tuple[Source, ...]


class Engine(_Record):
    """One implementation of LLM DataDist (``ge``: KvCacheManager mode; ``hixl``: CacheManager mode...).

    ``modes`` are the manager modes it serves; ``about`` how a reader tells it is theirs.
    """

    __slots__ = ("key", "label", "about", "sources", "modes")
    _defaults = {"modes": ()}
    key: str
    label: Text
    about: Text
    sources: tuple[Source, ...]
    modes: tuple[str, ...]


class Binding(_Record):
    """A library that spells codes its own way: a pybind module, MindSpore Lite's exception classes...

    ``qualifier`` may precede a spelling (``mindspore_lite.llm_engine.LLMOutOfMemory``);
    ``in_logs`` is True when its names reach logs (an exception's class name in a traceback), so
    the scanner looks for them.
    """

    __slots__ = ("key", "label", "sources", "qualifier", "in_logs")
    _defaults = {"in_logs": False}
    key: str
    label: Text
    sources: tuple[Source, ...]
    qualifier: str | None
    in_logs: bool


class Spelling(_Record):
    """One binding's name for a code (``kLinKFailed``, ``LLMOutOfMemory``); ``code`` is the canonical name.

    ``message`` is the fixed text the binding's exception carries, when it has one.
    """

    __slots__ = ("code", "binding", "name", "sources", "message")
    code: str
    binding: str
    name: str
    sources: tuple[Source, ...]
    message: str | None


class Returns(_Record):
    """Which calls one engine returns a code from (``never``: it does not return it at all).

    ``folded_into`` names the code the engine reports instead, ``message`` the
    fixed text it logs or raises with it.
    """

    __slots__ = ("code", "engine", "sources", "calls", "message", "never", "folded_into")
    _defaults = {"calls": (), "never": False}
    code: str
    engine: str
    sources: tuple[Source, ...]
    calls: tuple[str, ...]
    message: str | None
    never: bool
    folded_into: str | None


class SharedReading(_Record):
    """A number several layers share, read in ``family`` (``0xFFFFFFFF`` is GE's ``FAILED``, HCCL's -1...).

    ``default`` marks the family such a number belongs to when its line names none.
    """

    __slots__ = ("family", "value", "name", "meaning", "sources", "default")
    _defaults = {"default": False}
    family: str
    value: int
    name: str
    meaning: Text
    sources: tuple[Source, ...]
    default: bool


class LogSample(_Record):
    """A log line with what its :class:`LogFormat` must read from it (``""``: nothing)."""

    __slots__ = ("line", "module", "process", "api")
    _defaults = {"module": "", "process": "", "api": ""}
    line: str
    module: str
    process: str
    api: str


class LogFormat(_Record):
    """How a log line's start names who wrote it: a plog's ``[ERROR] GE(1254,python):``, vLLM's ``(pid=7)``.

    ``pattern`` is a bounded regular expression (no unbounded or nested repeats,
    back-references or look-around) with the named groups ``module``, ``pid``,
    ``name`` and ``extra``; the process is shown as ``pid (name extra)``. ``api``
    is the API every such line implies, ``api_names`` the process names that imply
    the Python API. ``samples`` are real lines with what must be read from them.
    """

    __slots__ = ("id", "pattern", "sources", "samples", "api", "api_names")
    _defaults = {"samples": (), "api_names": ()}
    id: str
    pattern: str
    sources: tuple[Source, ...]
    samples: tuple[LogSample, ...]
    api: str | None
    api_names: tuple[str, ...]


#: What a :class:`LogClue` reads from a line.
CLUE_KINDS = ("time", "cluster", "peer", "role", "framework", "mode", "api", "version")
#: The clue kinds that tell what a line shows with :attr:`LogClue.shows`: the context a diagnosis reads.
CONTEXT_KINDS = ("framework", "mode", "api")
#: The clue kinds read once per log: the context and CANN's version (the first line says it).
ONCE_KINDS = (*CONTEXT_KINDS, "version")
#: LLM DataDist's manager modes (``applies_to.modes`` of a cause).
MODES = ("CacheManager", "KvCacheManager")
#: The roles of a process in a disaggregated deployment.
ROLES = ("prefill", "decode")


class LogClueSample(_Record):
    """A log line with what its :class:`LogClue` must read from it."""

    __slots__ = ("line", "value")
    line: str
    value: str


class LogClue(_Record):
    """Something a log line states about the process that wrote it, beyond the status codes.

    ``kind`` says what: ``time`` the line's timestamp (named groups ``year``
    (optional), ``month``, ``day``, ``hour``, ``minute``, ``second``, ``frac``),
    ``cluster`` the writer's own LLM DataDist cluster id, ``peer`` the cluster
    id it links with or pulls from (group ``cluster``), ``role`` whether it
    serves prefill or decode (``role``); ``framework``, ``mode`` and ``api``
    what the line shows of the context (``shows``), ``version`` CANN's version
    (group ``version``). ``literal`` is text every such line
    holds, found before the bounded ``pattern`` is tried. ``samples`` are lines
    written by the code the ``sources`` cite, with what must be read from them.
    """

    __slots__ = ("id", "kind", "literal", "pattern", "role", "sources", "samples", "shows")
    _defaults = {"samples": (), "literal": ""}
    id: str
    kind: str
    literal: str
    pattern: str
    role: str | None
    sources: tuple[Source, ...]
    samples: tuple[LogClueSample, ...]
    shows: str | None


class AppliesTo(_Record):
    """Where a :class:`Cause` applies: frameworks (keys of :attr:`Registry.frameworks`), manager
    modes (``CacheManager``...) and a free-text version range; empty means "any"."""

    __slots__ = ("frameworks", "modes", "versions")
    _defaults = {"frameworks": (), "modes": ()}
    frameworks: tuple[str, ...]
    modes: tuple[str, ...]
    versions: str | None

    def __bool__(self) -> bool:
        return bool(self.frameworks or self.modes or self.versions)


#: Why a log cannot show a cause (a cause without ``evidence`` names one): it lies in configuration
#: the process does not print, in the order or arguments of the caller's calls, in the deployment
#: around the process (network, containers, devices), on the peer's side of the link, in memory or
#: capacity nobody logs at the time, or the code path that fails logs nothing specific to it.
UNLOGGED: tuple[str, ...] = ("config", "call-order", "deployment", "peer", "resources", "no-log-call")


class Evidence(_Record):
    """A log line that proves (or, with ``against``, rules out) a :class:`Cause`.

    ``format`` is the upstream format string of the log call, verbatim, with its
    placeholders (``%d``, ``%s``, ``{}``, ``{name}``); ``code`` instead names a
    code whose earlier failure in the same process proves the cause (a failed
    unlink before ``LLM_ALREADY_LINK``). ``sources`` cite the call's lines
    (``key#L364``). ``samples`` are lines as the call writes them, checked to
    match when the registry loads. :attr:`pieces` are the literal pieces between
    the placeholders: a line matches when it holds each, in order, and each of
    ``holds``: the values a placeholder must take for this cause (``errno:111``,
    Connection refused, for "nothing listens on the port").
    """

    __slots__ = ("format", "code", "sources", "against", "samples", "holds")
    _defaults = {"against": False, "samples": (), "holds": ()}
    format: str | None
    code: str | None
    sources: tuple[Source, ...]
    against: bool
    samples: tuple[str, ...]
    holds: tuple[str, ...]

    @property
    def pieces(self) -> tuple[str, ...]:
        """The literal pieces of :attr:`format` between its placeholders, in order (``()`` for a code)."""
        return format_pieces(self.format) if self.format else ()

    @property
    def literal(self) -> str:
        """The longest piece: what the scanner's prefilter looks for first (``""`` for a code)."""
        return max(self.pieces, key=len, default="")

    def matches(self, line: str) -> bool:
        """True when ``line`` holds every piece, in order (linear: each search goes on from the last)."""
        pieces = self.pieces
        if not pieces:
            return False
        at = 0
        for piece in pieces:
            at = line.find(piece, at)
            if at < 0:
                return False
            at += len(piece)
        return all(value in line for value in self.holds)


_PIECES: dict[str, tuple[str, ...]] = {}


def format_pieces(fmt: str) -> tuple[str, ...]:
    """The literal pieces of a printf or Python format string, split at its placeholders
    (``%d``, ``%-5lu``, ``%s``; ``{}``, ``{name}``, ``{x!r:>4}``); ``%%``, ``{{`` and ``}}`` stay literal."""
    got = _PIECES.get(fmt)
    if got is None:
        import re

        marked = re.sub(r"%%|\{\{|\}\}|%[-+ #0]*[0-9*]*(?:\.[0-9*]+)?(?:hh|h|ll|l|z|j|t|L|q)?[diouxXeEfFgGcspn]"
                        r"|\{[^{}]{0,80}\}",
                        lambda m: {"%%": "%", "{{": "{", "}}": "}"}.get(m.group(0), "\0"), fmt)
        got = _PIECES[fmt] = tuple(p.strip() for p in marked.split("\0") if p.strip())
    return got


class Cause(_Record):
    """One known cause of a code in one API, from a vendor page, upstream source or public report.

    ``when`` is the circumstance the user sees (log shape, API path, deployment
    shape), ``check`` something concrete to run or look at, ``fix`` what made
    it go away. ``sources`` holds at least one :class:`Source`. ``terms`` are
    the non-API tokens (commands, files, config keys) the texts put in backticks.
    ``evidence`` are the log lines that prove it (or rule it out); a cause the
    log cannot show says why in ``unlogged`` (one of :data:`UNLOGGED`).
    """

    __slots__ = ("when", "check", "fix", "sources", "applies_to", "terms", "evidence", "unlogged")
    _defaults = {"terms": (), "evidence": ()}
    when: Text
    check: Text
    fix: Text
    sources: tuple[Source, ...]
    applies_to: AppliesTo
    terms: tuple[str, ...]
    evidence: tuple[Evidence, ...]
    unlogged: str | None


class Setting(_Record):
    """A setting that governs a code: ``name`` exactly as the API or framework spells it.

    ``kind`` is one of :data:`SETTING_KINDS`; ``api`` is None when the setting is
    not tied to one API; ``unit`` (``"ms"``) and ``default`` (as written) are optional.
    """

    __slots__ = ("name", "kind", "about", "sources", "api", "unit", "default", "terms")
    _defaults = {"terms": ()}
    name: str
    kind: Literal["option", "config", "env", "framework"]
    about: Text
    sources: tuple[Source, ...]
    api: Api | None
    unit: str | None
    default: str | None
    terms: tuple[str, ...]


class FrameworkNote(_Record):
    """What one framework (from :data:`FRAMEWORKS`) does when it gets the code:
    retries, relinks, treats as success, re-raises under its own message."""

    __slots__ = ("framework", "does", "sources", "terms")
    _defaults = {"terms": ()}
    framework: str
    does: Text
    sources: tuple[Source, ...]
    terms: tuple[str, ...]


class Reading(_Record):
    """Another vendor page's reading of a code (an older or newer page than the view's own).

    Each of ``recoverable``, ``meaning`` and ``remedy`` is None when that page
    says nothing different or nothing at all.
    """

    __slots__ = ("source", "recoverable", "meaning", "remedy", "terms")
    _defaults = {"terms": ()}
    source: Source
    recoverable: Recoverable | None
    meaning: Text | None
    remedy: Text | None
    terms: tuple[str, ...]


class Symptom(_Record):
    """A log signature that hides a code: a framework's own words instead of the status code.

    ``pattern`` is a literal, case-sensitive substring of one log line (no
    regular expression), at most :data:`SYMPTOM_PATTERN_MAX` characters.
    ``likely`` is the canonical name of the code it most likely hides (or
    None); ``codes`` the canonical names of the codes it may hide. ``raised``
    says LLM DataDist itself raises the message with ``likely`` as its status
    code (hixl's ``raise_if_false``): the line is then a failure of that code.
    A line holding one of ``quoted_by`` quotes the message (the source line a
    traceback prints) and is no hit.
    """

    __slots__ = ("id", "framework", "pattern", "check", "sources", "likely", "codes", "terms", "raised",
                 "quoted_by")
    _defaults = {"codes": (), "terms": (), "raised": False, "quoted_by": ()}
    id: str
    framework: str
    pattern: str
    check: Text
    sources: tuple[Source, ...]
    likely: str | None
    codes: tuple[str, ...]
    terms: tuple[str, ...]
    raised: bool
    quoted_by: tuple[str, ...]

    def quoted(self, line: str, at: int = 0) -> bool:
        """True when ``line`` (the message found at ``at``) quotes the message instead of saying it:
        a traceback's source line, which holds a ``quoted_by`` text, or, for a raised message, a
        string literal of the source (the message right after a quote: Python 3.13 shows the whole
        call, one argument a line)."""
        if self.raised and line[at - 1:at] in ('"', "'"):
            return True
        return any(text in line for text in self.quoted_by)


SYMPTOM_PATTERN_MIN = 8
SYMPTOM_PATTERN_MAX = 200


#: What an automation may do about a code (NVIDIA's Xid catalog gives an immediate and an
#: investigatory action per error): ``raise-setting`` names a setting, ``fix-config`` a field;
#: ``fix-call`` sends the failure to whoever owns the calling code (its arguments or the order
#: of its calls), ``collect-and-escalate`` to the vendor, with the logs.
ACTIONS: tuple[str, ...] = ("none", "retry", "relink", "raise-setting", "free-or-resize-pool", "fix-config",
                            "fix-call", "restart-process", "collect-and-escalate")


class Action(_Record):
    """What to do about a code in one API: ``immediate`` (now) and ``investigate`` (then), from
    :data:`ACTIONS`; ``setting`` or ``field`` names what ``raise-setting`` or ``fix-config`` means."""

    __slots__ = ("immediate", "investigate", "sources", "setting", "field")
    immediate: str
    investigate: str
    sources: tuple[Source, ...]
    setting: str | None
    field: str | None


class Becomes(_Record):
    """How an upper layer reports a code: ``code`` (canonical name) through ``via`` (a function or path)."""

    __slots__ = ("code", "via", "sources")
    code: str
    via: str
    sources: tuple[Source, ...]


class ApiView(_Record):
    """What one API (Python or C++) says about one status code.

    ``documented`` is False when the vendor page of that API has no row for the
    code; the text is then ours alone, written from the name and the headers.
    ``functions``, ``options`` and ``modes`` are the API names the remedy refers
    to (each appears in backticks in ``remedy``). ``causes`` are the known
    causes with checks and fixes; ``readings`` what other vendor pages (older
    or newer than ``source``) say about the code.
    """

    __slots__ = ("api", "name", "documented", "source", "recoverable", "meaning", "remedy",
                 "functions", "options", "modes", "causes", "readings", "action")
    _defaults = {"functions": (), "options": (), "modes": (), "causes": (), "readings": ()}
    api: Api
    name: str
    documented: bool
    source: Source
    recoverable: Recoverable
    meaning: Text
    remedy: Text
    functions: tuple[str, ...]
    options: tuple[str, ...]
    modes: tuple[str, ...]
    causes: tuple[Cause, ...]
    readings: tuple[Reading, ...]
    action: Action | None

    @property
    def api_names(self) -> tuple[str, ...]:
        """Every API name the remedy mentions: functions, options, then modes."""
        return self.functions + self.options + self.modes


class StatusCode(_Record):
    """One status code, with one :class:`ApiView` per API that has it.

    ``value`` is the number as the API returns it: a ``uint32`` for C++ codes
    (``0xFFFFFFFF`` for ``LLM_FAILED``), ``-1`` for the Python-only
    ``LLM_UNKNOWN_ERROR``, None for a code that is a string (MindIE's
    ``MIE05E01001A``). ``name`` is the canonical spelling: the C++ constant
    where there is one, else the Python member. ``family`` is the layer the code
    belongs to (a key of :attr:`Registry.families`). ``settings`` are the settings
    that govern the code, ``frameworks`` what common frameworks do with it,
    ``becomes`` how upper layers report it.
    Hashing and equality are by identity: a registry holds one object per code.
    """

    __slots__ = ("name", "value", "python", "cpp", "related", "aliases", "note", "settings", "frameworks",
                 "differs", "family", "becomes")
    _defaults = {"related": (), "aliases": (), "settings": (), "frameworks": (), "differs": (),
                 "family": "llm_datadist", "becomes": ()}
    name: str
    value: int | None
    python: ApiView | None
    cpp: ApiView | None
    related: tuple[str, ...]
    aliases: tuple[str, ...]
    note: Text | None
    settings: tuple[Setting, ...]
    frameworks: tuple[FrameworkNote, ...]
    differs: tuple[str, ...]
    family: str
    becomes: tuple[Becomes, ...]

    __eq__ = object.__eq__
    __hash__ = object.__hash__

    @property
    def hex(self) -> str | None:
        """``0x5010B009`` style (8 upper-case digits), or None for negative values."""
        return f"0x{self.value:08X}" if self.value is not None and self.value >= 0 else None

    @property
    def short_hex(self) -> str | None:
        """Hex without padding, as the vendor headers write it (``0x0``, ``0x7BCAD``)."""
        return f"0x{self.value:X}" if self.value is not None and self.value >= 0 else None

    @property
    def number_forms(self) -> tuple[str, ...]:
        """Every way logs and tickets write the number: decimal, ``0x5010B009``,
        bare lower-case ``5010b009``, the unpadded header form, and ``-1`` for
        ``LLM_FAILED`` printed as a signed int32 (FACTS.md, real output formats)."""
        if self.value is None:
            return ()
        forms = [str(self.value)]
        if self.hex:
            forms += [self.hex, self.hex[2:].lower()]
            if self.short_hex != self.hex:
                forms.append(self.short_hex or "")
        if self.value == 0xFFFFFFFF:
            forms.append("-1")
        return tuple(dict.fromkeys(forms))

    @property
    def views(self) -> tuple[ApiView, ...]:
        """The API views that exist, Python first."""
        return tuple(v for v in (self.python, self.cpp) if v is not None)

    def view(self, api: str) -> ApiView | None:
        """The view of ``api`` (``"python"`` or ``"cpp"``), or None if that API lacks the code."""
        return self.python if api == "python" else self.cpp if api == "cpp" else None

    @property
    def spellings(self) -> tuple[str, ...]:
        """Canonical name, other API spellings, then aliases; no repeats."""
        return tuple(dict.fromkeys(spelling for spelling, _field in self.spelled_by()))

    def spelled_by(self) -> Iterator[tuple[str, str]]:
        """Each spelling with the registry field that gives it (``name``, ``python.name``,
        ``cpp.name``, ``aliases``), in :attr:`spellings` order; an API name equal to the
        canonical name is given once, as ``name``."""
        return spelled_by(self.name, ((v.api, v.name) for v in self.views), self.aliases)

    @property
    def recoverable(self) -> Mapping[str, str]:
        """``{"python": "yes", "cpp": "no"}``: recoverability per API that has the code."""
        return MappingProxyType({v.api: v.recoverable for v in self.views})

    @property
    def documented_by(self) -> tuple[Api, ...]:
        """The APIs whose vendor page has a row for this code."""
        return tuple(v.api for v in self.views if v.documented)

    @property
    def is_success(self) -> bool:
        return self.value == 0

    @property
    def is_llm_layout(self) -> bool:
        """True for the ``0x5010B0xx`` family built by the GE error-number macro."""
        return self.value is not None and self.value >= 0 and (self.value & LLM_CODE_MASK) == LLM_CODE_BASE

    @property
    def is_llm_datadist(self) -> bool:
        """True for LLM DataDist's own codes (the family whose failures fail a scan)."""
        return self.family == LLM_DATADIST

    @property
    def disagreements(self) -> tuple[str, ...]:
        """What really differs between the two vendor pages of this code.

        ``name``: the APIs spell the code differently. ``recoverable``: both
        pages have a row and they disagree (a missing row is no disagreement).
        ``modes``: both pages have a row and restrict the code to different
        manager modes. ``functions`` and ``remedy`` come from the entry's
        ``differs`` list, read off both pages by hand: a call or option named
        on one page has no counterpart on the other, or the remedy steps differ
        (not merely the spelling of the same call).
        """
        if self.python is None or self.cpp is None:
            return ()
        out = []
        if self.python.name != self.cpp.name:
            out.append("name")
        both = self.python.documented and self.cpp.documented
        if both and self.python.recoverable != self.cpp.recoverable:
            out.append("recoverable")
        if both and set(self.python.modes) != set(self.cpp.modes):
            out.append("modes")
        out += [d for d in DIFFERS if d in self.differs]
        return tuple(out)

    @property
    def names_differ(self) -> bool:
        """True when the two pages' remedies spell their calls or options differently
        (``link_clusters`` / ``LinkLlmClusters``), whether or not the steps differ."""
        if self.python is None or self.cpp is None:
            return False
        return (self.python.functions, self.python.options) != (self.cpp.functions, self.cpp.options)


def family_order(key: str) -> tuple[bool, str]:
    """Sort key of families: LLM DataDist first, then the neighbouring layers by key (the order of
    pages, lists and reports)."""
    return (key != LLM_DATADIST, key)


def spelled_by(name: str, view_names: Iterable[tuple[str, str]], aliases: Iterable[str]) -> Iterator[tuple[str, str]]:
    """Each spelling of a code with the field that gives it (``name``, ``python.name``, ``cpp.name``,
    ``aliases``): the canonical ``name``, each API's name (``(api, name)``) that differs, the aliases."""
    yield name, "name"
    for api, view_name in view_names:
        if view_name != name:
            yield view_name, f"{api}.name"
    for alias in aliases:
        yield alias, "aliases"


class Table:
    """The records of one registry table (``symptoms``, ``returns``...): a sequence.

    Given built records, it holds them; given the stored form's entries and ``build``, it builds
    each record when first read (a stored registry builds at start-up only what is asked for).
    :meth:`matching` picks records by one field without building the others.
    """

    __slots__ = ("_items", "_build")

    def __init__(self, items: Iterable[Any] = (), build: Callable[[Any], Any] | None = None) -> None:
        self._items, self._build = list(items), build

    def __len__(self) -> int:
        return len(self._items)

    def __getitem__(self, index: int) -> Any:
        item = self._items[index]
        if self._build is not None and not isinstance(item, _Record):  # stored form, or its bytes
            item = self._items[index] = self._build(item)
        return item

    def __iter__(self) -> Iterator[Any]:
        return (self[i] for i in range(len(self._items)))

    def __repr__(self) -> str:
        return repr(tuple(self))

    def matching(self, field: str, value: str) -> tuple[Any, ...]:
        """The records whose ``field`` is the string ``value``; an entry not parsed yet is built only
        if its text holds ``"field": "value"`` (as the stored form writes it)."""
        written = f'"{field}": "{value}"'
        return tuple(self[i] for i, item in enumerate(self._items)
                     if (item.get(field) == value if isinstance(item, dict)
                         else getattr(item, field) == value if isinstance(item, _Record)
                         else item.holds(written) and getattr(self[i], field) == value))

    def field(self, index: int, field: str) -> Any:
        """``field`` of the ``index``-th record, without building it when it is in its stored form."""
        item = self._items[index]
        return item.get(field) if isinstance(item, dict) else getattr(self[index], field)


class LazyMap(_MappingABC):
    """A keyed registry table (``sources``) whose records are built when first read, from the stored
    form's entries and ``build(key, entry)``: one object per key."""

    def __init__(self, raw: Mapping[str, Any], build: Callable[[str, Any], Any]) -> None:
        self._raw, self._build = raw, build
        self._built: dict[str, Any] = {}

    def __getitem__(self, key: str) -> Any:
        found = self._built.get(key)
        if found is None:
            found = self._built[key] = self._build(key, self._raw[key])
        return found

    def __iter__(self) -> Iterator[str]:
        return iter(self._raw)

    def __len__(self) -> int:
        return len(self._raw)


def _by_key(table: Mapping[str, Any] | None) -> Mapping[str, Any]:
    if isinstance(table, LazyMap) and list(table) == sorted(table):  # the stored copy's: kept unbuilt
        return table
    return {key: table[key] for key in sorted(table)} if table else {}


class CodeKey(tuple):
    """What a registry indexes a code by, known before the code is built (a stored registry builds
    a code only when it is asked for): its name, value, family, spellings with their fields, and
    the codes upper layers report it as. A tuple, made whole from the stored list at every start."""

    __slots__ = ()

    @property
    def name(self) -> str:
        return self[0]

    @property
    def value(self) -> int | None:
        return self[1]

    @property
    def family(self) -> str:
        return self[2]

    @property
    def spelled(self) -> Sequence[tuple[str, str]]:
        return self[3]

    @property
    def becomes(self) -> Sequence[str]:
        return self[4]

    @classmethod
    def of(cls, code: StatusCode) -> CodeKey:
        return cls((code.name, code.value, code.family, tuple(code.spelled_by()), tuple(b.code for b in code.becomes)))


class Registry:
    """All status codes, indexed by every spelling and by value, with the tables they refer to.

    Build it with :func:`sphinx_llmstatus.registry.load_registry`; use
    :func:`sphinx_llmstatus.registry.default_registry` for the packaged one.
    ``codes`` is a tuple in display order (LLM DataDist's first, then each
    neighbouring family's), ``sources`` maps source keys to :class:`Source`,
    ``files`` lists the TOML files it was built from, ``symptoms`` the log
    signatures that hide a code. ``families``, ``frameworks``, ``engines`` and
    ``bindings`` map keys to their records; ``bound_names`` are the bindings'
    names for codes, ``returns`` which engine returns which code from which
    calls, ``shared`` the readings of numbers several layers share,
    ``log_formats`` how log lines name who wrote them, ``log_clues`` what else
    they state about their writer (time, cluster ids, role).

    ``codes`` may be given unbuilt, with ``keys`` (their :class:`CodeKey`, in
    order) and ``build`` (which makes a code of one of them): each code is then
    built when first asked for, once, so ``llmstatus CODE`` builds one code
    instead of every code of every layer.
    """

    __slots__ = ("sources", "files", "symptoms", "families", "frameworks", "engines", "bindings",
                 "bound_names", "returns", "shared", "log_formats", "log_clues", "_items", "_keys", "_build", "_all",
                 "_by_name", "_by_value", "_by_family_value", "_by_spelling", "_spelled", "_returns", "_family_of")

    def __init__(self, codes: Iterable[Any], sources: Mapping[str, Source],
                 files: tuple[str, ...] = (), symptoms: Iterable[Symptom] = (), *,
                 families: Mapping[str, Family] | None = None, frameworks: Mapping[str, Framework] | None = None,
                 engines: Mapping[str, Engine] | None = None, bindings: Mapping[str, Binding] | None = None,
                 bound_names: Iterable[Spelling] = (), returns: Iterable[Returns] = (),
                 shared: Iterable[SharedReading] = (), log_formats: Iterable[LogFormat] = (),
                 log_clues: Iterable[LogClue] = (), keys: Iterable[CodeKey] | None = None, build: Callable[[Any], StatusCode] | None = None) -> None:
        self._items: list[Any] = list(codes)
        self._keys = tuple(keys) if keys is not None else tuple(CodeKey.of(c) for c in self._items)
        self._build, self._all = build, None if build is not None else tuple(self._items)
        self.sources, self.files = sources, tuple(files)
        self.symptoms = symptoms if isinstance(symptoms, Table) else Table(symptoms)
        self.families = {k: (families or {})[k] for k in sorted(families or {}, key=family_order)}
        # Keyed tables in one order whether built from TOML or read from the stored copy (whose keys
        # are sorted): by key.
        self.frameworks: Mapping[str, Framework] = _by_key(frameworks)
        self.engines: Mapping[str, Engine] = _by_key(engines)
        self.bindings: Mapping[str, Binding] = _by_key(bindings)
        self.bound_names, self.returns, self.shared, self.log_formats, self.log_clues = (
            t if isinstance(t, Table) else Table(t) for t in (bound_names, returns, shared, log_formats, log_clues))
        self._returns: dict[str, tuple[Returns, ...]] = {}  # returns_of, per code name
        self._by_name: dict[str, int] = {}
        self._by_value: dict[int, int] = {}
        self._by_family_value: dict[tuple[str, int], int] = {}
        self._family_of: dict[int, Family | None] = {}  # family_of_number, remembered (a log repeats its numbers)
        self._spelled: list[str] = []
        for i, key in enumerate(self._keys):
            if key.value is not None:
                self._by_family_value.setdefault((key.family, key.value), i)
            family = self.families.get(key.family)
            for spelling in self._names_of(key, family):
                if self._by_name.setdefault(spelling.upper(), i) == i:
                    self._spelled.append(spelling)
            # HCCL's numbers are read through its error-number form; MindIE's codes are strings.
            if key.value is not None and (family is None or family.module is None):
                self._by_value.setdefault(key.value, i)
        self._by_spelling: dict[str, tuple[int, int]] = {}  # name -> (code, row of bound_names)
        for row in range(len(self.bound_names)):
            index = self._by_name.get(self.bound_names.field(row, "code").upper())
            if index is not None:
                self._by_spelling.setdefault(self.bound_names.field(row, "name").casefold(), (index, row))

    @staticmethod
    def _names_of(key: CodeKey, family: Family | None) -> Iterator[str]:
        """The spellings that find a code: a neighbouring layer's constants that live in a namespace
        (hixl's ``FAILED``, ``TIMEOUT``) only qualified (``hixl::FAILED``), as a bare word names nothing."""
        namespaces = family.namespaces if family is not None and family.key != LLM_DATADIST else ()
        for spelling, field in key.spelled:
            if namespaces and field.endswith(".name"):
                yield from (f"{ns}{sep}{spelling}" for ns in namespaces for sep in ("::", "."))
            else:
                yield spelling

    def _code(self, index: int) -> StatusCode:
        item = self._items[index]
        if self._build is not None and not isinstance(item, StatusCode):
            item = self._items[index] = self._build(item)
        return item

    @property
    def codes(self) -> tuple[StatusCode, ...]:
        """Every code, in display order (built, for a stored registry, when first asked for)."""
        if self._all is None:
            self._all = tuple(self._code(i) for i in range(len(self._items)))
        return self._all

    def __repr__(self) -> str:
        return f"<Registry of {len(self._keys)} codes from {', '.join(self.files) or 'memory'}>"

    def __iter__(self) -> Iterator[StatusCode]:
        return iter(self.codes)

    def __len__(self) -> int:
        return len(self._keys)

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and name.upper() in self._by_name

    def __getitem__(self, name: str) -> StatusCode:
        """The code spelled ``name`` in either API (case-insensitive); KeyError if none."""
        return self._code(self._by_name[name.upper()])

    def get(self, name: str) -> StatusCode | None:
        index = self._by_name.get(name.upper())
        return None if index is None else self._code(index)

    def by_value(self, value: int) -> StatusCode | None:
        """The code whose value is exactly ``value`` (no signed/unsigned folding), of a family
        whose numbers are its values (not HCCL's: see :meth:`by_family_value`)."""
        index = self._by_value.get(value)
        return None if index is None else self._code(index)

    def by_family_value(self, family: str, value: int) -> StatusCode | None:
        """The code of ``family`` whose value is ``value``."""
        index = self._by_family_value.get((family, value))
        return None if index is None else self._code(index)

    def by_spelling(self, name: str) -> tuple[StatusCode, Spelling] | None:
        """The code a binding spells ``name`` (``kLinKFailed``, ``LLMOutOfMemory``; any case), with the spelling."""
        found = self._by_spelling.get(name.casefold())
        return None if found is None else (self._code(found[0]), self.bound_names[found[1]])

    def holding(self, key: str) -> tuple[StatusCode, ...]:
        """The codes that may have a ``key`` field (``evidence``), in order: a code not built yet
        is built only if its stored text holds the key (a scan's start read every code's causes
        for the few with evidence); a built one is given as it is (its field says)."""
        written = f'"{key}": '
        return tuple(self._code(i) for i, item in enumerate(self._items)
                     if isinstance(item, StatusCode) or item.holds(written))

    def in_family(self, family: str) -> tuple[StatusCode, ...]:
        """The codes of ``family``, in order."""
        return tuple(self._code(i) for i, key in enumerate(self._keys) if key.family == family)

    def reported_as(self, code: StatusCode) -> tuple[StatusCode, ...]:
        """The codes that upper layers report as ``code`` (the :attr:`StatusCode.becomes` naming it)."""
        return tuple(self._code(i) for i, key in enumerate(self._keys) if code.name in key.becomes)

    def spellings_of(self, code: StatusCode) -> tuple[Spelling, ...]:
        """What each binding calls ``code``."""
        return self.bound_names.matching("code", code.name)

    def returns_of(self, code: StatusCode) -> tuple[Returns, ...]:
        """Which engine returns ``code`` from which calls, in the order of :attr:`engines`."""
        found = self._returns.get(code.name)
        if found is None:  # a card asks several times: the rows are read once
            order = {key: i for i, key in enumerate(self.engines)}
            found = self._returns[code.name] = tuple(sorted(self.returns.matching("code", code.name),
                                                            key=lambda r: order.get(r.engine, 0)))
        return found

    def shared_reading(self, family: str, value: int) -> SharedReading | None:
        """``family``'s reading of a number several layers share (``ge``, ``0xFFFFFFFF``), if any."""
        for reading in self.shared:
            if reading.family == family and reading.value == value:
                return reading
        return None

    def default_reading(self, value: int) -> SharedReading | None:
        """The reading of a shared number whose line names no family (``0xFFFFFFFF``: GE's ``FAILED``)."""
        return next((r for r in self.shared if r.value == value and r.default), None)

    def family_of_number(self, number: int) -> Family | None:
        """The neighbouring family ``number`` belongs to: by its ranges, or its own error-number form."""
        found = self._family_of.get(number, self)
        if found is self:  # (at most 4,096 remembered, then all forgotten: a 1 MB line may hold 90,000)
            if len(self._family_of) >= 4096:
                self._family_of.clear()
            found = self._family_of[number] = next(
                (f for f in self.families.values()
                 if f.key != LLM_DATADIST and (f.holds(number) or f.error_number(number))), None)
        return found  # type: ignore[return-value]

    @property
    def spellings(self) -> tuple[str, ...]:
        """Every name and alias that finds a code, as written (for completion and suggestions)."""
        return tuple(self._spelled)
