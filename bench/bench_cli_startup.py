"""Wall time of ``llmstatus 1343270921`` against ``python -c pass`` (issue 6: ratio <= 3).

Both run as whole processes from the same virtualenv, alternating, so machine
load hits both alike; prints the medians of ``--pairs`` pairs and their ratio.

    python bench/bench_cli_startup.py [--pairs 20] [--code 1343270921]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path


def timed(cmd: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    return time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=20)
    parser.add_argument("--code", default="1343270921")
    args = parser.parse_args()
    bindir = Path(sys.executable).parent
    script = bindir / "llmstatus"
    if not script.exists():
        print(f"no {script}: install the package (pip install -e .)", file=sys.stderr)
        return 2
    ours_cmd = [str(script), args.code]
    base_cmd = [sys.executable, "-c", "pass"]
    stdlib_cmd = [sys.executable, "-c", "import json, re, tomllib, argparse"]
    env_note = f"python {sys.version.split()[0]}, {os.cpu_count()} CPUs"
    # An installed wheel ships compiled bytecode; an editable checkout run with
    # PYTHONDONTWRITEBYTECODE=1 would recompile every module on every start.
    import compileall

    import sphinx_llmstatus

    compileall.compile_dir(str(Path(sphinx_llmstatus.__file__).parent), quiet=1)
    for _ in range(3):  # warm the page cache
        timed(ours_cmd), timed(base_cmd)
    ours, base, stdlib = [], [], []
    for _ in range(args.pairs):
        ours.append(timed(ours_cmd))
        base.append(timed(base_cmd))
        stdlib.append(timed(stdlib_cmd))
    mo, mb, ms = statistics.median(ours), statistics.median(base), statistics.median(stdlib)
    print(f"{env_note}; {args.pairs} alternating triples")
    print(f"python -c pass                      median {mb * 1000:7.1f} ms")
    print(f"python -c 'import json, re, tomllib, argparse'  {ms * 1000:7.1f} ms  ({ms / mb:.2f}x)")
    print(f"llmstatus {args.code}               median {mo * 1000:7.1f} ms")
    print(f"ratio {mo / mb:.2f}x (bar: <= 3x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
