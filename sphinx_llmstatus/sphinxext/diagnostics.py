"""Warnings of the Sphinx extension: one type, ``llmstatus``, and a subtype per case.

Every warning is logged with ``type="llmstatus"``, a subtype from
:class:`Subtype` and a location, so ``suppress_warnings = ["llmstatus"]`` or
``["llmstatus.unknown_code"]`` silences it.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from sphinx.util import logging

WARNING_TYPE = "llmstatus"

logger = logging.getLogger("sphinx_llmstatus")


class Subtype(StrEnum):
    """Warning subtypes (``suppress_warnings = ["llmstatus.<value>"]``)."""

    unknown_code = "unknown_code"  #: a directive or role names no code of the registry
    ambiguous = "ambiguous"  #: a number means more than one code (``-1``)
    duplicate = "duplicate"  #: the same code is documented twice
    unresolved = "unresolved"  #: a reference found no entry, row, inventory or fallback URL
    option = "option"  #: a directive option has a bad value
    config = "config"  #: a ``llmstatus_*`` config value has the wrong type or value
    registry = "registry"  #: an extra registry file is invalid


def warn(message: str, subtype: Subtype, location: Any = None, **kwargs: Any) -> None:
    """Log a typed warning; ``location`` is a node, a docname or ``(docname, line)``."""
    logger.warning(
        message, type=WARNING_TYPE, subtype=subtype.value, location=location, **kwargs
    )
