"""The scanner on real log shapes (tests/corpus/: one file per public source, README.md names them).

Each ``NAME.log`` has its expected hits in ``NAME.json`` (a JSON list of the
stable fields of ``llmstatus scan --json``); gzip, bzip2, xz and zstd copies,
made by the tests with the formats' own libraries, must give the same hits,
through a file and through a pipe. Regenerate the expectations after a
deliberate rule change with ``python tests/test_scan_corpus.py`` and review the
diff line by line.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

CORPUS = Path(__file__).parent / "corpus"
LOGS = sorted(CORPUS.glob("*.log"))
#: Fields compared: what the scanner decides (the registry's texts may change).
FIELDS = ("line", "column", "columns", "token", "kind", "family", "name", "value", "process", "api", "failure",
          "symptom", "llm_datadist_name", "likely_consequence_of", "confirmed")
FORMATS = {".gz": "gzip", ".bz2": "bz2", ".xz": "lzma", ".zst": "zstandard"}


def scan_json(*args: str, stdin: bytes | None = None, env: dict | None = None) -> tuple[int, list[dict]]:
    p = subprocess.run([sys.executable, "-m", "sphinx_llmstatus", "scan", "--json", *args], input=stdin,
                       capture_output=True, env={**os.environ, **(env or {})}, check=False)
    assert p.returncode in (0, 1), p.stderr.decode()
    rows = [json.loads(line) for line in p.stdout.decode().splitlines()]
    for r in rows:  # the file name differs between the copies
        r.get("likely_consequence_of", {}).pop("file", None)
        if "diagnosis" in r:  # the causes a failure's lines prove, and the lines (the texts may change)
            r["confirmed"] = [[c["api"], c["index"], [e["line"] for e in c["evidence"]]]
                              for c in r["diagnosis"]["confirmed"]]
    return p.returncode, [{k: r.get(k) for k in FIELDS if k in r} for r in rows]


def expected(log: Path) -> list[dict]:
    return json.loads(log.with_suffix(".json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("log", LOGS, ids=[p.stem for p in LOGS])
def test_corpus_file(log):
    code, rows = scan_json(str(log))
    assert rows == expected(log)
    # Exit 1 only for LLM DataDist failures (other layers and symptoms never).
    assert code == (1 if any(r.get("failure") for r in rows) else 0)


@pytest.mark.slow  # every corpus log through a pipe with each engine: ~11 s
@pytest.mark.parametrize("engine", ["python", "hyperscan"])
def test_corpus_both_engines_and_pipe(engine):
    from sphinx_llmstatus.scan.prefilter import available

    if engine not in available():
        pytest.skip(f"{engine} not installed")
    for log in LOGS:
        _, rows = scan_json("-", stdin=log.read_bytes(), env={"LLMSTATUS_SCAN_ENGINE": engine})
        assert rows == expected(log), log.name


def compress(data: bytes, suffix: str) -> bytes:
    import bz2
    import gzip
    import lzma

    import zstandard

    return {".gz": lambda: gzip.compress(data, mtime=0), ".bz2": lambda: bz2.compress(data),
            ".xz": lambda: lzma.compress(data), ".zst": lambda: zstandard.ZstdCompressor().compress(data)}[suffix]()


@pytest.mark.slow
@pytest.mark.parametrize("suffix", sorted(FORMATS))
def test_compressed_copies(suffix, tmp_path):
    """Every compressed copy scans like its log, read by content (any name), from a file and a pipe."""
    for log in LOGS:
        packed = tmp_path / (log.name + suffix)
        packed.write_bytes(compress(log.read_bytes(), suffix))
        _, rows = scan_json(str(packed))
        assert rows == expected(log), packed.name
    _, rows = scan_json("-", stdin=compress(LOGS[0].read_bytes(), suffix))
    assert rows == expected(LOGS[0])


def _regenerate() -> None:
    for log in LOGS:
        _, rows = scan_json(str(log))
        log.with_suffix(".json").write_text(json.dumps(rows, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


if __name__ == "__main__":
    _regenerate()


def test_hit_json_is_one_dumps_of_what_hit_dict_holds():
    """``hit_json`` splices pieces laid out once (a code's advice, a diagnosis) into each line: the
    same bytes as one ``dumps`` of the hit's fields, for every kind of hit of the corpus."""
    from sphinx_llmstatus.render.json import dumps, hit_dict, hit_json
    from sphinx_llmstatus.scan.diagnosis import diagnosis_dict
    from sphinx_llmstatus.scan.pipeline import scan_diagnosed

    unknown = "[ERROR] LinkLlmClusters failed, ret = 0x5010B0FE"  # a number of the layout no page lists
    hits = scan_diagnosed("\n".join([*(log.read_text(encoding="utf-8", errors="replace") for log in LOGS), unknown]))
    assert {(h.kind, h.family != "llm_datadist", h.code is not None, h.diagnosis is not None) for h in hits} >= {
        ("code", False, True, True), ("code", False, False, False), ("code", True, False, False),
        ("symptom", False, True, False)}
    context = {"before": [{"line": 1, "text": "a\u202e"}], "after": []}
    for hit in hits:
        for lang in ("en", "zh"):
            for extra in ({}, context):
                want = {**hit_dict(hit, "f.log", lang, diagnosis=False), **extra}
                if hit.diagnosis is not None and hit.code is not None:
                    want["diagnosis"] = diagnosis_dict(hit.code, hit.diagnosis, lang)  # type: ignore[arg-type]
                assert hit_json(hit, "f.log", lang, extra) == dumps(want)
