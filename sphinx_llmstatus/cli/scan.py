"""``llmstatus scan``: stream each file through the scanner and print hits, then a summary."""

from __future__ import annotations

import io
import os
import sys
from argparse import Namespace
from collections import Counter
from contextlib import contextmanager

from ..registry.model import Registry, StatusCode
from ..render import text
from ..scan import scan_stream, scan_with_context
from .formats import STDIN_LABEL
from .output import error, shown_path, write

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import BinaryIO

    from .formats import Format


@contextmanager
def _open(path: str) -> Iterator[BinaryIO]:
    from ..scan.encoding import utf8_stream  # UTF-16/32 logs with a BOM are re-encoded

    if path == "-":
        yield utf8_stream(sys.stdin.buffer)
    else:
        with open(path, "rb") as fh:
            yield utf8_stream(fh)


def scan_files(files: list[str], args: Namespace, registry: Registry, fmt: Format) -> int:
    """Scan ``files`` in order, writing hits through ``fmt``; return 2 if one was unreadable,
    else 1 if a failure code was found, else 0."""
    counts: Counter[tuple[str, int | None]] = Counter()
    codes: dict[tuple[str, int | None], StatusCode | None] = {}
    unreadable = False
    failure = False
    out = sys.stdout
    scanned = 0
    for path in files:
        file = None if path == "-" else shown_path(path)  # None: each format names standard input
        try:
            with _open(path) as stream:
                scanned += 1
                for before, hits, after in _groups(stream, args, registry, path):
                    for hit in hits:
                        key = text.summary_key(hit)
                        counts[key] += 1
                        codes[key] = hit.code
                        failure = failure or not hit.is_success
                    write(out, fmt.scan_hits(before, hits, after, file, bool(args.context)))
        except OSError as exc:
            if isinstance(exc, BrokenPipeError):
                raise
            error(f"cannot read {file or STDIN_LABEL}: {exc.strerror or exc}")
            unreadable = True
    if scanned:  # "no code found" would be misleading if nothing was read
        write(out, fmt.scan_end(counts, codes))
    return 2 if unreadable else 1 if failure else 0


def _groups(stream: BinaryIO, args: Namespace, registry: Registry,
            path: str) -> Iterator[tuple[list, list, list]]:
    if args.context:
        yield from scan_with_context(stream, args.context, registry=registry, include_success=args.all)
        return
    hits = None
    # A large plain file on disk (not a pipe, not re-encoded UTF-16) is cut into
    # chunks that several processes scan at once (scan/parallel.py).
    if path != "-" and isinstance(getattr(stream, "raw", None), io.FileIO) and os.path.isfile(path):
        from ..scan.parallel import scan_file

        hits = scan_file(path, registry=registry, include_success=args.all)
    if hits is None:
        hits = scan_stream(stream, registry=registry, include_success=args.all)
    for hit in hits:
        yield [], [hit], []
