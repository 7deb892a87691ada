"""Where a mention of a code links when the project documents it nowhere, and which URLs are safe.

One place for every face: the Sphinx option ``llmstatus_fallback_url`` and the MkDocs
plugin's ``fallback_url`` take the same values (``"vendor"``: the code's vendor page;
an http(s) URL template with ``{name}``, ``{value}`` and ``{hex}``; ``""``: no link, a
warning instead), checked by :func:`fallback_problem` and followed by :func:`fallback_url`.
Only http(s) and relative URLs are ever link targets (:func:`url_problem`).
"""

from __future__ import annotations

import re
import string

from ..registry.model import StatusCode


def row_anchor(name: str) -> str:
    """HTML id of a code's table row, in every face (an entry's id is the code name itself)."""
    return f"llm-row-{name}"


_UNSAFE_CHAR = re.compile(r"[\x00-\x20\x7f-\x9f\"'<>\\`]")
_SCHEME = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]*):")


def url_problem(url: str) -> str | None:
    """Why ``url`` is no safe link target (an http(s) or relative URL), or None."""
    if _UNSAFE_CHAR.search(url):
        return "contains spaces, control or quoting characters"
    scheme = _SCHEME.match(url)
    if scheme and scheme.group(1).lower() not in ("http", "https"):
        return f"uses the {scheme.group(1).lower()}: scheme; only http(s) and relative URLs are allowed"
    if scheme and not url.partition("://")[2].strip("/"):
        return "has no host"
    if url.startswith("//"):
        return "is protocol-relative; write https://"
    return None


#: Codes filled into a template when it is checked: success, the LLM layout, -1 and the largest value.
_SAMPLES = (("LLM_SUCCESS", 0, "0x00000000"), ("LLM_LINK_FAILED", 1343270921, "0x5010B009"),
            ("LLM_FAILED", -1, ""), ("ACL_ERROR_X", 0xFFFFFFFF, "0xFFFFFFFF"))


def fill_template(template: str, name: str, value: int | str, hex_form: str) -> str:
    """``template`` with ``{name}``, ``{value}`` and ``{hex}`` filled in; ValueError if it cannot be."""
    try:
        fields = [f for _, f, _, _ in string.Formatter().parse(template) if f is not None]
        odd = [f for f in fields if f not in ("name", "value", "hex")]
        if odd:
            raise ValueError(f"may only use {{name}}, {{value}} and {{hex}}, not {{{odd[0]}}}")
        return template.format(name=name, value=value, hex=hex_form)
    except ValueError:
        raise
    except Exception as exc:  # noqa: BLE001 - format specs can raise anything (OverflowError for {value:c})
        raise ValueError(f"{type(exc).__name__}: {exc}") from None


def fallback_problem(value: str) -> str | None:
    """Why ``value`` is no fallback (``"vendor"``, ``""`` or a safe URL template), or None."""
    if value in ("", "vendor"):
        return None
    try:
        filled = [fill_template(value, *sample) for sample in _SAMPLES]
    except ValueError as exc:
        reason = str(exc)
        if reason.startswith("may only"):
            return reason
        return f"is not a usable URL template ({reason}); use {{name}}, {{value}} or {{hex}}"
    for url in filled:
        problem = url_problem(url)
        if problem:
            return f"gives {url!r}, which {problem}"
    return None


def fallback_url(code: StatusCode, value: str) -> str | None:
    """Where a mention of ``code`` links under the fallback ``value``; None for none (``""``, or a
    template a registry file's code cannot fill: checked with sample codes only)."""
    if not value:
        return None
    if value == "vendor":
        return code.views[0].source.url if code.views else None
    try:
        url = fill_template(value, code.name, code.value if code.value is not None else "", code.hex or "")
    except ValueError:
        return None
    return url if url_problem(url) is None else None
