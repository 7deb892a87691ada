"""``scan -j N``: paths scanned by N worker processes, their events given back in path order.

Each worker loads the registry once (from the same files as the command) and
scans whole paths (a file, or a bundle with all its members), writing the
path's events packed (:mod:`.wire`) in batches of :data:`BATCH` to a file of
the command's private spool directory (mode 0700: no other user can put
anything there). The command reads them back in the order of the paths,
whatever order they finish in, so the output equals ``-j 1``'s, and holds one
batch at a time: memory stays bounded however many hits a file has. At most
``2 N`` paths are in flight. Workers ignore SIGINT: Ctrl-C reaches the command,
which stops them (SIGTERM). A worker stopped while it scans takes it as Ctrl-C
(:mod:`.interrupt`): it writes the events of what it read, those it held too,
and ends; the command reads what each path in flight had written, in order, and
reports what was scanned.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import pickle
import shutil
import signal
import tempfile
import threading
from collections import deque
from collections.abc import Iterable, Iterator
from multiprocessing.pool import AsyncResult, Pool
from time import monotonic
from typing import BinaryIO

from ..registry.model import Registry
from .events import Event, Found
from .hit import Hit
from .interrupt import held_back, relay
from .pipeline import ScanOptions, events
from .wire import Unpacker, pack

_REGISTRY: Registry | None = None


def _start(registry_files: tuple[str, ...]) -> None:
    global _REGISTRY
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if _REGISTRY is not None:  # forked: the command's registry came along
        return
    if registry_files:
        from ..registry.loader import load_registry

        _REGISTRY = load_registry(registry_files)
    else:
        from ..registry.packaged import default_registry

        _REGISTRY = default_registry()


#: Events per batch written to the spool.
BATCH = 2000
#: Seconds a batch, or a run of hits being joined, waits at most to be written: a worker killed
#: (a second Ctrl-C) leaves what it found until then.
SPOOL_SECONDS = 0.5


class _Stopped(KeyboardInterrupt):
    """The command stopped the workers (Ctrl-C): a scanning worker ends as after Ctrl-C."""


def _stopped(signum: int, frame: object) -> None:
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # a second SIGTERM ends the worker at once
    raise _Stopped


def _scan(path: str, opts: ScanOptions, spool: str) -> None:
    """Scan ``path``, writing its packed events to the new file ``spool`` in batches. Stopped by
    the command, write what was read (what the scan still held too) and end the process.

    The stop comes between two steps that keep the events whole (a line read, an event joined or
    put in the batch: SIGTERM is held back meanwhile, :func:`~.interrupt.held_back`): a tester's
    stopped workers lost the hit in hand."""
    assert _REGISTRY is not None
    with open(os.open(spool, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600), "wb") as out:
        written = _Spool(out)
        try:
            # Only while scanning: an idle worker stopped ends at once, as it always did.
            signal.signal(signal.SIGTERM, _stopped)
            for _ in relay(_joined(events(path, opts, _REGISTRY), opts), written.put):
                pass
        except _Stopped:
            written.write()
            out.close()
            os._exit(0)  # the pool is being torn down: no task result to give, nothing to unwind
        finally:
            with held_back():  # a stop now comes once the default is back: the worker ends
                signal.signal(signal.SIGTERM, signal.SIG_DFL)
        written.write()


class _Spool:
    """A path's events, packed, written to its spool file in batches of :data:`BATCH`."""

    def __init__(self, out: BinaryIO) -> None:
        self._out, self._batch = out, list[Event]()
        self._due = monotonic() + SPOOL_SECONDS

    def put(self, event: Event) -> tuple[()]:
        """Take ``event`` (nothing to give back: :func:`~.interrupt.relay`'s step)."""
        with held_back():
            self._batch.append(pack(event))
            if len(self._batch) >= BATCH or monotonic() >= self._due:
                self.write()
        return ()

    def write(self) -> None:
        """Write the batch, readable as far as it goes if the worker dies (a stop waits for it)."""
        pickle.dump(self._batch, self._out, pickle.HIGHEST_PROTOCOL)
        self._out.flush()
        self._batch.clear()
        self._due = monotonic() + SPOOL_SECONDS


def _joined(found: Iterator[Event], opts: ScanOptions) -> Iterator[Event]:
    """``found`` with each hit laid out by ``opts.render`` and runs of hits of one file joined into
    events of up to :data:`BATCH` hits (the command writes each at once); as is without it."""
    if opts.render is None:
        yield from found
        return
    joined = _Joined(opts)
    try:
        yield from relay(found, joined.take)
    except KeyboardInterrupt:  # what was joined so far, as at the end (:mod:`.interrupt`)
        yield from joined.rest()
        raise
    yield from joined.rest()


