"""One catalog: the command, the magic and the Sphinx extension use the same Chinese word for each field.

Every face reads ``sphinx_llmstatus/locales/zh/LC_MESSAGES/sphinx_llmstatus.mo``;
here the expected word is read from that file with stdlib gettext, then looked
for in what each face really produces (the installed command, a shell with the
extension loaded, a Sphinx build).
"""

from __future__ import annotations

import gettext
import os
import subprocess
import sys
from pathlib import Path

import pytest
from bs4 import BeautifulSoup

pytest.importorskip("IPython")
from IPython.core.interactiveshell import InteractiveShell  # noqa: E402
from traitlets.config import Config  # noqa: E402

LOCALES = Path(__file__).resolve().parent.parent / "sphinx_llmstatus" / "locales"
SCRIPT = Path(sys.executable).parent / "llmstatus"
#: The fields every face labels, by their English message.
FIELDS = ("Code", "Name", "Hex", "Decimal", "Recoverable", "Meaning", "Remedy", "Source", "Related codes",
          "Causes and checks", "Check", "Fix", "Sources")
#: The words the faces used to disagree on (issue 13); the catalog chose one of each pair.
DROPPED = ("处理建议", "状态码")
LOG = "ret = 1343270921\n"


def zh(message: str) -> str:
    catalog = gettext.translation("sphinx_llmstatus", localedir=str(LOCALES), languages=["zh_CN"])
    return catalog.gettext(message)


def command_text(tmp_path) -> str:
    log = tmp_path / "x.log"
    log.write_text(LOG, encoding="utf-8")
    env = {**os.environ, "LANG": "C.UTF-8"}
    runs = [("LLM_LINK_FAILED", "--full"), ("list",), ("--format", "markdown", "scan", str(log))]
    return "\n".join(subprocess.run([str(SCRIPT), "--lang", "zh", *argv], capture_output=True, env=env,
                                    timeout=60, check=False).stdout.decode("utf-8") for argv in runs)


def magic_text() -> str:
    config = Config()
    config.HistoryManager.hist_file = ":memory:"
    shell = InteractiveShell.instance(config=config)
    try:
        shell.run_line_magic("load_ext", "sphinx_llmstatus")
        results = [shell.run_line_magic("llmstatus", "LLM_LINK_FAILED --lang zh"),
                   shell.run_line_magic("llmstatus", "--lang zh"),
                   shell.run_cell_magic("llmstatus", "--lang zh", LOG)]
        html = "".join(r.html() for r in results)
        return BeautifulSoup(html, "html.parser").get_text("\n") + "\n".join(r.text() for r in results)
    finally:
        shell.run_line_magic("unload_ext", "sphinx_llmstatus")
        InteractiveShell.clear_instance()


def sphinx_text(project) -> str:
    page = {"index.rst": "Codes\n=====\n\n.. llm-status:: LLM_LINK_FAILED\n\n.. llm-status-table::\n"
                         "   :codes: LLM_LINK_FAILED\n   :columns: name, hex, decimal, recoverable, meaning, remedy\n"
                         # hex and decimal share one "Number" cell; alone, each column keeps its own header
                         "\n.. llm-status-table::\n   :codes: LLM_LINK_FAILED\n   :columns: name, hex\n"
                         "\n.. llm-status-table::\n   :codes: LLM_LINK_FAILED\n   :columns: name, decimal\n"}
    app = project(page, confoverrides={"language": "zh_CN"})
    html = (app.outdir / "index.html").read_text(encoding="utf-8")
    return BeautifulSoup(html, "html.parser").get_text("\n")


def test_every_face_uses_the_catalogs_word_for_every_field(tmp_path, project):
    faces = {"command": command_text(tmp_path), "magic": magic_text(), "sphinx": sphinx_text(project)}
    for field in FIELDS:
        word = zh(field)
        assert word != field, f"{field!r} has no Chinese in the catalog"
        for face, text in faces.items():
            assert word in text, f"{face} does not label {field!r} as {word!r}"
    for face, text in faces.items():
        for old in DROPPED:
            assert old not in text, f"{face} still says {old!r}"


def test_english_needs_no_catalog():
    code = ("from sphinx_llmstatus.cli import main\nfrom sphinx_llmstatus.render.labels import translations\n"
            "main(['LLM_TIMEOUT'])\nassert translations.cache_info().currsize == 0, 'catalog read for English'\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, timeout=60,
                          env={**os.environ, "LANG": "C.UTF-8", "LC_ALL": ""})
    assert proc.returncode == 0, proc.stderr.decode()


def test_cjk_width_comes_from_unicodedata():
    from sphinx_llmstatus.render.text import _width

    assert _width("是否可恢复") == 10 and _width("ＡＢ") == 4 and _width("ｱ") == 1 and _width("Name") == 4
    assert _width("\u3000") == 2 and _width("한국") == 4
