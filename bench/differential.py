"""``llmstatus scan --json`` of this checkout against another commit's: byte for byte (issue 20).

Checks out ``--ref`` (default ``HEAD~1``) into ``bench/_work/ref`` with ``git
worktree``, then scans each log with both, under each installed engine
(``LLMSTATUS_SCAN_ENGINE``), and compares the outputs' SHA-256. Logs: the scan
corpus (``tests/corpus``) and the bench logs present in ``bench/_work`` (made
by ``bench/bench_scan.py``). Prints one line per log and engine; exit 1 on a
difference.

    python bench/differential.py --ref 0709ee1 --bench 'scan_*_50mb_*'  # the 50 MB logs only
"""

from __future__ import annotations

import argparse
import hashlib
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WORK = ROOT / "bench" / "_work"


def digest(checkout: Path, log: Path, engine: str) -> tuple[str, int]:
    """SHA-256 and size of the JSON ``checkout``'s package writes for ``log``."""
    env = {**os.environ, "PYTHONPATH": str(checkout), "LLMSTATUS_SCAN_ENGINE": engine}
    proc = subprocess.run([sys.executable, "-m", "sphinx_llmstatus", "scan", "--json", str(log)],
                          capture_output=True, env=env, cwd=checkout, check=False)
    return hashlib.sha256(proc.stdout).hexdigest(), len(proc.stdout)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ref", default="HEAD~1", help="the commit to compare with (default HEAD~1)")
    parser.add_argument("--bench", default="scan_*.log*", help="which bench/_work logs (a glob; default all)")
    args = parser.parse_args()
    ref = WORK / "ref"
    WORK.mkdir(exist_ok=True)
    if ref.exists():
        subprocess.run(["git", "worktree", "remove", "--force", str(ref)], cwd=ROOT, check=True)
    subprocess.run(["git", "worktree", "add", "--detach", "-f", str(ref), args.ref], cwd=ROOT, check=True,
                   capture_output=True)
    from sphinx_llmstatus.scan.prefilter import available

    logs = sorted((ROOT / "tests" / "corpus").rglob("*.log")) + sorted(WORK.glob(args.bench))
    differ = 0
    try:
        for log in logs:
            for engine in available():
                ours, theirs = digest(ROOT, log, engine), digest(ref, log, engine)
                same = ours == theirs
                differ += not same
                print(f"{'same' if same else 'DIFFERENT':9s} {engine:9s} {ours[1]:>11,d} bytes  {log.relative_to(ROOT)}")
    finally:
        subprocess.run(["git", "worktree", "remove", "--force", str(ref)], cwd=ROOT, check=False)
    print(f"{len(logs)} logs x {len(available())} engines: {differ} different")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
