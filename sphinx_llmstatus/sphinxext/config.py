"""``llmstatus_*`` configuration values: each declared once, validated on ``config-inited``.

Every value is one :class:`Option` (name, default, types, check, help). A
value of the wrong type or shape logs one ``llmstatus.config`` warning and
falls back to the default, so a typo (or a hostile URL) in ``conf.py`` never
breaks a build or reaches the output. The rest of the extension reads the
values through :func:`settings` only.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from weakref import WeakKeyDictionary

from sphinx.application import Sphinx
from sphinx.config import Config

from ..render.lang import normalise_lang  # the one language resolver of every face
from ..view.links import _SCHEME, fallback_problem, url_problem
from .diagnostics import Subtype, warn

# -- URLs ---------------------------------------------------------------------------------

#: ``domain:role:target``, ``role:target`` or a bare ``:ref:`` label (see content.api_target).
_XREF_FORM = re.compile(r"^(?:[a-z0-9]+:)?[a-z0-9]+:[^:\s]\S*$|^[\w.\-]+$")
#: The schemes a browser runs or embeds instead of following: never a link target.
_ACTIVE_SCHEMES = ("javascript", "vbscript", "data", "file")


def is_url(target: str) -> bool:
    """True when an ``llmstatus_api_links`` value is meant as a URL (not a Sphinx target)."""
    return "://" in target or target.startswith(("/", "#", "./", "../"))


def _api_target_problem(target: Any) -> str | None:
    if not isinstance(target, str):
        return "must map API names to URL or target strings"
    if is_url(target):
        problem = url_problem(target)
        return f"maps to {target!r}, which {problem}" if problem else None
    scheme = _SCHEME.match(target)
    if scheme and scheme.group(1).lower() in _ACTIVE_SCHEMES or not _XREF_FORM.match(target):
        return (f"maps to {target!r}, which is neither an http(s) or relative URL nor a "
                "Sphinx target such as py:meth:pkg.Class.method")
    return None


# -- checks of each value --------------------------------------------------------------------


def _check_language(value: str | None) -> str | None:
    if value is not None and normalise_lang(value) is None:
        return f"must be en or zh (or a locale of them such as zh_CN) or None, not {value!r}"
    return None


def _check_registry_files(value: list[str] | tuple[str, ...]) -> str | None:
    return None if all(isinstance(v, str) for v in value) else "must be a list of file paths (strings)"


def _check_api_links(value: dict[Any, Any]) -> str | None:
    for key, target in value.items():
        if not isinstance(key, str):
            return "must map API names to URL or target strings"
        problem = _api_target_problem(target)
        if problem:
            return problem if problem.startswith("must") else f"{key!r} {problem}"
    return None


@dataclass(frozen=True)
class Option:
    """One ``llmstatus_*`` config value: declared, typed, checked and documented in one place."""

    name: str
    default: Any
    types: tuple[type, ...]
    check: Callable[[Any], str | None]
    help: str


OPTIONS: tuple[Option, ...] = (
    Option("llmstatus_language", None, (str, type(None)), _check_language,
           "Language of registry text (en or zh); None follows the project's language."),
    Option("llmstatus_registry_files", [], (list, tuple), _check_registry_files,
           "Extra registry TOML files (relative to conf.py) that add codes or override fields."),
    Option("llmstatus_fallback_url", "vendor", (str,), fallback_problem,
           'Link for codes the project documents nowhere: "vendor" (the vendor page), an http(s) '
           'URL template with {name}, {value} and {hex}, or "" to warn instead.'),
    Option("llmstatus_api_links", {}, (dict,), _check_api_links,
           "API name -> http(s)/relative URL or Sphinx target (py:meth:pkg.Class.method, ref:label)."),
    Option("llmstatus_catalog", False, (bool,), lambda _value: None,
           "Also write catalog.json, catalog.schema.json and catalog.csv (every code, en and zh) "
           "into the HTML output."),
    Option("llmstatus_llms_txt", False, (bool,), lambda _value: None,
           "Also write llms.txt, llms-full.txt and a Markdown copy of each page that holds entries "
           "(codes/NAME.md) into the HTML output, for agents."),
)


@dataclass(frozen=True)
class Settings:
    """The validated ``llmstatus_*`` values of one build, read through :func:`settings`."""

    language: str | None
    registry_files: tuple[str, ...]
    fallback_url: str
    api_links: dict[str, str]
    project_lang: str
    catalog: bool = False
    llms_txt: bool = False

    @property
    def registry_lang(self) -> str:
        """The language of registry text: ``llmstatus_language``, else the project's."""
        return self.language or self.project_lang


_SETTINGS: WeakKeyDictionary[Config, Settings] = WeakKeyDictionary()


def settings(config: Config) -> Settings:
    """The extension's view of ``config`` (validated once, then cached per config object)."""
    found = _SETTINGS.get(config)
    if found is None:
        found = _SETTINGS[config] = Settings(
            language=config.llmstatus_language,
            registry_files=tuple(config.llmstatus_registry_files),
            fallback_url=config.llmstatus_fallback_url,
            api_links=dict(config.llmstatus_api_links),
            catalog=config.llmstatus_catalog,
            llms_txt=config.llmstatus_llms_txt,
            project_lang="zh" if normalise_lang(config.language or "en") == "zh" else "en",
        )
    return found


def register(app: Sphinx) -> None:
    for option in OPTIONS:
        app.add_config_value(option.name, option.default, "env", types=option.types,
                             description=option.help)
    app.connect("config-inited", validate, priority=400)


def validate(app: Sphinx, config: Config) -> None:
    """Replace every invalid ``llmstatus_*`` value by its default, with one warning each."""
    for option in OPTIONS:
        value = config[option.name]
        if not isinstance(value, option.types):
            names = " or ".join(t.__name__ for t in option.types)
            reason: str | None = f"must be of type {names}, not {type(value).__name__}"
        else:
            reason = option.check(value)
        if reason:
            warn(f"config value {option.name!r} {reason}; using the default {option.default!r}",
                 Subtype.config)
            config[option.name] = option.default
    if config.llmstatus_language:
        config.llmstatus_language = normalise_lang(config.llmstatus_language)
    _SETTINGS.pop(config, None)
