"""Read, merge, check and build registry TOML files, by the tables of :mod:`.schema`.

The packaged registry is every ``*.toml`` file of ``sphinx_llmstatus/registry/data``
(``registry.toml`` holds LLM DataDist's codes; the others the neighbouring
layers, the bindings' spellings, the engines and the log formats), read as
one set: an entry defined twice in it is an error. Extra files (Sphinx's
``llmstatus_registry_files``, the command's ``--registry``) use the same
format: a ``[[code]]`` whose ``name`` is a known spelling overrides only the
fields it sets, anything else adds an entry. Every error names the file, the
entry and the field.

``registry.jsonl`` beside the TOML is the packaged registry built and checked
(``python -m sphinx_llmstatus.registry.compile`` writes it): while the CRC-32
of every TOML file matches, :func:`~.packaged.default_registry` builds the model
from it without this module, which keeps ``llmstatus CODE`` fast.
"""

from __future__ import annotations

import os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Mapping
    from typing import Any

    from .schema import Spec

from .datafiles import packaged_registry_paths
from .errors import RegistryError
from .model import APIS, Registry, Source, StatusCode, family_order

#: Schema versions a file may state (version 1 files are version 2 files that use none of its additions).
SCHEMA_VERSIONS = (1, 2)
_PACKAGED = "<packaged>"  # the group of the packaged files: one set, no overrides inside it


class Where:
    """Where a value is being checked: its entry, its field path, and which file set that field."""

    __slots__ = ("entry", "path", "file_of", "api")

    def __init__(self, entry: str | None, file_of: Callable[[str], str], path: str = "",
                 api: str | None = None) -> None:
        self.entry, self.file_of, self.path, self.api = entry, file_of, path, api

    def at(self, key: str) -> Where:
        return Where(self.entry, self.file_of, f"{self.path}.{key}" if self.path else key, self.api)

    def item(self, index: int) -> Where:
        return Where(self.entry, self.file_of, f"{self.path}[{index}]", self.api)

    def within(self, api: str) -> Where:
        """The same place, inside the view of ``api``."""
        return Where(self.entry, self.file_of, self.path, api)

    def fail(self, reason: str) -> RegistryError:
        return RegistryError(self.file_of(self.path), reason, entry=self.entry, field=self.path or None)


# -- files -----------------------------------------------------------------------------------

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
        from .tomlwhere import locate_huge_integer

        entry, field = locate_huge_integer(data.decode("utf-8", "replace"))
        raise RegistryError(path, f"integer too large ({exc})", entry=entry, field=field) from None


def read_toml(path: str | os.PathLike[str]) -> dict[str, Any]:
    """Read and parse one TOML file; RegistryError naming the file on I/O or syntax errors."""
    path = os.fspath(path)
    return parse_toml(path, _read_bytes(path))


# -- merging ---------------------------------------------------------------------------------

