"""Configuration: ``llmstatus_api_links`` to URLs and to Sphinx targets; every value typed and checked."""

from __future__ import annotations

import pytest
from bs4 import BeautifulSoup
from conftest import BASE_CONF

from sphinx_llmstatus.sphinxext.content import api_target

# LLM_TIMEOUT's Python remedy names `pull_cache`, `pull_blocks` and `transfer_cache_async`;
# LLM_LINK_FAILED's C++ remedy names `LinkLlmClusters`.
API_PAGE = """\
    API
    ===

    .. py:class:: llm_datadist.KvCacheManager

       .. py:method:: pull_cache(cache_key, cache)

          Pull a cache from a remote cluster.

    .. _blocks-guide:

    Pulling blocks
    --------------

    How blocks move.
    """

INDEX = """\
    Codes
    =====

    .. toctree::

       api

    .. llm-status:: LLM_TIMEOUT
    """

LINKS = {
    "pull_cache": "py:meth:llm_datadist.KvCacheManager.pull_cache",
    "pull_blocks": "ref:blocks-guide",
    "transfer_cache_async": "https://example.org/api#transfer_cache_async",
}


def links_by_text(app, page: str = "index") -> dict[str, str]:
    html = (app.outdir / f"{page}.html").read_text(encoding="utf-8")
    doc = BeautifulSoup(html, "html.parser")
    return {a.get_text(): a["href"] for a in doc.select("a.reference") if a.code}


def test_api_links_to_sphinx_targets_and_urls(project):
    app = project({"index.rst": INDEX, "api.rst": API_PAGE},
                  confoverrides={"llmstatus_api_links": LINKS})
    assert app.warning.getvalue() == ""
    links = links_by_text(app)
    assert links["pull_cache"] == "api.html#llm_datadist.KvCacheManager.pull_cache"
    assert links["pull_blocks"] == "api.html#blocks-guide"
    assert links["transfer_cache_async"] == "https://example.org/api#transfer_cache_async"
    api = BeautifulSoup((app.outdir / "api.html").read_text(encoding="utf-8"), "html.parser")
    assert api.find(id="llm_datadist.KvCacheManager.pull_cache")


def test_unmapped_api_names_stay_code(project):
    app = project({"index.rst": INDEX, "api.rst": API_PAGE})
    assert app.warning.getvalue() == ""
    html = BeautifulSoup((app.outdir / "index.html").read_text(encoding="utf-8"), "html.parser")
    names = {c.get_text() for c in html.select("code.llmstatus-api")}
    assert {"pull_cache", "pull_blocks", "transfer_cache_async"} <= names
    assert "pull_cache" not in links_by_text(app)


def test_api_link_to_missing_target_warns_once(project):
    app = project({"index.rst": INDEX + "\n.. llm-status:: LLM_WAIT_PROC_TIMEOUT\n", "api.rst": API_PAGE},
                  confoverrides={"llmstatus_api_links": {"pull_cache": "py:meth:nowhere.pull_cache"}})
    warnings = app.warning.getvalue()
    assert warnings.count("WARNING") == 1, warnings  # two entries name pull_cache: one warning
    assert ("llmstatus_api_links: 'pull_cache' maps to 'py:meth:nowhere.pull_cache', which no object "
            "of this project or its intersphinx inventories matches [llmstatus.unresolved]") in warnings
    assert "index.rst:" in warnings


@pytest.mark.parametrize(("value", "expected"), [
    ("py:meth:llm_datadist.LLMDataDist.link_clusters", ("py", "meth", "llm_datadist.LLMDataDist.link_clusters")),
    ("cpp:func:llm_datadist::LlmDataDist::LinkLlmClusters",
     ("cpp", "func", "llm_datadist::LlmDataDist::LinkLlmClusters")),
    ("ref:blocks-guide", ("std", "ref", "blocks-guide")),
    ("doc:api/index", ("std", "doc", "api/index")),
    ("blocks-guide", ("std", "ref", "blocks-guide")),
])
def test_api_target_forms(value, expected):
    assert api_target(value) == expected


