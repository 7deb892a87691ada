"""The MyST markup of the extension, read in plain Markdown pages (no MkDocs import here).

The same page builds in Sphinx with MyST-Parser and in MkDocs with the plugin:

- a fenced block ```` ```{llm-status} CODE ```` is a code's entry, ```` ```{llm-status-table} ````
  a table; options follow on their own lines as ``:name: value`` (MyST's field list form);
- the inline role ``{llm-status}`CODE``` (also ``{llm-status}`text <CODE>``` and
  ``{llm-status}`~CODE```) links a mention to the code's entry.

:func:`blocks_in` finds the entries and tables of a page before any page is rendered (a role links to
an entry on any page); :func:`transform` rewrites a page, through callbacks that resolve,
render and warn. Other fenced blocks are left alone, so pages can show the markup itself.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

#: A fence opening: its backticks or tildes, and the rest of the line.
_FENCE = re.compile(r"^(?P<indent> {0,3})(?P<marks>`{3,}|~{3,})(?P<info>.*)$")
_DIRECTIVE = re.compile(r"^\{(?P<name>llm-status(?:-table)?)\}\s*(?P<argument>.*?)\s*$")
_OPTION = re.compile(r"^:(?P<name>[a-z-]+):\s*(?P<value>.*?)\s*$")
#: ``{llm-status}`...``` outside code: the role MyST writes.
_ROLE = re.compile(r"(?<!`)\{llm-status\}`(?P<content>[^`\n]{1,200})`")  # not in a code span: `{llm-...
_TITLED = re.compile(r"^(?P<text>.*?)\s*<(?P<target>[^<>]+)>$")


@dataclass
class Block:
    """One of our fenced blocks: ``llm-status`` or ``llm-status-table``, its argument and options."""

    name: str
    argument: str
    options: dict[str, str] = field(default_factory=dict)
    line: int = 0


@dataclass
class Mention:
    """One role: the text to show and the code it names."""

    text: str
    target: str


def _blocks(lines: list[str]) -> Iterator[tuple[int, int, Block | None]]:
    """``(first, end, block)`` of each fenced block (``end`` past its closing fence); ``block`` is
    None for fences of other kinds."""
    i = 0
    while i < len(lines):
        opening = _FENCE.match(lines[i])
        if opening is None:
            i += 1
            continue
        marks = opening.group("marks")
        end = next((j for j in range(i + 1, len(lines))
                    if lines[j].strip().startswith(marks) and not lines[j].strip().strip(marks[0])), len(lines))
        directive = _DIRECTIVE.match(opening.group("info").strip())
        block = None
        if directive is not None:
            block = Block(directive.group("name"), directive.group("argument"), line=i + 1)
            for body in lines[i + 1:end]:
                option = _OPTION.match(body.strip())
                if option is not None:
                    block.options[option.group("name")] = option.group("value")
        yield i, min(end + 1, len(lines)), block
        i = end + 1


def blocks_in(markdown: str) -> list[Block]:
    """The entries and tables of a page, in order."""
    return [b for _i, _e, b in _blocks(markdown.splitlines()) if b is not None]


def mention(content: str) -> Mention:
    """The role's content read as MyST reads it: ``CODE``, ``~CODE`` or ``text <CODE>``."""
    titled = _TITLED.match(content)
    if titled is not None:
        return Mention(titled.group("text"), titled.group("target").strip())
    if content.startswith("~"):
        return Mention("", content[1:].strip())  # the name, filled in by the resolver
    return Mention(content, content.strip())


def transform(markdown: str, *, render: Callable[[Block], str], link: Callable[[Mention, int], str]) -> str:
    """``markdown`` with our blocks rendered (``render``) and every role outside code replaced by a
    link (``link(mention, line)``)."""
    lines = markdown.splitlines()
    out: list[str] = []
    done = 0
    for first, end, block in _blocks(lines):
        out += _roles(lines[done:first], done, link)
        out += [render(block)] if block is not None else lines[first:end]
        done = end
    out += _roles(lines[done:], done, link)
    return "\n".join(out) + ("\n" if markdown.endswith("\n") else "")


def _roles(lines: list[str], offset: int, link: Callable[[Mention, int], str]) -> list[str]:
    out = []
    for n, line in enumerate(lines, offset + 1):
        if "{llm-status}" in line:
            def linked(m: re.Match[str], n: int = n) -> str:
                return link(mention(m.group("content")), n)

            line = _ROLE.sub(linked, line)
        out.append(line)
    return out
