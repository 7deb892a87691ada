"""A real Jupyter kernel (nbclient + ipykernel) runs tests/data/magic_kernel.ipynb.

The notebook loads the extension (twice), checks that no Sphinx/docutils module
is imported, runs line and cell magics with hostile log text, raises a fake
exception carrying ``status_code`` with the hint hook on, explains it with
``--last``, and mistypes a code. The assertions are on the output mime bundles
the kernel sent, as a notebook front-end receives them.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")
pytest.importorskip("ipykernel")

from test_magic_hostile import assert_safe_html  # noqa: E402

NOTEBOOK = Path(__file__).parent / "data" / "magic_kernel.ipynb"


@pytest.fixture(scope="module")
def cells(tmp_path_factory):
    nb = nbformat.read(NOTEBOOK, as_version=4)
    workdir = tmp_path_factory.mktemp("kernel")
    client = nbclient.NotebookClient(
        nb, timeout=120, kernel_name="python3", allow_errors=True,
        resources={"metadata": {"path": str(workdir)}},
    )
    client.execute()
    return [cell.outputs for cell in nb.cells]


def only(outputs, output_type):
    found = [o for o in outputs if o.output_type == output_type]
    assert len(found) == 1, json.dumps(outputs, indent=1, default=str)[:2000]
    return found[0]


def streams(outputs, name=None):
    return "".join(o.text for o in outputs if o.output_type == "stream" and (name is None or o.name == name))


def test_loading_twice_is_quiet_and_imports_no_sphinx(cells):
    assert not [o for o in cells[0] if o.output_type == "error"]
    assert streams(cells[1]).strip() == "[]"


def test_line_magic_sends_html_markdown_and_plain_text(cells):
    data = only(cells[2], "execute_result").data
    assert {"text/plain", "text/html", "text/markdown"} <= set(data)
    plain = data["text/plain"]
    assert "LLM_LINK_FAILED" in plain and "0x5010B009" in plain and "1343270921" in plain
    assert "<" not in plain.replace("<LLMStatusCode", "")  # no markup in the terminal form
    html = data["text/html"]
    assert_safe_html(html)
    assert "LLM_LINK_FAILED" in html and "hiascend.com" in html and "var(--jp-" in html


def test_cell_magic_report_is_escaped(cells):
    data = only(cells[3], "execute_result").data
    html = data["text/html"]
    assert_safe_html(html)
    assert "&lt;script&gt;alert(&#x27;cell&#x27;)&lt;/script&gt; &amp; &quot;quoted&quot;" in html
    assert "LLM_KV_CACHE_NOT_EXIST" in html and "503900" not in html
    plain = data["text/plain"]
    assert "2 status code occurrences in 3 lines" in plain
    assert "Line 1: LLM_LINK_FAILED" in plain and "Line 2: LLM_KV_CACHE_NOT_EXIST" in plain
    assert "<script>alert('cell')</script>" in plain  # plain text is shown as pasted


def test_exception_keeps_its_traceback_and_gets_one_hint(cells):
    assert streams(cells[4]).strip() == "llmstatus hint after tracebacks: on"
    error = only(cells[5], "error")
    assert error.ename == "LLMException" and "[link] failed" in error.evalue
    assert error.traceback  # IPython's normal traceback is there
    hint = [line for line in streams(cells[5]).splitlines() if line.startswith("[llmstatus]")]
    assert len(hint) == 1
    assert hint[0].startswith("[llmstatus] LLM_LINK_FAILED (0x5010B009): ")
    assert hint[0].endswith("Run %llmstatus --last for the remedy.")


def test_last_explains_the_fake_exception(cells):
    assert streams(cells[6]).strip() == "1343270921 yes status_code attribute"
    data = only(cells[6], "execute_result").data
    assert data["text/plain"].startswith("Last exception: LLMException: [link] failed")
    assert "LLM_LINK_FAILED" in data["text/plain"]
    assert_safe_html(data["text/html"])
    assert "Last exception: LLMException: [link] failed, error code is LLMStatusCode.LLM_LINK_FAILED" in data["text/html"]


def test_typo_is_one_line_without_traceback(cells):
    outputs = cells[7]
    assert not [o for o in outputs if o.output_type == "execute_result"]
    text = streams(outputs) + "".join("\n".join(o.get("traceback", [])) for o in outputs if o.output_type == "error")
    errors = [o for o in outputs if o.output_type == "error"]
    for o in errors:
        assert o.ename == "UsageError"
    lines = [line for line in text.strip().splitlines() if line.strip()]
    assert len(lines) == 1, text
    assert "unknown LLM DataDist status code 'LLM_LINK_FAILD'; did you mean LLM_LINK_FAILED" in lines[0]
    assert "Traceback" not in text


def test_ambiguous_code_shows_both_meanings(cells):
    data = only(cells[8], "execute_result").data
    for mime in ("text/plain", "text/html"):
        assert "LLM_UNKNOWN_ERROR" in data[mime] and "LLM_FAILED" in data[mime]


def test_tab_completion_through_the_kernel_protocol():
    """A front-end's complete_request (what JupyterLab sends on Tab) offers code names."""
    from jupyter_client.manager import start_new_kernel

    km, kc = start_new_kernel(kernel_name="python3")
    try:
        kc.execute_interactive("%load_ext sphinx_llmstatus", timeout=60)
        replies = {}
        for code in ("%llmstatus LLM_LINK_F", "%llmstatus --api "):
            msg_id = kc.complete(code, len(code))
            while True:
                reply = kc.get_shell_msg(timeout=60)
                if reply["parent_header"].get("msg_id") == msg_id:
                    break
            content = reply["content"]
            assert content["status"] == "ok"
            replies[code] = (content["matches"], code[content["cursor_start"]:content["cursor_end"]])
        assert replies["%llmstatus LLM_LINK_F"] == (["LLM_LINK_FAILED"], "LLM_LINK_F")
        assert replies["%llmstatus --api "][0] == ["python", "cpp"]
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)


def test_card_with_spaces_for_underscores_shows_causes_collapsed(cells):
    data = only(cells[9], "execute_result").data
    html = data["text/html"]
    assert_safe_html(html)
    assert "LLM_LINK_FAILED" in html and "<details" in html and "Causes and checks" in html
    assert "Causes and checks:" in data["text/plain"] and "**Causes and checks:**" in data["text/markdown"]


def test_hint_hook_prints_no_traceback_for_a_status_code_too_long_to_print(cells):
    error = only(cells[10], "error")
    assert error.ename == "Huge"
    text = streams(cells[10])
    assert "Error in callback" not in text and "Traceback" not in text and "[llmstatus]" not in text


def test_an_option_of_the_line_magic_in_the_cell_magic_is_named(cells):
    text = streams(cells[11], "stderr")  # IPython shows a UsageError as one line on stderr
    assert text.strip() == "UsageError: unrecognized arguments: --hook on (--hook: an option of the line magic %llmstatus)"
