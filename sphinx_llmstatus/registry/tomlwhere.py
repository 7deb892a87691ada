"""Where in a TOML text a value is, for an error that ``tomllib`` reports without a place."""

from __future__ import annotations

import re

_TABLE_HEADER_RE = re.compile(r"^\s*\[(\[?)\s*([^\]]+?)\s*\]")
_KEY_VALUE_RE = re.compile(r"^\s*([A-Za-z0-9_.\-\"' ]+?)\s*=\s*(.*)")
_NAME_VALUE_RE = re.compile(r"^\s*name\s*=\s*[\"']([^\"']*)[\"']")


def locate_huge_integer(text: str) -> tuple[str | None, str | None]:
    """``(entry, field)`` of the first integer too long for ``int()``: a line scan, linear in the text."""
    import sys

    limit = sys.get_int_max_str_digits() or 4300
    section, entry, index = "", None, 0
    for line in text.splitlines():
        header = _TABLE_HEADER_RE.match(line)
        if header:
            section = header.group(2)
            if header.group(1) and section == "code":
                index += 1
                entry = f"[[code]] #{index}"
            elif "." in section and not section.startswith("code"):
                entry = section
            continue
        named = _NAME_VALUE_RE.match(line)
        if named and section == "code":
            entry = named.group(1) or entry
        found = _KEY_VALUE_RE.match(line)
        if found and sum(c.isdigit() for c in found.group(2)) > limit:
            prefix = section.removeprefix("code").lstrip(".") if section.startswith("code") else ""
            return entry, f"{prefix}.{found.group(1)}" if prefix else found.group(1)
    return None, None
