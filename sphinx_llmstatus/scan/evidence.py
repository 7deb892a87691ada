"""The registry's evidence, indexed for the scan: which causes a log line proves or rules out.

Each cause of a code may carry ``evidence`` (:class:`~..registry.model.Evidence`):
the format string of an upstream log call, matched as its literal pieces in
order (linear), or a code whose earlier failure proves the cause. The scanner's
prefilter finds the lines holding an evidence literal in its one pass over the
stream (:attr:`Book.literals` join it, like the clue literals); :meth:`Book.read`
then says which evidence such a line holds.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..registry.model import Cause, Evidence, Registry, StatusCode


@dataclass(frozen=True, slots=True)
class Ref:
    """One evidence of one cause: the code's canonical name, the API whose view holds the cause,
    the cause's index in that view, the evidence's index in the cause."""

    code: str
    api: str
    cause: int
    evidence: int

    def of(self, code: StatusCode) -> tuple[Cause, Evidence] | None:
        """The cause and evidence this refers to in ``code`` (None when the registry has no such)."""
        view = code.view(self.api)
        if view is None or self.cause >= len(view.causes):
            return None
        cause = view.causes[self.cause]
        return (cause, cause.evidence[self.evidence]) if self.evidence < len(cause.evidence) else None


class Book:
    """Every evidence format of a registry, by the literal the prefilter looks for."""

    def __init__(self, registry: Registry) -> None:
        self._by_literal: dict[str, list[tuple[Ref, Evidence]]] = {}
        for code in registry.codes:
            for view in code.views:
                for i, cause in enumerate(view.causes):
                    for j, ev in enumerate(cause.evidence):
                        if ev.format:
                            self._by_literal.setdefault(ev.literal, []).append((Ref(code.name, view.api, i, j), ev))
        #: The literals of every evidence format, for the scanner's prefilter.
        self.literals: frozenset[str] = frozenset(self._by_literal)

    def read(self, line: str, literals: list[str] | None = None) -> tuple[Ref, ...]:
        """The evidence ``line`` holds (every piece of its format, in order); only of the formats
        whose literal is one of ``literals``, when given (the ones the prefilter found on it)."""
        found = self._by_literal.items() if literals is None else (
            (lit, self._by_literal[lit]) for lit in literals if lit in self._by_literal)
        return tuple(ref for lit, refs in found if lit in line for ref, ev in refs if ev.matches(line))


_BOOKS: dict[int, tuple[Registry, Book]] = {}


def book(registry: Registry) -> Book:
    """The :class:`Book` of ``registry``, built once per registry."""
    entry = _BOOKS.get(id(registry))
    if entry is None or entry[0] is not registry:
        if len(_BOOKS) >= 8:
            _BOOKS.clear()
        entry = _BOOKS[id(registry)] = (registry, Book(registry))
    return entry[1]
