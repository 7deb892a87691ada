"""The built site in a real headless Chromium: tables that fit, role links, badges, search, Chinese.

Playwright for Python drives Debian's ``/usr/bin/chromium`` through
``executable_path`` (no browser download; ``.ci/run`` installs it with apt-get,
a test never does: without it the tests skip, saying so). Every test opens a fresh context
at 1280x900 and fails on a JavaScript error in the page. Screenshots go to
``tests/artifacts/`` (git-ignored) for a person to look at.
"""

from __future__ import annotations

import functools
import http.server
import json
import re
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from test_site import built_site

pytestmark = pytest.mark.browser

playwright_api = pytest.importorskip("playwright.sync_api", reason="playwright is in the 'test' extra")

CHROMIUM = "/usr/bin/chromium"
ARTIFACTS = Path(__file__).resolve().parent / "artifacts"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
VIEWPORT = {"width": 1280, "height": 900}
#: Pages whose code tables must show every column at 1280x900.
TABLE_PAGES = ["codes/index.html", "api-python.html", "api-cpp.html", "layout.html"]


def ensure_chromium() -> str:
    """Path of Debian's chromium; skip when it is not installed (``.ci/run`` installs it, tests never do)."""
    if not Path(CHROMIUM).exists():
        pytest.skip(f"{CHROMIUM} is not installed (apt-get install chromium fonts-wqy-microhei; .ci/run does)")
    return CHROMIUM


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args) -> None:
        pass


@pytest.fixture(scope="module")
def serve():
    """``serve(directory) -> base URL`` of a local HTTP server (loopback only)."""
    servers = []

    def start(site: Path) -> str:
        handler = functools.partial(_QuietHandler, directory=str(site))
        httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        threading.Thread(target=httpd.serve_forever, daemon=True).start()
        servers.append(httpd)
        return f"http://127.0.0.1:{httpd.server_address[1]}"

    yield start
    for httpd in servers:
        httpd.shutdown()
        httpd.server_close()


@pytest.fixture(scope="module")
def sites(tmp_path_factory, serve):
    """``{"en": url, "zh": url}``, each built on first use."""
    urls: dict[str, str] = {}

    def url(lang: str) -> str:
        if lang not in urls:
            urls[lang] = serve(built_site(tmp_path_factory, "zh_CN" if lang == "zh" else "en"))
        return urls[lang]

    return url


@pytest.fixture(scope="module")
def browser():
    exe = ensure_chromium()
    with playwright_api.sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=exe, args=ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def open_page(browser):
    """``open_page(url, color_scheme="light")`` -> a loaded page; JS errors fail the test."""
    contexts, errors = [], []

    def open_(url: str, color_scheme: str = "light", viewport: dict = VIEWPORT):
        context = browser.new_context(viewport=viewport, color_scheme=color_scheme)
        contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda exc: errors.append(f"{page.url}: {exc}"))
        page.on("console", lambda msg: _console_error(msg) and errors.append(f"{page.url}: {msg.text}"))
        page.goto(url, wait_until="load")
        return page

    yield open_
    for context in contexts:
        context.close()
    assert not errors, errors


def _console_error(msg) -> bool:
    # The browser asks every site for /favicon.ico; the site has none, which is no error of a page.
    # pydata-sphinx-theme reports an unset theme mode on a first visit, then uses "auto".
    return (msg.type == "error" and not msg.location.get("url", "").endswith("/favicon.ico")
            and "Got invalid theme mode" not in msg.text)


def screenshot(page, name: str, full_page: bool = False) -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=full_page)
    return path


def _slug(page: str) -> str:
    return page.replace("/", "-").removesuffix(".html")


# -- tables -------------------------------------------------------------------------------------

#: Header cells whose right edge is outside the viewport or outside a box that clips it.
CLIPPED_HEADERS = """() => {
  const out = [];
  for (const table of document.querySelectorAll('article table')) {
    for (const th of table.querySelectorAll('thead th')) {
      const r = th.getBoundingClientRect();
      let right = document.documentElement.clientWidth;
      for (let el = th.parentElement; el; el = el.parentElement) {
        const s = getComputedStyle(el);
        if (s.overflowX !== 'visible') right = Math.min(right, el.getBoundingClientRect().right);
      }
      if (r.right > right + 0.5 || r.width < 1)
        out.push({text: th.innerText, right: Math.round(r.right), limit: Math.round(right)});
    }
  }
  return out;
}"""

