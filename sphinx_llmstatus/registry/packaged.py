"""The packaged registry, :func:`default_registry`, cheap to import.

Every ``*.toml`` file of ``sphinx_llmstatus/registry/data`` is the packaged
registry; ``registry.jsonl`` beside them is that registry built and checked
(:mod:`.store`; the files: :mod:`.datafiles`). :func:`default_registry` reads the JSON Lines while the CRC-32
of every TOML file matches the ones it records, and imports :mod:`.loader` (the
TOML reader and checks) only when it does not: ``llmstatus CODE`` never needs it.
"""

from __future__ import annotations

import os
from functools import lru_cache

from . import datafiles

TYPE_CHECKING = False
if TYPE_CHECKING:
    from .model import Registry


@lru_cache(maxsize=1)
def default_registry() -> Registry:
    """The packaged registry, loaded once per process and cached.

    Built from ``registry.jsonl`` (:mod:`.store`), which ``compile.py`` wrote from
    the registry :func:`~.loader.load_registry` built and checked, while it matches
    the TOML files: checking again would be most of the ``llmstatus CODE`` start-up.
    Without a fresh copy, the TOML is parsed and checked in full.
    """
    from . import store

    paths = datafiles.packaged_registry_paths()
    registry = store.load(os.path.join(datafiles.DATA_DIR, datafiles.COMPILED_NAME), datafiles.packaged_checksums(),
                          paths)
    if registry is None:
        from .loader import load_registry

        registry = load_registry()
    return registry
