"""Files an HTML build publishes beside its pages for tools: the catalog (``llmstatus_catalog``).

``catalog.json``, its JSON Schema and ``catalog.csv`` (:mod:`sphinx_llmstatus.view.catalog`)
from the build's registry (packaged data plus ``llmstatus_registry_files``), written when
the build finished without error.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..view import catalog
from .config import settings
from .state import get_registry

if TYPE_CHECKING:
    from sphinx.application import Sphinx


def write_catalog(app: Sphinx, exception: BaseException | None) -> None:
    if exception is not None or app.builder.format != "html" or not settings(app.config).catalog:
        return
    catalog.write(str(app.outdir), get_registry(app.env))


def setup_publish(app: Sphinx) -> None:
    app.connect("build-finished", write_catalog)
