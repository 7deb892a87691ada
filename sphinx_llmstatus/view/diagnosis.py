"""What a failure's diagnosis says in a report, decided once: the lines of the text, Markdown and
notebook reports (each face only lays them out, escaping the log's words its own way). Its JSON
form is :func:`sphinx_llmstatus.scan.diagnosis.diagnosis_dict`."""

from __future__ import annotations

from ..registry.model import StatusCode
from ..scan.diagnosis import Diagnosis

#: Candidates whose checks a report lists when no line proves a cause (the JSON lists them all).
CHECKS_SHOWN = 3


def diagnosis_lines(code: StatusCode, diagnosis: Diagnosis, lang: str) -> list[tuple[str, str]]:
    """The report's lines as ``(label, text)``: each confirmed cause (``cause``: its circumstance and
    ``line N: <the line>``, then ``check`` and ``fix``); without one, ``cause`` says no line proves
    one and the checks of the first candidates follow (``check``). The text holds log words: escape it."""
    from ..render.labels import label

    confirmed = diagnosis.where("confirmed")
    out: list[tuple[str, str]] = []
    for judged in confirmed:
        cause = judged.of(code)
        proof = judged.proofs[0]
        said = label("{cause} (line {line}: {text})", lang, cause=cause.when.get(lang), line=proof.line,
                     text=proof.text.strip())
        out += [("cause", said), ("check", cause.check.get(lang)),
                ("fix", cause.fix.get(lang))]
    if confirmed:
        return out
    candidates = diagnosis.where("candidate")
    if not candidates:
        return out
    said = label("no line of the log proves one of its {n} known causes; the checks that tell them apart:",
                 lang, n=len(candidates))
    out.append(("cause", said))
    sep = "" if lang == "zh" else " "
    out += [("check", j.of(code).when.get(lang) + sep + j.of(code).check.get(lang)) for j in candidates[:CHECKS_SHOWN]]
    return out


def line_label(kind: str, lang: str) -> str:
    """The label of a line of :func:`diagnosis_lines`: ``cause``, ``check`` or ``fix`` in ``lang``."""
    from ..render.labels import label

    return {"cause": label("cause", lang), "check": label("check", lang), "fix": label("fix", lang)}[kind]
