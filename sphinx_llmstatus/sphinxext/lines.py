"""The exact source line of a role in a multi-line reStructuredText paragraph, for warnings.

docutils hands every role of a paragraph the paragraph's first line (MyST
gives each role its own). Only when a warning is due, the mention's line is
found again: its rank among the paragraph's mentions with the same raw text,
then that occurrence in the source file from the paragraph's first line on.
"""

from __future__ import annotations

import os
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from docutils import nodes
from docutils.utils import get_source_line

if TYPE_CHECKING:
    from sphinx.environment import BuildEnvironment

#: Source suffixes whose parsers already give each role its own line (MyST Markdown, notebooks).
_OWN_LINE_SUFFIXES = (".md", ".ipynb", ".myst")


def exact_location(env: BuildEnvironment, node: nodes.Element) -> Any:
    """A warning location for ``node`` (a role's literal or reference): ``"path:line"`` or the node."""
    source, line = get_source_line(node)
    if not source or not line or source.endswith(_OWN_LINE_SUFFIXES):
        return node
    mention = node if isinstance(node, nodes.literal) else node.next_node(nodes.literal)
    raw = mention.rawsource if mention is not None else ""
    block = _text_block(node)
    if not raw or block is None:
        return node
    same = [lit for lit in block.findall(nodes.literal) if lit.rawsource == raw]
    rank = next((i for i, lit in enumerate(same) if lit is mention), 0)
    found = _nth_line(source, line, raw.splitlines()[0], rank)
    return f"{source}:{found or line}"


def _text_block(node: nodes.Node) -> nodes.Element | None:
    """The paragraph (or other block of text) that holds ``node``."""
    parent = node.parent
    while parent is not None:
        if isinstance(parent, nodes.TextElement) and not isinstance(parent, nodes.Inline):
            return parent
        parent = parent.parent
    return None


def _nth_line(source: str, first: int, needle: str, rank: int) -> int | None:
    """Line (1-based) of occurrence ``rank`` (0-based) of ``needle`` at or after line ``first``."""
    lines = _lines(source, _mtime(source))
    seen = 0
    for number in range(first, len(lines) + 1):
        count = lines[number - 1].count(needle)
        if seen + count > rank:
            return number
        seen += count
    return None


@lru_cache(maxsize=8)
def _lines(source: str, mtime: float) -> list[str]:
    try:
        with open(source, encoding="utf-8-sig") as fh:
            return fh.read().splitlines()
    except (OSError, UnicodeDecodeError):
        return []


def _mtime(path: str) -> float:
    try:
        return os.stat(path).st_mtime
    except OSError:
        return -1.0
