"""``llmstatus CODE [CODE ...]`` with nothing but codes: parsed without importing argparse.

The usual call names a code or two and no option. argparse, with the gettext
and locale modules its messages need, is then about a fifth of the command's
start-up for a parse whose result is known: the ``lookup`` command, the codes
as given, every output option at its default. :func:`plain_lookup` returns
that result when every word is a plain positional argument (no option, no
``--``, no command word; ``-1`` and ``-0x5010B009`` are numbers, as the full
parser reads them), and None for anything else, which :mod:`.parser` then
parses. A test checks both give the same namespace.
"""

from __future__ import annotations

import re
from types import SimpleNamespace

from ..codeargs import NEGATIVE_NUMBER

TYPE_CHECKING = False
if TYPE_CHECKING:
    from argparse import Namespace

    #: The parsed arguments the commands read: argparse's, or :func:`plain_lookup`'s.
    Args = Namespace | SimpleNamespace

COMMANDS = ("lookup", "search", "list", "scan", "merge", "mcp")
#: The output options' defaults (``--lang``, ``--format``, ``--color``; ``--registry`` gives none).
OUTPUT_DEFAULTS: dict[str, str | None] = {"lang": None, "format": "text", "color": "auto"}


def plain_lookup(argv: list[str]) -> SimpleNamespace | None:
    """The parse of ``argv`` when it holds only codes, else None (the full parser's turn)."""
    if not argv or any(word in COMMANDS or (word.startswith("-") and not re.match(NEGATIVE_NUMBER, word))
                       for word in argv):
        return None
    return SimpleNamespace(command="lookup", codes=list(argv), registry=[], full=False, **OUTPUT_DEFAULTS)
