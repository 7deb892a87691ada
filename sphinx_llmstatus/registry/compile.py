"""Write ``data/registry.json``, the pre-parsed copy of ``data/registry.toml``.

Run ``python -m sphinx_llmstatus.registry.compile`` after editing the TOML
(``make registry`` does it; a test fails while the copy is stale). The loader
ignores a stale copy, so forgetting costs start-up time, never correctness.
"""

from __future__ import annotations

import json
import os
import sys

from .loader import COMPILED_NAME, DATA_DIR, _read_bytes, checksum, load_registry, packaged_registry_path, parse_toml


def compiled_text() -> str:
    """The JSON text that ``registry.json`` must hold for the current TOML."""
    path = packaged_registry_path()
    data = _read_bytes(path)
    document = parse_toml(path, data)
    return json.dumps({"toml_crc32": checksum(data), "document": document},
                      ensure_ascii=False, indent=1, sort_keys=True) + "\n"


def main() -> int:
    load_registry(packaged=True)  # validate first: never compile a broken registry
    target = os.path.join(DATA_DIR, COMPILED_NAME)
    with open(target, "w", encoding="utf-8") as fh:
        fh.write(compiled_text())
    print(f"wrote {target}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
