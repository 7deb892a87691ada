"""Benchmarks of the IPython face (issue 3), each against a baseline measured in the same run.

1. ``%load_ext sphinx_llmstatus``: import time added by the extension, from
   ``python -X importtime`` of a shell that loads it versus the same shell
   without it (modules only in the first are the extension's). Bar: < 15 ms.
   Also asserts that no ``sphinx``/``docutils`` module is imported.
2. One lookup in-process: ``lookup()`` and ``%llmstatus CODE`` (parse +
   lookup + result), versus IPython's own ``%pwd``. Bar: < 1 ms. Rendering
   the mime bundle is timed separately.
3. ``%%llmstatus`` on a 100 MB pasted log versus the shared scanner called
   directly (``list(scan_text(...))``) on the same text. Bar: same throughput.

Run: ``.venv/bin/python bench/bench_magic.py [--mb 100] [--repeat 5]``.
Public tools only: subprocess, ``-X importtime``, time.perf_counter.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import time

SHELL = (
    "from IPython.core.interactiveshell import InteractiveShell\n"
    "ip = InteractiveShell.instance()\n"
)
LOAD = (
    "ip.run_line_magic('load_ext', 'sphinx_llmstatus')\n"
    "import sys\n"
    "bad = [m for m in sys.modules if m.split('.')[0] in ('sphinx', 'docutils')]\n"
    "assert not bad, bad\n"
)


def _parse_importtime_line(line: str) -> tuple[str, int] | None:
    if not line.startswith("import time:") or "self [us]" in line:
        return None
    self_us, _cum, name = line[len("import time:"):].split("|")
    return name.strip(), int(self_us)


WORK = os.path.join(os.path.dirname(os.path.abspath(__file__)), "_work")


def child_env(bytecode: bool) -> dict[str, str]:
    """Environment for the child interpreters.

    ``bytecode=True`` is an installed package (pip writes ``.pyc`` files):
    bytecode is cached under bench/_work/pycache. ``False`` compiles every
    module from source on each import (``PYTHONDONTWRITEBYTECODE`` and no cache).
    """
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env.pop("PYTHONPYCACHEPREFIX", None)
    if bytecode:
        env["PYTHONPYCACHEPREFIX"] = os.path.join(WORK, "pycache")
    else:
        env["PYTHONDONTWRITEBYTECODE"] = "1"
        env["PYTHONPYCACHEPREFIX"] = os.path.join(WORK, "empty-pycache")
    return env


def import_profile(script: str, env: dict[str, str]) -> dict[str, int]:
    proc = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", script], capture_output=True, text=True, env=env
    )
    if proc.returncode:
        raise SystemExit(f"benchmark script failed:\n{proc.stderr[-2000:]}")
    out: dict[str, int] = {}
    for line in proc.stderr.splitlines():
        parsed = _parse_importtime_line(line)
        if parsed:
            out[parsed[0]] = parsed[1]
    return out


def bench_import(repeat: int) -> None:
    for bytecode in (True, False):
        env = child_env(bytecode)
        if bytecode:  # warm the bytecode cache once
            import_profile(SHELL + LOAD, env)
            import_profile(SHELL + "ip.run_line_magic('load_ext', 'storemagic')\n", env)
        added, base, load_wall, base_wall = [], [], [], []
        ext_modules: set[str] = set()
        for _ in range(repeat):
            without = import_profile(SHELL, env)
            with_ext = import_profile(SHELL + LOAD, env)
            new = {m: us for m, us in with_ext.items() if m not in without}
            ext_modules |= set(new)
            added.append(sum(new.values()) / 1000)
            base.append(sum(without.values()) / 1000)
            # Wall time of the %load_ext call itself (imports + registration), in a fresh process,
            # against loading IPython's own storemagic extension in the same process.
            timing = (
                SHELL + "import time\nt=time.perf_counter()\nip.run_line_magic('load_ext','sphinx_llmstatus')\n"
                "a=time.perf_counter()-t\nt=time.perf_counter()\nip.run_line_magic('load_ext','storemagic')\n"
                "b=time.perf_counter()-t\nprint(a*1000, b*1000)\n"
            )
            a, b = subprocess.run([sys.executable, "-c", timing], capture_output=True, text=True,
                                  check=True, env=env).stdout.split()
            load_wall.append(float(a))
            base_wall.append(float(b))
        med_added, med_base = statistics.median(added), statistics.median(base)
        kind = "bytecode cached, as installed" if bytecode else "no bytecode cache, compiled on import"
        print(f"1. %load_ext sphinx_llmstatus, {kind} (medians of {repeat} fresh processes)")
        print(f"   baseline: IPython + InteractiveShell imports     {med_base:8.2f} ms")
        print(f"   added by the extension (-X importtime, self sum) {med_added:8.2f} ms"
              f"  = {med_added / med_base:.3f} x baseline   bar < 15 ms: {'OK' if med_added < 15 else 'FAIL'}")
        print(f"   modules added ({len(ext_modules)}): {', '.join(sorted(ext_modules))}")
        print(f"   wall time of the %load_ext call                  {statistics.median(load_wall):8.2f} ms"
              f"  = {statistics.median(load_wall) / statistics.median(base_wall):.2f} x %load_ext storemagic"
              f" ({statistics.median(base_wall):.2f} ms)")
    print("   sphinx/docutils imported: none (asserted in every child process)")


def per_call(fn, n: int) -> float:
    """Median seconds per call over 7 batches of ``n`` calls."""
    samples = []
    for _ in range(7):
        t = time.perf_counter()
        for _ in range(n):
            fn()
        samples.append((time.perf_counter() - t) / n)
    return statistics.median(samples)


def bench_lookup() -> None:
    from IPython.core.interactiveshell import InteractiveShell

    from sphinx_llmstatus.registry import lookup

    ip = InteractiveShell.instance()
    ip.run_line_magic("load_ext", "sphinx_llmstatus")
    ip.run_line_magic("config", "LLMStatusMagics.lang = 'en'")
    ip.run_line_magic("llmstatus", "LLM_LINK_FAILED")  # registry loaded once, as in a session
    base = per_call(lambda: ip.run_line_magic("pwd", ""), 2000)
    raw = per_call(lambda: lookup("LLM_LINK_FAILED"), 20000)
    raw_num = per_call(lambda: lookup("0x5010b009"), 20000)
    magic = per_call(lambda: ip.run_line_magic("llmstatus", "LLM_LINK_FAILED"), 2000)
    magic_repr = per_call(lambda: ip.run_line_magic("llmstatus", "<LLMStatusCode.LLM_LINK_FAILED: 1343270921>"), 2000)
    r = ip.run_line_magic("llmstatus", "LLM_LINK_FAILED")
    render = per_call(r._repr_mimebundle_, 500)
    print("2. one lookup in-process (median per call)")
    print(f"   baseline: %pwd                                   {base * 1e6:8.1f} us")
    for label, t in (("lookup('LLM_LINK_FAILED')", raw), ("lookup('0x5010b009')", raw_num),
                     ("%llmstatus LLM_LINK_FAILED", magic), ("%llmstatus <LLMStatusCode...: N>", magic_repr)):
        print(f"   {label:<48} {t * 1e6:8.1f} us  = {t / base:6.2f} x baseline"
              f"   bar < 1 ms: {'OK' if t < 1e-3 else 'FAIL'}")
    print(f"   rendering its text/plain+html+markdown bundle    {render * 1e6:8.1f} us  = {render / base:6.2f} x baseline")
    ip.run_line_magic("unload_ext", "sphinx_llmstatus")


LINES = [
    "llm_datadist.status.LLMException: [link] failed, error code is LLMStatusCode.LLM_LINK_FAILED, {3: 0, 19: 1}.",
    "[ERROR] LinkLlmClusters failed, ret = 1343270921",
    "PullKvBlocks failed, layer = 3, role = decoder, ret = 5010b002",
    "Load graph failed, error code:1343225857, see plog",
    "Transfer slice failed with status: 503900",
    "ret=[<LLMStatusCode.LLM_SUCCESS: 0>]",
]
NOISE = [
    "[INFO] GE(12345,python):2026-11-29-14:50:40.123.456 [graph_manager.cc:{n}] step {n} finished in {n} us",
    "[INFO] LLMDATADIST(54321,python):2026-11-29 worker {n} pulled {n} blocks from cluster 2",
    "2026-11-29 14:50:40,123 - INFO - decode step {n}: tokens={n} latency_ms=12.{n}",
    "[DEBUG] RUNTIME(777,python): stream {n} event recorded, device_id=0, task_id={n}",
]


def make_log(mb: int, seed: int = 3) -> str:
    """About ``mb`` MB of log: noise lines with one code-bearing line per ~40."""
    rnd = random.Random(seed)
    out, size, target = [], 0, mb * 1_000_000
    while size < target:
        line = rnd.choice(LINES) if rnd.random() < 0.025 else rnd.choice(NOISE).format(n=rnd.randrange(10**6))
        out.append(line)
        size += len(line) + 1
    return "\n".join(out) + "\n"


def bench_scan(mb: int, repeat: int) -> None:
    from IPython.core.interactiveshell import InteractiveShell

    from sphinx_llmstatus.scan import scan_text

    text = make_log(mb)
    size = len(text.encode("utf-8"))
    ip = InteractiveShell.instance()
    ip.run_line_magic("load_ext", "sphinx_llmstatus")
    ip.run_line_magic("config", "LLMStatusMagics.lang = 'en'")
    direct, magic = [], []
    hits_direct = hits_magic = 0
    for _ in range(repeat):  # interleaved, so drift hits both alike
        t = time.perf_counter()
        hits_direct = len(list(scan_text(text)))
        direct.append(time.perf_counter() - t)
        t = time.perf_counter()
        result = ip.run_cell_magic("llmstatus", "", text)
        magic.append(time.perf_counter() - t)
        hits_magic = len(result.hits) + len(result.other)  # LLM DataDist's, then other layers'
        del result
    t = time.perf_counter()
    shown = ip.run_cell_magic("llmstatus", "", text)
    shown._repr_mimebundle_()
    display = time.perf_counter() - t
    d, m = statistics.median(direct), statistics.median(magic)
    assert hits_direct == hits_magic, (hits_direct, hits_magic)
    print(f"3. {size / 1e6:.0f} MB pasted log, {text.count(chr(10))} lines, {hits_direct} hits (medians of {repeat} interleaved runs)")
    print(f"   baseline: list(scan_text(text)) directly         {d:8.2f} s  = {size / d / 1e6:7.1f} MB/s")
    print(f"   %%llmstatus (returns the ScanResult)             {m:8.2f} s  = {size / m / 1e6:7.1f} MB/s"
          f"  = {m / d:.3f} x baseline")
    print(f"   per-run ratios magic/direct: {', '.join(f'{b / a:.2f}' for a, b in zip(direct, magic))}")
    print(f"   %%llmstatus + rendering its mime bundle          {display:8.2f} s  = {display / d:.3f} x baseline"
          f" ({shown.limit} rows shown of {len(shown)})")
    # The command-line scanner on the same text saved as a file (process start and output included).
    os.makedirs(WORK, exist_ok=True)
    path = os.path.join(WORK, "magic_log.txt")
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(text)
    cli = os.path.join(os.path.dirname(sys.executable), "llmstatus")
    if os.path.exists(cli):
        runs = []
        for _ in range(min(repeat, 3)):
            t = time.perf_counter()
            subprocess.run([cli, "scan", "--color", "never", "--lang", "en", path], stdout=subprocess.DEVNULL,
                           check=False)
            runs.append(time.perf_counter() - t)
        c = statistics.median(runs)
        print(f"   llmstatus scan FILE > /dev/null (command line)    {c:8.2f} s  = {size / c / 1e6:7.1f} MB/s"
              f"  = {c / d:.3f} x baseline; %%llmstatus / command = {m / c:.3f}")
    os.remove(path)
    ip.run_line_magic("unload_ext", "sphinx_llmstatus")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=int, default=100, help="size of the pasted log (default 100)")
    parser.add_argument("--repeat", type=int, default=5, help="runs per measurement (default 5)")
    parser.add_argument("--skip-scan", action="store_true", help="skip the 100 MB scan")
    args = parser.parse_args()
    print(f"Python {sys.version.split()[0]}, {sys.executable}")
    bench_import(args.repeat)
    bench_lookup()
    if not args.skip_scan:
        bench_scan(args.mb, args.repeat)


if __name__ == "__main__":
    main()
