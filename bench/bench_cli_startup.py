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
    env_note = f"python {sys.version.split()[0]}, {os.cpu_count()} CPUs"
    for _ in range(3):  # warm the page cache and .pyc files
        timed(ours_cmd), timed(base_cmd)
    ours, base = [], []
    for _ in range(args.pairs):
        ours.append(timed(ours_cmd))
        base.append(timed(base_cmd))
    mo, mb = statistics.median(ours), statistics.median(base)
    print(f"{env_note}; {args.pairs} alternating pairs")
    print(f"python -c pass        median {mb * 1000:7.1f} ms")
    print(f"llmstatus {args.code}  median {mo * 1000:7.1f} ms")
    print(f"ratio {mo / mb:.2f}x (bar: <= 3x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
