"""The checked registry model, stored so that start-up skips the checks (issue 13).

``python -m sphinx_llmstatus.registry.compile`` builds the packaged registry
with :func:`~sphinx_llmstatus.registry.loader.load_registry` (every field and
reference checked) and writes it with :func:`dumps` to ``data/model.marshal``.
:func:`~sphinx_llmstatus.registry.loader.default_registry` reads it back with
:func:`loads`, which makes the records without checking them again: checking
is most of what ``llmstatus CODE`` would otherwise spend on its own work.

The file is in :mod:`marshal` format (the one ``.pyc`` files use for their
constants): built into the interpreter, so reading it imports nothing, and it
loads plain dicts, tuples, strings and integers about twice as fast as
``json``. Its plain-data format has not changed since Python 3.4. marshal is
not meant for untrusted bytes: only the package's own file is read this way;
registry files from other projects are TOML, parsed and checked in full. The file
records the CRC-32 of the TOML it was built from and :data:`FORMAT`; a copy
that matches neither, or does not load, is not used (the TOML is then built
and checked in full).

Encoding: a record is a tuple of its class's index in :data:`RECORDS`
followed by its slot values; a :class:`~sphinx_llmstatus.registry.model.Source`
inside another record is ``(-1, i)``, the ``i``-th of the registry's sources
(decoded first, so one object serves every reference); any other tuple (of
strings or records) stays a tuple.
"""

from __future__ import annotations

from .model import (
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
    _Record,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

#: Bump when the encoding or a record's slots change: older files are then ignored.
FORMAT = 1
MODEL_NAME = "model.marshal"
#: marshal's own format version written (4: Python 3.4 and later read it).
MARSHAL_VERSION = 4

#: The record classes, in the order of their index in the stored form.
RECORDS: tuple[type[_Record], ...] = (
    Text, Source, AppliesTo, Cause, Setting, FrameworkNote, Reading, Symptom, ApiView, StatusCode,
)
_SOURCE_REF = -1


def encode(registry: Registry, toml_crc32: str) -> dict[str, Any]:
    """The plain-data form of ``registry`` (a checked :class:`Registry`), tagged with ``toml_crc32``.

    Raises TypeError for a value the encoding has no form for (a new kind of
    field must be given one here, not silently dropped).
    """
    keys = list(registry.sources)
    index = {key: i for i, key in enumerate(keys)}

    def enc(value: Any, *, inline_source: bool = False) -> Any:
        if isinstance(value, Source) and not inline_source and registry.sources.get(value.key) is value:
            return (_SOURCE_REF, index[value.key])
        if isinstance(value, _Record):
            if type(value) not in RECORDS:
                raise TypeError(f"no stored form for record {type(value).__name__}")
            return (RECORDS.index(type(value)), *(enc(getattr(value, n)) for n in value.__slots__))
        if isinstance(value, tuple):
            if value and type(value[0]) is int:
                raise TypeError(f"no stored form for a tuple of numbers: {value!r}")
            return tuple(enc(v) for v in value)
        if value is None or type(value) in (str, int, bool):
            return value
        raise TypeError(f"no stored form for {type(value).__name__}: {value!r}")

    return {
        "format": FORMAT,
        "toml_crc32": toml_crc32,
        "model": (
            tuple((key, enc(registry.sources[key], inline_source=True)) for key in keys),
            tuple(enc(code) for code in registry.codes),
            tuple(enc(symptom) for symptom in registry.symptoms),
        ),
    }


def dumps(registry: Registry, toml_crc32: str) -> bytes:
    """The bytes of ``model.marshal`` for ``registry``: :func:`encode` in marshal format."""
    import marshal

    return marshal.dumps(encode(registry, toml_crc32), MARSHAL_VERSION)


def loads(data: bytes, toml_crc32: str, files: tuple[str, ...]) -> Registry | None:
    """The :class:`Registry` in ``data`` (bytes written by :func:`dumps`), or None.

    None when ``data`` is not a model of :data:`FORMAT` built from the TOML
    whose CRC-32 is ``toml_crc32`` (a stale or foreign copy) or is malformed:
    the caller then builds the registry from the TOML. ``files`` become
    :attr:`Registry.files`.
    """
    import marshal

    sources: list[Source] = []
    new, setter = object.__new__, object.__setattr__
    slots = [cls.__slots__ for cls in RECORDS]

    def decode(value: tuple[Any, ...]) -> Any:
        head = value[0] if value else None
        if type(head) is not int:  # a tuple of strings, or of records
            return tuple(map(decode, value)) if type(head) is tuple else value
        if head == _SOURCE_REF:
            return sources[value[1]]
        record = new(RECORDS[head])
        names = slots[head]
        # A plain loop: this runs for every record at every start (issue 13's budget).
        for i in range(len(names)):
            field = value[i + 1]
            setter(record, names[i], decode(field) if type(field) is tuple else field)
        return record

    try:
        document = marshal.loads(data)
        if document.get("format") != FORMAT or document.get("toml_crc32") != toml_crc32:
            return None
        raw_sources, raw_codes, raw_symptoms = document["model"]
        for _key, raw in raw_sources:
            sources.append(decode(raw))
        return Registry(codes=decode(raw_codes), sources={s.key: s for s in sources}, files=files,
                        symptoms=decode(raw_symptoms))
    except (ValueError, EOFError, KeyError, IndexError, TypeError, AttributeError):
        return None
