"""What a dataclass gives a record of the scan that many lines make (a hit, a token), without
importing :mod:`dataclasses`.

Importing dataclasses (it imports :mod:`inspect`) and making the scan's records with it was an
eighth of every scan's start. The scan's rarer records are named tuples; these two are not, as
CPython 3.11 reads a slot in one specialised step and a named tuple's field through a generic
lookup (a flood of code lines took a tenth more instructions with named-tuple hits). A record
class names its fields once, in ``__slots__``, in the order of its ``__init__``'s parameters
(``tests/test_scan_record.py`` checks it), and writes its ``__init__`` as a dataclass would
generate it.
"""

from __future__ import annotations

from typing import Any


class Record:
    """Field-wise equality, hashing and ``repr``, and :meth:`_replace`, over ``__slots__``."""

    __slots__: tuple[str, ...] = ()

    def _fields(self) -> tuple[Any, ...]:
        return tuple(getattr(self, name) for name in self.__slots__)

    def _replace(self, **changes: Any) -> Any:
        """A copy with ``changes`` (as a named tuple's ``_replace``)."""
        unknown = changes.keys() - self.__slots__
        if unknown:
            raise TypeError(f"{type(self).__name__} has no fields {sorted(unknown)}")
        return type(self)(*(changes[n] if n in changes else getattr(self, n) for n in self.__slots__))

    def __reduce__(self) -> tuple[type, tuple[Any, ...]]:
        # Pickled as its class and its fields, made again by ``__init__``: a ``-j`` worker's
        # spool holds every hit it found (the default pickles a dict of slot names per hit).
        return type(self), self._fields()

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return self._fields() == other._fields()

    def __hash__(self) -> int:
        return hash(self._fields())

    def __repr__(self) -> str:
        inner = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.__slots__)
        return f"{type(self).__name__}({inner})"
