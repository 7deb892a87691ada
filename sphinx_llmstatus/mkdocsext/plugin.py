"""The MkDocs face: ``plugins: [llmstatus]`` reads the extension's MyST markup in Markdown pages.

A page written for Sphinx with MyST-Parser builds unchanged (:mod:`.markup`): entries and
tables are rendered as Markdown (:mod:`sphinx_llmstatus.render.markdown`, the command's
``--format markdown``), each entry under an anchor named for the code; a role links a mention
to the page holding the code's entry, else to the fallback (the code's vendor page by
default, as ``llmstatus_fallback_url`` in Sphinx). With ``autorefs`` among the plugins, each
entry registers its anchor, so ``[LLM_LINK_FAILED][]`` links too. An unknown code, a bad
option or a code documented twice is a warning naming the file and line: ``mkdocs build
--strict`` fails on it. Labels follow ``theme.language`` (``zh`` gives Chinese) unless the
plugin's ``language`` says otherwise.

Options::

    plugins:
      - llmstatus:
          language: zh            # en or zh; default: theme.language
          registry_files: [codes.toml]
          fallback_url: vendor    # or https://.../{name}.html, or "" to warn instead
"""

from __future__ import annotations

import logging
import os
import posixpath
from typing import Any

from mkdocs.config import base
from mkdocs.config import config_options as c
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin

from ..registry.errors import RegistryError
from ..registry.lookup import UnknownStatusCode, filter_codes, lookup
from ..registry.model import RECOVERABLE_VALUES, Registry, StatusCode
from ..render import markdown as md
from ..render.lang import normalise_lang
from ..view.links import fallback_problem, fallback_url, row_anchor
from .markup import Block, Mention, blocks_in, transform

log = logging.getLogger("mkdocs.plugins.llmstatus")

#: Options each block takes (as the Sphinx directives do); others are warned about.
ENTRY_OPTIONS = frozenset({"api", "lang"})
TABLE_OPTIONS = frozenset({"api", "lang", "codes", "family", "recoverable", "documented"})


class LLMStatusConfig(base.Config):
    language = c.Optional(c.Choice(("en", "zh", "zh_CN", "zh-CN", "en_US")))
    registry_files = c.ListOfItems(c.Type(str), default=[])
    fallback_url = c.Type(str, default="vendor")


