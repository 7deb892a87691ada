"""Command-line grammar of ``llmstatus`` (argparse).

The output options (``--lang``, ``--format``/``--json``, ``--color``,
``--registry``) go before or after the command word: one parent parser is
added to the top-level parser (with the defaults) and to every sub-command
(with ``SUPPRESS`` defaults, so an option given before the command is not
reset by the sub-command's default). ``llmstatus CODE ...`` needs no command
word: argparse itself reads the first positional argument (with the output
options known), and when it is not a command name the ``lookup`` parser
reads the whole argument list. The argument list is never rewritten.
"""

from __future__ import annotations

import argparse
import os

from ..codeargs import accept_negative_hex
from .plain import COMMANDS, OUTPUT_DEFAULTS

TYPE_CHECKING = False  # typing is not imported at run time (start-up budget)
if TYPE_CHECKING:
    from typing import NoReturn

#: Output formats of every command (``--format``); ``--json`` is short for ``--format json``.
FORMATS = ("text", "json", "markdown")
#: Most context lines ``-C`` takes: more would only hold whole files in memory.
MAX_CONTEXT = 10000

_DESCRIPTION = """\
Look up CANN LLM DataDist status codes and find them in logs.

  llmstatus CODE [CODE ...]          describe codes (name, 0x5010B009, 1343270921, -1, LLMStatusCode.X)
  llmstatus --full CODE              every cause with its fix and sources, settings, frameworks
  llmstatus search TEXT              find codes by words of their names, meanings and remedies
  llmstatus list [--api] [--recoverable] [--family]   table of codes
  llmstatus scan [FILE ...|-]        list every status code in logs, with remedies and a summary
  llmstatus mcp                      serve lookup, search, scan and explain to AI agents (MCP, stdio)

Output options (--lang, --format/--json, --color, --registry) go before or after the command.
"""
_EPILOG = """\
exit status: 0 ok (scan: no failure code found); 1 unknown code, no search match,
or scan found a failure code; 2 usage error, unreadable file or registry.
Colour only on a terminal, never with NO_COLOR set (unless --color always)."""


def terminal_columns(environ: os._Environ[str] | dict[str, str] = os.environ) -> int:
    """Width of the terminal: the tty's, else ``COLUMNS`` when it is a positive integer, else 80.

    Any other ``COLUMNS`` (``abc``, ``-3``, empty) is ignored, as
    :func:`shutil.get_terminal_size` does (not imported: ~2 ms of start-up).
    """
    try:
        return os.get_terminal_size().columns
    except OSError:
        pass
    value = environ.get("COLUMNS", "").strip()
    return int(value) if value.isdecimal() and 0 < int(value) < 10000 else 80


class _Formatter(argparse.RawDescriptionHelpFormatter):
    """Help formatter whose width comes from :func:`terminal_columns`."""

    def __init__(self, prog: str, indent_increment: int = 2, max_help_position: int = 24,
                 width: int | None = None) -> None:
        super().__init__(prog, indent_increment, max_help_position,
                         max(20, terminal_columns() - 2) if width is None else width)


class _Parser(argparse.ArgumentParser):
    """ArgumentParser that reads ``-0x5010B009`` as a (negative hex) number, as it reads ``-1``.

    argparse takes an argument for a number, not an option, when it matches
    the parser's negative-number pattern and the parser has no option that
    looks like a number; the pattern is widened to hexadecimal. Sub-parsers
    are built with this class too.
    """

    #: A command word that comes after the first word (``llmstatus -C 2 scan x``): usage errors
    #: then say that the command's options go after it.
    later_command: str | None = None

    def __init__(self, *args, **kwargs) -> None:
        kwargs.setdefault("formatter_class", _Formatter)
        super().__init__(*args, **kwargs)
        accept_negative_hex(self)

    def error(self, message: str) -> NoReturn:  # argparse's documented override point
        if self.later_command and message.startswith("unrecognized arguments"):
            message += (f" (options of '{self.later_command}' go after it: "
                        f"llmstatus {self.later_command} OPTION...)")
        super().error(message)


def _output_options(parser: argparse.ArgumentParser, *, defaults: bool) -> None:
    """Add the output options; ``defaults=False`` for sub-commands (SUPPRESS keeps the top level's)."""

    def default(value: object) -> object:
        return value if defaults else argparse.SUPPRESS

    group = parser.add_argument_group("output (before or after the command)")
    group.add_argument("--lang", choices=("en", "zh"), default=default(OUTPUT_DEFAULTS["lang"]),
                       help="language of texts (default: from LC_ALL/LC_MESSAGES/LANG)")
    group.add_argument("--format", choices=FORMATS, default=default(OUTPUT_DEFAULTS["format"]),
                       help="output format (scan: JSON Lines with json, one object per hit)")
    group.add_argument("--json", dest="format", action="store_const", const="json",
                       default=default(OUTPUT_DEFAULTS["format"]),
                       help="short for --format json")
    group.add_argument("--color", choices=("auto", "always", "never"), default=default(OUTPUT_DEFAULTS["color"]),
                       help="ANSI colours in text (auto: on a terminal and NO_COLOR unset)")
    # Files given before and after the command are all read: separate dests, joined in parse().
    group.add_argument("--registry", action="append", dest="registry" if defaults else "registry_after",
                       default=default([]), metavar="FILE",
                       help="extra registry TOML file overriding or adding codes (repeatable)")


