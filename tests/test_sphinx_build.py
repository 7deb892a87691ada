"""Real Sphinx builds: links land on entries, warnings are typed and located, builds stay correct."""

from __future__ import annotations

import re

import pytest
from bs4 import BeautifulSoup

PAGES = {
    "index.rst": """\
        Home
        ====

        .. toctree::

           codes
           table
           notes

        A failed link is :llm-status:`LLM_LINK_FAILED`; the timeout is :llm-status:`1343270913`.
        """,
    "codes.rst": """\
        Codes
        =====

        .. llm-status:: LLM_LINK_FAILED

        .. llm-status:: LLM_WAIT_PROC_TIMEOUT
        """,
    "table.rst": """\
        Table
        =====

        .. llm-status::
           :codes: LLM_LINK_FAILED, LLM_TIMEOUT
        """,
    "notes.md": """\
        # Notes

        In MyST: {llm-status}`LLM_TIMEOUT`, {llm-status}`5010b009`, [](#LLM_LINK_FAILED).
        """,
}


def html(app, page):
    return BeautifulSoup((app.outdir / f"{page}.html").read_text(encoding="utf-8"), "html.parser")


def target_exists(app, href: str, page: str) -> bool:
    path, _, frag = href.partition("#")
    doc = html(app, path.removesuffix(".html")) if path else html(app, page)
    return bool(doc.find(id=frag)) if frag else True


def test_roles_link_to_entries_and_rows(project):
    app = project(PAGES)
    assert app.warning.getvalue() == ""
    index = html(app, "index")
    links = {a.get_text(): a for a in index.select("a.reference.internal") if a.code}
    assert links["LLM_LINK_FAILED"]["href"] == "codes.html#LLM_LINK_FAILED"
    assert links["LLM_LINK_FAILED"]["title"] == "LLM_LINK_FAILED: Establishing the link failed."
    assert links["LLM_WAIT_PROC_TIMEOUT"]["href"] == "codes.html#LLM_WAIT_PROC_TIMEOUT"
    notes = html(app, "notes")
    hrefs = {a.get_text(): a["href"] for a in notes.select("a.reference") if a.code}
    assert hrefs["LLM_TIMEOUT"] == "table.html#llm-row-LLM_TIMEOUT"  # no entry: the table row
    assert hrefs["LLM_LINK_FAILED"] == "codes.html#LLM_LINK_FAILED"
    for page in ("index", "notes", "table"):
        for a in html(app, page).select("a.reference.internal"):
            assert target_exists(app, a["href"], page), (page, a["href"])


def test_table_rows_link_to_entries(project):
    app = project(PAGES)
    table = html(app, "table")
    cells = [row.find("td") for row in table.select("table.llmstatus-table tbody tr")]
    assert cells[0].a["href"] == "codes.html#LLM_LINK_FAILED"
    assert cells[1].a is None  # LLM_TIMEOUT has no entry in this project: plain text


def test_fallback_to_vendor_page_and_disabled_fallback(project):
    files = {"index.rst": "Home\n====\n\n:llm-status:`LLM_PARAM_INVALID`\n"}
    app = project(files)
    a = html(app, "index").select_one("a.llmstatus-external")
    assert a["href"].startswith("https://www.hiascend.com/")
    assert app.warning.getvalue() == ""


def test_fallback_disabled_warns_unresolved(project):
    app = project({"index.rst": "Home\n====\n\n:llm-status:`LLM_PARAM_INVALID`\n"},
                  confoverrides={"llmstatus_fallback_url": ""})
    warnings = app.warning.getvalue()
    assert "index.rst:4: WARNING: LLM status code LLM_PARAM_INVALID is not documented" in warnings
    assert "[llmstatus.unresolved]" in warnings
    assert html(app, "index").find("code").get_text() == "LLM_PARAM_INVALID"


def test_fallback_template(project):
    app = project({"index.rst": "Home\n====\n\n:llm-status:`LLM_PARAM_INVALID`\n"},
                  confoverrides={"llmstatus_fallback_url": "https://kb.example/{name}?v={hex}"})
    assert html(app, "index").select_one("a.llmstatus-external")["href"] == \
        "https://kb.example/LLM_PARAM_INVALID?v=0x5010B005"


