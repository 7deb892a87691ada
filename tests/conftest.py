"""Shared fixtures: Sphinx's own testing fixtures and a small project factory."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

pytest_plugins = ("sphinx.testing.fixtures",)

ROOT = Path(__file__).resolve().parent.parent
SNIPPETS = ROOT / "docs" / "snippets"

BASE_CONF = """\
extensions = ["myst_parser", "sphinx_llmstatus"]
myst_enable_extensions = ["colon_fence"]
"""


@pytest.fixture
def project(tmp_path, make_app):
    """``project(files, confoverrides=..., buildername=...)`` -> a built SphinxTestApp.

    ``files`` maps relative paths to text; ``conf.py`` defaults to ``BASE_CONF``.
    """

    built = []

    def build(files: dict[str, str], buildername: str = "html", **kwargs):
        if built:  # one set of our directives in docutils' registries, as in sphinx-build
            built.pop().cleanup()
        files = {"conf.py": BASE_CONF, **files}
        for rel, text in files.items():
            path = tmp_path / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(textwrap.dedent(text), encoding="utf-8")
        app = make_app(buildername, srcdir=tmp_path, **kwargs)
        app.build()
        built.append(app)
        return app

    return build


@pytest.fixture
def rebuild(tmp_path, make_app):
    """``rebuild(previous_app, **kwargs)``: build ``tmp_path`` again in a new app.

    The previous app is cleaned up first so docutils' global registries hold
    one set of our directives and roles, as in a real ``sphinx-build`` run.
    """

    def build(previous, buildername: str = "html", **kwargs):
        previous.cleanup()
        app = make_app(buildername, srcdir=tmp_path, **kwargs)
        app.build()
        return app

    return build
