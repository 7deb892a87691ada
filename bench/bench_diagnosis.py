"""What the diagnosis costs a scan (issue 21: at most 10% of the scan's time on the busy log).

Generates (or reuses) ``bench_scan.py``'s busy log (one line in three with LLM
DataDist tags, one in ``--every`` with a code) and times, in this process,
alternating, the CPU time of the events of one log with and without the diagnosis: the codes
alone, or as ``llmstatus scan`` reads the log (clue and evidence lines read in
the same pass, each failure held by the
:class:`~sphinx_llmstatus.scan.diagnosis.Diagnoser` until the lines after it
are read, its causes judged). So the figure is an upper bound: it counts the
clue lines (times, cluster ids) the scan read before diagnoses existed.

    python bench/bench_diagnosis.py                 # 200 MB, 5 pairs
    python bench/bench_diagnosis.py --mb 20 --rounds 1
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from bench_scan import WORK, generate  # noqa: E402


def _timed(log: Path, diagnose: bool) -> tuple[float, int]:
    from sphinx_llmstatus.registry.packaged import default_registry
    from sphinx_llmstatus.scan.pipeline import ScanOptions, _diagnosed, _found
    from sphinx_llmstatus.scan.timeline import ClueWatch

    registry = default_registry()
    opts = ScanOptions()
    start = time.process_time()  # CPU time: both run in this process, and it moves less than the wall clock
    diagnosed = 0
    with open(log, "rb") as stream:
        watch = ClueWatch(registry)
        found = _diagnosed(log.name, stream, opts, registry, watch) if diagnose else \
            _found(log.name, stream, opts, registry, None)  # type: ignore[arg-type]  # no line watched
        for event in found:
            if not isinstance(event, int):  # ints: lines read so far
                diagnosed += sum(1 for h in event.hits if h.diagnosis is not None)
    return time.process_time() - start, diagnosed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=float, default=200, help="size of the busy log (MB, default 200)")
    parser.add_argument("--every", type=int, default=1000, help="one line in EVERY has a code (default 1000)")
    parser.add_argument("--rounds", type=int, default=5, help="alternating pairs (median)")
    args = parser.parse_args()
    WORK.mkdir(exist_ok=True)
    log = WORK / f"scan_busy_{args.mb:g}mb_every{args.every}.log"
    if not log.exists():
        print(f"generating {log} ...")
        generate(log, args.mb, args.every, "busy")
    _timed(log, True)  # warm: registry, compiled scanner, page cache
    plain, diagnosed = [], []
    failures = 0
    for _ in range(args.rounds):
        plain.append(_timed(log, False)[0])
        seconds, failures = _timed(log, True)
        diagnosed.append(seconds)
    base, with_diagnosis = statistics.median(plain), statistics.median(diagnosed)
    print(f"busy log {log.stat().st_size / 1e6:.0f} MB, {failures} failures diagnosed, median of {args.rounds} pairs:")
    print(f"  scan without diagnosis {base:.2f} s, with {with_diagnosis:.2f} s: "
          f"diagnosis costs {100 * (with_diagnosis - base) / base:+.1f}% of the scan (bar <= 10%)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
