"""The ``llmstatus`` command: look up codes and triage log files.

``main(argv)`` is the console-script entry point (``pyproject.toml``) and
``python -m sphinx_llmstatus``. It imports only argparse, the registry, the
scanner and the plain-text/JSON renderers, lazily, so the command starts fast.
"""

from __future__ import annotations

import os
import sys

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
    from .parser import parse

    args = parse(sys.argv[1:] if argv is None else list(argv))
    if isinstance(args, int):
        return args
    from .commands import run

    try:
        status = run(args)
        sys.stdout.flush()
        return status
    except BrokenPipeError:
        # The reader went away (`| head`): stop quietly, and keep the
        # interpreter's final flush from raising again.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
        return EXIT_BROKEN_PIPE
    except KeyboardInterrupt:
        return 130
