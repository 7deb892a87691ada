"""The scan's records without dataclasses (``scan/record.py``): fields named once, in order, and
a scan's start that imports neither dataclasses nor inspect."""

from __future__ import annotations

import inspect
import pickle
import subprocess
import sys
from pathlib import Path

import pytest

from sphinx_llmstatus.registry import default_registry
from sphinx_llmstatus.scan.hit import Hit, astuple_but_line
from sphinx_llmstatus.scan.rules import Token

LOG = Path(__file__).parent / "data" / "scan_positive.log"


@pytest.mark.parametrize("cls", [Hit, Token])
def test_the_slots_are_the_init_parameters_in_order(cls):
    params = list(inspect.signature(cls).parameters)
    assert params == list(cls.__slots__)


def test_a_hit_fills_its_columns_and_length_as_its_dataclass_did():
    hit = Hit(3, "ret = 1343270921", 6, 16, "1343270921", 1343270921, None)
    assert (hit.column, hit.columns, hit.line_length) == (6, (6,), 16)
    assert Hit(3, "x" * 9, 0, 1, "x", None, None, column=40, line_length=900).columns == (40,)


def test_equality_hashing_repr_and_replace_are_field_wise():
    code = default_registry()["LLM_LINK_FAILED"]
    a = Hit(1, "LLM_LINK_FAILED", 0, 15, "LLM_LINK_FAILED", code.value, code)
    b = Hit(1, "LLM_LINK_FAILED", 0, 15, "LLM_LINK_FAILED", code.value, code)
    assert a == b and hash(a) == hash(b) and a != Token(0, 15, "name", code.value, code)
    moved = a._replace(line_no=7, consequence_of=("f", 1, "X"))
    assert (moved.line_no, moved.consequence_of, moved.token, a.line_no) == (7, ("f", 1, "X"), "LLM_LINK_FAILED", 1)
    assert astuple_but_line(moved) == astuple_but_line(a._replace(consequence_of=("f", 1, "X")))
    assert repr(Token(1, 2, "layout", 5, None)) == (
        "Token(start=1, end=2, kind='layout', value=5, code=None, python_form=False, starts=None)")
    with pytest.raises(TypeError, match="no fields \\['colour'\\]"):
        a._replace(colour=1)


def test_a_record_pickles_as_its_class_and_fields():
    # A -j worker's spool holds every hit it found: half the bytes of pickling the slots by name.
    code = default_registry()["LLM_LINK_FAILED"]
    hit = Hit(2, "x LLM_LINK_FAILED", 2, 17, "LLM_LINK_FAILED", code.value, None, column=9, columns=(9, 30),
              line_length=900, process="7 (python)", consequence_of=("f", 1, "X"))
    token = Token(0, 4, "layout", 5, None, starts=[0, 8])
    assert pickle.loads(pickle.dumps(hit)) == hit and pickle.loads(pickle.dumps(token)) == token
    assert hit.__reduce__() == (Hit, tuple(getattr(hit, n) for n in Hit.__slots__))


@pytest.mark.parametrize("form", [["--json"], [], ["--summary"], ["--format", "markdown"]])
def test_a_scan_with_failures_imports_neither_dataclasses_nor_inspect(form):
    # Importing them (inspect with ast, dis, tokenize) and making a dozen records was an eighth of
    # the instructions of every scan's start.
    code = ("import io, contextlib, sys\nfrom sphinx_llmstatus.cli import main\n"
            "with contextlib.redirect_stdout(io.StringIO()):\n"
            f"    status = main(['scan', *{form!r}, {str(LOG)!r}])\n"
            "print(status, sorted(m for m in ('dataclasses', 'inspect') if m in sys.modules))\n")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, timeout=60)
    assert p.stdout.decode().split() == ["1", "[]"], p.stderr.decode()
