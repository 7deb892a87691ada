"""Text of the per-code pages (``docs/codes/<NAME>.md``) and of the codes index.

The log lines are built from the real output formats listed in
``shared/FACTS.md`` ("How the codes appear in real output"); the test suite
checks that the package's own log scanner finds the page's code in each one,
so the examples cannot drift from what the scanner recognises.
"""

from __future__ import annotations

import site_i18n
from site_i18n import _

from sphinx_llmstatus.registry.model import LLM_DATADIST, Registry, StatusCode

_API = {"python": "Python", "cpp": "C++"}

FAILED = 0xFFFFFFFF

#: Python exception prefixes seen in real messages, keyed by the function the remedy names.
_PY_PREFIX = {"link_clusters": "[link]", "unlink_clusters": "[unlink]", "pull_blocks": "[pull_blocks]",
              "pull_cache": "[pull_cache]", "LLMDataDist": "[LLMDataDist.init]",
              "switch_role": "[switch_role]"}
_LINK_FUNCS = {"link_clusters", "unlink_clusters"}


def _py_prefix(code: StatusCode) -> str:
    funcs = code.python.functions if code.python else ()
    for func in funcs:
        if func in _PY_PREFIX:
            return _PY_PREFIX[func]
    return "[pull_blocks]"


def _cpp_func(code: StatusCode) -> str:
    funcs = code.cpp.functions if code.cpp else ()
    return funcs[0] if funcs else "PullKvBlocks"


def log_examples(code: StatusCode) -> list[tuple[str, str]]:
    """``(where it comes from, line)`` pairs showing the code as real programs print it."""
    out: list[tuple[str, str]] = []
    py = code.python
    if py is not None:
        member = f"LLMStatusCode.{py.name}"
        if not code.is_success:
            out.append((_("Python, `str(exc)` of the `LLMException`"),
                        f"{_py_prefix(code)} failed, error code is {member}, check the plog for details."))
        out.append((_("Python, `repr()` of the member (also how a list of statuses is logged)"),
                    f"<{member}: {code.value}>"))
        funcs = set(py.functions)
        if funcs & _LINK_FUNCS or code.is_success:
            out.append((_("Python, the per-cluster list returned by `link_clusters` / `unlink_clusters`"),
                        f"ret = {member}, cluster_rets = [<LLMStatusCode.LLM_SUCCESS: 0>, <{member}: {code.value}>]"
                        if not code.is_success else
                        "ret = LLMStatusCode.LLM_SUCCESS, cluster_rets = [<LLMStatusCode.LLM_SUCCESS: 0>]"))
    elif code.value >= 0:
        out.append((_("Python: no member for this number, so the exception names `LLM_FAILED`"),
                    "[pull_blocks] failed, error code is LLMStatusCode.LLM_FAILED, check the plog for details."))
    if code.cpp is not None and not code.is_success:
        out.append((_("C++, the status printed in decimal (as the vendor samples do)"),
                    f"{_cpp_func(code)} failed, ret = {code.value}"))
        out.append((_("C++, the status printed as bare lower-case hex"),
                    f"{_cpp_func(code)} failed, ret = {code.value:x}"))
    if code.value == FAILED:
        out.append((_("GE host log (plog)"),
                    "[ERROR] GE(12345,python):2026-01-01-00:00:00.000.000 [llm_datadist.cc:120] "
                    "ErrorNo: 4294967295(failed) LinkLlmClusters failed."))
    return out


def _logs_section(code: StatusCode) -> str:
    parts = ["## " + _("How it looks in logs"), ""]
    for where, line in log_examples(code):
        parts += [f"{where}:", "", "```text", line, "```", ""]
    if code.value in (-1, FAILED):
        parts += [_("A bare `-1` is ambiguous: {llm-status}`LLM_UNKNOWN_ERROR` in Python, "
                    "{llm-status}`LLM_FAILED` (0xFFFFFFFF) read as a signed 32-bit integer in C++."), ""]
    return "\n".join(parts)


def code_page(code: StatusCode, registry: Registry) -> str:
    """MyST source of ``codes/<NAME>.md``; the entry itself is the extension's directive."""
    family = registry.families.get(code.family)
    names = ", ".join(f"`{s}`" for s in code.spellings)
    numbers = ", ".join(f"`{n}`" for n in code.number_forms) or "—"
    apis = [f"{_API[v.api]} `{family.spelled(v) if family else v.name}`" for v in code.views]
    labels = {"names": _("Names:"), "numbers": _("Numbers:"), "link": _("Link to this entry:")}
    more = _("`llmstatus {name}` prints this entry in a terminal ({{doc}}`../cli`); `%llmstatus {name}` "
             "in a notebook ({{doc}}`../notebook`). {{doc}}`../python-vs-cpp` lists where the two APIs differ.")
    return f"""# {code.name}

```{{llm-status}} {code.name}
```

- **{labels["names"]}** {names} ({"; ".join(apis)}).
- **{labels["numbers"]}** {numbers}.
- **{labels["link"]}** `codes/{code.name}.html#{code.name}`.

{_logs_section(code) if code.family == LLM_DATADIST else ""}
{more.format(name=code.name)}
"""


def codes_index(registry: Registry) -> str:
    toctree = "\n".join(code.name for code in registry)
    title = _("Every status code")
    intro = _("One page per code; the URL is the code name, so `codes/LLM_LINK_FAILED.html#LLM_LINK_FAILED` "
              "is the entry of {llm-status}`LLM_LINK_FAILED`.")
    lang = site_i18n.lang()
    sections = []
    for family in registry.families.values():
        if family.key == LLM_DATADIST or not registry.in_family(family.key):
            continue
        # The name and the number are what a log shows; a layer's API spellings and recoverability
        # (mostly undocumented) are on each code's page, which keeps long names and the meaning in view.
        columns = "name, meaning" if family.string_codes else "name, decimal, meaning"
        sections.append(f"""## {family.label.get(lang)}

{family.about.get(lang)}

```{{llm-status-table}}
:family: {family.key}
:columns: {columns}
```
""")
    neighbours = _("The layers around LLM DataDist whose codes KV-transfer incidents show. Their codes never "
                   "make `llmstatus scan` fail; a scan reports each with its layer, meaning and first check.")
    return f"""# {title}

{intro}

## LLM DataDist

```{{llm-status}}
:columns: name, python, cpp, hex, decimal, recoverable, meaning
```

{"## " + _("Neighbouring layers") if sections else ""}

{neighbours if sections else ""}

{"".join(sections)}

```{{toctree}}
:maxdepth: 1
:hidden:

{toctree}
```
"""
