"""The diagnosis scored on incident logs (tests/corpus/incidents): each with the cause that really
fixed it. Bars (issue 21): the top confirmed cause is the real fix in >= 90% of the incidents whose
log carries evidence; no confirmed cause is wrong; an incident without evidence gets candidates and
checks, never a confirmed cause."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from sphinx_llmstatus.registry.packaged import default_registry
from sphinx_llmstatus.scan.diagnosis import Diagnosis
from sphinx_llmstatus.scan.pipeline import scan_diagnosed

HERE = Path(__file__).parent / "corpus" / "incidents"
INCIDENTS = tomllib.loads((HERE / "incidents.toml").read_text(encoding="utf-8"))["incident"]


def _diagnosis(incident: dict) -> tuple[object, Diagnosis]:
    """The code and diagnosis of the incident's first failure of its code."""
    text = (HERE / incident["log"]).read_text(encoding="utf-8")
    hits = [h for h in scan_diagnosed(text) if h.is_failure and h.code is not None
            and h.code.name == incident["code"]]
    assert hits, f"{incident['id']}: no failure {incident['code']} found"
    assert isinstance(hits[0].diagnosis, Diagnosis)
    return hits[0].code, hits[0].diagnosis


def _fixed_by_names_one_cause(incident: dict) -> None:
    code = default_registry().get(incident["code"])
    assert code is not None, incident["id"]
    if incident["fixed_by"]:
        named = [c for v in code.views for c in v.causes if incident["fixed_by"] in c.when.en]
        assert len({id(c) for c in named}) >= 1, f"{incident['id']}: fixed_by names no cause of {code.name}"


@pytest.mark.parametrize("incident", INCIDENTS, ids=[i["id"] for i in INCIDENTS])
def test_incident(incident: dict) -> None:
    """Each incident on its own: the real cause confirmed first, or (no evidence) candidates only."""
    _fixed_by_names_one_cause(incident)
    code, diagnosis = _diagnosis(incident)
    confirmed = [j.of(code) for j in diagnosis.where("confirmed")]  # type: ignore[arg-type]
    if not incident["fixed_by"]:
        assert not confirmed, f"confirmed without evidence: {[c.when.en for c in confirmed]}"
        assert diagnosis.where("candidate"), "no candidates to check"
        return
    wrong = [c.when.en for c in confirmed if incident["fixed_by"] not in c.when.en]
    assert not wrong, f"wrong confirmed causes: {wrong}"


def test_score() -> None:
    """The bars over the whole corpus (the figures the README gives)."""
    with_evidence = [i for i in INCIDENTS if i["fixed_by"]]
    right = wrong = 0
    for incident in INCIDENTS:
        code, diagnosis = _diagnosis(incident)
        confirmed = [j.of(code) for j in diagnosis.where("confirmed")]  # type: ignore[arg-type]
        wrong += sum(1 for c in confirmed if not incident["fixed_by"] or incident["fixed_by"] not in c.when.en)
        right += bool(confirmed and incident["fixed_by"] and incident["fixed_by"] in confirmed[0].when.en)
    assert len(with_evidence) >= 10 and len(INCIDENTS) - len(with_evidence) >= 3
    assert right / len(with_evidence) >= 0.9, f"{right}/{len(with_evidence)}"
    assert wrong == 0
