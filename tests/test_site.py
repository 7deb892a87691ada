"""The troubleshooting site in docs/: builds with -W, covers every code, finds codes by any number form.

One build per language for the whole session (:func:`built_site`, also used by
test_browser.py), run as a real ``python -m sphinx`` subprocess like ``make site``.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest
from bs4 import BeautifulSoup

from sphinx_llmstatus.registry import default_registry
from sphinx_llmstatus.scan import scan_text

DOCS = Path(__file__).resolve().parent.parent / "docs"
sys.path.insert(0, str(DOCS / "_ext"))

from code_pages import log_examples  # noqa: E402  (docs/_ext, the site's generator)

pytestmark = pytest.mark.slow

_BUILDS: dict[str, Path] = {}


def built_site(tmp_path_factory, language: str = "en") -> Path:
    """HTML of docs/ built once per session and language with warnings as errors."""
    if language not in _BUILDS:
        out = tmp_path_factory.mktemp(f"site-{language}") / "html"
        cmd = [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "html",
               "-D", f"language={language}", str(DOCS), str(out), "-d", str(out.parent / "doctrees")]
        result = subprocess.run(cmd, capture_output=True, text=True)
        assert result.returncode == 0, result.stderr
        _BUILDS[language] = out
    return _BUILDS[language]


@pytest.fixture(scope="session")
def site(tmp_path_factory) -> Path:
    return built_site(tmp_path_factory)


def soup_of(path: Path) -> BeautifulSoup:
    return BeautifulSoup(path.read_text(encoding="utf-8"), "html.parser")


def search_index(site: Path) -> dict:
    text = (site / "searchindex.js").read_text(encoding="utf-8")
    assert text.startswith("Search.setIndex(") and text.rstrip().endswith(")")
    return json.loads(text[len("Search.setIndex("):text.rstrip().rindex(")")])


def js_search(index: dict, query: str) -> set[tuple[str, str]]:
    """``(docname, anchor)`` results of Sphinx 9's searchtools.js for a one-word query.

    Mirrors ``Search._parseQuery`` / ``_performSearch``: all-digit words are
    never full-text terms; index entries match by substring when the query is at
    least half the entry; objects match by substring of their name; terms are
    looked up lower-cased (our number forms are not changed by the stemmer).
    """
    q = query.lower().strip()
    docs = index["docnames"]
    hits: set[tuple[str, str]] = set()
    for entry, found in index["indexentries"].items():
        if q in entry and len(q) >= len(entry) / 2:
            hits |= {(docs[f], anchor) for f, anchor, _main in found}
    for prefix, objects in index["objects"].items():
        for doc, _type, _prio, anchor, name in objects:
            if q in (f"{prefix}.{name}" if prefix else name).lower():
                hits.add((docs[doc], anchor or name))
    if not re.fullmatch(r"\d+", q):
        for mapping in (index["terms"], index["titleterms"]):
            found = mapping.get(q, [])
            hits |= {(docs[f], "") for f in ([found] if isinstance(found, int) else found)}
    return hits


def test_every_code_has_its_page(site):
    for code in default_registry():
        page = site / "codes" / f"{code.name}.html"
        soup = soup_of(page)
        entry = soup.find(id=code.name)
        assert entry is not None and entry.name == "dt", code.name
        text = soup.find("article").get_text(" ")
        for form in code.number_forms:
            assert form in text, (code.name, form)
        for view in code.views:
            assert view.name in text, (code.name, view.name)
        badges = soup.select("table.llmstatus-entry-table .llmstatus-badge")
        assert len(badges) == len(code.views), code.name
        assert soup.select_one("table.llmstatus-entry-table a.reference.external[href^='https://']"), code.name


def test_log_examples_are_found_by_the_scanner_and_shown(site):
    registry = default_registry()
    for code in registry.in_family("llm_datadist"):  # another layer's page shows no LLM DataDist log lines
        examples = log_examples(code)
        assert examples, code.name
        shown = {pre.get_text().strip() for pre in soup_of(site / "codes" / f"{code.name}.html").select("article pre")}
        for _where, line in examples:
            found = {hit.code.name for hit in scan_text(line, include_success=True) if hit.code}
            expected = "LLM_FAILED" if code.python is None and "LLMStatusCode.LLM_FAILED" in line else code.name
            assert expected in found, (code.name, line, found)
            assert line in shown, (code.name, line)


def test_every_number_form_is_in_the_search_index(site):
    index = search_index(site)
    registry = default_registry()
    # LLM DataDist's codes, and a code of each neighbouring layer whose number a log shows.
    for code in [*registry.in_family("llm_datadist"), registry["HIXL_PARAM_INVALID"],
                 registry["ACL_ERROR_RT_STREAM_SYNC_TIMEOUT"]]:
        forms = [code.name, *(s for s in code.spellings)]
        if code.value is not None and code.value >= 0:
            forms += [str(code.value), code.hex, code.hex[2:].lower()]
        for form in forms:
            hits = js_search(index, form)
            assert (f"codes/{code.name}", code.name) in hits, (code.name, form, sorted(hits)[:5])
    assert "1343270921" in index["indexentries"]  # what the browser test types
    assert "1343270921" not in index["terms"]  # Sphinx drops all-digit words: the reason for the entries


def test_search_index_keeps_the_numbers_on_a_no_change_rebuild(site):
    # Sphinx drops index entries of pages it does not rewrite (sphinx-doc/sphinx#12599);
    # docs/_ext/site_pages.py re-reads the code pages so `make site` twice still finds 1343270921.
    cmd = [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "html", str(DOCS), str(site),
           "-d", str(site.parent / "doctrees")]
    result = subprocess.run(cmd, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    index = search_index(site)
    assert ("codes/LLM_LINK_FAILED", "LLM_LINK_FAILED") in js_search(index, "1343270921")


def test_both_api_pages_list_their_codes(site):
    py = (site / "api-python.html").read_text(encoding="utf-8")
    cpp = (site / "api-cpp.html").read_text(encoding="utf-8")
    for code in default_registry().in_family("llm_datadist"):
        if code.python:
            assert f"llm-row-{code.name}" in py, code.name
        if code.cpp:
            assert f"llm-row-{code.name}" in cpp, code.name


def _section_text(soup: BeautifulSoup, heading_id: str) -> str:
    section = soup.find("section", id=heading_id)
    assert section is not None, heading_id
    return section.get_text(" ")


def test_python_vs_cpp_page_shows_every_difference(site):
    soup = soup_of(site / "python-vs-cpp.html")
    codes = list(default_registry().in_family("llm_datadist"))
    names = _section_text(soup, "names-that-differ")
    recov = _section_text(soup, "recoverable-on-one-page-not-on-the-other")
    remedy = _section_text(soup, "remedies-that-name-different-functions-or-options")
    one_api = _section_text(soup, "codes-one-api-does-not-have")
    pages = _section_text(soup, "codes-on-one-vendor-page-only-or-on-neither")
    for code in codes:
        if code.python and code.cpp and code.python.name != code.cpp.name:
            assert code.python.name in names and code.cpp.name in names
        if "recoverable" in code.disagreements:  # only where both pages have a row (issue #9)
            assert code.name in recov
        if "remedy" in code.disagreements:
            for api_name in code.python.functions + code.python.options + code.cpp.functions + code.cpp.options:
                assert api_name in remedy, (code.name, api_name)
        if bool(code.python) != bool(code.cpp):
            assert code.name in one_api
        if len(code.documented_by) < 2:
            assert code.name in pages
    for word in ("LLM_WAIT_PROCESS_TIMEOUT", "LLM_TIMEOUT", "enable_switch_role", "OPTION_ENABLE_SET_ROLE",
                 "LLM_UNKNOWN_ERROR", "LLM_CACHE_INCOMPATIBLE", "LLM_ENGINE_FINALIZED"):
        assert word in soup.get_text(), word


def test_layout_page_table_covers_every_code(site):
    soup = soup_of(site / "layout.html")
    rows = {tr.find("td").get_text(strip=True): [td.get_text(strip=True) for td in tr.find_all("td")]
            for tr in soup.select("section#every-code-with-the-layout tbody tr")}
    others = soup.select_one("section#codes-without-the-layout").get_text(" ")
    intro = " ".join(soup.select_one("section#every-code-with-the-layout p").get_text(" ").split())
    for field, value in (("runtime", 1), ("type", 1), ("level", 0), ("sysid", 8), ("modid", 11)):
        assert f"{field} = {value}" in intro, intro
    for code in default_registry().in_family("llm_datadist"):
        if code.is_llm_layout:
            assert rows[code.name][1:] == [code.hex, str(code.value), str(code.value - 0x5010B000)], code.name
        else:
            assert code.name in others, code.name


def _llmstatus(*args: str, cwd: Path) -> str:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("LC_", "LANG"))}
    env.update(LANG="C.UTF-8", NO_COLOR="1", COLUMNS="100")
    proc = subprocess.run([sys.executable, "-m", "sphinx_llmstatus", *args], cwd=cwd, env=env,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    return proc.stdout


def test_cli_page_shows_what_the_command_prints_now(site):
    text = soup_of(site / "cli.html").find("article").get_text()
    for args in (("LLM_LINK_FAILED",), ("scan", "decode.log"), ("0x50100001",)):
        out = _llmstatus(*args, cwd=DOCS / "examples")
        assert "$ llmstatus " + " ".join(args) + "\n" + out.rstrip() in text, args


def test_notebook_page_has_the_kernel_outputs(site):
    soup = soup_of(site / "notebook.html")
    cards = soup.select("article div.llmstatus-card")
    assert cards and "LLM_LINK_FAILED" in cards[0].get_text()
    text = soup.find("article").get_text()
    for name in ("LLM_KV_CACHE_NOT_EXIST", "LLM_TIMEOUT", "%%llmstatus", "%llmstatus --search"):
        assert name in text, name
    executed = json.loads((DOCS / "_generated" / "notebook" / "executed.ipynb").read_text(encoding="utf-8"))
    code_cells = [c for c in executed["cells"] if c["cell_type"] == "code"]
    assert all(c["execution_count"] for c in code_cells)
    assert not [o for c in code_cells for o in c["outputs"] if o["output_type"] == "error"]


def test_no_broken_internal_link(site):
    ids: dict[Path, set[str]] = {}

    def ids_of(path: Path) -> set[str]:
        if path not in ids:
            ids[path] = {el["id"] for el in soup_of(path).find_all(id=True)}
        return ids[path]

    checked = 0
    for page in site.rglob("*.html"):
        for a in soup_of(page).find_all("a", href=True):
            parts = urlsplit(a["href"])
            if parts.scheme or parts.netloc or a["href"].startswith("mailto:"):
                continue
            target = (page.parent / unquote(parts.path)).resolve() if parts.path else page
            assert target.exists(), f"{page.relative_to(site)} -> {a['href']}"
            if parts.fragment and target.suffix == ".html":
                assert unquote(parts.fragment) in ids_of(target), f"{page.relative_to(site)} -> {a['href']}"
            checked += 1
    assert checked > 500


def test_chinese_build_renders_chinese_registry_text(tmp_path_factory):
    site = built_site(tmp_path_factory, "zh_CN")
    soup = soup_of(site / "codes" / "LLM_LINK_FAILED.html")
    assert soup.find("html")["lang"] == "zh-CN"
    code = default_registry()["LLM_LINK_FAILED"]
    text = soup.find("article").get_text(" ")
    assert code.python.meaning.zh in text and code.python.remedy.zh.split("`")[0] in text
    assert "可恢复" in soup_of(site / "cli.html").get_text()  # the CLI captured under a Chinese locale
    assert "1343270921" in search_index(site)["indexentries"]


#: Words a reader types from a log or a config when a cause is what they know (issue #12).
CAUSE_QUERIES = ["sync_kv_timeout", "ranktable", "rank table", "device_ip", "mbuf", "hccn_tool",
                 "errno 111", "Connection refused"]


def full_text_docs(index: dict, query: str) -> set[str]:
    """Pages the search page lists for ``query`` through its full-text terms (all words, AND).

    Like searchtools.js: lower-cased, all-digit words skipped, each word stemmed
    with the project's stemmer (English here) and looked up in terms and title terms.
    """
    from sphinx.search.en import SearchEnglish

    stem = SearchEnglish({}).stem
    found: set[str] | None = None
    for word in re.findall(r"\w+", query.lower()):
        if word.isdigit():
            continue
        docs: set[int] = set()
        for mapping in (index["terms"], index["titleterms"]):
            hit = mapping.get(stem(word), [])
            docs |= {hit} if isinstance(hit, int) else set(hit)
        found = docs if found is None else found & docs
    return {index["docnames"][d] for d in found or ()}


def _cause_texts(code) -> list[str]:
    texts = []
    for view in code.views:
        for cause in getattr(view, "causes", ()):
            texts += [cause.when.en, cause.check.en, cause.fix.en, *getattr(cause, "terms", ())]
    for setting in getattr(code, "settings", ()):
        texts += [setting.about.en, setting.name]
    return texts


@pytest.mark.parametrize("query", CAUSE_QUERIES)
def test_search_finds_codes_by_their_causes(site, query):
    # Runs for real once the registry's causes (issue #9) mention the words and the
    # llm-status directive renders causes (issue #11); until then it says which is missing.
    registry = default_registry()
    words = [w for w in re.findall(r"\w+", query.lower()) if not w.isdigit()]
    owners = [c for c in registry if all(w in " ".join(_cause_texts(c)).lower() for w in words)]
    if not owners:
        pytest.skip(f"no cause in the registry mentions {query!r} yet (issue #9)")
    shown = " ".join(soup_of(site / "codes" / f"{c.name}.html").get_text(" ") for c in owners)
    if not any(t.split("`")[0][:40] in shown for c in owners for t in _cause_texts(c)[:1]):
        pytest.skip("code pages do not render causes yet (the llm-status directive, issue #11)")
    pages = full_text_docs(search_index(site), query)
    assert {f"codes/{c.name}" for c in owners} & pages, (query, sorted(pages))


def test_the_site_publishes_the_catalog_valid_and_equal_to_the_registry(site):
    """catalog.json (against catalog.schema.json) and catalog.csv: what the registry gives now."""
    import csv

    import jsonschema

    from sphinx_llmstatus.view.catalog import CSV_COLUMNS, catalog

    data = json.loads((site / "catalog.json").read_text(encoding="utf-8"))
    schema = json.loads((site / "catalog.schema.json").read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    assert not list(jsonschema.Draft202012Validator(schema).iter_errors(data))
    assert data == json.loads(json.dumps(catalog()))
    codes = {c["name"]: c for c in data["codes"]}
    assert len(codes) == len(default_registry()) and {f["key"] for f in data["families"]} >= {"llm_datadist", "hixl"}
    link = codes["LLM_LINK_FAILED"]
    assert link["meaning"]["python"] == {"en": "Establishing the link failed.", "zh": "建链失败。"}
    assert link["causes"] and link["causes"][0]["sources"][0]["url"].startswith("https://")
    with open(site / "catalog.csv", encoding="utf-8", newline="") as fh:
        rows = list(csv.reader(fh))
    assert tuple(rows[0]) == CSV_COLUMNS and len(rows) == len(codes) + 1
    row = dict(zip(rows[0], next(r for r in rows if r[1] == "LLM_LINK_FAILED")))
    assert row["hex"] == "0x5010B009" and row["meaning_zh"] == "建链失败。" and row["action_immediate"] == "retry"


def test_the_site_publishes_llms_txt_and_a_markdown_copy_of_every_code_page(site):
    """For agents: llms.txt lists each code page's Markdown copy, which holds what the page shows."""
    listed = re.findall(r"^- \[([A-Z0-9_]+)\]\((codes/[A-Z0-9_]+\.md)\)", (site / "llms.txt").read_text(encoding="utf-8"),
                        re.MULTILINE)
    registry = default_registry()
    assert {name for name, _ in listed} == {code.name for code in registry}
    full = (site / "llms-full.txt").read_text(encoding="utf-8")
    for name, path in listed:
        copy = (site / path).read_text(encoding="utf-8")
        assert copy.startswith(f"# {name}\n") and copy in full
    link = (site / "codes" / "LLM_LINK_FAILED.md").read_text(encoding="utf-8")
    assert "Establishing the link failed." in link and "https://github.com/" in link  # causes with sources
    assert "](cli.html)" in (site / "llms.txt").read_text(encoding="utf-8")  # the other pages, linked
