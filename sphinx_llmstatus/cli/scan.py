"""``llmstatus scan``: stream each log through the scanner; print hits, then the report.

Hits go out as they are found, through the output format; LLM DataDist
failures decide the exit status, other layers' numbers (GE, ACL runtime,
HCCL, HIXL) never do. The report (:class:`sphinx_llmstatus.scan.report.Report`)
opens with the first failure per process and marks later generic codes of
the same process as likely consequences. ``--summary`` prints the report
only. Compressed logs are read by content; ``-r`` walks directories.
"""

from __future__ import annotations

import sys
from dataclasses import replace

from ..registry.model import Registry
from ..scan import scan_stream, scan_with_context
from ..scan.report import Report, hit_name
from .formats import STDIN_LABEL
from .output import error, shown_path, write

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import BinaryIO

    from .formats import Format
    from .plain import Args


def scan_files(files: list[str], args: Args, registry: Registry, fmt: Format) -> int:
    """Scan ``files`` (directories too with ``-r``) in order, writing hits through ``fmt``;
    return 2 if one was unreadable, else 1 if an LLM DataDist failure was found, else 0."""
    from ..scan.sources import expand, open_log

    report = Report()
    summary_only = getattr(args, "summary", False)
    unreadable = False
    out = sys.stdout
    scanned, found = 0, False
    for path, problem in expand(files, getattr(args, "recursive", False)):
        file = None if path == "-" else shown_path(path)  # None: each format names standard input
        key = file or "-"
        try:
            if problem is not None:
                raise problem
            stream = open_log(path)
            try:
                for before, hits, after in _groups(stream, args, registry):
                    found = True
                    marked = []
                    for hit in hits:
                        cause = report.add(key, hit)
                        if cause is not None:
                            hit = replace(hit, consequence_of=(cause[0], cause[1].line_no, hit_name(cause[1])))
                        marked.append(hit)
                    if not summary_only:
                        write(out, fmt.scan_hits(before, marked, after, file, bool(args.context)))
                scanned += 1
            finally:
                if path != "-":
                    stream.close()
        except OSError as exc:
            if isinstance(exc, BrokenPipeError):
                raise
            error(f"cannot read {file or STDIN_LABEL}: {exc.strerror or exc}")
            unreadable = True
    if scanned or found:  # "no code found" would be misleading if nothing was read whole
        write(out, fmt.scan_end(report, summary_only))
    return 2 if unreadable else 1 if report.failures else 0


def _groups(stream: BinaryIO, args: Args, registry: Registry) -> Iterator[tuple[list, list, list]]:
    if args.context:
        yield from scan_with_context(stream, args.context, registry=registry, include_success=args.all)
        return
    for hit in scan_stream(stream, registry=registry, include_success=args.all):
        yield [], [hit], []
