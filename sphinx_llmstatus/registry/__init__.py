"""The status-code registry: data model, loader and lookup (no Sphinx, docutils or IPython).

Kept cheap to import (no dataclasses, typing, tomllib or importlib.resources
at import time) so that ``llmstatus CODE`` starts fast.
"""

from .datafiles import packaged_registry_path
from .errors import RegistryError
from .layout import GeErrorLayout, decode_layout
from .lookup import Match, UnknownStatusCode, filter_codes, lookup, search, suggest
from .model import APIS, LANGS, ApiView, Registry, Source, StatusCode, Text
from .packaged import default_registry

TYPE_CHECKING = False
if TYPE_CHECKING:
    from .loader import load_registry

__all__ = [
    "APIS", "LANGS", "ApiView", "GeErrorLayout", "Match", "Registry", "RegistryError", "Source",
    "StatusCode", "Text", "UnknownStatusCode", "decode_layout", "default_registry", "filter_codes",
    "load_registry",
    "lookup", "packaged_registry_path", "search", "suggest",
]


def __getattr__(name: str) -> object:
    # The TOML loader and its checks are imported when first asked for: `llmstatus CODE` reads
    # the packaged copy and never needs them.
    if name == "load_registry":
        from .loader import load_registry

        return load_registry
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
