"""Long code names in titles wrap after an underscore on a narrow screen, never mid-word.

A phone shows ``LLM_LINK_FAIL`` / ``ED`` as a page title when the theme lets headings break
"anywhere" (furo does), and overflows the page when it does not. A ``<wbr>`` after each
underscore of a code name gives the browser better places; it is no character, so copying the
title, the search index and every builder but HTML stay as they were.
"""

from __future__ import annotations

import re
from typing import Any

from sphinx.application import Sphinx

#: Page headings and our entries' signatures: where names are set large.
_TITLED = re.compile(r"(<h[1-6][^>]*>.*?</h[1-6]>|<dt class=\"sig sig-object llm\".*?</dt>)", re.S)
#: A text run between tags (never a tag or an attribute).
_TEXT = re.compile(r">([^<>]*_[^<>]*)<")
#: An upper-case name with underscores (``LLM_LINK_FAILED``, ``ACL_ERROR_RT_AICORE_TIMEOUT``).
_NAME = re.compile(r"\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b")


def break_names(html: str) -> str:
    """``html`` with a ``<wbr>`` after each underscore of the code names in its headings and
    entry signatures."""

    def in_text(m: re.Match[str]) -> str:
        return ">" + _NAME.sub(lambda n: n.group(0).replace("_", "_<wbr>"), m.group(1)) + "<"

    return _TITLED.sub(lambda m: _TEXT.sub(in_text, m.group(0)), html)


def _page_context(app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: Any) -> None:
    body = context.get("body")
    if isinstance(body, str) and "_" in body:
        context["body"] = break_names(body)


def setup_breaks(app: Sphinx) -> None:
    app.connect("html-page-context", _page_context)
