"""The MkDocs plugin: real ``mkdocs build --strict`` of a Material site, and the same page in Sphinx/MyST."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from urllib.parse import urljoin, urlsplit

import pytest
from bs4 import BeautifulSoup

pytest.importorskip("mkdocs")
pytest.importorskip("material")

# One page written for both worlds (MyST syntax): a role in three forms, an entry on another page,
# a table with an option (a code in it and in no entry links to its row, as in Sphinx), and a code
# block that shows the markup without running it.
INDEX = """\
# Codes

See {llm-status}`0x5010B009` and {llm-status}`~1343270921`, or {llm-status}`the timeout <LLM_TIMEOUT>`;
{llm-status}`success <LLM_SUCCESS>` is in no table here.

```{llm-status-table}
:recoverable: no
```

```text
{llm-status}`LLM_FAILED` inside a code block stays as it is.
```
"""
LINK_PAGE = """\
# Link failures

```{llm-status} LLM_LINK_FAILED
```
"""
MKDOCS_YML = """\
site_name: Codes
theme:
  name: material
  language: {language}
  palette:
    - scheme: default
      toggle: {{icon: material/brightness-7, name: dark}}
    - scheme: slate
      toggle: {{icon: material/brightness-4, name: light}}
plugins:
  - search
  - autorefs
  - llmstatus
markdown_extensions:
  - tables
"""


def mkdocs_site(root: Path, pages: dict[str, str], language: str = "en") -> subprocess.CompletedProcess:
    (root / "mkdocs.yml").write_text(MKDOCS_YML.format(language=language), encoding="utf-8")
    for name, text in pages.items():
        path = root / "docs" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    return subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict"], cwd=root, capture_output=True,
                          text=True, timeout=300, env=env)


def soup(path: Path) -> BeautifulSoup:
    return BeautifulSoup(path.read_text(encoding="utf-8"), "html.parser")


def code_links(page: BeautifulSoup) -> dict[str, tuple[str, str]]:
    """Shown text -> (href, title) of each link around a code span in the article."""
    article = page.select_one("article") or page
    return {a.get_text(): (a["href"], a.get("title", "")) for a in article.select("a") if a.code is not None}


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("mkdocs")
    pages = {"index.md": INDEX + "\nAutorefs: [LLM_LINK_FAILED][].\n", "codes/link.md": LINK_PAGE}
    p = mkdocs_site(root, pages)
    assert p.returncode == 0, p.stderr
    return root / "site"


def test_roles_link_to_the_entry_or_the_vendor_page(built):
    links = code_links(soup(built / "index.html"))
    assert links["0x5010B009"] == ("codes/link/#LLM_LINK_FAILED", "LLM_LINK_FAILED: Establishing the link failed.")
    assert links["LLM_LINK_FAILED"][0] == "codes/link/#LLM_LINK_FAILED"
    assert links["the timeout"] == ("#llm-row-LLM_TIMEOUT", "LLM_TIMEOUT: The operation timed out.")
    href, title = links["success"]
    assert href.startswith("https://www.hiascend.com/") and title == "LLM_SUCCESS: The call succeeded."
    entry = soup(built / "codes" / "link" / "index.html")
    assert entry.find(id="LLM_LINK_FAILED") is not None and "Establishing the link failed." in entry.get_text()


def test_every_internal_code_link_resolves(built):
    for page in built.rglob("index.html"):
        for a in soup(page).select("article a[href*='#LLM_']"):
            target = urlsplit(urljoin(page.relative_to(built).as_posix(), a["href"]))
            if target.netloc:
                continue
            dest = built / target.path / "index.html" if not target.path.endswith(".html") else built / target.path
            assert soup(dest).find(id=target.fragment) is not None, (page, a["href"])


def test_table_autorefs_and_code_blocks(built):
    index = soup(built / "index.html")
    table = index.select_one("article table")
    assert table is not None and "LLM_FAILED" in table.get_text() and "LLM_SUCCESS" not in table.get_text()
    assert table.find(id="llm-row-LLM_TIMEOUT") is not None
    assert index.select_one("a.autorefs-internal")["href"] == "codes/link/#LLM_LINK_FAILED"
    block = index.select_one("article pre").get_text()
    assert "{llm-status}`LLM_FAILED`" in block


def test_an_unknown_code_fails_strict_naming_the_file(tmp_path):
    p = mkdocs_site(tmp_path, {"index.md": "# T\n\nSee {llm-status}`LLM_LINK_FAILD`.\n"})
    assert p.returncode != 0
    assert re.search(r"index\.md:3: unknown LLM status code 'LLM_LINK_FAILD' \(did you mean LLM_LINK_FAILED", p.stderr)


def test_chinese_theme_gives_chinese_text(tmp_path):
    p = mkdocs_site(tmp_path, {"index.md": INDEX, "codes/link.md": LINK_PAGE}, language="zh")
    assert p.returncode == 0, p.stderr
    assert code_links(soup(tmp_path / "site" / "index.html"))["0x5010B009"][1] == "LLM_LINK_FAILED: 建链失败。"
    assert "建链失败" in soup(tmp_path / "site" / "codes" / "link" / "index.html").get_text()


def test_the_same_markdown_builds_in_sphinx_with_the_same_links(tmp_path):
    pytest.importorskip("myst_parser")
    src = tmp_path / "src"
    (src / "codes").mkdir(parents=True)
    (src / "conf.py").write_text('extensions = ["myst_parser", "sphinx_llmstatus"]\n', encoding="utf-8")
    (src / "index.md").write_text(INDEX + "\n```{toctree}\ncodes/link\n```\n", encoding="utf-8")
    (src / "codes" / "link.md").write_text(LINK_PAGE, encoding="utf-8")
    p = subprocess.run([sys.executable, "-m", "sphinx", "-W", "-q", "-b", "html", str(src), str(tmp_path / "out")],
                       capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    links = code_links(soup(tmp_path / "out" / "index.html"))
    assert links["0x5010B009"][0] == "codes/link.html#LLM_LINK_FAILED"
    assert links["the timeout"][0] == "#llm-row-LLM_TIMEOUT"
    assert links["success"][0].startswith("https://www.hiascend.com/")


@pytest.mark.browser
def test_a_reader_follows_a_role_to_the_entry_in_chromium(built):
    chromium = shutil.which("chromium") or "/usr/bin/chromium"
    if not Path(chromium).exists():
        pytest.skip("Debian's chromium is not installed (.ci/run installs it)")
    playwright = pytest.importorskip("playwright.sync_api")
    import functools
    import http.server
    import threading

    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(built))
    handler.log_message = lambda *args: None  # type: ignore[assignment]
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    try:
        with playwright.sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
            page = browser.new_page()
            page.goto(f"http://127.0.0.1:{httpd.server_address[1]}/")
            page.get_by_role("link", name="0x5010B009").first.click()
            page.wait_for_url("**/codes/link/#LLM_LINK_FAILED")
            assert page.locator("#LLM_LINK_FAILED").count() == 1
            assert "Establishing the link failed." in page.locator("article").inner_text()
            browser.close()
    finally:
        httpd.shutdown()
        httpd.server_close()
