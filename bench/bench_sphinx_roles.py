"""Cost of ``:llm-status:`` cross-references against plain literals, in CPU time of real builds.

Generates two projects in a temporary directory:

* ``roles``: PAGES pages with MENTIONS ``:llm-status:`CODE``` each (codes
  cycle through the registry and through the spellings authors write: name,
  Python spelling, hex, decimal), plus one page documenting every code with
  ``.. llm-status::`` so every mention is a real cross-reference;
* ``literals``: the same pages with each mention written as ````CODE````,
  and the same codes page.

Each pair is two fresh ``sphinx-build -E -q -b html`` subprocesses, run in
alternating order; the figure is the CPU time (user+sys) of the child,
read with ``os.wait4``. Prints every pair, then the median ratio
roles/literals (issue 5 bar: at most 1.20; stretch 1.15).

``--profile`` instead builds the ``roles`` project once in-process under
cProfile and prints the top functions by cumulative and own time.

Run: ``.venv/bin/python bench/bench_sphinx_roles.py [--pairs 5] [--pages 100] [--mentions 100]``
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from sphinx_llmstatus.registry import default_registry

CONF = 'extensions = ["sphinx_llmstatus"]\nproject = "bench"\n'


def _spellings() -> list[str]:
    """The written forms the mentions cycle through (what real pages contain)."""
    forms = []
    for code in default_registry().in_family("llm_datadist"):
        forms.append(code.name)
        view = code.view("python")
        if view is not None and view.name != code.name:
            forms.append(view.name.lower())
        if code.hex:
            forms.append(code.hex.lower())
        if code.value >= 0:  # -1 is ambiguous on purpose (two codes): it would warn
            forms.append(str(code.value))
    return forms


def write_project(root: Path, pages: int, mentions: int, roles: bool) -> None:
    root.mkdir(parents=True, exist_ok=True)
    (root / "conf.py").write_text(CONF, encoding="utf-8")
    codes = list(default_registry().in_family("llm_datadist"))
    forms = _spellings()
    toc = "\n".join(f"   p{i}" for i in range(pages))
    (root / "index.rst").write_text(f"Bench\n=====\n\n.. toctree::\n\n   codes\n{toc}\n", encoding="utf-8")
    entries = "\n".join(f".. llm-status:: {c.name}\n" for c in codes)
    (root / "codes.rst").write_text(f"Codes\n=====\n\n{entries}", encoding="utf-8")
    for i in range(pages):
        lines = [f"Page {i}", "=" * (5 + len(str(i))), ""]
        for j in range(mentions):
            form = forms[(i * mentions + j) % len(forms)]
            mention = f":llm-status:`{form}`" if roles else f"``{form}``"
            lines.append(f"Step {j} failed with {mention} and was retried.")
            lines.append("")
        (root / f"p{i}.rst").write_text("\n".join(lines), encoding="utf-8")


def cpu_of_build(src: Path, out: Path, builder: str = "html") -> float:
    """User+sys CPU seconds of one fresh ``sphinx-build`` child process."""
    cmd = [sys.executable, "-m", "sphinx", "-E", "-q", "-b", builder, str(src), str(out)]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _pid, status, usage = os.wait4(proc.pid, 0)
    err = proc.stderr.read().decode() if proc.stderr else ""
    proc.stderr.close()
    if os.waitstatus_to_exitcode(status) != 0 or err.strip():
        raise SystemExit(f"build of {src} failed or warned:\n{err}")
    return usage.ru_utime + usage.ru_stime


def compare(label: str, subject: Path, baseline: Path, work: Path, pairs: int) -> float:
    """Alternate fresh builds of ``subject`` and ``baseline``; print and return the median ratio."""
    ratios = []
    cpu_of_build(subject, work / "warm-s")  # warm the page cache and .pyc files
    cpu_of_build(baseline, work / "warm-b")
    for i in range(pairs):
        if i % 2 == 0:
            s = cpu_of_build(subject, work / "out-s")
            b = cpu_of_build(baseline, work / "out-b")
        else:
            b = cpu_of_build(baseline, work / "out-b")
            s = cpu_of_build(subject, work / "out-s")
        ratios.append(s / b)
        print(f"  pair {i + 1}: {label} {s:6.2f}s  baseline {b:6.2f}s  ratio {s / b:.3f}", flush=True)
    median = statistics.median(ratios)
    print(f"{label}: median CPU ratio over {pairs} pairs = {median:.3f}x "
          f"(min {min(ratios):.3f}, max {max(ratios):.3f})")
    return median


def profile(src: Path, out: Path, top: int) -> None:
    import cProfile
    import pstats

    from sphinx.cmd.build import build_main

    prof = cProfile.Profile()
    prof.enable()
    build_main(["-E", "-q", "-b", "html", str(src), str(out)])
    prof.disable()
    stats = pstats.Stats(prof)
    stats.sort_stats("cumulative").print_stats(r"sphinx_llmstatus|transforms|resolve|environment", top)
    stats.sort_stats("tottime").print_stats(top)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=5, help="alternating build pairs (default 5)")
    parser.add_argument("--pages", type=int, default=100)
    parser.add_argument("--mentions", type=int, default=100, help="mentions per page")
    parser.add_argument("--profile", action="store_true", help="cProfile one in-process build instead")
    parser.add_argument("--top", type=int, default=40, help="rows of profile output")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="bench-roles-") as tmp:
        work = Path(tmp)
        write_project(work / "roles", args.pages, args.mentions, roles=True)
        write_project(work / "literals", args.pages, args.mentions, roles=False)
        if args.profile:
            profile(work / "roles", work / "out-prof", args.top)
            return 0
        print(f"{args.pages} pages x {args.mentions} mentions, fresh html builds (-E), "
              f"CPU = user+sys of the sphinx-build child")
        compare(":llm-status: vs literals", work / "roles", work / "literals", work, args.pairs)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
