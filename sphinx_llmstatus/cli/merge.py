"""``llmstatus merge REPORT...``: the deployment's report from per-node ``scan --summary --json``."""

from __future__ import annotations

import json
import sys

from ..registry.model import Registry
from ..scan.merge import NotASummary, check, merge
from .output import error, shown_path, write

TYPE_CHECKING = False
if TYPE_CHECKING:
    from .formats import Format

#: Largest report read (a summary is a few kilobytes per process).
MAX_REPORT = 64 << 20


def merge_reports(paths: list[str], registry: Registry, fmt: Format) -> int:
    """Read, check and merge the reports; write the result through ``fmt``. 2 when one is unusable,
    else 1 when the deployment has a failure, else 0 (as ``scan``)."""
    if paths.count("-") > 1:
        error("standard input ('-') can be merged only once")
        return 2
    reports = []
    for path in paths:
        try:
            with (open(path, "rb") if path != "-" else sys.stdin.buffer) as fh:
                data = fh.read(MAX_REPORT + 1)
            if len(data) > MAX_REPORT:
                raise NotASummary(f"larger than {MAX_REPORT >> 20} MiB")
            reports.append(check(json.loads(data.decode("utf-8"), parse_constant=_not_json)))
        except OSError as exc:
            error(f"cannot read {shown_path(path)}: {exc.strerror or exc}")
            return 2
        except RecursionError:
            error(f"cannot merge {shown_path(path)}: nested too deeply to be a report")
            return 2
        except (ValueError, NotASummary) as exc:  # UnicodeDecodeError and JSONDecodeError are ValueErrors
            error(f"cannot merge {shown_path(path)}: {exc}")
            return 2
    merged = merge(reports)
    write(sys.stdout, fmt.merged(merged))
    return 1 if merged["failures"] else 0


def _not_json(word: str) -> None:
    """``NaN`` and ``Infinity`` are no JSON (RFC 8259): refused, not passed on."""
    raise ValueError(f"{word} is not JSON")
