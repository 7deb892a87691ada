"""Real output for the CLI and notebook guides, captured while the site builds.

* CLI: each example in :data:`CLI_EXAMPLES` runs as ``python -m sphinx_llmstatus``
  in ``docs/examples/`` (a real subprocess, stdout and stderr merged, exit status
  kept) and becomes ``_generated/cli/<id>.md``.
* Notebook: ``docs/notebooks/llmstatus.ipynb`` (inputs only, in git) is executed
  with nbclient on a real ipykernel; each cell becomes
  ``_generated/notebook/<cell id>.md``: its source, then its outputs, HTML
  outputs as raw HTML for HTML builders and their ``text/plain`` form elsewhere.

Outputs are cached under ``_generated/`` keyed on a hash of the inputs, the
language and the package's source files, so an unchanged build does not start
a kernel or 8 processes again; any change to the package reruns them.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from sphinx.errors import ExtensionError

DOCS = Path(__file__).resolve().parent.parent
PACKAGE = DOCS.parent / "sphinx_llmstatus"
EXAMPLES = DOCS / "examples"
NOTEBOOK = DOCS / "notebooks" / "llmstatus.ipynb"
OUT = DOCS / "_generated"

#: (id, arguments after ``llmstatus``), shown in this order on the CLI page.
CLI_EXAMPLES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("lookup-name", ("LLM_LINK_FAILED",)),
    ("lookup-numbers", ("5010b009", "-1")),
    ("lookup-json", ("--json", "LLM_TIMEOUT")),
    ("lookup-full", ("--full", "LLM_UNLINK_FAILED")),
    ("not-llm", ("0x50100001",)),
    ("typo", ("LLM_LINK_FAILD",)),
    ("search", ("search", "link", "network")),
    ("list", ("list", "--api", "cpp", "--recoverable", "no")),
    ("scan", ("scan", "decode.log")),
    ("scan-summary", ("scan", "--summary", "decode.log")),
    ("scan-diagnosis", ("scan", "--summary", "link-refused.log")),
    ("scan-deployment", ("scan", "-r", "--summary", "deployment")),
    ("merge", ("merge", "prefill-0.json", "decode-1.json")),
)
#: Per-node reports the ``merge`` example joins: ``llmstatus scan -r --summary --json --host NODE``
#: of each node directory of ``docs/examples/deployment``, written to ``_generated/cli/reports``.
NODES = ("prefill-0", "decode-1")
REPORTS = OUT / "cli" / "reports"


def _fingerprint(*parts: str) -> str:
    h = hashlib.sha256(Path(__file__).read_bytes())
    for part in parts:
        h.update(part.encode())
    for path in sorted(PACKAGE.rglob("*")):
        if path.suffix in {".py", ".toml", ".json", ".mo"} and "__pycache__" not in path.parts:
            h.update(str(path.relative_to(PACKAGE)).encode())
            h.update(path.read_bytes())
    return h.hexdigest()


def _cached(name: str, key: str) -> bool:
    stamp = OUT / name / ".fingerprint"
    return stamp.exists() and stamp.read_text() == key


def _stamp(name: str, key: str) -> None:
    (OUT / name / ".fingerprint").write_text(key)


def _locale_env(language: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("LC_", "LANG"))}
    env.update(NO_COLOR="1", COLUMNS="100", PYTHONIOENCODING="utf-8",
               LANG="zh_CN.UTF-8" if language.startswith("zh") else "C.UTF-8")
    return env


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    if not path.exists() or path.read_text(encoding="utf-8") != text:
        path.write_text(text, encoding="utf-8")


def _fence(text: str, lang: str = "text") -> str:
    ticks = "`" * max(3, max((len(r) for r in text.split("\n") if set(r) == {"`"}), default=0) + 1)
    return f"{ticks}{lang}\n{text.rstrip()}\n{ticks}"


def capture_cli(language: str) -> None:
    """Run every :data:`CLI_EXAMPLES` command and write its fragment (cached)."""
    key = _fingerprint(language, repr(CLI_EXAMPLES),
                       *(p.read_text() for p in sorted(EXAMPLES.rglob("*")) if p.is_file()))
    if _cached("cli", key):
        return
    env = _locale_env(language)
    REPORTS.mkdir(parents=True, exist_ok=True)
    for node in NODES:  # what each node's own scan writes (docs/cli.md shows the commands)
        report = subprocess.run([sys.executable, "-m", "sphinx_llmstatus", "scan", "-r", "--summary", "--json",
                                 "--host", node, f"deployment/{node}"], cwd=EXAMPLES, env=env,
                                stdout=subprocess.PIPE, timeout=60, check=False)
        (REPORTS / f"{node}.json").write_bytes(report.stdout)

    def run(example: tuple[str, tuple[str, ...]]) -> tuple[str, str]:
        ident, args = example
        cwd = REPORTS if args[0] == "merge" else EXAMPLES
        proc = subprocess.run([sys.executable, "-m", "sphinx_llmstatus", *args], cwd=cwd, env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=60)
        if "Traceback (most recent call last)" in proc.stdout:  # the command promises one-line errors
            raise ExtensionError(f"llmstatus {' '.join(args)} crashed:\n{proc.stdout}")
        shown = "$ llmstatus " + " ".join(args) + "\n" + proc.stdout.rstrip()
        shown += f"\n$ echo $?\n{proc.returncode}"
        return ident, _fence(shown, "console")

    with ThreadPoolExecutor(max_workers=4) as pool:
        for ident, text in pool.map(run, CLI_EXAMPLES):
            _write(OUT / "cli" / f"{ident}.md", text + "\n")
    _stamp("cli", key)


def _outputs_md(outputs: list[dict]) -> list[str]:
    parts: list[str] = []
    for out in outputs:
        kind = out["output_type"]
        if kind == "stream":
            parts.append(_fence(out["text"]))
        elif kind in ("execute_result", "display_data"):
            data = out["data"]
            plain = data.get("text/plain", "")
            if "text/html" in data:
                parts.append(_fence(data["text/html"], "{raw} html"))
                if plain:
                    inner = _fence(plain)
                    outer = "`" * (len(inner) - len(inner.lstrip("`")) + 1)
                    parts.append(f"{outer}{{only}} not html\n{inner}\n{outer}")
            elif plain:
                parts.append(_fence(plain))
        elif kind == "error":
            parts.append(_fence("\n".join(out["traceback"])))
    return parts


def execute_notebook(language: str) -> None:
    """Execute :data:`NOTEBOOK` on a real kernel and write one fragment per cell (cached)."""
    source = NOTEBOOK.read_text(encoding="utf-8")
    key = _fingerprint(language, source)
    if _cached("notebook", key):
        return
    import nbformat
    from nbclient import NotebookClient
    from nbclient.exceptions import CellExecutionError

    nb = nbformat.reads(source, as_version=4)
    client = NotebookClient(nb, timeout=120, kernel_name="python3", allow_errors=False,
                            resources={"metadata": {"path": str(EXAMPLES)}})
    try:  # the kernel's environment sets the magic's language, as a user's locale would
        client.execute(env=_locale_env(language), stderr=subprocess.DEVNULL)
    except CellExecutionError as exc:
        raise ExtensionError(f"docs/notebooks/llmstatus.ipynb: a cell failed:\n{exc}") from None
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        text = "\n\n".join([_fence(cell.source, "ipython"), *_outputs_md(cell.get("outputs", []))])
        _write(OUT / "notebook" / f"{cell.id}.md", text + "\n")
    _write(OUT / "notebook" / "executed.ipynb", nbformat.writes(nb))
    _stamp("notebook", key)


def capture_all(language: str) -> None:
    """Both captures, the kernel and the CLI processes running at the same time."""
    with ThreadPoolExecutor(max_workers=2) as pool:
        jobs = [pool.submit(capture_cli, language), pool.submit(execute_notebook, language)]
        for job in jobs:
            job.result()


__all__ = ["CLI_EXAMPLES", "capture_all", "capture_cli", "execute_notebook"]
