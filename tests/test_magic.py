"""``%llmstatus`` / ``%%llmstatus`` in a real IPython InteractiveShell (no mocks).

Every form of issue 3, bad input (one line, no traceback), help, completion,
the opt-in hint hook, ``--last`` and loading without Sphinx/docutils.
"""

from __future__ import annotations

import enum
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

IPython = pytest.importorskip("IPython")
from IPython.core.completer import provisionalcompleter  # noqa: E402
from IPython.core.error import UsageError  # noqa: E402
from IPython.core.interactiveshell import InteractiveShell  # noqa: E402
from IPython.utils.capture import capture_output  # noqa: E402
from traitlets.config import Config  # noqa: E402

from sphinx_llmstatus.magic import loaded_magics  # noqa: E402
from sphinx_llmstatus.magic.completion import IDENTIFIER  # noqa: E402
from sphinx_llmstatus.magic.results import CardResult, LastResult, ListResult, ScanResult  # noqa: E402
from sphinx_llmstatus.registry import default_registry  # noqa: E402

ALL = len(default_registry().in_family("llm_datadist"))  # every LLM DataDist code of the packaged registry

DATA = Path(__file__).parent / "data"

# The six lines of issue 3, with what each must give.
ISSUE_LOG = textwrap.dedent(
    """\
    llm_datadist.status.LLMException: [link] failed, error code is LLMStatusCode.LLM_LINK_FAILED, {3: 0, 19: 1}.
    [ERROR] LinkLlmClusters failed, ret = 1343270921
    PullKvBlocks failed, layer = 3, role = decoder, ret = 5010b002
    Load graph failed, error code:1343225857, see plog
    Transfer slice failed with status: 503900
    ret=[<LLMStatusCode.LLM_SUCCESS: 0>]
    """
)


class LLMStatusCode(enum.Enum):
    """Stand-in for the vendor enum (same names and values), so no vendor package is needed."""

    LLM_SUCCESS = 0
    LLM_LINK_FAILED = 1343270921
    LLM_KV_CACHE_NOT_EXIST = 1343270914


class LLMException(Exception):
    """Stand-in for llm_datadist.status.LLMException: carries ``status_code``."""

    def __init__(self, message: str, status_code: LLMStatusCode):
        super().__init__(message)
        self._status_code = status_code

    @property
    def status_code(self) -> LLMStatusCode:
        return self._status_code


class BrokenStatus(Exception):
    @property
    def status_code(self):
        raise RuntimeError("boom inside status_code")


@pytest.fixture(scope="module")
def shell():
    config = Config()
    config.HistoryManager.hist_file = ":memory:"
    sh = InteractiveShell.instance(config=config)
    sh.run_line_magic("colors", "nocolor")
    yield sh
    InteractiveShell.clear_instance()


@pytest.fixture
def ip(shell):
    """The shell with the extension freshly loaded, English output; unloaded afterwards."""
    shell.run_line_magic("load_ext", "sphinx_llmstatus")
    shell.run_line_magic("config", "LLMStatusMagics.lang = 'en'")
    shell.user_ns.update(LLMException=LLMException, LLMStatusCode=LLMStatusCode, BrokenStatus=BrokenStatus)
    yield shell
    shell.run_line_magic("unload_ext", "sphinx_llmstatus")
    # %config values live in the shell's config and would outlive the extension.
    shell.config.pop("LLMStatusMagics", None)
    for attr in ("last_value", "last_exc", "last_type", "last_traceback"):
        sys.__dict__.pop(attr, None)


def run(ip, cell: str):
    """Run ``cell`` as a user would; return (result object, stdout, stderr)."""
    with capture_output() as cap:
        res = ip.run_cell(cell, store_history=True)
    return res, cap.stdout, cap.stderr


def assert_one_line_error(out: str, err: str, expected: str) -> None:
    text = (out + err).strip()
    assert text.startswith("UsageError: "), text
    assert expected in text, text
    assert "\n" not in text and "Traceback" not in text, text


# -- loading --------------------------------------------------------------------


def test_load_twice_is_harmless_and_unload_cleans_everything(shell):
    callbacks_before = list(shell.events.callbacks["post_run_cell"])
    matchers_before = list(shell.Completer.custom_matchers)
    shell.run_line_magic("load_ext", "sphinx_llmstatus")
    magics = loaded_magics(shell)
    with capture_output():
        shell.run_line_magic("load_ext", "sphinx_llmstatus")
        shell.run_line_magic("load_ext", "sphinx_llmstatus.magic")  # other name: still one instance
    assert loaded_magics(shell) is magics
    assert shell.magics_manager.magics["line"]["llmstatus"].__self__ is magics
    assert sum(getattr(m, "matcher_identifier", "") == IDENTIFIER for m in shell.Completer.custom_matchers) == 1
    assert shell.configurables.count(magics) == 1
    magics.hook = True
    shell.run_line_magic("unload_ext", "sphinx_llmstatus")
    assert "llmstatus" not in shell.magics_manager.magics["line"]
    assert "llmstatus" not in shell.magics_manager.magics["cell"]
    assert loaded_magics(shell) is None
    assert shell.events.callbacks["post_run_cell"] == callbacks_before
    assert shell.Completer.custom_matchers == matchers_before
    assert magics not in shell.configurables
    shell.run_line_magic("unload_ext", "sphinx_llmstatus.magic")  # not loaded: no error
    shell.run_line_magic("load_ext", "sphinx_llmstatus")  # and loads again after unloading
    assert isinstance(shell.run_line_magic("llmstatus", "LLM_LINK_FAILED"), CardResult)
    shell.run_line_magic("unload_ext", "sphinx_llmstatus")


