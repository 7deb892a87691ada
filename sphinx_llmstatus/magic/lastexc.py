"""Find the status codes an exception carries (for ``--last`` and the hint hook).

Duck-typed so it works without the vendor package: the vendor's
``LLMException`` has a ``status_code`` attribute holding an ``LLMStatusCode``
member (``.name``/``.value``); anything else with a ``status_code`` that is a
member-like object, an int or a string counts too. The exception's
``__cause__``/``__context__`` chain is followed, since frameworks often wrap
the vendor exception. Without an attribute, the codes in the message and
traceback text are found by the shared scanner (``sphinx_llmstatus.scan``).
"""

from __future__ import annotations

import traceback
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the registry is imported on first use, not when the extension loads
    from ..registry.lookup import Match
    from ..registry.model import Registry

from ..render.labels import N_

#: Where ``--last`` found the codes (messages of the catalog).
ATTRIBUTE = N_("status_code attribute")
TEXT = N_("message and traceback text")


def exception_chain(exc: BaseException, limit: int = 20) -> list[BaseException]:
    """``exc`` then its causes/contexts, each once, at most ``limit``."""
    out: list[BaseException] = []
    seen: set[int] = set()
    todo: list[BaseException | None] = [exc]
    while todo and len(out) < limit:
        e = todo.pop(0)
        if e is None or id(e) in seen:
            continue
        seen.add(id(e))
        out.append(e)
        todo += [_linked(e, "__cause__"), _linked(e, "__context__")]
    return out


def _linked(exc: BaseException, attribute: str) -> BaseException | None:
    """``exc.__cause__`` or ``exc.__context__``, or None when reading it raises (a hostile
    exception class may make them properties) or gives something that is not an exception."""
    try:
        linked = getattr(exc, attribute)
    except BaseException:  # noqa: BLE001 - whatever the user's property raises
        return None
    return linked if isinstance(linked, BaseException) else None


def resolve_status(status: Any, registry: Registry) -> tuple[Match, ...]:
    """Matches for a ``status_code`` value: enum-like (``.name``/``.value``), int or str.

    Returns ``()`` when the value names no code of the registry. Errors raised
    by the object itself (a failing property) propagate to the caller.
    """
    from ..registry.lookup import Match, UnknownStatusCode, lookup

    if status is None or isinstance(status, bool):
        return ()
    name = getattr(status, "name", None)
    if isinstance(name, str) and name in registry:
        return (Match(code=registry[name], reading="status_code name"),)
    value = getattr(status, "value", status)
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        return ()
    if isinstance(value, int) and not -(2**63) <= value < 2**64:  # no code; str() of 10**5000 raises
        return ()
    try:
        return lookup(str(value), registry)
    except UnknownStatusCode:
        return ()


def attribute_codes(exc: BaseException, registry: Registry) -> tuple[Match, ...]:
    """Codes from the first ``status_code`` attribute along the exception chain that names one.

    A ``status_code`` that raises when read (a failing property, an int too
    long to print) is skipped, so ``--last`` still scans the text.
    """
    for e in exception_chain(exc):
        try:
            matches = resolve_status(getattr(e, "status_code", None), registry)
        except BaseException:  # noqa: BLE001 - the user's object misbehaves (even GeneratorExit, KeyboardInterrupt)
            continue
        if matches:
            return matches
    return ()


def exception_text(exc: BaseException) -> str:
    """The full traceback text, as Python would print it (chained exceptions included); the
    messages of the chain alone when the exception breaks the traceback module (a property
    ``__cause__`` that raises)."""
    try:
        return "".join(traceback.format_exception(exc))
    except BaseException:  # noqa: BLE001 - the user's exception object misbehaves
        return "\n".join(safe_str(e) for e in exception_chain(exc))


def text_hits(text: str, registry: Registry) -> list[Any]:
    """Scanner hits (non-success) in ``text``, each failure with its diagnosis."""
    from ..scan.pipeline import scan_diagnosed

    return scan_diagnosed(text, registry=registry)


def codes_in(exc: BaseException, registry: Registry, *, full_traceback: bool = True):
    """``(how, matches, hits)`` for an exception: attribute first, else scanned text.

    With ``full_traceback`` False only ``str(exc)`` of each exception in the
    chain is scanned (cheap enough to run after every failing cell).
    """
    from ..registry.lookup import Match

    matches = attribute_codes(exc, registry)
    if matches:
        return ATTRIBUTE, matches, []
    if full_traceback:
        text = exception_text(exc)
    else:
        text = "\n".join(safe_str(e) for e in exception_chain(exc))
    hits = text_hits(text, registry)
    seen: dict[str, Match] = {}
    for h in hits:
        if h.code is not None and h.code.name not in seen:
            seen[h.code.name] = Match(code=h.code, reading=f"found in text: {h.token}")
    return TEXT, tuple(seen.values()), hits


def safe_str(exc: BaseException) -> str:
    """``str(exc)``, or Python's own placeholder when the exception's ``__str__`` raises
    or returns something other than a string (``str()`` then raises TypeError)."""
    try:
        text = str(exc)
    except BaseException:  # noqa: BLE001 - the user's __str__ misbehaves, whatever it raises
        return "<exception str() failed>"
    return text if isinstance(text, str) else "<exception str() failed>"
