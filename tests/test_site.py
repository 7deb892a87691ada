"""The troubleshooting site in docs/ builds with warnings as errors, covers every code, has no broken link."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest
from bs4 import BeautifulSoup

from sphinx_llmstatus.registry import default_registry

DOCS = Path(__file__).resolve().parent.parent / "docs"


@pytest.fixture(scope="session")
def site(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("site") / "html"
    cmd = [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "html",
           str(DOCS), str(out), "-d", str(out.parent / "doctrees")]
    result = subprocess.run(cmd, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    return out


def test_every_code_has_its_page(site):
    for code in default_registry():
        page = site / "codes" / f"{code.name}.html"
        soup = BeautifulSoup(page.read_text(encoding="utf-8"), "html.parser")
        assert soup.find(id=code.name), code.name


def test_both_api_pages_list_their_codes(site):
    py = (site / "api-python.html").read_text(encoding="utf-8")
    cpp = (site / "api-cpp.html").read_text(encoding="utf-8")
    for code in default_registry():
        if code.python:
            assert f"llm-row-{code.name}" in py, code.name
        if code.cpp:
            assert f"llm-row-{code.name}" in cpp, code.name


def test_no_broken_internal_link(site):
    ids: dict[Path, set[str]] = {}

    def ids_of(path: Path) -> set[str]:
        if path not in ids:
            soup = BeautifulSoup(path.read_text(encoding="utf-8"), "html.parser")
            ids[path] = {el["id"] for el in soup.find_all(id=True)}
        return ids[path]

    checked = 0
    for page in site.rglob("*.html"):
        soup = BeautifulSoup(page.read_text(encoding="utf-8"), "html.parser")
        for a in soup.find_all("a", href=True):
            parts = urlsplit(a["href"])
            if parts.scheme or parts.netloc or a["href"].startswith("mailto:"):
                continue
            target = (page.parent / unquote(parts.path)).resolve() if parts.path else page
            assert target.exists(), f"{page.relative_to(site)} -> {a['href']}"
            if parts.fragment and target.suffix == ".html":
                assert unquote(parts.fragment) in ids_of(target), f"{page.relative_to(site)} -> {a['href']}"
            checked += 1
    assert checked > 500
