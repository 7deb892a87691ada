"""What a log line says about who wrote it: LLM DataDist context, process, module tag.

Used to attribute numbers that several layers share (``4294967295`` /
``ffffffff``, ``507053``, ``507057``): they are LLM DataDist's only where the
line, or a neighbouring line of the same process, carries LLM DataDist
context. Every function here looks at a bounded part of a line (the first
:data:`HEAD` characters for the prefix, at most :data:`CONTEXT_SPAN` for
context), so attribution stays linear in the input.

Facts (FACTS.md, FIELD-NOTES.md section 3): LLM DataDist logs through GE's log
module (plog lines ``[ERROR] GE(pid,process):time [file:line]tid Func: ...``;
its ``LLMLOGE`` macro in ``hicann/hixl`` prints through GE's module id), so a
``GE(`` tag alone does not tell; its API names (``LinkLlmClusters``,
``link_clusters``...), ``LLMStatusCode``, ``LLMException`` and the
``llm_datadist`` package/namespace do.
"""

from __future__ import annotations

import re

from ..registry.model import Registry

#: Characters at the start of a line searched for the process and module tag.
HEAD = 256
#: Characters of a line searched for LLM DataDist context: its start, and as many
#: around a shared number (so a long line's tail is searched too).
CONTEXT_SPAN = 1 << 16
NEAR = 1024  # characters: within a long-line piece's overlap (4096 bytes) whatever the encoding

#: Words that are LLM DataDist's alone, besides the registry's code names and
#: API function names: its Python exception and enum, its package/namespace
#: and class, and C++/Python calls the vendor pages name (FACTS.md).
CONTEXT_WORDS = (
    "LLMStatusCode", "LLMException", "llm_datadist", "LLMDataDist", "LlmDataDist", "LLM_DATADIST",
    "LinkLlmClusters", "UnlinkLlmClusters", "PullKvCache", "PullKvBlocks", "PushKvCache", "PushKvBlocks",
    "CopyKvCache", "CopyKvBlocks", "link_clusters", "unlink_clusters", "pull_cache", "pull_blocks",
    "push_cache", "push_blocks", "copy_cache", "switch_role", "check_link_status",
    # Its own C++ internals as its GE-module log lines name them (function and
    # file tags, /work/notes/incidents.md section 6.1 L9/L10).
    "LinkCluster", "LinkClusters", "UnlinkCluster", "UnlinkClusters", "llm_link_manager",
)

# plog: "[ERROR] GE(1254,ker_DP25_EP25):2025-..." (module, pid, process name).
_PLOG_RE = re.compile(r"\[(?:ERROR|WARNING|WARN|INFO|DEBUG|EVENT|TRACE)\]\s{0,4}([A-Z][A-Z0-9_]{0,31})\((\d{1,10}),([^)\s]{0,64})\)")
# vLLM: "(VllmWorker rank=0 pid=123)", "(EngineCore_DP0 pid=7)".
_VLLM_RE = re.compile(r"\(([A-Za-z_][A-Za-z0-9_]{0,63})((?: [a-z_]{1,16}=\d{1,10}){0,4}) pid=(\d{1,10})\)")

#: plog module tags and the family a shared number on such a line belongs to
#: when no LLM DataDist context is around.
MODULE_FAMILIES = {
    "GE": "ge", "HCCL": "hccl", "HCCP": "hccl", "HCOM": "hccl", "RUNTIME": "acl_runtime",
    "ASCENDCL": "acl_runtime", "DRV": "acl_runtime", "HIXL": "hixl", "ADXL": "hixl",
}


class Prefix:
    """Who wrote a line: ``process`` (a display key or None), ``api`` and ``module``."""

    __slots__ = ("process", "api", "module")

    def __init__(self, process: str | None, api: str | None, module: str | None) -> None:
        self.process, self.api, self.module = process, api, module


_NO_PREFIX = Prefix(None, None, None)


def prefix(line: str) -> Prefix:
    """The process, API and plog module a line's start names (bounded look at :data:`HEAD` chars).

    ``GE(1234,python)`` gives process ``1234 (python)``, API ``python`` (the
    user called the Python API) and module ``GE``; ``(VllmWorker rank=0
    pid=123)`` gives ``123 (VllmWorker rank=0)`` and API ``python``.
    """
    head = line[:HEAD]
    m = _PLOG_RE.search(head)
    if m is not None:
        module, pid, name = m.groups()
        api = "python" if name == "python" or name.startswith("python") else None
        return Prefix(f"{pid} ({name})" if name else pid, api, module)
    m = _VLLM_RE.search(head)
    if m is not None:
        return Prefix(f"{m.group(3)} ({m.group(1)}{m.group(2)})", "python", None)
    return _NO_PREFIX


class ContextFinder:
    """Finds LLM DataDist context words in a line (one linear regex search)."""

    def __init__(self, registry: Registry) -> None:
        words = set(CONTEXT_WORDS)
        for code in registry:
            if code.is_success:
                continue
            words.update(v.name for v in code.views)
            for view in code.views:
                words.update(f for f in view.functions if "." not in f and len(f) >= 8)
        # Literal-led (the word boundary before is checked on the match): Python's re then
        # skips to the words' first letters in C. Grouped by first letter, longest first
        # within a group (as one longest-first alternation would match): each position then
        # tries one branch per first letter, not every word (4x faster on lowercase text).
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
