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
from ..scan.report import hit_name

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


def told_before(failures: Sequence[tuple[str, Hit]], lang: str) -> list[tuple[str, Hit] | None]:
    """For each first failure ``(file, hit)`` of a report, in its order, the earlier one whose
    remedy and checks the report printed already (same code and API, the same
    :func:`diagnosis_lines`), for it to point at; None where the report prints them. A failure
    whose cause a line proves keeps its lines (the proof is its own process's line), and one
    without checks its remedy (one line). Thousands of processes failing alike (a deployment's
    every worker) repeated the same checks thousands of times: 443 MB of text for 200,000."""
    first: dict[tuple, tuple[str, Hit]] = {}
    lines: dict[tuple, tuple[DiagnosisLine, ...]] = {}  # per code and diagnosis (shared by a batch)
    out: list[tuple[str, Hit] | None] = []
    for file, hit in failures:
        said: tuple[DiagnosisLine, ...] = ()
        if hit.code is not None and isinstance(hit.diagnosis, Diagnosis):
            key = (hit.code.name, hit.diagnosis)
            if key not in lines:
                lines[key] = tuple(diagnosis_lines(hit.code, hit.diagnosis, lang))
            said = lines[key]
        if not said or any(line.proof is not None for line in said):
            out.append(None)
            continue
        told = first.setdefault((hit_name(hit), hit.api, said), (file, hit))
        out.append(None if told[1] is hit else told)
    return out


def told_note(told: tuple[str, Hit], lang: str, where: Callable[[str, int], str]) -> str:
    """What a first failure says instead of the remedy and checks :func:`told_before` found
    printed already: where, named by ``where(file, line)`` as the face names a line."""
    from ..render.labels import label

    return label("remedy and checks as at {where}", lang, where=where(told[0], told[1].line_no))
