"""A long scan's prefilter shared with a second process (``ScanOptions.helper``: the command's).

A scan of a big log spends much of its time in the Hyperscan prefilter (most of it on a log
dense with numbers the prefilter vetoes) and the rest in Python, on the candidate lines. From
its second block on, a scan that may use a helper forks one process, which shares the compiled
database (nothing to load) and prefilters the blocks it is handed, while this process reads
ahead and turns the candidate lines of earlier blocks into hits. The blocks held are offered to
the helper as each is read and again as each is taken; this process prefilters a block itself
when the block's turn comes before the helper had room for it (:data:`QUEUED` blocks to do), so
both CPUs work whatever the log holds.

Blocks travel through :data:`SLOTS` slots of anonymous shared memory (``mmap``, made before the
fork). A slot's number and length go to the helper through one pipe; its answer comes back
through another, in order: what :meth:`~.prefilter.HyperscanPrefilter.starts_watched` gives with
every watched literal, which the engine narrows line by line as it always does, so the hits are
the same whichever process prefiltered a block, the line breaks before each line it gives
(:func:`~.reading.line_counts`: on a quiet log, counting them is most of this process's work),
and what ``decide`` makes of the block's candidate lines (the scan's: which lines a shape decides
alone and the hits it makes, :class:`~.readahead.Premade`: on a flood of code lines, finding each
line's shape is most of this process's work).
The helper ignores Ctrl-C and ends when this process closes its pipe, exits or stops it; if it
dies, this process prefilters the rest itself.
Forking is safe only while this process runs one thread: otherwise no helper is started. A
regular file gets one, and a stream (standard input, a named pipe given as a path): blocks are
held until the slots are full, but a pipe's only while its writer writes on. Before a read that
would wait more than :data:`PAUSE_MS`, the blocks held are scanned (:meth:`Ahead.idle`), so
``tail -f log | llmstatus scan -`` still shows each hit once its line, and for a failure the
lines that may prove its cause, have arrived, whether the writer pauses between lines or within
one.
"""

from __future__ import annotations

import marshal
import mmap
import os
import select
import signal
import struct
import sys
from collections import deque
from time import monotonic

from .interrupt import held_back
from .prefilter import Prefiltered
from .reading import LONG_LINE, Buffer, line_counts

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Container
    from typing import Protocol

    from .prefilter import Watched

    class _Prefilter(Protocol):
        def starts_watched(self, data: bytes, end: int, skip: Container[int] = ...) -> tuple[list[int], Watched]:
            ...

    #: What the helper also does with each block it prefilters (:class:`~.readahead.Premade`): given the
    #: block, its length, the line starts found and its line breaks, an answer that marshal can carry.
    Decide = Callable[[bytes, int, list[int], int], tuple[dict[int, int], bytes | None] | None]

#: Slots of shared memory: blocks read ahead, and the one being read into.
SLOTS = 5
#: Biggest block a slot holds: the reader's buffer grows to this around a line longer than a read.
SLOT_SIZE = LONG_LINE
#: Blocks the helper may have to do before this process prefilters the next block itself.
QUEUED = 2
#: Milliseconds a pipe's writer may pause before the blocks held are scanned without more input
#: (a fast writer's next bytes come within microseconds; a person sees no delay).
PAUSE_MS = 20
#: Seconds a pipe's block may be held at most, however the writer writes (a byte every few
#: milliseconds, a progress line of dots): then the blocks held are scanned.
HOLD_SECONDS = 0.5
#: Milliseconds this process waits for an answer before it does the block itself (a stopped helper).
PATIENCE_MS = 30_000
_REQUEST = struct.Struct("<II")  # slot, length
_LENGTH = struct.Struct("<I")


def usable() -> bool:
    """True when a helper can run: 2 CPUs or more for this process, and one thread to fork."""
    if not (hasattr(os, "fork") and hasattr(signal, "pthread_sigmask")):  # Windows
        return False
    threading = sys.modules.get("threading")
    if threading is not None and threading.active_count() > 1:
        return False
    return cpus() > 1


