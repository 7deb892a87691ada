"""Cross-references on Sphinx's own mechanisms: incremental builds, copied nodes, named inventories,
the author's text, exact lines, ``nitpick_ignore``, hostile config, and entry directive checks."""

from __future__ import annotations

import posixpath
import shutil
import textwrap
from pathlib import Path

import pytest
from bs4 import BeautifulSoup
from conftest import BASE_CONF
from sphinx.util.console import strip_colors
from sphinx.util.inventory import InventoryFile

import sphinx_llmstatus.sphinxext as sphinxext


def write(root: Path, files: dict[str, str | None]) -> None:
    for rel, text in files.items():
        path = root / rel
        if text is None:
            path.unlink(missing_ok=True)
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text), encoding="utf-8")


@pytest.fixture
def builds(make_app):
    """``build(srcdir, files, **kwargs)``: write files (None deletes one) and build, one app alive at a time."""
    alive = []

    def build(src: Path, files: dict[str, str | None], buildername: str = "html", **kwargs):
        if alive:
            alive.pop().cleanup()
        write(src, {"conf.py": BASE_CONF, **files})
        app = make_app(buildername, srcdir=src, **kwargs)
        app.build()
        alive.append(app)
        return app

    yield build
    if alive:
        alive.pop().cleanup()


def soup(app, page: str) -> BeautifulSoup:
    return BeautifulSoup((app.outdir / f"{page}.html").read_text(encoding="utf-8"), "html.parser")


def code_links(app, page: str) -> list[tuple[str, str]]:
    return [(a.get_text(), a["href"]) for a in soup(app, page).select("a.reference")
            if a.select_one("code.llmstatus-code")]


def inventory(app) -> dict[str, tuple[str, str]]:
    with open(app.outdir / "objects.inv", "rb") as fh:
        inv = InventoryFile.load(fh, "", posixpath.join)
    data = inv.data if hasattr(inv, "data") else inv
    return {name: (item.uri, item.display_name) if hasattr(item, "uri") else (item[2], item[3])
            for name, item in data.get("llm:status", {}).items()}


def target_exists(app, page: str, href: str) -> bool:
    path, _, frag = href.partition("#")
    where = (app.outdir / page).parent / path if path else app.outdir / f"{page}.html"
    if not where.is_file():
        return False
    return not frag or BeautifulSoup(where.read_text(encoding="utf-8"), "html.parser").find(id=frag) is not None


# -- incremental builds equal fresh builds ----------------------------------------------------

INDEX = "Home\n====\n\n.. toctree::\n\n{toc}\n"
MENTION = "Mention\n=======\n\nThe timeout :llm-status:`LLM_TIMEOUT`, the link :llm-status:`LLM_LINK_FAILED`.\n"
TABLE = "Table\n=====\n\n.. llm-status-table::\n   :codes: LLM_TIMEOUT, LLM_LINK_FAILED\n"


def toc(*docs: str) -> str:
    return "\n".join(f"   {d}" for d in docs)


START = {
    "index.rst": INDEX.format(toc=toc("a", "b", "mention", "table")),
    "a.rst": "A\n=\n\n.. llm-status:: LLM_TIMEOUT\n\n.. llm-status:: LLM_LINK_FAILED\n",
    "b.rst": "B\n=\n\n.. llm-status:: LLM_TIMEOUT\n   :no-index:\n\n.. llm-status:: LLM_TIMEOUT\n",
    "mention.rst": MENTION,
    "table.rst": TABLE,
}

CHANGES = {
    # the page whose entry was kept for LLM_TIMEOUT (and the only LLM_LINK_FAILED entry) goes away
    "delete": {"a.rst": None, "index.rst": INDEX.format(toc=toc("b", "mention", "table"))},
    # an entry's page moves to another folder
    "move": {"a.rst": None, "sub/a.rst": START["a.rst"], "index.rst": INDEX.format(toc=toc("sub/a", "b", "mention", "table"))},
    # the same page under a name that sorts after b
    "rename": {"a.rst": None, "z.rst": START["a.rst"], "index.rst": INDEX.format(toc=toc("z", "b", "mention", "table"))},
}


