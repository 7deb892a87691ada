"""The benchmark projects are fair: they build without warnings and every mention really links.

No timing here (that is bench/); only that ``bench_sphinx_roles`` measures
real cross-references to entries and that both table projects render the
same number of rows.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from bs4 import BeautifulSoup

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))

import bench_sphinx_roles  # noqa: E402
import bench_sphinx_tables  # noqa: E402


def build(make_app, src: Path):
    app = make_app("html", srcdir=src)
    app.build()
    return app


def test_roles_project_links_every_mention_to_an_entry(tmp_path, make_app):
    bench_sphinx_roles.write_project(tmp_path / "roles", pages=2, mentions=40, roles=True)
    app = build(make_app, tmp_path / "roles")
    assert app.warning.getvalue() == ""
    page = BeautifulSoup((app.outdir / "p1.html").read_text(encoding="utf-8"), "html.parser")
    links = page.select("a.reference.internal code.llmstatus-code")
    assert len(links) == 40
    assert all(a.parent["href"].startswith("codes.html#") for a in links)
    app.cleanup()
    bench_sphinx_roles.write_project(tmp_path / "literals", pages=2, mentions=40, roles=False)
    app = build(make_app, tmp_path / "literals")
    assert app.warning.getvalue() == ""
    page = BeautifulSoup((app.outdir / "p1.html").read_text(encoding="utf-8"), "html.parser")
    assert len(page.select("code.literal")) == 40 and not page.select("a.reference.internal code")


def test_table_projects_render_the_same_rows(tmp_path, make_app):
    rows = {}
    for directive in (True, False):
        src = tmp_path / str(directive)
        bench_sphinx_tables.write_project(src, pages=1, directive=directive)
        app = build(make_app, src)
        assert app.warning.getvalue() == ""
        page = BeautifulSoup((app.outdir / "p0.html").read_text(encoding="utf-8"), "html.parser")
        rows[directive] = [re.sub(r" ([,.])", r"\1", " ".join(tr.get_text(" ").split()))
                           for tr in page.select("table tbody tr")]
        app.cleanup()
    assert len(rows[True]) == len(rows[False]) > 30
    assert rows[True] == rows[False]  # same text, row by row