TABLE_SHAPE = """() => [...document.querySelectorAll('article table.llmstatus-table')].map(t => ({
  headers: [...t.querySelectorAll('thead th')].map(th => th.innerText.trim()),
  rows: t.querySelectorAll('tbody tr').length,
  wrappedBadges: [...t.querySelectorAll('.llmstatus-badge')].filter(b => b.getClientRects().length > 1).length,
  brokenNames: [...t.querySelectorAll('code.llmstatus-code, code.llmstatus-name')]
    .filter(c => c.getClientRects().length > 1).map(c => c.innerText),
  leadingComma: [...t.querySelectorAll('td')].filter(td => /^\\s*,/.test(td.innerText)).length,
}))"""


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("page_name", TABLE_PAGES)
def test_every_table_column_is_visible_at_1280(sites, open_page, lang, page_name):
    page = open_page(f"{sites(lang)}/{page_name}")
    assert page.locator("article table").count(), page_name
    clipped = page.evaluate(CLIPPED_HEADERS)
    screenshot(page, f"table-{lang}-{_slug(page_name)}")
    assert not clipped, clipped
    for table in page.evaluate(TABLE_SHAPE):
        assert table["rows"] and table["headers"], table
        assert not table["wrappedBadges"], table
        assert not table["brokenNames"], table
        assert not table["leadingComma"], table


def test_codes_index_table_reads_at_a_glance(sites, open_page):
    page = open_page(f"{sites('en')}/codes/index.html")
    shape = page.evaluate(TABLE_SHAPE)[0]
    from sphinx_llmstatus.registry import default_registry

    assert shape["rows"] == len(default_registry().in_family("llm_datadist"))
    # A row is a few lines, not a column of broken words: the table fits two screens or so.
    height = page.evaluate("document.querySelector('article table.llmstatus-table').getBoundingClientRect().height")
    assert height < 3 * shape["rows"] * 40, height
    screenshot(page, "codes-index-full", full_page=True)


def test_narrow_screen_scrolls_the_table_not_the_page(sites, open_page):
    page = open_page(f"{sites('en')}/codes/index.html", viewport={"width": 400, "height": 800})
    widths = page.evaluate("() => ({page: document.documentElement.scrollWidth, view: innerWidth})")
    assert widths["page"] <= widths["view"] + 1, widths
    screenshot(page, "codes-index-narrow")


def test_sidebar_names_do_not_break_mid_word(sites, open_page):
    page = open_page(f"{sites('en')}/codes/LLM_KV_CACHE_NOT_EXIST.html")
    broken = page.evaluate("""() => [...document.querySelectorAll('.sidebar-tree a')]
      .filter(a => /^LLM_/.test(a.innerText))
      .filter(a => {
        // every line break inside a name must come right after an underscore
        const walk = document.createTreeWalker(a, NodeFilter.SHOW_TEXT), range = document.createRange();
        let prevTop = null, prevChar = '', bad = false;
        for (let text = walk.nextNode(); text; text = walk.nextNode()) {
          for (let i = 0; i < text.length; i++) {
            range.setStart(text, i); range.setEnd(text, i + 1);
            const top = range.getBoundingClientRect().top;
            if (prevTop !== null && top > prevTop + 2 && prevChar !== '_') bad = true;
            prevTop = top; prevChar = text.data[i];
          }
        }
        return bad;
      }).map(a => a.innerText)""")
    screenshot(page, "sidebar-en")
    assert not broken, broken


# -- links, badges, colours ------------------------------------------------------------------------

ENTRY_BOX = """(id) => {
  const el = document.getElementById(id);
  if (!el) return null;
  const r = el.getBoundingClientRect(), s = getComputedStyle(el);
  return {top: r.top, height: r.height, vh: innerHeight, shown: s.visibility === 'visible' && s.display !== 'none'};
}"""


