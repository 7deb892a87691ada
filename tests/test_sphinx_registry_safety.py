"""Registry files are untrusted input: every face (Sphinx, command, magic) gets one clear error or safe output.

The loader checks aliases (form, uniqueness against every name and number
form), bounds integers, accepts only http(s) source URLs without control
characters, rejects a code overridden twice in one file and merges one
language of a source title like code fields. The Sphinx face turns a bad file
into one ``llmstatus.registry`` warning and never writes registry text into an
element id unescaped.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from bs4 import BeautifulSoup
from test_registry_loader import load_error, write

from sphinx_llmstatus.registry import default_registry, load_registry

HOSTILE_ALIAS = '"><img src=x onerror=alert(1)>'


def alias_file(alias: str) -> str:
    return f'[[code]]\nname = "LLM_TIMEOUT"\naliases = [{alias!r}]\n'.replace("'", '"') if '"' not in alias \
        else "[[code]]\nname = \"LLM_TIMEOUT\"\naliases = ['" + alias + "']\n"


@pytest.mark.parametrize("alias", [HOSTILE_ALIAS, "llm timeout", "", "DEADBEEF", "0x5010B009"])
def test_alias_must_be_an_identifier_that_is_no_number(tmp_path, alias):
    err = load_error(tmp_path, alias_file(alias))
    assert (err.entry, err.field) == ("LLM_TIMEOUT", "aliases"), str(err)


@pytest.mark.parametrize("alias", ["1343270921", "5010B009", "-1"])
def test_alias_equal_to_another_codes_number_is_rejected(tmp_path, alias):
    err = load_error(tmp_path, alias_file(alias))
    assert err.entry == "LLM_TIMEOUT" and err.field == "aliases", str(err)


def test_alias_equal_to_another_codes_name_is_rejected(tmp_path):
    err = load_error(tmp_path, alias_file("LLM_LINK_FAILED"))
    assert "is already the name of LLM_LINK_FAILED" in str(err)
    # blamed on the file and field that brought the clash, not on the packaged code it clashes with
    assert err.file.endswith(".toml") and "registry/data" not in err.file and err.field == "aliases"


def test_alias_clash_in_an_override_blames_the_override(tmp_path):
    """An override giving LLM_LINK_FAILED the alias LLM_TIMEOUT names the override file and its
    aliases field (adversarial run of issue 13), whichever code comes first in the registry."""
    err = load_error(tmp_path, '[[code]]\nname = "LLM_LINK_FAILED"\naliases = ["LLM_TIMEOUT"]\n')
    assert (err.entry, err.field) == ("LLM_LINK_FAILED", "aliases"), str(err)
    assert "registry/data" not in err.file and "already the name of LLM_TIMEOUT" in str(err)


HUGE_DECIMAL = "9" * 5000


@pytest.mark.parametrize("literal", [HUGE_DECIMAL, "0x" + "F" * 5000])
def test_huge_integer_is_one_registry_error_naming_file_entry_field(tmp_path, literal):
    err = load_error(tmp_path, f'[[code]]\nname = "LLM_TIMEOUT"\nvalue = {literal}\n')
    assert (err.entry, err.field) == ("LLM_TIMEOUT", "value"), str(err)
    assert len(str(err)) < 300  # the number itself is never echoed


def test_huge_integer_in_a_view_field_names_the_view_field(tmp_path):
    err = load_error(tmp_path, f'[[code]]\nname = "LLM_TIMEOUT"\n[code.python]\nrecoverable = {HUGE_DECIMAL}\n')
    assert (err.entry, err.field) == ("LLM_TIMEOUT", "python.recoverable"), str(err)


def test_huge_integer_is_one_line_on_the_command(tmp_path):
    path = write(tmp_path, f'[[code]]\nname = "LLM_TIMEOUT"\nvalue = {HUGE_DECIMAL}\n')
    run = subprocess.run([sys.executable, "-m", "sphinx_llmstatus", "--registry", str(path), "LLM_TIMEOUT"],
                         capture_output=True, text=True, timeout=60)
    assert run.returncode != 0 and "Traceback" not in run.stderr, run.stderr
    assert "entry LLM_TIMEOUT: field value" in run.stderr


@pytest.mark.parametrize("url", ["javascript:alert(1)", "https://x/\njavascript:alert(1)", "https://x/a b",
                                 "https://x/\x00", "ftp://x/", "https:///path"])
def test_source_url_must_be_plain_http(tmp_path, url):
    err = load_error(tmp_path, f"[sources.python-page]\nurl = {json.dumps(url)}\n")
    assert (err.entry, err.field) == ("sources.python-page", "url"), str(err)


def test_same_code_overridden_twice_in_one_file_is_rejected(tmp_path):
    text = ('[[code]]\nname = "LLM_TIMEOUT"\nnote.en = "a"\nnote.zh = "甲"\n'
            '[[code]]\nname = "llm_timeout"\nnote.en = "b"\nnote.zh = "乙"\n')
    err = load_error(tmp_path, text)
    assert err.field == "name" and "overridden twice" in str(err)


def test_overrides_in_two_files_still_merge(tmp_path):
    one = write(tmp_path, '[[code]]\nname = "LLM_TIMEOUT"\nnote.en = "a"\nnote.zh = "甲"\n', "one.toml")
    two = write(tmp_path, '[[code]]\nname = "LLM_TIMEOUT"\nnote.en = "b"\n', "two.toml")
    note = load_registry([one, two])["LLM_TIMEOUT"].note
    assert note is not None and (note.en, note.zh) == ("b", "甲")


def test_one_language_of_a_source_title_can_be_overridden(tmp_path):
    key = default_registry()["LLM_TIMEOUT"].views[0].source.key
    reg = load_registry([write(tmp_path, f'[sources.{key}]\ntitle.en = "Our mirror of the page"\n')])
    title = reg.sources[key].title
    assert title.en == "Our mirror of the page"
    assert title.zh == default_registry().sources[key].title.zh


def test_hostile_alias_file_is_a_registry_warning_and_no_markup_reaches_html(project):
    files = {
        "index.rst": "Home\n====\n\n.. llm-status:: LLM_TIMEOUT\n\nSee :llm-status:`LLM_TIMEOUT`.\n",
        "site.toml": alias_file(HOSTILE_ALIAS),
    }
    app = project(files, confoverrides={"llmstatus_registry_files": ["site.toml"]})
    warnings = app.warning.getvalue()
    assert "[llmstatus.registry]" in warnings and "field aliases" in warnings
    page = (app.outdir / "index.html").read_text(encoding="utf-8")
    assert "<img" not in page and "onerror" not in page
    assert BeautifulSoup(page, "html.parser").find(id="LLM_TIMEOUT")


def test_huge_integer_is_a_registry_warning_in_sphinx(project):
    files = {"index.rst": "Home\n====\n\n:llm-status:`LLM_TIMEOUT`\n",
             "site.toml": f'[[code]]\nname = "LLM_TIMEOUT"\nvalue = {HUGE_DECIMAL}\n'}
    app = project(files, confoverrides={"llmstatus_registry_files": ["site.toml"]})
    warnings = app.warning.getvalue()
    assert warnings.count("WARNING") == 1, warnings
    assert "site.toml" in warnings and "entry LLM_TIMEOUT: field value" in warnings
    assert "[llmstatus.registry]" in warnings
