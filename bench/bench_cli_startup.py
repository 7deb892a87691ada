"""Wall time of ``llmstatus 1343270921`` against ``python -c pass`` (issue 6: ratio <= 3).

Both run as whole processes from the same virtualenv, alternating, so machine
load hits both alike; prints the medians of ``--pairs`` pairs and their ratio,
for wall time and for CPU time (user + system of the child, less sensitive to
other processes on a shared machine), with the load average before and after.

    python bench/bench_cli_startup.py [--pairs 20] [--code 1343270921]
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path


def timed(cmd: list[str], cpu: list[float] | None = None) -> float:
    """Wall time of ``cmd``; its CPU time (user + system) is appended to ``cpu``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if cpu is not None:
        cpu.append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
    return wall


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
    ours_cpu: list[float] = []
    base_cpu: list[float] = []
    load_before = os.getloadavg()[0]
    for _ in range(args.pairs):
        ours.append(timed(ours_cmd, ours_cpu))
        base.append(timed(base_cmd, base_cpu))
        stdlib.append(timed(stdlib_cmd))
    mo, mb, ms = statistics.median(ours), statistics.median(base), statistics.median(stdlib)
    print(f"{env_note}; {args.pairs} alternating triples; load average {load_before:.1f} -> {os.getloadavg()[0]:.1f}")
    print(f"python -c pass                      median {mb * 1000:7.1f} ms")
    print(f"python -c 'import json, re, tomllib, argparse'  {ms * 1000:7.1f} ms  ({ms / mb:.2f}x)")
    print(f"llmstatus {args.code}               median {mo * 1000:7.1f} ms")
    print(f"ratio {mo / mb:.2f}x (bar: <= 3x)")
    co, cb = statistics.median(ours_cpu), statistics.median(base_cpu)
    print(f"CPU time: python -c pass {cb * 1000:.1f} ms, llmstatus {co * 1000:.1f} ms, ratio {co / cb:.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
