"""The ``%llmstatus`` line magic and ``%%llmstatus`` cell magic: two methods, each
with its own ``magic_arguments`` (as line_profiler's ``%lprun``/``%%lprun_all``),
so each mode's help, errors and completions come from its own parser.

Thin face over :mod:`sphinx_llmstatus.registry` (lookup, search), the shared
scanner :mod:`sphinx_llmstatus.scan` and the renderers; every answer is a
result object from :mod:`.results`. Bad input raises ``UsageError``, which
IPython shows as one line with no traceback.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from IPython.core.error import UsageError
from IPython.core.magic import Magics, cell_magic, line_magic, magics_class, no_var_expand
from IPython.core.magic_arguments import argument, magic_arguments
from traitlets import Bool, CaselessStrEnum, Int, List, TraitError, Unicode, observe

from . import completion

if TYPE_CHECKING:  # imported on first use, which keeps %load_ext cheap
    from ..registry.model import Registry, StatusCode
    from .hook import ExceptionHint
    from .results import CardResult, LastResult, ListResult, ScanResult

_QUOTES = "\"'`"


#: Most rows a display may be asked for (a table that long is no longer read; a bound keeps
#: a mistyped 10**5000 from breaking ``%config``, which prints every setting).
MAX_ROWS = 1_000_000


@magics_class
class LLMStatusMagics(Magics):
    """Magics explaining CANN LLM DataDist status codes; see ``%llmstatus?``.

    Configurable (``%config LLMStatusMagics``, or ``c.LLMStatusMagics.*`` in
    ``ipython_config.py``): ``lang``, ``hook``, ``registry_files``, ``max_rows``.
    """

    lang = CaselessStrEnum(
        ["", "en", "zh"],
        default_value="",
        help="Language of the answers: 'en' or 'zh'; '' follows the locale. `--lang` overrides it per call.",
    ).tag(config=True)
    hook = Bool(
        False,
        help="After a traceback whose exception carries an LLM DataDist status code, print a one-line "
        "hint with its meaning and a pointer to `%llmstatus --last` (same as `%llmstatus --hook on`).",
    ).tag(config=True)
    registry_files = List(
        Unicode(),
        help="Extra registry TOML files merged over the packaged registry (same format as the Sphinx "
        "option llmstatus_registry_files).",
    ).tag(config=True)
    max_rows = Int(
        1000,
        min=0,
        max=MAX_ROWS,
        help="Most occurrences `%%llmstatus` displays; the result's .hits always holds all. 0: no limit.",
    ).tag(config=True)

    _ready = False

    def __init__(self, shell: Any = None, **kwargs: Any):
        super().__init__(shell=shell, **kwargs)
        self._registry: Registry | None = None
        self._last_exc: BaseException | None = None
        self._hint: ExceptionHint | None = None
        self._matcher = completion.make_matcher(lambda: self.registry.spellings, self.llmstatus_line.parser,
                                                self.llmstatus_cell.parser)
        self._ready = True

    def _load_config(self, cfg: Any, section_names: Any = None, traits: Any = None) -> None:
        """Load settings; one that its trait's validation rejects (``max_rows='x'``) is dropped.

        It is removed from ``cfg`` and from the shell's config too, so that it
        does not stay there and break the next ``%load_ext``. After start-up
        (``%config``) the trait's error propagates, and ``%config`` prints it
        as one line; at start-up (``ipython_config.py``) a one-line warning is
        printed and the default kept.
        """
        try:
            super()._load_config(cfg, section_names=section_names, traits=traits)
            return
        except (TraitError, ValueError) as exc:  # ValueError: traitlets cannot even print 10**5000
            error = exc if isinstance(exc, TraitError) else TraitError(str(exc))
        for name, problem in self._drop_invalid_settings(cfg):
            if not self._ready:
                import sys

                print(f"llmstatus: ignoring LLMStatusMagics.{name}: {problem}", file=sys.stderr)
        super()._load_config(cfg, section_names=section_names, traits=traits)
        if self._ready:
            raise error

    def _drop_invalid_settings(self, cfg: Any) -> list[tuple[str, str]]:
        name = type(self).__name__
        section = cfg[name] if name in cfg else {}
        traits = self.traits(config=True)
        dropped = []
        for key, value in list(section.items()):
            if key not in traits:
                continue
            try:
                cast(Any, traits[key]).validate(self, value)  # every concrete trait type has validate()
            except (TraitError, ValueError) as exc:
                dropped.append((key, str(exc)))
                for config in (cfg, getattr(self.shell, "config", None), self.config):
                    if config is not None and name in config and config[name].get(key) is value:
                        del config[name][key]
        return dropped

    # -- wiring (called by load/unload) -----------------------------------------
    def attach(self) -> None:
        """Register the completer, the last-exception recorder and, if configured, the hint."""
        shell = self.shell
        assert shell is not None  # attached by load_ipython_extension, which has a shell
        completion.install(shell, self._matcher)
        if self._record_exception not in shell.events.callbacks["post_run_cell"]:
            shell.events.register("post_run_cell", self._record_exception)
        if self.hook:
            self.hint.on()

    def detach(self) -> None:
        """Undo :meth:`attach`: completer, recorder and hint callbacks removed."""
        shell = self.shell
        assert shell is not None
        completion.uninstall(shell)
        if self._hint is not None:
            self._hint.off()
        if self._record_exception in shell.events.callbacks["post_run_cell"]:
            shell.events.unregister("post_run_cell", self._record_exception)

    @observe("hook")
    def _hook_changed(self, change: dict[str, Any]) -> None:
        if self._ready:
            if change["new"]:
                self.hint.on()
            elif self._hint is not None:
                self._hint.off()

    @property
    def hint(self) -> ExceptionHint:
        """The opt-in traceback hint (created on first use)."""
        if self._hint is None:
            from .hook import ExceptionHint

            self._hint = ExceptionHint(self.shell, lambda: self.registry, self.output_lang)
        return self._hint

    @observe("registry_files")
    def _registry_changed(self, change: dict[str, Any]) -> None:
        self._registry = None

    def _record_exception(self, result: Any) -> None:
        # IPython's own sys.last_value is overwritten by any UsageError (a typo in
        # %llmstatus itself), so --last keeps the last real error of the session.
        exc = getattr(result, "error_in_exec", None) or getattr(result, "error_before_exec", None)
        if exc is not None and not isinstance(exc, UsageError):
            self._last_exc = exc

    # -- shared state --------------------------------------------------------------
    @property
    def registry(self) -> Registry:
        """The packaged registry plus ``registry_files``; loaded on first use, then cached.

        Raises UsageError (one line naming file, entry and field) if a file is bad.
        """
        if self._registry is None:
            from ..registry.errors import RegistryError
            from ..registry.loader import load_registry
            from ..registry.packaged import default_registry

            try:
                self._registry = (
                    load_registry(extra_files=self.registry_files) if self.registry_files else default_registry()
                )
            except RegistryError as exc:
                raise UsageError(f"bad registry file: {exc}") from None
        return self._registry

    def output_lang(self, override: str | None = None) -> str:
        """``override`` (``--lang``), else the ``lang`` setting, else the locale's language."""
        if override:
            return override
        if self.lang:
            return self.lang.lower()
        from ..render.lang import default_lang

        return default_lang()

    # -- the magics: one per mode, each with its own arguments --------------------
    @no_var_expand
    @magic_arguments("%llmstatus")
    @argument(
        "code",
        nargs="*",
        help="A status code in any form: name in either API's spelling (LLM_WAIT_PROC_TIMEOUT, "
        "LLM_WAIT_PROCESS_TIMEOUT, or with spaces for underscores), LLMStatusCode.NAME, "
        "<LLMStatusCode.NAME: N>, a pybind constant (kLinKFailed), hex (0x5010B009, 5010b009), "
        "decimal (1343270921) or signed (-1). Part of a name (link) lists the codes whose "
        "name contains it. Nothing: list every code.",
    )
    @argument("--search", "-s", nargs="+", metavar="WORD",
              help="List codes whose name, meaning or remedy contains every WORD (English or Chinese, "
              "e.g. --search timeout, --search 建链).")
    @argument("--api", choices=("python", "cpp"), help="Lists: only codes this API has, with its names.")
    @argument("--recoverable", choices=("yes", "no"),
              help="Lists: only codes with this recoverability (in --api, else in either API).")
    @argument("--lang", choices=("en", "zh"), help="Language of the answer (default: the locale, "
              "or the LLMStatusMagics.lang setting).")
    @argument("--last", action="store_true",
              help="Explain the last exception of the session: its status_code attribute, else the "
              "codes in its message and traceback.")
    @argument("--hook", choices=("on", "off"),
              help="Turn on/off a one-line hint printed after tracebacks that carry a status code.")
    @line_magic("llmstatus")  # type: ignore[arg-type]  # IPython types the named form as taking Never
    def llmstatus_line(self, line: str = "") -> Any:
        """Explain CANN LLM DataDist status codes.

        ::

            %llmstatus LLM_LINK_FAILED        one card: names per API, hex/decimal,
            %llmstatus 0x5010b009             recoverable, meaning, remedy per API,
            %llmstatus -1                     related codes, vendor page (-1: both meanings)
            %llmstatus link                   codes whose name contains "link"
            %llmstatus --search 建链          codes whose text contains the words
            %llmstatus --api cpp --recoverable yes     filtered list of all codes
            %llmstatus --last                 codes carried by the last exception
            %llmstatus --hook on              hint after tracebacks carrying a code

        To find codes in a pasted log, use the cell magic ``%%llmstatus``.
        Returns a result object: ``r = %llmstatus LLM_LINK_FAILED`` then
        ``r.value``, ``r.recoverable``, ``r.meaning``, ``r.remedy``; lists have
        ``r.codes``.
        """
        from .results import ListResult

        args = self._parse(self.llmstatus_line, line)
        lang = self.output_lang(args.lang)
        chosen = [name for name, on in (("a code", bool(args.code)), ("--search", bool(args.search)),
                                        ("--last", args.last), ("--hook", bool(args.hook))) if on]
        if len(chosen) > 1:
            raise UsageError(f"give only one of {' and '.join(chosen)}")
        if args.hook:
            self.hook = args.hook == "on"
            print(f"llmstatus hint after tracebacks: {args.hook}")
            return None
        if args.last:
            return self._explain_last(lang)
        if args.search:
            from ..registry.lookup import search
            from ..render.labels import N_

            words = " ".join(w.strip(_QUOTES) for w in args.search)
            if not words.strip():
                raise UsageError("--search needs a word")
            found = self._filter(search(words, self.registry), args)
            return ListResult(found, lang, api=args.api, title=self._title(found, N_("matching {q}"), lang, q=repr(words)))
        if args.code:
            return self._lookup(args, lang)
        codes = self._filter(self.registry.codes, args)
        return ListResult(codes, lang, api=args.api, title=self._title(codes, "", lang, filters=args))

    @no_var_expand
    @magic_arguments("%%llmstatus")
    @argument("--all", action="store_true", help="Also list success codes (LLM_SUCCESS).")
    @argument("--api", choices=("python", "cpp"),
              help="Show this API's recoverable and remedy where the code has it.")
    @argument("--lang", choices=("en", "zh"), help="Language of the answer (default: the locale, "
              "or the LLMStatusMagics.lang setting).")
    @argument("--limit", type=int, metavar="N",
              help="Display at most N occurrences (default: the max_rows setting; 0: all).")
    @cell_magic("llmstatus")  # type: ignore[arg-type]  # (as above)
    def llmstatus_cell(self, line: str, cell: str) -> ScanResult:
        """Find every LLM DataDist status code in a pasted log.

        ::

            %%llmstatus
            <log text>

        Every occurrence is listed with its line number, the line, the code,
        recoverable and the remedy, then the counts per code; success codes
        only with --all. Returns a result with ``r.hits`` and ``r.counts``.
        For one code, a search, ``--last`` or ``--hook``, use the line magic
        ``%llmstatus``.
        """
        from ..scan.pipeline import scan_triaged
        from .results import ScanResult

        args = self._parse(self.llmstatus_cell, line)
        lang = self.output_lang(args.lang)
        limit = self.max_rows if args.limit is None else args.limit
        if not 0 <= limit <= MAX_ROWS:
            raise UsageError(f"--limit must be 0 (no limit) to {MAX_ROWS}")
        hits, report = scan_triaged(cell, registry=self.registry, include_success=args.all)
        return ScanResult(hits, lang, text=cell, api=args.api, include_success=args.all, limit=limit or None,
                          report=report)

    # -- pieces ------------------------------------------------------------------
    def _parse(self, magic: Any, line: str) -> Any:
        """``magic``'s arguments from ``line``; an option of the other magic is named as such."""
        is_cell = magic.__func__ is LLMStatusMagics.llmstatus_cell
        if not is_cell:
            from ..codeargs import accept_negative_hex

            accept_negative_hex(magic.parser)  # -0x5010B009 is a code, as in the command
        try:
            return magic.parser.parse_argstring(line)
        except UsageError as exc:
            other, other_name = ((self.llmstatus_line, "the line magic %llmstatus") if is_cell
                                 else (self.llmstatus_cell, "the cell magic %%llmstatus"))
            theirs = [w for w in line.split() if w in completion.Grammar(other.parser).options]
            if theirs and "unrecognized arguments" in str(exc):
                raise UsageError(f"{exc} ({', '.join(theirs)}: an option of {other_name})") from None
            raise
        except ValueError as exc:  # unbalanced quotes, from IPython's arg_split
            raise UsageError(f"cannot read the arguments ({exc}): {line.strip()}") from None

    def _lookup(self, args: Any, lang: str) -> CardResult | ListResult:
        from ..registry.lookup import UnknownStatusCode, lookup
        from ..render.labels import N_
        from .results import CardResult, ListResult

        reg = self.registry
        whole = " ".join(args.code)
        try:
            return CardResult(lookup(whole, reg), lang, query=whole)
        except UnknownStatusCode as exc:
            error = exc
        if len(args.code) > 1:  # several codes: one card each
            matches: list[Any] = []
            for part in args.code:
                try:
                    matches += lookup(part, reg)
                except UnknownStatusCode as exc:
                    raise UsageError(exc.reason()) from None
            return CardResult(matches, lang, query=whole)
        if error.value is None:
            part = whole.strip(_QUOTES).upper().removeprefix("LLMSTATUSCODE.")
            found = self._filter([c for c in reg if any(part in s.upper() for s in c.spellings)], args)
            if part and found:
                return ListResult(found, lang, api=args.api, title=self._title(found, N_("whose name contains {q}"), lang, q=repr(whole)))
        raise UsageError(error.reason()) from None

    def _filter(self, codes: Any, args: Any) -> list[StatusCode]:
        from ..registry.lookup import filter_codes

        return filter_codes(codes, api=args.api, recoverable=args.recoverable)

    @staticmethod
    def _filters_text(args: Any, lang: str) -> str:
        from ..render.labels import api_label, label

        parts = []
        if args.api:
            parts.append(label("in the {api} API", lang, api=api_label(args.api)))
        if args.recoverable:
            parts.append(f"{label('Recoverable', lang)}={label(args.recoverable, lang)}")
        return ", ".join(parts)

    def _title(self, codes: list[StatusCode], what: str, lang: str, *, q: str = "", filters: Any = None) -> str:
        """``8 of 33 LLM DataDist status codes whose name contains 'link'`` (or the zh wording)."""
        from ..render.labels import label

        detail = label(what, lang, q=q) if what else ""
        if filters is not None:
            detail = self._filters_text(filters, lang)
        if not codes:
            return label("No LLM DataDist status code", lang) + (f" {detail}" if detail else "") + "."
        head = label("{n} of {total} LLM DataDist status codes", lang, n=len(codes), total=len(self.registry.in_family("llm_datadist")))
        return f"{head} {detail}" if detail else head

    def last_exception(self) -> BaseException | None:
        """The session's last exception other than a UsageError, or None."""
        import sys

        if self._last_exc is not None:
            return self._last_exc
        exc = getattr(sys, "last_exc", None) or getattr(sys, "last_value", None)
        return None if exc is None or isinstance(exc, UsageError) else exc

    def _explain_last(self, lang: str) -> LastResult:
        from . import lastexc
        from .results import LastResult

        exc = self.last_exception()
        if exc is None:
            raise UsageError("no exception has been raised in this session yet")
        how, matches, hits = lastexc.codes_in(exc, self.registry)
        if not matches:
            how = f"{lastexc.ATTRIBUTE}; {lastexc.TEXT}"
            return LastResult(exc, matches, lang, how=how, hits=hits)
        from ..scan.diagnosis import diagnose_text

        # The exception's text and traceback are the log of this failure: what do they prove?
        diagnosis = diagnose_text(matches[0].code, lastexc.exception_text(exc), self.registry)
        return LastResult(exc, matches, lang, how=how, hits=hits, diagnosis=diagnosis)
