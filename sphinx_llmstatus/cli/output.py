"""Where the command writes, and in which language and colours."""

from __future__ import annotations

import os
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from .plain import Args


def prepare_streams(fmt: str = "text") -> None:
    """Make stdout/stderr unable to fail on characters the terminal encoding lacks; JSON is
    written in UTF-8 whatever the locale (RFC 8259), so that it stays exact."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            if stream is sys.stdout and fmt == "json":
                reconfigure(encoding="utf-8", errors="strict")
            else:
                reconfigure(errors="replace")


def use_color(args: Args) -> bool:
    """``--color always|never``, else colour only on a terminal with ``NO_COLOR`` unset or empty."""
    if args.color != "auto":
        return args.color == "always"
    return not os.environ.get("NO_COLOR") and sys.stdout is not None and sys.stdout.isatty()


def lang_of(args: Args) -> str:
    if args.lang:
        return args.lang
    from ..render.lang import default_lang  # the one resolver of every face

    return default_lang()


class OutputError(Exception):
    """Writing to standard output failed (disk full, closed): not the input's fault."""


def write(stream, text: str) -> None:
    """``stream.write(text)``, with write failures (other than a closed pipe) as :class:`OutputError`."""
    try:
        stream.write(text)
    except BrokenPipeError:
        raise
    except OSError as exc:
        raise OutputError(exc.strerror or str(exc)) from None


def error(message: str) -> None:
    """One line on stderr, prefixed with the program name; nothing when stderr is closed (``2>&-``).

    Control characters and undecodable bytes in ``message`` are escaped (``\\x1b``, ``\\xff``)."""
    if sys.stderr is None:
        return
    if not message.isprintable():  # a file name or registry path with control characters or bad bytes
        message = shown_path(message)
    try:
        sys.stderr.write(f"llmstatus: {message}\n")
    except OSError:  # stderr is a closed pipe or a full disk: the exit status still tells
        pass


def shown_path(path: str) -> str:
    """A file name for the terminal and JSON: undecodable bytes and control characters escaped."""
    from ..render.text import terminal_safe

    return terminal_safe(path)
