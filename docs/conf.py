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
locale_dirs: list[str] = []
nitpicky = True
