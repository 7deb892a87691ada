"""A code as a command-line argument, for the two faces that parse one with argparse: the
``llmstatus`` command and the ``%llmstatus`` magic (neither imports the other).

argparse reads ``-1`` as a value, not an option, when it matches its negative-number
pattern; a code may also be ``-0x5010B009``, so both faces widen the pattern to hex.
"""

from __future__ import annotations

import re

TYPE_CHECKING = False  # typing is not imported at run time: `llmstatus CODE` reads this module
if TYPE_CHECKING:
    from argparse import ArgumentParser

#: What argparse reads as a negative number, not an option: its own pattern, widened to hexadecimal.
NEGATIVE_NUMBER = r"^-(?:\d+|\d*\.\d+|0[xX][0-9A-Fa-f]+)$"


def accept_negative_hex(parser: ArgumentParser) -> None:
    """Make ``parser`` read ``-0x5010B009`` as a value, as it
    reads ``-1``. argparse keeps its negative-number pattern in an attribute without a public
    setter (``_negative_number_matcher``); this widens it in one place."""
    parser._negative_number_matcher = re.compile(NEGATIVE_NUMBER)
