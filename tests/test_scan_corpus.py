"""The scanner on real log shapes (tests/corpus/: one file per public source, README.md names them).

Each ``NAME.log`` has its expected hits in ``NAME.json`` (a JSON list of the
stable fields of ``llmstatus scan --json``); the compressed copies in
``tests/corpus/compressed/`` must give the same hits, through a file and
through a pipe. Regenerate the expectations after a deliberate rule change
with ``python tests/test_scan_corpus.py`` and review the diff line by line.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

CORPUS = Path(__file__).parent / "corpus"
COMPRESSED = CORPUS / "compressed"
LOGS = sorted(CORPUS.glob("*.log"))
#: Fields compared: what the scanner decides (the registry's texts may change).
FIELDS = ("line", "column", "columns", "token", "kind", "family", "name", "value", "process", "api", "failure",
          "symptom", "llm_datadist_name", "likely_consequence_of")
FORMATS = {".gz": "gzip", ".bz2": "bz2", ".xz": "lzma", ".zst": "zstandard"}


def scan_json(*args: str, stdin: bytes | None = None, env: dict | None = None) -> tuple[int, list[dict]]:
    p = subprocess.run([sys.executable, "-m", "sphinx_llmstatus", "scan", "--json", *args], input=stdin,
                       capture_output=True, env={**os.environ, **(env or {})}, check=False)
    assert p.returncode in (0, 1), p.stderr.decode()
    rows = [json.loads(line) for line in p.stdout.decode().splitlines()]
    for r in rows:  # the file name differs between the copies
        r.get("likely_consequence_of", {}).pop("file", None)
    return p.returncode, [{k: r.get(k) for k in FIELDS if k in r} for r in rows]


def expected(log: Path) -> list[dict]:
    return json.loads(log.with_suffix(".json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("log", LOGS, ids=[p.stem for p in LOGS])
def test_corpus_file(log):
    code, rows = scan_json(str(log))
    assert rows == expected(log)
    # Exit 1 only for LLM DataDist failures (other layers and symptoms never).
    assert code == (1 if any(r.get("failure") for r in rows) else 0)


@pytest.mark.parametrize("engine", ["python", "hyperscan"])
def test_corpus_both_engines_and_pipe(engine):
    from sphinx_llmstatus.scan.prefilter import available

    if engine not in available():
        pytest.skip(f"{engine} not installed")
    for log in LOGS:
        _, rows = scan_json("-", stdin=log.read_bytes(), env={"LLMSTATUS_SCAN_ENGINE": engine})
        assert rows == expected(log), log.name


@pytest.mark.parametrize("suffix", sorted(FORMATS))
def test_compressed_copies(suffix):
    """Every compressed copy decompresses to its log and scans alike, read by content (name or not)."""
    import importlib

    module = importlib.import_module(FORMATS[suffix])
    for log in LOGS:
        packed = COMPRESSED / (log.name + suffix)
        data = packed.read_bytes()
        if suffix == ".zst":
            assert module.ZstdDecompressor().stream_reader(data).read() == log.read_bytes()
        else:
            assert module.decompress(data) == log.read_bytes(), packed
        _, rows = scan_json(str(packed))
        assert rows == expected(log), packed.name
    _, rows = scan_json("-", stdin=(COMPRESSED / (LOGS[0].name + suffix)).read_bytes())
    assert rows == expected(LOGS[0])


def _regenerate() -> None:
    import bz2
    import gzip
    import lzma

    import zstandard

    COMPRESSED.mkdir(exist_ok=True)
    for log in LOGS:
        _, rows = scan_json(str(log))
        log.with_suffix(".json").write_text(json.dumps(rows, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        data = log.read_bytes()
        (COMPRESSED / (log.name + ".gz")).write_bytes(gzip.compress(data, mtime=0))
        (COMPRESSED / (log.name + ".bz2")).write_bytes(bz2.compress(data))
        (COMPRESSED / (log.name + ".xz")).write_bytes(lzma.compress(data))
        (COMPRESSED / (log.name + ".zst")).write_bytes(zstandard.ZstdCompressor().compress(data))


if __name__ == "__main__":
    _regenerate()
