"""``llmstatus scan``: stream each file through the scanner and print hits, then a summary."""

from __future__ import annotations

import io
import json
import os
import sys
from argparse import Namespace
from collections import Counter
from contextlib import contextmanager

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import Any, BinaryIO

from ..registry.model import Registry, StatusCode
from ..render import text
from ..scan import scan_stream, scan_with_context
from .output import error, lang_of, use_color, write

STDIN_LABEL = "(standard input)"


@contextmanager
def _open(path: str) -> Iterator[BinaryIO]:
    from ..scan.encoding import utf8_stream  # UTF-16/32 logs with a BOM are re-encoded

    if path == "-":
        yield utf8_stream(sys.stdin.buffer)
    else:
        with open(path, "rb") as fh:
            yield utf8_stream(fh)


def scan_files(files: list[str], args: Namespace, registry: Registry) -> int:
    """Scan ``files`` in order; return 2 if one was unreadable, else 1 if a failure code was found, else 0."""
    lang, color = lang_of(args), use_color(args)
    counts: Counter[tuple[str, int | None]] = Counter()
    codes: dict[tuple[str, int | None], StatusCode | None] = {}
    unreadable = False
    failure = False
    out = sys.stdout
    scanned = 0
    for path in files:
        label = STDIN_LABEL if path == "-" else path
        json_file = "-" if path == "-" else path
        try:
            with _open(path) as stream:
                scanned += 1
                for before, hits, after in _groups(stream, args, registry, path):
                    for hit in hits:
                        key = text.summary_key(hit)
                        counts[key] += 1
                        codes[key] = hit.code
                        failure = failure or not hit.is_success
                    write(out, _render(before, hits, after, args, lang, color, label, json_file))
        except OSError as exc:
            if isinstance(exc, BrokenPipeError):
                raise
            error(f"cannot read {path}: {exc.strerror or exc}")
            unreadable = True
    if not args.json and scanned:  # "no code found" would be misleading if nothing was read
        write(out, text.summary(counts, codes, lang, color) + "\n")
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


def _render(before: list, hits: list, after: list, args: Namespace, lang: str, color: bool,
            label: str, json_file: str) -> str:
    if args.json:
        from ..render.json import hit_dict

        extra: dict[str, Any] = {}
        if args.context:
            extra = {"before": [{"line": n, "text": t} for n, t in before],
                     "after": [{"line": n, "text": t} for n, t in after]}
        return "".join(json.dumps({**hit_dict(h, json_file, lang), **extra}, ensure_ascii=False) + "\n" for h in hits)
    parts = []
    if args.context:
        parts += [text.style(f"{label}-{n}-", "dim", color=color) + "  " + _clean(t) for n, t in before]
    parts += [text.hit_line(h, lang, label, color) for h in hits]
    if args.context:
        parts += [text.style(f"{label}-{n}-", "dim", color=color) + "  " + _clean(t) for n, t in after]
        parts.append("--")
    return "\n".join(parts) + "\n"


def _clean(line: str) -> str:
    return text.clip_line_text(line)
