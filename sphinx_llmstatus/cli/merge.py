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
    reports = []
    for path in paths:
        try:
            with (open(path, "rb") if path != "-" else sys.stdin.buffer) as fh:
                data = fh.read(MAX_REPORT + 1)
            if len(data) > MAX_REPORT:
                raise NotASummary(f"larger than {MAX_REPORT >> 20} MiB")
            reports.append(check(json.loads(data.decode("utf-8"))))
        except OSError as exc:
            error(f"cannot read {shown_path(path)}: {exc.strerror or exc}")
            return 2
        except (ValueError, NotASummary) as exc:  # UnicodeDecodeError and JSONDecodeError are ValueErrors
            error(f"cannot merge {shown_path(path)}: {exc}")
            return 2
    merged = merge(reports)
    write(sys.stdout, fmt.merged(merged))
    return 1 if merged["failures"] else 0
