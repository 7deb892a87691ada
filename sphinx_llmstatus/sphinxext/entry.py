"""``.. llm-status:: CODE``: one code's entry, the target that roles link to.

Without an argument the same directive renders a code table (see
:mod:`.table`), so authors need one name for both.
"""

from __future__ import annotations

from typing import Any, ClassVar

from docutils import nodes
from sphinx import addnodes
from sphinx.directives import ObjectDescription
from sphinx.util.typing import OptionSpec

from ..registry.lookup import UnknownStatusCode, lookup
from ..registry.model import StatusCode
from .config import project_lang
from .content import Renderer
from .diagnostics import Subtype, warn
from .domain import LLMDomain, anchor
from .labels import _
from .options import api_option, lang_option, option
from .state import doc_lang, get_registry, note_registry_dependency
from .table import TABLE_OPTIONS, render_table


class StatusDirective(ObjectDescription[str]):
    """One code's entry: names per API, value, recoverable, meaning, remedy, related, source.

    Options: ``:api: python|cpp|both``, ``:lang: en|zh``, ``:no-index:``
    (``:noindex:``), ``:no-index-entry:``, ``:no-contents-entry:``. The body,
    if any, is parsed as the author's own notes below the generated content.
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
    }

    code: StatusCode | None = None

    def run(self) -> list[nodes.Node]:
        note_registry_dependency(self.env)
        if not self.arguments:
            return render_table(self)
        if ":" not in self.name:
            self.name = "llm:status"  # the global alias behaves as the domain directive
        return super().run()

    def handle_signature(self, sig: str, signode: addnodes.desc_signature) -> str:
        registry = get_registry(self.env)
        try:
            matches = lookup(sig, registry)
        except UnknownStatusCode as exc:
            warn(exc.reason(), Subtype.unknown_code, location=self.get_location())
            raise ValueError(sig) from None
        self.code = code = matches[0].code
        signode += addnodes.desc_name(code.name, code.name)
        value = f"{code.hex} ({code.value})" if code.hex else str(code.value)
        signode += addnodes.desc_annotation(" = " + value, " = " + value)
        return code.name

    def add_target_and_index(self, name: str, sig: str, signode: addnodes.desc_signature) -> None:
        code = self.code
        assert code is not None
        ids = [anchor(name)] + [anchor(s) for s in code.spellings if s != name]
        signode["ids"].extend(i for i in ids if i not in self.state.document.ids)
        self.state.document.note_explicit_target(signode)
        domain: LLMDomain = self.env.get_domain("llm")  # type: ignore[assignment]
        domain.note_entry(name, anchor(name), signode)
        if "no-index-entry" not in self.options:
            kind = _("LLM DataDist status code")  # in the project's language, as the index is
            main = f"{name} ({kind})"
            entries = self.indexnode["entries"]
            entries.append(("single", main, anchor(name), "", None))
            # Sphinx's full-text search drops all-digit words and its search page
            # skips all-digit query terms: index entries are how a reader who
            # only has `1343270921` (or 5010b009, or the other API's spelling) finds it.
            for form in (*code.number_forms, *(s for s in code.spellings if s != name)):
                entries.append(("single", f"{form}; {name}", anchor(name), "", None))

    def transform_content(self, content_node: addnodes.desc_content) -> None:
        if self.code is None:
            return
        lang = doc_lang(self.env, option(self, "lang", None))
        renderer = Renderer(self.env, get_registry(self.env), lang, project_lang(self.env.config))
        apis = option(self, "api", ("python", "cpp"))
        content_node[0:0] = renderer.entry_body(self.code, apis)

    def _toc_entry_name(self, sig_node: addnodes.desc_signature) -> str:
        return sig_node.get("fullname", "") or (self.code.name if self.code else "")

    def _object_hierarchy_parts(self, sig_node: addnodes.desc_signature) -> tuple[str, ...]:
        return (self.code.name,) if self.code else ()


def setup_entry(app: Any) -> None:
    LLMDomain.directives["status"] = StatusDirective
    app.add_directive("llm-status", StatusDirective, override=True)
