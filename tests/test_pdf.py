"""The site as a PDF (``make pdf``): latexmk + xelatex, code names whole, labels not crushed.

Builds docs/ with ``sphinx-build -M latexpdf`` like the Makefile and reads the
text back with poppler's ``pdftotext -layout`` (pypdf where poppler is missing). Skips, saying what is missing, when the TeX tools or
packages are not installed (``.ci/run`` installs them with apt-get).
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from sphinx_llmstatus.registry import default_registry

pytestmark = pytest.mark.pdf

DOCS = Path(__file__).resolve().parent.parent / "docs"
#: What `make pdf` needs: tools on PATH and LaTeX packages kpsewhich must find.
TOOLS = ("latexmk", "xelatex", "kpsewhich")
PACKAGES = ("xeCJK.sty", "fncychap.sty", "tabulary.sty", "capt-of.sty", "needspace.sty")


def _missing() -> str | None:
    tools = [t for t in TOOLS if shutil.which(t) is None]
    if tools:
        return f"TeX tools not installed: {', '.join(tools)} (see .ci/run)"
    found = subprocess.run(["kpsewhich", *PACKAGES], capture_output=True, text=True).stdout
    packages = [p for p in PACKAGES if p not in found]
    if packages:
        return f"LaTeX packages not installed: {', '.join(packages)} (see .ci/run)"
    if "Noto Sans CJK SC" not in subprocess.run(["fc-list"], capture_output=True, text=True).stdout:
        return "font Noto Sans CJK SC not installed (fonts-noto-cjk, see .ci/run)"
    return None


@pytest.fixture(scope="module")
def pdf(tmp_path_factory) -> tuple[str, str]:
    """``(text of the PDF, LaTeX log)`` of the English site."""
    reason = _missing()
    if reason:
        pytest.skip(reason)
    build = tmp_path_factory.mktemp("pdf")
    cmd = [sys.executable, "-m", "sphinx", "-M", "latexpdf", str(DOCS), str(build), "-W", "--keep-going", "-q",
           "-d", str(build / "doctrees")]
    result = subprocess.run(cmd, capture_output=True, text=True)
    log = next((build / "latex").glob("*.log"), None)
    assert result.returncode == 0, (result.stderr[-2000:], log.read_text(errors="replace")[-3000:] if log else "")
    return _text(build / "latex" / "sphinx-llmstatus.pdf"), log.read_text(encoding="utf-8", errors="replace")


def _text(pdf: Path) -> str:
    if shutil.which("pdftotext"):
        return subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True,
                              check=True).stdout
    from pypdf import PdfReader

    return "\n".join(page.extract_text() or "" for page in PdfReader(str(pdf)).pages)


def test_every_code_name_appears_whole(pdf):
    text, _log = pdf
    for code in default_registry():
        for name in {code.name, *(v.name for v in code.views)}:
            assert re.search(rf"(?<![A-Z_]){name}(?![A-Z_])", text), name


def test_no_code_name_is_cut_in_a_table(pdf):
    text, _log = pdf
    names = {v.name for code in default_registry() for v in code.views}
    # a name broken across lines leaves a prefix of it at a line end ("LLM_REPEAT_REQUES")
    for line in text.splitlines():
        last = line.rstrip().rsplit(" ", 1)[-1]
        if last.startswith("LLM_") and last not in names and not last.endswith("_"):
            assert not any(n.startswith(last) for n in names), line


def test_entry_labels_are_not_crushed(pdf):
    text, _log = pdf
    for label in ("Recoverable", "Remedy", "Source", "Name"):  # an entry's label column, whole
        assert re.search(rf"(?m)^\s*{label}\s", text), label
    for cut in ("Re-\n", "cov-er", "Nam\n"):
        assert cut not in text, cut


def test_overfull_boxes_are_few(pdf):
    _text, log = pdf
    # 126 before the column specs (issue #12); what is left is mostly long file paths in source titles.
    overfull = log.count("Overfull \\hbox")
    assert overfull < 60, overfull


def test_cells_never_overlap(pdf):
    text, _log = pdf
    # a name too wide for its cell runs into the next one: `LLM_SEQ_LENOVERLIMITLLM_SEQ_LEN_OVER_LIMIT`
    assert not re.search(r"[A-Za-z0-9]LLM_[A-Z]", text), re.search(r".*[A-Za-z0-9]LLM_[A-Z].*", text)[0]


@pytest.mark.parametrize("name", ["LinkLlmClusters", "UnlinkLlmClusters", "PullKvBlocks", "LLM_SEQ_LENOVERLIMIT"])
def test_code_is_never_hyphenated(pdf, name):
    text, _log = pdf
    assert name in text
    for cut in range(2, len(name) - 1):
        assert not re.search(rf"{name[:cut]}-\n\s*{name[cut:]}", text), f"{name[:cut]}-/{name[cut:]}"
