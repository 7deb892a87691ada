"""``scan -j N``: paths scanned by N worker processes, their events given back in path order.

Each worker loads the registry once (from the same files as the command) and
scans whole paths (a file, or a bundle with all its members), returning the
path's events packed (:mod:`.wire`). The command takes them in the order of
the paths, whatever order they finish in, so the output equals ``-j 1``'s;
at most ``2 N`` paths are in flight, which bounds the memory held by results
not yet written. Workers ignore SIGINT: Ctrl-C reaches the command, which
stops them and reports what was scanned.
"""

from __future__ import annotations

import multiprocessing
import signal
import threading
from collections import deque
from collections.abc import Iterable, Iterator
from multiprocessing.pool import AsyncResult, Pool

from ..registry.model import Registry
from .pipeline import Event, ScanOptions, events
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


def _scan(path: str, opts: ScanOptions) -> list[Event]:
    assert _REGISTRY is not None
    return [pack(e) for e in events(path, opts, _REGISTRY)]


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

    def scan(self, paths: Iterable[str], opts: ScanOptions) -> Iterator[tuple[str, Iterator[Event]]]:
        """``(path, its events)`` for each path, in order, scanned by the workers."""
        pending: deque[tuple[str, AsyncResult[list[Event]]]] = deque()
        todo = iter(paths)
        for path in todo:
            pending.append((path, self._pool.apply_async(_scan, (path, opts))))
            if len(pending) >= 2 * self._jobs:
                break
        while pending:
            path, result = pending.popleft()
            packed = result.get()
            nxt = next(todo, None)
            if nxt is not None:
                pending.append((nxt, self._pool.apply_async(_scan, (nxt, opts))))
            yield path, map(self._unpack, packed)