class LLMStatusPlugin(BasePlugin[LLMStatusConfig]):
    """``plugins: [llmstatus]``."""

    def on_config(self, config: Any) -> Any:
        theme_lang = config.theme.get("language") or config.theme.locale.language if config.theme else None
        self.lang = normalise_lang(self.config.language or str(theme_lang or "en")) or "en"
        problem = fallback_problem(self.config.fallback_url)
        if problem:
            raise PluginError(f"llmstatus: fallback_url {problem}")
        self.registry = self._load([os.path.join(os.path.dirname(config.config_file_path), f)
                                    for f in self.config.registry_files])
        self.entries: dict[str, str] = {}  # code name -> src_uri of the page holding its entry
        self.rows: dict[str, str] = {}  # code name -> src_uri of the first page with it in a table
        return config

    @staticmethod
    def _load(files: list[str]) -> Registry:
        from ..registry.packaged import default_registry

        if not files:
            return default_registry()
        from ..registry.loader import load_registry

        try:
            return load_registry(files)
        except RegistryError as exc:
            raise PluginError(f"llmstatus: invalid registry file: {exc}") from None

    def on_files(self, files: Any, *, config: Any) -> Any:
        for file in files.documentation_pages():
            try:
                text = file.content_string
            except (OSError, UnicodeDecodeError):
                continue
            for block in blocks_in(text):
                if block.name == "llm-status" and block.argument:
                    self._note_entry(block, file.src_uri)
                else:  # a table: each row is a target when no entry is (as in Sphinx)
                    for code in self._table_codes(block, file.src_uri, warn=False):
                        self.rows.setdefault(code.name, file.src_uri)
        return files

    def _note_entry(self, block: Block, where: str) -> None:
        code = self._code(block.argument, where, block.line, warn=False)  # warned when the page renders
        if code is None:
            return
        if code.name in self.entries:
            log.warning(f"{where}:{block.line}: {code.name} is documented twice "
                        f"(first in {self.entries[code.name]}); links go to the first")
            return
        self.entries[code.name] = where

    def _code(self, text: str, where: str, line: int, warn: bool = True) -> StatusCode | None:
        try:
            return lookup(text, self.registry)[0].code
        except UnknownStatusCode as exc:
            if not warn:
                return None
            hint = f" (did you mean {', '.join(exc.suggestions)}?)" if exc.suggestions else ""
            log.warning(f"{where}:{line}: unknown LLM status code {text!r}{hint}")
            return None

    def on_page_markdown(self, markdown: str, *, page: Any, config: Any, files: Any) -> str:
        where = page.file.src_uri
        return transform(markdown, render=lambda block: self._render(block, where),
                         link=lambda m, line: self._link(m, where, line))

    def _lang_of(self, block: Block) -> str:
        return normalise_lang(block.options.get("lang", "")) or self.lang

    def _render(self, block: Block, where: str) -> str:
        allowed = ENTRY_OPTIONS if block.name == "llm-status" else TABLE_OPTIONS
        for name in sorted(set(block.options) - allowed):
            log.warning(f"{where}:{block.line}: {block.name} has no option {name!r}")
        if block.name == "llm-status-table" or not block.argument:
            return self._table(block, where)
        code = self._code(block.argument, where, block.line)
        if code is None:
            return f"`{block.argument}`"
        # The anchor is the code's name, as on a Sphinx page (codes/LLM_LINK_FAILED.html#LLM_LINK_FAILED).
        return f'<a id="{code.name}"></a>\n\n### {md.esc(code.name)}\n\n{md.card(code, self._lang_of(block))}'

    def _table(self, block: Block, where: str) -> str:
        codes = self._table_codes(block, where)
        return md.table(codes, self._lang_of(block), block.options.get("api") or None, anchors=True)

    def _table_codes(self, block: Block, where: str, warn: bool = True) -> list[StatusCode]:
        """The codes of a table block: ``:codes:``, else the registry's filtered by the options."""
        opts = block.options
        names = [n.strip() for n in opts.get("codes", "").replace(",", " ").split() if n.strip()]
        if names:
            return [c for c in (self._code(n, where, block.line, warn) for n in names) if c is not None]
        recoverable = opts.get("recoverable") or None
        if recoverable is not None and recoverable not in RECOVERABLE_VALUES:
            if warn:
                log.warning(f"{where}:{block.line}: recoverable must be one of {', '.join(RECOVERABLE_VALUES)}")
            recoverable = None
        family = opts.get("family", "llm_datadist")
        return filter_codes(self.registry, api=opts.get("api") or None, recoverable=recoverable,
                            documented="documented" in opts, family=None if family == "all" else family)

    def _link(self, mention: Mention, where: str, line: int) -> str:
        code = self._code(mention.target, where, line)
        if code is None:
            return f"`{mention.target}`"
        text = mention.text or code.name
        view = code.views[0] if code.views else None
        title = f"{code.name}: {view.meaning.get(self.lang)}" if view is not None else code.name
        target = self._target(code, where, line)
        if target is None:
            return f"`{text}`"
        return f'[`{text}`]({target} "{title.replace(chr(34), chr(39))}")'

    def _target(self, code: StatusCode, where: str, line: int) -> str | None:
        """The code's entry, else its first table row, else the fallback (as in Sphinx)."""
        for pages, anchor in ((self.entries, code.name), (self.rows, row_anchor(code.name))):
            page = pages.get(code.name)
            if page is not None:
                rel = posixpath.relpath(page, posixpath.dirname(where) or ".")
                return f"{'' if page == where else rel}#{anchor}"
        found = fallback_url(code, self.config.fallback_url)
        if found is None:
            log.warning(f"{where}:{line}: {code.name} is documented nowhere in this site")
        return found

    def on_page_content(self, html: str, *, page: Any, config: Any, files: Any) -> str:
        autorefs = config.plugins.get("autorefs")
        if autorefs is not None:
            for name, src in self.entries.items():
                if src == page.file.src_uri:
                    autorefs.register_anchor(page, name, name)
        return html
