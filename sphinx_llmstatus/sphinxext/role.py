"""``:llm-status:`CODE``` and ``:llm-status:`title <CODE>```: a cross-reference to a code.

Accepts every form :func:`sphinx_llmstatus.registry.lookup` accepts. The
reference is resolved after reading (entry, table row, intersphinx, fallback
URL, in that order), so it works across pages, projects and parallel builds.
Kept lean on purpose: one ``literal`` per mention, marked with the code name
(``llmstatus_ref``); :mod:`.resolver` turns it into a link at write time
(see bench/bench_sphinx_roles.py).
"""

from __future__ import annotations

from typing import Any

from docutils import nodes
from sphinx.util.docutils import SphinxRole
from sphinx.util.nodes import split_explicit_title

from ..registry.lookup import UnknownStatusCode, lookup
from .diagnostics import Subtype, warn
from .domain import REF_ATTR, LLMDomain
from .state import get_registry, note_registry_dependency


class StatusRole(SphinxRole):
    """Role ``llm-status`` (also ``llm:status``)."""

    def run(self) -> tuple[list[nodes.Node], list[nodes.system_message]]:
        env = self.env
        text = self.text
        if "<" in text:
            has_title, title, target = split_explicit_title(text)
        else:
            has_title, title, target = False, text, text
        registry = get_registry(env)
        note_registry_dependency(env)
        # Fast path: a name as written in either API (most mentions). lookup() would
        # reach the same dict after normalising; skip its regexes.
        code = registry.get(target)
        if code is None:
            try:
                matches = lookup(target, registry)
            except UnknownStatusCode as exc:
                warn(exc.reason(), Subtype.unknown_code, location=self.get_location())
                return [nodes.literal(self.rawtext, title, classes=["llmstatus-unknown"])], []
            code = matches[0].code
            if len(matches) > 1:
                meanings = " or ".join(m.code.name for m in matches)
                warn(f"{target} is ambiguous ({meanings}); linking {code.name}. "
                     f"Write the name to choose.", Subtype.ambiguous, location=self.get_location())
        if not has_title and target != code.name:
            written = target.strip().upper()
            title = written if written in code.spellings else code.name
        # One literal per mention, nothing more: it is pickled, deep-copied and walked by
        # every transform until the write phase, where resolver.LocalStatusReferences
        # links it (or wraps it in a pending_xref for intersphinx and the fallback).
        # See bench/bench_sphinx_roles.py.
        literal = nodes.literal(title, title, classes=["llmstatus-code"])
        literal[REF_ATTR] = code.name
        literal["refdoc"] = env.docname
        if has_title:  # print formats name the code after a titled link (see printing.py)
            literal["llmstatus_target"] = code.name
            literal["classes"].append("llmstatus-titled")  # reads as text (llmstatus.css)
        return [literal], []


def setup_role(app: Any) -> None:
    role = StatusRole()
    LLMDomain.roles["status"] = role
    app.add_role("llm-status", role, override=True)
