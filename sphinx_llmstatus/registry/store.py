"""``registry.jsonl``: the packaged registry, built and checked, as reviewable JSON Lines.

``python -m sphinx_llmstatus.registry.compile`` writes it with :func:`dumps`
from the registry :func:`~.loader.load_registry` built and checked; it holds
the same tables and keys as the TOML (see :mod:`.schema`), merged, with every
code reference under its canonical name and nothing left to check.

The first line says how to read the rest: the format, the CRC-32 of every
packaged TOML file it was built from, each record's fields with the *form* of
their values (below), and each table's name, number of lines and records. Then
comes one line per entry. :func:`load` builds the model from it with no schema
at hand and without checking again, while the checksums match (a stale copy is
never used: the TOML is then checked in full). A test fails while the file is
stale (``make registry`` refreshes it).

The form of a value, as :attr:`.schema.Kind.form` declares it: ``null`` (as it
is), ``"tuple"`` (a list of such values), ``"text"`` (``{"en", "zh"}``),
``"source"`` (a key of ``sources``), ``"citations"`` (``key#L1-L2`` strings),
``"ranges"`` (``[low, high]`` pairs), ``["list", form]``, ``["record", name]``
or ``["record", name, slot]`` (a nested record; ``slot`` gets the key it is
stored under) and ``["records", name]`` (a list of records).
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping
    from typing import Any

    from .schema import Spec

from . import model
from .model import CodeKey, LazyMap, Registry, Source, Table

#: Bumped when the stored form changes: an older file is then ignored.
FORMAT = 5
_new, _set = object.__new__, object.__setattr__

# -- writing -------------------------------------------------------------------------------


def _encode(spec: Spec, record: Any) -> dict[str, Any]:
    from . import schema as s

    out: dict[str, Any] = {}
    for field in spec.fields:
        value = getattr(record, field.attr)
        if value is None or value == () or (field.default is not None and value == field.default
                                            and not isinstance(field.kind, s.TableKind)):
            continue
        out[field.key] = _value(field.kind.form, value, s.SPECS)
    return out


def _value(form: Any, value: Any, specs: Mapping[str, Spec]) -> Any:
    """``value`` of the model in its stored ``form`` (the inverse of :meth:`Reader.decoder`)."""
    if form is None or form == "tuple":
        return value
    if form == "text":
        return {"en": value.en, "zh": value.zh}
    if form == "source":
        return value.key
    if form == "citations":
        return [source.citation for source in value]
    if form == "ranges":
        return [list(pair) for pair in value]
    shape, inner, *_slot = form
    if shape == "list":
        return [_value(inner, v, specs) for v in value]
    if shape == "record":
        return _encode(specs[inner], value)
    return [_encode(specs[inner], v) for v in value]  # "records"


def _tables(registry: Registry) -> list[tuple[list[Any], list[Any]]]:
    """Each table's header row (name, lines, shape, record, registry argument) and lines."""
    from .schema import ARRAYS, CODE_SPEC, KEYED

    tables: list[tuple[list[Any], list[Any]]] = []
    for table, spec in KEYED.items():
        entries = registry.sources if table == "sources" else getattr(registry, table)
        tables.append(([table, "keyed", spec.title, table],
                       [[key, _encode(spec, record)] for key, record in entries.items()]))
    # What the registry indexes each code by, so that a start reads no code it is not asked for;
    # one line, read whole at every start.
    keys = [[k.name, k.value, k.family, [list(s) for s in k.spelled], list(k.becomes)]
            for k in map(CodeKey.of, registry.codes)]
    tables.append((["code_keys", "code_keys", None, "keys"], [keys]))
    tables.append((["code", "codes", CODE_SPEC.title, "codes"], [_encode(CODE_SPEC, c) for c in registry.codes]))
    for table, (spec, _identity, attr) in ARRAYS.items():
        tables.append(([table, "array", spec.title, attr], [_encode(spec, r) for r in getattr(registry, attr)]))
    for row, lines in tables:
        row.insert(1, len(lines))
    return tables


def dumps(registry: Registry, checksums: Mapping[str, str]) -> str:
    """The text of ``registry.jsonl``: the header line, then one line per entry, keys sorted, UTF-8."""
    import json

    from .schema import SPECS

    tables = _tables(registry)
    records = {title: {"class": spec.cls.__name__,
                       "fields": {f.key: [f.attr, f.kind.form] for f in spec.fields}}
               for title, spec in SPECS.items()}
    header = {"format": FORMAT, "toml_crc32": dict(checksums), "records": records,
              "tables": [row for row, _lines in tables]}
    lines = [header, *(line for _row, table in tables for line in table)]
    return "".join(json.dumps(line, ensure_ascii=False, sort_keys=True) + "\n" for line in lines)


