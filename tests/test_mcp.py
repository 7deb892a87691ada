"""``llmstatus mcp``: a real MCP client (the ``mcp`` SDK) drives the server over stdio."""

from __future__ import annotations

import asyncio
import subprocess
import sys

import pytest

mcp = pytest.importorskip("mcp")


def _call(*calls: tuple[str, dict]) -> tuple[list[str], list]:
    """``(tool names, [structured or parsed result of each call])`` from one session."""
    from mcp import ClientSession, StdioServerParameters
    from mcp.client.stdio import stdio_client

    async def session() -> tuple[list[str], list]:
        params = StdioServerParameters(command=sys.executable, args=["-m", "sphinx_llmstatus", "mcp"])
        async with stdio_client(params) as (read, write), ClientSession(read, write) as client:
            await client.initialize()
            tools = [t.name for t in (await client.list_tools()).tools]
            results = []
            for name, arguments in calls:
                result = await client.call_tool(name, arguments)
                assert not result.isError if hasattr(result, "isError") else not result.is_error
                data = getattr(result, "structuredContent", None) or getattr(result, "structured_content", None)
                results.append(data["result"] if isinstance(data, dict) and set(data) == {"result"} else data)
            return tools, results

    return asyncio.run(asyncio.wait_for(session(), 120))


def test_a_client_lists_the_tools_and_looks_a_code_up():
    tools, (entries, search, scanned, explained) = _call(
        ("lookup", {"code": "0x5010B009"}),
        ("search", {"text": "建链", "lang": "zh"}),
        ("scan", {"text": "[ERROR] LLM(7,python): link failed, ret = 1343270921\nok\n"}),
        ("explain", {"text": "llm_datadist.status.LLMException: [link] failed, error code is "
                             "LLMStatusCode.LLM_LINK_FAILED, check the plog for details."}),
    )
    assert sorted(tools) == ["explain", "lookup", "scan", "search"]
    (entry,) = entries
    assert entry["name"] == "LLM_LINK_FAILED" and entry["reading"] == "hex"
    assert entry["meaning"]["python"] == "Establishing the link failed." and entry["causes"][0]["sources"]
    assert "LLM_LINK_FAILED" in [c["name"] for c in search]
    assert [h["name"] for h in scanned["hits"]] == ["LLM_LINK_FAILED"] and scanned["summary"]["failures"] == 1
    assert [e["name"] for e in explained] == ["LLM_LINK_FAILED"]


def test_scan_reads_only_regular_files_and_unknown_codes_say_so(tmp_path):
    log = tmp_path / "a.log"
    log.write_text("x ret = 0x5010B00A\n", encoding="utf-8")
    _tools, (unknown, stdin, missing, good) = _call(
        ("lookup", {"code": "LLM_LINK_FAILD"}), ("scan", {"path": "-"}),
        ("scan", {"path": str(tmp_path / "nope.log")}), ("scan", {"path": str(log)}))
    assert "LLM_LINK_FAILED" in unknown[0]["suggestions"]
    assert stdin == {"error": "not a regular file: -"} and missing["error"].startswith("not a regular file")
    assert [h["name"] for h in good["hits"]] == ["LLM_UNLINK_FAILED"]


def test_without_the_sdk_the_command_says_which_extra_to_install():
    code = ("import sys; sys.modules['mcp'] = None\n"
            "from sphinx_llmstatus.cli import main\n"
            "sys.exit(main(['mcp']))")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert p.returncode == 2 and p.stdout == ""
    assert p.stderr.strip() == "llmstatus: llmstatus mcp needs the mcp SDK: pip install 'sphinx-llmstatus[mcp]'"


def test_scan_marks_likely_consequences_as_the_command_does():
    text = ("(VllmWorker rank=0 pid=9) ERROR [link] failed, error code is LLMStatusCode.LLM_LINK_FAILED, {1: 0}.\n"
            "(VllmWorker rank=0 pid=9) ERROR [pull_blocks] failed, error code is LLMStatusCode.LLM_FAILED, {}.\n")
    _tools, (found,) = _call(("scan", {"text": text}))
    assert [h.get("likely_consequence_of") for h in found["hits"]] == [
        None, {"file": "-", "line": 1, "name": "LLM_LINK_FAILED"}]
    assert found["summary"]["likely_consequences"] == {"LLM_FAILED": 1}
