"""The Chinese search workaround (sphinx-doc/sphinx#14229): it repairs the defect and says when it can go."""

from __future__ import annotations

import pytest
import sphinx
from sphinx.search import IndexBuilder
from sphinx.search.zh import SearchChinese

from sphinx_llmstatus.sphinxext.searchfix import fix_language_data, stemmer_defect

BROKEN = "class BaseStemmer{}\nclass EnglishStemmer extends BaseStemmer{}\nwindow.Stemmer = ChineseStemmer;"
FIXED = "class BaseStemmer{}\nclass EnglishStemmer extends BaseStemmer{}\nwindow.Stemmer = EnglishStemmer;"


def test_defect_is_found_and_repaired(tmp_path):
    assert stemmer_defect(BROKEN) == ("ChineseStemmer", "EnglishStemmer")
    assert stemmer_defect(FIXED) is None
    assert stemmer_defect("function Stemmer() {}") is None  # languages without a JS stemmer
    path = tmp_path / "language_data.js"
    path.write_text(BROKEN, encoding="utf-8")
    assert fix_language_data(path)
    assert path.read_text(encoding="utf-8") == FIXED
    assert not fix_language_data(path)  # a second build leaves it alone


def test_chinese_build_defines_the_stemmer_it_uses(project):
    app = project({"index.rst": "Title\n=====\n\n超时 :llm-status:`LLM_TIMEOUT`\n"},
                  confoverrides={"language": "zh_CN"})
    js = (app.outdir / "_static" / "language_data.js").read_text(encoding="utf-8")
    assert stemmer_defect(js) is None, js[-200:]
    assert "ChineseStemmer" not in js.rsplit("window.Stemmer", 1)[-1][:40]


def test_running_sphinx_still_needs_the_workaround():
    # When this skips, the running Sphinx writes a correct language_data.js for
    # Chinese: drop sphinxext/searchfix.py once the oldest supported Sphinx does.
    builder = IndexBuilder.__new__(IndexBuilder)  # only its stemmer code is asked for
    builder.lang = SearchChinese({})
    code = builder.get_js_stemmer_code()
    if stemmer_defect(code) is None:
        pytest.skip(f"Sphinx {sphinx.__version__} writes a working Chinese stemmer (no sphinx-doc/sphinx#14229): "
                    "the workaround in sphinxext/searchfix.py does nothing here")
    assert stemmer_defect(code) == ("ChineseStemmer", "EnglishStemmer")


# -- Chinese words typed without spaces (issue 24) -------------------------------------------------


def _index(app) -> dict:
    import json

    text = (app.outdir / "searchindex.js").read_text(encoding="utf-8")
    return json.loads(text[text.index("(") + 1:text.rindex(")")])


def test_a_users_chinese_project_indexes_meanings_and_ideograph_pairs(project, monkeypatch):
    import sphinx.search.zh as zh

    # As on a machine without jieba: Sphinx alone would index no Chinese word at all.
    monkeypatch.setattr(zh, "cut_for_search", lambda text, HMM=True: iter(()))
    app = project({"index.rst": "标题\n====\n\n.. llm-status:: LLM_LINK_FAILED\n\n超时后重试。\n"},
                  confoverrides={"language": "zh_CN"})
    index = _index(app)
    assert "建链失败" in index["indexentries"]  # the meaning, as typed: the code's page comes first
    assert {"建链", "链失", "失败", "超时", "重试"} <= set(index["terms"])
    js = (app.outdir / "_static" / "language_data.js").read_text(encoding="utf-8")
    assert "function splitQuery" in js and "\\u4e00-\\u9fff" in js


def test_english_projects_get_the_english_meaning_as_an_entry(project):
    index = _index(project({"index.rst": "Title\n=====\n\n.. llm-status:: LLM_LINK_FAILED\n"}))
    assert "establishing the link failed" in index["indexentries"]
