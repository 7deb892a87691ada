"""The registry's schema, declared once: every record, its TOML keys, their kinds and meaning.

Each :class:`Spec` lists the keys of one kind of TOML table, each a
:class:`Field` with its :class:`Kind` (how a value is checked and built) and
one sentence of documentation. :mod:`.loader` checks and builds every file
with these tables alone, so its messages (file, entry, field) follow from
them; the field reference of the site (``docs/registry.md``) is generated
from them (:func:`reference`); :mod:`.model` holds what they build (a test
checks every field has its slot). Checks that only the packaged data must
pass (the style rules of backticks and terms) are :mod:`.consistency`'s,
run by the test suite, never on a user's file.

Kept free of imports beyond :mod:`.model`: it is read only when a TOML file is
checked (``make registry``, or a user's registry file), never at the
start of ``llmstatus CODE``.
"""

from __future__ import annotations

import re

from . import model as m

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Mapping
    from typing import Any

    from .loader import Context, Where  # for annotations only: the loader imports this module

#: The schema version every file states (``schema = 2``).
VERSION = 2

#: Bound on the short free-text fields (names, units, defaults, versions, terms).
SHORT_MAX = 200
# Compiled on first use (re's cache), not at import: the start of `llmstatus CODE` needs none.
_CONTROL = r"[\x00-\x1f\x7f-\x9f]"
_TEXT_CONTROL = r"[\x00-\x08\x0b-\x1f\x7f-\x9f]"
_UNSAFE_URL_CHAR = r"[\x00-\x20\x7f-\x9f]"  # quotes and <> are escaped where used
_CITATION = r"^([a-z0-9][a-z0-9-]{0,63})(?:#(L[1-9][0-9]{0,5}(?:-L[1-9][0-9]{0,5})?))?$"


_new, _set = object.__new__, object.__setattr__


def shown(value: Any) -> str:
    """``repr(value)`` for an error message, bounded: huge integers and long strings are summarised."""
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 64:
        return f"an integer of {value.bit_length()} bits"
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


# -- kinds of values -----------------------------------------------------------------------

class Kind:
    """How one TOML value is checked and built; ``doc`` names its type in the field reference."""

    doc = "value"
    #: How :mod:`.store` writes the value (see there): None when as it is.
    form: Any = None

    def build(self, value: Any, where: Where, ctx: Context) -> Any:
        return value


class TextKind(Kind):
    """A sentence in both languages: ``x.en = "..."``, ``x.zh = "..."`` (plain text, no control characters)."""

    doc = "text (`.en`, `.zh`)"
    form = "text"

    def build(self, value: Any, where: Where, ctx: Context) -> m.Text:
        if not isinstance(value, dict):
            raise where.fail("missing: needs a table with 'en' and 'zh'")
        for lang in m.LANGS:
            text = value.get(lang)
            if not isinstance(text, str) or not text.strip():
                raise where.at(lang).fail("missing or empty")
            control = re.search(_TEXT_CONTROL, text)
            if control:
                raise where.at(lang).fail(f"holds the control character U+{ord(control.group()):04X} "
                                          "(registry text is plain text)")
        extra = set(value) - set(m.LANGS)
        if extra:
            raise where.at(sorted(extra)[0]).fail("unknown language (use en and zh)")
        return m.Text(en=value["en"], zh=value["zh"])


class ShortKind(Kind):
    """A string of one line, at most :data:`SHORT_MAX` characters, matching ``pattern`` if given."""

    def __init__(self, pattern: str | None = None, rule: str | None = None, doc: str = "string") -> None:
        self.pattern = pattern
        self.rule = rule or f"a non-empty string of at most {SHORT_MAX} characters on one line, without control characters"
        self.doc = doc

    def ok(self, value: Any) -> bool:
        return (isinstance(value, str) and bool(value.strip()) and len(value) <= SHORT_MAX
                and not re.search(_CONTROL, value) and (self.pattern is None or bool(re.match(self.pattern, value))))

    def build(self, value: Any, where: Where, ctx: Context) -> str:
        if not self.ok(value):
            raise where.fail(f"{shown(value)} is not {self.rule}")
        return value


class ChoiceKind(Kind):
    """One of a fixed set of strings."""

    def __init__(self, values: tuple[str, ...]) -> None:
        self.values = values
        self.doc = "one of " + ", ".join(f"`{v}`" for v in values)

    def build(self, value: Any, where: Where, ctx: Context) -> str:
        if value not in self.values:
            raise where.fail(f"{shown(value)} is not one of {', '.join(self.values)}")
        return value


class BoolKind(Kind):
    doc = "`true` or `false`"

    def build(self, value: Any, where: Where, ctx: Context) -> bool:
        if not isinstance(value, bool):
            raise where.fail("missing or not true/false")
        return value


class IntKind(Kind):
    """An integer in ``[low, high]``."""

    def __init__(self, low: int, high: int, doc: str) -> None:
        self.low, self.high, self.doc = low, high, doc

    def build(self, value: Any, where: Where, ctx: Context) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise where.fail("missing or not an integer")
        if not self.low <= value <= self.high:
            raise where.fail(f"{shown(value)} is outside {self.low}..{self.high}")
        return value


class UrlKind(Kind):
    doc = "http(s) URL"

    def build(self, value: Any, where: Where, ctx: Context) -> str:
        if not isinstance(value, str) or not is_http_url(value):
            raise where.fail("must be an http(s) URL without spaces or control characters")
        return value