# -- reading -------------------------------------------------------------------------------


class Stored:
    """One line of the stored file, not parsed yet."""

    __slots__ = ("line",)

    def __init__(self, line: bytes) -> None:
        self.line = line

    def parsed(self) -> Any:
        return parse_json(self.line)

    def holds(self, text: str) -> bool:
        """True when the entry's JSON text holds ``text`` (a cheap test before parsing it)."""
        return text.encode("utf-8") in self.line


class _Shape:
    """How to build one kind of record from its stored form: its class, and per key its slot and
    the function that decodes the value (None: stored as it is)."""

    __slots__ = ("cls", "fields", "defaults")

    def __init__(self, cls: type, fields: dict[str, tuple[str, Callable[[Any, str], Any] | None]]) -> None:
        self.cls, self.fields = cls, fields
        defaults: dict[str, Any] = getattr(cls, "_defaults", {})
        self.defaults = tuple((name, defaults.get(name)) for name in getattr(cls, "__slots__", ()))


class Reader:
    """Builds records from the stored form, as its header describes them: the sources, each citation
    once, and each record without :class:`~.model._Record`'s checks (the file holds checked values)."""

    def __init__(self, records: Mapping[str, Any]) -> None:
        self.sources: Mapping[str, Source] = {}
        self._cited: dict[str, Source] = {}
        self._shapes: dict[str, _Shape] = {}
        self._simple: dict[str, Callable[[Any, str], Any]] = {
            "tuple": lambda v, _k: tuple(v), "text": _text, "ranges": _ranges,
            "source": lambda v, _k: self.sources[v], "citations": lambda v, _k: tuple(map(self.cite, v))}
        for title, described in records.items():  # nested records are looked up when decoded
            cls = getattr(model, described["class"])
            if not (isinstance(cls, type) and issubclass(cls, model._Record)):
                raise ValueError(f"{described['class']!r} is not a record of the model")
            self._shapes[title] = _Shape(cls, {key: (attr, self.decoder(form))
                                               for key, (attr, form) in described["fields"].items()})

    def cite(self, citation: str) -> Source:
        found = self._cited.get(citation)
        if found is None:
            key, _, lines = citation.partition("#")
            found = self._cited[citation] = self.sources[key].at(lines) if lines else self.sources[key]
        return found

    def decoder(self, form: Any) -> Callable[[Any, str], Any] | None:
        """The function that turns a stored value of ``form`` (under a key) into the model's."""
        if form is None:
            return None
        if isinstance(form, str):
            return self._simple[form]
        shape, inner, *slot = form
        if shape == "list":
            item = self.decoder(inner)
            return (lambda v, _k: tuple(v)) if item is None else (lambda v, k: tuple(item(x, k) for x in v))
        if shape == "record":
            return (lambda v, k: self.record(inner, v, **{slot[0]: k})) if slot else (lambda v, _k: self.record(inner, v))
        if shape == "records":
            return lambda v, _k: tuple(self.record(inner, x) for x in v)
        raise ValueError(f"unknown form {form!r}")

    def record(self, title: str, raw: Mapping[str, Any], **extra: Any) -> Any:
        # Plain loops over the keys present: this runs for every record a start reads.
        shape = self._shapes[title]
        fields = shape.fields
        for key, value in raw.items():
            attr, decode = fields[key]
            extra[attr] = value if decode is None else decode(value, key)
        record: Any = _new(shape.cls)
        get = extra.get
        for name, default in shape.defaults:
            _set(record, name, get(name, default))
        return record

    def builder(self, title: str) -> Callable[[Any], Any]:
        """A function that builds a record from its stored form (or the line that holds it)."""
        return lambda raw: self.record(title, raw.parsed() if isinstance(raw, Stored) else raw)

    def keyed(self, title: str) -> Callable[[str, Any], Any]:
        """A function that builds the record stored under a key of its table (or the line that holds it)."""
        return lambda key, raw: self.record(title, raw.parsed()[1] if isinstance(raw, Stored) else raw, key=key)


def _text(value: Mapping[str, str], _key: str) -> model.Text:
    text = _new(model.Text)
    _set(text, "en", value["en"])
    _set(text, "zh", value["zh"])
    return text


