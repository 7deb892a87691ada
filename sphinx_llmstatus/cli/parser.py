"""Command-line grammar of ``llmstatus`` (argparse).

``llmstatus CODE ...`` needs no sub-command word: when the first positional
argument is not a command name, ``lookup`` is implied.
"""

from __future__ import annotations

import argparse
import os
import re

COMMANDS = ("lookup", "search", "list", "scan")
#: Most context lines ``-C`` takes: more would only hold whole files in memory.
MAX_CONTEXT = 10000
#: ``-0x1``: argparse only knows decimal negative numbers and would read it as an option.
_NEGATIVE_HEX = re.compile(r"^-0[xX][0-9A-Fa-f]{1,16}$")
_NEGATIVE_NUMBER = re.compile(r"^-\d")
_VALUED_OPTIONS = {"--lang", "--color", "--registry", "--api", "--recoverable", "--context", "-C"}

_DESCRIPTION = """\
Look up CANN LLM DataDist status codes and find them in logs.

  llmstatus CODE [CODE ...]          describe codes (name, 0x5010B009, 1343270921, -1, LLMStatusCode.X)
  llmstatus search TEXT              find codes by words of their names, meanings and remedies
  llmstatus list [--api] [--recoverable]   table of codes
  llmstatus scan [FILE ...|-]        list every status code in logs, with remedies and a summary
"""
_EPILOG = """\
exit status: 0 ok (scan: no failure code found); 1 unknown code, no search match,
or scan found a failure code; 2 usage error, unreadable file or registry.
Colour only on a terminal, never with NO_COLOR set (unless --color always)."""


class _Formatter(argparse.RawDescriptionHelpFormatter):
    """Takes the terminal width from ``os``: argparse's default imports shutil (~2 ms of start-up)."""

    def __init__(self, prog: str, indent_increment: int = 2, max_help_position: int = 24,
                 width: int | None = None) -> None:
        if width is None:
            try:
                width = os.get_terminal_size().columns - 2
            except OSError:
                width = int(os.environ.get("COLUMNS", "80") or 80) - 2
        super().__init__(prog, indent_increment, max_help_position, width)


class _Parser(argparse.ArgumentParser):
    """ArgumentParser whose sub-parsers and help use :class:`_Formatter`."""

    def __init__(self, *args, **kwargs) -> None:
        kwargs.setdefault("formatter_class", _Formatter)
        super().__init__(*args, **kwargs)


def _common() -> _Parser:
    common = _Parser(add_help=False)
    group = common.add_argument_group("output")
    group.add_argument("--lang", choices=("en", "zh"), help="language of texts (default: from LC_ALL/LC_MESSAGES/LANG)")
    group.add_argument("--json", action="store_true", help="JSON output (scan: JSON Lines, one object per hit)")
    group.add_argument("--color", choices=("auto", "always", "never"), default="auto",
                       help="ANSI colours (auto: on a terminal and NO_COLOR unset)")
    group.add_argument("--registry", action="append", default=[], metavar="FILE",
                       help="extra registry TOML file overriding or adding codes (repeatable)")
    return common


def build_parser() -> argparse.ArgumentParser:
    """The full parser, with one sub-parser per command."""
    from .. import __version__

    common = _common()
    parser = _Parser(prog="llmstatus", description=_DESCRIPTION, epilog=_EPILOG)
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    p = sub.add_parser("lookup", parents=[common], help="describe codes (the default command)",
                       description="Describe each CODE: names per API, hex, decimal, recoverable, meaning, remedy.")
    p.add_argument("codes", nargs="+", metavar="CODE",
                   help="a name (either API spelling), LLMStatusCode.X, its repr, hex (0x5010B009, 5010b009) or decimal, also -1")

    p = sub.add_parser("search", parents=[common], help="find codes by words (English or Chinese)",
                       description="Codes whose names, meanings or remedies contain every word of TEXT.")
    p.add_argument("text", nargs="+", metavar="TEXT")

    p = sub.add_parser("list", parents=[common], help="table of codes",
                       description="Every code of the registry, optionally filtered.")
    p.add_argument("--api", choices=("python", "cpp"), help="only codes this API has, in its spelling")
    p.add_argument("--recoverable", choices=("yes", "no"), help="only codes with this recoverability (in --api, or in any API)")

    p = sub.add_parser("scan", parents=[common], help="find status codes in log files",
                       description="Every LLM DataDist status code in FILEs or standard input ('-'), one hit per "
                                   "code per line, with recoverable and remedy; numbers of other layers (GE, ACL "
                                   "runtime, HCCL, HIXL) in their own section; then the first failure per process "
                                   "and counts. gzip/bzip2/xz/zstd logs are read by content.")
    p.add_argument("files", nargs="*", metavar="FILE",
                   help="log files (plain or compressed) or, with -r, directories; '-' or nothing for standard input")
    p.add_argument("--all", action="store_true", help="also list the success code")
    p.add_argument("-C", "--context", type=_non_negative, default=0, metavar="N", help="show N lines around each hit")
    p.add_argument("-r", "--recursive", action="store_true", help="scan every file under directories given")
    p.add_argument("--summary", action="store_true",
                   help="print only the summary (first failure per process, counts); with --json one object")
    return parser


def _non_negative(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be 0 or more: {value}")
    if value > MAX_CONTEXT:
        raise argparse.ArgumentTypeError(f"must be at most {MAX_CONTEXT}: {value}")
    return value


def route(argv: list[str]) -> list[str]:
    """``argv`` with ``lookup`` inserted when no command word comes first."""
    skip = False
    for token in argv:
        if skip:
            skip = False
            continue
        if token == "--":
            break
        if token.startswith("-") and not _NEGATIVE_NUMBER.match(token):
            if token in ("-h", "--help", "--version"):
                return argv
            skip = token in _VALUED_OPTIONS
            continue
        if token in COMMANDS:
            return argv
        break
    else:
        if not argv:
            return argv
    return ["lookup", *argv]


def parse(argv: list[str]) -> argparse.Namespace | int:
    """Parsed arguments, or an exit status (0 after --help/--version, 2 on usage errors)."""
    parser = build_parser()
    if not argv:
        parser.print_usage()
        import sys

        print("llmstatus: error: give a CODE or a command (llmstatus -h for help)", file=sys.stderr)
        return 2
    argv = [str(int(t, 16)) if _NEGATIVE_HEX.match(t) else t for t in argv]
    try:
        args = parser.parse_args(route(argv))
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else 2
    return args
