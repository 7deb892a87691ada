"""Cross-project links: a "site" project documents codes, a "consumer" links to them via intersphinx.

Two real builds: the site is built to HTML first; the consumer's
``intersphinx_mapping`` points at the site's output directory (its
``objects.inv`` is read from disk), and the consumer's HTML links are checked
against the site's pages. Also the resolution order (entry, row,
intersphinx, fallback URL, warning) and MyST ``[](#CODE)`` links.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from bs4 import BeautifulSoup

SITE = {
    "conf.py": """\
        extensions = ["sphinx_llmstatus"]
        project = "site"
        """,
    "index.rst": """\
        Site
        ====

        .. toctree::

           codes
           table
        """,
    "codes.rst": """\
        Codes
        =====

        .. llm-status:: LLM_LINK_FAILED

        .. llm-status:: LLM_TIMEOUT
        """,
    "table.rst": """\
        Table
        =====

        .. llm-status-table::
           :codes: LLM_LINK_BUSY
        """,
}

CONSUMER_CONF = """\
    extensions = ["myst_parser", "sphinx.ext.intersphinx", "sphinx_llmstatus"]
    myst_enable_extensions = ["colon_fence"]
    project = "consumer"
    intersphinx_mapping = {{"site": ({site_out!r}, None)}}
    """

CONSUMER = {
    "index.rst": """\
        Consumer
        ========

        .. toctree::

           notes

        Role :llm-status:`LLM_LINK_FAILED`, domain role :llm:status:`llm_timeout`,
        number :llm-status:`1343270913`, row :llm-status:`LLM_LINK_BUSY`,
        vendor :llm-status:`LLM_PARAM_INVALID`.
        """,
    "notes.md": """\
        # Notes

        Explicit [the failed link](inv:site:llm:status#LLM_LINK_FAILED),
        auto <inv:site:llm:status#LLM_TIMEOUT>, any inventory [](inv:*:llm:status#LLM_LINK_FAILED).
        """,
}


def write(root: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text), encoding="utf-8")


def soup(path: Path) -> BeautifulSoup:
    return BeautifulSoup(path.read_text(encoding="utf-8"), "html.parser")


@pytest.fixture
def two_builds(tmp_path, make_app):
    """Build the site, then a consumer (``files`` override) that links to it; yield both apps."""
    apps = []

    def build(consumer_files: dict[str, str] | None = None, **consumer_kwargs):
        site_src, consumer_src = tmp_path / "site", tmp_path / "consumer"
        write(site_src, SITE)
        site = make_app("html", srcdir=site_src)
        site.build()
        apps.append(site)
        site_out = str(site.outdir)
        site.cleanup()  # one set of our directives in docutils' registries at a time
        write(consumer_src, {"conf.py": CONSUMER_CONF.format(site_out=site_out),
                             **(consumer_files or CONSUMER)})
        consumer = make_app("html", srcdir=consumer_src, **consumer_kwargs)
        consumer.build()
        apps.append(consumer)
        return site, consumer

    yield build
    for app in apps:
        app.cleanup()


def site_target(site_out: Path, href: str):
    """The element of the site's HTML that ``href`` (an absolute file path + #id) points at."""
    path, _, frag = href.partition("#")
    page = Path(path)
    assert page.is_relative_to(site_out), href
    return soup(page).find(id=frag)


def test_site_inventory_lists_entries_and_rows(two_builds):
    from sphinx.util.inventory import InventoryFile

    site, _consumer = two_builds()
    inv = InventoryFile.loads((site.outdir / "objects.inv").read_bytes(), uri="")
    objects = inv.data["llm:status"] if hasattr(inv, "data") else inv["llm:status"]
    assert set(objects) == {"LLM_LINK_FAILED", "LLM_TIMEOUT", "LLM_LINK_BUSY"}


def test_consumer_roles_land_on_site_entries(two_builds):
    site, consumer = two_builds()
    assert consumer.warning.getvalue() == ""
    links = {a.get_text(): a for a in soup(consumer.outdir / "index.html").select("a.reference")}
    for text, page, anchor in [
        ("LLM_LINK_FAILED", "codes.html", "LLM_LINK_FAILED"),
        ("llm_timeout", "codes.html", "LLM_TIMEOUT"),  # shown as written
        ("LLM_LINK_BUSY", "table.html", "llm-row-LLM_LINK_BUSY"),  # the site's table row
    ]:
        a = links[text]
        assert a["href"] == f"{site.outdir}/{page}#{anchor}", text
        assert "external" in a["class"]
        target = site_target(site.outdir, a["href"])
        assert target is not None and text.upper() in target.get_text(), text
    # 1343270913 is LLM_WAIT_PROC_TIMEOUT: not on the site -> the vendor page (fallback URL)
    vendor = links["1343270913"]
    assert vendor["title"].startswith("LLM_WAIT_PROC_TIMEOUT: ")
    assert vendor["href"].startswith("https://www.hiascend.com/")
    assert links["LLM_PARAM_INVALID"]["href"].startswith("https://www.hiascend.com/")


def test_consumer_myst_inv_links_land_on_site_entries(two_builds):
    site, consumer = two_builds()
    assert consumer.warning.getvalue() == ""
    notes = soup(consumer.outdir / "notes.html")
    hrefs = [a["href"] for a in notes.select("a.reference")]
    assert hrefs == [f"{site.outdir}/codes.html#LLM_LINK_FAILED",
                     f"{site.outdir}/codes.html#LLM_TIMEOUT",
                     f"{site.outdir}/codes.html#LLM_LINK_FAILED"]
    for href in hrefs:
        assert site_target(site.outdir, href) is not None
    assert notes.select("a.reference")[0].get_text() == "the failed link"


ORDER = {
    "index.rst": """\
        Order
        =====

        .. toctree::

           entries
           rows

        :llm-status:`LLM_LINK_FAILED` :llm-status:`LLM_LINK_BUSY` :llm-status:`LLM_TIMEOUT`
        :llm-status:`LLM_PARAM_INVALID`
        """,
    # The consumer's own entry beats the site's entry for the same code ...
    "entries.rst": "Entries\n=======\n\n.. llm-status:: LLM_LINK_FAILED\n",
    # ... and the consumer's own table row beats the site's entry too.
    "rows.rst": "Rows\n====\n\n.. llm-status-table::\n   :codes: LLM_TIMEOUT\n",
}


def test_resolution_order_entry_row_intersphinx_fallback_warning(two_builds, rebuild):
    site, consumer = two_builds(ORDER)
    assert consumer.warning.getvalue() == ""
    links = {a.get_text(): a["href"] for a in soup(consumer.outdir / "index.html").select("a.reference")
             if a.code}
    assert links["LLM_LINK_FAILED"] == "entries.html#LLM_LINK_FAILED"  # 1. own entry
    assert links["LLM_TIMEOUT"] == "rows.html#llm-row-LLM_TIMEOUT"  # 2. own row
    assert links["LLM_LINK_BUSY"] == f"{site.outdir}/table.html#llm-row-LLM_LINK_BUSY"  # 3. inventory
    assert links["LLM_PARAM_INVALID"].startswith("https://www.hiascend.com/")  # 4. fallback URL


def test_no_fallback_url_warns_after_intersphinx(two_builds):
    site, consumer = two_builds(ORDER, confoverrides={"llmstatus_fallback_url": ""})
    warnings = consumer.warning.getvalue()
    assert warnings.count("WARNING") == 1, warnings  # 5. only the code nobody documents
    assert "index.rst:10: WARNING: LLM status code LLM_PARAM_INVALID is not documented" in warnings  # its own line
    assert "[llmstatus.unresolved]" in warnings
    links = {a.get_text(): a["href"] for a in soup(consumer.outdir / "index.html").select("a.reference")
             if a.code}
    assert links["LLM_LINK_BUSY"] == f"{site.outdir}/table.html#llm-row-LLM_LINK_BUSY"
    assert "LLM_PARAM_INVALID" not in links


def test_myst_hash_links_resolve_locally_without_warnings(project):
    app = project({
        "index.md": """\
            # Home

            ```{toctree}
            codes
            ```

            [](#LLM_LINK_FAILED), [the timeout](#LLM_TIMEOUT), [](#llm_wait_process_timeout).
            """,
        "codes.rst": "Codes\n=====\n\n.. llm-status:: LLM_LINK_FAILED\n\n.. llm-status:: LLM_WAIT_PROC_TIMEOUT\n\n"
                     ".. llm-status-table::\n   :codes: LLM_TIMEOUT\n",
    })
    assert app.warning.getvalue() == ""
    hrefs = {a.get_text(): a["href"] for a in soup(app.outdir / "index.html").select("a.reference")}
    assert hrefs["LLM_LINK_FAILED"] == "codes.html#LLM_LINK_FAILED"
    assert hrefs["the timeout"] == "codes.html#llm-row-LLM_TIMEOUT"
    assert hrefs["LLM_WAIT_PROC_TIMEOUT"] == "codes.html#LLM_WAIT_PROC_TIMEOUT"
