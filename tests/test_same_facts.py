"""One view under every face (issue 24): an entry says the same facts in the terminal card
(``--full``), the notebook's HTML and Markdown cards, the JSON and the Sphinx page.

The facts are the registry's: names, numbers, meanings, every cause's check, every setting,
which engine returns the code, how upper layers report it, other libraries' names. Each face
is read back as plain text (tags dropped, escapes undone) and must hold each of them.
"""

from __future__ import annotations

import html
import json
import re

import pytest

from sphinx_llmstatus.registry import default_registry
from sphinx_llmstatus.render import html as render_html
from sphinx_llmstatus.render import markdown as render_md
from sphinx_llmstatus.render import text as render_text
from sphinx_llmstatus.render.json import entry_dict
from sphinx_llmstatus.view import code as view_code

#: A code with causes, settings, framework notes, engines and spellings; one with "reported as";
#: another layer's code.
CODES = ["LLM_TIMEOUT", "LLM_LINK_FAILED", "HCCL_E_NOT_SUPPORT"]


def words(text: str) -> str:
    """No Markdown escapes or backticks, one space between words."""
    return " ".join(text.replace("\\", "").replace("`", "").split())


def plain(markup: str) -> str:
    """HTML (or Markdown holding HTML) as its words."""
    inline = re.sub(r"</?(?:code|span|b|a|strong|em|i|wbr)\b[^>]*>", "", markup)  # inside a sentence
    return words(html.unescape(re.sub(r"<[^>]+>", " ", inline)))


def facts(name: str, lang: str = "en") -> list[str]:
    """What every face must say about ``name``: short, exact phrases of the registry."""
    code = default_registry()[name]
    out = [code.name, *(v.name for v in code.views), *code.related]
    out += [" ".join(v.meaning.get(lang).replace("`", "").split()) for v in code.views]
    out += [" ".join(c.check.get(lang).replace("`", "").split())[:60] for v in code.views for c in v.causes]
    out += [s.name for s in code.settings]
    out += [row["label"] for row in view_code.engines(code, None, lang)]
    out += [b["qualified"] for b in view_code.bindings(code, None, lang)]
    out += [b["code"] for b in view_code.becomes(code, lang)]
    return list(dict.fromkeys(out))


def faces(name: str, lang: str = "en") -> dict[str, str]:
    code = default_registry()[name]
    return {
        "text": render_text.card(code, lang, full=True, width=10_000),
        "html": render_html.card(code, lang),
        "markdown": render_md.card(code, lang),
        "json": json.dumps(entry_dict(code, lang), ensure_ascii=False),
    }


@pytest.mark.parametrize("name", CODES)
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_face_carries_the_same_facts(name, lang):
    wanted = facts(name, lang)
    for face, out in faces(name, lang).items():
        said = plain(out) if face in ("html", "markdown") else words(out)
        missing = [f for f in wanted if words(f) not in said]
        assert not missing, (face, missing)


def test_the_sphinx_page_carries_them_too(project):
    app = project({"index.rst": "T\n=\n\n" + "".join(f".. llm-status:: {n}\n\n" for n in CODES)})
    page = plain((app.outdir / "index.html").read_text(encoding="utf-8"))
    for name in CODES:
        missing = [f for f in facts(name) if words(f) not in page]
        assert not missing, (name, missing)


# -- code tables -------------------------------------------------------------------------------


def table_facts(lang: str, api: str | None) -> list[str]:
    """Each LLM DataDist code's name (in ``api``'s spelling), hex and the first words of its meaning."""
    from sphinx_llmstatus.registry.model import LLM_DATADIST

    out = []
    for code in default_registry().in_family(LLM_DATADIST):
        view = code.view(api) if api else None
        if api and view is None:
            continue
        shown = view or code.views[0]
        out += [shown.name if api else code.name, code.hex or str(code.value),
                " ".join(shown.meaning.get(lang).replace("`", "").split())[:12]]
    return out


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("api", [None, "python", "cpp"])
def test_every_table_face_lists_the_same_codes(lang, api):
    from sphinx_llmstatus.registry.model import LLM_DATADIST

    codes = [c for c in default_registry().in_family(LLM_DATADIST) if api is None or c.view(api)]
    tables = {"text": words(render_text.table(codes, lang, api=api)),
              "html": plain(render_html.table(codes, lang, api=api)),
              "markdown": plain(render_md.table(codes, lang, api=api))}
    for face, said in tables.items():
        missing = [f for f in table_facts(lang, api) if words(f) not in said]
        assert not missing, (face, missing)


def test_the_sphinx_table_lists_them_too(project):
    app = project({"index.rst": "T\n=\n\n.. llm-status-table::\n\n.. llm-status-table::\n   :api: python\n"})
    page = plain((app.outdir / "index.html").read_text(encoding="utf-8"))
    for api in (None, "python"):
        missing = [f for f in table_facts("en", api) if words(f) not in page]
        assert not missing, (api, missing)