class ListKind(Kind):
    """A list of ``item`` values (a tuple in the model), non-empty if ``nonempty``, without repeats."""

    def __init__(self, item: Kind, nonempty: bool = False) -> None:
        self.item, self.nonempty = item, nonempty
        self.doc = ("non-empty " if nonempty else "") + "list of " + item.doc
        self.form = "tuple" if item.form is None else ["list", item.form]

    def build(self, value: Any, where: Where, ctx: Context) -> tuple[Any, ...]:
        if not isinstance(value, list) or (self.nonempty and not value):
            raise where.fail(f"must be a {self.doc}")
        return tuple(dict.fromkeys(self.item.build(v, where, ctx) for v in value))


class RangesKind(Kind):
    doc = "list of `[low, high]` integers"
    form = "ranges"

    def build(self, value: Any, where: Where, ctx: Context) -> tuple[tuple[int, int], ...]:
        out = []
        for pair in value if isinstance(value, list) else [None]:
            if (not isinstance(pair, list) or len(pair) != 2 or not all(type(v) is int for v in pair)
                    or not 0 <= pair[0] <= pair[1] <= 0xFFFFFFFF):
                raise where.fail("must be a list of [low, high] pairs of 32-bit integers, low <= high")
            out.append((pair[0], pair[1]))
        return tuple(out)


class RefKind(Kind):
    """The key of an entry of another table (``sources``, ``families``, ``codes``...), checked to exist.

    Codes may be given in any spelling and are stored under their canonical name.
    """

    def __init__(self, table: str) -> None:
        self.table = table
        self.doc = "a code of the registry (any spelling)" if table == "codes" else f"key of `[{table}]`"

    def build(self, value: Any, where: Where, ctx: Context) -> str:
        found = ctx.resolve(self.table, value) if isinstance(value, str) else None
        if found is None:
            raise where.fail(f"{shown(value)} is not {self.doc}")
        return found


class SourceKind(Kind):
    """One key of ``[sources]``, built into its :class:`~.model.Source`."""

    doc = "key of `[sources]`"
    form = "source"

    def build(self, value: Any, where: Where, ctx: Context) -> m.Source:
        source = ctx.sources.get(value) if isinstance(value, str) else None
        if source is None:
            raise where.fail(f"{shown(value)} is not a key of [sources]")
        return source


class CitationsKind(Kind):
    """Keys of ``[sources]``, each optionally at some lines (``key#L255-L260``); at least one."""

    doc = "non-empty list of `[sources]` keys, each optionally `#L<first>-L<last>`"
    form = "citations"

    def build(self, value: Any, where: Where, ctx: Context) -> tuple[m.Source, ...]:
        if not isinstance(value, list) or not value or not all(isinstance(k, str) for k in value):
            raise where.fail("must be a non-empty list of keys of [sources]")
        out = []
        for item in dict.fromkeys(value):
            match = re.match(_CITATION, item)
            source = ctx.sources.get(match.group(1)) if match else None
            if source is None or match is None:
                raise where.fail(f"{shown(item)} is not a key of [sources] (optionally #L<first>-L<last>)")
            out.append(source.at(match.group(2)) if match.group(2) else source)
        return tuple(out)


class LiteralKind(Kind):
    """A literal piece of one log line (never a regular expression), ``low`` to ``high`` characters."""

    def __init__(self, low: int, high: int) -> None:
        self.low, self.high = low, high
        self.doc = f"literal text of one line, {low} to {high} characters"

    def build(self, value: Any, where: Where, ctx: Context) -> str:
        if (not isinstance(value, str) or not self.low <= len(value) <= self.high or "\n" in value
                or "\r" in value):
            raise where.fail(f"must be one line of {self.low} to {self.high} characters "
                             "(a literal substring, not a regular expression)")
        return value


class RegexKind(Kind):
    """A bounded regular expression: see :func:`linear_regex_problem`."""

    doc = "bounded regular expression"

    def build(self, value: Any, where: Where, ctx: Context) -> str:
        problem = linear_regex_problem(value) if isinstance(value, str) and len(value) <= 1000 else \
            "must be a string of at most 1000 characters"
        if problem:
            raise where.fail(problem)
        return value


class TableKind(Kind):
    """A nested table of fields (:class:`Spec`); ``key_attr`` gets the table's own key (a view's API)."""

    def __init__(self, spec: Spec, key_attr: str | None = None) -> None:
        self.spec, self.key_attr = spec, key_attr
        self.doc = f"table ({spec.title})"
        self.form = ["record", spec.title] + ([key_attr] if key_attr else [])

    def build(self, value: Any, where: Where, ctx: Context) -> Any:
        if self.key_attr is None:
            return ctx.build(self.spec, value, where)
        key = where.path.rsplit(".", 1)[-1]
        return ctx.build(self.spec, value, where.within(key), **{self.key_attr: key})


class ArrayKind(Kind):
    """An array of tables (``[[...]]``), each a :class:`Spec`."""

    def __init__(self, spec: Spec) -> None:
        self.spec = spec
        self.doc = f"array of tables ({spec.title})"
        self.form = ["records", spec.title]

    def build(self, value: Any, where: Where, ctx: Context) -> tuple[Any, ...]:
        if not isinstance(value, list):
            raise where.fail("must be an array of tables ([[...]])")
        return tuple(ctx.build(self.spec, item, where.item(i)) for i, item in enumerate(value, 1))


