"""The progress line of a long scan: files, megabytes and rate on a terminal's stderr (tqdm).

Shown only where stderr is a terminal (never in a pipe or a file, never on
stdout); hits written to a terminal stdout clear it first and redraw it after,
so the two never share a line. tqdm is imported only when the line is shown.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext
from typing import Any


class Progress:
    """Bytes read of the paths to scan, and files done; a no-op unless stderr is a terminal."""

    def __init__(self, paths: list[str], enabled: bool = True) -> None:
        self._bar: Any = None
        self._files, self._done = len(paths), 0
        self._credited: dict[str, int] = {}
        self._sizes = {p: _size(p) for p in paths} if enabled and _is_tty(sys.stderr) else {}
        if self._sizes:
            from tqdm import tqdm

            # No monitor thread: a scan forks its prefilter helper only while it runs one thread.
            tqdm.monitor_interval = 0
            self._bar = tqdm(total=sum(self._sizes.values()) or None, unit="B", unit_scale=True,
                             unit_divisor=1024, file=sys.stderr, desc="scanning", leave=False,
                             dynamic_ncols=True, mininterval=0.2)
            self._postfix()

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, *exc: object) -> None:
        if self._bar is not None:
            self._bar.close()

    def _postfix(self) -> None:
        self._bar.set_postfix_str(f"{self._done}/{self._files} files", refresh=False)

    def reading(self, path: str) -> Callable[[int], None] | None:
        """What to tell as ``path`` is read: the bytes read so far (None when not shown)."""
        if self._bar is None:
            return None

        def read(n: int) -> None:
            self._credit(path, n)
        return read

    def _credit(self, path: str, n: int) -> None:
        before = self._credited.get(path, 0)
        if n > before:
            self._credited[path] = n
            self._bar.update(n - before)

    def done(self, path: str) -> None:
        """``path`` is scanned whole."""
        if self._bar is None:
            return
        self._done += 1
        self._credit(path, self._sizes.get(path, 0))
        self._postfix()
        self._bar.refresh()

    def paused(self, stderr: bool = False) -> AbstractContextManager[None]:
        """Write to stdout (when it is the same terminal) or to ``stderr`` without the line in the way.
        (Entered once per hit written: without the line, nothing to do.)"""
        if self._bar is None or not (stderr or _is_tty(sys.stdout)):
            return _NOTHING
        return self._cleared()

    @contextmanager
    def _cleared(self) -> Iterator[None]:
        self._bar.clear()
        try:
            yield
        finally:
            self._bar.refresh()


_NOTHING = nullcontext()


def _is_tty(stream: Any) -> bool:
    try:
        return bool(stream is not None and stream.isatty())
    except (ValueError, OSError):
        return False


def _size(path: str) -> int:
    try:
        return os.stat(path).st_size if path != "-" else 0
    except OSError:
        return 0
