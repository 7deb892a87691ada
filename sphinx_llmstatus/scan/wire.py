"""Hits across a process boundary: registry records travel as their keys, not as copies.

A ``-j N`` worker returns its events to the command through a pipe, and the scan's
helper process (:mod:`.helper`) the hits a shape of line makes (:class:`~.readahead.Premade`).
A :class:`~.hit.Hit` holds registry records (its code, the other layer's code,
the symptom); pickled as they are they would be copied per batch and lose
their identity. :func:`pack` replaces each with its key, :class:`Unpacker` looks
it up again in the command's registry, which was loaded from the same files.
"""

from __future__ import annotations

from typing import Any

from ..registry.model import Registry, StatusCode
from .events import Event, Found
from .hit import Hit


def _code_key(code: StatusCode | None) -> tuple[str, int | None] | None:
    return None if code is None else (code.family, code.value)


def pack(event: Event) -> Event:
    """``event`` with the registry records of its hits replaced by their keys."""
    if not isinstance(event, Found):
        return event
    return event._replace(hits=pack_hits(event.hits))


def pack_hits(hits: list[Hit]) -> list[Hit]:
    """Copies of ``hits`` with their registry records replaced by their keys."""
    # The key stands in the field of the record it names until Unpacker puts the record back.
    return [h._replace(code=_code_key(h.code), related=_code_key(h.related), other=_code_key(h.other),
                       symptom=getattr(h.symptom, "id", None)) for h in hits]


class Unpacker:
    """Turns packed events back into events with the registry's own records."""

    def __init__(self, registry: Registry) -> None:
        self._registry = registry
        self._codes: dict[tuple[str, int], StatusCode | None] = {}
        self._symptoms = {s.id: s for s in registry.symptoms}

    def _code(self, key: Any) -> StatusCode | None:
        if key is None:
            return None
        if key not in self._codes:
            self._codes[key] = self._registry.by_family_value(*key)
        return self._codes[key]

    def __call__(self, event: Event) -> Event:
        if isinstance(event, Found):
            self.hits(event.hits)
        return event

    def hits(self, hits: list[Hit]) -> list[Hit]:
        """``hits`` (packed, this process's own unpickled copies) with their records put back in place."""
        for h in hits:
            for field in ("code", "related", "other"):
                setattr(h, field, self._code(getattr(h, field)))
            h.symptom = self._symptoms.get(h.symptom)
        return hits
