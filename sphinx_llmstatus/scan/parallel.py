"""Scan a large regular file with several processes, hits still in file order.

One process tops out at the speed of its literal prefilter (a few passes of
a C search over every byte, about 250 MB/s here, see bench/bench_scan.py). A
file on disk can be cut at line boundaries into chunks that worker processes
scan at the same time; the parent re-numbers each chunk's lines and yields
the hits in order. Pipes, small files and files without a line break in
reach of a cut point are scanned by one process (:func:`scan_stream`).

Workers are forked (they inherit the registry and compiled rules) and send
back plain tuples, not :class:`Hit` objects: the parent maps code names back
to its own registry's codes.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

from ..registry.model import Registry
from .engine import _scan_blocks, matcher
from .hit import Hit

#: Files smaller than this are not worth starting processes for.
PARALLEL_MIN_BYTES = 64 << 20
#: Bytes per chunk: bounds each worker's memory (the chunk is read whole).
CHUNK_BYTES = 16 << 20
#: How far past a cut point to look for a line break before giving up on cutting.
_MAX_LINE_SEARCH = 8 << 20

_HitTuple = tuple[int, str, int, int, str, "int | None", "str | None"]
_worker_state: dict[str, object] = {}


def cut_points(path: str, size: int, chunk: int = CHUNK_BYTES) -> list[int] | None:
    """Offsets just after a line break near every multiple of ``chunk``, with 0 and ``size``.

    None when some cut finds no line break within :data:`_MAX_LINE_SEARCH`
    bytes (one enormous line: the single-process scanner handles those).
    """
    points = [0]
    with open(path, "rb") as fh:
        target = chunk
        while target < size:
            fh.seek(target)
            looked = 0
            while True:
                piece = fh.read(1 << 20)
                if not piece:
                    return points + [size] if points[-1] < size else points
                nl = piece.find(b"\n")
                if nl >= 0:
                    points.append(target + looked + nl + 1)
                    break
                looked += len(piece)
                if looked > _MAX_LINE_SEARCH:
                    return None
            target = max(points[-1], target) + chunk
    if points[-1] < size:
        points.append(size)
    return points


def _scan_chunk(task: tuple[str, int, int]) -> tuple[int, list[_HitTuple]]:
    """Worker: scan ``path[start:end]``; return its line-break count and its hits as tuples."""
    path, start, end = task
    with open(path, "rb") as fh:
        fh.seek(start)
        data = fh.read(end - start)
    registry, include_success = _worker_state["registry"], _worker_state["include_success"]
    hits = _scan_blocks([(data, len(data))], matcher(registry), include_success)  # type: ignore[arg-type]
    rows = [(h.line_no, h.line, h.start, h.end, h.token, h.value, h.code.name if h.code else None)
            for h in hits]
    return data.count(b"\n"), rows


def scan_file(
    path: str,
    *,
    registry: Registry | None = None,
    include_success: bool = False,
    workers: int | None = None,
    min_bytes: int = PARALLEL_MIN_BYTES,
    chunk_bytes: int = CHUNK_BYTES,
) -> Iterator[Hit] | None:
    """Every hit of the regular file ``path``, in order, scanned by ``workers`` processes.

    Returns None (scan it with :func:`scan_stream` instead) when parallel
    scanning does not pay or cannot be done: fewer than two CPUs or
    ``workers``, a file under ``min_bytes``, no ``fork``, or a line too long
    to cut at. ``chunk_bytes`` is the size each worker reads at once. I/O
    errors propagate as ``OSError``.
    """
    import multiprocessing

    workers = workers or min(os.cpu_count() or 1, 4)
    size = os.path.getsize(path)
    if workers < 2 or size < min_bytes or "fork" not in multiprocessing.get_all_start_methods():
        return None
    points = cut_points(path, size, chunk_bytes)
    if points is None or len(points) < 3:
        return None
    if registry is None:
        from ..registry.loader import default_registry

        registry = default_registry()
    tasks = [(path, a, b) for a, b in zip(points, points[1:])]
    return _ordered_hits(tasks, registry, include_success, workers)


def _ignore_interrupt() -> None:
    """Worker start-up: Ctrl-C reaches the whole process group; only the parent handles it
    (it stops the pool), so no worker prints a KeyboardInterrupt traceback."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _ordered_hits(tasks: list[tuple[str, int, int]], registry: Registry, include_success: bool,
                  workers: int) -> Iterator[Hit]:
    import multiprocessing

    _worker_state.update(registry=registry, include_success=include_success)  # inherited by fork
    by_name = {code.name: code for code in registry}
    line_offset = 0
    with multiprocessing.get_context("fork").Pool(workers, initializer=_ignore_interrupt) as pool:
        for newlines, rows in pool.imap(_scan_chunk, tasks, chunksize=1):
            for line_no, line, start, end, token, value, name in rows:
                code = by_name[name] if name is not None else None
                yield Hit(line_offset + line_no, line, start, end, token, value, code)
            line_offset += newlines
