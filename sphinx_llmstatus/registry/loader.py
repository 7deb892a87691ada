"""Read, merge and validate registry TOML files.

The packaged file is ``sphinx_llmstatus/registry/data/registry.toml``; beside
it, ``registry.json`` is the same document pre-parsed (written by
``python -m sphinx_llmstatus.registry.compile``), used only while its recorded
checksum matches the TOML, because parsing TOML is the largest part of the
``llmstatus CODE`` start-up. Extra
files (Sphinx's ``llmstatus_registry_files``, the command's ``--registry``)
use the same format: a ``[[code]]`` whose ``name`` matches a packaged code (in
either API spelling) overrides only the fields it sets; any other ``[[code]]``
adds a code and must be complete. Every error names the file, the entry and
the field.
"""

from __future__ import annotations

import os
import re
import zlib
from functools import lru_cache

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator, Mapping
    from typing import Any

from .model import (
    APIS,
    DIFFERS,
    FRAMEWORKS,
    LANGS,
    RECOVERABLE_VALUES,
    SETTING_KINDS,
    SOURCE_KINDS,
    SYMPTOM_PATTERN_MAX,
    SYMPTOM_PATTERN_MIN,
    ApiView,
    AppliesTo,
    Cause,
    FrameworkNote,
    Reading,
    Registry,
    Setting,
    Source,
    StatusCode,
    Symptom,
    Text,
)

DATA_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data")
PACKAGED_NAME = "registry.toml"
COMPILED_NAME = "registry.json"
SCHEMA_VERSION = 1

# Patterns are compiled on first use (re's own cache), not at import: the
# packaged registry comes from model.marshal and needs none of them, and every
# compile at import is start-up time of `llmstatus CODE` (issue 13).
_NAME_RE = r"^[A-Z][A-Z0-9_]*$"
_BACKTICK_RE = r"`([^`]+)`"
_HEXLIKE_RE = r"^(?:0X)?[0-9A-F]+$"  # an alias like DEADBEEF would shadow a hex number
_CODE_KEYS = {"name", "value", "related", "aliases", "note", "python", "cpp", "settings", "frameworks", "differs"}
_VIEW_KEYS = {
    "name", "documented", "source", "recoverable", "meaning", "remedy",
    "functions", "options", "modes", "causes", "readings",
}
_SOURCE_KEYS = {"api", "kind", "title", "url", "version"}
_CAUSE_KEYS = {"when", "check", "fix", "sources", "applies_to", "terms"}
_APPLIES_KEYS = {"frameworks", "modes", "versions"}
_READING_KEYS = {"source", "recoverable", "meaning", "remedy", "terms"}
_SETTING_KEYS = {"name", "api", "kind", "unit", "default", "about", "sources", "terms"}
_FRAMEWORK_KEYS = {"framework", "does", "sources", "terms"}
_SYMPTOM_KEYS = {"id", "framework", "pattern", "likely", "codes", "check", "sources", "terms"}
_SYMPTOM_ID_RE = r"^[a-z0-9][a-z0-9-]{0,63}$"
_INDEX_RE = r"\[\d+\]"
#: Bound on the short free-text fields (names, units, defaults, versions, terms).
_SHORT_MAX = 200
#: What a short field must be, for messages.
_SHORT_RULE = f"a non-empty string of at most {_SHORT_MAX} characters on one line, without control characters"
#: Control characters (C0, DEL, C1): an escape sequence in registry text would reach the
#: terminal, the notebook and the page as it is. Texts may keep tabs and line breaks.
_CONTROL_RE = r"[\x00-\x1f\x7f-\x9f]"
_TEXT_CONTROL_RE = r"[\x00-\x08\x0b-\x1f\x7f-\x9f]"


class RegistryError(ValueError):
    """A registry file is unreadable or breaks the schema.

    ``file``, ``entry`` (a code name, ``sources.KEY`` or ``[[code]] #N``) and
    ``field`` (a dotted path such as ``python.recoverable``) say where; ``str()``
    reads ``FILE: entry ENTRY: field FIELD: reason``.
    """

    def __init__(self, file: str, reason: str, entry: str | None = None, field: str | None = None):
        self.file, self.entry, self.field, self.reason = file, entry, field, reason
        where = [file]
        if entry is not None:
            where.append(f"entry {entry}")
        if field is not None:
            where.append(f"field {field}")
        super().__init__(": ".join(where) + ": " + reason)


def packaged_registry_path() -> str:
    """Filesystem path of the packaged registry TOML file."""
    return os.path.join(DATA_DIR, PACKAGED_NAME)


def _read_bytes(path: str) -> bytes:
    try:
        with open(path, "rb") as fh:
            return fh.read()
    except OSError as exc:
        raise RegistryError(path, f"cannot read: {exc.strerror or exc}") from None


