"""IPython face: ``%load_ext sphinx_llmstatus`` registers ``%llmstatus`` and ``%%llmstatus``.

Loading is idempotent (a second load, also through this module's own name,
keeps the first instance) and cheap: neither Sphinx nor docutils is imported,
and the registry is read on first use. Unloading removes the magics, the
configurable, the completer and every event callback (the opt-in hint
included). Works with ``c.MagicsManager.lazy_magics = {"llmstatus":
"sphinx_llmstatus"}``, which loads the extension when the magic is first used.
The line magic and the cell magic are two methods with their own arguments
(``LLMStatusMagics.llmstatus_line`` and ``.llmstatus_cell``).
"""

from __future__ import annotations

from typing import Any

__all__ = ["load_ipython_extension", "unload_ipython_extension", "loaded_magics"]

_NAME = "LLMStatusMagics"


def loaded_magics(ipython: Any) -> Any:
    """The ``LLMStatusMagics`` instance registered in ``ipython``, or None."""
    return ipython.magics_manager.registry.get(_NAME)


def load_ipython_extension(ipython: Any) -> None:
    """Register the magics, completer and recorder in ``ipython`` (no-op if already there)."""
    if loaded_magics(ipython) is not None:
        return
    from .magics import LLMStatusMagics

    magics = LLMStatusMagics(shell=ipython)
    ipython.register_magics(magics)
    magics.attach()


def unload_ipython_extension(ipython: Any) -> None:
    """Remove everything :func:`load_ipython_extension` added (no-op if not loaded)."""
    magics = loaded_magics(ipython)
    if magics is None:
        return
    magics.detach()
    manager = ipython.magics_manager
    for kind in ("line", "cell"):
        table = manager.magics[kind]
        if getattr(table.get("llmstatus"), "__self__", None) is magics:
            del table["llmstatus"]
    manager.registry.pop(_NAME, None)
    if magics in ipython.configurables:
        ipython.configurables.remove(magics)
