"""``llmstatus_*`` configuration values: declared with types, checked on ``config-inited``.

A value of the wrong type or shape logs a ``llmstatus.config`` warning and
falls back to the default, so a typo in ``conf.py`` never breaks a build.
"""

from __future__ import annotations

from typing import Any, Literal

from sphinx.application import Sphinx
from sphinx.config import Config

from ..render.lang import normalise_lang  # the one language resolver of every face
from .diagnostics import Subtype, warn

#: name -> (default, rebuild, types, check(value) -> error message or None)
CONFIG_VALUES: dict[str, tuple[Any, Literal['env'], tuple[type, ...]]] = {
    # None: follow the project's ``language`` (zh* -> Chinese, else English).
    "llmstatus_language": (None, "env", (str, type(None))),
    # Extra registry TOML files (same schema) that add codes or override fields.
    "llmstatus_registry_files": ([], "env", (list, tuple)),
    # For codes the project documents nowhere: "vendor" (the vendor page of the
    # code), a URL template with {name}/{value}/{hex}, or "" to disable.
    "llmstatus_fallback_url": ("vendor", "env", (str,)),
    # API name (e.g. "link_clusters") -> URL or Sphinx cross-reference target
    # ("py:meth:llm_datadist.LLMDataDist.link_clusters").
    "llmstatus_api_links": ({}, "env", (dict,)),
}



def _problem(name: str, value: Any) -> str | None:
    if name == "llmstatus_language" and value is not None and normalise_lang(value) is None:
        return f"must be en or zh (or a locale of them such as zh_CN) or None, not {value!r}"
    if name == "llmstatus_registry_files" and not all(isinstance(v, str) for v in value):
        return "must be a list of file paths (strings)"
    if name == "llmstatus_api_links" and not all(
        isinstance(k, str) and isinstance(v, str) for k, v in value.items()
    ):
        return "must map API names to URL or target strings"
    if name == "llmstatus_fallback_url" and value not in ("", "vendor"):
        return _template_problem(value)
    return None


def _template_problem(template: str) -> str | None:
    """Why ``template`` cannot be filled in with a code's ``name``, ``value`` and ``hex``, or None."""
    import string

    try:
        fields = [f for _, f, _, _ in string.Formatter().parse(template) if f is not None]
        template.format(name="LLM_LINK_FAILED", value=1343270921, hex="0x5010B009")
    except (ValueError, KeyError, IndexError, AttributeError, TypeError) as exc:
        return f"is not a usable URL template ({type(exc).__name__}: {exc}); use {{name}}, {{value}} or {{hex}}"
    odd = [f for f in fields if f not in ("name", "value", "hex")]
    if odd:
        return f"may only use {{name}}, {{value}} and {{hex}}, not {{{odd[0]}}}"
    return None


def register(app: Sphinx) -> None:
    for name, (default, rebuild, types) in CONFIG_VALUES.items():
        app.add_config_value(name, default, rebuild, types=types)
    app.connect("config-inited", validate, priority=400)


def validate(app: Sphinx, config: Config) -> None:
    """Replace every invalid ``llmstatus_*`` value by its default, with a warning."""
    for name, (default, _rebuild, types) in CONFIG_VALUES.items():
        value = config[name]
        reason = None if isinstance(value, types) else (
            f"must be of type {' or '.join(t.__name__ for t in types)}, not {type(value).__name__}"
        )
        reason = reason or _problem(name, value)
        if reason:
            warn(f"config value {name!r} {reason}; using the default {default!r}", Subtype.config)
            config[name] = default
    if config.llmstatus_language:
        config.llmstatus_language = normalise_lang(config.llmstatus_language)


def project_lang(config: Config) -> str:
    """The registry language Sphinx's ``language`` maps to: ``zh`` for ``zh*``, else ``en``."""
    return "zh" if (config.language or "en").lower().startswith("zh") else "en"


def registry_lang(config: Config) -> str:
    """The registry language of the project: ``llmstatus_language``, else from ``language``."""
    return config.llmstatus_language or project_lang(config)