class _Builder:
    """Merges raw TOML documents, remembering which file set each field, then builds the model."""

    def __init__(self) -> None:
        self.keyed: dict[str, dict[str, dict[str, Any]]] = {}  # table -> key -> raw
        self.codes: dict[str, dict[str, Any]] = {}  # canonical name -> raw entry
        self.aliases: dict[str, str] = {}  # any spelling (upper) -> canonical name
        self.origin: dict[tuple[str, str], str] = {}  # (entry, field path) -> file
        self.group_of: dict[str, str] = {}  # file -> its group (the packaged set, or itself)
        self.defined_in: dict[str, str] = {}  # canonical name -> file
        self.file_order: dict[str, int] = {}
        self.overridden: set[tuple[str, str]] = set()  # (canonical name, group) of overrides
        self.arrays: dict[str, dict[tuple[Any, ...], tuple[dict[str, Any], str, str]]] = {}

    def add(self, doc: Mapping[str, Any], file: str, group: str | None = None) -> None:
        from .schema import ARRAYS, KEYED, TOP_LEVEL, shown

        self.file_order.setdefault(file, len(self.file_order))
        self.group_of[file] = group or file
        version = doc.get("schema", SCHEMA_VERSIONS[-1])
        if type(version) is not int or version not in SCHEMA_VERSIONS:
            raise RegistryError(file, f"unsupported schema {shown(version)} (expected 1 or 2)", field="schema")
        unknown = set(doc) - TOP_LEVEL
        if unknown:
            raise RegistryError(file, f"unknown top-level key(s): {', '.join(sorted(unknown))}")
        for table in KEYED:
            self._add_keyed(table, doc.get(table, {}), file)
        codes = doc.get("code", [])
        if not isinstance(codes, list):
            raise RegistryError(file, "must be an array of tables ([[code]])", field="code")
        for index, raw in enumerate(codes, 1):
            self._add_code(raw, file, index)
        for table, (_spec, identity, _attr) in ARRAYS.items():
            self._add_array(table, identity, doc.get(table, []), file)

    def _add_keyed(self, table: str, raw_table: Any, file: str) -> None:
        if not isinstance(raw_table, dict):
            raise RegistryError(file, "must be a table of tables", field=table)
        entries = self.keyed.setdefault(table, {})
        for key, raw in raw_table.items():
            entry = f"{table}.{key}"
            if not isinstance(raw, dict):
                raise RegistryError(file, "must be a table", entry=entry)
            if key in entries and self.group_of[file] == self.group_of[self.origin[(entry, "")]] != file:
                raise RegistryError(file, f"{entry} is defined twice in the packaged registry", entry=entry)
            merged = dict(entries.get(key, {}))
            for field, value in raw.items():
                old = merged.get(field)
                # A text given in one language keeps the other (title.en alone keeps title.zh).
                merged[field] = {**old, **value} if isinstance(old, dict) and isinstance(value, dict) else value
                self.origin[(entry, field)] = file
            self.origin[(entry, "")] = file
            entries[key] = merged

    def _add_array(self, table: str, identity: tuple[str, ...], items: Any, file: str) -> None:
        if not isinstance(items, list):
            raise RegistryError(file, f"must be an array of tables ([[{table}]])", field=table)
        entries = self.arrays.setdefault(table, {})
        seen: set[tuple[Any, ...]] = set()
        for index, raw in enumerate(items, 1):
            entry = f"[[{table}]] #{index}"
            if not isinstance(raw, dict):
                raise RegistryError(file, "must be a table", entry=entry)
            ident = tuple(raw.get(k) for k in identity)
            if not all(isinstance(v, str | int) and not isinstance(v, bool) for v in ident):
                raise RegistryError(file, f"missing, or not a string{' or number' if table == 'shared' else ''}",
                                    entry=entry, field=identity[[isinstance(v, str | int) for v in ident].index(False)])
            label = f"{table}." + "/".join(map(str, ident))
            if ident in seen or (ident in entries and self.group_of[entries[ident][1]] == self.group_of[file]):
                raise RegistryError(file, f"{label} is defined twice", entry=label, field=identity[0])
            seen.add(ident)
            # A later file's entry with the same identity replaces the earlier one whole.
            entries[ident] = (raw, file, label)

    def _add_code(self, raw: Any, file: str, index: int) -> None:
        from .schema import CODE_SPEC

        entry = f"[[code]] #{index}"
        if not isinstance(raw, dict):
            raise RegistryError(file, "must be a table", entry=entry)
        name = raw.get("name")
        if not isinstance(name, str) or not name:
            raise RegistryError(file, "missing or not a string", entry=entry, field="name")
        unknown = set(raw) - CODE_SPEC.keys
        if unknown:
            raise RegistryError(file, f"unknown key(s): {', '.join(sorted(unknown))}", entry=name)
        group = self.group_of[file]
        canonical = self.aliases.get(name.upper())
        if canonical is not None and self.group_of[self.defined_in[canonical]] == group:
            raise RegistryError(file, f"duplicate name {name!r} (already defined in this file)", entry=name, field="name")
        if canonical is not None:
            if (canonical, group) in self.overridden:
                raise RegistryError(file, f"{name!r} is overridden twice in this file (merge the two [[code]] tables)",
                                    entry=name, field="name")
            self.overridden.add((canonical, group))
        if canonical is None:
            canonical = name
            self.codes[canonical] = {}
            self.defined_in[canonical] = file
        fields = {k: v for k, v in raw.items() if k != "name" or canonical == name}
        self._merge(self.codes[canonical], fields, canonical, "", file)
        target = self.codes[canonical]
        target.setdefault("name", canonical)
        for spelling in _spellings(target):
            self.aliases.setdefault(spelling.upper(), canonical)

    def _merge(self, target: dict[str, Any], raw: Mapping[str, Any], name: str, prefix: str, file: str) -> None:
        """Deep-merge ``raw`` into ``target``: an override sets only the leaves it names.

        ``python.meaning.en`` alone replaces the English meaning and keeps the
        Chinese one; every leaf remembers the file that set it, for errors.
        """
        for key, value in raw.items():
            path = f"{prefix}{key}"
            if isinstance(value, dict):
                if not isinstance(target.get(key), dict):
                    target[key] = {}
                self._merge(target[key], value, name, path + ".", file)
            else:
                target[key] = value
            self.origin[(name, path)] = file

    # -- where a field came from -------------------------------------------------------

    def code_file(self, name: str, field: str) -> str:
        """The file that set ``field`` of code ``name`` (or its nearest parent), for an error."""
        import re

        parts = re.sub(r"\[\d+\]", "", field).split(".")
        for n in range(len(parts), 0, -1):  # python.remedy.en -> python.remedy -> python
            found = self.origin.get((name, ".".join(parts[:n])))
            if found:
                return found
        return self.defined_in[name]

    def _code_files(self, name: str) -> Callable[[str], str]:
        return lambda path: self.code_file(name, path)

    def keyed_file(self, entry: str) -> Callable[[str], str]:
        return lambda path: self.origin.get((entry, path.split(".", 1)[0])) or self.origin[(entry, "")]

    # -- building ----------------------------------------------------------------------

    def build(self, files: tuple[str, ...]) -> Registry:
        from .schema import ARRAYS, CODE_SPEC, KEYED

        ctx = Context(self)
        for key in self.keyed.get("sources", {}):  # sources first: everything else cites them
            ctx.sources[key] = ctx.build(KEYED["sources"], self.keyed["sources"][key],
                                         Where(f"sources.{key}", self.keyed_file(f"sources.{key}")), key=key)
        tables: dict[str, dict[str, Any]] = {}
        for table, spec in KEYED.items():
            if table != "sources":
                tables[table] = {key: ctx.build(spec, raw, Where(f"{table}.{key}", self.keyed_file(f"{table}.{key}")),
                                                key=key)
                                 for key, raw in self.keyed.get(table, {}).items()}
        ctx.families = tables["families"]
        codes = [ctx.build(CODE_SPEC, raw, Where(name, self._code_files(name))) for name, raw in self.codes.items()]
        arrays = {table: tuple(ctx.build(spec, raw, Where(label, _always(file)))
                               for raw, file, label in self.arrays.get(table, {}).values())
                  for table, (spec, _identity, _attr) in ARRAYS.items()}
        families = tables["families"]
        _check_unique(self, codes, families)
        order = {key: i for i, key in enumerate(sorted(families, key=family_order))}
        codes.sort(key=lambda c: (order.get(c.family, 0), *_sort_key(c)))
        registry = Registry(codes=tuple(codes), sources=ctx.sources, files=files, symptoms=arrays["symptom"],
                            families=families, frameworks=tables["frameworks"], engines=tables["engines"],
                            bindings=tables["bindings"], bound_names=arrays["spelling"], returns=arrays["returns"],
                            shared=arrays["shared"], log_formats=arrays["log_format"],
                            log_clues=arrays["log_clue"])
        _check_bound_names(registry, self.arrays.get("spelling", {}))
        return registry


