"""Write ``data/registry.json``: the packaged registry built and checked (:mod:`.store`).

Run ``python -m sphinx_llmstatus.registry.compile`` after editing a packaged
TOML file (``make registry`` does it); ``--check`` exits 1 when the file is
stale (CI runs it; a test does too). A stale copy is never used, it only
costs start-up time.
"""

from __future__ import annotations

import os
import sys

from . import store
from .datafiles import COMPILED_NAME, DATA_DIR, packaged_checksums
from .loader import load_registry


def compiled_text() -> str:
    """The text ``registry.json`` must hold for the current TOML files."""
    registry = load_registry(packaged=True)  # raises for a broken registry: never store one
    return store.dumps(registry, packaged_checksums())


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    target = os.path.join(DATA_DIR, COMPILED_NAME)
    text = compiled_text()
    if "--check" in args:
        try:
            with open(target, encoding="utf-8") as fh:
                fresh = fh.read() == text
        except OSError:
            fresh = False
        if not fresh:
            print(f"{target} is stale: run `make registry`", file=sys.stderr)
        return 0 if fresh else 1
    with open(target, "w", encoding="utf-8") as fh:
        fh.write(text)
    print(f"wrote {target}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