# -- fields and records --------------------------------------------------------------------

class Field:
    """One TOML key of a record: its kind, whether it is required, its default, what it means.

    ``attr`` is the model slot it fills (the key, with ``-`` as ``_``, by default).
    """

    __slots__ = ("key", "kind", "doc", "required", "default", "attr")

    def __init__(self, key: str, kind: Kind, doc: str, *, required: bool = False, default: Any = None,
                 attr: str | None = None) -> None:
        self.key, self.kind, self.doc, self.required = key, kind, doc, required
        self.default, self.attr = default, attr or key.replace("-", "_")


class Spec:
    """One kind of TOML table: its fields, the model class it builds and the checks across its fields.

    ``checks`` are ``check(record, where, ctx)`` functions run on the built record.
    """

    def __init__(self, title: str, cls: type, fields: tuple[Field, ...], doc: str,
                 checks: tuple[Callable[[Any, Where, Context], None], ...] = ()) -> None:
        self.title, self.cls, self.fields, self.doc, self.checks = title, cls, fields, doc, checks
        self.keys = frozenset(f.key for f in fields)


TEXT = TextKind()
SHORT = ShortKind()
KEY = ShortKind(r"^[a-z0-9][a-z0-9_-]{0,63}$", "a key of lower-case letters, digits, - and _ (at most 64)",
                "key")
IDENT = ShortKind(r"^[A-Z][A-Z0-9_]*$", "an upper-case identifier such as LLM_LINK_FAILED", "upper-case identifier")
BOOL = BoolKind()
SOURCES = CitationsKind()
SHORTS = ListKind(SHORT)
CODE = RefKind("codes")
CODES = ListKind(CODE)


def _documented_cites_page(view: m.ApiView, where: Where, ctx: Context) -> None:
    source = view.source
    if source.api is not None and source.api != view.api:
        raise ctx.source_api_clash(view, where)
    if view.documented and source.kind != "page":
        raise where.at("source").fail("a documented row must cite a vendor page (kind = 'page')")
    if view.documented and view.recoverable == "unknown":
        raise where.at("recoverable").fail("a documented row must say yes, no or n/a")


def _reading_cites_page(reading: m.Reading, where: Where, ctx: Context) -> None:
    source = reading.source
    if source.kind != "page":
        raise where.at("source").fail("a reading must cite a vendor page (kind = 'page')")
    api = where.api
    if source.api is not None and api is not None and source.api != api:
        raise where.at("source").fail(f"source {source.key!r} belongs to the {source.api} API")
    if reading.recoverable is None and reading.meaning is None and reading.remedy is None:
        raise where.at("source").fail("a reading needs at least one of recoverable, meaning, remedy")


def _action_names_its_target(action: m.Action, where: Where, ctx: Context) -> None:
    wants = {"raise-setting": "setting", "fix-config": "field"}
    for step in (action.immediate, action.investigate):
        need = wants.get(step)
        if need and getattr(action, need) is None:
            raise where.at(need).fail(f"{step!r} needs the {need} it means")


def _returns_says_how(row: m.Returns, where: Where, ctx: Context) -> None:
    if row.never and row.calls:
        raise where.at("calls").fail("a row with never = true lists no calls")
    if not row.never and not row.calls:
        raise where.at("calls").fail("list the calls that return the code (or set never = true)")
    if row.folded_into is not None and not row.never:
        raise where.at("folded_into").fail("only a row with never = true is folded into another code")


def _samples_match(fmt: m.LogFormat, where: Where, ctx: Context) -> None:
    from .logformat import read_prefix

    for i, sample in enumerate(fmt.samples, 1):
        got = read_prefix(fmt, sample.line)
        want = (sample.module, sample.process, sample.api)
        if got != want:
            raise where.at(f"samples[{i}]").fail(f"the pattern reads {got!r} from this line, not {want!r}")


SOURCE = Spec("source", m.Source, (
    Field("kind", ChoiceKind(m.SOURCE_KINDS), "`page` a vendor documentation page, `source` an upstream "
          "source file (repository and path in the title), `issue` a public issue, pull request or thread.",
          required=True),
    Field("title", TEXT, "What it is, with the repository and path of a file.", required=True),
    Field("url", UrlKind(), "Where it is; pin files to a commit.", required=True),
    Field("api", ChoiceKind(m.APIS), "The API it covers; left out when it covers both."),
    Field("version", SHORT, "The page or release the facts come from (`CANN 8.0.RC3`)."),
), "Where facts come from. Every citation is a key of this table, optionally at some lines of the "
   "file: `\"hixl-llm-log#L164-L177\"`.")

FAMILY = Spec("family", m.Family, (
    Field("label", TEXT, "Its name on pages and in reports.", required=True),
    Field("about", TEXT, "What the layer is and how its codes reach an LLM DataDist user.", required=True),
    Field("sources", SOURCES, "Where its codes are defined.", required=True),
    Field("namespaces", ListKind(KEY), "Qualifiers of its constants (`hixl` for `hixl::PARAM_INVALID`)."),
    Field("log_modules", ListKind(IDENT), "plog module tags of its lines (`HCCL` for `[ERROR] HCCL(...)`)."),
    Field("ranges", RangesKind(), "The values that are its numbers in a log."),
    Field("context_words", SHORTS, "Words only its own log lines hold (calls, classes, packages)."),
    Field("module", IntKind(0, 255, "integer 0-255"), "Module id of its own error-number form (bits 24-31)."),
    Field("sub_modules", SHORTS, "Names of the sub-module ids (bits 16-23) of that form, from 0."),
    Field("python_prefix", SHORT, "What the Python API writes before a name (`LLMStatusCode.`).", default=""),
    Field("cpp_prefix", SHORT, "What the C/C++ API writes before a name (`llm_datadist::`).", default=""),
    Field("string_codes", BOOL, "True when its codes are strings with no number (MindIE's `MIE05E01001A`).",
          default=False),
), "A layer whose codes appear in KV-transfer logs. `llm_datadist` is LLM DataDist itself; only its "
   "failures make a scan fail.")

