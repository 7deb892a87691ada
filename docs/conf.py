"""Sphinx configuration of the sphinx-llmstatus troubleshooting site."""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE / "_ext"))

import sphinx_llmstatus  # noqa: E402

project = "sphinx-llmstatus"
author = "sphinx-llmstatus developers"
copyright = "2026, sphinx-llmstatus developers"
release = version = sphinx_llmstatus.__version__

extensions = [
    "myst_parser",
    "sphinx_llmstatus",
    "site_pages",  # docs/_ext/site_pages.py: per-code pages, generated tables, captured CLI/notebook output
]
# catalog.json (+ its JSON Schema) and catalog.csv beside the pages: every code, en and zh, for tools.
llmstatus_catalog = True
# llms.txt, llms-full.txt and codes/NAME.md (each code's entry as Markdown) for agents.
llmstatus_llms_txt = True
myst_enable_extensions = ["colon_fence", "deflist"]
myst_heading_anchors = 2
source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
# _generated/ holds fragments pulled in by {include}; examples/ and notebooks/ are inputs of the build.
exclude_patterns = ["_build", "snippets", "_generated", "examples", "notebooks", "Thumbs.db", ".DS_Store"]

html_theme = "furo"
html_title = "LLM DataDist status codes"
html_static_path = ["_static"]
html_css_files = ["site.css"]  # reST/MyST sources side by side in the authoring guide
html_theme_options = {"source_repository": "", "navigation_with_keys": True}

language = "en"
# `make site-zh` builds with -D language=zh_CN: the pages' own text comes from
# locales/zh_CN/LC_MESSAGES/site.po (one catalog for the site; `make site-pot` refreshes it),
# the generated pages from generated.po beside it (docs/_ext/site_i18n.py),
# the extension's labels and the registry's text from the package.
locale_dirs = ["locales"]
gettext_compact = "site"
gettext_uuid = False
gettext_location = True
nitpicky = True

# PDF (`make pdf`, `make pdf-zh`): xelatex for both languages, since pages such as the
# authoring guide show Chinese registry text (`:lang: zh`) in the English edition too.
# Fonts: DejaVu for Latin text (fonts-dejavu-core), Noto CJK for Chinese (fonts-noto-cjk),
# xeCJK for Chinese line breaking (texlive-lang-chinese); .ci/run installs them.
# HyphenChar=None: code is never hyphenated (`LinkLlm-Clusters` reads as a different name).
latex_engine = "xelatex"
latex_use_xindy = False
latex_documents = [("index", "sphinx-llmstatus.tex", "LLM DataDist status codes", author, "manual")]
latex_elements = {
    "fontpkg": r"""
\setmainfont{DejaVu Serif}[Scale=0.92]
\setsansfont{DejaVu Sans}[Scale=0.92]
\setmonofont{DejaVu Sans Mono}[Scale=0.85, HyphenChar=None]
\usepackage{xeCJK}
\setCJKmainfont{Noto Serif CJK SC}
\setCJKsansfont{Noto Sans CJK SC}
\setCJKmonofont{Noto Sans Mono CJK SC}
""",
    # Tables one size smaller: a code table holds names of up to 31 characters next to the meaning.
    # xurl: a printed URL may break anywhere (a 40-digit commit hash in a source link is no word).
    "preamble": r"\apptocmd{\sphinxattablestart}{\small}{}{}\apptocmd{\sphinxatlongtablestart}{\small}{}{}"
                r"\usepackage{xurl}",
    "papersize": "a4paper",
    "pointsize": "10pt",
    # Sphinx's own table style, without zebra rows: badges and long names read better plain.
    "sphinxsetup": "TableRowColorOdd={gray}{1}, TableRowColorEven={gray}{1}",
}
