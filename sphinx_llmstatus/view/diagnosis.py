"""What a failure's diagnosis says in a report, decided once: the lines of the text, Markdown and
notebook reports. Each face lays them out with its own escaping: the registry's words (with their
`backticked` names) one way, the log's words another (:func:`said`). Its JSON form is
:func:`sphinx_llmstatus.scan.diagnosis.diagnosis_dict`."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import NamedTuple

from ..registry.model import StatusCode
from ..scan.diagnosis import Diagnosis, Proof
from ..scan.hit import Hit
from ..scan.report import hit_name, hit_view

#: Candidates whose checks a report lists when no line proves a cause (the JSON lists them all).
CHECKS_SHOWN = 3


class DiagnosisLine(NamedTuple):
    """One line of a diagnosis: ``kind`` (``cause``, ``check``, ``fix``), ``text`` (the registry's
    words, or ours) and ``proof`` (the log line that proves the cause, for a confirmed ``cause``)."""

    kind: str
    text: str
    proof: Proof | None = None


def diagnosis_lines(code: StatusCode, diagnosis: Diagnosis, lang: str) -> list[DiagnosisLine]:
    """Each confirmed cause (``cause``, with the line nearest the failure that proves it; then
    ``check`` and ``fix``); without one, a ``cause`` saying no line proves one, then the ``check``
    of the first candidates (:data:`CHECKS_SHOWN`)."""
    from ..render.labels import label

    confirmed = diagnosis.where("confirmed")
    out: list[DiagnosisLine] = []
    for judged in confirmed:
        cause = judged.of(code)
        out += [DiagnosisLine("cause", cause.when.get(lang), judged.proofs[0]),
                DiagnosisLine("check", cause.check.get(lang)), DiagnosisLine("fix", cause.fix.get(lang))]
    candidates = diagnosis.where("candidate")
    if confirmed or not candidates:
        return out
    out.append(DiagnosisLine("cause", label(
        "no line of the log proves one of its {n} known causes; the checks that tell them apart:",
        lang, n=len(candidates))))
    sep = "" if lang == "zh" else " "
    return out + [DiagnosisLine("check", j.of(code).when.get(lang) + sep + j.of(code).check.get(lang))
                  for j in candidates[:CHECKS_SHOWN]]


def said(line: DiagnosisLine, lang: str, ours: Callable[[str], str], logs: Callable[[str], str]) -> str:
    """``line``'s text as a face shows it: the registry's words through ``ours``, the log's through
    ``logs`` (``cause (line N: <the line>)`` for a proven cause)."""
    from ..render.labels import label

    if line.proof is None:
        return ours(line.text)
    return label("{cause} (line {line}: {text})", lang, cause=ours(line.text), line=line.proof.line,
                 text=logs(line.proof.text.strip()))


def line_label(kind: str, lang: str) -> str:
    """The label of a line of :func:`diagnosis_lines`: ``cause``, ``check`` or ``fix`` in ``lang``."""
    from ..render.labels import label

    return {"cause": label("cause", lang), "check": label("check", lang), "fix": label("fix", lang)}[kind]


def told_before(failures: Sequence[tuple[str, Hit]]) -> list[tuple[str, Hit] | None]:
    """For each first failure ``(file, hit)`` of a report, in its order, the earlier one whose
    remedy and diagnosis are the same (same code, API and diagnosis), where the report gave them
    already; None where it gives them. Thousands of processes that fail alike (a deployment's
    every worker) used to repeat the same checks thousands of times: 443 MB of text for 200,000."""
    first: dict[tuple, tuple[str, Hit]] = {}
    out: list[tuple[str, Hit] | None] = []
    for file, hit in failures:
        if hit.diagnosis is None and hit_view(hit) is None:  # nothing to say twice
            out.append(None)
            continue
        told = first.setdefault((hit_name(hit), hit.api, hit.diagnosis), (file, hit))
        out.append(None if told[1] is hit else told)
    return out

