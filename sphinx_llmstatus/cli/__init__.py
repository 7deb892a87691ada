"""The ``llmstatus`` command: look up codes and triage log files.

``main(argv)`` is the console-script entry point (``pyproject.toml``) and
``python -m sphinx_llmstatus``. It imports only argparse (not even that for
``llmstatus CODE``: :mod:`.plain`), the registry, the scanner and the renderers
of the chosen ``--format``, lazily, so the command starts fast.
"""

from __future__ import annotations

import os
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from .plain import Args

__all__ = ["main"]

#: Exit status when standard output is closed early (``| head``), as for a
#: process killed by SIGPIPE.
EXIT_BROKEN_PIPE = 141


def main(argv: list[str] | None = None) -> int:
    """Run the command with ``argv`` (default ``sys.argv[1:]``); return the exit status.

    0: success (scan: no failure code found); 1: a code is unknown, a search
    matched nothing, or scan found a failure code; 2: usage error, unreadable
    file or registry. Never raises for bad input: messages go to stderr.
    """
    import gc

    from .output import error

    # A lookup allocates a bounded set of long-lived objects (the registry) and exits: the cyclic
    # collector would walk them again and again while they are made, for nothing (about a twentieth
    # of `llmstatus CODE`'s instructions). `scan` runs for as long as its input lasts: it turns the
    # collector back on (commands.run).
    gc.disable()
    if sys.stdout is None:  # started with stdout closed (`llmstatus X >&-`)
        error("standard output is closed")
        return 2
    try:
        from .plain import plain_lookup

        words = sys.argv[1:] if argv is None else list(argv)
        args: Args | int | None = plain_lookup(words)
        if args is None:
            from .parser import parse

            args = parse(words)
        from .output import OutputError

        try:
            if isinstance(args, int):  # --help, --version or a usage error: argparse wrote the text
                status = args
            else:
                from .commands import run

                status = run(args)
            sys.stdout.flush()
            return status
        except OutputError as exc:
            reason = str(exc)
        except OSError as exc:  # a failed final flush (disk full) is an output error too
            if isinstance(exc, BrokenPipeError):
                raise
            reason = exc.strerror or str(exc)
        error(f"cannot write output: {reason}")
        _discard_stdout()
        return 2
    except BrokenPipeError:
        # The reader went away (`| head`): stop quietly.
        _discard_stdout()
        return EXIT_BROKEN_PIPE
    except KeyboardInterrupt:
        return 130


def _discard_stdout() -> None:
    """Point stdout at /dev/null so the interpreter's final flush cannot fail again."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)
