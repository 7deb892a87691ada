"""``llmstatus scan`` against ``grep`` and ``ripgrep``, whatever the words of the log (issues 10, 20).

Generates three logs under ``bench/_work/`` (one line in ``--every`` carries a
real code in one of the real formats), and a gzip copy of the busy one:

* ``quiet``: no LLM DataDist words;
* ``busy``: one line in three also carries LLM DataDist module tags and
  names (``[llm_datadist.cc:..]``, ``LinkLlmClusters``, ``LLM_DATADIST``...),
  which every literal prefilter trips over;
* ``decoy``: three lines in ten hold numbers of the LLM DataDist range as
  field values (``remote_ip=1343270921``, ``cluster_id:1343271024``), which
  are no codes.

For each, in the same run, alternating (median of ``--rounds`` rounds):

* ``LC_ALL=C grep -cE PATTERN FILE`` and ``rg -c PATTERN FILE`` (PATTERN: the
  README's ERE for the codes; ``zcat | grep -cE`` for the ``.gz``);
* ``llmstatus scan --json FILE`` (whole process, output to /dev/null): bar >= 1.0x;
* ``cat FILE | llmstatus scan --json -`` (a pipe): bar >= 0.8x;

then the cost per MB of the slowest shape over the fastest (bar <= 2x), the
prefilter engines alone on the busy log (Hyperscan, RE2 through
``google-re2`` when installed, Python ``re``), the time of each 1 MB line
(the whole command), junk, dense with real codes, or codes in random order, ``llmstatus scan`` (text) with and without
``-C 2`` on ``--flood`` consecutive code lines, each with its own time (bar < 10 s for 1M), and the
peak RSS of ``llmstatus scan -`` streaming ``--rss-gb`` GB (bar < 100 MB). The machine's load average is
printed with the figures: the ratios are measured within one run.

    python bench/bench_scan.py                      # 200 MB, 5 pairs, 2 GB RSS run
    python bench/bench_scan.py --mb 20 --rss-gb 0.2 --rounds 1 --flood 20000   # quick
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
    "[INFO] RUNTIME(4321,python):2025-10-{d:02d}-10:{m:02d}:{s:02d}.{ms:03d}.{us:03d} [stream.cc:{l}] "
    "stream {c} sync ok, task_id={i}, mem=0x7ff{c:05x}",
    "2025-12-{d:02d} 10:{m:02d}:{s:02d},{ms:03d} - worker - INFO - request_id=cmpl-{h} prompt_len={l} "
    "decode step {i} took {ms}.{us} ms",
    "[WARNING] HCCL(777,python):2025-11-{d:02d}-11:{m:02d}:{s:02d}.{ms:03d}.{us:03d} [transport.cc:{l}] "
    "retry {i} of 3 for rank {c}, status ok, ret = 0",
]
TAGGED = [
    "[INFO] GE(12345,python):2025-11-{d:02d}-10:{m:02d}:{s:02d}.{ms:03d}.{us:03d} [llm_datadist.cc:{l}]{c} "
    "LinkLlmClusters start, cluster_id={c}, remote_ip=192.168.1.{i}, LLM_DATADIST link {i}",
    "(VllmWorker rank=0 pid=123) INFO 12-{d:02d} 10:{m:02d}:{s:02d} [llmdatadist_c_mgr_connector.py:{l}] "
    "LLMDataDist pull_blocks done, LLM_ENGINE step {i}, kv blocks {c}",
]
#: Field values in the LLM DataDist number range that are no codes (issue 20): an IP written as an
#: integer falls there whenever it is in 80.16.176.0/20, and LLM DataDist's cluster options write
#: IPs as integers; ids and byte counts fall there too. {v} is a number of that range.
DECOY = [
    "[INFO] GE(12345,python):2025-11-{d:02d}-10:{m:02d}:{s:02d}.{ms:03d}.{us:03d} [llm_link_mgr.cc:{l}] "
    "link cluster_id:{v}, remote_ip={v}, remote_port={c}, local_ip=3232235777",
    "[INFO] HCCL(777,python):2025-11-{d:02d}-11:{m:02d}:{s:02d}.{ms:03d}.{us:03d} [transport.cc:{l}] "
    "connect remoteIp {v} port: {c} rank {i} size={v}",
]
WITH_CODE = [
    "llm_datadist.status.LLMException: [link] failed, error code is LLMStatusCode.LLM_LINK_FAILED, {{3: 0, 19: 1}}.",
    "[ERROR] LinkLlmClusters failed, ret = 1343270921",
    "PullKvBlocks failed, layer = {l}, role = decoder, ret = 5010b002",
    "[ERROR] GE({i},python):2025-01-01-00:00:00.000.000 [llm_datadist.cc:{l}] PullKvCache: ErrorNo: 4294967295(failed)",
]
# The README's ERE for the codes (names, layout numbers as whole tokens,
# shared values after a status keyword).
GREP_PATTERN = (
    r"(^|[^A-Za-z0-9_])(LLMStatusCode\.)?LLM_[A-Z_]+([^A-Za-z0-9_]|$)"
    r"|(^|[^A-Za-z0-9_])(0[xX])?5010[bB][0-9A-Fa-f]{3}([^A-Za-z0-9_]|$)"
    r"|(^|[^A-Za-z0-9_])13432[0-9]{5}([^A-Za-z0-9_]|$)"
    r"|([Rr]et|RET|[Ss]tatus|[Ee]rr(or)?[ _]?([Cc]ode|[Nn]o)|errno)[ ]*(=|:|is)?[ ]*"
    r"(4294967295|ffffffff|FFFFFFFF|50705[37])([^A-Za-z0-9_]|$)"
)
# Lines without a real code (junk a quadratic rule would choke on) ...
HOSTILE = {
    "LLM_ x16000 + a. x40000 (issue 10)": "LLM_ " * 16_000 + "a." * 40_000,
    "LLM_ ret + 40000 spaces (issue 10)": "LLM_ ret" + " " * 40_000 + "x",
    "LLM_ x 200000": "LLM_ " * 200_000,
    "a. x 500000 + name": "a." * 500_000 + "LLM_LINK_FAILED",
    "LLMStatusCode. x 70000": "LLMStatusCode." * 70_000 + "LLM_TIMEOUT",
    "< x 1000000": "<" * 1_000_000,
    "ret = x 160000": "ret = " * 160_000 + "ffffffff",
    "ffffffff x 110000": "ffffffff " * 110_000,
    # Near-misses that go on (a hex id starting 5010b, a longer number), each in new surroundings.
    "5010b<4 hex> x 100000": "".join(f"5010b{i * 7919 % 65536:04x} " for i in range(100_000)),
    "ret = 134327<5 digits> x 55000": "".join(f"ret = 134327{i * 7919 % 100000:05d} " for i in range(55_000)),
    # Qualified-name chains (every name's verdict reads its chain back).
    "LLM_FAILED. x 90909": "LLM_FAILED." * 90_909,
    "(a. x 8 + LLM_FAILED) x 37037": ("a." * 8 + "LLM_FAILED ") * 37_037,
}
# ... and 1 MB lines dense with real codes (every occurrence is a column of a hit).
_DENSE_WORDS = ["ret = 1343270921 ", "LLM_LINK_FAILED ", "0x5010B009 ", "k_ret = ffffffff ",
                "LLMStatusCode.LLM_TIMEOUT ", "error 507053 "]


def _dense() -> dict[str, str]:
    rnd = random.Random(7)
    mb = 1_000_000
    return {
        "1343270921 x 90000": "1343270921 " * 90_000,
        "ret = ffffffff x 66000": "ret = ffffffff " * 66_000,
        "ret = 1343270921 x 58000": ("ret = 1343270921 " * 58_900)[:mb],
        "6 forms repeated (names, numbers, hex)": ("".join(_DENSE_WORDS) * 10_000)[:mb],
        "3 forms in random order": "".join(rnd.choice(_DENSE_WORDS[:3]) for _ in range(80_000))[:mb],
        "6 forms in random order": "".join(rnd.choice(_DENSE_WORDS) for _ in range(70_000))[:mb],
        "4 names in random order": "".join(rnd.choice(["LLM_LINK_FAILED ", "LLM_TIMEOUT ", "LLM_FAILED ",
                                                       "LLM_NOT_YET_LINK "]) for _ in range(80_000))[:mb],
        "ret = 1343270921 id=<random>": "".join(f"ret = 1343270921 id={rnd.randint(0, 99_999)} "
                                                for _ in range(40_000))[:mb],
    }


def _random() -> dict[str, str]:
    """1 MB lines a tester made for issue 20: codes and near-misses in random order, each in new
    surroundings, so that no verdict is remembered from one to the next."""
    rnd = random.Random(20)
    names = sorted(_names())
    keywords = ["ret", "rc", "ret_code", "status", "errno", "error code", "ErrorNo", "code", "result"]
    separators = ["=", ": ", " = ", " ", ":", "(", "["]

    def layout() -> int:
        return rnd.randint(0x5010B000, 0x5010BFFF)

    def cased(text: str) -> str:  # each letter in upper or lower case at random
        return "".join(c.upper() if rnd.random() < 0.5 else c.lower() for c in text)

    def word() -> str:
        return "".join(rnd.choice("abcdefghijklmnopqrstuvwxyzABCDEFGHIJ_") for _ in range(rnd.randint(1, 6)))

    def line(piece) -> str:  # type: ignore[no-untyped-def]
        out, size = [], 0
        while size < 1_000_000:
            out.append(piece())
            size += len(out[-1])
        return "".join(out)[:1_000_000]

    return {
        "rc=<random layout number>": line(lambda: f"rc={layout()} "),
        "<random layout number>": line(lambda: f"{layout()} "),
        "0x<random layout number>": line(lambda: f"0x{layout():x} "),
        "err_num=<random> (a field's name, a keyword)": line(lambda: f"err_num={layout()} "),
        "remote_ip=<random> (no codes)": line(lambda: f"remote_ip={layout()} "),
        "<random word><separator><random>": line(lambda: word() + rnd.choice(["=", ": ", " ", ":", '="', "'='"])
                                                 + str(layout()) + rnd.choice([" ", ", ", '"', "'"])),
        "ret == <random> (comparisons)": line(lambda: rnd.choice(["ret == ", "rc != ", "x==", ""]) + str(layout())
                                              + rnd.choice([" ", " == a ", " != "])),
        "<keyword><separator><shared value>": line(lambda: rnd.choice(keywords) + rnd.choice(separators) + rnd.choice(
            ["ffffffff", "507053", "507057", "4294967295", "0xffffffff"]) + rnd.choice([" ", ", ", "; "])),
        "<keyword><separator><other layer's number>": line(lambda: rnd.choice(keywords) + rnd.choice(separators)
                                                           + str(rnd.choice([103905, 507046, rnd.randint(507000, 507999),
                                                                             rnd.randint(103900, 103999)])) + " "),
        "names in random order": line(lambda: rnd.choice(names) + rnd.choice([" ", ", ", "; ", "|", "(", ")"])),
        "names joined by random . and ::": line(lambda: rnd.choice(["LLM_FAILED", "LLMStatusCode", "ge", "llm_datadist",
                                                                     "LLM_LINK_FAILED", "x"]) + rnd.choice([".", "::"])),
        "all forms in random order": line(lambda: rnd.choice([
            lambda: str(layout()), lambda: f"0x{layout():x}", lambda: rnd.choice(names),
            lambda: rnd.choice(keywords) + "=" + rnd.choice(["ffffffff", "507053", "103905"])])()
            + rnd.choice([" ", ",", ".", "::", "-", "/", "("])),
        "rc=<random HCCL error number> (a dump: 4,096 listed)": line(
            lambda: f"rc=0x{rnd.randint(0x05000000, 0x0503FFFF):08x} "),
        "<keyword><separator><random other layer's number>": line(
            lambda: rnd.choice(keywords) + rnd.choice(separators) + rnd.choice(
                [str(rnd.randint(507000, 507999)), str(rnd.randint(103900, 103999)),
                 f"0x{rnd.randint(0x05000000, 0x0503FFFF):08x}"]) + " "),
        "\\v=0x<random layout number, random case>": line(lambda: "\v=" + cased(f"0x{layout():08x}") + " "),
        "= =0x<random layout number, random case>": line(lambda: "= =" + cased(f"0x{layout():08x}") + " "),
    }


def _names() -> set[str]:
    from sphinx_llmstatus.scan import matcher

    return set(matcher().names)


#: The shapes of log measured: what lines come between the lines with a code.
SHAPES = {
    "quiet": "no LLM DataDist words",
    "busy": "one line in three with LLM DataDist tags",
    "decoy": "3 lines in 10 with LLM-range numbers as field values",
}


def generate(path: Path, megabytes: float, every: int, shape: str, seed: int = 1) -> int:
    """Write about ``megabytes`` MB of log of ``shape`` (:data:`SHAPES`) to ``path``; return the
    number of lines with a code."""
    rnd = random.Random(seed)
    target = int(megabytes * 1_000_000)
    written = coded = 0
    lines: list[str] = []
    n = 0
    with open(path, "w", encoding="ascii") as fh:
        while written < target:
            n += 1
            if n % every == 0:
                template = rnd.choice(WITH_CODE)
                coded += 1
            elif shape == "busy" and n % 3 == 0:
                template = rnd.choice(TAGGED)
            elif shape == "decoy" and n % 10 < 3:
                template = rnd.choice(DECOY)
            else:
                template = rnd.choice(ORDINARY)
            line = template.format(
                d=rnd.randint(1, 28), m=rnd.randint(0, 59), s=rnd.randint(0, 59), ms=rnd.randint(0, 999),
                us=rnd.randint(0, 999), l=rnd.randint(1, 3000), c=rnd.randint(0, 99999),
                i=rnd.randint(0, 255), h=f"{rnd.getrandbits(80):020x}",
                v=rnd.randint(0x5010B000, 0x5010BFFF)) + "\n"
            lines.append(line)
            written += len(line)
            if len(lines) >= 10000:
                fh.write("".join(lines))
                lines.clear()
        fh.write("".join(lines))
    return coded


#: A retry loop's lines, as LLM DataDist's plog and Python logging write them: each with its
#: own time (microseconds apart), the pids of four processes and the source lines changing.
FLOOD = [
    "[ERROR] LLMDATADIST({i},python):{t} [llm_datadist.cc:{l}] LinkLlmClusters failed, ret = 1343270921",
    "[ERROR] GE({i},python):{t} [kv_transfer.cc:{l}] PullKvBlocks failed, layer = {l}, role = decoder, "
    "ret = 5010b002",
    "[ERROR] GE({i},python):{t} [llm_datadist.cc:{l}] PullKvCache: ErrorNo: 4294967295(failed)",
    "{p} ERROR llm_datadist.status.LLMException: [link] failed, error code is LLMStatusCode.LLM_LINK_FAILED, "
    "{{3: 0, 19: 1}}.",
]


def flood(path: Path, lines: int) -> None:
    """Write ``lines`` consecutive lines with a code (a retry loop logging its failure), cycling
    through :data:`FLOOD`, every line with its own time."""
    with open(path, "w", encoding="ascii") as fh:
        for start in range(0, lines, 10000):
            fh.write("".join(_flood_line(n) + "\n" for n in range(start, min(lines, start + 10000))))


def _flood_line(n: int) -> str:
    us = 37 * n  # 37 us apart
    s, us = divmod(us, 1_000_000)
    m, s = divmod(s, 60)
    t = f"2026-11-30-10:{m % 60:02d}:{s:02d}.{us // 1000:03d}.{us % 1000:03d}"
    p = f"2026-11-30 10:{m % 60:02d}:{s:02d},{us // 1000:03d}"
    return FLOOD[n % len(FLOOD)].format(i=4242 + n % 4, l=100 + n % 300, t=t, p=p)


#: Consecutive code lines the flood bar is set for (issue 20: < 10 s, with and without -C 2).
FLOOD_LINES = 1_000_000


def flooded(script: Path, lines: int) -> None:
    """Time ``llmstatus scan`` (text, to a pipe) on ``lines`` consecutive code lines, without and with ``-C 2``."""
    log = WORK / f"flood_timed_{lines}.log"
    if not log.exists():
        flood(log, lines)
    bar = 10 * lines / FLOOD_LINES
    for args in ([], ["-C", "2"]):
        seconds = timed([str(script), "scan", *args, str(log)])
        print(f"  llmstatus scan {' '.join([*args, 'FILE'])}: {seconds:.1f} s, {seconds / lines * 1e6:.0f} us a line "
              f"(bar < {bar:g} s)")


def timed(cmd: str | list[str], shell: bool = False, env: dict | None = None) -> float:
    start = time.perf_counter()
    # grep's output goes to a pipe: with /dev/null GNU grep stops at the first match.
    subprocess.run(cmd, shell=shell, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env, check=False)
    return time.perf_counter() - start


#: Size of the log (MB) the throughput bars are set for (issue 10).
BAR_MB = 200


def ratios(log: Path, script: Path, rounds: int) -> float:
    """Time ``llmstatus scan --json`` on ``log`` (a file, a pipe; a ``.gz`` log as such) against
    ``LC_ALL=C grep -cE`` and ``rg -c`` with the README's pattern (``zcat | grep -cE`` for a
    ``.gz``), alternating, median of ``rounds``; print the ratios and return our seconds per MB."""
    env_c = {**os.environ, "LC_ALL": "C"}
    gz = log.suffix == ".gz"
    pattern = GREP_PATTERN.replace("'", "")  # (it holds no quote: shell-safe between quotes)
    baselines = {"zcat | LC_ALL=C grep -cE": f"zcat '{log}' | grep -cE '{pattern}'"} if gz else {
        "LC_ALL=C grep -cE": f"grep -cE '{pattern}' '{log}'"}
    if not gz and shutil.which("rg"):
        baselines["rg -c"] = f"rg -c '{pattern}' '{log}'"
    elif not gz:  # (the bars are against both: say so, rather than leave a column out)
        print("  (rg not installed: ripgrep not measured)")
    ours = {"llmstatus scan --json FILE": f"'{script}' scan --json '{log}' > /dev/null"}
    if not gz:
        ours["cat FILE | llmstatus scan -"] = f"cat '{log}' | '{script}' scan --json - > /dev/null"
    times: dict[str, list[float]] = {name: [] for name in (*baselines, *ours)}
    for _ in range(rounds):
        for name, cmd in (*baselines.items(), *ours.items()):
            times[name].append(timed(cmd, shell=True, env=env_c))
    size = log.stat().st_size / 1e6
    if gz:  # throughput of the log it holds
        size = int(subprocess.run(f"zcat '{log}' | wc -c", shell=True, capture_output=True, text=True).stdout) / 1e6
    best = {name: statistics.median(t) for name, t in times.items()}
    for name in baselines:
        print(f"  {name:28s} {size / best[name]:7.0f} MB/s ({best[name]:.3f} s)")
    for name in ours:
        bar = 0.8 if name.startswith("cat") else 1.0
        vs = "  ".join(f"{best[b] / best[name]:.2f}x {b.split()[-2] if 'grep' in b else 'rg'}" for b in baselines)
        print(f"  {name:28s} {size / best[name]:7.0f} MB/s ({best[name]:.3f} s)  {vs} (bar >= {bar}x)")
    if size < BAR_MB:
        print(f"  (the bars are for {BAR_MB} MB: on {size:.0f} MB the start of the Python process "
              "weighs more against grep)")
    return best["llmstatus scan --json FILE"] / size


def engines(log: Path) -> None:
    """The prefilters alone (candidate lines of the log's first 20 MB, in memory), fastest installed first."""
    from sphinx_llmstatus.scan.engine import scanner
    from sphinx_llmstatus.scan.prefilter import available
    from sphinx_llmstatus.scan.reading import Block, iter_segments

    patterns = scanner().matcher.prefilter
    candidates = {}
    for name in available():
        candidates[name] = scanner(engine=name).prefilter
    try:
        import re2

        class Re2Prefilter:
            """One RE2 alternation of the Hyperscan patterns, searched line by line."""

            def __init__(self, pats):  # type: ignore[no-untyped-def]
                self._search = re2.compile(b"|".join(b"(?:" + p + b")" for p in pats)).search

            def starts(self, data: bytes, end: int) -> list[int]:
                out, pos = [], 0
                while True:
                    m = self._search(data, pos, end)
                    if m is None:
                        return out
                    out.append(data.rfind(b"\n", 0, m.start()) + 1)
                    nl = data.find(b"\n", m.start(), end)
                    if nl < 0:
                        return out
                    pos = nl + 1

        candidates["re2"] = Re2Prefilter(patterns)
    except ImportError:
        print("  (google-re2 not installed: RE2 not measured)")
    import io

    with open(log, "rb") as fh:  # the first 20 MB: the pure-Python prefilter is slow
        blocks = [bytes(seg.data[:seg.end]) for seg in iter_segments(io.BytesIO(fh.read(20_000_000))) if isinstance(seg, Block)]
    size = sum(len(b) for b in blocks) / 1e6
    for name, pf in candidates.items():
        start = time.perf_counter()
        lines = sum(len(pf.starts(b, len(b))) for b in blocks)
        dt = time.perf_counter() - start
        print(f"  prefilter {name:10s} {size / dt:7.0f} MB/s ({dt:.3f} s), {lines} candidate lines")


#: Timings per 1 MB line, of which the least is kept.
REPEATS = 5


def hostile(script: Path) -> None:
    """Each 1 MB line, as the bar states it: ``llmstatus scan --json FILE`` as a whole (start-up
    included, output to /dev/null), best of :data:`REPEATS` (the least is the command's cost, the
    rest is this shared machine's noise); and, for the lines dense with real codes, as a baseline of
    the same run, Python's ``re`` listing the matches of the README's pattern on the line (a plain
    ``re`` scan that decides nothing; on the junk lines that pattern is quadratic, 14 s on issue
    10's line of spaces, so it is not run there)."""
    import re

    from sphinx_llmstatus.scan import scan_text

    floor = re.compile(GREP_PATTERN)
    machine = min(map(_reference, range(REPEATS)))
    print(f"  this machine now: sum(range(10**6)) takes {machine * 1000:.1f} ms")
    empty = WORK / "empty.log"
    empty.write_bytes(b"")
    start = min(timed(f"'{script}' scan --json '{empty}'", shell=True) for _ in range(REPEATS))
    print(f"  llmstatus scan --json on an empty file (the command's start): {start:.3f} s")
    groups = (("junk", HOSTILE), ("dense with real codes", _dense()), ("random, in new surroundings", _random()))
    for title, lines in groups:
        worst = 0.0
        for name, line in lines.items():
            path = WORK / "line_1mb.log"
            path.write_text(line + "\n", encoding="utf-8")
            best = min(timed(f"'{script}' scan --json '{path}' > /dev/null", shell=True) for _ in range(REPEATS))
            worst = max(worst, best)
            columns = sum(len(h.columns) for h in scan_text(line))
            versus = ""
            if title == "dense with real codes":
                base = min(_time_line(lambda text: [m.span() for m in floor.finditer(text)], line) for _ in range(REPEATS))
                versus = f"  (re listing the pattern's matches in-process: {base * 1000:.1f} ms)"
            print(f"  {name:46s} {len(line) / 1e6:5.2f} MB {columns:6d} columns {best:6.2f} s{versus}")
        print(f"  worst {title} line: {worst:.2f} s with the command's start (bar < 1 s for any line up to 1 MB)")


def _reference(_: int = 0) -> float:
    """Seconds of ``sum(range(10**6))``: how fast this machine runs Python at the moment."""
    start = time.perf_counter()
    sum(range(10**6))
    return time.perf_counter() - start


def _time_line(scan, line: str) -> float:  # type: ignore[no-untyped-def]
    start = time.perf_counter()
    list(scan(line))
    return time.perf_counter() - start


def peak_rss_of_stream(script: Path, gigabytes: float, sample: Path) -> tuple[float, float]:
    """Stream ``gigabytes`` GB (the sample file repeated) into ``llmstatus scan -``; (seconds, peak RSS MB)."""
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
            proc.stdin.write(piece)  # type: ignore[union-attr]
            sent += len(piece)
    finally:
        proc.stdin.close()  # type: ignore[union-attr]
    report = proc.stderr.read().decode()  # type: ignore[union-attr]
    proc.wait()
    elapsed = time.perf_counter() - start
    if time_bin:
        return elapsed, int(report.strip().splitlines()[-1]) / 1024
    return elapsed, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=float, default=BAR_MB, help=f"size of the generated logs (MB, default {BAR_MB})")
    parser.add_argument("--every", type=int, default=1000, help="one line in EVERY has a code (default 1000)")
    parser.add_argument("--rounds", type=int, default=5, help="alternating timing pairs (median)")
    parser.add_argument("--rss-gb", type=float, default=2.0, help="GB streamed for the memory run (0 to skip)")
    parser.add_argument("--no-engines", action="store_true", help="skip the prefilter comparison")
    parser.add_argument("--flood", type=int, default=FLOOD_LINES,
                        help=f"consecutive code lines timed (default {FLOOD_LINES:,}; 0 to skip)")
    args = parser.parse_args()

    script = Path(sys.executable).parent / "llmstatus"
    if shutil.which("grep") is None or not script.exists():
        print("needs grep and the installed llmstatus script", file=sys.stderr)
        return 2
    import compileall

    import sphinx_llmstatus
    from sphinx_llmstatus.scan.engine import scanner

    # An installed wheel ships compiled bytecode; an editable checkout run with
    # PYTHONDONTWRITEBYTECODE=1 would recompile every module in every timed run.
    compileall.compile_dir(str(Path(sphinx_llmstatus.__file__).parent), quiet=1)
    WORK.mkdir(exist_ok=True)
    print(f"python {sys.version.split()[0]}; scan engine {scanner().engine}; {os.cpu_count()} CPUs; "
          f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    logs = {}
    for shape in SHAPES:
        log = WORK / f"scan_{shape}_{args.mb:g}mb_every{args.every}.log"
        if not log.exists():
            print(f"generating {log} ...")
            generate(log, args.mb, args.every, shape)
        logs[shape] = log
    packed = logs["busy"].with_suffix(".log.gz")
    if not packed.exists():  # made by the real tool, as logs are rotated
        subprocess.run(["gzip", "-k", "-6", str(logs["busy"])], check=True)
    per_mb = {}
    for shape, log in [*logs.items(), ("busy, gzip", packed)]:
        what = SHAPES.get(shape, "the busy log compressed by gzip -6")
        print(f"{shape} log ({what}), {log.stat().st_size / 1e6:.0f} MB, median of {args.rounds} rounds:")
        per_mb[shape] = ratios(log, script, args.rounds)
    plain = {k: v for k, v in per_mb.items() if "gzip" not in k}
    print(f"cost per MB, slowest shape / fastest: {max(plain.values()) / min(plain.values()):.2f}x (bar <= 2x)")
    if not args.no_engines:
        print("prefilter engines on the busy log (first 20 MB in memory, one pass):")
        engines(logs["busy"])
    print(f"1 MB lines (the whole command, best of {REPEATS}):")
    hostile(script)
    if args.flood > 0:
        print(f"{args.flood:,} consecutive code lines:")
        flooded(script, args.flood)
    if args.rss_gb > 0:
        seconds, peak = peak_rss_of_stream(script, args.rss_gb, logs["busy"])
        print(f"llmstatus scan - on {args.rss_gb:g} GB streamed: {args.rss_gb * 1000 / seconds:.0f} MB/s, "
              f"peak RSS {peak:.1f} MB (bar < 100 MB)")
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