@pytest.mark.parametrize(("page_name", "code"), [
    ("index.html", "LLM_LINK_FAILED"),
    ("api-python.html", "LLM_TIMEOUT"),
    ("python-vs-cpp.html", "LLM_WAIT_PROC_TIMEOUT"),
    ("codes/LLM_LINK_FAILED.html", "LLM_NOT_YET_LINK"),
])
def test_role_link_lands_on_the_entry(sites, open_page, page_name, code):
    base = sites("en")
    page = open_page(f"{base}/{page_name}")
    link = page.locator(f"article a.reference.internal[href$='{code}.html#{code}']").first
    link.scroll_into_view_if_needed()
    link.click()
    page.wait_for_url(f"{base}/codes/{code}.html#{code}")
    page.wait_for_load_state("load")
    page.wait_for_function(f"() => Math.abs(document.getElementById('{code}').getBoundingClientRect().top) < innerHeight / 2")
    box = page.evaluate(ENTRY_BOX, code)
    assert box and box["shown"] and box["height"] > 0, box
    assert 0 <= box["top"] < box["vh"] / 2, f"{code} entry is not at the top of the viewport: {box}"
    screenshot(page, f"role-link-{code}")


def test_titled_role_link_reads_as_text(sites, open_page):
    # {llm-status}`LLMStatusCode.LLM_LINK_FAILED <LLM_LINK_FAILED>` and `-1 <LLM_UNKNOWN_ERROR>` on the index
    page = open_page(f"{sites('en')}/index.html")
    fonts = page.evaluate("""() => [...document.querySelectorAll('article a.reference.internal')]
      .filter(a => a.innerText.trim() === '-1').map(a => getComputedStyle(a.querySelector('*') || a).fontFamily)""")
    assert fonts and not any("mono" in f.lower() for f in fonts), fonts


BADGES_AND_TABLES = """() => {
  const rgb = c => (c.match(/[\\d.]+/g) || []).slice(0, 4).map(Number);
  const visible = el => { const r = el.getBoundingClientRect(), s = getComputedStyle(el);
    return r.width > 0 && r.height > 0 && s.visibility === 'visible' && s.display !== 'none'
      && parseFloat(s.opacity) > 0.5; };
  return {
    background: rgb(getComputedStyle(document.body).backgroundColor),
    badges: [...document.querySelectorAll('article .llmstatus-badge')].map(b => ({
      text: b.textContent, visible: visible(b), color: rgb(getComputedStyle(b).color)})),
    tables: [...document.querySelectorAll('article table')].map(t => ({
      visible: visible(t), cells: t.querySelectorAll('td').length,
      color: rgb(getComputedStyle(t.querySelector('td') || t).color)})),
  };
}"""


