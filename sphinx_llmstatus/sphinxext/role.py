"""``:llm-status:`CODE``` and ``:llm-status:`title <CODE>```: a cross-reference to a code.

Accepts every form :func:`sphinx_llmstatus.registry.lookup` accepts and shows
what the author wrote (``1343270921`` stays a number; the link's hover title
names the code); ``~`` before the code (``:llm-status:`~1343270921```) shows
the code's name instead. The reference is resolved after reading (entry,
table row, intersphinx, fallback URL, in that order), so it works across
pages, projects and parallel builds.

Kept lean on purpose: ``:llm-status:`` leaves one ``literal`` per mention,
marked with the code name (``llmstatus_ref``); :mod:`.resolver` turns it into
a link at write time (see bench/bench_sphinx_roles.py). The domain role
``:llm:status:`` (also reached by ``:external+inv:llm:status:``) returns a
standard ``pending_xref``, which intersphinx can mark for one inventory.
Warnings about a mention (ambiguous number, unknown code, nothing to link)
are given when it is resolved, at the mention's own line.
"""

from __future__ import annotations

from docutils import nodes
from sphinx.addnodes import pending_xref
from sphinx.util.docutils import SphinxRole
from sphinx.util.nodes import split_explicit_title

from ..registry.lookup import UnknownStatusCode, lookup
from .diagnostics import Subtype, warn
from .domain import REF_ATTR, LLMDomain
from .resolver import AMBIGUOUS_ATTR
from .state import get_registry, note_registry_dependency


class StatusRole(SphinxRole):
    """Role ``llm-status`` and, in the domain, ``llm:status``."""

    def run(self) -> tuple[list[nodes.Node], list[nodes.system_message]]:
        env = self.env
        text = self.text
        if "<" in text:
            has_title, title, target = split_explicit_title(text)
        else:
            has_title, title, target = False, text, text
        show_name = not has_title and target[:1] == "~"
        if show_name:
            target = target[1:].strip()
        if not target.strip():  # `~`, `x <>`: nothing to look up; one located warning, the text kept
            warn(f"empty LLM status code in {self.rawtext!r}", Subtype.unknown_code, location=self.get_location())
            return [nodes.literal(self.rawtext, text, classes=["llmstatus-code", "llmstatus-unknown"])], []
        registry = get_registry(env)
        note_registry_dependency(env)
        # Fast path: a name as written in either API (most mentions). lookup() would
        # reach the same dict after normalising; skip its regexes.
        code = registry.get(target)
        ambiguous = None
        if code is None:
            try:
                matches = lookup(target, registry)
            except UnknownStatusCode:
                matches = ()  # warned when resolved: an inventory may still have it
            if matches:
                code = matches[0].code
                if len(matches) > 1:
                    meanings = " or ".join(m.code.name for m in matches)
                    ambiguous = (f"{target} is ambiguous ({meanings}); linking {code.name}. "
                                 f"Write the name to choose.")
        name = code.name if code is not None else target
        if not has_title:
            title = name if show_name else target
        domain: LLMDomain = env.get_domain("llm")  # type: ignore[assignment]
        domain.note_mention(env.docname, name)
        # One literal per mention, nothing more: it is pickled, deep-copied and walked by
        # every transform until the write phase. See bench/bench_sphinx_roles.py.
        literal = nodes.literal(self.rawtext, title, classes=["llmstatus-code"])
        if code is None:
            literal["classes"].append("llmstatus-unknown")
        if has_title:
            literal["llmstatus_target"] = name  # print formats name the code after a title (printing.py)
            literal["classes"].append("llmstatus-titled")  # the author's words read as prose (llmstatus.css)
        if self.name != "llm-status":  # the domain role: a standard cross-reference
            xref = pending_xref(self.rawtext, literal, refdomain="llm", reftype="status",
                                reftarget=name, refexplicit=title != name, refwarn=True)
            self.set_source_info(xref)
            if ambiguous:
                literal[AMBIGUOUS_ATTR] = ambiguous
            return [xref], []
        literal[REF_ATTR] = name
        if ambiguous:
            literal[AMBIGUOUS_ATTR] = ambiguous
        return [literal], []
