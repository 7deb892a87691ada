"""What a log line says about who wrote it: LLM DataDist context, process, module tag.

Used to attribute numbers that several layers share (``4294967295`` /
``ffffffff``, ``507053``, ``507057``): they are LLM DataDist's only where the
line, or a neighbouring line of the same process, carries LLM DataDist
context. Every function here looks at a bounded part of a line (the first
:data:`HEAD` characters for the prefix, at most :data:`CONTEXT_SPAN` for
context), so attribution stays linear in the input.

The facts are the registry's: how a line's start names its writer (its
``[[log_format]]`` tables, each with sample lines), which plog module tags
belong to which family (``log_modules``), and the words only LLM DataDist's
own lines hold (the ``context_words`` of its family, with its code names and
API functions). LLM DataDist logs through GE's log module, so a ``GE(`` tag
alone does not tell.
"""

from __future__ import annotations

import re

from ..registry.logformat import compiled, read
from ..registry.model import LLM_DATADIST, Registry

#: Characters at the start of a line searched for the process and module tag.
HEAD = 256
#: Characters of a line searched for LLM DataDist context: its start, and as many
#: around a shared number (so a long line's tail is searched too).
CONTEXT_SPAN = 1 << 16
NEAR = 1024  # characters: within a long-line piece's overlap (4096 bytes) whatever the encoding

class Prefix:
    """Who wrote a line: ``process`` (a display key or None), ``api`` and ``module``."""

    __slots__ = ("process", "api", "module")

    def __init__(self, process: str | None, api: str | None, module: str | None) -> None:
        self.process, self.api, self.module = process, api, module


#: A line whose start names no writer.
NO_PREFIX = Prefix(None, None, None)


class PrefixReader:
    """Reads who wrote a line from its start, by the registry's log formats (bounded: :data:`HEAD` chars).

    ``[ERROR] GE(1234,python):`` gives process ``1234 (python)``, API
    ``python`` (the user called the Python API) and module ``GE``; a later
    format that also matches refines it (``[HIXL]`` after it: module
    ``HIXL``); ``(VllmWorker rank=0 pid=123)`` gives ``123 (VllmWorker
    rank=0)`` and API ``python``. ``families`` maps module tags to the family
    of their lines.
    """

    def __init__(self, registry: Registry) -> None:
        self.formats = tuple(registry.log_formats)
        for fmt in self.formats:
            compiled(fmt.pattern)
        self.families = {module: family.key for family in registry.families.values()
                         for module in family.log_modules}

    def spans(self, line: str) -> list[tuple[int, int]]:
        """Where each log format matches the start of ``line`` (what the line's writer is read from)."""
        head = line[:HEAD]
        return [m.span() for fmt in self.formats if (m := compiled(fmt.pattern).search(head)) is not None]

    def __call__(self, line: str) -> Prefix:
        head = line[:HEAD]
        found: list[str] = ["", "", ""]
        for fmt in self.formats:
            got = read(fmt, head)
            if got is not None:
                found = [new or old for new, old in zip(got, found)]
        module, process, api = found
        if not (module or process or api):
            return NO_PREFIX
        return Prefix(process or None, api or None, module or None)


class ContextFinder:
    """Finds LLM DataDist context words in a line (one linear regex search)."""

    def __init__(self, registry: Registry) -> None:
        own = registry.families.get(LLM_DATADIST)
        words = set(own.context_words if own is not None else ())
        for code in registry.in_family(LLM_DATADIST):
            if code.is_success:
                continue
            words.update(v.name for v in code.views)
            for view in code.views:
                words.update(f for f in view.functions if "." not in f and len(f) >= 8)
        # Literal-led (the word boundary before is checked on the match): Python's re then
        # skips to the words' first letters in C. Grouped by first letter, longest first
        # within a group (as one longest-first alternation would match): each position then
        # tries one branch per first letter, not every word (4x faster on lowercase text).
        self.words = frozenset(words)
        by_first: dict[str, list[str]] = {}
        for w in sorted(words, key=len, reverse=True):
            by_first.setdefault(w[0], []).append(w)
        alt = "|".join(re.escape(first) + "(?:" + "|".join(re.escape(w[1:]) for w in group) + ")"
                       for first, group in sorted(by_first.items()))
        self._re = re.compile(rf"(?:{alt})(?![A-Za-z0-9])")
        self._bytes_re = re.compile(rf"(?:{alt})(?![A-Za-z0-9])".encode())

    def find(self, line: str, start: int = 0, end: int = CONTEXT_SPAN) -> str | None:
        """The first context word of ``line[start:end]`` (bounded by the caller), or None."""
        for m in self._re.finditer(line, max(0, start), end):
            s = m.start()
            if s == 0 or not (line[s - 1].isascii() and line[s - 1].isalnum()):
                return m.group()
        return None

    def find_all(self, line: str, start: int, end: int) -> list[tuple[int, str]]:
        """Every context word of ``line[start:end]`` with its position."""
        return [(m.start(), m.group()) for m in self._re.finditer(line, max(0, start), end)
                if m.start() == 0 or not (line[m.start() - 1].isascii() and line[m.start() - 1].isalnum())]

    def find_bytes(self, data: bytes | bytearray | memoryview, start: int, end: int) -> str | None:
        """Same on the raw bytes ``data[start:end]`` of a line (bounded to :data:`CONTEXT_SPAN`)."""
        for m in self._bytes_re.finditer(data, start, min(end, start + CONTEXT_SPAN)):
            s = m.start()
            if s == 0 or not (data[s - 1] < 128 and chr(data[s - 1]).isalnum()):
                return m.group().decode("ascii")
        return None