FRAMEWORK = Spec("framework", m.Framework, (
    Field("label", TEXT, "Its name on pages.", required=True),
    Field("sources", SOURCES, "Its repository or documentation.", default=()),
), "A framework that causes, notes and symptoms name (`api` is the plain API).")

ENGINE = Spec("engine", m.Engine, (
    Field("label", TEXT, "Its name on pages.", required=True),
    Field("about", TEXT, "What runs it and how a reader tells it is theirs.", required=True),
    Field("sources", SOURCES, "Its source tree.", required=True),
    Field("modes", SHORTS, "The manager modes it serves (`KvCacheManager`, `CacheManager`)."),
), "One implementation of LLM DataDist: the calls it serves return different codes.")

BINDING = Spec("binding", m.Binding, (
    Field("label", TEXT, "What the binding is (a pybind module, a library's exception classes).", required=True),
    Field("sources", SOURCES, "Where it defines its names.", required=True),
    Field("qualifier", SHORT, "What may precede a name (`mindspore_lite.llm_engine`)."),
    Field("in_logs", BOOL, "True when its names reach logs (exception class names in tracebacks): "
          "the scanner then finds them.", default=False),
), "A library that spells codes its own way.")

SPELLING = Spec("spelling", m.Spelling, (
    Field("code", CODE, "The code it stands for (any spelling).", required=True),
    Field("binding", RefKind("bindings"), "The binding that uses it.", required=True),
    Field("name", ShortKind(r"^[A-Za-z_][A-Za-z0-9_]*$", "an identifier", "identifier"), "The name as the binding "
          "writes it (`kLinKFailed`); looked up in any case.", required=True),
    Field("sources", SOURCES, "Where the binding defines it.", required=True),
    Field("message", LiteralKind(4, 200), "The fixed text its exception carries, if any."),
), "One binding's name for a code.")

RETURNS = Spec("returns", m.Returns, (
    Field("code", CODE, "The code.", required=True),
    Field("engine", RefKind("engines"), "The engine.", required=True),
    Field("sources", SOURCES, "The lines that return it, or that show it is never returned.", required=True),
    Field("calls", SHORTS, "The public calls that return it on this engine."),
    Field("message", SHORT, "The fixed text logged or raised with it there."),
    Field("never", BOOL, "True when this engine never returns the code.", default=False),
    Field("folded_into", CODE, "The code this engine reports instead."),
), "Which calls of one engine return a code: the code x engine x call matrix.",
   checks=(_returns_says_how,))

SHARED = Spec("shared", m.SharedReading, (
    Field("family", RefKind("families"), "The family that reads the number so.", required=True),
    Field("value", IntKind(-(2**31), 2**32 - 1, "32-bit integer"), "The number.", required=True),
    Field("name", SHORT, "Its name in that family (`ge::FAILED`).", required=True),
    Field("meaning", TEXT, "What it means there.", required=True),
    Field("sources", SOURCES, "Where that family defines it.", required=True),
    Field("default", BOOL, "True for the family the number belongs to when its line names none.", default=False),
), "A number several layers share, read in one of them (used where a log line shows no LLM DataDist "
   "context).")

LOG_SAMPLE = Spec("log_format.samples", m.LogSample, (
    Field("line", SHORT, "A real line's start.", required=True),
    Field("module", SHORT, "The module tag the pattern must read (empty: none).", default=""),
    Field("process", SHORT, "The process it must read, as `pid (name extra)` (empty: none).", default=""),
    Field("api", SHORT, "The API it must imply (empty: none).", default=""),
), "A sample line of a log format, checked when the registry loads.")

LOG_FORMAT = Spec("log_format", m.LogFormat, (
    Field("id", KEY, "Its name.", required=True),
    Field("pattern", RegexKind(), "Where the line's start names the module (`module`), process id (`pid`), "
          "process name (`name`) and more of it (`extra`), as named groups.", required=True),
    Field("sources", SOURCES, "The logging code that writes such lines.", required=True),
    Field("samples", ArrayKind(LOG_SAMPLE), "Lines it must read.", default=()),
    Field("api", ChoiceKind(m.APIS), "The API every such line implies."),
    Field("api_names", SHORTS, "Process names (or their starts) that imply the Python API."),
), "How a log line's start names who wrote it: plog's `[ERROR] GE(1254,python):`, vLLM's `(Worker pid=7)`.",
   checks=(_samples_match,))