@pytest.mark.parametrize("change", sorted(CHANGES))
def test_incremental_change_of_entry_pages_equals_a_fresh_build(builds, tmp_path, change):
    final = {**START, **CHANGES[change]}
    fresh = builds(tmp_path / "fresh", {k: v for k, v in final.items() if v is not None})
    expected_inv = inventory(fresh)
    pages = ["index", "mention", "table", "b"] + [p for p in ("sub/a", "z") if final.get(f"{p}.rst")]
    expected = {page: code_links(fresh, page) for page in pages}

    builds(tmp_path / "inc", START)
    again = builds(tmp_path / "inc", CHANGES[change])
    assert inventory(again) == expected_inv
    for page in pages:
        assert code_links(again, page) == expected[page], page
        for _text, href in code_links(again, page):
            assert href.startswith("https://") or target_exists(again, page, href), (page, href)


def test_new_entry_relinks_pages_that_only_mention_the_code(builds, tmp_path):
    first = builds(tmp_path, {"index.rst": INDEX.format(toc=toc("mention")), "mention.rst": MENTION})
    assert code_links(first, "mention")[0][1].startswith("https://")  # the vendor page
    again = builds(tmp_path, {"index.rst": INDEX.format(toc=toc("mention", "a")), "a.rst": START["a.rst"]})
    assert code_links(again, "mention") == [("LLM_TIMEOUT", "a.html#LLM_TIMEOUT"),
                                            ("LLM_LINK_FAILED", "a.html#LLM_LINK_FAILED")]


# -- nodes Sphinx copies between documents -------------------------------------------------------


def test_todolist_copy_links_from_where_it_lands(builds, tmp_path):
    app = builds(tmp_path, {
        "conf.py": BASE_CONF + 'extensions.append("sphinx.ext.todo")\ntodo_include_todos = True\n',
        "index.rst": INDEX.format(toc=toc("codes", "a/todo", "x/y/list")),
        "codes.rst": "Codes\n=====\n\n.. llm-status:: LLM_TIMEOUT\n",
        "a/todo.rst": "Todo\n====\n\n.. todo:: Handle :llm-status:`LLM_TIMEOUT` and :llm:status:`LLM_TIMEOUT`.\n",
        "x/y/list.rst": "List\n====\n\n.. todolist::\n",
    })
    assert app.warning.getvalue() == ""
    links = code_links(app, "x/y/list")
    assert links == [("LLM_TIMEOUT", "../../codes.html#LLM_TIMEOUT")] * 2
    assert code_links(app, "a/todo") == [("LLM_TIMEOUT", "../codes.html#LLM_TIMEOUT")] * 2


# -- intersphinx: the named inventory wins ---------------------------------------------------------

SITE = "Site\n====\n\n.. llm-status:: LLM_KV_CACHE_NOT_EXIST\n"


@pytest.mark.parametrize("order", [("other", "kvops"), ("kvops", "other")])
def test_external_role_with_a_named_inventory_uses_that_inventory(builds, tmp_path, order):
    sites = {}
    for name in ("kvops", "other"):
        site = builds(tmp_path / name, {"conf.py": f'extensions = ["sphinx_llmstatus"]\nproject = "{name}"\n',
                                        "index.rst": SITE})
        sites[name] = str(site.outdir)
    mapping = {name: (sites[name], None) for name in order}
    consumer = builds(tmp_path / "consumer", {
        "conf.py": BASE_CONF + f'extensions.append("sphinx.ext.intersphinx")\nintersphinx_mapping = {mapping!r}\n',
        "index.rst": "Consumer\n========\n\n:external+kvops:llm:status:`LLM_KV_CACHE_NOT_EXIST` and "
                     ":external+other:llm:status:`5010b002`.\n",
    })
    assert consumer.warning.getvalue() == ""
    links = [a["href"] for a in soup(consumer, "index").select("a.reference")]
    assert links == [f"{sites['kvops']}/index.html#LLM_KV_CACHE_NOT_EXIST",
                     f"{sites['other']}/index.html#LLM_KV_CACHE_NOT_EXIST"]


# -- the author's words -----------------------------------------------------------------------------


def test_number_stays_a_number_linked_with_the_name_in_the_title(project):
    app = project({"index.rst": "Home\n====\n\nThe decimal :llm-status:`1343270921` is "
                                ":llm-status:`~1343270921`, hex :llm-status:`0x5010B009`.\n\n"
                                ".. llm-status:: LLM_LINK_FAILED\n"})
    assert app.warning.getvalue() == ""
    first = soup(app, "index").select_one("div.body section > p")
    links = [(a.get_text(), a["href"], a["title"]) for a in first.select("a.reference")]
    title = links[0][2]
    assert title.startswith("LLM_LINK_FAILED: ")
    assert links == [("1343270921", "#LLM_LINK_FAILED", title), ("LLM_LINK_FAILED", "#LLM_LINK_FAILED", title),
                     ("0x5010B009", "#LLM_LINK_FAILED", title)]


