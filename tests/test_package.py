"""The package as others get it: built by its own backend, installed without extras into a fresh venv.

The wheel of the core gives a working ``llmstatus`` and a Sphinx extension for reST without
``myst-parser``; the metadata has no placeholder URL; LICENSE is in the wheel, LICENSE and
CHANGELOG.md in the sdist. Needs the network (or pip's cache) for the build backend and the
core's dependencies, as ``make test`` does for its own install.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tarfile
import tomllib
import venv
import zipfile
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parent.parent


def test_the_metadata_names_no_placeholder_and_the_core_needs_no_myst():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert not any(word in text for word in ("example.invalid", "example.com", "TODO", "XXX"))
    assert not any(dep.startswith(("myst-parser", "mkdocs", "mcp", "ipython")) for dep in project["dependencies"])
    assert "myst-parser>=4" in project["optional-dependencies"]["myst"]
    assert project["license"] == "MIT" and (ROOT / "LICENSE").read_text().startswith("MIT License")
    assert (ROOT / "CHANGELOG.md").read_text(encoding="utf-8").startswith("# Changelog")
    versions = {c.rsplit(" ", 1)[-1] for c in project["classifiers"] if c.startswith("Programming Language :: Python :: 3.")}
    assert versions == {"3.11", "3.12", "3.13"}


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """``(venv python, dist directory)``: the sdist and wheel built by flit_core, the wheel installed."""
    where = tmp_path_factory.mktemp("package")
    env_dir, dist = where / "venv", where / "dist"
    dist.mkdir()
    venv.EnvBuilder(with_pip=True).create(env_dir)
    python = str(env_dir / "bin" / "python")
    pip = [python, "-m", "pip", "install", "-q", "--disable-pip-version-check"]
    try:
        subprocess.run([*pip, "flit_core>=3.12,<4"], check=True, capture_output=True, timeout=600)
    except subprocess.CalledProcessError as exc:
        pytest.skip(f"cannot install flit_core (no network or index?): {exc.stderr.decode()[-300:]}")
    build = ("import sys, flit_core.buildapi as b; d = sys.argv[1]; "
             "print(b.build_wheel(d)); print(b.build_sdist(d))")
    subprocess.run([python, "-c", build, str(dist)], check=True, cwd=ROOT, capture_output=True, timeout=300)
    (wheel,) = dist.glob("*.whl")
    subprocess.run([*pip, str(wheel)], check=True, capture_output=True, timeout=900)
    return python, dist


def test_the_wheel_carries_the_license_and_no_placeholder(installed):
    _python, dist = installed
    (wheel,) = dist.glob("*.whl")
    with zipfile.ZipFile(wheel) as zf:
        names = zf.namelist()
        (meta,) = [n for n in names if n.endswith(".dist-info/METADATA")]
        metadata = zf.read(meta).decode("utf-8")
    assert any(n.endswith(".dist-info/licenses/LICENSE") for n in names)
    assert "sphinx_llmstatus/registry/data/registry.jsonl" in names
    assert "example.invalid" not in metadata and "License-Expression: MIT" in metadata
    myst = [line for line in metadata.splitlines() if line.startswith("Requires-Dist: myst-parser")]
    assert myst and all("extra ==" in line for line in myst)


def test_the_sdist_carries_license_and_changelog(installed):
    _python, dist = installed
    (sdist,) = dist.glob("*.tar.gz")
    with tarfile.open(sdist) as tf:
        names = {n.split("/", 1)[1] for n in tf.getnames() if "/" in n}
    assert {"LICENSE", "CHANGELOG.md", "pyproject.toml"} <= names


def test_without_extras_the_command_and_a_rest_build_work_and_myst_is_absent(installed, tmp_path):
    python, _dist = installed
    bindir = Path(python).parent
    env = {**os.environ, "PATH": f"{bindir}{os.pathsep}{os.environ.get('PATH', '')}"}
    env.pop("PYTHONPATH", None)
    out = subprocess.run([str(bindir / "llmstatus"), "0x5010B009"], capture_output=True, text=True, env=env,
                         timeout=120, cwd=tmp_path)
    assert out.returncode == 0 and out.stdout.startswith("LLM_LINK_FAILED"), out.stderr
    shown = subprocess.run([python, "-m", "pip", "show", "myst-parser"], capture_output=True, text=True, env=env)
    assert shown.returncode != 0 and "not found" in shown.stderr.lower()
    src = tmp_path / "src"
    src.mkdir()
    (src / "conf.py").write_text('extensions = ["sphinx_llmstatus"]\n', encoding="utf-8")
    (src / "index.rst").write_text("Codes\n=====\n\n.. llm-status:: LLM_LINK_FAILED\n\nSee :llm-status:`0x5010B009`.\n",
                                   encoding="utf-8")
    build = subprocess.run([python, "-m", "sphinx", "-W", "-q", "-b", "html", str(src), str(tmp_path / "out")],
                           capture_output=True, text=True, env=env, timeout=300, cwd=tmp_path)
    assert build.returncode == 0, build.stderr
    assert "LLM_LINK_FAILED" in (tmp_path / "out" / "index.html").read_text(encoding="utf-8")
    assert sys.executable != python