def _clue_samples_match(clue: m.LogClue, where: Where, ctx: Context) -> None:
    from .clues import read_clue

    if clue.kind == "role" and clue.role is None:
        raise where.at("role").fail("a clue of kind 'role' says which role its lines show")
    if (clue.kind in m.CONTEXT_KINDS) != (clue.shows is not None):
        raise where.at("shows").fail("a clue of kind 'framework', 'mode' or 'api' (and only those) says what its "
                                     "lines show")
    if clue.kind == "framework" and ctx.resolve("frameworks", clue.shows or "") is None:
        raise where.at("shows").fail(f"{shown(clue.shows)} is not a key of [frameworks]")
    if clue.kind == "mode" and clue.shows not in m.MODES or clue.kind == "api" and clue.shows not in m.APIS:
        raise where.at("shows").fail(f"{shown(clue.shows)} is not a {clue.kind} the registry knows")
    if clue.kind == "version" and "(?P<version>" not in clue.pattern:
        raise where.at("pattern").fail("name the version with the group (?P<version>...)")
    if clue.kind in ("cluster", "peer") and "(?P<cluster>" not in clue.pattern:
        raise where.at("pattern").fail("name the cluster id with the group (?P<cluster>...)")
    if clue.kind != "time" and not clue.literal:
        raise where.at("literal").fail("give the text every such line holds (found before the pattern is tried)")
    for i, sample in enumerate(clue.samples, 1):
        if clue.literal and clue.literal not in sample.line:
            raise where.at(f"samples[{i}]").fail(f"the line does not hold the literal {clue.literal!r}")
        got = read_clue(clue, sample.line)
        if got != sample.value:
            raise where.at(f"samples[{i}]").fail(f"the pattern reads {got!r} from this line, not {sample.value!r}")


LOG_CLUE_SAMPLE = Spec("log_clue.samples", m.LogClueSample, (
    Field("line", SHORT, "A line as the cited code writes it.", required=True),
    Field("value", SHORT, "What the clue must read from it: the time as `YYYY-MM-DDTHH:MM:SS.ffffff` "
          "(`MM-DDTHH:MM:SS` without a year), the cluster id, or the role.", required=True),
), "A sample line of a log clue, checked when the registry loads.")

LOG_CLUE = Spec("log_clue", m.LogClue, (
    Field("id", KEY, "Its name.", required=True),
    Field("kind", ChoiceKind(m.CLUE_KINDS), "What it reads: `time`, `cluster` (the writer's own cluster id), "
          "`peer` (the cluster it links with or pulls from), `role` (prefill or decode); and the context a "
          "diagnosis uses: `framework`, `mode` (manager mode), `api`, `version` (CANN's).", required=True),
    Field("literal", SHORT, "Text every such line holds, looked for first (required but for `time`).", default=""),
    Field("pattern", RegexKind(), "Where the line states it, as named groups: `year` (optional), `month`, `day`, "
          "`hour`, `minute`, `second`, `frac` for a time; `cluster` for a cluster id.", required=True),
    Field("role", ChoiceKind(m.ROLES), "For `role`: the role such a line shows."),
    Field("shows", SHORT, "For `framework`, `mode` and `api`: what such a line shows (a key of `[frameworks]`, "
          "`CacheManager` or `KvCacheManager`, `python` or `cpp`)."),
    Field("sources", SOURCES, "The logging code that writes such lines.", required=True),
    Field("samples", ArrayKind(LOG_CLUE_SAMPLE), "Lines it must read.", default=()),
), "What a log line states about its writer beyond codes: its time, its cluster id, the peer it links "
   "with, its role. The scan orders first failures by time and pairs both sides of a link with them.",
   checks=(_clue_samples_match,))

APPLIES = Spec("applies_to", m.AppliesTo, (
    Field("frameworks", ListKind(RefKind("frameworks")), "Frameworks (keys of `[frameworks]`).", default=()),
    Field("modes", SHORTS, "Manager modes (`CacheManager`, `KvCacheManager`).", default=()),
    Field("versions", SHORT, "Versions, in words (`CANN 8.1 and later`)."),
), "Where a cause applies; empty means anywhere.")

_TERMS = Field("terms", SHORTS, "Backticked tokens of its texts that are not API or setting names.", default=())

def _evidence_checks(ev: m.Evidence, where: Where, ctx: Context) -> None:
    if (ev.format is None) == (ev.code is None):
        raise where.at("format").fail("give either `format` (the log call's format string) or `code`")
    if ev.code is not None and (ev.against or ev.samples):
        raise where.at("code").fail("a code's earlier failure proves a cause: no `against` or `samples` with it")
    if ev.format is not None:
        _format_checks(ev, where.at("format"))
    for i, sample in enumerate(ev.samples, 1):
        if not ev.matches(sample):
            raise where.at(f"samples[{i}]").fail(f"the line does not hold the pieces {list(ev.pieces)!r} in order")


def _format_checks(ev: m.Evidence, where: Where) -> None:
    """A format must be specific: a literal the prefilter can look for in every line, text enough not
    to turn up inside other messages, no control character, no literal that repeats itself."""
    if re.search(_CONTROL, ev.format or ""):
        raise where.fail("holds a control character")
    if len(ev.literal) < EVIDENCE_LITERAL_MIN:
        raise where.fail(f"its longest piece between placeholders, {ev.literal!r}, is shorter than "
                         f"{EVIDENCE_LITERAL_MIN} characters: too common to look for")
    if sum(map(len, ev.pieces)) < EVIDENCE_TEXT_MIN:
        raise where.fail(f"its pieces between placeholders, {list(ev.pieces)!r}, hold fewer than "
                         f"{EVIDENCE_TEXT_MIN} characters: other messages would hold them too")
    if _period(ev.literal) * 2 <= len(ev.literal):
        raise where.fail(f"its piece {ev.literal!r} repeats itself: it would match at every place of a line of it")