def cpus() -> int:
    """The CPUs this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


class Helper:
    """The helper process, once forked: :meth:`send` a slot, :meth:`answer` in the order sent."""

    def __init__(self, prefilter: _Prefilter, slots: list[mmap.mmap], decide: Decide | None = None) -> None:
        """Fork the helper (``decide``: what it also does with each block); call with SIGINT blocked
        (:func:`~.interrupt.held_back`): a Ctrl-C between the fork and the helper's ignoring it
        would run the command's own Ctrl-C handling twice."""
        fds: list[int] = []
        try:
            fds += os.pipe()  # requests: read by the helper, written here
            fds += os.pipe()  # answers: read here, written by the helper
            self.pid = os.fork()
        except OSError:
            for fd in fds:
                os.close(fd)
            raise
        requests_r, self._requests, self._answers, answers_w = fds
        if self.pid == 0:  # the helper: never returns
            code = 1
            try:
                os.close(self._requests)
                os.close(self._answers)
                signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the command's to handle
                signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT, signal.SIGTERM})  # (held_back)
                _serve(prefilter, slots, requests_r, answers_w, decide)
                code = 0
            finally:
                os._exit(code)  # no atexit handlers, no flush of the command's buffered output
        os.close(requests_r)
        os.close(answers_w)
        self._waiting = select.poll()  # (select.select refuses a descriptor above 1023)
        self._waiting.register(self._answers, select.POLLIN)
        self._buffer = bytearray()
        self._ready: deque[Prefiltered] = deque()
        self.busy = 0  # blocks sent and not answered yet

    # Ctrl-C may come between any two steps: each of these keeps what was sent and what was
    # answered in step (a chunk read and not kept made the next answer unreadable, a tester's
    # "bad marshal data" after Ctrl-C), and only waiting stays open to it.

    def send(self, slot: int, end: int) -> None:
        with held_back():
            os.write(self._requests, _REQUEST.pack(slot, end))
            self.busy += 1

    def poll(self) -> None:
        """Take the answers already written, without waiting."""
        while self.busy and self._waiting.poll(0):
            self._read()

    def wait(self) -> None:
        """Until the answer for the oldest block sent is here; OSError when the helper is gone or
        stopped. Ctrl-C meanwhile leaves it to come."""
        while not self._ready:
            if not self._waiting.poll(PATIENCE_MS):
                raise OSError("the scan's helper process stopped answering")
            self._read()

    def answer(self) -> Prefiltered:
        """The answer for the oldest block sent, once here (:meth:`wait`)."""
        return self._ready.popleft()

    def _read(self) -> None:
        """Take what the helper wrote (there is some: a read does not wait)."""
        with held_back():
            chunk = os.read(self._answers, 1 << 16)
            if not chunk:
                raise OSError("the scan's helper process ended")
            self._buffer += chunk
            while len(self._buffer) >= _LENGTH.size:
                (n,) = _LENGTH.unpack_from(self._buffer)
                if len(self._buffer) < _LENGTH.size + n:
                    break
                self._ready.append(Prefiltered(*marshal.loads(bytes(self._buffer[_LENGTH.size:_LENGTH.size + n]))))
                del self._buffer[:_LENGTH.size + n]
                self.busy -= 1

    def close(self, interrupted: bool = False) -> None:
        """Stop and reap the helper; if the scan ends by Ctrl-C, a second one meanwhile is dropped
        (its traceback was printed). At the end of a log, a first one is delivered: others follow."""
        with held_back(discard=interrupted):
            for fd in (self._requests, self._answers):
                try:
                    os.close(fd)
                except OSError:
                    pass
            try:
                os.kill(self.pid, signal.SIGKILL)  # its work is no longer wanted
                os.waitpid(self.pid, 0)
            except OSError:
                pass


def _serve(prefilter: _Prefilter, slots: list[mmap.mmap], requests: int, answers: int,
           decide: Decide | None) -> None:
    """The helper's loop: prefilter each slot asked for, answer in order, until the pipe closes."""
    with os.fdopen(requests, "rb") as inp, os.fdopen(answers, "wb") as out:
        while len(head := inp.read(_REQUEST.size)) == _REQUEST.size:
            slot, end = _REQUEST.unpack(head)
            data = slots[slot]
            starts, watched = prefilter.starts_watched(data, end)
            # The line breaks too: on a quiet log, counting them is most of the work on a block.
            counts = line_counts(data, end, [*starts, *watched])
            decided = decide(data, end, starts, counts[end]) if decide else None
            body = marshal.dumps((starts, watched, counts, decided))
            out.write(_LENGTH.pack(len(body)) + body)
            out.flush()


class _Held:
    """A block held in a slot: its length, whether the helper was sent it, and since when."""

    __slots__ = ("slot", "end", "sent", "when")

    def __init__(self, slot: int, end: int) -> None:
        self.slot, self.end, self.sent, self.when = slot, end, False, monotonic()


