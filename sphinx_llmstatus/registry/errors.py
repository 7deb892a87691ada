"""The error of a bad registry file (its own module: every face catches it, few need the loader)."""

from __future__ import annotations


class RegistryError(ValueError):
    """A registry file is unreadable or breaks the schema.

    ``file``, ``entry`` (a code name, ``sources.KEY`` or ``[[code]] #N``) and
    ``field`` (a dotted path such as ``python.recoverable``) say where; ``str()``
    reads ``FILE: entry ENTRY: field FIELD: reason``.
    """

    def __init__(self, file: str, reason: str, entry: str | None = None, field: str | None = None):
        self.file, self.entry, self.field, self.reason = file, entry, field, reason
        where = [file]
        if entry is not None:
            where.append(f"entry {entry}")
        if field is not None:
            where.append(f"field {field}")
        super().__init__(": ".join(where) + ": " + reason)
