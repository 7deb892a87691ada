"""A log as an attacker writes it: nothing of it reaches the terminal raw, JSON stays exact.

Issue 20, point 4: a process name carrying an OSC 8 hyperlink, C1 controls (U+009B, the one-byte
CSI), a bidirectional override (U+202E) and a line separator (U+2028) pass through neither the
hit lines, the ``-C`` lines nor the "First failure per process" line of the text and Markdown
reports; ``--json`` keeps every character (as ``\\uXXXX`` escapes) and stays UTF-8 under any locale.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from sphinx_llmstatus.render.text import UNSAFE_CHARS

LINK = "\x1b]8;;http://evil/\x07click\x1b]8;;\x07"
PROCESS = f"1234,{LINK}\x9b2J,python"
HIT = f"[ERROR] GE({PROCESS}):2024-01-01-00:00:00.000.000 [llm_datadist.cc:10] ret = 0x5010B009 \u202eevil\u2028x"
NEAR = "before \x1b[2J\u202e\x85 line"
LOG = "\n".join([NEAR, HIT, NEAR]) + "\n"
RAW = [chr(c) for c in (0x1B, 0x07, 0x9B, 0x85, 0x202E, 0x2028)]


def run(*args: str, env: dict[str, str] | None = None, tmp_path=None) -> subprocess.CompletedProcess:
    log = tmp_path / "hostile.log"
    log.write_text(LOG, encoding="utf-8")
    return subprocess.run([sys.executable, "-m", "sphinx_llmstatus", "scan", *args, str(log)],
                          capture_output=True, check=False, timeout=120, env={**os.environ, **(env or {})})


@pytest.mark.parametrize("args", [(), ("-C", "1"), ("--format", "markdown"), ("--format", "markdown", "-C", "1"),
                                  ("--summary",)])
def test_no_control_or_bidi_character_reaches_the_terminal(tmp_path, args):
    out = run(*args, tmp_path=tmp_path).stdout.decode("utf-8")
    assert not [c for c in RAW if c in out], args
    assert "x1b" in out and "evil/" in out  # shown, escaped (Markdown escapes the backslash too)
    if "--summary" not in args:
        assert "u202e" in out


def test_the_first_failure_line_names_the_process_escaped(tmp_path):
    out = run(tmp_path=tmp_path).stdout.decode("utf-8")
    first = next(line for line in out.splitlines() if "process 1234" in line)
    assert "\\x1b]8;;http://evil/\\x07click\\x1b]8;;\\x07\\x9b2J,python" in first


@pytest.mark.parametrize("env", [{}, {"LC_ALL": "C", "LANG": "C", "PYTHONIOENCODING": "ascii"},
                                 {"PYTHONIOENCODING": "latin-1"}])
def test_json_is_exact_utf_8_with_the_unsafe_characters_escaped(tmp_path, env):
    p = run("--json", "-C", "1", "--lang", "zh", env=env, tmp_path=tmp_path)
    raw = p.stdout.decode("utf-8")  # UTF-8 whatever the locale
    assert not [c for c in RAW[2:] if c in raw]  # C0 is escaped by JSON itself
    hit = json.loads(raw.splitlines()[0])
    assert hit["text"] == HIT and hit["before"][0]["text"] == NEAR and hit["after"][0]["text"] == NEAR
    assert hit["remedy"]["python"].startswith("当 `link_clusters`")
    assert hit["process"] == "1234 (" + PROCESS[5:] + ")"  # the pid, then the rest of the parentheses


def test_lookup_json_under_an_ascii_locale_is_utf_8():
    p = subprocess.run([sys.executable, "-m", "sphinx_llmstatus", "--json", "--lang", "zh", "LLM_LINK_FAILED"],
                       capture_output=True, check=True, timeout=60,
                       env={**os.environ, "LC_ALL": "C", "PYTHONIOENCODING": "ascii"})
    assert json.loads(p.stdout.decode("utf-8"))[0]["meaning"]["python"] == "建链失败。"


def test_the_sanitiser_covers_every_class_it_names():
    import re

    from sphinx_llmstatus.render.text import terminal_safe

    for c in (*RAW, "\x00", "\x7f", "\u200e", "\u2066", "\u2069", "\u061c", "\u2029", "\udcff"):
        assert re.fullmatch(f"[{UNSAFE_CHARS}]", c) and c not in terminal_safe(f"a{c}b"), repr(c)
    assert terminal_safe("日志 ok") == "日志 ok"
