"""Write ``data/registry.json``, the pre-parsed copy of ``data/registry.toml``,
and ``data/model.marshal``, the model built and checked from it.

Run ``python -m sphinx_llmstatus.registry.compile`` after editing the TOML
(``make registry`` does it; a test fails while the copy is stale). The loader
ignores stale copies, so forgetting costs start-up time, never correctness.
"""

from __future__ import annotations

import json
import os
import sys

from . import compiled
from .loader import COMPILED_NAME, DATA_DIR, _read_bytes, checksum, load_registry, packaged_registry_path, parse_toml


def compiled_text() -> str:
    """The JSON text that ``registry.json`` must hold for the current TOML."""
    path = packaged_registry_path()
    data = _read_bytes(path)
    document = parse_toml(path, data)
    return json.dumps({"toml_crc32": checksum(data), "document": document},
                      ensure_ascii=False, indent=1, sort_keys=True) + "\n"


def model_bytes() -> bytes:
    """The bytes ``model.marshal`` must hold: the registry built and checked from the TOML."""
    registry = load_registry(packaged=True)  # raises for a broken registry: never compile one
    return compiled.dumps(registry, checksum(_read_bytes(packaged_registry_path())))


def main() -> int:
    outputs = {compiled.MODEL_NAME: model_bytes(), COMPILED_NAME: compiled_text().encode("utf-8")}
    for name, data in outputs.items():
        target = os.path.join(DATA_DIR, name)
        with open(target, "wb") as fh:
            fh.write(data)
        print(f"wrote {target}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