class Ahead:
    """Blocks read ahead into the slots, each prefiltered by the helper or later by this process,
    given back in order by :meth:`oldest`. A log's first block is not taken (one block needs no
    helper): the slots are made and the helper forked when a second comes. The reader reads
    straight into a free slot (:meth:`swap`), so a block is not copied to be shared."""

    def __init__(self, prefilter: _Prefilter, decide: Decide | None = None) -> None:
        self._prefilter, self._decide = prefilter, decide
        self._slots: list[mmap.mmap] = []
        self._free: deque[int] = deque()
        self._held: deque[_Held] = deque()
        self._reading: int | None = None  # the slot the reader reads into, neither free nor held
        self._helper: Helper | None = None
        self._blocks = 0
        self._failed = False

    def takes(self, end: int) -> bool:
        """Whether the next block, of ``end`` bytes, goes into a slot (else this process scans it
        as it comes, after the blocks held)."""
        self._blocks += 1
        if self._blocks == 1 or end > SLOT_SIZE or self._failed:
            return False
        if not self._slots:
            try:
                self._slots = [mmap.mmap(-1, SLOT_SIZE) for _ in range(SLOTS)]
            except (OSError, MemoryError):
                self._failed = True
                return False
            self._free.extend(range(SLOTS))
        return True

    def full(self) -> bool:
        """No free slot: the oldest block must be done before the reader reads on (after each
        :meth:`add`, so that a block :meth:`add` copies always has one)."""
        return not self._free

    def held(self) -> bool:
        return bool(self._held)

    def idle(self, waits: Callable[[int], bool]) -> Callable[[], bool]:
        """The reader's test, before each read, of whether blocks are held while input does not
        come within :data:`PAUSE_MS` (``waits``: the input's), or held longer than
        :data:`HOLD_SECONDS`: they are then scanned before it reads, so a pipe's hit is given once
        its lines have come (``tail -f``), not held for more."""
        held = self._held
        return lambda: bool(held) and (monotonic() - held[0].when > HOLD_SECONDS or not waits(PAUSE_MS))

    def add(self, data: bytes | bytearray | mmap.mmap, end: int) -> None:
        """Hold the block ``data[:end]``: the slot the reader read it into, or a copy in a free one
        (there must be one: :meth:`full`). Ctrl-C meanwhile comes once it is held (nothing
        here waits): a block sent and not held would take the next one's answer."""
        helper = self._started()
        with held_back():
            if self._reading is not None and data is self._slots[self._reading]:
                slot, self._reading = self._reading, None
            else:
                slot = self._free.popleft()
                self._slots[slot][:end] = memoryview(data)[:end]
            self._held.append(_Held(slot, end))
            if helper is not None:
                self._offer(0)

    def swap(self, buffer: Buffer) -> Buffer:
        """The buffer the reader reads into next, done with ``buffer``: the slot it reads into, a
        free one once its block is held, or ``buffer`` while there are no slots (before the
        second block, or when they could not be made)."""
        if self._reading is None and self._free:
            self._reading = self._free.popleft()
        return buffer if self._reading is None else self._slots[self._reading]

    def _started(self) -> Helper | None:
        if self._helper is None and not self._failed:
            # A Ctrl-C during the fork comes once the helper is held here, so the scan's end stops it.
            with held_back():
                try:
                    self._helper = Helper(self._prefilter, self._slots, self._decide)
                except OSError:
                    self._failed = True
        return self._helper

    def _offer(self, start: int) -> None:
        """Send the helper the blocks held from the ``start``-th on (0: the oldest) it has not had,
        in order, while it has fewer than :data:`QUEUED` to do. Offered again as each block is
        taken: where this process's Python work on a block takes longer than the helper's
        prefilter (a flood of code lines), the helper then prefilters every block. The blocks
        sent are always the first held (but the oldest, which this process takes as it is): the
        answers come in the order of the blocks."""
        helper, held = self._helper, self._held
        if helper is None:
            return
        with held_back():
            try:
                helper.poll()
                for i in range(start, len(held)):
                    if helper.busy >= QUEUED:
                        break
                    if not held[i].sent:
                        helper.send(held[i].slot, held[i].end)
                        held[i].sent = True
            except OSError:  # the helper is gone (a broken pipe is its, not the output's)
                self._stop()

    def oldest(self, skip: Container[int]) -> tuple[bytes, int, Prefiltered]:
        """The oldest block: its slot (valid until the next :meth:`add`), length and prefilter
        answer (this process's own, with ``skip``, when the helper did not take it or is gone)."""
        self._offer(1)  # the next ones, while this one is scanned
        held = self._held[0]
        slot, end, sent = held.slot, held.end, held.sent
        data = self._slots[slot]
        if sent and self._helper is not None:
            try:
                self._helper.wait()  # Ctrl-C here: the block is still held, its answer to come
            except OSError:
                self._stop()
        answered = sent and self._helper is not None
        found = None if answered else Prefiltered(*self._prefilter.starts_watched(data, end, skip))  # type: ignore[arg-type]
        with held_back():
            if found is None:
                found = self._helper.answer()  # type: ignore[union-attr]  # (answered)
            self._held.popleft()
            self._free.append(slot)
        return data, end, found  # type: ignore[return-value]  # (an mmap: bytes-like)

    def _stop(self) -> None:
        """No helper from now on: this process prefilters what it had been given."""
        if self._helper is not None:
            self._helper.close()
        self._helper, self._failed = None, True

    def close(self, interrupted: bool = False) -> None:
        if self._helper is not None:
            self._helper.close(interrupted)
            self._helper = None
        for slot in self._slots:
            slot.close()
