"""The prefilter helper process (``scan.helper``): the same hits whoever prefilters a block, a
helper that dies or is interrupted, no helper where it cannot help."""

from __future__ import annotations

import io
import os
import random
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from sphinx_llmstatus.registry.packaged import default_registry
from sphinx_llmstatus.scan import engine, helper, readahead, reading
from sphinx_llmstatus.scan.events import Found
from sphinx_llmstatus.scan.interrupt import held_back
from sphinx_llmstatus.scan.pipeline import ScanOptions, events
from sphinx_llmstatus.scan.prefilter import available

pytestmark = pytest.mark.skipif(not hasattr(os, "fork") or not helper.usable() or "hyperscan" not in available(),
                                reason="needs fork, 2 CPUs and Hyperscan")

CORPUS = Path(__file__).parent / "corpus"
_real_usable, _real_long_line = helper.usable, reading.LONG_LINE
#: Blocks and long lines made small, so a log of a few MB reads as many blocks and long lines.
READ, LONG = 64 << 10, 256 << 10


def _log(seed: int = 5) -> bytes:
    """About 2 MB: the corpus's lines (codes, symptoms, clues, evidence) among quiet lines,
    field-value decoys, and lines longer than LONG."""
    rnd = random.Random(seed)
    corpus = [line for p in sorted(CORPUS.glob("*.log")) for line in p.read_bytes().splitlines()]
    quiet = [b"[INFO] RUNTIME(4321,python):2025-10-01-10:00:00.000.000 [stream.cc:12] stream sync ok, task_id=%d",
             b"[INFO] GE(12345,python):2025-11-01-10:00:00.000.000 [llm_link_mgr.cc:9] link remote_ip=%d port 3"]
    out = []
    for _ in range(24_000):
        pick = rnd.random()
        if pick < 0.0003:
            out.append(b"ret = 1343270921 " + b"y" * (LONG + 1000))
        elif pick < 0.05:
            out.append(rnd.choice(corpus))
        else:
            out.append(rnd.choice(quiet) % rnd.randint(0x5010B000, 0x5010BFFF))
    out.insert(12_000, b"z" * (LONG * 2) + b" LLMStatusCode.LLM_TIMEOUT")
    return b"\n".join(out) + b"\n"


def _hits(data: bytes, use_helper: bool, on_add=None) -> list[tuple]:
    sc = engine.scanner(default_registry())
    ahead = readahead._read_ahead(sc, use_helper)
    segments = reading.iter_segments(io.BytesIO(data), READ, ahead.swap if ahead is not None else None)
    out = []
    for hit in engine._scan_segments(segments, sc, False, None, True, ahead):
        if not isinstance(hit, int):
            out.append((hit.line_no, hit.column, hit.token, hit.family, hit.evidence, hit.columns))
    return out


@pytest.fixture
def small_blocks(monkeypatch):
    monkeypatch.setattr(helper, "SLOT_SIZE", LONG)  # as in the command: the reader's biggest block
    monkeypatch.setattr(reading, "LONG_LINE", LONG)
    # Earlier tests of the session may leave a thread running (a server's, a pool's): the helper
    # these tests fork only prefilters, as it would in the command's single thread.
    monkeypatch.setattr(helper, "usable", lambda: True)
    forks = []
    real = helper.Helper.__init__

    def counted(self, *args):
        real(self, *args)
        forks.append(self.pid)

    monkeypatch.setattr(helper.Helper, "__init__", counted)
    return forks


def test_the_same_hits_whoever_prefilters_a_block(small_blocks, monkeypatch):
    data = _log()
    alone = _hits(data, False)
    assert len(alone) > 500 and not small_blocks
    real_add, copied = helper.Ahead.add, []

    def add(self, data, end):
        copied.append(all(data is not slot for slot in self._slots))
        real_add(self, data, end)

    monkeypatch.setattr(helper.Ahead, "add", add)
    assert _hits(data, True) == alone
    assert len(small_blocks) == 1  # one helper, forked at the second block
    # The reader reads into the slots: copied are the first block held and those after a long line.
    assert len(copied) > 40 and copied.count(True) == 1 + sum(len(line) > LONG for line in data.split(b"\n"))


