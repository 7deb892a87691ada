"""What a scan found, for a person on call: first failure per process, counts, consequences.

Real logs repeat (FIELD-NOTES.md section 3): after the first ``LLM_LINK_FAILED``
a process logs several ``LLM_FAILED`` lines that only pass the failure on.
:class:`Report` takes the hits in file order and keeps, per process (the
line prefix's process, else the file), the first LLM DataDist failure; a
later generic code (``LLM_FAILED``, ``LLM_UNKNOWN_ERROR``) in the same process
after a specific first failure is marked as its likely consequence.
"""

from __future__ import annotations

from collections import Counter

from .hit import Hit

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ..registry.model import ApiView

#: Values of the codes that only pass a failure on (0xFFFFFFFF, -1).
GENERIC_VALUES = frozenset({0xFFFFFFFF, -1})


def hit_view(hit: Hit) -> ApiView | None:
    """The API view whose remedy a report shows for ``hit``: the API the hit was read as,
    else the code's first view; None for a hit without a known code."""
    if hit.code is None:
        return None
    return (hit.code.view(hit.api) if hit.api else None) or (hit.code.views[0] if hit.code.views else None)


def hit_name(hit: Hit) -> str:
    """The name a hit is counted under: the code, the other family's name, the symptom id, or the hex."""
    if hit.kind == "symptom":
        return str(getattr(hit.symptom, "id", "symptom"))
    if hit.code is not None:
        return hit.code.name
    if hit.other_name:
        return hit.other_name
    return f"0x{(hit.value or 0) & 0xFFFFFFFF:08X}"


def is_generic(hit: Hit) -> bool:
    """True for an LLM DataDist code that only says "failed" (``LLM_FAILED``, ``LLM_UNKNOWN_ERROR``)."""
    return hit.code is not None and hit.code.value in GENERIC_VALUES


class Report:
    """Counts and first failures of one scan (one or more files), fed hit by hit in file order."""

    def __init__(self) -> None:
        #: (file, process) -> the first LLM DataDist failure of that process.
        self.first: dict[tuple[str, str | None], tuple[str, Hit]] = {}
        #: LLM DataDist code name -> hits; family -> name -> hits; symptom id -> hits.
        self.counts: Counter[str] = Counter()
        self.other: dict[str, Counter[str]] = {}
        self.symptoms: Counter[str] = Counter()
        self.consequences: Counter[str] = Counter()
        self.codes: dict[str, Hit] = {}
        #: (file, process) -> the last symptom, else the last other layer's code, seen before the
        #: process's first failure; then the one its first failure came after (``preceded``).
        self._before: dict[tuple[str, str | None], Hit] = {}
        self.preceded: dict[tuple[str, str | None], Hit] = {}

    def add(self, file: str, hit: Hit) -> tuple[str, Hit] | None:
        """Count ``hit`` (found in ``file``); return ``(file, first failure)`` when it is a likely consequence of it."""
        name = hit_name(hit)
        if hit.kind == "symptom" or not hit.is_llm_datadist:
            self._note_before(file, hit)
            if hit.kind == "symptom":
                self.symptoms[name] += 1
            else:
                self.other.setdefault(hit.family, Counter())[name] += 1
            return None
        self.counts[name] += 1
        self.codes.setdefault(name, hit)
        if not hit.is_failure:
            return None
        key = (file, hit.process)
        first = self.first.get(key)
        if first is None:
            self.first[key] = (file, hit)
            earlier = self._before.pop(key, None)
            if earlier is not None:
                self.preceded[key] = earlier
            return None
        if is_generic(hit) and not is_generic(first[1]):
            self.consequences[name] += 1
            return first
        return None

    def _note_before(self, file: str, hit: Hit) -> None:
        """Remember ``hit`` (a symptom or another layer's code) while its process has no failure yet:
        a symptom is kept over a bare code, since it says what to check."""
        key = (file, hit.process)
        if key in self.first:
            return
        kept = self._before.get(key)
        if kept is None or hit.kind == "symptom" or kept.kind != "symptom":
            self._before[key] = hit

    @property
    def failures(self) -> int:
        """LLM DataDist failure hits (what makes ``llmstatus scan`` exit 1)."""
        return sum(n for name, n in self.counts.items() if not self.codes[name].is_success)

    def first_failures(self) -> list[dict[str, object]]:
        """``[{file, line, name, process}]`` in order of appearance, with ``after: {line, name, family}``
        when the process logged a symptom or another layer's code before it (the layer below
        that failed first, as often as not)."""
        out: list[dict[str, object]] = []
        for key, (f, h) in self.first.items():
            item: dict[str, object] = {"file": f, "line": h.line_no, "name": hit_name(h), "process": h.process}
            earlier = self.preceded.get(key)
            if earlier is not None:
                item["after"] = {"line": earlier.line_no, "name": hit_name(earlier), "family": earlier.family,
                                 "kind": earlier.kind}
            out.append(item)
        return out

    def as_dict(self) -> dict[str, object]:
        """The JSON summary object (``llmstatus scan --summary --json``)."""
        return {
            "first_failures": self.first_failures(),
            "counts": dict(self.counts.most_common()),
            "likely_consequences": dict(self.consequences.most_common()),
            "failures": self.failures,
            "other_families": {fam: dict(c.most_common()) for fam, c in self.other.items()},
            "symptoms": dict(self.symptoms.most_common()),
        }