def test_unknown_code_warns_with_location_and_build_goes_on(project):
    app = project({
        "index.rst": "Home\n====\n\nSee :llm-status:`LLM_LINK_FAILD`.\n\n.. llm-status:: 0x5010B0FF\n",
        "other.md": "# Other\n\n{llm-status}`LLM_TIMEOUTT`\n",
    })
    warnings = app.warning.getvalue()
    assert re.search(r"index\.rst:4: WARNING: unknown LLM DataDist status code 'LLM_LINK_FAILD'; "
                     r"did you mean LLM_LINK_FAILED.*\[llmstatus\.unknown_code\]", warnings)
    assert re.search(r"index\.rst:6: WARNING: 0x5010B0FF has the LLM DataDist layout", warnings)
    assert re.search(r"other\.md:3: WARNING: unknown LLM DataDist status code 'LLM_TIMEOUTT'", warnings)
    assert html(app, "index").select_one("code.llmstatus-unknown").get_text() == "LLM_LINK_FAILD"
    assert (app.outdir / "other.html").exists()


def test_suppress_warnings_type(project):
    app = project({"index.rst": "Home\n====\n\n:llm-status:`NOPE` :llm-status:`-1`\n"},
                  confoverrides={"suppress_warnings": ["llmstatus"]})
    assert app.warning.getvalue() == ""


CASES = {
    "unknown_code": ({"index.rst": "T\n=\n\n:llm-status:`NOPE`\n"}, {}),
    "ambiguous": ({"index.rst": "T\n=\n\n:llm-status:`-1`\n"}, {}),
    "duplicate": ({"index.rst": "T\n=\n\n.. toctree::\n\n   a\n\n.. llm-status:: LLM_TIMEOUT\n",
                   "a.rst": "A\n=\n\n.. llm-status:: LLM_TIMEOUT\n"}, {}),
    "unresolved": ({"index.rst": "T\n=\n\n:llm-status:`LLM_TIMEOUT`\n"}, {"llmstatus_fallback_url": ""}),
    "option": ({"index.rst": "T\n=\n\n.. llm-status::\n   :columns: name, colour\n"}, {}),
    "option-values": ({"index.rst": "T\n=\n\n.. llm-status-table::\n   :api: java\n   :recoverable: maybe\n\n"
                                    ".. llm-status:: LLM_TIMEOUT\n   :lang: fr\n",
                       "md.md": "# M\n\n```{llm-status} LLM_LINK_FAILED\n:api: jav\n:no-index:\n```\n"}, {}),
    "config": ({"index.rst": "T\n=\n"}, {"llmstatus_language": "fr"}),
    "registry": ({"index.rst": "T\n=\n", "bad.toml": "[[code]\n"}, {"llmstatus_registry_files": ["bad.toml"]}),
}


@pytest.mark.parametrize("case", CASES)
def test_each_subtype_is_typed_located_and_suppressible(project, rebuild, case):
    files, overrides = CASES[case]
    subtype = case.split("-")[0]
    app = project(files, confoverrides=overrides, freshenv=True)
    warnings = app.warning.getvalue()
    assert f"[llmstatus.{subtype}]" in warnings, warnings
    if subtype != "config":
        assert re.search(r"(\.rst|\.toml):\d+: WARNING", warnings), warnings
    quiet = rebuild(app, freshenv=True,
                    confoverrides={**overrides, "suppress_warnings": [f"llmstatus.{subtype}"]})
    assert "llmstatus" not in quiet.warning.getvalue()


def test_bad_option_values_warn_and_use_defaults(project):
    app = project(CASES["option-values"][0])
    warnings = app.warning.getvalue()
    assert "ERROR" not in warnings and "docutils" not in warnings
    assert re.search(r"index\.rst:4: WARNING: :api: 'java' is not one of python, cpp, both; "
                     r"using the default \[llmstatus\.option\]", warnings), warnings
    assert ":recoverable: 'maybe' is not one of yes, no" in warnings
    assert re.search(r"index\.rst:8: WARNING: :lang: 'fr' is not one of en, zh", warnings)
    assert re.search(r"md\.md:\d+: WARNING: :api: 'jav' is not one of python, cpp, both", warnings)
    text = html(app, "index").get_text()
    assert "The operation timed out." in text  # the entry still renders, in English


def test_duplicate_names_both_locations_and_no_index_allows_it(project):
    app = project(CASES["duplicate"][0])
    warnings = app.warning.getvalue()
    assert "documented twice" in warnings and "index.rst:8" in warnings and "a.rst:4" in warnings
    files = dict(CASES["duplicate"][0])
    files["a.rst"] = "A\n=\n\n.. llm-status:: LLM_TIMEOUT\n   :no-index:\n"
    app = project(files, freshenv=True)
    assert app.warning.getvalue() == ""


def test_bad_config_falls_back_to_default(project):
    app = project({"index.rst": "T\n=\n\n.. llm-status:: LLM_TIMEOUT\n"},
                  confoverrides={"llmstatus_language": "fr", "llmstatus_fallback_url": 3})
    warnings = app.warning.getvalue()
    assert "config value 'llmstatus_language' must be en or zh (or a locale of them such as zh_CN) or None, not 'fr'" in warnings
    assert "config value 'llmstatus_fallback_url' must be of type str" in warnings
    assert app.config.llmstatus_language is None
    assert "The operation timed out." in html(app, "index").get_text()