def test_text_builder_names_the_code_after_a_number(project):
    app = project({"index.rst": "Home\n====\n\nThe decimal :llm-status:`1343270921`.\n"}, buildername="text")
    text = " ".join((app.outdir / "index.txt").read_text(encoding="utf-8").split())
    assert text.startswith('Home **** The decimal "1343270921" (https://') and text.endswith("(LLM_LINK_FAILED).")


# -- warnings at the mention's own line -----------------------------------------------------------

LINES = """\
Title
=====

First line of the paragraph,
second :llm-status:`LLM_NOPE` here,
third :llm-status:`LLM_NOPE` and :llm-status:`-1`, and
fourth :llm:status:`LLM_NOPE`.

* A list item with
  :llm-status:`LLM_NOPE` on its second line.
"""


def test_role_warnings_give_the_roles_own_line_in_a_multi_line_paragraph(project):
    app = project({"index.rst": LINES})
    got = [(line.split(": WARNING: ")[0].rsplit(":", 1)[1], line.rsplit("[", 1)[1].rstrip("]"))
           for line in strip_colors(app.warning.getvalue()).splitlines() if "WARNING" in line]
    assert sorted(got) == sorted([("5", "llmstatus.unknown_code"), ("6", "llmstatus.unknown_code"),
                                  ("6", "llmstatus.ambiguous"), ("7", "llmstatus.unknown_code"),
                                  ("10", "llmstatus.unknown_code")]), app.warning.getvalue()


# -- nitpicky and nitpick_ignore ------------------------------------------------------------------

NITPICK = {"index.rst": "Home\n====\n\n:llm-status:`LLM_FOO` and :llm-status:`LLM_TIMEOUT`.\n"}


def test_unresolved_mentions_warn_through_sphinx_and_nitpick_ignore_silences_them(project, rebuild):
    app = project(NITPICK, confoverrides={"llmstatus_fallback_url": ""})
    warnings = app.warning.getvalue()
    assert "LLM_FOO" in warnings and "[llmstatus.unknown_code]" in warnings
    assert "LLM status code LLM_TIMEOUT is not documented" in warnings
    quiet = rebuild(app, freshenv=True, confoverrides={
        "llmstatus_fallback_url": "", "nitpicky": True,
        "nitpick_ignore": [("llm:status", "LLM_FOO"), ("llm:status", "LLM_TIMEOUT")]})
    assert quiet.warning.getvalue() == ""


def test_nitpicky_reports_generated_references_nothing_links(project):
    page = {"index.rst": "Home\n====\n\n.. llm-status:: LLM_LINK_FAILED\n"}
    app = project(page, confoverrides={"llmstatus_fallback_url": "", "nitpicky": True})
    assert "[llmstatus.unresolved]" in app.warning.getvalue()  # its related codes


# -- hostile configuration ----------------------------------------------------------------------------

HOSTILE = [
    ("llmstatus_fallback_url", "javascript:alert(1)//{name}"),
    ("llmstatus_fallback_url", "https://x/{value:c}"),
    ("llmstatus_fallback_url", "https://x/{name}\n<script>"),
    ("llmstatus_fallback_url", "https://x/{name.__class__}"),
    ("llmstatus_api_links", {"link_clusters": "javascript:alert(1)"}),
    ("llmstatus_api_links", {"link_clusters": "JaVaScRiPt:alert(1)"}),
    ("llmstatus_api_links", {"link_clusters": "data:text/html,<script>alert(1)</script>"}),
    ("llmstatus_api_links", {"link_clusters": "https://x/\"><script>"}),
]


@pytest.mark.parametrize(("name", "value"), HOSTILE)
@pytest.mark.parametrize("buildername", ["html", "text", "latex", "man"])
def test_hostile_urls_are_one_config_warning_and_never_reach_the_output(project, name, value, buildername):
    app = project({"conf.py": f"{BASE_CONF}{name} = {value!r}\n",
                   "index.rst": "Home\n====\n\n:llm-status:`LLM_LINK_FAILED`\n\n.. llm-status:: LLM_DEVICE_MEM_ERROR\n"},
                  buildername=buildername)
    warnings = [w for w in app.warning.getvalue().splitlines() if "WARNING" in w]
    assert len(warnings) == 1 and "[llmstatus.config]" in warnings[0], warnings
    assert f"config value {name!r}" in warnings[0]
    out = "\n".join(p.read_text(encoding="utf-8", errors="replace") for p in app.outdir.rglob("*")
                    if p.is_file() and p.suffix in (".html", ".txt", ".tex", ".1"))
    assert "alert(1)" not in out and "javascript:" not in out.lower().replace("href=\"javascript:", "")
    assert "{value:c}" not in out and "__class__" not in out


