"""Hostile text (``<script>``, quotes, ``&``) from a registry override or from cell input comes out escaped.

Also checks every HTML fragment the magics produce for what issue 3 forbids:
external resources, and colours that would be illegible in a light or dark theme.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

pytest.importorskip("IPython")
from IPython.core.interactiveshell import InteractiveShell  # noqa: E402
from traitlets.config import Config  # noqa: E402

from sphinx_llmstatus.registry import load_registry  # noqa: E402
from sphinx_llmstatus.registry.lookup import Match  # noqa: E402
from sphinx_llmstatus.render import html as render_html  # noqa: E402
from sphinx_llmstatus.render import markdown as render_md  # noqa: E402

HOSTILE_REGISTRY = Path(__file__).parent / "data" / "magic_hostile_registry.toml"
HOSTILE_URL = "https://example.invalid/page?a=1&b=\"><script>alert('url')</script>"
ALLOWED_TAGS = {"div", "span", "table", "thead", "tbody", "tr", "th", "td", "code", "b", "a", "br",
                "details", "summary", "ol", "li"}
ALLOWED_ATTRS = {"class", "style", "href", "target", "rel"}


class _Collect(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.text: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))

    def handle_data(self, data):
        self.text.append(data)


def assert_safe_html(fragment: str) -> _Collect:
    """Only inert tags and attributes, nothing loaded, no fixed text colour."""
    parser = _Collect()
    parser.feed(fragment)
    parser.close()
    for tag, attrs in parser.tags:
        assert tag in ALLOWED_TAGS, tag
        assert set(attrs) <= ALLOWED_ATTRS, (tag, attrs)
        if "href" in attrs:
            assert attrs["href"].startswith(("https://", "http://")), attrs["href"]
        style = attrs.get("style") or ""
        assert "url(" not in style and "@import" not in style and "expression(" not in style
        for decl in style.split(";"):
            prop, _, value = decl.partition(":")
            if prop.strip() == "color":
                assert value.strip() in ("inherit", "currentColor"), decl
            if prop.strip() in ("background", "background-color"):
                value = value.strip()
                assert value == "transparent" or value.startswith("rgba(") or value.startswith("var(--jp-"), decl
    lowered = fragment.lower()
    for needle in ("<script", "<link", "<img", "<style", "<iframe", "<object", "<svg"):
        assert needle not in lowered, needle  # as markup; escaped text is fine
    return parser


@pytest.fixture(scope="module")
def hostile():
    return load_registry(extra_files=[HOSTILE_REGISTRY])


def test_override_is_loaded_as_written(hostile):
    code = hostile["LLM_LINK_FAILED"]
    assert "<script>" in code.python.meaning.en and code.python.source.url == HOSTILE_URL


def test_card_html_escapes_registry_text(hostile):
    code = hostile["LLM_LINK_FAILED"]
    out = render_html.cards([(code, "name")], "en", query="<q>&\"'")
    parser = assert_safe_html(out)
    assert "&lt;script&gt;alert(&quot;meaning&quot;)&lt;/script&gt; &amp; &#x27;quotes&#x27;" in out
    assert "&lt;img src=x onerror=alert(&#x27;note&#x27;)&gt;" in out
    assert "&lt;b onmouseover=alert(&#x27;remedy&#x27;)&gt;" in out
    assert "Vendor &lt;script&gt;alert(&#x27;title&#x27;)&lt;/script&gt; &amp; &quot;page&quot;" in out
    hrefs = [attrs["href"] for tag, attrs in parser.tags if tag == "a"]
    assert HOSTILE_URL in hrefs  # the quote did not break out of the attribute
    text = "".join(parser.text)
    assert "<script>alert(\"meaning\")</script> & 'quotes'" in text  # reads as the registry says
    assert "link_clusters" in text


def test_card_markdown_escapes_registry_text(hostile):
    code = hostile["LLM_LINK_FAILED"]
    md = render_md.card(code, "en")
    for raw in ("<script", "<img", "<b ", "[x](javascript"):
        assert raw not in md, raw
    assert "&lt;script&gt;" in md and "&amp;" in md and "&quot;" in md
    table_rows = [line for line in md.splitlines() if line.startswith("| Python")]
    assert len(table_rows) == 1 and table_rows[0].count(" | ") == 5  # the | in the meaning did not add a cell


def test_table_and_scan_html_escape(hostile):
    assert_safe_html(render_html.table(hostile.codes, "en", caption="<caption> & \"x\""))
    row = render_html.HitRow(
        line_no=1, line="<script>alert(1)</script> & \"x\" ret = 1343270921", token="1343270921",
        kind="code", name="LLM_LINK_FAILED", number="0x5010B009", layer="LLM DataDist",
        code=hostile["LLM_LINK_FAILED"], api="python", recoverable="yes",
        advice=hostile["LLM_LINK_FAILED"].python.remedy.en, advice_kind="remedy",
    )
    out = render_html.hits_table([row], [("LLM_LINK_FAILED", 1)], "en", lines=1, total=1, success_hidden=True)
    assert_safe_html(out)
    assert "&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;x&quot;" in out


@pytest.fixture
def ip():
    config = Config()
    config.HistoryManager.hist_file = ":memory:"
    config.LLMStatusMagics.registry_files = [str(HOSTILE_REGISTRY)]
    config.LLMStatusMagics.lang = "en"
    InteractiveShell.clear_instance()
    sh = InteractiveShell.instance(config=config)
    sh.run_line_magic("load_ext", "sphinx_llmstatus")
    yield sh
    sh.run_line_magic("unload_ext", "sphinx_llmstatus")
    InteractiveShell.clear_instance()


def test_magic_with_hostile_registry_and_hostile_input(ip):
    card = ip.run_line_magic("llmstatus", "LLM_LINK_FAILED")
    assert "<script>" in card.meaning  # the data is kept as written...
    bundle = card._repr_mimebundle_()
    assert_safe_html(bundle["text/html"])  # ...and displayed escaped
    assert "<script" not in bundle["text/markdown"]

    listing = ip.run_line_magic("llmstatus", "--search <script>")
    assert "LLM_LINK_FAILED" in listing.names
    assert_safe_html(listing.html())
    empty = ip.run_line_magic("llmstatus", '--search <img>&x"y"')
    assert len(empty) == 0
    assert_safe_html(empty.html())
    assert "&lt;img&gt;&amp;x&quot;y" in empty.html()
    assert "<img" not in empty.markdown()

    log = "<script>alert('cell')</script> & \"quoted\" LinkLlmClusters failed, ret = 1343270921\n"
    scan = ip.run_cell_magic("llmstatus", "", log)
    assert len(scan) == 1
    out = scan.html()
    assert_safe_html(out)
    assert "&lt;script&gt;alert(&#x27;cell&#x27;)&lt;/script&gt; &amp; &quot;quoted&quot;" in out
    assert "<script" not in scan.markdown()

    ip.run_cell("raise RuntimeError(\"<script>alert('exc')</script> & ret = 1343270921\")")
    last = ip.run_line_magic("llmstatus", "--last")
    assert last.name == "LLM_LINK_FAILED"
    assert "&lt;script&gt;alert(&#x27;exc&#x27;)&lt;/script&gt; &amp;" in last.html()
    assert_safe_html(last.html())
    assert "<script" not in last.markdown()


def test_packaged_outputs_are_safe_too():
    reg = load_registry()
    for code in reg:
        assert_safe_html(render_html.card(code, "en", "name"))
        assert_safe_html(render_html.card(code, "zh"))
    assert re.search(r"var\(--jp-border-color2, rgba\(", render_html.table(reg.codes, "en"))
    assert_safe_html(render_html.cards([(m.code, m.reading) for m in (Match(code=reg["LLM_FAILED"], reading="x"),)], "en"))


def _with_source_url(code, url: str):
    """``code`` with every view's source URL replaced (what a registry file could hold)."""
    from sphinx_llmstatus.registry.model import ApiView, Source

    views = {}
    for view in code.views:
        src = view.source
        source = Source(**{n: getattr(src, n) for n in Source.__slots__ if n != "url"}, url=url)
        views[view.api] = ApiView(**{n: getattr(view, n) for n in ApiView.__slots__ if n != "source"}, source=source)
    return type(code)(**{n: views.get(n, getattr(code, n)) for n in type(code).__slots__})