class Context:
    """What checking one value needs: the built sources, the keys of every table, the codes' spellings."""

    def __init__(self, builder: _Builder) -> None:
        self.builder = builder
        self.sources: dict[str, Source] = {}
        self.families: dict[str, Any] = {}
        self.keys = {table: set(entries) for table, entries in builder.keyed.items()}

    def family(self, key: str) -> Any:
        """The built family ``key`` (families are built before codes), or None."""
        return self.families.get(key)

    def resolve(self, table: str, value: str) -> str | None:
        """The stored form of a reference to ``table`` (a code's canonical name), or None if unknown."""
        if table == "codes":
            return self.builder.aliases.get(value.upper())
        return value if value in self.keys.get(table, ()) else None

    def build(self, spec: Spec, raw: Any, where: Where, **extra: Any) -> Any:
        """Check ``raw`` against ``spec`` and build its model record (``extra``: slots set by the caller)."""
        if not isinstance(raw, dict):
            raise where.fail("must be a table")
        unknown = set(raw) - spec.keys
        if unknown:
            raise where.at(sorted(unknown)[0]).fail("unknown key")
        values = dict(extra)
        for field in spec.fields:
            if field.key in raw:
                values[field.attr] = field.kind.build(raw[field.key], where.at(field.key), self)
            elif field.required:
                raise where.at(field.key).fail(f"missing: {field.kind.doc.replace('`', '')}")
            elif field.default is not None:
                values[field.attr] = field.default
        record = spec.cls(**values)
        for check in spec.checks:
            check(record, where, self)
        return record

    def source_api_clash(self, view: Any, where: Where) -> RegistryError:
        """The error for a view citing another API's source: blamed on the file that changed
        the source's API when that file came later than the view's."""
        source = view.source
        entry = f"sources.{source.key}"
        source_file = self.builder.origin.get((entry, "api")) or self.builder.origin[(entry, "")]
        view_file = where.at("source").file_of(where.at("source").path)
        order = self.builder.file_order
        if order.get(source_file, 0) > order.get(view_file, 0):
            return RegistryError(source_file, f"is {source.api!r}, but {where.entry} [code.{view.api}] cites this source",
                                 entry=entry, field="api")
        return where.at("source").fail(f"source {source.key!r} belongs to the {source.api} API")


