"""Every builder renders our nodes: no unknown-node errors, no warnings, readable output.

One fixture project (reST and MyST pages: an entry, a table, roles with and
without titles, a vendor-page fallback link, an API link) is built with each
builder. Tables must stay tables, and print formats must name link targets.
"""

from __future__ import annotations

import json
import re

import pytest
from bs4 import BeautifulSoup

VENDOR = "https://www.hiascend.com/document/detail/zh/canncommercial/latest/others/llmdatadistdev/"
API_URL = "https://example.org/api/link_clusters"

FILES = {
    "conf.py": f"""\
        extensions = ["myst_parser", "sphinx_llmstatus"]
        myst_enable_extensions = ["colon_fence"]
        project = "builders"
        version = release = "1.0"
        copyright = "2026, tests"
        llmstatus_api_links = {{"link_clusters": "{API_URL}"}}
        """,
    "index.rst": """\
        Builders
        ========

        .. toctree::

           notes

        A failed link is :llm-status:`LLM_LINK_FAILED`; the row of :llm-status:`LLM_TIMEOUT`;
        the vendor page of :llm-status:`LLM_PARAM_INVALID`; and
        :llm-status:`the busy link <LLM_LINK_BUSY>`; a Python timeout :llm-status:`LLM_WAIT_PROCESS_TIMEOUT`.

        .. llm-status:: LLM_LINK_FAILED

        .. llm-status-table::
           :codes: LLM_TIMEOUT, LLM_LINK_BUSY, LLM_CLUSTER_NUM_EXCEED_LIMIT
           :columns: name, hex, recoverable, meaning
        """,
    "notes.md": """\
        # Notes

        In MyST {llm-status}`LLM_LINK_FAILED` and [](#LLM_TIMEOUT).

        :::{llm-status} LLM_WAIT_PROC_TIMEOUT
        :api: python
        :::
        """,
}

BUILDERS = ["html", "dirhtml", "singlehtml", "epub", "latex", "text", "man", "texinfo", "gettext",
            "xml", "json", "pseudoxml"]


def read(app, pattern: str) -> str:
    """Text of every output file matching ``pattern`` (glob under outdir), joined."""
    paths = sorted(app.outdir.rglob(pattern))
    assert paths, f"no {pattern} in {app.outdir}"
    return "\n".join(p.read_text(encoding="utf-8") for p in paths)


def check_html(app, pattern: str = "*.html") -> None:
    html = read(app, pattern)
    doc = BeautifulSoup(html, "html.parser")
    assert doc.select("table.llmstatus-table") and doc.select("table.llmstatus-entry-table")
    assert doc.select("span.llmstatus-badge")
    hrefs = {a.get_text(): a["href"] for a in doc.select("a.reference") if a.code}
    assert hrefs["LLM_LINK_FAILED"].endswith("#LLM_LINK_FAILED")
    assert hrefs["LLM_TIMEOUT"].endswith("#llm-row-LLM_TIMEOUT")
    assert hrefs["LLM_PARAM_INVALID"] == VENDOR
    assert hrefs["link_clusters"] == API_URL
    if app.builder.name != "epub":
        assert "llmstatus.css" in html
    # An entry for Python readers shows, anchors and hover-titles the Python spelling.
    entry = doc.select_one("dt.sig-object.llm:has(.sig-name)", string=None)
    names = [dt.select_one(".sig-name").get_text() for dt in doc.select("dt.sig-object.llm")]
    assert "LLM_WAIT_PROCESS_TIMEOUT" in names and "LLM_WAIT_PROC_TIMEOUT" not in names, names
    assert entry is not None and doc.select_one("dt#LLM_WAIT_PROCESS_TIMEOUT")
    link = next(a for a in doc.select("a.reference.internal[title]") if a.get_text() == "LLM_WAIT_PROCESS_TIMEOUT")
    assert link["href"].endswith("#LLM_WAIT_PROCESS_TIMEOUT"), link
    assert link["title"].startswith("LLM_WAIT_PROCESS_TIMEOUT: "), link
    if app.builder.name == "singlehtml":  # one page: every fragment link in the text lands on an id of it
        # (The sidebar is Sphinx's own: its toctree writes `#document-notes#id1` for sections too.)
        ids = {tag["id"] for tag in doc.select("[id]")}
        body = doc.select("div.body a[href^='#']")
        dead = [a["href"] for a in body if a["href"][1:] and a["href"][1:] not in ids]
        assert not dead, dead


def check_epub(app):
    check_html(app, "*.xhtml")
    css_links = read(app, "*.xhtml")
    assert "llmstatus.css" in css_links