def test_loading_imports_neither_sphinx_nor_docutils():
    # A fresh interpreter: this test process has Sphinx loaded by other tests.
    script = textwrap.dedent(
        """
        import sys
        from IPython.core.interactiveshell import InteractiveShell
        ip = InteractiveShell.instance()
        before = {m for m in sys.modules if m.split('.')[0] in ('sphinx', 'docutils')}
        ip.run_line_magic('load_ext', 'sphinx_llmstatus')
        r = ip.run_line_magic('llmstatus', 'LLM_LINK_FAILED')
        r._repr_mimebundle_()
        ip.run_cell_magic('llmstatus', '', 'ret = 1343270921')._repr_mimebundle_()
        after = {m for m in sys.modules if m.split('.')[0] in ('sphinx', 'docutils')}
        print(sorted(before), sorted(after))
        """
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[] []", out.stdout + out.stderr


def test_lazy_magics_config_loads_the_extension_on_first_use(shell):
    shell.magics_manager.lazy_magics["llmstatus"] = "sphinx_llmstatus"
    try:
        r = shell.run_line_magic("llmstatus", "LLM_LINK_FAILED")
        assert isinstance(r, CardResult) and r.value == 1343270921
    finally:
        shell.magics_manager.lazy_magics.pop("llmstatus", None)
        shell.run_line_magic("unload_ext", "sphinx_llmstatus")


# -- %llmstatus CODE -----------------------------------------------------------


@pytest.mark.parametrize(
    "query, name, reading",
    [
        ("LLM_LINK_FAILED", "LLM_LINK_FAILED", "name"),
        ("llm_link_failed", "LLM_LINK_FAILED", "name"),
        ("LLM_WAIT_PROCESS_TIMEOUT", "LLM_WAIT_PROC_TIMEOUT", "Python name"),
        ("LLM_WAIT_PROC_TIMEOUT", "LLM_WAIT_PROC_TIMEOUT", "name"),
        ("LLMStatusCode.LLM_LINK_FAILED", "LLM_LINK_FAILED", "name"),
        ("<LLMStatusCode.LLM_LINK_FAILED: 1343270921>", "LLM_LINK_FAILED", "name"),
        ("llm_datadist::LLM_PARAM_INVALID", "LLM_PARAM_INVALID", "name"),
        ("0x5010B009", "LLM_LINK_FAILED", "hex"),
        ("5010b002", "LLM_KV_CACHE_NOT_EXIST", "hex"),
        ("1343270921", "LLM_LINK_FAILED", "decimal"),
        ("'LLM_LINK_FAILED'", "LLM_LINK_FAILED", "name"),
        ("4294967295", "LLM_FAILED", "decimal"),
        ("507053", "LLM_DEVICE_MEM_ERROR", "decimal"),
    ],
)
def test_lookup_forms_return_a_card(ip, query, name, reading):
    r = ip.run_line_magic("llmstatus", query)
    assert isinstance(r, CardResult)
    assert r.name == name and not r.ambiguous
    assert r.matches[0].reading.startswith(reading)


def test_card_has_everything_the_issue_lists(ip):
    r = ip.run_line_magic("llmstatus", "LLM_TIMEOUT")
    assert r.value == 0x5010B01A and r.hex == "0x5010B01A"
    assert dict(r.recoverable) == {"python": "yes", "cpp": "no"}  # the pages disagree
    assert set(r.remedy) == {"python", "cpp"} and r.meaning
    bundle = r._repr_mimebundle_()
    assert set(bundle) == {"text/plain", "text/html", "text/markdown"}
    for mime in ("text/plain", "text/html", "text/markdown"):
        body = bundle[mime]
        for needle in ("LLM_TIMEOUT", "0x5010B01A", "1343270938"):
            assert needle in body.replace("\\_", "_"), (mime, needle)
    html = bundle["text/html"]
    assert "Python" in html and "C++" in html
    assert html.count(">yes<") >= 1 and html.count(">no<") >= 1
    assert r.code.python.meaning.en.split("`")[0][:20].replace("&", "&amp;") in html
    assert "hiascend.com" in html  # vendor page link
    related = ip.run_line_magic("llmstatus", "LLM_LINK_FAILED")
    assert related.related and all(n in related.html() for n in related.related)


def test_minus_one_shows_every_meaning(ip):
    r = ip.run_line_magic("llmstatus", "-1")
    assert r.ambiguous and {c.name for c in r.codes} == {"LLM_UNKNOWN_ERROR", "LLM_FAILED"}
    for body in (r.text(), r.html(), r.markdown()):
        assert "2 meanings" in body
        assert "LLM_UNKNOWN_ERROR" in body.replace("\\_", "_") and "LLM_FAILED" in body.replace("\\_", "_")


def test_several_codes_give_one_card_each(ip):
    r = ip.run_line_magic("llmstatus", "LLM_LINK_FAILED 0x5010B002")
    assert [c.name for c in r.codes] == ["LLM_LINK_FAILED", "LLM_KV_CACHE_NOT_EXIST"]


def test_result_displays_in_the_terminal_as_text_plain(ip):
    res, out, err = run(ip, "%llmstatus LLM_LINK_FAILED")
    assert res.success and err == ""
    assert out.startswith("Out[") and "LLM_LINK_FAILED" in out and "0x5010B009" in out
    assert "<div" not in out


def test_result_is_usable_in_code(ip):
    res, out, _ = run(ip, "r = %llmstatus LLM_LINK_FAILED\nprint(r.value, r.recoverable['python'], r.name)")
    assert out.strip() == "1343270921 yes LLM_LINK_FAILED"


# -- lists, partial names, search, filters -------------------------------------------


def test_partial_name_lists_matches(ip):
    r = ip.run_line_magic("llmstatus", "link")
    assert isinstance(r, ListResult)
    assert {"LLM_LINK_FAILED", "LLM_UNLINK_FAILED", "LLM_LINK_BUSY", "LLM_NOT_YET_LINK"} <= set(r.names)
    assert all("LINK" in n for n in r.names)
    assert "link" in r.title and "<table" in r.html()


@pytest.mark.parametrize("words, expected", [("建链", "LLM_LINK_FAILED"), ("timeout", "LLM_TIMEOUT")])
def test_search_in_english_and_chinese(ip, words, expected):
    r = ip.run_line_magic("llmstatus", f"--search {words}")
    assert isinstance(r, ListResult) and expected in r.names
    assert len(r) < ALL


def test_search_without_matches_is_an_empty_list_with_a_message(ip):
    r = ip.run_line_magic("llmstatus", "--search zzzqqq")
    assert len(r) == 0 and "No LLM DataDist status code" in r.text()
    assert "No LLM DataDist status code" in r.html()


def test_no_argument_lists_all_codes_and_filters_apply(ip):
    everything = ip.run_line_magic("llmstatus", "")
    assert isinstance(everything, ListResult) and len(everything) == ALL
    cpp = ip.run_line_magic("llmstatus", "--api cpp")
    assert 0 < len(cpp) < ALL and all(c.cpp is not None for c in cpp)
    assert "LLM_UNKNOWN_ERROR" not in cpp and "LLM_CACHE_INCOMPATIBLE" in cpp
    py_yes = ip.run_line_magic("llmstatus", "--api python --recoverable yes")
    assert len(py_yes) and all(c.python.recoverable == "yes" for c in py_yes)
    assert "LLM_TIMEOUT" in py_yes
    cpp_yes = ip.run_line_magic("llmstatus", "--api cpp --recoverable yes")
    assert "LLM_TIMEOUT" not in cpp_yes
    no = ip.run_line_magic("llmstatus", "--recoverable no")
    assert all("no" in c.recoverable.values() for c in no)


def test_lang_option_and_config(ip):
    zh = ip.run_line_magic("llmstatus", "LLM_LINK_FAILED --lang zh")
    assert zh.meaning == zh.code.python.meaning.zh and "含义" in zh.html()
    en = ip.run_line_magic("llmstatus", "LLM_LINK_FAILED")
    assert en.meaning == en.code.python.meaning.en
    ip.run_line_magic("config", "LLMStatusMagics.lang = 'zh'")
    assert ip.run_line_magic("llmstatus", "LLM_LINK_FAILED").lang == "zh"
    assert ip.run_line_magic("llmstatus", "LLM_LINK_FAILED --lang en").lang == "en"


# -- bad input: one line, no traceback ---------------------------------------------


@pytest.mark.parametrize(
    "cell, expected",
    [
        ("%llmstatus LLM_LINK_FAILD", "unknown LLM DataDist status code 'LLM_LINK_FAILD'; did you mean LLM_LINK_FAILED"),
        ("%llmstatus zzzz", "unknown LLM DataDist status code 'zzzz'"),
        ("%llmstatus 0x05000063", "is a HCCL error number (value 99, sub-module HCCL), not an LLM DataDist status code"),
        ("%llmstatus 1343225857", "is not an LLM DataDist status code"),
        ("%llmstatus 0x5010B0FF", "has the LLM DataDist layout but is not a known code"),
        ("%llmstatus LLM_LINK_FAILED nonsense", "unknown LLM DataDist status code 'nonsense'"),
        ("%llmstatus --api foo", "argument --api: invalid choice: 'foo'"),
        ("%llmstatus --lang fr", "argument --lang: invalid choice: 'fr'"),
        ("%llmstatus --bogus", "unrecognized arguments: --bogus"),
        ("%llmstatus --last LLM_LINK_FAILED", "give only one of a code and --last"),
        ("%llmstatus --all", "unrecognized arguments: --all (--all: an option of the cell magic %%llmstatus)"),
        ("%llmstatus --hook maybe", "argument --hook: invalid choice: 'maybe'"),
        ("%%llmstatus --search x\nret = 1",
         "unrecognized arguments: --search x (--search: an option of the line magic %llmstatus)"),
        ("%%llmstatus --limit -3\nret = 1", "--limit must be 0 (no limit) to 1000000"),
        ("%%llmstatus --limit 10000000000\nret = 1", "--limit must be 0 (no limit) to 1000000"),
        ("%llmstatus --search ''", "--search needs a word"),
        ("%llmstatus -0x5010B009", "-0x5010B009 (0xAFEF4FF7) is not an LLM DataDist status code"),
        ("%%llmstatus --limit x\nret = 1", "argument --limit: invalid int value: 'x'"),
    ],
)
def test_bad_input_gives_one_line_and_no_traceback(ip, cell, expected):
    res, out, err = run(ip, cell)
    assert isinstance(res.error_in_exec, UsageError)
    assert_one_line_error(out, err, expected)


def test_huge_max_rows_is_refused_and_config_still_prints(ip):
    """A mistyped 10**5000 stayed in the config and broke the next `%config LLMStatusMagics`."""
    _, out, err = run(ip, "%config LLMStatusMagics.max_rows = 10**5000")
    assert "Traceback" not in out + err and loaded_magics(ip).max_rows == 1000
    _, out, err = run(ip, "%config LLMStatusMagics.max_rows = 1000001")
    assert loaded_magics(ip).max_rows == 1000
    res, out, err = run(ip, "%config LLMStatusMagics")
    assert res.error_in_exec is None and "max_rows" in out and "Traceback" not in out + err


class _ChainRaises(Exception):
    @property
    def __cause__(self):  # noqa: D401 - a hostile exception class
        raise RuntimeError("cause")


class _StatusExits(Exception):
    @property
    def status_code(self):
        raise SystemExit(5)


def test_last_survives_an_exception_whose_chain_raises(ip):
    ip.user_ns["_ChainRaises"] = _ChainRaises
    run(ip, 'raise _ChainRaises("LLM_TIMEOUT happened")')
    res, out, err = run(ip, "r = %llmstatus --last")
    assert res.error_in_exec is None and "Traceback" not in out + err, out + err
    assert [m.code.name for m in ip.user_ns["r"].matches] == ["LLM_TIMEOUT"]


class _StatusGenExit(Exception):
    @property
    def status_code(self):
        raise GeneratorExit


class _StrInterrupts(Exception):
    def __str__(self):
        raise KeyboardInterrupt


@pytest.mark.parametrize("cls", [_StatusExits, _StatusGenExit, _StrInterrupts])
def test_hint_hook_survives_any_exception_type_from_the_users_object(ip, cls):
    ip.user_ns["_Hostile"] = cls
    without = type(run(ip, "raise _Hostile('x')")[0].error_in_exec)  # what IPython alone makes of it
    run(ip, "%llmstatus --hook on")
    res, out, err = run(ip, "raise _Hostile('x')")
    assert type(res.error_in_exec) is without, out + err  # the hook changes nothing
    res, out, err = run(ip, "r = %llmstatus --last")
    assert res.error_in_exec is None, out + err
    res, out, err = run(ip, "1 + 1")  # the session goes on
    assert res.error_in_exec is None and res.result == 2


def test_unbalanced_quote_is_a_usage_error(ip):
    res, out, err = run(ip, '%llmstatus "LLM_LINK_FAILED')
    assert res.error_in_exec is None or isinstance(res.error_in_exec, UsageError)
    if res.error_in_exec is not None:
        assert_one_line_error(out, err, "")


def test_bad_registry_file_is_one_line(ip, tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text('[[code]]\nname = "LLM_LINK_FAILED"\n[code.python]\nrecoverable = "perhaps"\n', encoding="utf-8")
    ip.run_line_magic("config", f"LLMStatusMagics.registry_files = [{str(bad)!r}]")
    res, out, err = run(ip, "%llmstatus LLM_LINK_FAILED")
    assert_one_line_error(out, err, "bad registry file: ")
    assert "bad.toml" in err and "python.recoverable" in err


def test_help_is_full(ip):
    res, out, err = run(ip, "%llmstatus?")
    for needle in ("%llmstatus [--search WORD", "--api", "--recoverable", "--lang", "--last", "--hook",
                   "%%llmstatus", "r.value", "建链"):
        assert needle in out, needle
    assert "--limit" not in out and "--all" not in out  # the cell magic's options are its own


def test_cell_magic_help_is_its_own(ip):
    res, out, err = run(ip, "%%llmstatus?")
    for needle in ("%%llmstatus [--all] [--api {python,cpp}] [--lang {en,zh}] [--limit N]", "r.hits"):
        assert needle in out, needle
    assert "--search WORD" not in out and "--hook {on,off}" not in out


# -- %%llmstatus ---------------------------------------------------------------------


def test_cell_magic_finds_exactly_the_issue_lines(ip):
    r = ip.run_cell_magic("llmstatus", "", ISSUE_LOG)
    assert isinstance(r, ScanResult)
    assert [(h.line_no, h.code.name) for h in r.hits] == [
        (1, "LLM_LINK_FAILED"), (2, "LLM_LINK_FAILED"), (3, "LLM_KV_CACHE_NOT_EXIST"),
    ]
    assert dict(r.counts) == {"LLM_LINK_FAILED": 2, "LLM_KV_CACHE_NOT_EXIST": 1}
    assert [c.name for c in r.codes] == ["LLM_LINK_FAILED", "LLM_KV_CACHE_NOT_EXIST"]
    text = r.text()
    assert "3 status code occurrences in 6 lines" in text
    assert "Line 2: LLM_LINK_FAILED" in text and "ret = 1343270921" in text
    assert "LLM_LINK_FAILED × 2" in text and "1343225857" not in text
    # Another layer's number is listed apart, never as an LLM DataDist code (issue 10).
    assert [line for line in text.splitlines() if "HIXL" in line] == ["HIXL/ADXL (not LLM DataDist): 1 × HIXL_FAILED"]
    assert [h.family for h in r.other if h.kind == "code"] == ["hixl"]
    assert "First failure per process: Line 1 LLM_LINK_FAILED" in text
    rows = r.rows()
    assert rows[0].api == "python" and rows[1].api == "cpp"
    assert rows[1].remedy == rows[1].code.cpp.remedy.en and rows[0].remedy == rows[0].code.python.remedy.en


#: An HCCL symptom and code, an LLM DataDist failure, an unknown LLM DataDist number (issue 24).
LAYERS_LOG = (
    "[ERROR] HCCL(4242,python):2026-11-30-10:00:01.100.000 [hccl.cc:88][4242]errNo[0x0000000005000007] "
    "ranktable config devId[1], but local devId[3]\n"
    "[ERROR] GE(4242,python):2026-11-30-10:00:01.123.456 [llm_datadist.cc:123]4242 Link: ErrorNo: "
    "1343270921(local cluster link failed!)\n"
    "[ERROR] GE(4242,python):2026-11-30-10:00:01.200.000 [llm_datadist.cc:130]4242 ErrorNo: 1343271024(failed)\n"
    "[ERROR] GE(4242,python):2026-11-30-10:00:01.300.000 [llm_datadist.cc:140]4242 ErrorNo: 4294967295(failed)\n"
)
#: The facts every face must carry for LAYERS_LOG: codes, symptom, family, first failure, the checks.
LAYERS_FACTS = ("LLM_LINK_FAILED", "hccl-ranktable-devid-mismatch", "HCCL_E_UNAVAIL", "HCCL", "0x5010B070",
                "First failure per process", "npu-smi info", "local devId", "likely a consequence of LLM_LINK_FAILED",
                "after hccl-ranktable-devid-mismatch")


def test_every_notebook_output_carries_the_same_facts(ip):
    import html as html_lib
    import re

    r = ip.run_cell_magic("llmstatus", "", LAYERS_LOG)
    outputs = {"text": r.text(), "html": html_lib.unescape(re.sub(r"<[^>]+>", "", r.html())),
               "markdown": html_lib.unescape(re.sub(r"<[^>]+>", "", r.markdown())).replace("\\", "")}
    for face, out in outputs.items():
        missing = [fact for fact in LAYERS_FACTS if fact not in out]
        assert not missing, (face, missing)
        # A symptom is never an unknown code named after its words.
        assert "ranktable config devId[ (" not in out and "unknown LLM DataDist code" in out, face


def test_every_notebook_output_says_where_a_dump_line_was_cut(ip):
    import html as html_lib
    import re

    from sphinx_llmstatus.scan.rules import MAX_OTHERS

    dump = "".join(f"rc=0x{0x05000000 + i:08x} " for i in range(MAX_OTHERS + 3)) + "LLM_LINK_FAILED"
    r = ip.run_cell_magic("llmstatus", "", dump)
    column = f"{len('rc=0x05000000 ') * MAX_OTHERS + 4:,}"
    for out in (r.text(), html_lib.unescape(re.sub(r"<[^>]+>", "", r.html())),
                html_lib.unescape(re.sub(r"<[^>]+>", "", r.markdown())).replace("\\", "")):
        assert f"Line 1: more than 4,096 different other layers' numbers; only LLM DataDist codes read from column " \
            f"{column}" in out  # (the line named as the notebook names a hit's)
    assert [h.code.name for h in r.hits] == ["LLM_LINK_FAILED"]


def test_cell_magic_all_adds_success(ip):
    r = ip.run_cell_magic("llmstatus", "--all", ISSUE_LOG)
    assert [(h.line_no, h.code.name) for h in r.hits][-1] == (6, "LLM_SUCCESS")
    assert "success codes hidden" not in r.text()


def test_cell_magic_via_run_cell_displays_report(ip):
    res, out, err = run(ip, "%%llmstatus\n" + ISSUE_LOG)
    assert err == "" and "LLM_KV_CACHE_NOT_EXIST" in out and "Summary:" in out


def test_cell_magic_without_codes_says_so(ip):
    r = ip.run_cell_magic("llmstatus", "", "all good\nret = 0\n")
    assert len(r) == 0 and "No LLM DataDist status code found." in r.text()
    assert "No LLM DataDist status code found." in r.html()


def test_cell_magic_limit_keeps_every_hit_in_the_result(ip):
    log = "ret = 1343270921\n" * 50
    r = ip.run_cell_magic("llmstatus", "--limit 5", log)
    assert len(r.hits) == 50 and len(r.rows()) == 5
    assert "45 more not shown" in r.text() and "45 more not shown" in r.html()
    assert len(ip.run_cell_magic("llmstatus", "--limit 0", log).rows()) == 50


def test_cell_magic_api_option_picks_the_remedy(ip):
    r = ip.run_cell_magic("llmstatus", "--api python", "[ERROR] LinkLlmClusters failed, ret = 1343270921\n")
    assert r.rows()[0].api == "python"


def test_cell_input_is_not_variable_expanded(ip):
    ip.user_ns["x"] = "LLM_LINK_FAILED"
    r = ip.run_cell_magic("llmstatus", "", "status: $x {x}\n")
    assert len(r) == 0
    res, out, err = run(ip, "%llmstatus $x")
    assert_one_line_error(out, err, "'$x'")


# -- --last ----------------------------------------------------------------------------


def test_last_uses_the_status_code_attribute(ip):
    run(ip, "raise LLMException('[link] failed', LLMStatusCode.LLM_LINK_FAILED)")
    r = ip.run_line_magic("llmstatus", "--last")
    assert isinstance(r, LastResult)
    assert r.how == "status_code attribute" and r.name == "LLM_LINK_FAILED"
    assert isinstance(r.exception, LLMException)
    assert "LLMException: [link] failed" in r.text() and "LLM_LINK_FAILED" in r.html()


def test_last_diagnoses_from_the_exception_text(ip):
    """The exception's message is evidence: a link refused on the peer's port is the cause."""
    run(ip, "raise LLMException('Failed to connect peer 10.0.0.2:26000, error msg:Connection refused, errno:111',"
            " LLMStatusCode.LLM_LINK_FAILED)")
    r = ip.run_line_magic("llmstatus", "--last")
    assert r.diagnosis is not None and r.diagnosis.where("confirmed")
    text = r.text()
    assert "cause: `link_clusters` fails" in text.replace("`", "`") or "cause: " in text
    assert "(line " in text and "Connection refused" in text and "fix: " in text
    assert "cause" in r.html() and "cause" in r.markdown()


def test_cell_scan_shows_the_diagnosis_of_each_first_failure(ip):
    cell = ("[ERROR] GE(4242,python):2026-11-30-10:00:01.100.000 [msg_handler_plugin.cc:75]4242 ConnectToPeer: "
            "Failed to connect peer 10.0.0.2:26000, error msg:Connection refused, errno:111\n"
            "[ERROR] GE(4242,python):2026-11-30-10:00:01.123.456 [llm_datadist.cc:123]4242 Link: "
            "ErrorNo: 1343270921(local cluster link failed!)\n")
    r = ip.run_cell_magic("llmstatus", "", cell)
    failure = next(h for h in r.hits if h.is_failure)
    assert failure.diagnosis.where("confirmed")
    for shown in (r.text(), r.html(), r.markdown()):
        assert "cause" in shown and "line 1" in shown


def test_last_survives_a_typo_in_the_magic_itself(ip):
    run(ip, "raise LLMException('pull failed', LLMStatusCode.LLM_KV_CACHE_NOT_EXIST)")
    run(ip, "%llmstatus LLM_TYPO")  # a UsageError in between
    assert ip.run_line_magic("llmstatus", "--last").name == "LLM_KV_CACHE_NOT_EXIST"


def test_last_follows_the_cause_chain_and_plain_ints(ip):
    run(ip, "try:\n    raise LLMException('x', LLMStatusCode.LLM_LINK_FAILED)\n"
            "except Exception as e:\n    raise RuntimeError('wrapped') from e")
    assert ip.run_line_magic("llmstatus", "--last").name == "LLM_LINK_FAILED"

    run(ip, "class E(Exception):\n    status_code = 1343270914\nraise E('int code')")
    assert ip.run_line_magic("llmstatus", "--last").name == "LLM_KV_CACHE_NOT_EXIST"


def test_last_falls_back_to_message_and_traceback_text(ip):
    run(ip, "raise RuntimeError('LinkLlmClusters failed, ret = 1343270921')")
    r = ip.run_line_magic("llmstatus", "--last")
    assert r.how == "message and traceback text" and r.name == "LLM_LINK_FAILED"
    assert r.hits and r.hits[0].token == "1343270921"


def test_last_without_a_code_says_so(ip):
    run(ip, "1 / 0")
    r = ip.run_line_magic("llmstatus", "--last")
    assert not r.codes and "No LLM DataDist status code in it (checked: status_code attribute; message and traceback text)." in r.text()
    assert "ZeroDivisionError" in r.html()


def test_last_without_any_exception_is_a_usage_error(shell):
    # A fresh magics instance, and no sys.last_* left by other tests.
    for attr in ("last_value", "last_exc", "last_type", "last_traceback"):
        sys.__dict__.pop(attr, None)
    shell.run_line_magic("load_ext", "sphinx_llmstatus")
    try:
        res, out, err = run(shell, "%llmstatus --last")
        assert_one_line_error(out, err, "no exception has been raised in this session yet")
    finally:
        shell.run_line_magic("unload_ext", "sphinx_llmstatus")


# -- hint hook ------------------------------------------------------------------------------


HINT = "[llmstatus] LLM_LINK_FAILED (0x5010B009): "


def test_hook_is_off_by_default_and_prints_a_hint_when_on(ip):
    _, out, _ = run(ip, "raise LLMException('[link] failed', LLMStatusCode.LLM_LINK_FAILED)")
    assert HINT not in out
    _, out, _ = run(ip, "%llmstatus --hook on")
    assert out.strip() == "llmstatus hint after tracebacks: on"
    _, out, err = run(ip, "raise LLMException('[link] failed', LLMStatusCode.LLM_LINK_FAILED)")
    assert "LLMException" in out and "Traceback" in out  # IPython's own traceback is still shown
    hint = [line for line in out.splitlines() if line.startswith("[llmstatus]")]
    assert len(hint) == 1 and hint[0].startswith(HINT) and hint[0].endswith("Run %llmstatus --last for the remedy.")
    assert out.index("Traceback") < out.index(HINT)
    _, out, _ = run(ip, "raise ValueError('no code here')")
    assert "[llmstatus]" not in out and "ValueError" in out
    run(ip, "%llmstatus --hook off")
    _, out, _ = run(ip, "raise LLMException('[link] failed', LLMStatusCode.LLM_LINK_FAILED)")
    assert "[llmstatus]" not in out


def test_hook_from_config_and_message_only_exceptions(ip):
    ip.run_line_magic("config", "LLMStatusMagics.hook = True")
    _, out, _ = run(ip, "raise RuntimeError('pull failed, ret = 5010b002')")
    assert "[llmstatus] LLM_KV_CACHE_NOT_EXIST (0x5010B002): " in out
    ip.run_line_magic("config", "LLMStatusMagics.hook = False")


def test_hook_chains_to_an_installed_custom_exception_handler(ip):
    seen = []

    def handler(shell, etype, value, tb, tb_offset=None):
        seen.append(value)
        print("custom handler ran")
        shell.showtraceback((etype, value, tb), tb_offset=tb_offset)

    saved = (ip.custom_exceptions, ip.__dict__.get("CustomTB"))
    ip.set_custom_exc((LLMException,), handler)
    installed = ip.CustomTB
    try:
        run(ip, "%llmstatus --hook on")
        _, out, _ = run(ip, "raise LLMException('[link] failed', LLMStatusCode.LLM_LINK_FAILED)")
        assert len(seen) == 1 and "custom handler ran" in out
        assert "Traceback" in out and HINT in out
        run(ip, "%llmstatus --hook off")
        assert ip.CustomTB is installed and ip.custom_exceptions == (LLMException,)
        ip.run_line_magic("unload_ext", "sphinx_llmstatus")
        assert ip.CustomTB is installed  # unloading leaves the user's handler alone
        ip.run_line_magic("load_ext", "sphinx_llmstatus")
    finally:
        ip.custom_exceptions = saved[0]
        if saved[1] is None:
            ip.__dict__.pop("CustomTB", None)
        else:
            ip.CustomTB = saved[1]


def test_hook_never_prints_a_traceback_of_its_own(ip):
    run(ip, "%llmstatus --hook on")
    _, out, err = run(ip, "raise BrokenStatus('the user error')")
    both = out + err
    assert "the user error" in both  # the user's traceback, and nothing after it
    assert "Error in callback" not in both and "boom inside status_code" not in both


@pytest.mark.parametrize("status", ["10**5000", "-(10**5000)"])
def test_hook_is_quiet_for_a_status_code_too_long_to_print(ip, status):
    run(ip, "%llmstatus --hook on")
    _, out, err = run(ip, f"e = RuntimeError('boom'); e.status_code = {status}; raise e")
    both = out + err
    assert "RuntimeError: boom" in both and "Error in callback" not in both
    assert both.count("Traceback") <= 1 and "[llmstatus]" not in both


# -- completion -------------------------------------------------------------------------


def complete(ip, line: str) -> list[str]:
    with provisionalcompleter():
        return [c.text for c in ip.Completer.completions(line, len(line))]


def test_completion_of_code_names_options_and_choices(ip):
    assert complete(ip, "%llmstatus LLM_LINK_F") == ["LLM_LINK_FAILED"]
    assert {"LLM_LINK_FAILED", "LLM_LINK_BUSY"} <= set(complete(ip, "%llmstatus link"))
    assert "LLM_WAIT_PROCESS_TIMEOUT" in complete(ip, "%llmstatus LLM_WAIT_P")
    assert "LLM_WAIT_PROC_TIMEOUT" in complete(ip, "%llmstatus llm_wait")
    assert complete(ip, "%llmstatus --ap") == ["--api"]
    assert complete(ip, "%llmstatus --api ") == ["python", "cpp"]
    assert complete(ip, "%llmstatus --hook o") == ["on", "off"]
    assert "--all" in complete(ip, "%%llmstatus --a")
    assert "LLM_LINK_FAILED" in complete(ip, "%llmstatus ")
    assert "LLM_LINK_FAILED" not in complete(ip, "print(LLM_LINK_F")  # only after the magic


def test_no_completion_after_unload(shell):
    shell.run_line_magic("load_ext", "sphinx_llmstatus")
    shell.run_line_magic("unload_ext", "sphinx_llmstatus")
    assert "LLM_LINK_FAILED" not in complete(shell, "%llmstatus LLM_LINK_F")


def test_chinese_output_of_lists_and_last(ip):
    r = ip.run_line_magic("llmstatus", "link --lang zh")
    assert r.title.startswith(f"{ALL} 个 LLM DataDist 错误码中的 8 个") and "名称包含" in r.title
    run(ip, "1 / 0")
    last = ip.run_line_magic("llmstatus", "--last --lang zh")
    assert "最近的异常: ZeroDivisionError" in last.text() and "消息与回溯文本" in last.text()


def test_hook_configured_before_loading(shell):
    shell.config.LLMStatusMagics.hook = True
    shell.run_line_magic("load_ext", "sphinx_llmstatus")
    try:
        assert loaded_magics(shell).hint.active
    finally:
        shell.run_line_magic("unload_ext", "sphinx_llmstatus")
        shell.config.pop("LLMStatusMagics", None)
    assert not any(getattr(cb, "__self__", None).__class__.__name__ in ("ExceptionHint", "LLMStatusMagics")
                   for cb in shell.events.callbacks["post_run_cell"])


def test_last_survives_a_status_code_that_raises(ip):
    run(ip, "raise BrokenStatus('[link] failed, error code is LLMStatusCode.LLM_LINK_FAILED')")
    res, out, err = run(ip, "r = %llmstatus --last")
    assert "Traceback" not in out + err
    assert [m.code.name for m in ip.user_ns["r"].matches] == ["LLM_LINK_FAILED"]


def test_last_survives_a_status_code_too_long_to_print(ip):
    run(ip, "class Huge(Exception):\n    status_code = 10**5000\n")
    run(ip, "raise Huge('PullKvBlocks failed, ret = 5010b002')")
    res, out, err = run(ip, "r = %llmstatus --last")
    assert "Traceback" not in out + err
    assert [m.code.name for m in ip.user_ns["r"].matches] == ["LLM_KV_CACHE_NOT_EXIST"]


def test_huge_number_is_one_line(ip):
    _, out, err = run(ip, "%llmstatus " + "9" * 5000)
    assert_one_line_error(out, err, "does not fit in 32 bits")


def test_negative_max_rows_is_refused_by_config(ip):
    # traitlets refuses the value (and logs one line naming max_rows); the setting is unchanged.
    _, out, err = run(ip, "%config LLMStatusMagics.max_rows = -5")
    assert "Traceback" not in out + err
    assert loaded_magics(ip).max_rows == 1000
    _, out, err = run(ip, "%%llmstatus\nret = 1343270921\n")
    assert "LLM_LINK_FAILED" in out and "Traceback" not in out + err


# -- issue 13: two magics, completions from their parsers, hostile exceptions and config -------


def test_line_and_cell_magics_are_two_methods_with_their_own_parsers(ip):
    magics = loaded_magics(ip)
    line = ip.magics_manager.magics["line"]["llmstatus"]
    cell = ip.magics_manager.magics["cell"]["llmstatus"]
    assert line.__func__ is not cell.__func__
    assert line.parser is not cell.parser and line.parser.prog == "%llmstatus" and cell.parser.prog == "%%llmstatus"
    assert magics.llmstatus_line.parser is line.parser


def _long_options(parser) -> set[str]:
    return {o for a in parser._actions for o in a.option_strings if o.startswith("--") and o != "--help"}


def test_completions_are_derived_from_the_parsers(ip):
    magics = loaded_magics(ip)
    assert set(complete(ip, "%llmstatus --")) == _long_options(magics.llmstatus_line.parser)
    assert set(complete(ip, "%%llmstatus --")) == _long_options(magics.llmstatus_cell.parser)
    for action in magics.llmstatus_line.parser._actions:
        if action.choices and action.option_strings:
            assert complete(ip, f"%llmstatus {action.option_strings[-1]} ") == list(action.choices)


def test_unload_removes_both_magics(shell):
    shell.run_line_magic("load_ext", "sphinx_llmstatus")
    shell.run_line_magic("unload_ext", "sphinx_llmstatus")
    assert "llmstatus" not in shell.magics_manager.magics["line"]
    assert "llmstatus" not in shell.magics_manager.magics["cell"]


class _StrRaises(Exception):
    status_code = LLMStatusCode.LLM_LINK_FAILED

    def __str__(self):
        raise RuntimeError("str is broken")


class _StrNotAString(Exception):
    def __str__(self):
        return 42  # type: ignore[return-value]


@pytest.mark.parametrize("exc", [_StrRaises("x"), _StrNotAString("see 0x5010B009")], ids=["raises", "non-string"])
def test_last_displays_when_str_of_the_exception_misbehaves(ip, exc):
    from types import SimpleNamespace

    # As the post_run_cell event hands it over (IPython's own traceback display copes with it).
    loaded_magics(ip)._record_exception(SimpleNamespace(error_in_exec=exc, error_before_exec=None))
    res, out, err = run(ip, "%llmstatus --last")
    assert res.error_in_exec is None, res.error_in_exec
    r = res.result
    bundle = r._repr_mimebundle_()
    assert set(bundle) == {"text/plain", "text/html", "text/markdown"}
    assert type(exc).__name__ in r.text() and "str() failed" in r.text()
    if isinstance(exc, _StrRaises):
        assert r.name == "LLM_LINK_FAILED"


def test_bad_max_rows_is_rejected_and_does_not_stay(ip, caplog):
    run(ip, "%config LLMStatusMagics.max_rows = 'x'")
    assert "expected an int" in caplog.text  # %config logs the trait's error, one line
    assert "max_rows" not in ip.config.get("LLMStatusMagics", {})
    assert loaded_magics(ip).max_rows == 1000
    ip.run_line_magic("unload_ext", "sphinx_llmstatus")
    ip.run_line_magic("load_ext", "sphinx_llmstatus")  # the next load works
    assert loaded_magics(ip) is not None and loaded_magics(ip).max_rows == 1000
    run(ip, "%config LLMStatusMagics.max_rows = -1")
    assert loaded_magics(ip).max_rows == 1000 and "max_rows" not in ip.config.get("LLMStatusMagics", {})


def test_bad_max_rows_in_the_startup_config_is_one_warning(shell, capfd):
    shell.config.LLMStatusMagics.max_rows = "x"
    try:
        shell.run_line_magic("load_ext", "sphinx_llmstatus")
        assert loaded_magics(shell).max_rows == 1000
        assert "ignoring LLMStatusMagics.max_rows" in capfd.readouterr().err
    finally:
        shell.run_line_magic("unload_ext", "sphinx_llmstatus")
        shell.config.pop("LLMStatusMagics", None)


@pytest.mark.parametrize("line", ["LLM LINK FAILED", "llm link failed", "kLinKFailed"])
def test_magic_reads_names_with_spaces_and_pybind_constants(ip, line):
    r = ip.run_line_magic("llmstatus", line)
    assert isinstance(r, CardResult) and r.name == "LLM_LINK_FAILED"


def test_card_shows_causes_collapsed(ip):
    from sphinx_llmstatus.registry import default_registry

    code = next(c for c in default_registry() if any(v.causes for v in c.views))
    n_causes = len({c for v in code.views for c in v.causes})
    r = ip.run_line_magic("llmstatus", code.name)
    html = r.html()
    assert f"<summary><b>Causes and checks</b> ({n_causes})</summary>" in html
    assert html.count('<li style="margin:0.25em 0">') == n_causes and "<details" in html and "<details open" not in html
    md = r.markdown()
    assert "**Causes and checks:**" in md and "\n1. **When:** " in md
    assert "Causes and checks:" in r.text()
    zh = ip.run_line_magic("llmstatus", f"{code.name} --lang zh").html()
    assert "<summary><b>原因与排查</b>" in zh


def test_the_notebook_rows_carry_the_triage_marks(ip):
    """The consequence marks are made once in the core (Report.triage): each row of the notebook's
    text, HTML and Markdown says which first failure a generic failure likely follows from."""
    r = ip.run_cell_magic("llmstatus", "", LAYERS_LOG)
    assert [(row.line_no, row.name, row.note) for row in r.rows() if row.note] == [
        (4, "LLM_FAILED", "(likely a consequence of LLM_LINK_FAILED at Line 2)")]
    assert "    (likely a consequence of LLM_LINK_FAILED at Line 2)" in r.text()
    assert "<i>(likely a consequence of LLM_LINK_FAILED at Line 2)</i>" in r.html()
    assert "*(likely a consequence of LLM_LINK_FAILED at Line 2)*" in r.markdown().replace("\\", "")