def test_relative_and_http_api_links_are_accepted(project):
    app = project({"index.rst": "Home\n====\n\n.. llm-status:: LLM_LINK_FAILED\n"},
                  confoverrides={"llmstatus_api_links": {"link_clusters": "../api.html#link"}})
    assert app.warning.getvalue() == ""


# -- the entry directive --------------------------------------------------------------------------


def entry_warnings(project, body: str) -> list[str]:
    app = project({"index.rst": "Home\n====\n\n" + body})
    return [w for w in app.warning.getvalue().splitlines() if "WARNING" in w]


def test_entry_for_an_ambiguous_number_warns(project):
    warnings = entry_warnings(project, ".. llm-status:: -1\n")
    assert len(warnings) == 1 and "index.rst:4" in warnings[0], warnings
    assert "ambiguous" in warnings[0] and "[llmstatus.ambiguous]" in warnings[0]


def test_entry_api_the_code_lacks_warns_and_shows_the_api_it_has(project):
    app = project({"index.rst": "Home\n====\n\n.. llm-status:: LLM_CACHE_INCOMPATIBLE\n   :api: python\n"})
    warnings = app.warning.getvalue()
    assert "[llmstatus.option]" in warnings and "only in the C++ API" in warnings
    assert "C++" in soup(app, "index").select_one("table.llmstatus-entry-table").get_text()


def test_entry_with_two_lines_of_argument_is_one_entry_and_a_warning(project):
    app = project({"index.rst": "Home\n====\n\n.. llm-status:: LLM_TIMEOUT\n   LLM_LINK_FAILED\n"})
    warnings = app.warning.getvalue()
    assert "one code per entry" in warnings and "[llmstatus.option]" in warnings
    assert len(soup(app, "index").select("dt.sig")) == 1


def test_entry_rejects_the_tables_options(project):
    warnings = entry_warnings(project, ".. llm-status:: LLM_TIMEOUT\n   :codes: LLM_LINK_FAILED\n   :columns: hex\n")
    assert len(warnings) == 1 and ":codes:, :columns: only apply to a code table" in warnings[0], warnings


def test_entry_ids_are_only_identifiers(project):
    app = project({"index.rst": "Home\n====\n\n.. llm-status:: LLM_DEVICE_MEM_ERROR\n"})
    ids = soup(app, "index").select_one("dt.sig")["id"]
    assert ids == "LLM_DEVICE_MEM_ERROR"


# -- Sphinx's own mechanisms ------------------------------------------------------------------------


def test_directives_and_roles_are_registered_in_the_domain(project):
    app = project({"index.rst": "Home\n====\n"})
    assert set(app.registry.domain_directives["llm"]) == {"status", "table"}
    assert set(app.registry.domain_roles["llm"]) == {"status"}


def test_no_private_sphinx_attributes_or_private_flags():
    source = "\n".join(p.read_text(encoding="utf-8") for p in Path(sphinxext.__file__).parent.glob("*.py"))
    for private in ("env._app", "._builder_cls", "llmstatus_quiet", "llmstatus_silent", "intersphinx_inventory"):
        assert private not in source, private


def test_parallel_build_gives_the_same_html_as_serial(builds, tmp_path):
    files = {"index.rst": INDEX.format(toc=toc(*(f"p{i}" for i in range(8)))),
             **{f"p{i}.rst": f"P{i}\n==\n\n.. llm-status:: {code}\n\nSee :llm-status:`LLM_TIMEOUT`.\n"
                for i, code in enumerate(["LLM_TIMEOUT", "LLM_LINK_FAILED", "LLM_LINK_BUSY", "LLM_PARAM_INVALID",
                                          "LLM_WAIT_PROC_TIMEOUT", "LLM_KV_CACHE_NOT_EXIST", "LLM_FAILED",
                                          "LLM_DEVICE_MEM_ERROR"])}}
    serial = builds(tmp_path / "serial", files)
    shutil.copytree(tmp_path / "serial", tmp_path / "parallel", ignore=shutil.ignore_patterns("_build"))
    parallel = builds(tmp_path / "parallel", {}, parallel=4)
    for page in ["index", *(f"p{i}" for i in range(8))]:
        assert str(soup(parallel, page).select_one("div.body")) == str(soup(serial, page).select_one("div.body"))
