"""Ctrl-C that came while another frame ran: what a suspended scan still gives.

A scan is a chain of generators (the reader and scanner, ``-C``'s groups, the diagnosis, the
events). Ctrl-C raises in whichever frame runs: while the scanner reads, it gives the hits of the
lines read and ends; while the command writes a hit or the diagnosis judges one, the generators
below are suspended, holding hits of lines already read. Each layer tells the one below with
:func:`after_interrupt`, which gives what that one still gives, so the report keeps every line
read; :func:`relay` is a layer's loop that does so. What must not be cut halfway (a line read, a
block's line count, a message to the helper) is done with SIGINT held back (:func:`held_back`).

A value taken with SIGINT held back must be kept where the layer's interrupt path finds it, not
in a local variable or a return value: the interrupt held back raises as the hold ends, and a
value on its way out is lost (a run of 1,024 hits of a flood was). A value goes up through a
``yield`` whole (the next frame stores it before Python looks at signals again), and
:func:`relay` hands it on to its step with SIGINT held back.
"""

from __future__ import annotations

import signal
from contextlib import contextmanager, nullcontext
from typing import Any, TypeVar

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Iterator
    from contextlib import AbstractContextManager

T = TypeVar("T")
U = TypeVar("U")


_HELD = frozenset({signal.SIGINT, signal.SIGTERM})


class _Holds:
    """The holds entered and not yet left (all in the main thread, where Python runs its signal
    handlers), and whether a SIGINT came meanwhile (:func:`deferred`)."""

    depth = 0
    pending = False


def deferred() -> bool:
    """For a SIGINT handler: whether a hold is on, the interrupt then raised as it ends. The mask
    holds SIGINT back from this thread only: the system gives it to another thread that does not
    (a test's, a library's), and Python runs the handler in this one within the hold all the
    same (a test lost hits so)."""
    if _Holds.depth:
        _Holds.pending = True
        return True
    return False


@contextmanager
def _held_back(discard: bool = False) -> Iterator[None]:
    try:
        held = signal.pthread_sigmask(signal.SIG_BLOCK, _HELD)
    except KeyboardInterrupt:  # one that came just before, raised as the hold began: none
        signal.pthread_sigmask(signal.SIG_UNBLOCK, _HELD)
        raise
    _Holds.depth += 1
    try:
        yield
    finally:
        try:  # (a handler run meanwhile, the hold still on, defers)
            if discard and signal.SIGINT not in held and hasattr(signal, "sigtimedwait"):
                signal.sigtimedwait({signal.SIGINT}, 0)  # the pending one, if any
                _Holds.pending = False
            signal.pthread_sigmask(signal.SIG_SETMASK, held)
        finally:  # (Python's own handler, a second Ctrl-C's, raises as the mask is restored)
            _Holds.depth -= 1
        if _Holds.pending and not _Holds.depth:
            _Holds.pending = False
            raise KeyboardInterrupt


def held_back(discard: bool = False) -> AbstractContextManager[None]:
    """SIGINT held back meanwhile, and then delivered (Ctrl-C raises once this is done), or with
    ``discard`` dropped; SIGTERM too (how ``scan -j`` stops its workers: :mod:`.parallel`), always
    delivered. Nothing where signals cannot be held (Windows)."""
    return _held_back(discard) if hasattr(signal, "pthread_sigmask") else nullcontext()


#: No item in hand (:func:`relay`, :func:`flat`).
_NONE: Any = object()


def relay(items: Iterator[T], step: Callable[[T], Iterable[U]]) -> Iterator[U]:
    """What ``step`` makes of each of ``items``. ``step`` takes its item when called (what it
    gives is made of what it took), and is called with Ctrl-C held back: an item is never lost
    between the layer below and this one. Ctrl-C here, or told by a layer above (thrown in while
    this waits with what ``step`` gave), gives the rest of what ``step`` gave and is told to
    ``items``: what they still give goes through ``step`` too, then the interrupt goes on up,
    where the caller ends as at the end of input."""
    item: Any = _NONE
    out: Iterator[U] = iter(())
    try:
        for item in items:
            with held_back():
                out = iter(step(item))
                item = _NONE
            yield from out
    except KeyboardInterrupt:
        if item is not _NONE:  # it came as the item was handed on: taken now
            out = iter(step(item))
        yield from out  # (a list's iterator takes no throw: it stays where it was)
        # What they still give, handed on alike: a second Ctrl-C ends it (the report now), the item
        # in hand given all the same (its loss left a gap before what the layers above held).
        yield from relay(after_interrupt(items), step)
        raise


def flat(items: Iterator[list[T] | int]) -> Iterator[T | int]:
    """The items of each list of ``items``, the counts between them as they come. Ctrl-C here, or thrown in
    while an item is given, gives the rest of that list, then is told to ``items`` as
    :func:`relay` tells it."""
    item: Any = _NONE
    rest: Iterator[T | int] = iter(())
    try:
        for item in items:
            rest = iter(item if isinstance(item, list) else (item,))
            item = _NONE
            yield from rest  # (a list's iterator takes no throw: it stays where it was)
    except KeyboardInterrupt:
        if item is not _NONE:  # it came as the list was handed on: all of it (made again)
            rest = iter(item if isinstance(item, list) else (item,))
        yield from rest
        yield from flat(after_interrupt(items))  # (as relay)
        raise


def after_interrupt(items: Iterator[T]) -> Iterator[T]:
    """What ``items``, a generator Ctrl-C did not stop, still gives once told of it (a scan: the
    hits of the lines it read; then it ends with the interrupt). Nothing from a generator that
    ended with the interrupt itself, or from an iterator that is no generator."""
    throw = getattr(items, "throw", None)
    if throw is None:
        return
    try:
        item = throw(KeyboardInterrupt())
        while True:
            yield item
            item = next(items)
    except (KeyboardInterrupt, StopIteration):
        return
