"""Read who wrote a log line from its start, by the registry's log formats (``[[log_format]]``)."""

from __future__ import annotations

import re
from functools import lru_cache

from .model import LogFormat


@lru_cache(maxsize=64)
def compiled(pattern: str) -> re.Pattern[str]:
    """The compiled pattern of a log format (bounded by the schema, so linear on any line)."""
    return re.compile(pattern)


def read(fmt: LogFormat, head: str) -> tuple[str, str, str] | None:
    """``(module, process, api)`` that ``fmt`` reads from a line's ``head``, or None when it does not match.

    The process is ``pid (name extra)`` (``1254 (ker_DP25_EP25)``, ``123 (VllmWorker rank=0)``),
    ``pid`` without a name; each part is ``""`` when the line does not give it.
    """
    m = compiled(fmt.pattern).search(head)
    if m is None:
        return None
    groups = m.groupdict()
    module, pid, name, extra = (groups.get(k) or "" for k in ("module", "pid", "name", "extra"))
    process = f"{pid} ({name}{extra})" if pid and (name or extra) else pid
    api = fmt.api or ""
    if not api and any(name.startswith(n) for n in fmt.api_names):
        api = "python"
    return module, process, api


def read_prefix(fmt: LogFormat, line: str) -> tuple[str, str, str]:
    """What :func:`read` gives, ``("", "", "")`` for a line the format does not match."""
    return read(fmt, line) or ("", "", "")