def _always(file: str) -> Callable[[str], str]:
    return lambda _path: file


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


def _check_unique(builder: _Builder, codes: list[StatusCode], families: Mapping[str, Any]) -> None:
    """Spellings name one code each and are no number; values are unique among the families whose
    numbers are their values (HCCL's are read through its own error-number form)."""
    import re

    fail = builder.code_file
    names: dict[str, tuple[str, str]] = {}
    values: dict[int, str] = {}
    by_value = [c for c in codes if c.value is not None
                and (families.get(c.family) is None or families[c.family].module is None)]
    numbers = {form.upper(): code.name for code in by_value for form in code.number_forms}
    for code in codes:
        for alias in code.aliases:
            if re.match(r"^(?:0X)?[0-9A-F]+$", alias):  # an alias like DEADBEEF would shadow a hex number
                raise RegistryError(fail(code.name, "aliases"), f"alias {alias!r} is not an upper-case identifier "
                                    "such as LLM_LINK_FAILED (letters, digits, _; not a number)",
                                    entry=code.name, field="aliases")
        for spelling, field in code.spelled_by():
            if spelling.upper() in numbers:
                raise RegistryError(fail(code.name, field), f"spelling {spelling!r} is also a number form of "
                                    f"{numbers[spelling.upper()]}", entry=code.name, field=field)
            other = names.setdefault(spelling.upper(), (code.name, field))
            if other[0] != code.name:
                raise _clash(builder, spelling, (code.name, field), other)
    for code in by_value:
        other_value = values.setdefault(code.value or 0, code.name)
        if other_value != code.name:
            raise RegistryError(fail(code.name, "value"), f"duplicate value {code.value:#x}: also {other_value}",
                                entry=code.name, field="value")


def _clash(builder: _Builder, spelling: str, one: tuple[str, str], two: tuple[str, str]) -> RegistryError:
    """The error for two codes spelled alike, blamed on the alias if one side is an alias,
    else on the side a later file set (the file that brought the clash)."""
    def blame(side: tuple[str, str]) -> tuple[bool, int]:
        return (side[1] == "aliases", builder.file_order.get(builder.code_file(*side), 0))

    culprit, other = (one, two) if blame(one) >= blame(two) else (two, one)
    what = "an alias of" if other[1] == "aliases" else "the name of"
    return RegistryError(builder.code_file(*culprit), f"{spelling!r} is already {what} {other[0]}",
                         entry=culprit[0], field=culprit[1])


def _check_bound_names(registry: Registry, raw: Mapping[tuple[Any, ...], tuple[dict[str, Any], str, str]]) -> None:
    """A binding's name finds one code: never another code's spelling, nor another binding's name for
    another code."""
    seen: dict[str, str] = {}
    for spelled, (_raw, file, label) in zip(registry.bound_names, raw.values()):
        code = registry.get(spelled.name)
        if code is not None and code.name != spelled.code:
            raise RegistryError(file, f"{spelled.name!r} is a spelling of {code.name}", entry=label, field="name")
        other = seen.setdefault(spelled.name.casefold(), spelled.code)
        if other != spelled.code:
            raise RegistryError(file, f"{spelled.name!r} already spells {other}", entry=label, field="name")


def _sort_key(code: StatusCode) -> tuple[int, int]:
    # Success, the LLM family by value, generic failure, runtime codes, -1; string codes last.
    if code.value is None:
        return (5, 0)
    if code.value == 0:
        return (0, 0)
    if code.is_llm_layout:
        return (1, code.value)
    if code.value == 0xFFFFFFFF:
        return (2, 0)
    return (3, code.value) if code.value > 0 else (4, -code.value)


# -- entry points ----------------------------------------------------------------------------

def _packaged_documents() -> list[tuple[str, dict[str, Any]]]:
    return [(path, read_toml(path)) for path in packaged_registry_paths()]


def load_registry(extra_files: Iterable[str | os.PathLike[str]] = (), *, packaged: bool = True) -> Registry:
    """Load the packaged registry plus ``extra_files`` (later files override earlier ones;
    a file given twice is read once).

    Returns a new :class:`Registry`. Raises :class:`RegistryError` naming the
    file, entry and field of the first problem found.
    """
    builder = _Builder()
    files: list[str] = []
    if packaged:
        for path, doc in _packaged_documents():
            files.append(path)
            builder.add(doc, path, _PACKAGED)
    seen: set[str] = set()
    for path in (os.fspath(f) for f in extra_files):
        if os.path.realpath(path) in seen:  # given twice (config and command line): read once
            continue
        seen.add(os.path.realpath(path))
        builder.add(read_toml(path), path)
        files.append(path)
    return builder.build(tuple(files))