def test_invalid_registry_file_names_file_entry_field(project):
    bad = '[[code]]\nname = "LLM_TIMEOUT"\n[code.python]\nrecoverable = "perhaps"\n'
    app = project({"index.rst": "T\n=\n", "site.toml": bad},
                  confoverrides={"llmstatus_registry_files": ["site.toml"]})
    warnings = app.warning.getvalue()
    assert "site.toml: entry LLM_TIMEOUT: field python.recoverable: 'perhaps' is not one of" in warnings


def test_registry_file_adds_and_overrides(project):
    extra = '''
[[code]]
name = "LLM_TIMEOUT"
[code.cpp]
remedy.en = "Site advice: page the on-call engineer."
remedy.zh = "本站建议：联系值班工程师。"
'''
    app = project({"index.rst": "T\n=\n\n.. llm-status:: LLM_TIMEOUT\n", "site.toml": extra},
                  confoverrides={"llmstatus_registry_files": ["site.toml"]})
    assert app.warning.getvalue() == ""
    assert "Site advice: page the on-call engineer." in html(app, "index").get_text()
    assert {str(p) for p in app.env.dependencies["index"]} == {str(app.srcdir / "site.toml")}


def test_chinese_project_renders_chinese_text_and_labels(project):
    app = project({"index.rst": "T\n=\n\n.. llm-status:: LLM_LINK_FAILED\n"},
                  confoverrides={"language": "zh_CN"})
    text = html(app, "index").get_text()
    assert "建链失败" in text and "处理办法" in text and "可恢复" in text
    assert "检查对应集群之间的网络连通性" in text


def test_lang_option_and_config_override(project):
    app = project({"index.rst": "T\n=\n\n.. llm-status:: LLM_LINK_FAILED\n   :lang: zh\n"})
    assert "建链失败" in html(app, "index").get_text()
    app = project({"index.rst": "T\n=\n\n.. llm-status:: LLM_LINK_FAILED\n"},
                  confoverrides={"language": "zh_CN", "llmstatus_language": "en"}, freshenv=True)
    assert "Establishing the link failed." in html(app, "index").get_text()


def test_objects_inventory_lists_documented_codes(project):
    from sphinx.util.inventory import InventoryFile

    app = project(PAGES)
    inv = InventoryFile.loads((app.outdir / "objects.inv").read_bytes(), uri="")
    objects = inv.data["llm:status"] if hasattr(inv, "data") else inv["llm:status"]
    names = set(objects)
    assert {"LLM_LINK_FAILED", "LLM_WAIT_PROC_TIMEOUT", "LLM_TIMEOUT"} <= names
    assert len(names) == 3


def test_incremental_rebuild_drops_and_restores_targets(project, rebuild, tmp_path):
    app = project(PAGES)
    assert html(app, "index").select_one("a[href='codes.html#LLM_LINK_FAILED']")
    (tmp_path / "codes.rst").write_text("Codes\n=====\n\nNothing here now.\n", encoding="utf-8")
    app2 = rebuild(app)
    domain = app2.env.get_domain("llm")
    assert "LLM_LINK_FAILED" not in domain.entries
    assert html(app2, "index").select_one("a[href='table.html#llm-row-LLM_LINK_FAILED']")
    (tmp_path / "codes.rst").write_text(PAGES["codes.rst"].replace("        ", ""), encoding="utf-8")
    app3 = rebuild(app2)
    assert html(app3, "index").select_one("a[href='codes.html#LLM_LINK_FAILED']")
    assert app3.warning.getvalue() == ""


def test_parallel_build_matches_serial(project, rebuild):
    files = dict(PAGES)
    toctree = "\n".join(f"   extra{i}" for i in range(8))
    files["index.rst"] = PAGES["index.rst"].replace("           notes", "           notes\n" + toctree.replace("   ", "           "))
    for i in range(8):
        files[f"extra{i}.rst"] = f"Extra {i}\n========\n\n:llm-status:`LLM_LINK_FAILED` :llm-status:`LLM_TIMEOUT`\n"
    serial = project(files)
    serial_html = {p.name: p.read_text() for p in serial.outdir.glob("*.html")}
    parallel = rebuild(serial, freshenv=True, parallel=2)
    assert parallel.warning.getvalue() == ""
    for name, text in serial_html.items():
        assert (parallel.outdir / name).read_text() == text, name


