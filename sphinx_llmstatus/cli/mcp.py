"""``llmstatus mcp``: a read-only Model Context Protocol server over stdio, for AI agents.

Four tools answer from the registry, each result carrying its sources, as the
command's ``--json`` output does (:mod:`sphinx_llmstatus.render.json`):

- ``lookup(code)``: every meaning of a code in any spelling (name, hex, decimal,
  ``LLMStatusCode.X``, a pybind constant);
- ``search(text)``: the codes whose text holds every word (English or Chinese);
- ``scan(path | text)``: the status codes of a log file or of pasted text, with
  the first failure per process and the counts;
- ``explain(text)``: the codes an exception message or traceback names.

It reads only what it is given (a file is read, never written; at most
:data:`MAX_HITS` hits and :data:`MAX_TEXT` characters of text come back) and
never runs anything. Needs the ``mcp`` SDK (the ``[mcp]`` extra).
"""

from __future__ import annotations

import os
from typing import Any

from ..registry.model import Registry

#: Most hits one ``scan`` returns (the summary counts them all).
MAX_HITS = 200
#: Most characters of pasted text ``scan`` and ``explain`` read.
MAX_TEXT = 4 << 20

INSTRUCTIONS = (
    "Status codes of Huawei CANN LLM DataDist (KV-cache transfer between prefill and decode clusters) "
    "and of the layers around it (HIXL/ADXL, HCCL, ACL runtime, MindIE). Use lookup for one code in any "
    "spelling, search for words, scan for a log file or pasted log text, explain for an exception message. "
    "Every answer cites its sources; the remedy differs per API (python / cpp)."
)


#: What each tool does, as its client shows it (``lang``: en or zh for every text).
DESCRIPTIONS = {
    "lookup": "Every meaning of a status code in any spelling: name (LLM_LINK_FAILED), hex (0x5010B009), "
              "decimal (1343270921), LLMStatusCode.X, a pybind constant (kLinKFailed), -1. Gives names per API, "
              "recoverability, meaning, remedy, causes with checks and fixes, actions, and sources.",
    "search": "The codes whose names, meanings, remedies or causes contain every word of text (English or Chinese).",
    "scan": "The status codes in a log file (path: plain or gzip/bzip2/xz/zstd) or in log text: each hit with "
            "its line, code, layer, recoverability and remedy, then the first failure per process and the counts.",
    "explain": "The codes an exception message or traceback names (LLMException, status_code, a number), each "
               "with its full entry.",
}


def _lang(lang: str) -> str:
    from ..render.lang import normalise_lang

    return normalise_lang(lang) or "en"


def lookup_tool(code: str, lang: str, registry: Registry) -> list[dict[str, Any]]:
    from ..registry.lookup import UnknownStatusCode, lookup
    from ..render.json import entry_dict

    try:
        matches = lookup(code, registry)
    except UnknownStatusCode as exc:
        return [{"query": code, "error": str(exc), "suggestions": list(exc.suggestions)}]
    return [{**entry_dict(m.code, lang, registry), "query": code, "reading": m.reading} for m in matches]


def search_tool(text: str, lang: str, registry: Registry) -> list[dict[str, Any]]:
    from ..registry.lookup import search
    from ..view.code import family

    return [{"name": c.name, "family": family(c, registry, lang)["key"], "hex": c.hex, "value": c.value,
             "meaning": {v.api: v.meaning.get(lang) for v in c.views}} for c in search(text, registry)]


def scan_tool(path: str | None, text: str | None, lang: str, registry: Registry) -> dict[str, Any]:
    import io

    from ..render.json import hit_dict
    from ..scan import scan_stream
    from ..scan.report import Report
    from ..scan.sources import open_log

    if (path is None) == (text is None):
        return {"error": "give either path (a log file) or text (log lines)"}
    if path is not None and (path == "-" or not os.path.isfile(path)):  # stdin is the protocol; a FIFO waits
        return {"error": f"not a regular file: {path}"}
    report, hits = Report(), list[dict[str, Any]]()
    try:
        stream = open_log(path) if path is not None else io.BytesIO(str(text)[:MAX_TEXT].encode("utf-8"))
    except OSError as exc:
        return {"error": f"cannot read {path}: {exc.strerror or exc}"}
    with stream:
        for hit in scan_stream(stream, registry=registry):
            (hit,) = report.triage(path or "-", [hit])
            if len(hits) < MAX_HITS:
                hits.append(hit_dict(hit, path or "-", lang))
    return {"hits": hits, "hits_shown": len(hits), "summary": report.as_dict(lang)}


def explain_tool(text: str, lang: str, registry: Registry) -> list[dict[str, Any]]:
    from ..render.json import entry_dict
    from ..scan import scan_text

    seen: dict[str, dict[str, Any]] = {}
    for hit in scan_text(text[:MAX_TEXT], registry=registry):
        if hit.code is not None and hit.code.name not in seen:
            seen[hit.code.name] = {**entry_dict(hit.code, lang, registry), "found": hit.token,
                                   "line": hit.line_no}
    return list(seen.values())


def server(registry: Registry) -> Any:
    """The MCP server with the four tools over ``registry``."""
    try:
        from mcp.server.mcpserver import MCPServer as Server  # mcp 2
    except ImportError:
        from mcp.server.fastmcp import FastMCP as Server  # type: ignore[no-redef,attr-defined]  # mcp 1

    from .. import __version__

    try:
        app = Server("llmstatus", instructions=INSTRUCTIONS, version=__version__)
    except TypeError:  # mcp 1 takes no version
        app = Server("llmstatus", instructions=INSTRUCTIONS)
    read_only = _read_only()

    @app.tool(annotations=read_only, description=DESCRIPTIONS["lookup"])
    def lookup(code: str, lang: str = "en") -> list[dict[str, Any]]:
        return lookup_tool(code, _lang(lang), registry)

    @app.tool(annotations=read_only, description=DESCRIPTIONS["search"])
    def search(text: str, lang: str = "en") -> list[dict[str, Any]]:
        return search_tool(text, _lang(lang), registry)

    @app.tool(annotations=read_only, description=DESCRIPTIONS["scan"])
    def scan(path: str | None = None, text: str | None = None, lang: str = "en") -> dict[str, Any]:
        return scan_tool(path, text, _lang(lang), registry)

    @app.tool(annotations=read_only, description=DESCRIPTIONS["explain"])
    def explain(text: str, lang: str = "en") -> list[dict[str, Any]]:
        return explain_tool(text, _lang(lang), registry)

    return app


def _read_only() -> Any:
    try:
        from mcp.types import ToolAnnotations
    except ImportError:  # pragma: no cover - every supported SDK has it
        return None
    # By the protocol's own (camelCase) names: mcp 1 and 2 name the fields differently in Python.
    return ToolAnnotations.model_validate({"readOnlyHint": True, "destructiveHint": False, "openWorldHint": False})


def run(registry: Registry) -> int:
    """Serve over stdio until the client closes it; 2 when the ``mcp`` SDK is missing."""
    try:
        app = server(registry)
    except ImportError:
        from .output import error

        error("llmstatus mcp needs the mcp SDK: pip install 'sphinx-llmstatus[mcp]'")
        return 2
    app.run("stdio")
    return 0