def test_the_helper_takes_every_block_this_process_has_no_time_for(small_blocks, monkeypatch):
    """A flood of code lines: this process's Python work on a block takes longer than the helper's
    prefilter, so the helper is offered the blocks held again as each is taken, and this process
    prefilters only the first block (taken before the helper is forked). Blocks held while the
    helper was busy were left to this process before."""
    lines = [b"[ERROR] GE(%d,python):2026-11-30-10:00:%02d.%06d [kv_transfer.cc:101] PullKvBlocks failed, "
             b"ret = 5010b002" % (4242 + n % 4, n // 1_000_000 % 60, n % 1_000_000) for n in range(0, 740_000, 37)]
    data = b"\n".join(lines) + b"\n"
    sc = engine.scanner(default_registry())
    real, mine = type(sc.prefilter).starts_watched, []

    def starts_watched(self, *args):
        mine.append(os.getpid())
        return real(self, *args)

    monkeypatch.setattr(type(sc.prefilter), "starts_watched", starts_watched)
    added = []
    real_add = helper.Ahead.add
    monkeypatch.setattr(helper.Ahead, "add", lambda self, *args: added.append(1) or real_add(self, *args))
    assert len(_hits(data, True)) == len(lines)
    assert len(added) > 20 and len(mine) == 1


def test_a_helper_that_dies_leaves_the_rest_to_this_process(small_blocks, monkeypatch):
    data = _log(6)
    alone = _hits(data, False)
    real_add, added = helper.Ahead.add, []

    def add(self, *args):
        added.append(1)
        if len(added) == 8 and self._helper is not None:
            os.kill(self._helper.pid, signal.SIGKILL)
        real_add(self, *args)

    monkeypatch.setattr(helper.Ahead, "add", add)
    assert _hits(data, True) == alone
    assert len(small_blocks) == 1


def test_no_helper_for_one_block_nor_with_threads(small_blocks):
    data = b"ret = 1343270921\n" * 100
    assert _hits(data, True) == _hits(data, False)
    assert not small_blocks
    stop = threading.Event()
    thread = threading.Thread(target=stop.wait)
    thread.start()
    try:
        assert not _real_usable()  # forking a threaded process is unsafe
    finally:
        stop.set()
        thread.join()


def test_the_command_gives_the_events_of_one_process(tmp_path, small_blocks, monkeypatch):
    """The pipeline with the helper (the command's) and without it (a notebook's): the same events."""
    monkeypatch.setattr(helper, "SLOT_SIZE", reading.READ_SIZE)
    monkeypatch.setattr(reading, "LONG_LINE", _real_long_line)
    log = tmp_path / "big.log"
    log.write_bytes(_log(7) * 6)  # 12 MB: 3 blocks of the real size
    registry = default_registry()

    def seen(use_helper: bool) -> list:
        return [(type(e).__name__, [(h.line_no, h.token, h.family, str(h.diagnosis)) for h in getattr(e, "hits", [])])
                for e in events(str(log), ScanOptions(helper=use_helper), registry)]

    assert seen(True) == seen(False)
    assert len(small_blocks) == 1


def test_standard_input_gets_a_helper_too(small_blocks, monkeypatch):
    """Standard input's blocks are shared with the helper (held only while its writer writes on:
    tests/test_scan_bundles.py), with the same events as without."""
    monkeypatch.setattr(helper, "SLOT_SIZE", 8 << 20)  # as in the command: its reads of 4 MiB
    monkeypatch.setattr(reading, "LONG_LINE", 8 << 20)
    data = _log(8) * 5  # 10 MB: 3 blocks
    registry = default_registry()

    def seen(use_helper: bool) -> list:  # (how hits are gathered into events may differ)
        return [(h.line_no, h.token, h.family, str(h.diagnosis)) if isinstance(e, Found) else type(e).__name__
                for e in events("-", ScanOptions(helper=use_helper), registry, stdin=io.BytesIO(data))
                for h in (e.hits if isinstance(e, Found) else [None])]

    assert seen(True) == seen(False)
    assert len(small_blocks) == 1


def test_ctrl_c_leaves_no_helper_behind(tmp_path):
    big = tmp_path / "big.log"
    big.write_bytes((b"x" * 200 + b" remote_ip=1343270921 ret = 1343270922\n") * ((40 << 20) // 240))
    proc = subprocess.Popen([sys.executable, "-m", "sphinx_llmstatus", "scan", "--json", str(big)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    deadline = time.monotonic() + 30
    while len(_session(proc.pid)) < 2 and time.monotonic() < deadline:  # the helper is up
        time.sleep(0.05)
    assert len(_session(proc.pid)) == 2, "no helper seen"
    os.killpg(proc.pid, signal.SIGINT)
    _, stderr = proc.communicate(timeout=60)
    assert proc.returncode == 130 and b"Traceback" not in stderr, stderr.decode()
    assert _session(proc.pid) == []


def _session(sid: int) -> list[int]:
    """The live (not zombie) processes of session ``sid``."""
    out = []
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                if os.getsid(int(name)) == sid and " Z " not in Path(f"/proc/{name}/stat").read_text():
                    out.append(int(name))
            except OSError:
                pass
    return out


def test_descriptors_above_1023_and_a_pipe_that_cannot_be_made(small_blocks, monkeypatch):
    """A command holding many files (select() refuses a descriptor above 1023), and one that cannot
    make the helper's pipes: the same hits, no descriptor left open."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if max(soft, hard if hard != resource.RLIM_INFINITY else 2048) < 1100:
        pytest.skip("cannot open 1100 files")
    data = _log(9)
    alone = _hits(data, False)
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, 1100), hard))
    held = []
    try:
        while not held or held[-1] < 1030:
            held.append(os.dup(0))
        assert _hits(data, True) == alone and len(small_blocks) == 1
    finally:
        for fd in held:
            os.close(fd)
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
    real_pipe, made = os.pipe, []

    def second_fails():
        if made:
            raise OSError(24, "Too many open files")
        made.append(real_pipe())
        return made[-1]

    before = len(os.listdir("/proc/self/fd"))
    monkeypatch.setattr(os, "pipe", second_fails)
    assert _hits(data, True) == alone
    monkeypatch.setattr(os, "pipe", real_pipe)
    assert len(os.listdir("/proc/self/fd")) == before and len(small_blocks) == 1


def test_a_stopped_helper_and_ctrl_c_at_the_fork(small_blocks, monkeypatch):
    data = _log(10)
    alone = _hits(data, False)
    monkeypatch.setattr(helper, "PATIENCE_MS", 300)
    real_add, added = helper.Ahead.add, []

    def add(self, *args):
        added.append(1)
        if len(added) == 3 and self._helper is not None:
            os.kill(self._helper.pid, signal.SIGSTOP)  # an operator's Ctrl-Z, or a debugger
        real_add(self, *args)

    monkeypatch.setattr(helper.Ahead, "add", add)
    assert _hits(data, True) == alone  # this process waited 0.3 s, then did the blocks itself
    monkeypatch.setattr(helper.Ahead, "add", real_add)
    real_fork = os.fork

    def interrupted_fork():  # Ctrl-C reaches both processes as fork returns
        pid = real_fork()
        os.kill(os.getpid(), signal.SIGINT)
        return pid

    monkeypatch.setattr(os, "fork", interrupted_fork)
    with pytest.raises(KeyboardInterrupt):
        _hits(data, True)
    with pytest.raises(ChildProcessError):  # the helper was stopped and reaped by the scan's end
        os.waitpid(small_blocks[-1], os.WNOHANG)


@pytest.mark.parametrize("where", ["a line", "a line the helper decided", "waiting for an answer",
                                   "reading an answer", "holding a block", "sending a block"])
def test_ctrl_c_anywhere_gives_the_hits_of_what_was_read_numbered_right(small_blocks, monkeypatch, where):
    """A real Ctrl-C (SIGINT to this process) while the scanner reads a line, waits for or reads
    the helper's answer, holds or sends a block: the hits given are those of the whole scan up to
    where it stopped, each line numbered right. Scans lost the rest of a block and misnumbered
    every later line (a numbered log's line 165,907 as 15,886), or paired a block with the answer
    of the one before (a tester's KeyError, CI's "bad marshal data": exit 1)."""
    data = _log(7)
    alone = _hits(data, False)
    target, name, nth = {"a line": (engine._Segments, "_line", 30), "a line the helper decided": (
                             engine._Segments, "_picked", 150), "waiting for an answer": (helper.Helper, "wait", 4),
                         "reading an answer": (os, "read", 4), "holding a block": (helper.Ahead, "add", 6),
                         "sending a block": (helper.Helper, "send", 5)}[where]
    real, calls = getattr(target, name), []

    def hooked(*args):
        # Counted once the helper runs (the first block is this process's own, however many of
        # the corpus's lines it holds), and of os.read the helper's answers only.
        if small_blocks and (target is not os or args[1] == 1 << 16):
            calls.append(1)
            if len(calls) == nth and target is not os:
                os.kill(os.getpid(), signal.SIGINT)
        got = real(*args)
        if target is os and len(calls) == nth and args[1] == 1 << 16:  # once the answer is read
            os.kill(os.getpid(), signal.SIGINT)
        return got

    monkeypatch.setattr(target, name, hooked)
    sc = engine.scanner(default_registry())
    ahead = readahead._read_ahead(sc, True)
    segments = reading.iter_segments(io.BytesIO(data), READ, ahead.swap if ahead is not None else None)
    got = []
    with pytest.raises(KeyboardInterrupt):
        for hit in engine._scan_segments(segments, sc, False, None, True, ahead):
            if not isinstance(hit, int):
                got.append((hit.line_no, hit.column, hit.token, hit.family, hit.evidence, hit.columns))
    assert len(calls) >= nth and small_blocks
    assert 0 < len(got) < len(alone) and got == alone[:len(got)]


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads /proc")
def test_the_helper_leaves_no_signal_held_back(small_blocks):
    """The helper is forked with SIGINT and SIGTERM held back (:func:`~.interrupt.held_back`); it
    ignores SIGINT and must still end on SIGTERM (a held SIGTERM would be never delivered)."""
    sc = engine.scanner(default_registry())
    ahead = readahead._read_ahead(sc, True)
    segments = reading.iter_segments(io.BytesIO(_log(8)), READ, ahead.swap if ahead is not None else None)
    masks = []
    for _ in engine._scan_segments(segments, sc, False, None, True, ahead):
        if small_blocks and not masks:
            status = Path(f"/proc/{small_blocks[0]}/status").read_text()
            masks.append(int(next(line for line in status.splitlines() if line.startswith("SigBlk:")).split()[1], 16))
    assert masks and masks[0] & (1 << (signal.SIGINT - 1) | 1 << (signal.SIGTERM - 1)) == 0


def test_a_second_ctrl_c_while_the_helper_stops_is_dropped():
    with held_back(discard=True):
        os.kill(os.getpid(), signal.SIGINT)
    time.sleep(0.01)  # nothing is raised: the scan is ending already


def test_the_progress_line_starts_no_thread(monkeypatch, tmp_path):
    """tqdm's monitor thread would keep the helper from forking on every terminal."""
    from sphinx_llmstatus.cli import progress

    monkeypatch.setattr(progress, "_is_tty", lambda stream: True)
    before = threading.active_count()
    with progress.Progress([str(Path(__file__))]):
        assert threading.active_count() == before


def test_the_helper_counts_the_line_breaks_before_each_line_it_gives():
    data = _log(7)[:300_000]
    rnd = random.Random(1)
    positions = rnd.sample(range(len(data) - 1000), 50)
    counts = reading.line_counts(data, len(data) - 1000, positions)
    assert counts == {p: data.count(b"\n", 0, p) for p in [*positions, len(data) - 1000]}
    assert reading.line_counts(data, 10, []) == {10: data.count(b"\n", 0, 10)}


def _decided(data: bytes, include_success: bool = False) -> list[tuple]:
    """Each hit of ``data`` (one block) decided by this process, as a tuple of all its fields."""
    sc = engine.scanner(default_registry())
    segments = reading.iter_segments(io.BytesIO(data), len(data) + 1)
    return [(h.line_no, *engine.astuple_but_line(h)) for h in engine._scan_segments(segments, sc, include_success, None)]


@pytest.mark.parametrize("include_success", [False, True])
def test_the_helper_decides_the_lines_of_a_shape_from_its_second_on(include_success):
    """Premade, the helper's half, run here on one block twice: a shape's first line is left to this
    process, its later ones name the hits sent once (at its second line); a line whose candidate
    is no code (the success code unless asked for) is NOTHING; a shared number without context on
    its line (it looks at its neighbours) is left. The hits made from the answer are, field for
    field, those this process decides alone."""
    lines = [b"[ERROR] GE(4243,python):2026-11-30-10:00:00.%03d.000 [kv_transfer.cc:101] PullKvBlocks failed, "
             b"ret = 5010b002" % n for n in range(5)]
    lines += [b"INFO local_rank 0 link, ret=[<LLMStatusCode.LLM_SUCCESS: 0>]"] * 2
    lines += [b"[ERROR] HCCL(9,python):2026-11-30-10:00:00.000.00%d [x.cc:2] call failed, ret = 4294967295" % n
              for n in range(2)]
    data = b"\n".join(lines) + b"\n"
    sc = engine.scanner(default_registry())
    starts = sc.prefilter.starts_watched(data, len(data), sc.unwatched)[0]
    line_of = {s: data.count(b"\n", 0, s) for s in starts}
    assert sorted(line_of.values()) == list(range(9))
    decide, here = readahead.Premade(sc, include_success), engine._Segments(sc, include_success, None)
    answers = []
    for _ in range(2):
        picks, sent = decide(data, len(data), starts, data.count(b"\n"))
        here._take(picks, sent)
        answers.append(({line_of[s]: p for s, p in picks.items()}, sent is not None))
    success = 1 if include_success else engine.NOTHING
    assert answers[0] == ({1: 0, 2: 0, 3: 0, 4: 0, 6: success, **({} if include_success else {5: success})}, True)
    assert answers[1] == ({n: 0 for n in range(5)} | {5: success, 6: success}, False)
    expected = _decided(data, include_success)
    for n, index in answers[1][0].items():
        made = [(n + 1, lines[n].decode(), *fields) for fields in here.premade.get(index, [])]
        assert made == [h for h in expected if h[0] == n + 1]


def test_the_lines_the_helper_decides_give_every_field_as_decided_here(small_blocks, monkeypatch):
    """Through the forked helper: a retry loop's flood (its lines of two shapes, every line with its
    own time) is decided there but for each shape's first line, with every field of every hit as
    this process decides it; a flood whose lines never repeat is left here."""
    loop = _loop()
    unique = [b"[ERROR] GE(1,python): request %d failed, ret = 5010b002" % n for n in range(20_000)]
    picked = []
    real = engine._Segments._picked
    monkeypatch.setattr(engine._Segments, "_picked", lambda self, *args: picked.append(1) or real(self, *args))
    sc = engine.scanner(default_registry())
    for lines, most in ((loop, True), (unique, False)):
        data = b"\n".join(lines) + b"\n"
        here = [(h.line_no, *engine.astuple_but_line(h)) for h in _all_hits(sc, data, False)]
        picked.clear()
        assert [(h.line_no, *engine.astuple_but_line(h)) for h in _all_hits(sc, data, True)] == here
        assert len(here) == len(lines)
        if most:  # the first block and each shape's first line are decided here
            assert len(picked) > len(lines) * 0.8
        else:
            assert len(picked) == 0


def test_the_helper_stops_deciding_a_block_whose_lines_never_repeat(monkeypatch):
    """Sending a shape's hits costs more than deciding its line here: a line whose shape never comes
    again is left, and once a block left LEFT lines (and more than it decided) the rest are too; a
    block of few candidate lines is left whole."""
    lines = [b"[ERROR] GE(1,python): request %d failed, ret = 5010b002" % n for n in range(3 * readahead.LEFT)]
    data = b"\n".join(lines) + b"\n"
    sc = engine.scanner(default_registry())
    decide, calls = readahead.Premade(sc, False), []
    real = readahead.Premade._pick
    monkeypatch.setattr(readahead.Premade, "_pick", lambda self, *args: calls.append(1) or real(self, *args))
    starts = sc.prefilter.starts_watched(data, len(data), sc.unwatched)[0]
    assert len(starts) == len(lines)
    assert decide(data, len(data), starts, len(lines)) == ({}, None) and len(calls) == readahead.LEFT + 1
    # Among quiet lines (fewer than one candidate line in SPARSE) the helper decides none: this
    # process has time for them, the helper has a block to prefilter.
    calls.clear()
    assert decide(data, len(data), starts, len(lines) * readahead.SPARSE + 1) is None and not calls
    # The shapes seen once are held at most PREMADE, and a block's own, however many blocks come.
    monkeypatch.setattr(readahead, "PREMADE", 100)
    for n in range(20):
        block = b"".join(b"[ERROR] GE(1,python): request %d-%d failed, ret = 5010b002\n" % (n, i) for i in range(300))
        decide(block, len(block), sc.prefilter.starts_watched(block, len(block), sc.unwatched)[0], 300)
        assert len(decide._seen) <= 100 + readahead.LEFT + 1


def _loop() -> list[bytes]:
    """A retry loop's lines: two shapes, every line with its own time."""
    return [b"[ERROR] GE(%d,python):2026-11-30-10:00:%02d.%03d.%03d [kv_transfer.cc:%d] PullKvBlocks failed, "
            b"ret = 5010b002" % (4242 + n % 2, n // 1_000_000 % 60, n // 1000 % 1000, n % 1000, 100 + n % 2)
            for n in range(0, 600_000, 37)]


def _all_hits(sc, data: bytes, use_helper: bool) -> list:
    ahead = readahead._read_ahead(sc, use_helper)
    segments = reading.iter_segments(io.BytesIO(data), READ, ahead.swap if ahead is not None else None)
    return [h for h in engine._scan_segments(segments, sc, False, None, True, ahead) if not isinstance(h, int)]


@pytest.mark.parametrize("log", ["mixed", "retry loop"])
def test_the_groups_of_lines_are_the_same_with_a_helper(small_blocks, monkeypatch, log):
    """``-C``: the blocks read ahead for the helper are kept for their groups when their turn
    comes, not while they wait; the groups are those of a scan without a helper, whether the
    helper only prefilters (a mixed log) or decides the lines too (a retry loop's)."""
    from sphinx_llmstatus.scan.around import context_groups

    monkeypatch.setattr(readahead, "iter_segments", lambda stream, **kw: reading.iter_segments(stream, READ, **kw))
    data = _log(8) if log == "mixed" else b"\n".join(_loop()) + b"\n"
    sc, got = engine.scanner(default_registry()), {}
    for use_helper in (False, True):
        groups = context_groups(io.BytesIO(data), 2, sc.reading(False, None), True, readahead.ReadAhead(use_helper))
        # (The counts of lines read between them follow the blocks read, which a reader that
        # reads into the helper's slots may cut elsewhere.)
        got[use_helper] = [(before, [h.line_no for h in hits], after)
                           for run in groups if not isinstance(run, int) for before, hits, after in run]
    assert len(small_blocks) == 1 and len(got[False]) > 500
    assert got[True] == got[False]


def test_ctrl_c_with_context_keeps_each_group_s_own_lines(small_blocks, monkeypatch):
    """``-C`` and Ctrl-C while a block is read, blocks held for the helper: the cut block's hits
    go up before the held blocks are kept, so each group's lines are the ones around its own.
    They were not: the held blocks' reading let the cut block's lines go first, and its groups
    took lines tens of thousands away (a tester's ``--json -C 2`` wrote 25 GB)."""
    from sphinx_llmstatus.scan.around import context_groups

    monkeypatch.setattr(readahead, "iter_segments", lambda stream, **kw: reading.iter_segments(stream, READ, **kw))
    data = b"\n".join(_loop()) + b"\n"
    real, calls = engine._Segments._picked, []

    def hooked(*args):
        if small_blocks:  # once the helper runs and blocks are held for it
            calls.append(1)
            if len(calls) == 300:
                os.kill(os.getpid(), signal.SIGINT)
        return real(*args)

    monkeypatch.setattr(engine._Segments, "_picked", hooked)
    sc = engine.scanner(default_registry())
    groups = []
    with pytest.raises(KeyboardInterrupt):
        for run in context_groups(io.BytesIO(data), 2, sc.reading(False, None), True, readahead.ReadAhead(True)):
            if not isinstance(run, int):
                groups += run
    assert len(calls) >= 300 and small_blocks and groups
    for before, hits, after in groups:
        n = hits[0].line_no
        assert [m for m, _ in before] == list(range(max(1, n - 2), n))
        assert [m for m, _ in after] == list(range(n + 1, n + 1 + len(after))) and len(after) <= 2