def test_duplicate_warned_in_parallel_build(project, rebuild):
    files = {"index.rst": "T\n=\n\n.. toctree::\n\n" + "".join(f"   p{i}\n" for i in range(6))}
    for i in range(6):
        files[f"p{i}.rst"] = f"P{i}\n==\n\n.. llm-status:: LLM_TIMEOUT\n" if i in (1, 4) else f"P{i}\n==\n"
    serial = project(files)
    assert serial.warning.getvalue().count("documented twice") == 1
    app = rebuild(serial, freshenv=True, parallel=2)
    assert app.warning.getvalue().count("documented twice") == 1


@pytest.mark.parametrize("template", ["https://x/{nope}", "https://x/{0}", "https://x/{",
                                      "{value:x}{hex:d}", "{name.__class__}"])
def test_bad_fallback_template_is_a_config_warning(project, template):
    app = project({"index.rst": "T\n=\n\n:llm-status:`LLM_LINK_FAILED`\n"},
                  confoverrides={"llmstatus_fallback_url": template}, freshenv=True)
    warnings = app.warning.getvalue()
    assert "config value 'llmstatus_fallback_url'" in warnings and "[llmstatus.config]" in warnings
    assert "using the default 'vendor'" in warnings
    assert html(app, "index").select_one("a.llmstatus-external")["href"].startswith("https://www.hiascend.com/")


def test_huge_number_in_a_role_is_a_warning(project):
    app = project({"index.rst": "T\n=\n\n:llm-status:`" + "9" * 5000 + "`\n"})
    warnings = app.warning.getvalue()
    assert "index.rst:4: WARNING:" in warnings and "does not fit in 32 bits" in warnings


def test_incremental_build_sees_no_config_change(tmp_path):
    """A second sphinx-build run with nothing changed re-reads nothing (the CSS path is stable)."""
    import subprocess
    import sys

    (tmp_path / "conf.py").write_text('extensions = ["sphinx_llmstatus"]\n')
    (tmp_path / "index.rst").write_text("T\n=\n\n.. llm-status:: LLM_TIMEOUT\n")
    cmd = [sys.executable, "-m", "sphinx", "-b", "html", str(tmp_path), str(tmp_path / "_build")]
    subprocess.run(cmd, check=True, capture_output=True)
    second = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    assert "configuration has changed" not in second
    assert "0 added, 0 changed, 0 removed" in second


def test_entries_index_every_number_form_and_spelling(project):
    app = project({"index.rst": "T\n=\n\n.. llm-status:: LLM_WAIT_PROC_TIMEOUT\n"})
    index = (app.outdir / "genindex.html").read_text(encoding="utf-8")
    for form in ("1343270913", "0x5010B001", "5010b001", "LLM_WAIT_PROCESS_TIMEOUT"):
        assert form in index, form


# -- issue 24: bad input, one clear message --------------------------------------------------------

def test_an_empty_role_is_one_located_warning_not_a_crash(project):
    """`:llm-status:`~`` aborted the whole build (IndexError in resolver.py)."""
    app = project({"index.rst": "T\n=\n\nSee :llm-status:`~` and :llm-status:`x <>`.\n"})
    warnings = app.warning.getvalue().strip().splitlines()
    assert len(warnings) == 2 and all("empty LLM status code" in w and "index.rst:4" in w for w in warnings)
    assert "[llmstatus.unknown_code]" in warnings[0]


def test_a_huge_role_text_is_cut_in_its_warning(project):
    app = project({"index.rst": "T\n=\n\nSee :llm-status:`" + "X" * 100_000 + "`.\n"})
    (warning,) = app.warning.getvalue().strip().splitlines()
    assert len(warning) < 400 and "(100000 characters)" in warning


def test_two_codes_on_one_entry_line_say_one_code_per_entry(project):
    app = project({"index.rst": "T\n=\n\n.. llm-status:: LLM_TIMEOUT LLM_LINK_FAILED\n"})
    (warning,) = app.warning.getvalue().strip().splitlines()
    assert "one code per entry: write one .. llm-status:: for each of LLM_TIMEOUT, LLM_LINK_FAILED" in warning
    assert "did you mean" not in warning


@pytest.mark.parametrize(("value", "message"), [
    ("causes, causes, none", ":sections: 'none' means no section and stands alone; using the default"),
    ("causes, none", ":sections: 'none' means no section and stands alone; using the default"),
])
def test_sections_none_with_others_says_why(project, value, message):
    app = project({"index.rst": f"T\n=\n\n.. llm-status:: LLM_FAILED\n   :sections: {value}\n"})
    (warning,) = app.warning.getvalue().strip().splitlines()
    assert message in warning and "did you mean" not in warning


def test_a_section_named_twice_is_shown_once(project):
    app = project({"index.rst": "T\n=\n\n.. llm-status:: LLM_LINK_FAILED\n   :sections: causes, causes\n"})
    assert app.warning.getvalue() == ""