@pytest.mark.parametrize("url", [
    "https://example.com/a\n\n![x](https://evil.example/t.png)",
    "https://example.com/a\r\n# heading\u2028![x](https://evil.example/t.png)",
    "https://example.com/a> ![x](https://evil.example/t.png)",
])
def test_newline_in_a_source_url_never_injects_markdown(url):
    from sphinx_llmstatus.registry import default_registry

    code = _with_source_url(default_registry()["LLM_LINK_FAILED"], url)
    from markdown_it import MarkdownIt

    from sphinx_llmstatus.render.text import card as text_card

    md = render_md.card(code, "en")
    tokens = MarkdownIt("commonmark").enable("table").parse(md)
    kinds = {t.type for t in tokens} | {c.type for t in tokens for c in (t.children or ())}
    assert "image" not in kinds and "heading_open" not in kinds, md
    links = [c.attrs["href"] for t in tokens for c in (t.children or ()) if c.type == "link_open"]
    ours = [href for href in links if href.startswith("https://example.com/a")]
    assert len(ours) == len(code.views) and all(h.startswith("https://example.com/a%") for h in ours), links
    assert not any(ch.isspace() for href in links for ch in href)
    assert "\n\n" not in text_card(code, "en").split("Source")[1]  # the terminal shows escapes, not line breaks


def test_markdown_escaping_is_its_one_substitution_whatever_the_text():
    """:func:`~sphinx_llmstatus.render.markdown.esc` skips the whitespace substitution where the
    text's only spaces are single ones and escapes punctuation a character at a time (a flood's
    Markdown report spent most of its time in one substitution with a template): the same as
    the definition, on hostile and ordinary text alike."""
    import html
    import random

    from sphinx_llmstatus.render.markdown import esc
    from sphinx_llmstatus.render.text import terminal_safe

    def defined(text: str) -> str:
        out = re.sub(r"([\\`*_\[\]|~])", r"\\\1", html.escape(terminal_safe(re.sub(r"\s+", " ", text)), quote=True))
        return "\\" + out if out[:1] in ("#", "-", "+", "=", "!") else out

    pieces = ["a", " ", "  ", "\t", "\n", "\u2028", "\u202e", "\x1b]8;;", "\x9b", "\xa0", "\u3000", "\\", "`",
              "*", "_", "[", "]", "|", "~", "<", ">", "&", '"', "'", "#", "-", "!", "é", "\udcff", "LLM_FAILED"]
    rng = random.Random(20)
    texts = ["".join(rng.choices(pieces, k=rng.randint(0, 12))) for _ in range(5000)]
    texts += ["[ERROR] GE(42,python) [llm_datadist.cc:12] LinkLlmClusters failed, ret = 1343270921", 1343270921]
    for text in texts:
        assert esc(text) == defined(str(text)), repr(text)
