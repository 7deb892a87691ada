"""``registry.json``: the packaged registry, built and checked, as one reviewable JSON text.

``python -m sphinx_llmstatus.registry.compile`` writes it with :func:`dumps`
from the registry :func:`~.loader.load_registry` built and checked; it holds
the same tables and keys as the TOML (see :mod:`.schema`), merged, with every
code reference under its canonical name and nothing left to check.
:func:`load` builds the model from it without checking again, while the
CRC-32 of every packaged TOML file matches the ones it records (a stale copy
is never used: the TOML is then checked in full). A test fails while the file
is stale (``make registry`` refreshes it).
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

    from .schema import Spec

from .model import Registry, Source, _Record

#: Bumped when the stored form changes: an older file is then ignored.
FORMAT = 2
_new, _set = object.__new__, object.__setattr__


def _encode(spec: Spec, record: _Record) -> dict[str, Any]:
    from . import schema as s

    out: dict[str, Any] = {}
    for field in spec.fields:
        value = getattr(record, field.attr)
        if value is None or value == () or (field.default is not None and value == field.default
                                            and not isinstance(field.kind, s.TableKind)):
            continue
        out[field.key] = _value(field.kind, value)
    return out


def _value(kind: Any, value: Any) -> Any:
    from . import schema as s

    if isinstance(kind, s.TextKind):
        return {"en": value.en, "zh": value.zh}
    if isinstance(kind, s.SourceKind):
        return value.key
    if isinstance(kind, s.CitationsKind):
        return [source.citation for source in value]
    if isinstance(kind, s.ListKind):
        return [_value(kind.item, v) for v in value]
    if isinstance(kind, s.RangesKind):
        return [list(pair) for pair in value]
    if isinstance(kind, s.TableKind):
        return _encode(kind.spec, value)
    if isinstance(kind, s.ArrayKind):
        return [_encode(kind.spec, v) for v in value]
    return value


def encode(registry: Registry, checksums: Mapping[str, str]) -> dict[str, Any]:
    """The stored form of a checked ``registry`` built from TOML files with these ``checksums``."""
    from .schema import ARRAYS, CODE_SPEC, KEYED

    doc: dict[str, Any] = {"format": FORMAT, "toml_crc32": dict(checksums)}
    for table, spec in KEYED.items():
        entries = registry.sources if table == "sources" else getattr(registry, table)
        doc[table] = {key: _encode(spec, record) for key, record in entries.items()}
    doc["code"] = [_encode(CODE_SPEC, code) for code in registry.codes]
    for table, (spec, _identity, attr) in ARRAYS.items():
        doc[table] = [_encode(spec, record) for record in getattr(registry, attr)]
    return doc


def dumps(registry: Registry, checksums: Mapping[str, str]) -> str:
    """The text of ``registry.json``: :func:`encode`, indented, keys sorted, UTF-8 as it is."""
    import json

    return json.dumps(encode(registry, checksums), ensure_ascii=False, indent=1, sort_keys=True) + "\n"


class Loader:
    """Builds records from the stored form: the sources, and each citation once."""

    def __init__(self) -> None:
        self.sources: dict[str, Source] = {}
        self._cited: dict[str, Source] = {}

    def cite(self, citation: str) -> Source:
        found = self._cited.get(citation)
        if found is None:
            key, _, lines = citation.partition("#")
            found = self._cited[citation] = self.sources[key].at(lines) if lines else self.sources[key]
        return found

    def record(self, spec: Spec, raw: Mapping[str, Any], **extra: Any) -> Any:
        # Plain loops over the keys present: this runs for every record at every start of
        # `llmstatus CODE`, so the record is made without _Record.__init__'s checks.
        fields = spec.by_key
        for key, value in raw.items():
            attr, plain, load = fields[key]
            extra[attr] = value if plain else load(value, self, key)
        record: Any = _new(spec.cls)
        get = extra.get
        for name, default in spec.slot_defaults:
            _set(record, name, get(name, default))
        return record


def loads(text: str | bytes, checksums: Mapping[str, str], files: tuple[str, ...]) -> Registry | None:
    """The registry stored in ``text``, or None when it was built from other TOML files (or is damaged)."""
    import json

    from .schema import ARRAYS, CODE_SPEC, KEYED

    try:
        doc = json.loads(text)
        if doc.get("format") != FORMAT or doc.get("toml_crc32") != dict(checksums):
            return None
        ctx = Loader()
        tables: dict[str, Any] = {}
        for table, spec in KEYED.items():
            entries = {key: ctx.record(spec, raw, key=key) for key, raw in doc[table].items()}
            if table == "sources":
                ctx.sources = entries
            tables[table] = entries
        codes = tuple(ctx.record(CODE_SPEC, raw) for raw in doc["code"])
        arrays = {attr: tuple(ctx.record(spec, raw) for raw in doc[table])
                  for table, (spec, _identity, attr) in ARRAYS.items()}
        return Registry(codes=codes, files=files, **tables, **arrays)  # type: ignore[arg-type]
    except (ValueError, KeyError, TypeError, AttributeError, IndexError):
        return None


def load(path: str, checksums: Mapping[str, str], files: tuple[str, ...]) -> Registry | None:
    """:func:`loads` of the file at ``path``; None when it is missing, stale or damaged."""
    try:
        with open(path, "rb") as fh:
            return loads(fh.read(), checksums, files)
    except OSError:
        return None