def _luminance(rgb: list[float]) -> float:
    def channel(c: float) -> float:
        c /= 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (channel(c) for c in rgb[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def _contrast(a: list[float], b: list[float]) -> float:
    hi, lo = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


@pytest.mark.parametrize("mode", ["light", "dark", "dark-toggle"])
@pytest.mark.parametrize(("lang", "page_name"), [
    ("en", "codes/LLM_TIMEOUT.html"), ("en", "api-cpp.html"), ("en", "python-vs-cpp.html"),
    ("zh", "codes/LLM_TIMEOUT.html"), ("zh", "api-cpp.html"),
])
def test_badges_and_tables_are_visible(sites, open_page, mode, lang, page_name):
    # light/dark: the OS preference with furo's default "auto"; dark-toggle: the reader picked dark.
    base = sites(lang)
    page = open_page(f"{base}/index.html", color_scheme="dark" if mode == "dark" else "light")
    page.evaluate(f"localStorage.setItem('theme', {json.dumps('dark' if mode == 'dark-toggle' else 'auto')})")
    page.goto(f"{base}/{page_name}", wait_until="load")
    state = page.evaluate(BADGES_AND_TABLES)
    dark = mode != "light"
    assert (_luminance(state["background"]) < 0.2) == dark, (mode, state["background"])
    assert state["badges"] and all(b["visible"] for b in state["badges"]), state["badges"]
    for badge in state["badges"]:
        assert _contrast(badge["color"], state["background"]) >= 3, (mode, badge, state["background"])
    assert state["tables"] and all(t["visible"] and t["cells"] for t in state["tables"]), state["tables"]
    for table in state["tables"]:
        assert _contrast(table["color"], state["background"]) >= 4.5, (mode, table)
    page.locator("article .llmstatus-badge").first.scroll_into_view_if_needed()
    screenshot(page, f"badges-{lang}-{_slug(page_name)}-{mode}")


# -- search --------------------------------------------------------------------------------------

SEARCH_RESULTS = """() => {
  // searchtools.js fills the summary after the last result.
  const summary = document.querySelector('#search-results .search-summary');
  if (!summary || !summary.innerText.trim() || document.querySelector('#search-results h2') === null) return null;
  const items = [...document.querySelectorAll('#search-results ul.search li a')];
  return items.map(a => a.getAttribute('href'));
}"""


def search(open_page, base: str, query: str):
    page = open_page(f"{base}/search.html?q={query}")
    handle = page.wait_for_function(SEARCH_RESULTS, timeout=15000)
    return page, handle.json_value()


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("query", ["1343270921", "0x5010b009", "0x5010B009", "5010B009", "5010b009",
                                   "LLM_LINK_FAILED", "llm_link_failed"])
def test_search_lists_the_code_page_first(sites, open_page, lang, query):
    page, hrefs = search(open_page, sites(lang), query)
    assert hrefs, (lang, query)
    assert hrefs[0].split("?")[0].split("#")[0].endswith("codes/LLM_LINK_FAILED.html"), (lang, query, hrefs[:5])
    if query in ("1343270921", "0x5010b009"):
        screenshot(page, f"search-{lang}-{query}")


def test_search_ranks_other_codes_first_too(sites, open_page):
    from sphinx_llmstatus.registry import default_registry

    base = sites("en")
    for name in ("LLM_TIMEOUT", "LLM_KV_CACHE_NOT_EXIST"):
        code = default_registry()[name]
        for query in (name, str(code.value), code.hex.lower()):
            _page, hrefs = search(open_page, base, query)
            assert hrefs and hrefs[0].split("#")[0].endswith(f"codes/{name}.html"), (query, hrefs[:3])


# -- Chinese -------------------------------------------------------------------------------------

#: Words that stay Latin on the Chinese site: code and API names, product and tool names.
LATIN_OK = re.compile(
    r"LLM_[A-Z_]+|LLMStatusCode|llm-status|LLMException|LLMDataDist|llm_datadist|LLM DataDist|DataDist|CANN|"
    r"Python|C\+\+|Sphinx|MyST|IPython|Jupyter|(?i:sphinx-llmstatus)|%*llmstatus|reStructuredText|"
    r"uint32|Status|0x[0-9A-Fa-f]+|[0-9A-Fa-f]{8}|GE|HIXL|ADXL|ACL|API|"
    r"[a-z_]+\.[a-z_.]+|[a-z]+_[a-z_]+|[A-Z][a-z]+[A-Z][A-Za-z]+")


def _latin_left(text: str) -> list[str]:
    return re.findall(r"[A-Za-z]{3,}", LATIN_OK.sub(" ", text))


def test_chinese_index_and_sidebar_are_chinese(sites, open_page):
    page = open_page(f"{sites('zh')}/index.html")
    assert page.locator("html").get_attribute("lang") == "zh-CN"
    article = page.inner_text("article")
    sidebar = page.inner_text(".sidebar-drawer")
    screenshot(page, "zh-index")
    assert len(re.findall(r"[\u4e00-\u9fff]", article)) > 200, article[:200]
    assert not _latin_left(article), _latin_left(article)
    assert not _latin_left(sidebar), _latin_left(sidebar)


def test_chinese_code_page_is_chinese(sites, open_page):
    from sphinx_llmstatus.registry import default_registry

    code = default_registry()["LLM_TIMEOUT"]
    page = open_page(f"{sites('zh')}/codes/LLM_TIMEOUT.html")
    text = page.inner_text("article")
    assert code.python.meaning.zh in text and code.cpp.remedy.zh.split("`")[0] in text
    badges = page.evaluate(BADGES_AND_TABLES)["badges"]
    assert badges and all(b["visible"] and "recoverable" not in b["text"] for b in badges), badges
    for english in ("How it looks in logs", "Names:", "Numbers:", "Link to this entry"):
        assert english not in text, english
    page.locator("[id='LLM_TIMEOUT']").scroll_into_view_if_needed()
    screenshot(page, "zh-LLM_TIMEOUT")


def test_chinese_search_finds_chinese_words(sites, open_page):
    # The search runs at all (no "ChineseStemmer is not defined"), and for a Chinese word too.
    _page, hrefs = search(open_page, sites("zh"), "超时")
    assert any("codes/LLM_TIMEOUT.html" in h for h in hrefs), hrefs[:10]


# -- other themes ----------------------------------------------------------------------------------

THEME_PAGE = """\
Codes
=====

.. llm-status-table::
   :columns: name, python, cpp, hex, decimal, recoverable, meaning

.. llm-status-table::
   :api: cpp
   :columns: name, cpp, hex, decimal, recoverable, meaning, remedy
"""


@pytest.fixture(scope="module")
def theme_site(tmp_path_factory, serve):
    """``theme_site(theme) -> URL`` of a one-page project with the code tables under ``theme``."""
    def build(theme: str) -> str:
        src = tmp_path_factory.mktemp(f"theme-{theme}")
        (src / "conf.py").write_text(f'extensions = ["sphinx_llmstatus"]\nhtml_theme = "{theme}"\n'
                                     'project = "themes"\n', encoding="utf-8")
        (src / "index.rst").write_text(THEME_PAGE, encoding="utf-8")
        out = src / "_build"
        result = subprocess.run([sys.executable, "-m", "sphinx", "-W", "-q", "-b", "html", str(src), str(out)],
                                capture_output=True, text=True)
        assert result.returncode == 0, result.stderr
        return serve(out)
    return build


@pytest.mark.parametrize("theme", ["alabaster", "pydata_sphinx_theme", "furo"])
def test_code_tables_fit_other_themes(theme_site, open_page, theme):
    if theme != "alabaster":
        pytest.importorskip(theme)
    page = open_page(f"{theme_site(theme)}/index.html")
    clipped = page.evaluate(CLIPPED_HEADERS.replace("article table", "table.llmstatus-table"))
    screenshot(page, f"theme-{theme}")
    assert not clipped, (theme, clipped)
    for table in page.evaluate(TABLE_SHAPE.replace("article table", "table")):
        assert not table["wrappedBadges"] and not table["brokenNames"], (theme, table)


# -- Chinese words typed without spaces ---------------------------------------------------------

TOP_PAGES = """([queries, limit]) => queries.map((q) => {
  // What the search page lists first: _performSearch returns the results last-first.
  const results = Search._performSearch(...Search._parseQuery(q)).reverse();
  return [...new Set(results.map((r) => r[0]))].slice(0, limit);
})"""


def top_pages(open_page, base: str, queries: list[str], limit: int = 3) -> list[list[str]]:
    page = open_page(f"{base}/search.html")
    page.wait_for_function("() => Search._index !== null", timeout=15000)
    return page.evaluate(TOP_PAGES, [queries, limit])


def test_chinese_meaning_typed_without_spaces_lists_its_code_first(sites, open_page):
    from sphinx_llmstatus.registry import default_registry
    from sphinx_llmstatus.registry.model import LLM_DATADIST
    from sphinx_llmstatus.view.code import headline

    codes = list(default_registry().in_family(LLM_DATADIST))
    queries = [headline((c.python or c.cpp).meaning.zh) for c in codes]
    tops = top_pages(open_page, sites("zh"), queries)
    missed = [(c.name, q, top) for c, q, top in zip(codes, queries, tops) if f"codes/{c.name}" not in top]
    assert len(missed) <= 3, missed  # issue 24: at least 30 of the 33 in the top 3
    print(f"{len(codes) - len(missed)} of {len(codes)} in the top 3; missed: {missed}")
    first = top_pages(open_page, sites("zh"), ["建链失败", "建链"])
    # `建链` alone: the codes whose meaning is about as short tie (HIXL's `已经建链`), LLM DataDist's among them.
    assert first[0][0] == "codes/LLM_LINK_FAILED" and "codes/LLM_LINK_FAILED" in first[1], first


def test_chinese_remedy_words_find_pages(sites, open_page):
    # Words of a remedy found apart on the page (`调大超时时间后重试`): LLM_TIMEOUT's page is listed.
    [pages] = top_pages(open_page, sites("zh"), ["超时重试"], limit=100)
    assert "codes/LLM_TIMEOUT" in pages, pages


# -- titles on a phone ---------------------------------------------------------------------------

#: Texts of the page title and entry signatures that wrap other than after an underscore or space.
MID_WORD_BREAKS = """() => [...document.querySelectorAll('article h1, article dt.sig-object.llm .sig-name')]
  .filter((el) => {
    const walk = document.createTreeWalker(el, NodeFilter.SHOW_TEXT), range = document.createRange();
    let prevTop = null, prevChar = '', bad = false;
    for (let text = walk.nextNode(); text; text = walk.nextNode()) {
      for (let i = 0; i < text.length; i++) {
        range.setStart(text, i); range.setEnd(text, i + 1);
        const r = range.getBoundingClientRect();
        if (r.width === 0) continue;
        if (prevTop !== null && r.top > prevTop + 2 && prevChar !== '_' && prevChar !== ' ') bad = true;
        prevTop = r.top; prevChar = text.data[i];
      }
    }
    return bad;
  }).map((el) => el.innerText)"""


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("width", [390, 1280])
def test_code_page_titles_never_break_mid_word_nor_scroll_sideways(sites, open_page, lang, width):
    # Issue 24: on a phone the title read `LLM_LINK_FAIL` / `ED`.
    for name in ("LLM_LINK_FAILED", "LLM_NOTIFY_PROMPT_UNLINK_FAILED"):
        page = open_page(f"{sites(lang)}/codes/{name}.html", viewport={"width": width, "height": 844})
        assert not page.evaluate(MID_WORD_BREAKS), (lang, width, name)
        scroll = page.evaluate("() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]")
        assert scroll[0] <= scroll[1] + 1, (lang, width, name, scroll)
        if name == "LLM_NOTIFY_PROMPT_UNLINK_FAILED":
            screenshot(page, f"title-{lang}-{width}")


def test_entry_sections_fold_and_open_for_print(sites, open_page):
    # Issue 24: a default entry was ~7,100 px tall; its sections now fold, and printing opens them.
    page = open_page(f"{sites('en')}/codes/LLM_LINK_FAILED.html")
    folds = page.evaluate("() => [...document.querySelectorAll('details.llmstatus-fold')].map(d => d.open)")
    assert folds and not any(folds), folds
    height = page.evaluate("() => document.querySelector('dl.llm').getBoundingClientRect().height")
    assert height < 2500, height
    summaries = page.evaluate("() => [...document.querySelectorAll('details.llmstatus-fold > summary')]"
                              ".map(s => s.innerText.trim())")
    assert "causes and checks" in [s.lower() for s in summaries], summaries  # furo sets rubrics in capitals
    page.evaluate("() => window.dispatchEvent(new Event('beforeprint'))")
    assert all(page.evaluate("() => [...document.querySelectorAll('details.llmstatus-fold')].map(d => d.open)"))
    screenshot(page, "entry-folded")


def test_the_notebook_report_gives_the_log_line_room(browser):
    # Issue 24: in Jupyter the "Log line" column was ~20 characters wide and broke `ErrorNo` apart.
    from test_magic import LAYERS_LOG

    from sphinx_llmstatus.magic.results import ScanResult
    from sphinx_llmstatus.scan import scan_text

    result = ScanResult(list(scan_text(LAYERS_LOG)), "en", text=LAYERS_LOG)
    context = browser.new_context(viewport={"width": 1000, "height": 800})
    page = context.new_page()
    page.set_content(f"<html><body>{result.html()}</body></html>")
    cells = page.evaluate("""() => [...document.querySelectorAll('td code')].filter(c => c.innerText.includes('ErrorNo'))
      .map(c => {
        const text = c.firstChild, range = document.createRange(), at = text.data.indexOf('ErrorNo');
        range.setStart(text, at); range.setEnd(text, at + 'ErrorNo'.length);
        return {width: c.getBoundingClientRect().width, rects: range.getClientRects().length};
      })""")
    context.close()
    assert cells and all(c["width"] >= 300 and c["rects"] == 1 for c in cells), cells
