"""Run every benchmark of bench/ in turn (``make bench``); each prints its own ratios.

Quick sizes by default so the whole run takes a few minutes; pass ``--full``
for the sizes the issues name (200 MB and 2 GB logs, 100x100 Sphinx pages).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent

QUICK = {
    "bench_cli_startup.py": ["--pairs", "15"],
    "bench_scan.py": ["--mb", "50", "--rss-gb", "0.5", "--rounds", "2", "--flood", "100000"],
    "bench_deploy.py": ["--bundle-mb", "60", "--file-mb", "10", "--rounds", "3"],
    "bench_magic.py": ["--mb", "20", "--repeat", "3"],
    "bench_sphinx_roles.py": ["--pairs", "3", "--pages", "40", "--mentions", "100"],
    "bench_sphinx_tables.py": ["--pairs", "3", "--pages", "40"],
}


def main() -> int:
    full = "--full" in sys.argv[1:]
    status = 0
    for script, quick_args in QUICK.items():
        path = HERE / script
        if not path.exists():
            continue
        print(f"\n== {script} ==", flush=True)
        status |= subprocess.call([sys.executable, str(path), *([] if full else quick_args)])
    return status


if __name__ == "__main__":
    raise SystemExit(main())