def _period(text: str) -> int:
    """The smallest p with ``text[i] == text[i + p]`` for every i (``len(text)`` when it has none)."""
    border = [0] * len(text)  # KMP's failure function: linear
    k = 0
    for i in range(1, len(text)):
        while k and text[i] != text[k]:
            k = border[k - 1]
        if text[i] == text[k]:
            k += 1
        border[i] = k
    return len(text) - (border[-1] if text else 0)


#: The shortest literal an evidence format must hold (the prefilter looks for it in every line), and
#: the fewest characters of text all its pieces must hold together.
EVIDENCE_LITERAL_MIN = 8
EVIDENCE_TEXT_MIN = 16

EVIDENCE = Spec("evidence", m.Evidence, (
    Field("format", LiteralKind(1, 300), "The log call's format string, verbatim, with its placeholders (`%d`, "
          "`%s`, `{}`, `{name}`): a line proves the cause when it holds every piece between them, in order (the "
          "longest at least 8 characters, all of them 16)."),
    Field("code", CODE, "Instead of `format`: a code whose failure earlier in the same process proves the cause."),
    Field("sources", SOURCES, "The log call (`key#L<line>`) or the code that returns the earlier code.",
          required=True),
    Field("against", BOOL, "True when the line rules the cause out instead.", default=False),
    Field("samples", ListKind(LiteralKind(EVIDENCE_LITERAL_MIN, 1000)), "Lines as the call writes them; each "
          "must match.", default=()),
    Field("holds", SHORTS, "Values its placeholders must take for this cause, each a text the line must hold "
          "too (`errno:111`: Connection refused).", default=()),
), "A log line that proves a cause (or rules it out).", checks=(_evidence_checks,))


CAUSE = Spec("cause", m.Cause, (
    Field("when", TEXT, "What the user sees: a log line, an API path, a deployment shape.", required=True),
    Field("check", TEXT, "Something concrete to run or look at.", required=True),
    Field("fix", TEXT, "What made it go away.", required=True),
    Field("sources", SOURCES, "Where this was seen or is written.", required=True),
    Field("applies_to", TableKind(APPLIES), "Where it applies.", default=m.AppliesTo()),
    _TERMS,
    Field("evidence", ArrayKind(EVIDENCE), "Log lines that prove it or rule it out.", default=()),
    Field("unlogged", ChoiceKind(m.UNLOGGED), "Without evidence: why no log line shows it (`config`, "
          "`call-order`, `deployment`, `peer`, `resources`, `no-log-call`)."),
), "A known cause of a code in one API, with a check and a fix.")

READING = Spec("reading", m.Reading, (
    Field("source", SourceKind(), "Another vendor page (kind `page`) of this API or of both.", required=True),
    Field("recoverable", ChoiceKind(("yes", "no", "n/a")), "What that page says."),
    Field("meaning", TEXT, "What that page says it means."),
    Field("remedy", TEXT, "What that page says to do."),
    _TERMS,
), "What another vendor page (older or newer) says about the code; at least one of recoverable, "
   "meaning, remedy.", checks=(_reading_cites_page,))

ACTION = Spec("action", m.Action, (
    Field("immediate", ChoiceKind(m.ACTIONS), "What to do now.", required=True),
    Field("investigate", ChoiceKind(m.ACTIONS), "What to do next, to find the cause.", required=True),
    Field("sources", SOURCES, "Where the action is advised or shown to work.", required=True),
    Field("setting", SHORT, "The setting `raise-setting` means."),
    Field("field", SHORT, "The configuration field `fix-config` means."),
), "What an automation may do about the code (NVIDIA's Xid catalog model).", checks=(_action_names_its_target,))

VIEW = Spec("view", m.ApiView, (
    Field("name", ShortKind(r"^[A-Z][A-Z0-9_]*$", "an upper-case identifier", "upper-case identifier"),
          "The spelling in that API (`LLM_WAIT_PROCESS_TIMEOUT` in Python).", required=True),
    Field("documented", BOOL, "True when the cited vendor page has a row for the code.", required=True),
    Field("source", SourceKind(), "The page of that row, or a source file when no page documents it.",
          required=True),
    Field("recoverable", ChoiceKind(m.RECOVERABLE_VALUES), "`yes`, `no`, `n/a` (success) or `unknown` "
          "(only when not documented).", required=True),
    Field("meaning", TEXT, "Our wording of the page's meaning.", required=True),
    Field("remedy", TEXT, "Our wording of the page's remedy.", required=True),
    Field("functions", SHORTS, "API functions the remedy names in backticks.", default=()),
    Field("options", SHORTS, "API options and parameters the remedy names in backticks.", default=()),
    Field("modes", SHORTS, "Manager modes the remedy names in backticks.", default=()),
    Field("causes", ArrayKind(CAUSE), "Known causes.", default=()),
    Field("readings", ArrayKind(READING), "Other vendor pages' readings.", default=()),
    Field("action", TableKind(ACTION), "What to do now and next."),
), "What one API (`[code.python]`, `[code.cpp]`) says about a code.", checks=(_documented_cites_page,))

