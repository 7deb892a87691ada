"""Document, link and diagnose CANN LLM DataDist status codes.

One packaged registry of every status code, with three faces on it: a Sphinx
extension (``extensions = ["sphinx_llmstatus"]``), an IPython extension
(``%load_ext sphinx_llmstatus``) and the ``llmstatus`` command.

Importing this package is cheap: it imports neither Sphinx, docutils nor
IPython; each face imports its own dependencies when it is loaded.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:  # typing is not imported at run time: the command must start fast
    from typing import Any

    from sphinx.util.typing import ExtensionMetadata

__version__ = "0.1.0"

__all__ = ["__version__", "setup", "load_ipython_extension", "unload_ipython_extension"]


def setup(app: Any) -> ExtensionMetadata:
    """Sphinx entry point: register the ``llm`` domain, directives, roles and assets."""
    from .sphinxext import setup as _setup

    return _setup(app)


def load_ipython_extension(ipython: Any) -> None:
    """IPython entry point for ``%load_ext sphinx_llmstatus``: register ``%llmstatus``."""
    from .magic import load_ipython_extension as _load

    _load(ipython)


def unload_ipython_extension(ipython: Any) -> None:
    """IPython entry point for ``%unload_ext sphinx_llmstatus``."""
    from .magic import unload_ipython_extension as _unload

    _unload(ipython)
