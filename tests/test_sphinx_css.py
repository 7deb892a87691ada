"""The stylesheet: colours only in custom properties, dark mode per theme, narrow screens, print.

Read as text (no browser here): the rules that make dark mode and print work
are checked structurally; a build checks the file reaches HTML output only.
"""

from __future__ import annotations

import re

import pytest

from sphinx_llmstatus.sphinxext import STATIC_DIR

CSS = re.sub(r"/\*.*?\*/", "", (STATIC_DIR / "llmstatus.css").read_text(encoding="utf-8"), flags=re.S)


def blocks(css: str) -> list[tuple[str, str]]:
    """``(selector or @rule, body)`` for each top-level block (one level of nesting)."""
    out, depth, start, head = [], 0, 0, ""
    for i, ch in enumerate(css):
        if ch == "{":
            if depth == 0:
                head, start = css[start:i].strip(), i + 1
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth == 0:
                out.append((head, css[start:i]))
                start = i + 1
    return out


def test_colours_only_in_custom_properties():
    for line in CSS.splitlines():
        for colour in re.findall(r"#[0-9a-fA-F]{3,8}\b|\brgba?\(|\bhsla?\(", line):
            assert re.match(r"\s*--llmstatus-[a-z-]+:\s*#[0-9a-fA-F]{6};", line), (colour, line)


def test_dark_values_for_furo_and_pydata_and_auto():
    heads = dict(blocks(CSS))
    dark = heads['body[data-theme="dark"], html[data-theme="dark"]']
    assert "--llmstatus-yes" in dark and "--llmstatus-no" in dark
    media = heads["@media (prefers-color-scheme: dark)"]
    # Only furo's "auto" follows the OS; a theme without dark mode keeps light badges.
    assert 'body[data-theme="auto"]' in media and ":root" not in media
    light = heads[":root"]
    assert set(re.findall(r"--llmstatus-(?:yes|no|na|unknown)", dark)) == \
        set(re.findall(r"--llmstatus-(?:yes|no|na|unknown)", light))


def test_narrow_screens_scroll_tables_and_print_rules():
    heads = dict(blocks(CSS))
    narrow = heads["@media (max-width: 45em)"]
    assert "overflow-x: auto" in narrow
    printing = heads["@media print"]
    assert 'a.llmstatus-external::after { content: " (" attr(href) ")"' in printing
    assert "break-inside: avoid" in printing and "background: none" in printing


@pytest.mark.parametrize(("buildername", "theme"), [("html", "furo"), ("html", "alabaster"),
                                                   ("dirhtml", "alabaster"), ("latex", None)])
def test_stylesheet_reaches_html_builders_only(project, buildername, theme):
    overrides = {"html_theme": theme} if theme else {}
    app = project({"index.rst": "T\n=\n\n.. llm-status:: LLM_TIMEOUT\n"}, buildername=buildername,
                  confoverrides=overrides)
    assert app.warning.getvalue() == ""
    copied = app.outdir / "_static" / "llmstatus.css"
    if buildername == "latex":
        assert not copied.exists() and not list(app.outdir.rglob("llmstatus.css"))
        return
    assert copied.read_text(encoding="utf-8") == (STATIC_DIR / "llmstatus.css").read_text(encoding="utf-8")
    assert 'href="_static/llmstatus.css' in (app.outdir / "index.html").read_text(encoding="utf-8")