BAD_VALUES = [
    ("llmstatus_language", 3, "must be of type str or NoneType, not int"),
    ("llmstatus_language", "fr", "must be en or zh (or a locale of them such as zh_CN) or None, not 'fr'"),
    ("llmstatus_registry_files", "extra.toml", "must be of type list or tuple, not str"),
    ("llmstatus_registry_files", [3], "must be a list of file paths (strings)"),
    ("llmstatus_fallback_url", None, "must be of type str, not NoneType"),
    ("llmstatus_api_links", ["pull_cache"], "must be of type dict, not list"),
    ("llmstatus_api_links", {"pull_cache": 3}, "must map API names to URL or target strings"),
    ("llmstatus_catalog", "yes", "must be of type bool, not str"),
    ("llmstatus_llms_txt", 1, "must be of type bool, not int"),
]


@pytest.mark.parametrize(("name", "value", "message"), BAD_VALUES)
def test_bad_value_is_one_clear_warning_and_the_default(project, name, value, message):
    from sphinx_llmstatus.sphinxext.config import OPTIONS

    # Written in conf.py, as users do (confoverrides would convert strings to lists).
    app = project({"conf.py": f"{BASE_CONF}{name} = {value!r}\n",
                   "index.rst": "T\n=\n\n:llm-status:`LLM_TIMEOUT`\n"})
    warnings = app.warning.getvalue().strip().splitlines()
    default = next(o.default for o in OPTIONS if o.name == name)
    assert len(warnings) == 1, warnings
    assert f"config value {name!r} {message}; using the default {default!r}" in warnings[0]
    assert "[llmstatus.config]" in warnings[0]
    assert getattr(app.config, name) == default
    assert "Traceback" not in app.status.getvalue()


def test_the_catalog_is_published_only_when_asked_for_with_the_project_registry(project, tmp_path):
    import json

    extra = tmp_path / "extra.toml"
    extra.write_text('[[code]]\nname = "LLM_TIMEOUT"\n[code.python]\nmeaning.en = "Timed out (site wording)."\n',
                     encoding="utf-8")
    page = {"index.rst": "T\n=\n\n:llm-status:`LLM_TIMEOUT`\n"}
    assert not (project(page).outdir / "catalog.json").exists()
    app = project(page, confoverrides={"llmstatus_catalog": True, "llmstatus_registry_files": [str(extra)]})
    assert app.warning.getvalue() == ""
    data = json.loads((app.outdir / "catalog.json").read_text(encoding="utf-8"))
    timeout = next(c for c in data["codes"] if c["name"] == "LLM_TIMEOUT")
    assert timeout["meaning"]["python"]["en"] == "Timed out (site wording)."
    assert (app.outdir / "catalog.schema.json").exists() and (app.outdir / "catalog.csv").exists()


def test_llms_txt_and_markdown_copies_only_when_asked_for(project):
    files = {"index.rst": "Codes\n=====\n\n.. toctree::\n\n   two\n\n.. llm-status:: LLM_TIMEOUT\n",
             "two.rst": "Two\n===\n\n.. llm-status:: LLM_LINK_FAILED\n\n.. llm-status:: LLM_NOT_YET_LINK\n"}
    assert not (project(files).outdir / "llms.txt").exists()
    app = project(files, confoverrides={"llmstatus_llms_txt": True, "language": "zh_CN"})
    assert app.warning.getvalue() == ""
    two = (app.outdir / "two.md").read_text(encoding="utf-8")
    assert two.startswith("# Two\n") and two.index("LLM\\_LINK\\_FAILED") < two.index("LLM\\_NOT\\_YET\\_LINK")
    assert "建链失败" in two
    llms = (app.outdir / "llms.txt").read_text(encoding="utf-8")
    assert "- [LLM_TIMEOUT](index.md)" in llms and "- [LLM_LINK_FAILED](two.md): 建链失败。" in llms