SETTING = Spec("setting", m.Setting, (
    Field("name", SHORT, "The setting, exactly as the API or framework spells it.", required=True),
    Field("kind", ChoiceKind(m.SETTING_KINDS), "`option`, `config`, `env` or `framework`.", required=True),
    Field("about", TEXT, "What it governs, its range and the vendor's advice.", required=True),
    Field("sources", SOURCES, "Where it is documented or read.", required=True),
    Field("api", ChoiceKind(m.APIS), "The API it belongs to; left out when not tied to one."),
    Field("unit", SHORT, "Its unit (`ms`)."),
    Field("default", SHORT, "Its default, as written."),
    _TERMS,
), "A setting that governs the code; the same `name` (and `api`) once per code.")

FRAMEWORK_NOTE = Spec("framework note", m.FrameworkNote, (
    Field("framework", RefKind("frameworks"), "The framework (a key of `[frameworks]`).", required=True),
    Field("does", TEXT, "What it does when it gets the code.", required=True),
    Field("sources", SOURCES, "Its code or documentation.", required=True),
    _TERMS,
), "What a framework does with the code.")

BECOMES = Spec("becomes", m.Becomes, (
    Field("code", CODE, "The code an upper layer reports instead (any spelling).", required=True),
    Field("via", SHORT, "The function or path that maps it (`ConvertHixlError2Ge`).", required=True),
    Field("sources", SOURCES, "The mapping's lines.", required=True),
), "How an upper layer reports this code.")

def _raised_names_likely(sym: m.Symptom, where: Where, ctx: Context) -> None:
    if sym.raised and sym.likely is None:
        raise where.at("likely").fail("a raised message names the code it is raised with")


SYMPTOM = Spec("symptom", m.Symptom, (
    Field("id", KEY, "Unique name.", required=True),
    Field("framework", RefKind("frameworks"), "The framework whose words these are.", required=True),
    Field("pattern", LiteralKind(m.SYMPTOM_PATTERN_MIN, m.SYMPTOM_PATTERN_MAX), "A literal, case-sensitive piece "
          "of one log line (never a regular expression: matching stays linear).", required=True),
    Field("check", TEXT, "What to check when the line shows up.", required=True),
    Field("sources", SOURCES, "Where the line is written or was seen.", required=True),
    Field("likely", CODE, "The code it most likely hides."),
    Field("codes", CODES, "Codes it may hide.", default=()),
    _TERMS,
    Field("raised", BOOL, "True when LLM DataDist itself raises the message with `likely` as its status code "
          "(hixl's `raise_if_false`): the line is then a failure of that code.", default=False),
    Field("quoted_by", SHORTS, "Texts of the lines that quote the message instead of saying it (the source line "
          "a traceback prints: `raise_if_false(`): such a line is no hit.", default=()),
), "A log line in which a framework hides a code behind its own words. Counted as a failure only when "
   "`raised`.", checks=(_raised_names_likely,))


def _code_checks(code: m.StatusCode, where: Where, ctx: Context) -> None:
    family = ctx.family(code.family)
    if code.value is None and not (family is not None and family.string_codes):
        raise where.at("value").fail("missing: a code of this family is a number")
    if code.python is None and code.cpp is None:
        raise where.at("python").fail("a code needs a [code.python] or a [code.cpp] table")
    if code.differs and not (code.python and code.python.documented and code.cpp and code.cpp.documented):
        raise where.at("differs").fail("needs a documented [code.python] and [code.cpp] to compare")
    seen: set[tuple[str, str | None]] = set()
    for i, setting in enumerate(code.settings, 1):
        if (setting.name, setting.api) in seen:
            raise where.at(f"settings[{i}]").at("name").fail(f"{shown(setting.name)} is declared twice for this code")
        seen.add((setting.name, setting.api))


CODE_SPEC = Spec("code", m.StatusCode, (
    Field("name", IDENT, "Canonical spelling: the C++ constant where there is one, else the Python member.",
          required=True),
    Field("value", IntKind(-(2**31), 2**32 - 1, "32-bit integer"), "The number as the API returns it (uint32; "
          "-1 allowed); left out only for a code that is a string (MindIE's `MIE05E01001A`)."),
    Field("family", RefKind("families"), "The layer it belongs to.", default=m.LLM_DATADIST),
    Field("python", TableKind(VIEW, "api"), "The Python API's view (`LLMStatusCode` member)."),
    Field("cpp", TableKind(VIEW, "api"), "The C/C++ API's view (the header's constant)."),
    Field("related", CODES, "Other codes worth a look.", default=()),
    Field("aliases", ListKind(IDENT), "Other spellings that should find this code.", default=()),
    Field("note", TEXT, "About the code as a whole."),
    Field("differs", ListKind(ChoiceKind(m.DIFFERS)), "What the two pages' remedies really differ in.", default=()),
    Field("settings", ArrayKind(SETTING), "Settings that govern it.", default=()),
    Field("frameworks", ArrayKind(FRAMEWORK_NOTE), "What frameworks do with it.", default=()),
    Field("becomes", ArrayKind(BECOMES), "How upper layers report it.", default=()),
), "One status code. A `[[code]]` whose `name` is already known (in any spelling) overrides only "
   "the fields it sets; arrays replace.", checks=(_code_checks,))

