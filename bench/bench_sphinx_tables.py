"""Cost of ``.. llm-status-table::`` against the same table written by hand as ``list-table``.

Generates two projects in a temporary directory, PAGES pages each:

* ``directive``: every page holds ``.. llm-status-table::`` (all codes, the
  default columns: code, hex, decimal, recoverable, meaning);
* ``list-table``: every page holds the same table as reST ``list-table``
  (names and numbers as literals, recoverable once or per API as text,
  meanings with their backticked names as literals), which is what an author would write
  without the extension.

Fresh ``sphinx-build -E`` HTML builds alternate; CPU time (user+sys) of each
child is read with ``os.wait4``. Prints every pair and the median ratio
directive/list-table (issue 5 bar: not slower, i.e. at most 1.00).

Run: ``.venv/bin/python bench/bench_sphinx_tables.py [--pairs 5] [--pages 100]``
"""

from __future__ import annotations

import argparse
import re
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_sphinx_roles import CONF, compare  # noqa: E402

from sphinx_llmstatus.registry import default_registry  # noqa: E402

_API = {"python": "Python", "cpp": "C++"}
_BADGE = {"yes": "recoverable", "no": "not recoverable", "n/a": "not applicable",
          "unknown": "not documented"}


def _literal_text(text: str) -> str:
    return re.sub(r"`([^`]+)`", r"``\1``", text)


def list_table() -> str:
    """The default code table as an author would write it in reST (same cells as the directive's)."""
    lines = [".. list-table::", "   :header-rows: 1", "", "   * - Code", "     - Number",
             "     - Recoverable", "     - Meaning"]
    for code in default_registry().in_family("llm_datadist"):
        views = code.views
        name = [f"``{code.name}``"]
        if any(v.name != code.name for v in views):
            name += [f"{_API[v.api]}: ``{v.name}``" for v in views]
        if len(views) == 1:
            name.append(f"{_API[views[0].api]} only")
        verdicts = {v.recoverable for v in views}
        recoverable = ([_BADGE[verdicts.pop()]] if len(verdicts) == 1
                       else [f"{_API[v.api]} {_BADGE[v.recoverable]}" for v in views])
        meanings = {v.meaning.en for v in views}
        if len(meanings) == 1:
            meaning = [_literal_text(meanings.pop())]
        else:
            meaning = [f"**{_API[v.api]}**: {_literal_text(v.meaning.en)}" for v in views]
        number = f"``{code.hex}`` ``{code.value}``" if code.hex else f"``{code.value}``"
        lines += [f"   * - {_paragraphs(name)}", f"     - {number}",
                  f"     - {_paragraphs(recoverable)}", f"     - {_paragraphs(meaning)}"]
    return "\n".join(lines) + "\n"


def _paragraphs(texts: list[str]) -> str:
    return "\n\n       ".join(texts)


def write_project(root: Path, pages: int, directive: bool) -> None:
    root.mkdir(parents=True, exist_ok=True)
    (root / "conf.py").write_text(CONF, encoding="utf-8")
    toc = "\n".join(f"   p{i}" for i in range(pages))
    (root / "index.rst").write_text(f"Bench\n=====\n\n.. toctree::\n\n{toc}\n", encoding="utf-8")
    table = ".. llm-status-table::\n" if directive else list_table()
    for i in range(pages):
        title = f"Table {i}"
        (root / f"p{i}.rst").write_text(f"{title}\n{'=' * len(title)}\n\n{table}", encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=5, help="alternating build pairs (default 5)")
    parser.add_argument("--pages", type=int, default=100)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="bench-tables-") as tmp:
        work = Path(tmp)
        write_project(work / "directive", args.pages, directive=True)
        write_project(work / "list-table", args.pages, directive=False)
        print(f"{args.pages} pages x one table of {len(default_registry().in_family('llm_datadist'))} codes, fresh html builds (-E), "
              f"CPU = user+sys of the sphinx-build child")
        compare("llm-status-table vs list-table", work / "directive", work / "list-table", work, args.pairs)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