def _lookup_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "codes", nargs="+", metavar="CODE",
        help="a name (either API spelling, or with spaces for underscores), LLMStatusCode.X, its repr, "
             "a pybind constant (kLinKFailed), hex (0x5010B009, 5010b009) or decimal, also -1")
    parser.add_argument("--full", action="store_true",
                        help="every cause with its fix and sources, the settings and what frameworks do "
                             "(text; by default the first causes, to read in one screen)")


def _sub(sub, name: str, **kwargs) -> argparse.ArgumentParser:
    parser = sub.add_parser(name, **kwargs)
    _output_options(parser, defaults=False)
    return parser


def build_parser() -> _Parser:
    """The full parser, with one sub-parser per command."""
    from .. import __version__

    parser = _Parser(prog="llmstatus", description=_DESCRIPTION, epilog=_EPILOG)
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    _output_options(parser, defaults=True)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    p = _sub(sub, "lookup", help="describe codes (the default command)",
             description="Describe each CODE: names per API, hex, decimal, recoverable, meaning, remedy.")
    _lookup_arguments(p)

    p = _sub(sub, "search", help="find codes by words (English or Chinese)",
             description="Codes whose names, meanings or remedies contain every word of TEXT.")
    p.add_argument("text", nargs="+", metavar="TEXT")

    p = _sub(sub, "list", help="table of codes", description="Every code of the registry, optionally filtered.")
    p.add_argument("--api", choices=("python", "cpp"), help="only codes this API has, in its spelling")
    p.add_argument("--recoverable", choices=("yes", "no"),
                   help="only codes with this recoverability (in --api, or in any API)")
    p.add_argument("--family", default="llm_datadist", metavar="FAMILY",
                   help="the codes of this layer (llm_datadist, hixl, hccl, acl_runtime, mindie; all: every "
                        "layer); default llm_datadist")

    p = _sub(sub, "scan", help="find status codes in log files",
             description="Every LLM DataDist status code in FILEs or standard input ('-'), one hit per code "
                         "per line, with recoverable and remedy; numbers of other layers (GE, ACL runtime, "
                         "HCCL, HIXL) in their own section; then the first failure per process and counts. "
                         "gzip/bzip2/xz/zstd logs are read by content.")
    p.add_argument("files", nargs="*", metavar="FILE",
                   help="log files (plain or compressed) or, with -r, directories; '-' or nothing for standard input")
    p.add_argument("--all", action="store_true", help="also list the success code")
    p.add_argument("-C", "--context", type=_non_negative, default=0, metavar="N", help="show N lines around each hit")
    p.add_argument("-r", "--recursive", action="store_true", help="scan every file under the directories given")
    p.add_argument("--summary", action="store_true",
                   help="print only the summary (first failure per process, counts); with --format json one object")
    p.add_argument("-j", "--jobs", type=_positive, default=None, metavar="N",
                   help="scan files in N worker processes (default: the CPUs); the output is the same as -j 1")
    p.add_argument("--host", metavar="NAME",
                   help="the node these logs come from, where their paths do not name it (for merge)")
    p.add_argument("--long", action="store_true",
                   help="allow zstd windows above 128 MiB (files made with zstd --long), as zstd --long=31 does")
    p.add_argument("--no-progress", action="store_true", help="no progress line on a terminal's stderr")

    p = _sub(sub, "merge", help="merge per-node scan reports (scan --summary --json) into one",
             description="Join the JSON summaries that `llmstatus scan --summary --json` wrote on each node "
                         "into the deployment's report: first failures in time order, both sides of every "
                         "link, the root-cause candidate; as one scan of every log would give.")
    p.add_argument("reports", nargs="+", metavar="REPORT", help="JSON summaries ('-': standard input)")

    _sub(sub, "mcp", help="serve the registry to AI agents (Model Context Protocol over stdio; the [mcp] extra)",
         description="A read-only MCP server over stdio with the tools lookup, search, scan and explain.")
    return parser


def build_lookup_parser() -> _Parser:
    """The parser of ``llmstatus CODE ...`` (``lookup`` without its command word)."""
    parser = _Parser(prog="llmstatus", description=_DESCRIPTION, epilog=_EPILOG)
    _output_options(parser, defaults=True)
    _lookup_arguments(parser)
    parser.set_defaults(command="lookup")
    return parser


def _first_word(argv: list[str]) -> str | None:
    """The first positional argument as argparse reads it, the output options and ``--`` understood."""
    router = _Parser(add_help=False, exit_on_error=False)  # errors raised, not printed
    _output_options(router, defaults=True)
    router.add_argument("word", nargs="?")
    try:
        known, _rest = router.parse_known_args(argv)
    except argparse.ArgumentError:  # a bad output option: the full parser reports it, once
        return None
    return known.word


def _positive(text: str) -> int:
    value = _non_negative(text)
    if value < 1:
        raise argparse.ArgumentTypeError("must be at least 1")
    return value


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


def parse(argv: list[str]) -> argparse.Namespace | int:
    """Parsed arguments, or an exit status (0 after --help/--version, 2 on usage errors)."""
    word = _first_word(argv)
    # `llmstatus --full` alone is a lookup without its CODE: say that, not "unrecognized --full".
    implied = (word is not None and word not in COMMANDS) or (word is None and "--full" in argv)
    parser: _Parser = build_lookup_parser() if implied else build_parser()
    if implied:
        parser.later_command = next((w for w in argv if w in COMMANDS), None)
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else 2
    if args.command is None:
        import sys

        if sys.stderr is not None:  # usage errors go to stderr whole, as argparse's own do
            parser.print_usage(sys.stderr)
            print("llmstatus: error: give a CODE or a command (llmstatus -h for help)", file=sys.stderr)
        return 2
    args.registry = [*args.registry, *getattr(args, "registry_after", [])]
    return args
