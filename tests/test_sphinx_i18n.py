"""Languages: Chinese and English labels and registry text, overrides, and the shipped catalogs.

* ``language`` zh / zh_CN / zh_TW -> Chinese labels and registry text; en or
  unset -> English; ``:lang:`` overrides per directive; ``llmstatus_language``
  overrides the project.
* The shipped ``sphinx_llmstatus.pot`` lists exactly the labels the code of
  every face (Sphinx, command, notebook) marks for translation, the ``zh``
  catalog translates every one, and the compiled ``.mo`` matches the ``.po``.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from bs4 import BeautifulSoup

PACKAGE = Path(__file__).resolve().parent.parent / "sphinx_llmstatus"
LOCALES = PACKAGE / "locales"

PAGE = {
    "index.rst": """\
        Codes
        =====

        .. llm-status:: LLM_LINK_FAILED

        .. llm-status-table::
           :codes: LLM_LINK_FAILED
           :columns: name, recoverable, meaning
        """,
}

ZH = {"label": "处理办法", "header": "错误码", "badge": "可恢复", "meaning": "建链失败。",
      "remedy": "检查对应集群之间的网络连通性", "index": "LLM DataDist 错误码"}
EN = {"label": "Remedy", "header": "Code", "badge": "recoverable",
      "meaning": "Establishing the link failed.",
      "remedy": "check the network connection between the clusters it names",
      "index": "LLM DataDist status code"}


def page_text(app, name: str = "index") -> str:
    html = (app.outdir / f"{name}.html").read_text(encoding="utf-8")
    return BeautifulSoup(html, "html.parser").get_text()


def assert_lang(text: str, expected: dict[str, str], other: dict[str, str]) -> None:
    for key in ("label", "header", "badge", "meaning", "remedy"):
        assert expected[key] in text, key
    assert other["meaning"] not in text and other["label"] not in text


@pytest.mark.parametrize("language", ["zh", "zh_CN", "zh_TW", "zh-Hans", "zh_Hant"])
def test_chinese_project(project, language):
    app = project(PAGE, confoverrides={"language": language})
    # docutils itself has no "zh" localisation (only zh_cn, zh_tw) and says so: not ours
    ours = [w for w in app.warning.getvalue().splitlines() if "[docutils]" not in w]
    assert ours == []
    assert_lang(page_text(app), ZH, EN)
    assert ZH["index"] in page_text(app, "genindex")


@pytest.mark.parametrize("language", ["en", None])
def test_english_project(project, language):
    overrides = {"language": language} if language else {}
    app = project(PAGE, confoverrides=overrides)
    assert app.warning.getvalue() == ""
    assert_lang(page_text(app), EN, ZH)
    assert EN["index"] in page_text(app, "genindex")


def with_lang_option(lang: str) -> dict[str, str]:
    text = PAGE["index.rst"].replace(
        ".. llm-status:: LLM_LINK_FAILED\n", f".. llm-status:: LLM_LINK_FAILED\n           :lang: {lang}\n"
    ).replace(":columns: name, recoverable, meaning\n",
              f":columns: name, recoverable, meaning\n           :lang: {lang}\n")
    return {"index.rst": text}


def test_lang_option_zh_in_english_project(project):
    app = project(with_lang_option("zh_CN"))
    assert app.warning.getvalue() == ""
    assert_lang(page_text(app), ZH, EN)


def test_lang_option_en_in_chinese_project(project):
    app = project(with_lang_option("en"), confoverrides={"language": "zh_CN"})
    assert app.warning.getvalue() == ""
    assert_lang(page_text(app), EN, ZH)


@pytest.mark.parametrize("setting", ["zh", "zh_CN", "zh-Hans"])
def test_llmstatus_language_overrides_english_project(project, setting):
    app = project(PAGE, confoverrides={"language": "en", "llmstatus_language": setting})
    assert app.warning.getvalue() == ""
    assert app.config.llmstatus_language == "zh"
    assert_lang(page_text(app), ZH, EN)


def test_llmstatus_language_overrides_chinese_project(project):
    app = project(PAGE, confoverrides={"language": "zh_TW", "llmstatus_language": "en"})
    assert app.warning.getvalue() == ""
    assert_lang(page_text(app), EN, ZH)


def test_lang_option_rejects_unknown_language(project):
    app = project({"index.rst": "T\n=\n\n.. llm-status:: LLM_LINK_FAILED\n   :lang: fr\n"})
    warnings = app.warning.getvalue()
    assert "index.rst:4: WARNING: :lang: 'fr' is not one of en, zh; using the default" in warnings
    assert "[llmstatus.option]" in warnings and "ERROR" not in warnings


# -- the shipped catalogs ------------------------------------------------------------------

#: A string literal as first argument of ``_``, ``llm_``, ``N_`` or ``label``. A regular
#: expression rather than Babel's extractor, which skips calls inside f-strings (Python 3.11).
_MARKED_RE = re.compile(r"""(?<!\w)(?:_|N_|llm_|label)\(\s*(["'])((?:\\.|(?!\1).)*)\1\s*[,)]""")


def extracted_labels() -> set[str]:
    """Every message the package marks for translation: literal ``_``, ``llm_``, ``N_``, ``label`` calls."""
    return {m.group(2) for path in PACKAGE.rglob("*.py") for m in _MARKED_RE.finditer(path.read_text("utf-8"))}


def catalog(path: Path):
    from babel.messages.pofile import read_po

    with path.open("rb") as fh:
        return read_po(fh)


def test_pot_lists_exactly_the_labels_in_the_code():
    pot = catalog(LOCALES / "sphinx_llmstatus.pot")
    shipped = {m.id for m in pot if m.id}
    code = extracted_labels()
    assert code, "no label found: the extraction keywords no longer match the code"
    assert sorted(code - shipped) == [], "labels missing from sphinx_llmstatus.pot"
    assert sorted(shipped - code) == [], "stale labels in sphinx_llmstatus.pot"


def test_zh_catalog_translates_every_label_and_mo_is_compiled():
    from babel.messages.mofile import read_mo

    pot = {m.id for m in catalog(LOCALES / "sphinx_llmstatus.pot") if m.id}
    po = catalog(LOCALES / "zh" / "LC_MESSAGES" / "sphinx_llmstatus.po")
    translations = {m.id: m.string for m in po if m.id}
    assert set(translations) == pot
    assert [m for m, s in translations.items() if not s] == []
    with (LOCALES / "zh" / "LC_MESSAGES" / "sphinx_llmstatus.mo").open("rb") as fh:
        mo = {m.id: m.string for m in read_mo(fh) if m.id}
    assert mo == translations, "sphinx_llmstatus.mo is out of date: recompile the .po"


def test_registry_text_is_not_in_the_projects_gettext_catalog(project):
    """Decision: registry text is data with its own zh text, not the project's prose."""
    files = {
        "index.rst": "Codes\n=====\n\nOur words.\n\n.. toctree::\n\n   notes\n\n"
                     ".. llm-status:: LLM_LINK_FAILED\n\n.. llm-status-table::\n",
        "notes.md": "# Notes\n\nMore words.\n\n```{llm-status} LLM_TIMEOUT\n```\n",
    }
    app = project(files, buildername="gettext")
    assert app.warning.getvalue() == ""
    pot = "".join(p.read_text(encoding="utf-8") for p in app.outdir.glob("*.pot"))
    assert 'msgid "Our words."' in pot and 'msgid "More words."' in pot
    for registry_text in ("Establishing the link failed", "The operation timed out", "Related codes",
                          "vendor page"):
        assert registry_text not in pot, registry_text
