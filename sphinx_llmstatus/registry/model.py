"""Typed, immutable model of the status-code registry.

No Sphinx, docutils or IPython here: every face of the package (the Sphinx
extension, the IPython magic, the ``llmstatus`` command) reads this model.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Literal

#: The two vendor APIs. ``python`` is ``LLMStatusCode`` (the ``status_code`` of
#: ``LLMException``); ``cpp`` is the ``constexpr Status`` constants.
Api = Literal["python", "cpp"]
APIS: tuple[Api, ...] = ("python", "cpp")

#: ``n/a`` is for success only; ``unknown`` for codes no vendor page documents.
Recoverable = Literal["yes", "no", "n/a", "unknown"]
RECOVERABLE_VALUES: tuple[str, ...] = ("yes", "no", "n/a", "unknown")

Lang = Literal["en", "zh"]
LANGS: tuple[Lang, ...] = ("en", "zh")

#: Every LLM DataDist code built by the GE error-number macro is this base plus
#: a 12-bit value (runtime=1, type=1, level=0, sysid=8 GE, modid=11 LLM engine).
LLM_CODE_BASE = 0x5010B000
LLM_CODE_MASK = 0xFFFFF000


@dataclass(frozen=True, slots=True)
class Text:
    """One sentence or paragraph in both languages of the registry."""

    en: str
    zh: str

    def get(self, lang: str) -> str:
        """The text in ``lang`` (``"en"`` or ``"zh"``; anything else gives English)."""
        return self.zh if lang == "zh" else self.en


@dataclass(frozen=True, slots=True)
class Source:
    """Where a fact comes from: a vendor documentation page or a public source file."""

    key: str
    api: Api
    kind: Literal["page", "source"]
    title: Text
    url: str


@dataclass(frozen=True, slots=True)
class ApiView:
    """What one API (Python or C++) says about one status code.

    ``documented`` is False when the vendor page of that API has no row for the
    code; the text is then ours alone, written from the name and the headers.
    ``functions``, ``options`` and ``modes`` are the API names the remedy refers
    to (each appears in backticks in ``remedy``).
    """

    api: Api
    name: str
    documented: bool
    source: Source
    recoverable: Recoverable
    meaning: Text
    remedy: Text
    functions: tuple[str, ...] = ()
    options: tuple[str, ...] = ()
    modes: tuple[str, ...] = ()

    @property
    def api_names(self) -> tuple[str, ...]:
        """Every API name the remedy mentions: functions, options, then modes."""
        return self.functions + self.options + self.modes


@dataclass(frozen=True, slots=True)
class StatusCode:
    """One status code, with one :class:`ApiView` per API that has it.

    ``value`` is the number as the API returns it: a ``uint32`` for C++ codes
    (``0xFFFFFFFF`` for ``LLM_FAILED``), ``-1`` for the Python-only
    ``LLM_UNKNOWN_ERROR``. ``name`` is the canonical spelling: the C++ constant
    where there is one, else the Python member.
    """

    name: str
    value: int
    python: ApiView | None
    cpp: ApiView | None
    related: tuple[str, ...] = ()
    aliases: tuple[str, ...] = ()
    note: Text | None = None

    @property
    def hex(self) -> str | None:
        """``0x5010B009`` style (8 upper-case digits), or None for negative values."""
        return f"0x{self.value:08X}" if self.value >= 0 else None

    @property
    def short_hex(self) -> str | None:
        """Hex without padding, as the vendor headers write it (``0x0``, ``0x7BCAD``)."""
        return f"0x{self.value:X}" if self.value >= 0 else None

    @property
    def views(self) -> tuple[ApiView, ...]:
        """The API views that exist, Python first."""
        return tuple(v for v in (self.python, self.cpp) if v is not None)

    def view(self, api: str) -> ApiView | None:
        """The view of ``api`` (``"python"`` or ``"cpp"``), or None if that API lacks the code."""
        return self.python if api == "python" else self.cpp if api == "cpp" else None

    @property
    def spellings(self) -> tuple[str, ...]:
        """Canonical name, other API spellings, then aliases; no repeats."""
        seen: dict[str, None] = {self.name: None}
        for v in self.views:
            seen.setdefault(v.name, None)
        for a in self.aliases:
            seen.setdefault(a, None)
        return tuple(seen)

    @property
    def recoverable(self) -> Mapping[str, str]:
        """``{"python": "yes", "cpp": "no"}``: recoverability per API that has the code."""
        return MappingProxyType({v.api: v.recoverable for v in self.views})

    @property
    def documented_by(self) -> tuple[Api, ...]:
        """The APIs whose vendor page has a row for this code."""
        return tuple(v.api for v in self.views if v.documented)

    @property
    def is_success(self) -> bool:
        return self.value == 0

    @property
    def is_llm_layout(self) -> bool:
        """True for the ``0x5010B0xx`` family built by the GE error-number macro."""
        return self.value >= 0 and (self.value & LLM_CODE_MASK) == LLM_CODE_BASE

    @property
    def disagreements(self) -> tuple[str, ...]:
        """Fields on which the two APIs differ: ``name``, ``recoverable``, ``remedy`` (functions named)."""
        if self.python is None or self.cpp is None:
            return ()
        out = []
        if self.python.name != self.cpp.name:
            out.append("name")
        if self.python.recoverable != self.cpp.recoverable:
            out.append("recoverable")
        if self.python.functions != self.cpp.functions or self.python.options != self.cpp.options:
            out.append("remedy")
        return tuple(out)


@dataclass(frozen=True)
class Registry:
    """All status codes, indexed by every spelling and by value.

    Build it with :func:`sphinx_llmstatus.registry.load_registry`; use
    :func:`sphinx_llmstatus.registry.default_registry` for the packaged one.
    """

    codes: tuple[StatusCode, ...]
    sources: Mapping[str, Source]
    files: tuple[str, ...] = ()
    _by_name: dict[str, StatusCode] = field(default_factory=dict, repr=False, compare=False)
    _by_value: dict[int, StatusCode] = field(default_factory=dict, repr=False, compare=False)

    def __post_init__(self) -> None:
        for code in self.codes:
            for spelling in code.spellings:
                self._by_name.setdefault(spelling.upper(), code)
            self._by_value[code.value] = code

    def __iter__(self) -> Iterator[StatusCode]:
        return iter(self.codes)

    def __len__(self) -> int:
        return len(self.codes)

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and name.upper() in self._by_name

    def __getitem__(self, name: str) -> StatusCode:
        """The code spelled ``name`` in either API (case-insensitive); KeyError if none."""
        return self._by_name[name.upper()]

    def get(self, name: str) -> StatusCode | None:
        return self._by_name.get(name.upper())

    def by_value(self, value: int) -> StatusCode | None:
        """The code whose value is exactly ``value`` (no signed/unsigned folding)."""
        return self._by_value.get(value)

    @property
    def spellings(self) -> tuple[str, ...]:
        """Every name and alias in the registry, as written (for completion and suggestions)."""
        return tuple(s for c in self.codes for s in c.spellings)
