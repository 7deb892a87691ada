"""Opt-in one-line hint after a traceback that carries an LLM DataDist status code.

Why an event rather than ``set_custom_exc``: IPython has one custom-exception
slot; taking it would replace IPython's traceback display, and anyone else's
handler, installed before us or after (ipython#13742). The hint runs from the
``post_run_cell`` event instead, after IPython (or whatever custom handler the
user installed) has shown the traceback, so that display and that handler
stay exactly as they were: they are chained, not replaced. Turning the hint
off or unloading the extension unregisters the callback and touches nothing
else.

The hint never prints a traceback of its own: an exception whose
``status_code`` or message cannot be read (a raising property, an int of
thousands of digits) gets no hint, and the user's traceback stays the last
thing on screen.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..render.labels import label
from .lastexc import codes_in

if TYPE_CHECKING:
    from ..registry.model import StatusCode

_BACKTICK_RE = re.compile(r"`([^`]+)`")


def hint_line(code: StatusCode, lang: str, others: int = 0) -> str:
    """``[llmstatus] NAME (0x...): meaning. Run %llmstatus --last ...`` on one line."""
    view = code.python or code.cpp
    meaning = " ".join(_BACKTICK_RE.sub(r"\1", view.meaning.get(lang)).split()) if view else ""
    number = code.hex or str(code.value)
    more = label(" (+{n} more)", lang, n=others) if others else ""
    pointer = label("Run %llmstatus --last for the remedy.", lang)
    return f"[llmstatus] {code.name} ({number}){more}: {meaning} {pointer}"


class ExceptionHint:
    """Prints :func:`hint_line` after a failing cell whose exception carries a code.

    ``registry`` and ``lang`` are callables so that configuration changes
    (registry files, language) apply to the next hint.
    """

    def __init__(self, shell: Any, registry: Callable[[], Any], lang: Callable[[], str]):
        self.shell = shell
        self._registry = registry
        self._lang = lang

    @property
    def active(self) -> bool:
        return self.after_cell in self.shell.events.callbacks["post_run_cell"]

    def on(self) -> None:
        """Register (idempotent)."""
        if not self.active:
            self.shell.events.register("post_run_cell", self.after_cell)

    def off(self) -> None:
        """Unregister (idempotent)."""
        if self.active:
            self.shell.events.unregister("post_run_cell", self.after_cell)

    def after_cell(self, result: Any) -> None:
        exc = getattr(result, "error_in_exec", None)
        if exc is None or _is_usage_error(exc):
            return
        try:
            # Only the messages, not the whole traceback: this runs after every failing cell.
            _how, matches, _hits = codes_in(exc, self._registry(), full_traceback=False)
        except BaseException:  # noqa: BLE001 - the user's exception object misbehaves: no hint
            # Any type: a property raising SystemExit, GeneratorExit or KeyboardInterrupt must not
            # end the session or escape run_cell from a hook that only adds a hint.
            return
        if matches:
            print(hint_line(matches[0].code, self._lang(), len(matches) - 1), file=sys.stdout, flush=True)


def _is_usage_error(exc: BaseException) -> bool:
    from IPython.core.error import UsageError

    return isinstance(exc, UsageError)
