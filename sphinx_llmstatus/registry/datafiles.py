"""The files of the packaged registry: every ``*.toml`` of ``sphinx_llmstatus/registry/data`` and the
checked copy ``registry.jsonl`` beside them, with the checksums that tell when the copy is stale.
Read by :mod:`.packaged` (the copy) and :mod:`.loader` (the TOML); imports neither."""

from __future__ import annotations

import os
import zlib

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
