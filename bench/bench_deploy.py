"""A deployment's logs at scale (issue 23): a bundle against ``tar``, and ``-j 2`` against ``-j 1``.

Generates under ``bench/_work/`` (the log lines of :mod:`bench_scan`, busy shape):

* ``deploy.tar.gz``: ``--bundle-mb`` MB of logs in six files on two node directories
  (``prefill-0``, ``decode-1``), tarred and gzipped by ``tar czf``;
* ``eight/``: eight files of ``--file-mb`` MB each.

Then, in the same run, alternating, the median of ``--rounds``:

* ``tar -xzOf deploy.tar.gz > /dev/null`` against ``llmstatus scan --json deploy.tar.gz``
  (bar: the scan takes at most 1.5x tar's time);
* ``llmstatus scan -r -j 1 --json eight`` against ``-j 2`` (bar: -j 2 at least 1.6x faster, on 2 CPUs),
  and the machine's ceiling for it: two independent ``-j 1`` processes on four files each.

    python bench/bench_deploy.py                         # 300 MB bundle, eight 50 MB files
    python bench/bench_deploy.py --bundle-mb 30 --file-mb 5 --rounds 1   # quick
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from bench_scan import generate  # noqa: E402

WORK = Path(__file__).parent / "_work"
LLMSTATUS = [sys.executable, "-m", "sphinx_llmstatus"]


def timed(cmd: list[str], out: Path | None = None) -> float:
    start = time.perf_counter()
    with open(out or os.devnull, "wb") as sink:
        subprocess.run(cmd, stdout=sink, stderr=subprocess.DEVNULL, check=False)
    return time.perf_counter() - start


def make_bundle(megabytes: float) -> Path:
    tree = WORK / "deploy"
    bundle = WORK / "deploy.tar.gz"
    if bundle.exists():
        return bundle
    shutil.rmtree(tree, ignore_errors=True)
    for i in range(6):
        node = tree / ("prefill-0" if i < 3 else "decode-1") / "plog"
        node.mkdir(parents=True, exist_ok=True)
        generate(node / f"plog-{i}.log", megabytes / 6, every=1000, shape="busy", seed=i)
    subprocess.run(["tar", "czf", str(bundle), "-C", str(tree), "prefill-0", "decode-1"], check=True)
    shutil.rmtree(tree)
    return bundle


def make_eight(megabytes: float) -> Path:
    eight = WORK / "eight"
    if len(list(eight.glob("*.log"))) == 8:
        return eight
    eight.mkdir(parents=True, exist_ok=True)
    for i in range(8):
        generate(eight / f"f{i}.log", megabytes, every=1000, shape="busy", seed=10 + i)
    return eight


def pairs(a: list[str], b: list[str], rounds: int) -> tuple[float, float]:
    """Median times of ``a`` and ``b``, run alternately."""
    ta, tb = [], []
    for _ in range(rounds):
        ta.append(timed(a))
        tb.append(timed(b))
    return statistics.median(ta), statistics.median(tb)


def medians(cmds: list[list[str]], rounds: int) -> list[float]:
    """Median times of each command, all run in turn in every round."""
    times: list[list[float]] = [[] for _ in cmds]
    for _ in range(rounds):
        for i, cmd in enumerate(cmds):
            times[i].append(timed(cmd))
    return [statistics.median(t) for t in times]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bundle-mb", type=float, default=300)
    parser.add_argument("--file-mb", type=float, default=50)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    WORK.mkdir(exist_ok=True)
    for stale in ("deploy.tar.gz", "eight"):  # another size than asked: made again
        marker = WORK / f"{stale}.size"
        want = f"{args.bundle_mb} {args.file_mb}"
        if marker.exists() and marker.read_text() != want:
            shutil.rmtree(WORK / stale, ignore_errors=True) if stale == "eight" else (WORK / stale).unlink(True)
        marker.write_text(want)
    bundle, eight = make_bundle(args.bundle_mb), make_eight(args.file_mb)
    print(f"load average {os.getloadavg()[0]:.2f}, {os.cpu_count()} CPUs, median of {args.rounds}")
    tar, scan = pairs(["tar", "-xzOf", str(bundle)], [*LLMSTATUS, "scan", "--json", str(bundle)], args.rounds)
    print(f"bundle ({bundle.stat().st_size / 1e6:.0f} MB .tar.gz of {args.bundle_mb:.0f} MB): tar -xzOf {tar:.2f} s, "
          f"llmstatus scan --json {scan:.2f} s: {scan / tar:.2f}x tar's time (bar <= 1.5x)")
    # -j 1 against -j 2, and the machine's own ceiling for it: two independent -j 1 processes, each
    # on half of the files (start-ups in parallel too), against one on all; all four interleaved.
    files = sorted(str(p) for p in eight.glob("*.log"))
    cmd = " ".join([*LLMSTATUS, "scan", "-j", "1", "--json"])
    one, two, alone, split = medians([
        [*LLMSTATUS, "scan", "-r", "-j", "1", "--json", str(eight)],
        [*LLMSTATUS, "scan", "-r", "-j", "2", "--json", str(eight)],
        ["sh", "-c", f"{cmd} {' '.join(files)} > /dev/null"],
        ["sh", "-c", f"{cmd} {' '.join(files[:4])} > /dev/null & {cmd} {' '.join(files[4:])} > /dev/null; wait"],
    ], args.rounds)
    print(f"eight files of {args.file_mb:.0f} MB: -j 1 {one:.2f} s, -j 2 {two:.2f} s: {one / two:.2f}x faster "
          f"(bar >= 1.6x on 2 CPUs)")
    print(f"  ceiling: two independent processes on half the files each {split:.2f} s against one on all "
          f"{alone:.2f} s: {alone / split:.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
