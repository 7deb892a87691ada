"""The status-code registry: data model, loader and lookup (no Sphinx, docutils or IPython).

Kept cheap to import (no dataclasses, typing, tomllib or importlib.resources
at import time) so that ``llmstatus CODE`` starts fast.
"""

from .layout import GeErrorLayout, decode_layout
from .loader import RegistryError, default_registry, load_registry, packaged_registry_path
from .lookup import Match, UnknownStatusCode, filter_codes, lookup, search, suggest
from .model import APIS, LANGS, ApiView, Registry, Source, StatusCode, Text

__all__ = [
    "APIS", "LANGS", "ApiView", "GeErrorLayout", "Match", "Registry", "RegistryError", "Source",
    "StatusCode", "Text", "UnknownStatusCode", "decode_layout", "default_registry", "filter_codes",
    "load_registry",
    "lookup", "packaged_registry_path", "search", "suggest",
]
