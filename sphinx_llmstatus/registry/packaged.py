"""The packaged registry: its files, and :func:`default_registry`, cheap to import.

Every ``*.toml`` file of ``sphinx_llmstatus/registry/data`` is the packaged
registry; ``registry.jsonl`` beside them is that registry built and checked
(:mod:`.store`). :func:`default_registry` reads the JSON Lines while the CRC-32
of every TOML file matches the ones it records, and imports :mod:`.loader` (the
TOML reader and checks) only when it does not: ``llmstatus CODE`` never needs it.
"""

from __future__ import annotations

import os
import zlib
from functools import lru_cache

TYPE_CHECKING = False
if TYPE_CHECKING:
    from .model import Registry

DATA_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data")
PACKAGED_NAME = "registry.toml"
COMPILED_NAME = "registry.jsonl"


def packaged_registry_path() -> str:
    """Filesystem path of the packaged registry's main TOML file (LLM DataDist's codes)."""
    return os.path.join(DATA_DIR, PACKAGED_NAME)


def packaged_registry_paths() -> tuple[str, ...]:
    """Every TOML file of the packaged registry, ``registry.toml`` first, then by name."""
    names = sorted(n for n in os.listdir(DATA_DIR) if n.endswith(".toml") and n != PACKAGED_NAME)
    return tuple(os.path.join(DATA_DIR, n) for n in (PACKAGED_NAME, *names))


def checksum(data: bytes) -> str:
    """Change detector for the packaged TOML (CRC-32 as 8 hex digits; not a security hash)."""
    return f"{zlib.crc32(data):08x}"


def packaged_checksums() -> dict[str, str]:
    """The CRC-32 of each packaged TOML file, by file name: what ``registry.jsonl`` was built from
    (an unreadable file has none: the copy is then stale, and the loader says what is wrong)."""
    out = {}
    for path in packaged_registry_paths():
        try:
            with open(path, "rb") as fh:
                out[os.path.basename(path)] = checksum(fh.read())
        except OSError:
            out[os.path.basename(path)] = "unreadable"
    return out


@lru_cache(maxsize=1)
def default_registry() -> Registry:
    """The packaged registry, loaded once per process and cached.

    Built from ``registry.jsonl`` (:mod:`.store`), which ``compile.py`` wrote from
    the registry :func:`~.loader.load_registry` built and checked, while it matches
    the TOML files: checking again would be most of the ``llmstatus CODE`` start-up.
    Without a fresh copy, the TOML is parsed and checked in full.
    """
    from . import store

    paths = packaged_registry_paths()
    registry = store.load(os.path.join(DATA_DIR, COMPILED_NAME), packaged_checksums(), paths)
    if registry is None:
        from .loader import load_registry

        registry = load_registry()
    return registry