#: The top-level tables keyed by name (``[sources.KEY]``), in the order they are built.
KEYED: Mapping[str, Spec] = {
    "sources": SOURCE, "families": FAMILY, "frameworks": FRAMEWORK, "engines": ENGINE, "bindings": BINDING,
}
#: The top-level arrays of tables other than ``[[code]]``, with the fields that identify an entry
#: (a later file's entry with the same identity replaces the earlier one whole) and the
#: :class:`~.model.Registry` attribute that holds them.
ARRAYS: Mapping[str, tuple[Spec, tuple[str, ...], str]] = {
    "symptom": (SYMPTOM, ("id",), "symptoms"),
    "spelling": (SPELLING, ("binding", "name"), "bound_names"),
    "returns": (RETURNS, ("code", "engine"), "returns"),
    "shared": (SHARED, ("family", "value"), "shared"),
    "log_format": (LOG_FORMAT, ("id",), "log_formats"),
    "log_clue": (LOG_CLUE, ("id",), "log_clues"),
}
#: Every top-level key of a registry file.
TOP_LEVEL = frozenset({"schema", "code", *KEYED, *ARRAYS})


def _every_spec(specs: Iterable[Spec]) -> dict[str, Spec]:
    """``specs`` and every record nested in them, by title (titles are unique)."""
    out: dict[str, Spec] = {}
    todo = list(specs)
    while todo:
        spec = todo.pop(0)
        if out.setdefault(spec.title, spec) is not spec:
            raise AssertionError(f"two records are titled {spec.title!r}")
        todo += [f.kind.spec for f in spec.fields if isinstance(f.kind, (TableKind, ArrayKind))]
    return out


#: Every record, by title: what :mod:`.store` describes in its header.
SPECS: Mapping[str, Spec] = _every_spec([CODE_SPEC, *KEYED.values(), *(a[0] for a in ARRAYS.values())])


def is_http_url(url: str) -> bool:
    """An absolute http(s) URL with a host and no whitespace or control characters."""
    scheme, sep, rest = url.partition("://")
    return bool(sep) and scheme.lower() in ("http", "https") and bool(rest) and \
        not rest.startswith("/") and not re.search(_UNSAFE_URL_CHAR, url)


def linear_regex_problem(pattern: str) -> str | None:
    """Why ``pattern`` could take more than linear time (or does not compile), else None.

    Allowed: literals, classes, groups, alternation and repeats with an upper
    bound of at most 64 (``{0,4}``), nested only while the bounds along a
    nesting multiply to at most 1024. Refused: ``*``, ``+``, ``{n,}`` and
    bounds above 64, deeper nesting, back-references and look-around. Each
    match attempt then tries a bounded number of paths, so a pattern costs at
    most a constant per position of the line.
    """
    import re._parser as sre_parse  # type: ignore[import-not-found]  # Python 3.11+, no stubs

    try:
        re.compile(pattern)
        tree = sre_parse.parse(pattern)
    except (re.error, RecursionError, OverflowError) as exc:
        return f"does not compile: {exc}"
    refused = {"GROUPREF": "back-references", "GROUPREF_EXISTS": "conditional groups", "ASSERT": "look-around",
               "ASSERT_NOT": "look-around", "ATOMIC_GROUP": "atomic groups", "POSSESSIVE_REPEAT": "possessive repeats"}

    def walk(items: Any, paths: int) -> str | None:
        for op, arg in items:
            name = str(op)
            if name in refused:
                return f"uses {refused[name]}, which a registry pattern may not"
            if name in ("MAX_REPEAT", "MIN_REPEAT"):
                _low, high, sub = arg
                if high > 64:
                    return "has an unbounded repeat or one of more than 64 (use {0,N} with N <= 64)"
                if paths * high > 1024:
                    return "nests repeats whose bounds multiply to more than 1024"
                problem = walk(sub, paths * high)
            elif name == "SUBPATTERN":
                problem = walk(arg[-1], paths)
            elif name == "BRANCH":
                problem = next((p for p in (walk(b, paths) for b in arg[1]) if p), None)
            else:
                problem = None
            if problem:
                return problem
        return None

    return walk(tree, 1)


def reference() -> list[tuple[str, str, list[tuple[str, str, bool, str]]]]:
    """The field reference of every record: ``(table, its meaning, [(key, type, required, meaning)])``,
    in the order a reader meets them (the site lays it out: ``docs/_ext/site_pages.py``)."""
    specs = [("[sources.KEY]", SOURCE), ("[families.KEY]", FAMILY), ("[frameworks.KEY]", FRAMEWORK),
             ("[engines.KEY]", ENGINE), ("[bindings.KEY]", BINDING), ("[[code]]", CODE_SPEC),
             ("[code.python], [code.cpp]", VIEW), ("[[code.python.causes]]", CAUSE),
             ("[[code.python.causes.evidence]]", EVIDENCE),
             ("applies_to", APPLIES), ("[[code.cpp.readings]]", READING), ("[code.python.action]", ACTION),
             ("[[code.settings]]", SETTING), ("[[code.frameworks]]", FRAMEWORK_NOTE),
             ("[[code.becomes]]", BECOMES), ("[[symptom]]", SYMPTOM), ("[[spelling]]", SPELLING),
             ("[[returns]]", RETURNS), ("[[shared]]", SHARED), ("[[log_format]]", LOG_FORMAT),
             ("[[log_format.samples]]", LOG_SAMPLE), ("[[log_clue]]", LOG_CLUE),
             ("[[log_clue.samples]]", LOG_CLUE_SAMPLE)]
    return [(table, spec.doc, [(f.key, f.kind.doc, f.required, f.doc) for f in spec.fields])
            for table, spec in specs]