class _Joined:
    """The run of hits of one file being joined, laid out (:func:`_joined`)."""

    def __init__(self, opts: ScanOptions) -> None:
        self._render = opts.render
        self._name, self._hits, self._lines = "", list[Hit](), list[str]()
        self._due = 0.0  # when the run being joined is to be given

    def take(self, event: Event) -> list[Event]:
        """Take ``event``: the joined run it ends, and the event itself unless it is hits to join."""
        with held_back():  # hits and their lines joined together
            return self._take(event)

    def _take(self, event: Event) -> list[Event]:
        out = self.rest() if self._hits and (not isinstance(event, Found) or event.name != self._name
                                             or len(self._hits) >= BATCH or monotonic() >= self._due) else []
        if isinstance(event, Found):
            assert self._render is not None
            if not self._hits:
                self._due = monotonic() + SPOOL_SECONDS
            self._name = event.name
            self._hits += event.hits
            self._lines += self._render(event.hits, event.name)
        else:
            out.append(event)
        return out

    def rest(self) -> list[Event]:
        """The run joined so far, as one event (none if empty); the next starts afresh."""
        if not self._hits:
            return []
        out: list[Event] = [Found(self._name, [], self._hits, [], tuple(self._lines))]
        self._hits, self._lines = [], []
        return out


def _read_spool(path: str) -> Iterator[list[Event]]:
    """The batches written to ``path`` (as far as they are whole), then the file is removed."""
    try:
        with open(path, "rb") as spooled:
            while True:
                try:
                    yield pickle.load(spooled)  # our own workers' file, in our own 0700 directory
                except (EOFError, pickle.UnpicklingError):  # the end, or a batch cut by Ctrl-C
                    return
    except FileNotFoundError:  # stopped before a worker took the path
        return
    finally:
        with contextlib.suppress(OSError):
            os.unlink(path)


class Workers:
    """A pool of scanning processes; use as a context manager (``with Workers(...) as w``)."""

    def __init__(self, jobs: int, registry: Registry, registry_files: tuple[str, ...]) -> None:
        global _REGISTRY
        methods = multiprocessing.get_all_start_methods()
        # fork shares the loaded registry and the compiled scanner (no start-up per worker); it is
        # safe only while this process runs one thread, else a fresh interpreter is started.
        if "fork" in methods and threading.active_count() == 1:
            method = "fork"
            _REGISTRY = registry
            from .engine import scanner

            scanner(registry)  # compiled once, here, for every worker
            import gc

            gc.freeze()  # the registry and scanner are for life: no collector pass over them, no copy-on-write
        else:
            method = "forkserver" if "forkserver" in methods else "spawn"
        self._spool = tempfile.mkdtemp(prefix="llmstatus-scan-")  # 0700: this user's alone
        self._pool: Pool = multiprocessing.get_context(method).Pool(jobs, _start, (registry_files,))
        self._jobs = jobs
        self._unpack = Unpacker(registry)

    def __enter__(self) -> Workers:
        return self

    def __exit__(self, *exc: object) -> None:
        if exc[0] is None:
            self._pool.close()
        else:  # Ctrl-C or an error: stop the workers now
            self._pool.terminate()
        self._pool.join()
        shutil.rmtree(self._spool, ignore_errors=True)

    def scan(self, paths: Iterable[str], opts: ScanOptions) -> Iterator[tuple[str, Iterator[Event]]]:
        """``(path, its events)`` for each path, in order, scanned by the workers. After Ctrl-C while
        waiting for a path, its events written so far come, then KeyboardInterrupt."""
        pending: deque[tuple[str, str, AsyncResult[None]]] = deque()
        todo = enumerate(paths)

        def submit() -> bool:
            item = next(todo, None)
            if item is None:
                return False
            spool = os.path.join(self._spool, str(item[0]))
            pending.append((item[1], spool, self._pool.apply_async(_scan, (item[1], opts, spool))))
            return True

        while len(pending) < 2 * self._jobs and submit():
            pass
        while pending:
            path, spool, result = pending.popleft()
            try:
                result.get()
            except KeyboardInterrupt:
                # The workers write what they read and end: each path in flight as far as it went.
                self._stop()
                yield path, self._events(spool)
                for path, spool, _result in pending:
                    yield path, self._events(spool)
                raise
            submit()
            yield path, self._events(spool)

    def _stop(self) -> None:
        """Stop the workers: each writes what it read and ends (a block of lines that are all codes
        takes seconds). A second Ctrl-C meanwhile kills them: what they wrote until then stays."""
        try:
            self._pool.terminate()
        except KeyboardInterrupt:
            for child in multiprocessing.active_children():
                child.kill()

    def _events(self, spool: str) -> Iterator[Event]:
        for batch in _read_spool(spool):
            yield from map(self._unpack, batch)
