"""``llmstatus scan``: stream each log through the scanner; print hits, other layers, then a summary.

LLM DataDist hits are printed as they are found; numbers that belong to
other layers (GE, ACL runtime, HCCL, HIXL) are listed in their own section
after them and never change the exit status. The summary opens with the
first failure per process. ``--summary`` prints only the summary;
``--json`` prints JSON Lines (one object per hit), or with ``--summary`` one
object. Compressed logs are read by content; ``-r`` walks directories.
"""

from __future__ import annotations

import json
import sys
from argparse import Namespace

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import Any, BinaryIO

from ..registry.model import Registry
from ..render import text
from ..scan import scan_stream, scan_with_context
from ..scan.hit import Hit
from ..scan.report import Report, hit_name
from .output import error, lang_of, use_color, write

STDIN_LABEL = "(standard input)"
#: Other layers' hits listed in the text report (all are counted in the summary).
MAX_OTHER_SHOWN = 50


def scan_files(files: list[str], args: Namespace, registry: Registry) -> int:
    """Scan ``files`` in order; return 2 if one was unreadable, else 1 if an LLM DataDist failure was found, else 0."""
    from ..scan.sources import expand, open_log

    lang, color = lang_of(args), use_color(args)
    summary_only = getattr(args, "summary", False)
    report = Report()
    other: list[str] = []
    unreadable = False
    out = sys.stdout
    scanned = 0
    for path, problem in expand(files, getattr(args, "recursive", False)):
        label = STDIN_LABEL if path == "-" else path
        json_file = "-" if path == "-" else path
        try:
            if problem is not None:
                raise problem
            stream = open_log(path)
            try:
                scanned += 1
                for before, hits, after in _groups(stream, args, registry):
                    shown: list[tuple[Hit, tuple[str, Hit] | None]] = []
                    for hit in hits:
                        cause = report.add(json_file, hit)
                        if summary_only:
                            continue
                        if args.json:
                            write(out, _json_line(hit, json_file, lang, cause, before, after, args))
                        elif hit.kind == "code" and not hit.is_llm_datadist:
                            if len(other) < MAX_OTHER_SHOWN:
                                other.append(text.hit_line(hit, lang, label, color))
                        else:
                            shown.append((hit, cause))
                    if shown:
                        write(out, _render(before, shown, after, args, lang, color, label))
            finally:
                if path != "-":
                    stream.close()
        except OSError as exc:
            if isinstance(exc, BrokenPipeError):
                raise
            error(f"cannot read {path}: {exc.strerror or exc}")
            unreadable = True
    if scanned:  # "no code found" would be misleading if nothing was read
        if args.json and summary_only:
            write(out, json.dumps(report.as_dict(), ensure_ascii=False) + "\n")
        elif not args.json:
            if other:
                n_other = sum(sum(c.values()) for c in report.other.values())
                write(out, text.style("Other layers (not LLM DataDist; the exit status ignores them)", "bold",
                                      color=color) + ":\n" + "\n".join(other) + "\n"
                      + (f"… {n_other - len(other)} more\n" if n_other > len(other) else ""))
            write(out, summary(report, registry, lang, color) + "\n")
    return 2 if unreadable else 1 if report.failures else 0


def summary(report: Report, registry: Registry, lang: str, color: bool) -> str:
    """The text summary: first failure per process, counts per code (likely consequences noted), other layers."""
    from ..registry.layout import FAMILY_LABELS

    lines = []
    if report.first:
        lines.append(text.style("First failure per process", "bold", color=color) + ":")
        for file, hit in report.first.values():
            who = f"process {hit.process}" if hit.process else "process (unnamed)"
            code = hit.code
            view = code.view(hit.api) if code is not None and hit.api else None
            view = view or (code.views[0] if code is not None and code.views else None)
            remedy = text.plain(view.remedy.get(lang)) if view is not None else ""
            lines.append(f"  {file}:{hit.line_no}  {who}  {text.style(hit_name(hit), 'red', 'bold', color=color)}"
                         + (f": {remedy}" if remedy else ""))
    codes = {name: report.codes[name].code for name in report.counts}
    counts = {(name, report.codes[name].value): n for name, n in report.counts.items()}
    lines.append(text.summary(counts, {(name, report.codes[name].value): codes[name] for name in report.counts},
                              lang, color))
    for name, n in report.consequences.items():
        lines.append(f"  ({n} of the {name} lines follow an earlier failure of the same process: "
                     "likely consequences, not causes)")
    for fam, counter in report.other.items():
        label = FAMILY_LABELS.get(fam, fam)
        lines.append(f"  {label}: " + ", ".join(f"{n} × {name}" for name, n in counter.most_common())
                     + " (not LLM DataDist)")
    if report.symptoms:
        lines.append("  symptoms: " + ", ".join(f"{n} × {name}" for name, n in report.symptoms.most_common()))
    return "\n".join(lines)


def _groups(stream: BinaryIO, args: Namespace, registry: Registry) -> Iterator[tuple[list, list, list]]:
    if args.context:
        yield from scan_with_context(stream, args.context, registry=registry, include_success=args.all)
        return
    for hit in scan_stream(stream, registry=registry, include_success=args.all):
        yield [], [hit], []


def _json_line(hit: Hit, json_file: str, lang: str, cause: tuple[str, Hit] | None, before: list,
               after: list, args: Namespace) -> str:
    from ..render.json import hit_dict

    obj: dict[str, Any] = hit_dict(hit, json_file, lang)
    if cause is not None:
        obj["likely_consequence_of"] = {"file": cause[0], "line": cause[1].line_no, "name": hit_name(cause[1])}
    if args.context:
        obj["before"] = [{"line": n, "text": t} for n, t in before]
        obj["after"] = [{"line": n, "text": t} for n, t in after]
    return json.dumps(obj, ensure_ascii=False) + "\n"


def _render(before: list, hits: list[tuple[Hit, tuple[str, Hit] | None]], after: list, args: Namespace,
            lang: str, color: bool, label: str) -> str:
    parts = []
    if args.context:
        parts += [text.style(f"{label}-{n}-", "dim", color=color) + "  " + text.clip_line_text(t) for n, t in before]
    for h, cause in hits:
        line = text.hit_line(h, lang, label, color)
        if cause is not None:
            line += f"\n    (likely a consequence of {hit_name(cause[1])} at {cause[0]}:{cause[1].line_no})"
        parts.append(line)
    if args.context:
        parts += [text.style(f"{label}-{n}-", "dim", color=color) + "  " + text.clip_line_text(t) for n, t in after]
        parts.append("--")
    return "\n".join(parts) + "\n"