def parse_toml(path: str, data: bytes) -> dict[str, Any]:
    """Parse TOML ``data`` read from ``path``; RegistryError naming the file on bad syntax or encoding."""
    import tomllib

    try:
        return tomllib.loads(data.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise RegistryError(path, f"not UTF-8: {exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise RegistryError(path, f"invalid TOML: {exc}") from None
    except RecursionError:
        raise RegistryError(path, "invalid TOML: nested too deeply") from None
    except ValueError as exc:  # int() past sys.get_int_max_str_digits(): tomllib lets it through
        entry, field = _locate_huge_integer(data.decode("utf-8", "replace"))
        raise RegistryError(path, f"integer too large ({exc})", entry=entry, field=field) from None


_TABLE_HEADER_RE = r"^\s*\[(\[?)\s*([^\]]+?)\s*\]"
_KEY_VALUE_RE = r"^\s*([A-Za-z0-9_.\-\"' ]+?)\s*=\s*(.*)"
_NAME_VALUE_RE = r"^\s*name\s*=\s*[\"']([^\"']*)[\"']"


def _locate_huge_integer(text: str) -> tuple[str | None, str | None]:
    """``(entry, field)`` of the first integer too long for ``int()``: a line scan, linear in the text."""
    import sys

    limit = sys.get_int_max_str_digits() or 4300
    section, entry, index = "", None, 0
    for line in text.splitlines():
        header = re.match(_TABLE_HEADER_RE, line)
        if header:
            section = header.group(2)
            if header.group(1) and section == "code":
                index += 1
                entry = f"[[code]] #{index}"
            elif section.startswith("sources."):
                entry = section
            continue
        named = re.match(_NAME_VALUE_RE, line)
        if named and section == "code":
            entry = named.group(1) or entry
        found = re.match(_KEY_VALUE_RE, line)
        if found and sum(c.isdigit() for c in found.group(2)) > limit:
            prefix = section.removeprefix("code").lstrip(".") if section.startswith("code") else ""
            return entry, f"{prefix}.{found.group(1)}" if prefix else found.group(1)
    return None, None


def _shown(value: Any) -> str:
    """``repr(value)`` for an error message, bounded: huge integers and long strings are summarised."""
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 64:
        return f"an integer of {value.bit_length()} bits"
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


def read_toml(path: str | os.PathLike[str]) -> dict[str, Any]:
    """Read and parse one TOML file; RegistryError naming the file on I/O or syntax errors."""
    path = os.fspath(path)
    return parse_toml(path, _read_bytes(path))


def checksum(data: bytes) -> str:
    """Change detector for the packaged TOML (CRC-32 as 8 hex digits; not a security hash)."""
    return f"{zlib.crc32(data):08x}"


def read_packaged() -> dict[str, Any]:
    """The packaged registry document: from ``registry.json`` when it matches the TOML, else parsed."""
    path = packaged_registry_path()
    data = _read_bytes(path)
    try:
        with open(os.path.join(DATA_DIR, COMPILED_NAME), "rb") as fh:
            import json

            compiled = json.loads(fh.read())
        if compiled.get("toml_crc32") == checksum(data):
            return compiled["document"]
    except (OSError, ValueError, AttributeError, KeyError):
        pass  # missing or stale: parse the TOML, which is the source of truth
    return parse_toml(path, data)


class _Builder:
    """Merges raw TOML documents, remembering which file set each field."""

    def __init__(self) -> None:
        self.sources: dict[str, dict[str, Any]] = {}
        self.source_files: dict[str, str] = {}
        self.codes: dict[str, dict[str, Any]] = {}  # canonical name -> raw entry
        self.aliases: dict[str, str] = {}  # any spelling (upper) -> canonical name
        self.origin: dict[tuple[str, str], str] = {}  # (name, field path) -> file
        self.defined_in: dict[str, str] = {}
        self.file_order: dict[str, int] = {}  # file -> position in load order
        self.overridden: set[tuple[str, str]] = set()  # (canonical name, file) of overrides
        self.symptoms: dict[str, tuple[dict[str, Any], str, str]] = {}  # id -> (raw, file, entry)
        # Every API and setting name any file declared, even if a later file replaced the list:
        # an override that trims one list must not break another file's causes that name it.
        self.declared: set[str] = set()

    def add(self, doc: Mapping[str, Any], file: str) -> None:
        self.file_order.setdefault(file, len(self.file_order))
        schema = doc.get("schema", SCHEMA_VERSION)
        if type(schema) is not int or schema != SCHEMA_VERSION:
            raise RegistryError(file, f"unsupported schema {_shown(schema)} (expected {SCHEMA_VERSION})", field="schema")
        unknown = set(doc) - {"schema", "sources", "code", "symptom"}
        if unknown:
            raise RegistryError(file, f"unknown top-level key(s): {', '.join(sorted(unknown))}")
        sources = doc.get("sources", {})
        if not isinstance(sources, dict):
            raise RegistryError(file, "must be a table of tables", field="sources")
        for key, raw in sources.items():
            if not isinstance(raw, dict):
                raise RegistryError(file, "must be a table", entry=f"sources.{key}")
            merged = {**self.sources.get(key, {}), **raw}
            old_title, new_title = self.sources.get(key, {}).get("title"), raw.get("title")
            if isinstance(old_title, dict) and isinstance(new_title, dict):
                merged["title"] = {**old_title, **new_title}  # title.en alone keeps title.zh
            self.sources[key] = merged
            self.source_files[key] = file
        codes = doc.get("code", [])
        if not isinstance(codes, list):
            raise RegistryError(file, "must be an array of tables ([[code]])", field="code")
        for index, raw in enumerate(codes, 1):
            self._add_code(raw, file, index)
        symptoms = doc.get("symptom", [])
        if not isinstance(symptoms, list):
            raise RegistryError(file, "must be an array of tables ([[symptom]])", field="symptom")
        seen: set[str] = set()
        for index, raw in enumerate(symptoms, 1):
            entry = f"[[symptom]] #{index}"
            if not isinstance(raw, dict):
                raise RegistryError(file, "must be a table", entry=entry)
            ident = raw.get("id")
            if not isinstance(ident, str) or not re.match(_SYMPTOM_ID_RE, ident):
                raise RegistryError(file, "missing, or not [a-z0-9-]+ of at most 64 characters",
                                    entry=entry, field="id")
            if ident in seen:
                raise RegistryError(file, f"duplicate id {ident!r} (already defined in this file)",
                                    entry=f"symptom.{ident}", field="id")
            seen.add(ident)
            # A later file's symptom with the same id replaces the earlier one whole.
            self.symptoms[ident] = (raw, file, f"symptom.{ident}")

    def _add_code(self, raw: Any, file: str, index: int) -> None:
        entry = f"[[code]] #{index}"
        if not isinstance(raw, dict):
            raise RegistryError(file, "must be a table", entry=entry)
        name = raw.get("name")
        if not isinstance(name, str) or not name:
            raise RegistryError(file, "missing or not a string", entry=entry, field="name")
        unknown = set(raw) - _CODE_KEYS
        if unknown:
            raise RegistryError(file, f"unknown key(s): {', '.join(sorted(unknown))}", entry=name)
        canonical = self.aliases.get(name.upper())
        if canonical is not None and self.defined_in[canonical] == file:
            raise RegistryError(file, f"duplicate name {name!r} (already defined in this file)", entry=name, field="name")
        if canonical is not None:
            if (canonical, file) in self.overridden:
                raise RegistryError(file, f"{name!r} is overridden twice in this file (merge the two [[code]] tables)",
                                    entry=name, field="name")
            self.overridden.add((canonical, file))
        if canonical is None:
            canonical = name
            self.codes[canonical] = {}
            self.defined_in[canonical] = file
        fields = {k: v for k, v in raw.items() if k != "name" or canonical == name}
        self.declared.update(_declared_names(raw))
        self._merge(self.codes[canonical], fields, canonical, "", file)
        target = self.codes[canonical]
        target.setdefault("name", canonical)
        for spelling in _spellings(target):
            self.aliases.setdefault(spelling.upper(), canonical)

    def _merge(self, target: dict[str, Any], raw: Mapping[str, Any], name: str, prefix: str,
               file: str) -> None:
        """Deep-merge ``raw`` into ``target``: an override sets only the leaves it names.

        ``python.meaning.en`` alone replaces the English meaning and keeps the
        Chinese one; every leaf remembers the file that set it, for errors.
        """
        for key, value in raw.items():
            path = f"{prefix}{key}"
            if isinstance(value, dict):
                # Copy tables leaf by leaf even when new, so that every leaf knows its file.
                if not isinstance(target.get(key), dict):
                    target[key] = {}
                self._merge(target[key], value, name, path + ".", file)
            else:
                target[key] = value
            self.origin[(name, path)] = file

    def build(self, files: tuple[str, ...]) -> Registry:
        sources = {key: self._source(key, raw) for key, raw in self.sources.items()}
        codes = [self._code(name, raw, sources) for name, raw in self.codes.items()]
        self._check_unique(codes)
        known = {s.upper() for c in codes for s in c.spellings}
        api_names = {n for c in codes for v in c.views for n in v.api_names} | self.declared
        for code in codes:
            self._check_references(code, known, api_names)
        codes.sort(key=_sort_key)
        canonical = {s.upper(): c for c in codes for s in c.spellings}
        symptoms = tuple(self._symptom(raw, file, entry, sources, canonical)
                         for raw, file, entry in self.symptoms.values())
        return Registry(codes=tuple(codes), sources=sources, files=files, symptoms=symptoms)

    # -- pieces --------------------------------------------------------------

    def _where(self, name: str, field: str) -> str:
        parts = re.sub(_INDEX_RE, "", field).split(".")
        for n in range(len(parts), 0, -1):  # python.remedy.en -> python.remedy -> python
            found = self.origin.get((name, ".".join(parts[:n])))
            if found:
                return found
        return self.defined_in[name]

    def _fail(self, name: str, field: str, reason: str) -> RegistryError:
        return RegistryError(self._where(name, field), reason, entry=name, field=field)

    def _source(self, key: str, raw: dict[str, Any]) -> Source:
        file, entry = self.source_files[key], f"sources.{key}"
        unknown = set(raw) - _SOURCE_KEYS
        if unknown:
            raise RegistryError(file, f"unknown key(s): {', '.join(sorted(unknown))}", entry=entry)
        api = raw.get("api")
        if api is not None and api not in APIS:
            raise RegistryError(file, f"must be one of {', '.join(APIS)} (or left out for both)",
                                entry=entry, field="api")
        kind = raw.get("kind")
        if kind not in SOURCE_KINDS:
            raise RegistryError(file, f"must be one of {', '.join(SOURCE_KINDS)}", entry=entry, field="kind")
        version = raw.get("version")
        if version is not None and not _short(version):
            raise RegistryError(file, f"must be {_SHORT_RULE}", entry=entry, field="version")
        url = raw.get("url")
        if not isinstance(url, str) or not _is_http_url(url):
            raise RegistryError(file, "must be an http(s) URL without spaces or control characters",
                                entry=entry, field="url")
        title = _text(raw.get("title"), lambda f, r: RegistryError(file, r, entry=entry, field=f), "title")
        return Source(key=key, api=api, kind=kind, title=title, url=url, version=version)

    def _code(self, name: str, raw: dict[str, Any], sources: Mapping[str, Source]) -> StatusCode:
        if not re.match(_NAME_RE, name):
            raise self._fail(name, "name", "must be an upper-case identifier such as LLM_LINK_FAILED")
        value = raw.get("value")
        if isinstance(value, bool) or not isinstance(value, int):
            raise self._fail(name, "value", "missing or not an integer")
        if not -(2**31) <= value < 2**32:
            raise self._fail(name, "value", f"{_shown(value)} does not fit in 32 bits")
        views = {}
        for api in APIS:
            if api in raw:
                views[api] = self._view(name, api, raw[api], sources)
        if not views:
            raise self._fail(name, "python", "a code needs a [code.python] or a [code.cpp] table")
        note = None
        if "note" in raw:
            note = _text(raw["note"], lambda f, r: self._fail(name, f, r), "note")
        differs = self._names(name, raw, "differs")
        for item in differs:
            if item not in DIFFERS:
                raise self._fail(name, "differs", f"{_shown(item)} is not one of {', '.join(DIFFERS)}")
        if differs and not all(views.get(a) and views[a].documented for a in APIS):
            raise self._fail(name, "differs", "needs a documented [code.python] and [code.cpp] to compare")
        return StatusCode(
            name=name,
            value=value,
            python=views.get("python"),
            cpp=views.get("cpp"),
            related=self._names(name, raw, "related"),
            aliases=self._names(name, raw, "aliases"),
            note=note,
            settings=self._settings(name, raw.get("settings", []), sources),
            frameworks=self._frameworks(name, raw.get("frameworks", []), sources),
            differs=differs,
        )

    def _names(self, name: str, raw: Mapping[str, Any], field: str) -> tuple[str, ...]:
        value = raw.get(field, [])
        if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
            raise self._fail(name, field, "must be a list of non-empty strings")
        return tuple(value)

    def _view(self, name: str, api: str, raw: Any, sources: Mapping[str, Source]) -> ApiView:
        def fail(field: str, reason: str) -> RegistryError:
            return self._fail(name, f"{api}.{field}", reason)

        if not isinstance(raw, dict):
            raise fail("", "must be a table")
        unknown = set(raw) - _VIEW_KEYS
        if unknown:
            raise fail(sorted(unknown)[0], "unknown key")
        spelled = raw.get("name")
        if not isinstance(spelled, str) or not re.match(_NAME_RE, spelled):
            raise fail("name", "missing or not an upper-case identifier")
        documented = raw.get("documented")
        if not isinstance(documented, bool):
            raise fail("documented", "missing or not true/false")
        source_key = raw.get("source")
        source = sources.get(source_key) if isinstance(source_key, str) else None
        if source is None:
            raise fail("source", f"{_shown(source_key)} is not a key of [sources] ({', '.join(sorted(sources))})")
        if source.api is not None and source.api != api:
            source_file = self.source_files[source.key]
            if self.file_order[source_file] > self.file_order[self._where(name, f"{api}.source")]:
                # The later file changed the source's API: that is where to look.
                raise RegistryError(source_file, f"is {source.api!r}, but {name} [code.{api}] cites this source",
                                    entry=f"sources.{source_key}", field="api")
            raise fail("source", f"source {source_key!r} belongs to the {source.api} API")
        if documented and source.kind != "page":
            raise fail("source", "a documented row must cite a vendor page (kind = 'page')")
        recoverable = raw.get("recoverable")
        if recoverable not in RECOVERABLE_VALUES:
            raise fail("recoverable", f"{_shown(recoverable)} is not one of {', '.join(RECOVERABLE_VALUES)}")
        if documented and recoverable == "unknown":
            raise fail("recoverable", "a documented row must say yes, no or n/a")
        lists = {}
        for field in ("functions", "options", "modes"):
            value = raw.get(field, [])
            if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
                raise fail(field, "must be a list of non-empty strings")
            lists[field] = tuple(value)
        meaning = _text(raw.get("meaning"), fail, "meaning")
        remedy = _text(raw.get("remedy"), fail, "remedy")
        causes = tuple(self._cause(name, field, item, sources)
                       for field, item in self._tables(name, raw, f"{api}.causes", "causes", _CAUSE_KEYS))
        readings = tuple(self._reading(name, api, field, item, sources)
                         for field, item in self._tables(name, raw, f"{api}.readings", "readings", _READING_KEYS))
        return ApiView(
            api=api,
            name=spelled,
            documented=documented,
            source=source,
            recoverable=recoverable,
            meaning=meaning,
            remedy=remedy,
            causes=causes,
            readings=readings,
            **lists,
        )

    # -- causes, readings, settings, framework notes, symptoms ---------------

    def _array(self, name: str, raw: Mapping[str, Any], field: str, key: str) -> list[dict[str, Any]]:
        value = raw.get(key, [])
        if not isinstance(value, list):
            raise self._fail(name, field, f"must be an array of tables ([[...{key}]])")
        for i, item in enumerate(value, 1):
            if not isinstance(item, dict):
                raise self._fail(name, f"{field}[{i}]", "must be a table")
        return value

    def _tables(self, name: str, raw: Mapping[str, Any], field: str, key: str,
                allowed: set[str]) -> Iterator[tuple[str, dict[str, Any]]]:
        """``(path, table)`` for each table of the array ``raw[key]``: ``path`` is ``field[i]``
        (1-based) for errors; a table with a key outside ``allowed`` is an error."""
        for i, item in enumerate(self._array(name, raw, field, key), 1):
            path = f"{field}[{i}]"
            self._keys(name, path, item, allowed)
            yield path, item

    def _keys(self, name: str, field: str, raw: Mapping[str, Any], allowed: set[str]) -> None:
        unknown = set(raw) - allowed
        if unknown:
            raise self._fail(name, f"{field}.{sorted(unknown)[0]}", "unknown key")

    def _source_list(self, raw: Mapping[str, Any], sources: Mapping[str, Source],
                     fail: Any, field: str = "sources") -> tuple[Source, ...]:
        keys = raw.get(field)
        if not isinstance(keys, list) or not keys or not all(isinstance(k, str) for k in keys):
            raise fail(field, "must be a non-empty list of keys of [sources]")
        for key in keys:
            if key not in sources:
                raise fail(field, f"{_shown(key)} is not a key of [sources]")
        return tuple(sources[k] for k in dict.fromkeys(keys))

    def _cause(self, name: str, field: str, raw: dict[str, Any], sources: Mapping[str, Source]) -> Cause:
        def fail(sub: str, reason: str) -> RegistryError:
            return self._fail(name, f"{field}.{sub}", reason)

        texts = {k: _text(raw.get(k), fail, k) for k in ("when", "check", "fix")}
        applies = raw.get("applies_to", {})
        if not isinstance(applies, dict):
            raise fail("applies_to", "must be a table")
        self._keys(name, f"{field}.applies_to", applies, _APPLIES_KEYS)
        frameworks = _str_list(applies, "frameworks", lambda f, r: fail(f"applies_to.{f}", r))
        for fw in frameworks:
            if fw not in FRAMEWORKS:
                raise fail("applies_to.frameworks", f"{_shown(fw)} is not one of {', '.join(FRAMEWORKS)}")
        versions = applies.get("versions")
        if versions is not None and not _short(versions):
            raise fail("applies_to.versions", f"must be {_SHORT_RULE}")
        return Cause(
            **texts,
            sources=self._source_list(raw, sources, fail),
            applies_to=AppliesTo(frameworks=frameworks,
                                 modes=_str_list(applies, "modes", lambda f, r: fail(f"applies_to.{f}", r)),
                                 versions=versions),
            terms=_str_list(raw, "terms", fail),
        )

    def _reading(self, name: str, api: str, field: str, raw: dict[str, Any],
                 sources: Mapping[str, Source]) -> Reading:
        def fail(sub: str, reason: str) -> RegistryError:
            return self._fail(name, f"{field}.{sub}", reason)

        key = raw.get("source")
        source = sources.get(key) if isinstance(key, str) else None
        if source is None:
            raise fail("source", f"{_shown(key)} is not a key of [sources]")
        if source.kind != "page":
            raise fail("source", "a reading must cite a vendor page (kind = 'page')")
        if source.api is not None and source.api != api:
            raise fail("source", f"source {key!r} belongs to the {source.api} API")
        recoverable = raw.get("recoverable")
        if recoverable is not None and recoverable not in ("yes", "no", "n/a"):
            raise fail("recoverable", f"{_shown(recoverable)} is not one of yes, no, n/a")
        texts = {k: _text(raw[k], fail, k) if k in raw else None for k in ("meaning", "remedy")}
        if recoverable is None and not any(texts.values()):
            raise fail("source", "a reading needs at least one of recoverable, meaning, remedy")
        return Reading(source=source, recoverable=recoverable, terms=_str_list(raw, "terms", fail), **texts)

    def _settings(self, name: str, raw: Any, sources: Mapping[str, Source]) -> tuple[Setting, ...]:
        out = []
        seen: set[tuple[str, str | None]] = set()
        for field, item in self._tables(name, {"settings": raw}, "settings", "settings", _SETTING_KEYS):

            def fail(sub: str, reason: str, field: str = field) -> RegistryError:
                return self._fail(name, f"{field}.{sub}", reason)

            setting_name = item.get("name")
            if not isinstance(setting_name, str) or not _short(setting_name):
                raise fail("name", f"missing, or not {_SHORT_RULE}")
            api: str | None = item.get("api")
            if api is not None and api not in APIS:
                raise fail("api", f"must be one of {', '.join(APIS)} (or left out)")
            if (setting_name, api) in seen:
                raise fail("name", f"{_shown(setting_name)} is declared twice for this code")
            seen.add((setting_name, api))
            kind = item.get("kind")
            if kind not in SETTING_KINDS:
                raise fail("kind", f"{_shown(kind)} is not one of {', '.join(SETTING_KINDS)}")
            for opt in ("unit", "default"):
                if opt in item and not _short(item[opt]):
                    raise fail(opt, f"must be {_SHORT_RULE}")
            out.append(Setting(name=setting_name, kind=kind, about=_text(item.get("about"), fail, "about"),
                               sources=self._source_list(item, sources, fail), api=api,
                               unit=item.get("unit"), default=item.get("default"),
                               terms=_str_list(item, "terms", fail)))
        return tuple(out)

    def _frameworks(self, name: str, raw: Any, sources: Mapping[str, Source]) -> tuple[FrameworkNote, ...]:
        out = []
        for field, item in self._tables(name, {"frameworks": raw}, "frameworks", "frameworks", _FRAMEWORK_KEYS):

            def fail(sub: str, reason: str, field: str = field) -> RegistryError:
                return self._fail(name, f"{field}.{sub}", reason)

            framework = item.get("framework")
            if framework not in FRAMEWORKS:
                raise fail("framework", f"{_shown(framework)} is not one of {', '.join(FRAMEWORKS)}")
            out.append(FrameworkNote(framework=framework, does=_text(item.get("does"), fail, "does"),
                                     sources=self._source_list(item, sources, fail),
                                     terms=_str_list(item, "terms", fail)))
        return tuple(out)

    def _symptom(self, raw: dict[str, Any], file: str, entry: str, sources: Mapping[str, Source],
                 canonical: Mapping[str, StatusCode]) -> Symptom:
        def fail(field: str, reason: str) -> RegistryError:
            return RegistryError(file, reason, entry=entry, field=field)

        unknown = set(raw) - _SYMPTOM_KEYS
        if unknown:
            raise fail(sorted(unknown)[0], "unknown key")
        framework = raw.get("framework")
        if framework not in FRAMEWORKS:
            raise fail("framework", f"{_shown(framework)} is not one of {', '.join(FRAMEWORKS)}")
        pattern = raw.get("pattern")
        if (not isinstance(pattern, str) or not SYMPTOM_PATTERN_MIN <= len(pattern) <= SYMPTOM_PATTERN_MAX
                or "\n" in pattern or "\r" in pattern):
            raise fail("pattern", f"must be one line of {SYMPTOM_PATTERN_MIN} to {SYMPTOM_PATTERN_MAX} "
                                  "characters (a literal substring, not a regular expression)")
        likely = raw.get("likely")
        if likely is not None:
            if not isinstance(likely, str) or likely.upper() not in canonical:
                raise fail("likely", f"{_shown(likely)} is not a code of the registry")
            likely = canonical[likely.upper()].name
        codes = []
        for code in _str_list(raw, "codes", fail):
            if code.upper() not in canonical:
                raise fail("codes", f"{_shown(code)} is not a code of the registry")
            codes.append(canonical[code.upper()].name)
        terms = _str_list(raw, "terms", fail)
        check = _text(raw.get("check"), fail, "check")
        # Any code's setting may be named: a symptom often points at a knob of a code it hides.
        allowed = set(terms) | {s.name for c in canonical.values() for s in c.settings} | self.declared
        _check_backticks({"check": check}, allowed, set(canonical), terms, fail)
        return Symptom(id=raw["id"], framework=framework, pattern=pattern, check=check,
                       sources=self._source_list(raw, sources, fail), likely=likely,
                       codes=tuple(dict.fromkeys(codes)), terms=terms)

    def _check_unique(self, codes: list[StatusCode]) -> None:
        names: dict[str, tuple[str, str]] = {}  # spelling (upper) -> (code, field that spells it)
        values: dict[int, str] = {}
        numbers = {form.upper(): code.name for code in codes for form in code.number_forms}
        for code in codes:
            for alias in code.aliases:
                if not re.match(_NAME_RE, alias) or re.match(_HEXLIKE_RE, alias):
                    raise self._fail(code.name, "aliases", f"alias {_shown(alias)} is not an upper-case "
                                     "identifier such as LLM_LINK_FAILED (letters, digits, _; not a number)")
            for spelling, field in code.spelled_by():
                if spelling.upper() in numbers:
                    raise self._fail(code.name, field,
                                     f"spelling {spelling!r} is also a number form of {numbers[spelling.upper()]}")
                other = names.setdefault(spelling.upper(), (code.name, field))
                if other[0] != code.name:
                    raise self._clash(spelling, (code.name, field), other)
            other_value = values.setdefault(code.value, code.name)
            if other_value != code.name:
                raise self._fail(code.name, "value", f"duplicate value {code.value:#x}: also {other_value}")

    def _clash(self, spelling: str, one: tuple[str, str], two: tuple[str, str]) -> RegistryError:
        """The error for two codes spelled alike, blamed on the alias if one side is an alias,
        else on the side a later file set (the file that brought the clash)."""
        def blame(side: tuple[str, str]) -> tuple[bool, int]:
            return (side[1] == "aliases", self.file_order.get(self._where(*side), 0))

        culprit, other = (one, two) if blame(one) >= blame(two) else (two, one)
        what = "an alias of" if other[1] == "aliases" else "the name of"
        return self._fail(culprit[0], culprit[1], f"{spelling!r} is already {what} {other[0]}")

    def _check_references(self, code: StatusCode, known: set[str], api_names: set[str]) -> None:
        for related in code.related:
            if related.upper() not in known:
                raise self._fail(code.name, "related", f"{related!r} is not a code of the registry")
        for view in code.views:
            listed = set(view.api_names)
            for field in ("meaning", "remedy"):
                text = getattr(view, field)
                for lang in LANGS:
                    for token in re.findall(_BACKTICK_RE, text.get(lang)):
                        ident = token.split("=")[0].strip()
                        if ident not in listed and ident.upper() not in known:
                            raise self._fail(
                                code.name, f"{view.api}.{field}.{lang}",
                                f"`{token}` is neither a code nor listed in functions/options/modes",
                            )
            for api_name in view.api_names:
                for lang in LANGS:
                    # `name` or `name=value` in backticks; a set lookup, not one regex per name
                    # compiled at every start of the command (issue 13: start-up time).
                    text = view.meaning.get(lang) + "\n" + view.remedy.get(lang)
                    shown = {t.split("=", 1)[0] for t in re.findall(_BACKTICK_RE, text)}
                    if api_name not in shown:
                        raise self._fail(
                            code.name, f"{view.api}.remedy.{lang}",
                            f"names no `{api_name}`, which the entry lists",
                        )
        # Causes, readings, settings and framework notes may name in backticks
        # any API name some view of the registry lists (so that an override that
        # trims one view's lists does not break the packaged causes), the code's
        # settings and their own `terms`; nothing else.
        setting_names = {s.name for s in code.settings}
        all_api_names = api_names
        for view in code.views:
            allowed = api_names | setting_names
            for i, cause in enumerate(view.causes, 1):
                field = f"{view.api}.causes[{i}]"
                _check_backticks({k: getattr(cause, k) for k in ("when", "check", "fix")},
                                 allowed | set(cause.terms), known, cause.terms,
                                 lambda f, r, field=field: self._fail(code.name, f"{field}.{f}", r))
            for i, reading in enumerate(view.readings, 1):
                field = f"{view.api}.readings[{i}]"
                texts = {k: t for k in ("meaning", "remedy") if (t := getattr(reading, k)) is not None}
                _check_backticks(texts, allowed | set(reading.terms), known, reading.terms,
                                 lambda f, r, field=field: self._fail(code.name, f"{field}.{f}", r))
        for i, setting in enumerate(code.settings, 1):
            field = f"settings[{i}]"
            _check_backticks({"about": setting.about}, all_api_names | setting_names | set(setting.terms),
                             known, setting.terms, lambda f, r, field=field: self._fail(code.name, f"{field}.{f}", r))
        for i, note in enumerate(code.frameworks, 1):
            field = f"frameworks[{i}]"
            _check_backticks({"does": note.does}, all_api_names | setting_names | set(note.terms),
                             known, note.terms, lambda f, r, field=field: self._fail(code.name, f"{field}.{f}", r))


def _check_backticks(texts: Mapping[str, Text], allowed: set[str], codes: set[str],
                     terms: tuple[str, ...], fail: Any) -> None:
    """Every backticked token of ``texts`` is a code, an ``allowed`` name (``name=value``
    allowed too) or a term; every term is backticked in each language somewhere."""
    for field, text in texts.items():
        for lang in LANGS:
            for token in re.findall(_BACKTICK_RE, text.get(lang)):
                ident = token.split("=")[0].strip()
                if token not in allowed and ident not in allowed and ident.upper() not in codes:
                    raise fail(f"{field}.{lang}", f"`{token}` is neither a code, a listed API name, "
                                                  "a setting of the code nor one of its terms")
    for term in terms:
        for lang in LANGS:
            if not any(f"`{term}`" in t.get(lang) for t in texts.values()):
                raise fail("terms", f"`{term}` is listed but not used in backticks in the {lang} text")


def _short(value: Any) -> bool:
    return (isinstance(value, str) and bool(value.strip()) and len(value) <= _SHORT_MAX
            and not re.search(_CONTROL_RE, value))


def _str_list(raw: Mapping[str, Any], field: str, fail: Any) -> tuple[str, ...]:
    value = raw.get(field, [])
    if not isinstance(value, list) or not all(_short(v) for v in value):
        raise fail(field, f"must be a list, each item {_SHORT_RULE}")
    return tuple(value)


_UNSAFE_URL_CHAR_RE = r"[\x00-\x20\x7f-\x9f]"  # quotes and <> are escaped where used


def _is_http_url(url: str) -> bool:
    """An absolute http(s) URL with a host and no whitespace or control characters."""
    scheme, sep, rest = url.partition("://")
    return bool(sep) and scheme.lower() in ("http", "https") and bool(rest) and \
        not rest.startswith("/") and not re.search(_UNSAFE_URL_CHAR_RE, url)


def _declared_names(raw: Mapping[str, Any]) -> set[str]:
    """API names (functions, options, modes) and setting names a raw [[code]] entry declares."""
    out: set[str] = set()
    for api in APIS:
        view = raw.get(api)
        if isinstance(view, dict):
            for field in ("functions", "options", "modes"):
                value = view.get(field)
                if isinstance(value, list):
                    out.update(v for v in value if isinstance(v, str))
    settings = raw.get("settings")
    if isinstance(settings, list):
        out.update(s["name"] for s in settings if isinstance(s, dict) and isinstance(s.get("name"), str))
    return out


def _spellings(raw: Mapping[str, Any]) -> list[str]:
    out = [raw["name"]]
    for api in APIS:
        view = raw.get(api)
        if isinstance(view, dict) and isinstance(view.get("name"), str):
            out.append(view["name"])
    aliases = raw.get("aliases", [])
    if isinstance(aliases, list):
        out.extend(a for a in aliases if isinstance(a, str))
    return out


def _text(raw: Any, fail: Any, field: str) -> Text:
    if not isinstance(raw, dict):
        raise fail(field, "missing: needs a table with 'en' and 'zh'")
    for lang in LANGS:
        value = raw.get(lang)
        if not isinstance(value, str) or not value.strip():
            raise fail(f"{field}.{lang}", "missing or empty")
        control = re.search(_TEXT_CONTROL_RE, value)
        if control:
            raise fail(f"{field}.{lang}", f"holds the control character U+{ord(control.group()):04X} "
                       "(registry text is plain text)")
    extra = set(raw) - set(LANGS)
    if extra:
        raise fail(f"{field}.{sorted(extra)[0]}", "unknown language (use en and zh)")
    return Text(en=raw["en"], zh=raw["zh"])


def _sort_key(code: StatusCode) -> tuple[int, int]:
    # Success, the LLM family by value, generic failure, runtime codes, -1.
    if code.value == 0:
        return (0, 0)
    if code.is_llm_layout:
        return (1, code.value)
    if code.value == 0xFFFFFFFF:
        return (2, 0)
    return (3, code.value) if code.value > 0 else (4, -code.value)


def load_registry(extra_files: Iterable[str | os.PathLike[str]] = (), *, packaged: bool = True) -> Registry:
    """Load the packaged registry plus ``extra_files`` (later files override earlier ones;
    a file given twice is read once).

    Returns a new :class:`Registry`. Raises :class:`RegistryError` naming the
    file, entry and field of the first problem found.
    """
    builder = _Builder()
    files: list[str] = []
    if packaged:
        files.append(packaged_registry_path())
        builder.add(read_packaged(), files[-1])
    seen: set[str] = set()
    for path in (os.fspath(f) for f in extra_files):
        if os.path.realpath(path) in seen:  # given twice (config and command line): read once
            continue
        seen.add(os.path.realpath(path))
        builder.add(read_toml(path), path)
        files.append(path)
    return builder.build(tuple(files))


@lru_cache(maxsize=1)
def default_registry() -> Registry:
    """The packaged registry, loaded once per process and cached.

    Read from ``model.marshal`` (:mod:`~sphinx_llmstatus.registry.compiled`), the
    model that ``compile.py`` built and checked in full with
    :func:`load_registry`, while it matches the TOML: checking again would be
    most of the ``llmstatus CODE`` start-up budget (issue 13). Without a fresh
    copy, the TOML is parsed and checked in full.
    """
    from . import compiled

    path = packaged_registry_path()
    data = _read_bytes(path)
    try:
        with open(os.path.join(DATA_DIR, compiled.MODEL_NAME), "rb") as fh:
            registry = compiled.loads(fh.read(), checksum(data), (path,))
    except OSError:
        registry = None
    if registry is not None:
        return registry
    builder = _Builder()
    builder.add(parse_toml(path, data), path)
    return builder.build((path,))
