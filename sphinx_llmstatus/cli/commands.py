"""The four commands: lookup, search, list, scan."""

from __future__ import annotations

import json
import sys
from argparse import Namespace

TYPE_CHECKING = False  # typing costs ~3 ms of the `llmstatus CODE` start-up budget
if TYPE_CHECKING:
    from collections.abc import Iterable
    from typing import Any

from ..registry.model import Registry
from .output import error, lang_of, prepare_streams, use_color

EXIT_OK, EXIT_FOUND, EXIT_USAGE = 0, 1, 2


def run(args: Namespace) -> int:
    """Run the parsed command; return the exit status."""
    prepare_streams()
    registry = _registry(args.registry)
    if registry is None:
        return EXIT_USAGE
    return {"lookup": cmd_lookup, "search": cmd_search, "list": cmd_list, "scan": cmd_scan}[args.command](
        args, registry
    )


def _registry(files: list[str]) -> Registry | None:
    from ..registry.loader import RegistryError, default_registry, load_registry

    try:
        return load_registry(files) if files else default_registry()
    except RegistryError as exc:
        error(str(exc))
        return None


def _dump(entries: list[dict[str, Any]]) -> None:
    sys.stdout.write(json.dumps(entries, ensure_ascii=False, indent=2) + "\n")


def cmd_lookup(args: Namespace, registry: Registry) -> int:
    from ..registry.lookup import UnknownStatusCode, lookup
    from ..render import text
    from ..render.labels import label

    lang, color = lang_of(args), use_color(args)
    status = EXIT_OK
    found: list[tuple[str, Any]] = []
    for query in args.codes:
        try:
            matches = lookup(query, registry)
        except UnknownStatusCode as exc:
            error(exc.reason())
            status = EXIT_FOUND
            continue
        found.append((query, matches))
    if args.json:
        from ..render.json import entry_dict

        entries = []
        for query, matches in found:
            for match in matches:
                entries.append({**entry_dict(match.code, lang), "query": query, "reading": match.reading})
        _dump(entries)
        return status
    blocks = []
    for query, matches in found:
        head = ""
        if len(matches) > 1:
            heading = label("query_meanings", lang, query=query, n=len(matches))
            head = text.style(heading, "bold", color=color) + "\n"
        blocks.append(head + "\n\n".join(text.card(m.code, lang, m.reading, color) for m in matches))
    if blocks:
        sys.stdout.write("\n\n".join(blocks) + "\n")
    return status


def cmd_search(args: Namespace, registry: Registry) -> int:
    from ..registry.lookup import search

    query = " ".join(args.text)
    codes = search(query, registry)
    if not codes:
        error(f"no code matches {query!r}")
        if args.json:
            _dump([])
        return EXIT_FOUND
    return _show_codes(args, codes, api=None)


def cmd_list(args: Namespace, registry: Registry) -> int:
    from ..registry.lookup import filter_codes

    codes = filter_codes(registry, api=args.api, recoverable=args.recoverable)
    return _show_codes(args, codes, api=args.api)


def _show_codes(args: Namespace, codes: Iterable[Any], api: str | None) -> int:
    lang = lang_of(args)
    if args.json:
        from ..render.json import entry_dict

        _dump([entry_dict(c, lang) for c in codes])
    else:
        from ..render.text import table

        sys.stdout.write(table(codes, lang, api=api) + "\n")
    return EXIT_OK


def cmd_scan(args: Namespace, registry: Registry) -> int:
    from .scan import scan_files

    files = args.files or ["-"]
    if files.count("-") > 1:
        error("standard input ('-') can be scanned only once")
        return EXIT_USAGE
    if "-" in files and sys.stdin is None:
        error("no standard input to scan")
        return EXIT_USAGE
    return scan_files(files, args, registry)
