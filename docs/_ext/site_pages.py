"""Site-only extension: write the generated pages of the troubleshooting site before reading.

Generated into ``docs/codes/`` and ``docs/_generated/`` (both git-ignored):
one page per status code (stable URL ``codes/<NAME>.html``) and copies of
the authoring snippets for live rendering. Everything comes from the
packaged registry, so the site cannot drift from it.
"""

from __future__ import annotations

import re
from pathlib import Path

from sphinx.application import Sphinx

from sphinx_llmstatus.registry import default_registry
from sphinx_llmstatus.registry.model import StatusCode

DOCS = Path(__file__).resolve().parent.parent


def log_lines(code: StatusCode) -> list[str]:
    """How the code looks in real output (formats from FACTS.md, "How the codes appear")."""
    lines: list[str] = []
    if code.python is not None:
        name = code.python.name
        lines.append(f"llm_datadist.status.LLMException: [link] failed, error code is LLMStatusCode.{name}, ...")
        lines.append(f"<LLMStatusCode.{name}: {code.value}>")
    if code.value >= 0:
        lines.append(f"LinkLlmClusters failed, ret = {code.value}")
        lines.append(f"PullKvBlocks failed, layer = 3, role = decoder, ret = {code.value:x}")
    if code.value == 0xFFFFFFFF:
        lines.append("[ERROR] GE(1234,python):2025-01-01-00:00:00.000.000 ... ErrorNo: 4294967295(failed)")
    if code.value == -1 or code.value == 0xFFFFFFFF:
        lines.append("ret = -1")
    return lines


def code_page(code: StatusCode) -> str:
    spellings = ", ".join(f"`{s}`" for s in code.spellings)
    numbers = [str(code.value)]
    if code.hex:
        numbers += [code.hex, code.hex[2:].lower(), code.short_hex or ""]
    log = "\n".join(log_lines(code))
    return f"""---
orphan: false
---

# {code.name}

```{{llm-status}} {code.name}
```

**Also written as:** {spellings}; {", ".join(f"`{n}`" for n in numbers if n)}.

## How it looks in logs

```text
{log}
```

`llmstatus {code.name}` prints this entry in a terminal; `%llmstatus {code.name}` in a notebook.
"""


def codes_index(codes: list[StatusCode]) -> str:
    toctree = "\n".join(code.name for code in codes)
    return f"""# Every status code

One page per code; the URL is the code name, so
`codes/LLM_LINK_FAILED.html` is the page of {{llm-status}}`LLM_LINK_FAILED`.

```{{llm-status}}
:columns: name, python, cpp, hex, decimal, recoverable, meaning
```

```{{toctree}}
:maxdepth: 1
:hidden:

{toctree}
```
"""


def no_index(snippet: str) -> str:
    """The snippet with ``:no-index:`` added to single-code entries (the site documents each code once)."""
    rst = re.sub(r"^(\.\. llm-status:: \S+\n)", r"\1   :no-index:\n", snippet, flags=re.M)
    return re.sub(r"^(```\{llm-status\} \S+\n)", r"\1:no-index:\n", rst, flags=re.M)


def write_if_changed(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    if not path.exists() or path.read_text(encoding="utf-8") != text:
        path.write_text(text, encoding="utf-8")


def generate(app: Sphinx) -> None:
    codes = list(default_registry())
    out = DOCS / "codes"
    wanted = {f"{c.name}.md" for c in codes} | {"index.md"}
    for stale in out.glob("*.md"):
        if stale.name not in wanted:
            stale.unlink()
    write_if_changed(out / "index.md", codes_index(codes))
    for code in codes:
        write_if_changed(out / f"{code.name}.md", code_page(code))
    for snippet in (DOCS / "snippets").glob("*/*"):
        target = DOCS / "_generated" / "snippets" / snippet.parent.name / snippet.name
        text = snippet.read_text(encoding="utf-8")
        write_if_changed(target, no_index(text) if "no-index" not in text else text)


def setup(app: Sphinx) -> dict:
    app.connect("config-inited", lambda app, config: generate(app))
    return {"parallel_read_safe": True, "parallel_write_safe": True}
