"""``.. llm-status:: CODE``: one code's entry, the target that roles link to.

Without an argument the same directive renders a code table (see
:mod:`.table`), so authors need one name for both.
"""

from __future__ import annotations

import re
from typing import ClassVar

from docutils import nodes
from sphinx import addnodes
from sphinx.directives import ObjectDescription
from sphinx.util.typing import OptionSpec

from ..registry.lookup import UnknownStatusCode, lookup
from ..registry.model import StatusCode
from ..view.code import headline
from .config import settings
from .content import Renderer
from .details import SECTIONS, details
from .diagnostics import Subtype, warn
from .domain import LLMDomain
from .labels import N_, label
from .options import api_option, lang_option, option, sections_option
from .state import doc_lang, get_registry, note_registry_dependency
from .table import TABLE_OPTIONS, render_table

#: Spellings used as element ids as they are (``page.html#LLM_LINK_FAILED``); anything else is never an id.
_SAFE_ID = re.compile(r"^[A-Za-z][A-Za-z0-9_]*$")
_API_LABEL = {"python": "Python", "cpp": "C++"}


class StatusDirective(ObjectDescription[str]):
    """One code's entry: names per API, value, recoverable, meaning, remedy, related, source.

    Options: ``:api: python|cpp|both``, ``:lang: en|zh``, ``:sections:`` (which of
    causes, settings, frameworks, reports to show; default all; ``none``),
    ``:no-index:`` (``:noindex:``), ``:no-index-entry:``, ``:no-contents-entry:``.
    The body, if any, is parsed as the author's own notes below the generated content.
    """

    required_arguments = 0
    optional_arguments = 1
    final_argument_whitespace = True
    has_content = True
    option_spec: ClassVar[OptionSpec] = {
        **ObjectDescription.option_spec,
        **TABLE_OPTIONS,
        "api": api_option,
        "lang": lang_option,
        "sections": sections_option,
    }

    code: StatusCode | None = None

    def run(self) -> list[nodes.Node]:
        note_registry_dependency(self.env)
        if not self.arguments:
            return render_table(self)
        table_only = [f":{o}:" for o in TABLE_OPTIONS if o in self.options]
        if table_only:
            warn(f"{', '.join(table_only)} only apply to a code table (.. llm-status:: without a code); "
                 f"ignored for {self.arguments[0].strip()}", Subtype.option, location=self.get_location())
        if ":" not in self.name:
            self.name = "llm:status"  # the global alias behaves as the domain directive
        return super().run()

    def get_signatures(self) -> list[str]:
        """One code per entry: an argument over several lines is a warning, and its first line is used."""
        lines = [line.strip() for line in self.arguments[0].splitlines() if line.strip()]
        if len(lines) == 1:  # `LLM_TIMEOUT LLM_LINK_FAILED` on one line: several codes, not one name
            words = lines[0].replace(",", " ").split()
            if len(words) > 1 and all(self._is_code(w) for w in words):
                lines = words
        if len(lines) > 1:
            warn(f"one code per entry: write one .. llm-status:: for each of {', '.join(lines)}; "
                 f"showing {lines[0]} only", Subtype.option, location=self.get_location())
        return lines[:1]

    def _shown_name(self, code: StatusCode) -> str:
        """The name an entry for Python readers only shows (``LLM_WAIT_PROCESS_TIMEOUT``): the one
        they meet in ``LLMStatusCode``; otherwise the registry's name."""
        python = code.python
        # Read as given: option() would warn a second time about a bad value.
        if self.options.get("api") == ("python",) and python is not None:
            return python.name
        return code.name

    def _is_code(self, word: str) -> bool:
        try:
            return bool(lookup(word, get_registry(self.env)))
        except UnknownStatusCode:
            return False

    def handle_signature(self, sig: str, signode: addnodes.desc_signature) -> str:
        registry = get_registry(self.env)
        try:
            matches = lookup(sig, registry)
        except UnknownStatusCode as exc:
            warn(exc.reason(), Subtype.unknown_code, location=self.get_location())
            raise ValueError(sig) from None
        self.code = code = matches[0].code
        if len(matches) > 1:
            meanings = " or ".join(m.code.name for m in matches)
            warn(f"{sig} is ambiguous ({meanings}); documenting {code.name}. Write the name to choose.",
                 Subtype.ambiguous, location=self.get_location())
        shown = self._shown_name(code)
        signode["fullname"] = shown
        signode += addnodes.desc_name(shown, shown)
        value = f"{code.hex} ({code.value})" if code.hex else str(code.value)
        signode += addnodes.desc_annotation(" = " + value, " = " + value)
        return code.name

    def add_target_and_index(self, name: str, sig: str, signode: addnodes.desc_signature) -> None:
        code = self.code
        assert code is not None
        shown = signode.get("fullname", name)
        # The spelling the entry shows comes first: it is the anchor the headerlink and links use.
        ids = [s for s in dict.fromkeys((shown, *code.spellings)) if _SAFE_ID.match(s)]
        signode["ids"].extend(i for i in ids if i not in self.state.document.ids)
        self.state.document.note_explicit_target(signode)
        domain: LLMDomain = self.env.get_domain("llm")  # type: ignore[assignment]
        domain.note_entry(name, shown if _SAFE_ID.match(shown) else name, signode)
        if "no-index-entry" not in self.options:
            project_lang = settings(self.env.config).project_lang
            # in the project's language, as the index is
            kind = label(N_("LLM DataDist status code"), project_lang, project_lang)
            main = f"{shown} ({kind})"  # the spelling the entry shows (Python's, for Python readers)
            target = signode["ids"][0] if signode["ids"] else name
            entries = self.indexnode["entries"]
            entries.append(("single", main, target, "main", None))
            # Sphinx's full-text search drops all-digit words and its search page
            # skips all-digit query terms: index entries are how a reader who
            # only has `1343270921` (or 5010b009, or the other API's spelling) finds it.
            # "main" entries: the search page lists them with the best results, where
            # other entries come after every page that merely mentions the number.
            for form in (*code.number_forms, *(s for s in code.spellings if s != shown)):
                entries.append(("single", f"{form}; {shown}", target, "main", None))
            # And its meaning, as typed (`建链失败`): the search page ranks an index entry the query
            # covers at least half of above every full-text hit, so the code's page comes first.
            view = code.python or code.cpp
            if view is not None:
                entries.append(("single", f"{headline(view.meaning.get(project_lang))}; {shown}", target, "main", None))

    def transform_content(self, content_node: addnodes.desc_content) -> None:
        if self.code is None:
            return
        code = self.code
        lang = doc_lang(self.env, option(self, "lang", None))
        renderer = Renderer(self.env, get_registry(self.env), lang, settings(self.env.config).project_lang)
        apis = option(self, "api", ("python", "cpp"))
        if not any(view.api in apis for view in code.views):
            has = " and ".join(_API_LABEL[v.api] for v in code.views)
            warn(f":api: {' '.join(apis)}: {code.name} exists only in the {has} API; showing that",
                 Subtype.option, location=self.get_location())
            apis = tuple(view.api for view in code.views)
        views = [v for v in code.views if v.api in apis]
        extra = details(renderer, code, views, option(self, "sections", SECTIONS))
        content_node[0:0] = renderer.entry_body(code, apis, extra)

    def _toc_entry_name(self, sig_node: addnodes.desc_signature) -> str:
        return sig_node.get("fullname", "") or (self.code.name if self.code else "")

    def _object_hierarchy_parts(self, sig_node: addnodes.desc_signature) -> tuple[str, ...]:
        return (self.code.name,) if self.code else ()