def _ranges(value: list[list[int]], _key: str) -> tuple[tuple[int, int], ...]:
    return tuple((low, high) for low, high in value)


#: The tables a start reads only in part: each line stays bytes until it is read
#: (``llmstatus CODE`` reads one code, its engine rows and the sources they cite, of about 900 lines).
_BY_LINE = frozenset({"sources", "code", "returns", "symptom", "log_format"})


def _read_tables(header: Mapping[str, Any], lines: list[bytes], reader: Reader) -> dict[str, Any]:
    """The :class:`~.model.Registry` arguments of each table of the header, from its lines."""
    args: dict[str, Any] = {}
    row = 1
    for name, count, shape, title, arg in header["tables"]:
        lazy = name in _BY_LINE
        rows: list[Any] = list(map(Stored if lazy else parse_json, lines[row:row + count]))
        row += count
        if shape == "keyed":
            entries = {key_of(r.line): r for r in rows} if lazy else dict(rows)
            # Built when read: a lookup cites a few sources and reads an engine or two.
            args[arg] = LazyMap(entries, reader.keyed(title))
            if arg == "sources":
                reader.sources = args[arg]
        elif shape == "code_keys":
            (keys,) = rows
            args[arg] = tuple(map(CodeKey, keys))  # lists where a built key has tuples: read alike
        elif shape == "codes":  # built when first asked for
            args[arg], args["build"] = rows, reader.builder(title)
        else:  # "array": records built when first read
            args[arg] = Table(rows, reader.builder(title))
    if lines[row:] != [b""]:
        raise ValueError("the lines do not add up to the header's tables")
    return args


def loads(text: str | bytes, checksums: Mapping[str, str], files: tuple[str, ...]) -> Registry | None:
    """The registry stored in ``text``, or None when it was built from other TOML files (or is damaged)."""
    try:
        lines = (text.encode("utf-8") if isinstance(text, str) else text).split(b"\n")
        header = parse_json(lines[0])
        if header.get("format") != FORMAT or header.get("toml_crc32") != dict(checksums):
            return None
        args = _read_tables(header, lines, Reader(header["records"]))
        if len(args["codes"]) != len(args["keys"]):
            return None
        return Registry(files=files, **args)
    except (ValueError, KeyError, TypeError, AttributeError, IndexError):
        return None


def load(path: str, checksums: Mapping[str, str], files: tuple[str, ...]) -> Registry | None:
    """:func:`loads` of the file at ``path``; None when it is missing, stale or damaged."""
    try:
        with open(path, "rb") as fh:
            return loads(fh.read(), checksums, files)
    except OSError:
        return None


# -- JSON without the json package -----------------------------------------------------------


class _ScannerContext:
    """What :class:`json.JSONDecoder` gives its C scanner: plain JSON, no hooks."""

    strict = True
    object_hook = object_pairs_hook = parse_constant = None
    parse_float, parse_int = float, int
    memo: dict[str, str] = {}


_scan: list[Any] = []


def _scan_at(text: str, index: int) -> tuple[Any, int]:
    """The JSON value that starts at ``index`` of ``text``, and where it ends, through the C scanner of
    ``_json`` when the interpreter has it: importing the :mod:`json` package compiles its regular
    expressions, about a thirtieth of `llmstatus CODE`'s instructions, for a file that needs none."""
    if not _scan:
        try:
            from _json import make_scanner
        except ImportError:  # an interpreter without the C accelerator
            import json

            _scan.append(json.JSONDecoder().raw_decode)
        else:
            _scan.append(make_scanner(_ScannerContext()))  # type: ignore[arg-type]
    try:
        return _scan[0](text, index)
    except StopIteration as exc:  # the C scanner's way of saying "no value here"
        raise ValueError(f"no JSON value at {exc.value}") from None


def parse_json(line: bytes) -> Any:
    """``json.loads(line)`` of one line of the stored file (UTF-8, no surrounding space)."""
    text = line.decode("utf-8")
    value, end = _scan_at(text, 0)
    if end != len(text):
        raise ValueError(f"extra data after JSON at {end}")
    return value


def key_of(line: bytes) -> str:
    """The key of a keyed table's line (``["key", {...}]``), the rest of it not parsed."""
    if not line.startswith(b'["'):
        raise ValueError("not a keyed entry")
    raw = line[2:line.index(b'"', 2)]
    # Without a backslash the first quote closes the key, which is then its UTF-8 bytes as they are.
    return raw.decode("utf-8") if b"\\" not in raw else _scan_at(line.decode("utf-8"), 1)[0]
