"""The four commands: lookup, search, list, scan. Output goes through one :mod:`.formats` class."""

from __future__ import annotations

import sys

from ..registry.model import Registry
from .output import error, lang_of, prepare_streams, use_color, write

TYPE_CHECKING = False  # typing costs ~3 ms of the `llmstatus CODE` start-up budget
if TYPE_CHECKING:
    from typing import Any

    from .formats import Format
    from .plain import Args

EXIT_OK, EXIT_FOUND, EXIT_USAGE = 0, 1, 2


def run(args: Args) -> int:
    """Run the parsed command; return the exit status."""
    prepare_streams(args.format)
    registry = _registry(args.registry)
    if registry is None:
        return EXIT_USAGE
    if args.command == "mcp":  # the protocol owns stdout: no formatter
        from .mcp import run as serve

        return serve(registry)
    from .formats import formatter

    fmt = formatter(args.format, lang_of(args), use_color(args), registry)
    return {"lookup": cmd_lookup, "search": cmd_search, "list": cmd_list, "scan": cmd_scan,
            "merge": cmd_merge}[args.command](
        args, registry, fmt
    )


def _registry(files: list[str]) -> Registry | None:
    from ..registry.errors import RegistryError
    from ..registry.packaged import default_registry

    try:
        if files:
            from ..registry.loader import load_registry

            return load_registry(files)
        return default_registry()
    except RegistryError as exc:
        error(str(exc))
        return None


def cmd_lookup(args: Args, registry: Registry, fmt: Format) -> int:
    """Every meaning of each CODE. Several words none of which is a code on its own
    (``llmstatus LLM LINK FAILED``) are read as one name."""
    from ..registry.lookup import UnknownStatusCode, lookup

    status = EXIT_OK
    found: list[tuple[str, Any]] = []
    failures: list[UnknownStatusCode] = []
    if not any(query.strip() for query in args.codes):
        error("give a CODE (llmstatus CODE; llmstatus -h for help)")
        return EXIT_USAGE
    for query in args.codes:
        try:
            found.append((query, lookup(query, registry)))
        except UnknownStatusCode as exc:
            failures.append(exc)
    if failures and not found and len(args.codes) > 1:
        whole = " ".join(args.codes)
        try:
            found, failures = [(whole, lookup(whole, registry))], []
        except UnknownStatusCode:
            pass
    for failure in failures:
        error(failure.reason())
        status = EXIT_FOUND
    write(sys.stdout, fmt.lookup(found, full=args.full))
    return status


def cmd_search(args: Args, registry: Registry, fmt: Format) -> int:
    from ..registry.lookup import quoted, search

    query = " ".join(args.text)
    if not query.strip():  # no word would match every code
        error("search needs a word (llmstatus search WORD...)")
        return EXIT_USAGE
    codes = search(query, registry)
    write(sys.stdout, fmt.codes(codes, api=None))
    if not codes:
        error(f"no code matches {quoted(query)}")  # a huge query is cut, as a lookup's is
        return EXIT_FOUND
    return EXIT_OK


def cmd_list(args: Args, registry: Registry, fmt: Format) -> int:
    from ..registry.lookup import filter_codes

    family = getattr(args, "family", "llm_datadist")
    if family != "all" and family not in registry.families:
        error(f"unknown family {family!r} (choose from {', '.join(registry.families)} or all)")
        return EXIT_USAGE
    codes = filter_codes(registry, api=args.api, recoverable=args.recoverable,
                         family=None if family == "all" else family)
    write(sys.stdout, fmt.codes(codes, api=args.api))
    return EXIT_OK


def cmd_scan(args: Args, registry: Registry, fmt: Format) -> int:
    from .scan import scan_files

    # main() turned the cyclic collector off for the start; scan_files turns it back on once the
    # scanner is built (a scan runs as long as its input lasts).

    files = args.files or ["-"]
    if files.count("-") > 1:
        error("standard input ('-') can be scanned only once")
        return EXIT_USAGE
    if "-" in files and sys.stdin is None:
        error("no standard input to scan")
        return EXIT_USAGE
    return scan_files(files, args, registry, fmt)


def cmd_merge(args: Args, registry: Registry, fmt: Format) -> int:
    from .merge import merge_reports

    return merge_reports(args.reports, registry, fmt)
