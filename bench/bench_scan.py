"""Scanner throughput against ``grep -cE``, and peak memory on a large stream (issue 6).

Generates a log under ``bench/_work/`` (ordinary CANN-style lines, one line in
``--every`` carrying a code in one of the real formats), then in the same run:

* ``grep -cE PATTERN`` with an ERE equivalent to the scanner's rules;
* ``llmstatus scan --json FILE`` as a whole process (output to /dev/null); for a
  file this large it cuts the file into chunks scanned by one process per CPU
  (sphinx_llmstatus/scan/parallel.py), while grep uses one CPU;
* ``scan_stream`` in-process (the engine alone, one process, as for a pipe);

prints MB/s and the ratios (bar: ours >= 0.5x grep), then streams ``--rss-gb``
GB through ``llmstatus scan -`` and reports its peak RSS from
``resource.getrusage(RUSAGE_CHILDREN)`` (bar: < 100 MB).

    python bench/bench_scan.py                      # 200 MB, 3 rounds, 2 GB RSS run
    python bench/bench_scan.py --mb 20 --rss-gb 0.2 --rounds 1   # quick
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

WORK = Path(__file__).parent / "_work"
ORDINARY = [
    "[INFO] GE(12345,python):2025-11-{d:02d}-10:{m:02d}:{s:02d}.{ms:03d}.{us:03d} [llm_datadist.cc:{l}] "
    "LinkLlmClusters start, cluster_id={c}, remote_ip=192.168.1.{i}",
    "[DEBUG] RUNTIME(4321,python):2025-10-{d:02d}-10:{m:02d}:{s:02d}.{ms:03d}.{us:03d} [stream.cc:{l}] "
    "stream {c} sync ok, task_id={i}, mem=0x7ff{c:05x}",
    "2025-12-{d:02d} 10:{m:02d}:{s:02d},{ms:03d} - worker - INFO - request_id=cmpl-{h} prompt_len={l} "
    "decode step {i} took {ms}.{us} ms",
    "[WARNING] HCCL(777,python):2025-11-{d:02d}-11:{m:02d}:{s:02d}.{ms:03d}.{us:03d} [transport.cc:{l}] "
    "retry {i} of 3 for rank {c}, status ok, ret = 0",
]
WITH_CODE = [
    "llm_datadist.status.LLMException: [link] failed, error code is LLMStatusCode.LLM_LINK_FAILED, {{3: 0, 19: 1}}.",
    "[ERROR] LinkLlmClusters failed, ret = 1343270921",
    "PullKvBlocks failed, layer = {l}, role = decoder, ret = 5010b002",
    "[ERROR] GE({i},python):2025-01-01-00:00:00.000.000 ErrorNo: 4294967295(failed)",
]
# ERE with the scanner's rules, as close as grep allows (names, layout numbers
# as whole tokens, context-only values after a status keyword).
GREP_PATTERN = (
    r"(^|[^A-Za-z0-9_])(LLMStatusCode\.)?LLM_[A-Z_]+([^A-Za-z0-9_]|$)"
    r"|(^|[^A-Za-z0-9_])(0[xX])?5010[bB][0-9A-Fa-f]{3}([^A-Za-z0-9_]|$)"
    r"|(^|[^A-Za-z0-9_])13432[0-9]{5}([^A-Za-z0-9_]|$)"
    r"|([Rr]et|RET|[Ss]tatus|[Ee]rr(or)?[ _]?([Cc]ode|[Nn]o)|errno)[ ]*(=|:|is)?[ ]*"
    r"(4294967295|ffffffff|FFFFFFFF|50705[37])([^A-Za-z0-9_]|$)"
)


def generate(path: Path, megabytes: float, every: int, seed: int = 1) -> int:
    """Write about ``megabytes`` MB of log to ``path``; return the number of lines with a code."""
    rnd = random.Random(seed)
    target = int(megabytes * 1_000_000)
    written = coded = 0
    lines: list[str] = []
    n = 0
    with open(path, "w", encoding="ascii") as fh:
        while written < target:
            n += 1
            coded_line = n % every == 0
            template = rnd.choice(WITH_CODE if coded_line else ORDINARY)
            coded += coded_line
            line = template.format(
                d=rnd.randint(1, 28), m=rnd.randint(0, 59), s=rnd.randint(0, 59), ms=rnd.randint(0, 999),
                us=rnd.randint(0, 999), l=rnd.randint(1, 3000), c=rnd.randint(0, 99999),
                i=rnd.randint(0, 255), h=f"{rnd.getrandbits(80):020x}") + "\n"
            lines.append(line)
            written += len(line)
            if len(lines) >= 10000:
                fh.write("".join(lines))
                lines.clear()
        fh.write("".join(lines))
    return coded


def timed(cmd: list[str], **kw) -> tuple[float, subprocess.CompletedProcess]:
    start = time.perf_counter()
    proc = subprocess.run(cmd, stdout=subprocess.PIPE if kw.pop("capture", False) else subprocess.DEVNULL,
                          stderr=subprocess.PIPE, **kw)
    return time.perf_counter() - start, proc


def in_process(path: Path) -> tuple[float, int]:
    from sphinx_llmstatus.scan import scan_stream

    start = time.perf_counter()
    with open(path, "rb") as fh:
        n = sum(1 for _ in scan_stream(fh))
    return time.perf_counter() - start, n


def peak_rss_of_stream(script: Path, gigabytes: float, sample: Path) -> tuple[float, float]:
    """Stream ``gigabytes`` GB (the sample file repeated) into ``llmstatus scan -``; (seconds, peak RSS MB)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    time_bin = "/usr/bin/time" if os.path.exists("/usr/bin/time") else None
    cmd = [str(script), "scan", "--json", "-"]
    if time_bin:  # its own report is exact for this child; getrusage is the fallback
        cmd = [time_bin, "-f", "%M", *cmd]
    proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    data = sample.read_bytes()
    total = int(gigabytes * 1_000_000_000)
    sent = 0
    start = time.perf_counter()
    try:
        while sent < total:
            piece = data[: total - sent]
            proc.stdin.write(piece)
            sent += len(piece)
    finally:
        proc.stdin.close()
    report = proc.stderr.read().decode()
    proc.wait()
    elapsed = time.perf_counter() - start
    if time_bin:
        return elapsed, int(report.strip().splitlines()[-1]) / 1024
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    if peak <= before:
        print("  (peak RSS of this child not above an earlier child's: showing the maximum so far)")
    return elapsed, peak / 1024


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=float, default=200, help="size of the generated log (MB, default 200)")
    parser.add_argument("--every", type=int, default=1000, help="one line in EVERY has a code (default 1000)")
    parser.add_argument("--rounds", type=int, default=3, help="alternating timing rounds (median)")
    parser.add_argument("--rss-gb", type=float, default=2.0, help="GB streamed for the memory run (0 to skip)")
    args = parser.parse_args()

    grep = shutil.which("grep")
    script = Path(sys.executable).parent / "llmstatus"
    if grep is None or not script.exists():
        print("needs grep and the installed llmstatus script", file=sys.stderr)
        return 2
    WORK.mkdir(exist_ok=True)
    log = WORK / f"scan_{args.mb:g}mb_every{args.every}.log"
    if not log.exists():
        print(f"generating {log} ...")
        generate(log, args.mb, args.every)
    size_mb = log.stat().st_size / 1_000_000
    print(f"log: {log} ({size_mb:.1f} MB); python {sys.version.split()[0]}; "
          f"LANG={os.environ.get('LANG', '')!r} LC_ALL={os.environ.get('LC_ALL', '')!r}")

    grep_cmd = [grep, "-cE", GREP_PATTERN, str(log)]
    grep_c_cmd = grep_cmd
    ours_cmd = [str(script), "scan", "--json", str(log)]
    _, g = timed(grep_cmd, capture=True)
    print(f"grep -cE counts {g.stdout.decode().strip()} lines")
    t_grep, t_grep_c, t_ours, t_inproc = [], [], [], []
    hits = 0
    for _ in range(args.rounds):
        # grep's output goes to a pipe: with /dev/null GNU grep stops at the first match.
        t_grep.append(timed(grep_cmd, capture=True)[0])
        t_grep_c.append(timed(grep_c_cmd, capture=True, env={**os.environ, "LC_ALL": "C"})[0])
        t_ours.append(timed(ours_cmd)[0])
        dt, hits = in_process(log)
        t_inproc.append(dt)
    mg, mgc, mo, mi = (statistics.median(t) for t in (t_grep, t_grep_c, t_ours, t_inproc))
    print(f"scan_stream finds {hits} hits")
    print(f"grep -cE (inherited locale)   {size_mb / mg:7.0f} MB/s  ({mg:.3f} s)")
    print(f"grep -cE (LC_ALL=C)           {size_mb / mgc:7.0f} MB/s  ({mgc:.3f} s)")
    print(f"llmstatus scan --json (proc)  {size_mb / mo:7.0f} MB/s  ({mo:.3f} s)  ratio {mg / mo:.2f}x grep, "
          f"{mgc / mo:.2f}x grep LC_ALL=C")
    print(f"scan_stream (in-process)      {size_mb / mi:7.0f} MB/s  ({mi:.3f} s)  ratio {mg / mi:.2f}x grep, "
          f"{mgc / mi:.2f}x grep LC_ALL=C")
    print("bar: ratio >= 0.5")
    if args.rss_gb > 0:
        seconds, peak = peak_rss_of_stream(script, args.rss_gb, log)
        print(f"llmstatus scan - on {args.rss_gb:g} GB streamed: {args.rss_gb * 1000 / seconds:.0f} MB/s, "
              f"peak RSS {peak:.1f} MB (bar: < 100 MB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