def check_latex(app):
    tex = read(app, "*.tex")
    # the code table and two entry tables, each with a column spec that keeps names whole (printing.py)
    # (tabular on Sphinx 9, tabulary on Sphinx 8: either way with our spec)
    assert tex.count(r"[t]{>{\raggedright") >= 3 and r"\X{38}{100}" in tex
    assert r"\hyperref[\detokenize{index:LLM_LINK_FAILED}]" in tex
    # external links name their URL on paper; titled mentions name their code
    assert r"{\sphinxcode{\sphinxupquote{LLM\_PARAM\_INVALID}}} (\sphinxurl{" + VENDOR + "})" in tex
    assert r"{\sphinxupquote{the busy link}}}}} (LLM\_LINK\_BUSY)" in tex


def check_text(app):
    text = read(app, "index.txt")
    flat = " ".join(text.split())
    assert "+---" in text and "|===" in text  # grid tables
    assert '| "LLM_CLUSTER_NUM_EXCEED_LIMIT" |' in text  # a name is never broken across lines
    assert '"LLM_PARAM_INVALID" (https://www.hiascend.com/' in flat
    note = re.search(r'"link_clusters" \[(\d+)\]', text)  # in a wrapped table cell: numbered,
    assert note and f"[{note[1]}] {API_URL}" in text  # and the URL whole below the table
    assert '"the busy link" (LLM_LINK_BUSY)' in flat
    assert "| Python" in text and "| C++ not" in text  # recoverable per API, labelled, one line each
    assert not re.search(r"\*\*[^*\n]*\s\*\*", read(app, "*.txt"))  # no `**Python: **`
    listed = re.findall(r"^ +\[\d+\] (\S+)$", text, flags=re.M)
    assert listed and all(url.startswith("https://") for url in listed), listed


def check_man(app):
    man = read(app, "*.1")
    assert ".TS" in man and ".TE" in man  # tbl tables
    # Set in bold (docutils >= 0.22) or as an italic tty link (older docutils).
    assert re.search(r"\\f[BI](\\%)?LLM_PARAM_INVALID\\fP", man), man
    assert "hiascend" in man  # the URL is printed next to the vendor link


def check_texinfo(app):
    texi = read(app, "*.texi")
    assert "@multitable" in texi
    assert "LLM_PARAM_INVALID@footnote{" + VENDOR + "}" in texi


def check_gettext(app):
    pot = read(app, "*.pot")
    msgids = re.findall(r'^msgid "(.*)"$', pot, flags=re.M)
    assert "Notes" in msgids and "Builders" in msgids
    # The author's text is translatable; the registry's generated text is not (it has zh itself).
    assert not [m for m in msgids if "Establishing the link failed" in m or "Related codes" in m
                or "timed out" in m], msgids


def check_xml(app):
    xml = read(app, "index.xml")
    assert '<table classes="llmstatus-table"' in xml
    assert 'refuri="' + VENDOR in xml and "<pending_xref" not in xml


def check_pseudoxml(app):
    text = read(app, "index.pseudoxml")
    assert '<table classes="llmstatus-table"' in text and "<pending_xref" not in text


def check_json(app):
    body = json.loads((app.outdir / "index.fjson").read_text(encoding="utf-8"))["body"]
    doc = BeautifulSoup(body, "html.parser")
    assert doc.select("table.llmstatus-table")
    assert doc.select_one("a[href$='#LLM_LINK_FAILED']")


CHECKS = {
    "html": check_html, "dirhtml": check_html, "singlehtml": check_html, "epub": check_epub,
    "latex": check_latex, "text": check_text, "man": check_man, "texinfo": check_texinfo,
    "gettext": check_gettext, "xml": check_xml, "json": check_json, "pseudoxml": check_pseudoxml,
}


@pytest.mark.parametrize("buildername", BUILDERS)
def test_builder(project, buildername):
    app = project(FILES, buildername=buildername, freshenv=True)
    assert app.warning.getvalue() == ""
    CHECKS[buildername](app)


def test_latex_show_urls_is_not_doubled(project):
    app = project(FILES, buildername="latex", confoverrides={"latex_show_urls": "footnote"})
    assert app.warning.getvalue() == ""
    tex = read(app, "*.tex")
    assert r"(\sphinxurl{" + VENDOR not in tex  # Sphinx's own footnotes name the URL
    assert r"\sphinxnolinkurl{" + VENDOR in tex or r"\sphinxurl{" + VENDOR in tex


def test_the_index_names_a_python_entry_as_python_readers_know_it(project):
    # A new user's finding (issue 24): genindex named the :api: python entry LLM_WAIT_PROC_TIMEOUT.
    app = project({"index.rst": "T\n=\n\n.. llm-status:: LLM_WAIT_PROCESS_TIMEOUT\n   :api: python\n"},
                  buildername="html", freshenv=True)
    genindex = (app.outdir / "genindex.html").read_text(encoding="utf-8")
    assert "LLM_WAIT_PROCESS_TIMEOUT (LLM DataDist status code)" in genindex
    assert 'href="index.html#LLM_WAIT_PROCESS_TIMEOUT"' in genindex
