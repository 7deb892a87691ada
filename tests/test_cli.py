"""The installed ``llmstatus`` command, run for real as a subprocess."""

from __future__ import annotations

import json
import os
import pty
import subprocess
import sys
from pathlib import Path

import pytest

from sphinx_llmstatus.registry import default_registry
from sphinx_llmstatus.render.lang import default_lang

DATA = Path(__file__).parent / "data"
SCRIPT = Path(sys.executable).parent / "llmstatus"
POSITIVE_LOG = DATA / "scan_positive.log"
NEGATIVE_LOG = DATA / "scan_negative.log"


def run(*args: str, stdin: bytes | None = None, env: dict | None = None, module: bool = False):
    cmd = [sys.executable, "-m", "sphinx_llmstatus"] if module else [str(SCRIPT)]
    base = {k: v for k, v in os.environ.items() if k != "NO_COLOR"}
    full_env = {**base, "LANG": "C.UTF-8", "LC_ALL": "", "LC_MESSAGES": "", **(env or {})}
    return subprocess.run(cmd + list(args), input=stdin, capture_output=True, env=full_env, timeout=120)


def out(proc) -> str:
    return proc.stdout.decode("utf-8")


def err(proc) -> str:
    return proc.stderr.decode("utf-8")


# -- lookup -------------------------------------------------------------------

@pytest.mark.parametrize("module", [False, True])
def test_lookup_decimal(module):
    p = run("1343270921", module=module)
    assert p.returncode == 0, err(p)
    text = out(p)
    assert text.startswith("LLM_LINK_FAILED  0x5010B009 = 1343270921")
    for part in ("LLMStatusCode.LLM_LINK_FAILED", "llm_datadist::LLM_LINK_FAILED", "recoverable: yes",
                 "Meaning:", "Remedy (Python):", "Remedy (C++):", "https://www.hiascend.com/"):
        assert part in text
    assert err(p) == ""


@pytest.mark.parametrize("query", ["LLM_LINK_FAILED", "llm_link_failed", "0x5010B009", "5010b009",
                                   "LLMStatusCode.LLM_LINK_FAILED", "<LLMStatusCode.LLM_LINK_FAILED: 1343270921>"])
def test_lookup_forms(query):
    p = run(query)
    assert p.returncode == 0 and out(p).startswith("LLM_LINK_FAILED ")


def test_lookup_ambiguous_minus_one_prints_every_meaning():
    p = run("-1")
    assert p.returncode == 0
    assert "-1: 2 meanings" in out(p)
    assert "LLM_UNKNOWN_ERROR" in out(p) and "LLM_FAILED  0xFFFFFFFF" in out(p)
    assert "Read as: signed int32" in out(p)


def test_lookup_json_schema():
    p = run("LLM_TIMEOUT", "--json")
    assert p.returncode == 0
    (entry,) = json.loads(out(p))
    assert entry["name"] == "LLM_TIMEOUT" and entry["value"] == 1343270938 and entry["hex"] == "0x5010B01A"
    assert entry["python_name"] == "LLM_TIMEOUT" and entry["cpp_name"] == "LLM_TIMEOUT"
    assert entry["recoverable"] == {"python": "yes", "cpp": "no"}
    assert set(entry["remedy"]) == {"python", "cpp"} and set(entry["meaning"]) == {"python", "cpp"}
    assert entry["documented"] == {"python": True, "cpp": True}
    assert entry["source"]["cpp"].startswith("https://")
    assert entry["query"] == "LLM_TIMEOUT" and entry["reading"] == "name"


def test_lookup_json_python_only_code():
    (entry,) = json.loads(out(run("LLM_DEVICE_MEM_ERROR", "--json")))
    assert entry["cpp_name"] is None and entry["recoverable"] == {"python": "yes"}


def test_unknown_name_one_line_with_suggestions():
    p = run("LLM_LINK_FIALED")
    assert p.returncode == 1 and out(p) == ""
    assert err(p) == ("llmstatus: unknown LLM DataDist status code 'LLM_LINK_FIALED'; "
                      "did you mean LLM_LINK_FAILED, LLM_UNLINK_FAILED, LLM_ENGINE_FINALIZED?\n")


def test_other_ge_code_is_decoded_and_refused():
    p = run("0x50100001")
    assert p.returncode == 1
    assert err(p) == ("llmstatus: 0x50100001 is not an LLM DataDist status code (GE layout: runtime=1 (host), "
                      "type=1 (error code), level=0 (common), sysid=8 (GE), modid=0, value=1)\n")


def test_unknown_llm_layout_value():
    p = run("0x5010B0FF")
    assert p.returncode == 1
    assert "has the LLM DataDist layout but is not a known code" in err(p)
    assert "modid=11 (LLM engine), value=255" in err(p)


def test_neighbour_family():
    """Issue 19: a neighbouring layer's code is an entry of its own (family, name, meaning, mapping)."""
    p = run("503900", "--json")
    assert p.returncode == 0
    (entry,) = json.loads(out(p))
    assert entry["name"] == "HIXL_FAILED" and entry["family"]["key"] == "hixl"
    assert entry["becomes"][0]["code"] == "LLM_FAILED" and entry["becomes"][0]["via"].startswith("ConvertHixlError2Ge")
    p = run("0x05000063")
    assert p.returncode == 1
    assert err(p) == ("llmstatus: 0x05000063 is a HCCL error number (value 99, sub-module HCCL), "
                      "not an LLM DataDist status code\n")


def test_mixed_known_and_unknown():
    p = run("LLM_TIMEOUT", "nope_nothing")
    assert p.returncode == 1 and out(p).startswith("LLM_TIMEOUT ") and err(p).count("\n") == 1


def test_lang_zh_flag_and_locale():
    assert "含义" in out(run("1343270921", "--lang", "zh"))
    assert "含义" in out(run("1343270921", env={"LANG": "zh_CN.UTF-8"}))
    assert "Meaning" in out(run("1343270921", env={"LANG": "zh_CN.UTF-8", "LC_ALL": "en_US.UTF-8"}))


def test_scan_hit_lines_in_zh():
    """The words of a scan's hit lines come from the catalog: another layer's number and a symptom."""
    log = b"[ERROR] RUNTIME(1,python): error 507053 happened\nTimeout during pull_blocks\n"
    text = out(run("scan", "-", "--lang", "zh", stdin=log))
    assert "LLM DataDist \u7684 Python \u63a5\u53e3\u79f0\u4e4b\u4e3a LLM_DEVICE_MEM_ERROR" in text
    assert "\u75c7\u72b6 vllm-ascend-pull-blocks-timeout" in text  # symptom
    assert "Python API calls it" not in text and "symptom " not in text


def test_default_lang():
    assert default_lang({}) == "en"
    assert default_lang({"LANG": "zh_CN.UTF-8"}) == "zh"
    assert default_lang({"LANG": "zh_CN.UTF-8", "LC_ALL": "C"}) == "en"
    assert default_lang({"LC_MESSAGES": "zh_TW", "LANG": "en_US"}) == "zh"
    assert default_lang({"LC_ALL": "", "LANG": "zh"}) == "zh"


# -- search and list ----------------------------------------------------------

def test_search_chinese_and_english():
    p = run("search", "建链")
    assert p.returncode == 0 and "LLM_LINK_FAILED" in out(p)
    p = run("search", "timeout", "--json")
    names = [e["name"] for e in json.loads(out(p))]
    assert "LLM_TIMEOUT" in names and "LLM_WAIT_PROC_TIMEOUT" in names


def test_search_no_match():
    p = run("search", "zzzqqq")
    assert p.returncode == 1 and err(p) == "llmstatus: no code matches 'zzzqqq'\n"


def test_list_filters():
    p = run("list", "--api", "cpp", "--recoverable", "no")
    assert p.returncode == 0
    rows = out(p).splitlines()
    assert rows[0].split()[:3] == ["Name", "Hex", "Decimal"]
    # LLM_ENGINE_FINALIZED: not recoverable on the older C++ page, its only page (issue #9).
    assert {r.split()[0] for r in rows[1:]} == {"LLM_TIMEOUT", "LLM_FAILED", "LLM_ENGINE_FINALIZED"}
    every = json.loads(out(run("list", "--json")))
    assert len(every) == len(default_registry().in_family("llm_datadist"))
    python = json.loads(out(run("list", "--api", "python", "--json")))
    assert all(e["python_name"] for e in python) and not any(e["name"] == "LLM_COPY_CACHE_FAILED" for e in python)


# -- scan ---------------------------------------------------------------------

def test_scan_positive_examples():
    p = run("scan", str(POSITIVE_LOG))
    assert p.returncode == 1, err(p)
    text = out(p)
    for n, name in [(1, "LLM_LINK_FAILED"), (2, "LLM_PARAM_INVALID"), (3, "LLM_LINK_FAILED"),
                    (4, "LLM_KV_CACHE_NOT_EXIST"), (5, "LLM_FAILED")]:
        assert f"{POSITIVE_LOG}:{n}: {name} " in text
    assert "Summary: 5 occurrence(s) of 4 code(s), 5 failure(s)" in text
    # GE(1234,python): the Python API's view of LLM_FAILED, not the C++ one.
    assert "recoverable: no: Restart the machine or the container" in text


def test_scan_negative_examples_exit_zero():
    p = run("scan", str(NEGATIVE_LOG))
    # Other layers' numbers (HIXL 503900, ACL runtime 507046) are listed apart and never fail the scan.
    assert p.returncode == 0 and "No LLM DataDist status code found.\n" in out(p)
    assert "Other layers (not LLM DataDist" in out(p) and "HIXL/ADXL: 1 × HIXL_FAILED" in out(p)
    p = run("scan", "--all", str(NEGATIVE_LOG))
    assert p.returncode == 0 and f"{NEGATIVE_LOG}:6: LLM_SUCCESS" in out(p)


def test_scan_json_lines():
    p = run("scan", "--json", str(POSITIVE_LOG))
    rows = [json.loads(line) for line in out(p).splitlines()]
    assert [r["line"] for r in rows] == [1, 2, 3, 4, 5]
    first = rows[0]
    assert first["file"] == str(POSITIVE_LOG) and first["name"] == "LLM_LINK_FAILED"
    assert first["value"] == 1343270921 and first["text"].startswith("llm_datadist.status.LLMException")
    assert first["token"] == "LLMStatusCode.LLM_LINK_FAILED" and first["api"] == "python"
    assert first["recoverable"] == {"python": "yes", "cpp": "yes"} and set(first["remedy"]) == {"python", "cpp"}


def test_scan_stdin_and_unknown_code():
    p = run("scan", "-", "--json", stdin=b"boot\nret = 0x5010B0FF\n")
    (row,) = [json.loads(line) for line in out(p).splitlines()]
    assert row["file"] == "-" and row["name"] is None and row["known"] is False
    assert row["layout"]["modid"] == 11 and row["layout"]["value"] == 255
    p = run("scan", stdin=b"ret = 0x5010B0FF\n")
    assert p.returncode == 1 and "(standard input):1: unknown LLM DataDist code 0x5010B0FF" in out(p)


def test_scan_missing_file_still_scans_others(tmp_path):
    missing = tmp_path / "missing.log"
    p = run("scan", str(missing), str(POSITIVE_LOG))
    assert p.returncode == 2
    assert err(p) == f"llmstatus: cannot read {missing}: No such file or directory\n"
    assert "Summary: 5 occurrence(s)" in out(p)


def test_scan_directory_is_unreadable(tmp_path):
    p = run("scan", str(tmp_path))
    assert p.returncode == 2
    assert err(p) == f"llmstatus: cannot read {tmp_path}: is a directory (use -r to scan the files in it)\n"
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "b.log").write_text("ret = 1343270921\n")
    (tmp_path / "a.log").write_text("LLMStatusCode.LLM_TIMEOUT\n")
    p = run("scan", "-r", "--json", str(tmp_path))
    assert p.returncode == 1
    assert [json.loads(r)["file"] for r in out(p).splitlines()] == [str(tmp_path / "a.log"), str(tmp_path / "sub" / "b.log")]


def test_scan_empty_file(tmp_path):
    empty = tmp_path / "empty.log"
    empty.write_bytes(b"")
    p = run("scan", str(empty))
    assert p.returncode == 0 and out(p) == "No LLM DataDist status code found.\n" and err(p) == ""


def test_scan_binary_and_invalid_utf8(tmp_path):
    binary = tmp_path / "core.bin"
    binary.write_bytes(bytes(range(256)) * 10 + b"\xff\xfe\x1b[31m ret = 1343270921 \xc3(\x00\n" + b"\x00" * 5000)
    p = run("scan", str(binary))
    assert p.returncode == 1 and err(p) == ""
    text = out(p)
    assert ": LLM_LINK_FAILED " in text and "\ufffd" in text
    assert "\x1b" not in text  # control bytes of the file never reach the terminal


def test_scan_multi_megabyte_line(tmp_path):
    big = tmp_path / "big.log"
    big.write_bytes(b"a" * (5 << 20) + b" ret = 5010b009 " + b"b" * (3 << 20) + b"\nLLMStatusCode.LLM_TIMEOUT\n")
    p = run("scan", "--json", str(big))
    rows = [json.loads(line) for line in out(p).splitlines()]
    assert [(r["line"], r["name"]) for r in rows] == [(1, "LLM_LINK_FAILED"), (2, "LLM_TIMEOUT")]
    p = run("scan", str(big))
    assert len(out(p).splitlines()[1]) < 300  # the line is clipped around the token


def test_scan_context():
    log = b"one\ntwo\nret = 1343270921\nthree\nfour\n"
    p = run("scan", "-C", "1", stdin=log)
    lines = out(p).splitlines()
    assert lines[0] == "(standard input)-2-  two"
    assert lines[1].startswith("(standard input):3: LLM_LINK_FAILED")
    assert lines[3] == "(standard input)-4-  three" and lines[4] != "--"  # no trailing --
    p = run("scan", "-C", "1", "--json", stdin=log)
    row = json.loads(out(p))
    assert row["before"] == [{"line": 2, "text": "two"}] and row["after"] == [{"line": 4, "text": "three"}]


def test_scan_context_like_grep_in_text_and_whole_in_json(tmp_path):
    """Adjacent hits: text shows each line once with -- only between separate groups (and files);
    JSON and Markdown give every hit its whole window, hit lines included."""
    log = tmp_path / "a.log"
    log.write_text("one\nret = 1343270921\nLLMStatusCode.LLM_TIMEOUT\ntwo\nthree\nfour\n"
                   "LLMStatusCode.LLM_FAILED\nfive\n", encoding="utf-8")
    import re

    a = str(log)
    marks = re.compile(re.escape(a) + r"(-\d+-|:\d+:)|^--$")
    shown = [m.group() for m in map(marks.match, out(run("scan", "-C", "1", a, a)).splitlines()) if m]
    assert shown == [f"{a}-1-", f"{a}:2:", f"{a}:3:", f"{a}-4-", "--", f"{a}-6-", f"{a}:7:", f"{a}-8-",
                     "--", f"{a}-1-", f"{a}:2:", f"{a}:3:", f"{a}-4-", "--", f"{a}-6-", f"{a}:7:", f"{a}-8-"]
    rows = [json.loads(line) for line in out(run("scan", "-C", "1", "--json", str(log))).splitlines()]
    assert [([b["line"] for b in r["before"]], r["line"], [x["line"] for x in r["after"]]) for r in rows] == [
        ([1], 2, [3]), ([2], 3, [4]), ([6], 7, [8])]


@pytest.mark.slow
def test_closed_pipe_is_quiet(tmp_path):
    log = tmp_path / "many.log"
    log.write_bytes(b"ret = 1343270921\n" * 200_000)
    for cmd in (f"'{SCRIPT}' scan '{log}' | head -n 1", f"'{SCRIPT}' list | head -n 1",
                f"'{SCRIPT}' scan --json - < '{log}' | head -c 10"):
        p = subprocess.run(["bash", "-c", cmd], capture_output=True, timeout=120)
        assert p.stderr == b"", p.stderr.decode()
        assert p.stdout


# -- colour -------------------------------------------------------------------

def _on_tty(*args: str, env: dict | None = None) -> bytes:
    master, slave = pty.openpty()
    full_env = {k: v for k, v in os.environ.items() if k != "NO_COLOR"}
    full_env.update(env or {})
    proc = subprocess.Popen([str(SCRIPT), *args], stdout=slave, stderr=subprocess.DEVNULL, env=full_env)
    os.close(slave)
    chunks = []
    while True:
        try:
            data = os.read(master, 65536)
        except OSError:
            break
        if not data:
            break
        chunks.append(data)
    proc.wait(timeout=60)
    os.close(master)
    return b"".join(chunks)


def test_colour_only_on_a_terminal():
    assert b"\x1b[" not in run("1343270921").stdout
    assert b"\x1b[" in _on_tty("1343270921")
    assert b"\x1b[" not in _on_tty("1343270921", env={"NO_COLOR": "1"})
    assert b"\x1b[" in run("1343270921", "--color", "always").stdout
    assert b"\x1b[" not in _on_tty("scan", str(POSITIVE_LOG), "--color", "never")


# -- usage errors -------------------------------------------------------------

def test_usage_errors_exit_two():
    p = run()
    assert p.returncode == 2 and "give a CODE or a command" in err(p)
    p = run("scan", "-C", "-1", str(POSITIVE_LOG))
    assert p.returncode == 2 and "must be 0 or more" in err(p)
    p = run("list", "--api", "java")
    assert p.returncode == 2 and "invalid choice: 'java'" in err(p)


def test_bad_registry_file(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text("[[code]\n", encoding="utf-8")
    p = run("--registry", str(bad), "1343270921")
    assert p.returncode == 2 and err(p).startswith(f"llmstatus: {bad}: invalid TOML")


@pytest.mark.parametrize("argv, message", [(("--lang", "fr", "LLM_TIMEOUT"), "argument --lang: invalid choice: 'fr'"),
                                           (("--format",), "argument --format: expected one argument"),
                                           (("list", "--format", "xml"), "argument --format: invalid choice: 'xml'")])
def test_a_bad_output_option_is_reported_once(argv, message):
    p = run(*argv)
    assert p.returncode == 2 and err(p).count("error:") == 1 and message in err(p), err(p)


def test_help():
    p = run("-h")
    assert p.returncode == 0 and "llmstatus scan" in out(p) and "exit status" in out(p)


def test_no_sphinx_docutils_or_ipython_imported():
    code = ("import sys, io, contextlib\nfrom sphinx_llmstatus.cli import main\n"
            "with contextlib.redirect_stdout(io.StringIO()):\n"
            f"    main(['1343270921']); main(['scan', {str(POSITIVE_LOG)!r}])\n"
            "bad = [m for m in sys.modules if m.split('.')[0] in ('sphinx', 'docutils', 'IPython')]\n"
            "print(bad)\n")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, timeout=60)
    assert p.stdout.decode().strip() == "[]", p.stderr.decode()


# -- hostile input found by QA ------------------------------------------------------------

def test_a_number_of_thousands_of_digits_is_one_line():
    proc = run("9" * 5000)
    assert proc.returncode == 1 and proc.stdout == b""
    line = proc.stderr.decode().strip()
    assert "\n" not in line and "does not fit in 32 bits" in line


def test_scan_skips_a_number_of_thousands_of_digits(tmp_path):
    log = tmp_path / "big.log"
    log.write_text("LLM_TIMEOUT ret=" + "1" * 4301 + "\nret = 1343270921\n")
    proc = run("scan", str(log))
    assert proc.returncode == 1 and b"Traceback" not in proc.stderr
    assert "LLM_TIMEOUT" in out(proc) and "LLM_LINK_FAILED" in out(proc) and "Summary" in out(proc)


def test_negative_hex_is_a_code_not_an_option():
    proc = run("-0x1")
    assert proc.returncode == 0, proc.stderr
    assert "LLM_UNKNOWN_ERROR" in out(proc) and "LLM_FAILED" in out(proc)


def test_context_is_bounded():
    proc = run("scan", "-", "-C", "99999999999999999999", stdin=b"LLM_TIMEOUT\n")
    assert proc.returncode == 2 and b"must be at most 10000" in proc.stderr
    assert b"Traceback" not in proc.stderr


def test_closed_or_full_stdout_is_one_line():
    closed = subprocess.run(f"'{SCRIPT}' LLM_TIMEOUT >&-", shell=True, capture_output=True)
    assert closed.returncode == 2 and closed.stderr == b"llmstatus: standard output is closed\n"
    full = subprocess.run(f"'{SCRIPT}' LLM_TIMEOUT > /dev/full", shell=True, capture_output=True)
    assert full.returncode == 2
    assert full.stderr == b"llmstatus: cannot write output: No space left on device\n"


def test_scan_blames_the_output_not_the_input_when_stdout_is_full(tmp_path):
    log = tmp_path / "many.log"
    log.write_text("LLM_TIMEOUT here\n" * 20000)
    proc = subprocess.run(f"'{SCRIPT}' scan '{log}' > /dev/full", shell=True, capture_output=True)
    assert proc.returncode == 2
    assert proc.stderr == b"llmstatus: cannot write output: No space left on device\n"


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-be", "utf-32"])
def test_scan_reads_utf16_and_utf32_logs_with_a_bom(tmp_path, encoding):
    log = tmp_path / "wide.log"
    text = "a LLM_TIMEOUT\nret = 1343270921\n"
    data = text.encode(encoding)
    if encoding == "utf-16-be":
        data = b"\xfe\xff" + data
    log.write_bytes(data)
    proc = run("scan", "--json", str(log))
    hits = [json.loads(line) for line in out(proc).splitlines()]
    assert [(h["line"], h["name"]) for h in hits] == [(1, "LLM_TIMEOUT"), (2, "LLM_LINK_FAILED")]


# -- issue 13: conventional grammar, formats, nothing breaks ------------------------------

@pytest.mark.parametrize("argv", [
    ("--lang", "zh", "list"), ("list", "--lang", "zh"),
    ("--lang", "zh", "LLM_TIMEOUT"), ("LLM_TIMEOUT", "--lang", "zh"),
])
def test_output_options_before_or_after_the_command(argv):
    p = run(*argv)
    assert p.returncode == 0, err(p)
    assert "含义" in out(p) and err(p) == ""


def test_json_before_the_command_and_registry_before_scan(tmp_path):
    assert json.loads(out(run("--json", "list"))) == json.loads(out(run("list", "--json")))
    extra = tmp_path / "extra.toml"
    extra.write_text("", encoding="utf-8")
    log = tmp_path / "x.log"
    log.write_text("ret = 1343270921\n", encoding="utf-8")
    p = run("--registry", str(extra), "scan", str(log))
    assert p.returncode == 1 and "LLM_LINK_FAILED" in out(p), err(p)
    p = run("--registry", str(tmp_path / "missing.toml"), "scan", "--registry", str(extra), str(log))
    assert p.returncode == 2 and "missing.toml" in err(p)  # files before and after are all read


def test_arguments_are_not_rewritten(tmp_path):
    (tmp_path / "-0x10").write_text("ret = 1343270921\n", encoding="utf-8")
    p = subprocess.run([str(SCRIPT), "scan", "--", "-0x10"], capture_output=True, cwd=tmp_path, timeout=60)
    assert p.returncode == 1 and b"-0x10:1: LLM_LINK_FAILED" in p.stdout, p.stderr
    p = run("-0x5010B009")
    assert p.returncode == 1 and err(p).startswith("llmstatus: -0x5010B009 (0xAFEF4FF7) is not")
    assert "-1343270921" not in err(p)


@pytest.mark.parametrize("columns", ["abc", "-3", "", "1e3", "99999999999999999999999"])
def test_bad_columns_never_crash(columns):
    p = subprocess.run(f"'{SCRIPT}' LLM_TIMEOUT | cat", shell=True, capture_output=True, timeout=60,
                       env={**os.environ, "COLUMNS": columns})
    assert p.returncode == 0 and p.stdout.startswith(b"LLM_TIMEOUT ") and p.stderr == b""
    p = subprocess.run([str(SCRIPT), "-h"], capture_output=True, timeout=60, env={**os.environ, "COLUMNS": columns})
    assert p.returncode == 0 and b"llmstatus scan" in p.stdout


def test_closed_stderr_still_reports_the_good_file(tmp_path):
    p = subprocess.run(f"'{SCRIPT}' scan /nonexistent '{POSITIVE_LOG}' 2>&-", shell=True, capture_output=True,
                       timeout=60)
    assert p.returncode == 2
    assert f"{POSITIVE_LOG}:1: LLM_LINK_FAILED".encode() in p.stdout and b"Summary" in p.stdout


def test_leading_zeros_resolve():
    for query in ("00000000000000000000001343270921", "0x000000000000000000000005010B009"):
        p = run(query)
        assert p.returncode == 0 and out(p).startswith("LLM_LINK_FAILED "), err(p)


@pytest.mark.parametrize("query, char, point", [
    ("LLM_L\u0406NK_FAILED", "\u0406", "U+0406 CYRILLIC CAPITAL LETTER BYELORUSSIAN-UKRAINIAN I"),
    ("LLM_LINK_FAILED".replace("A", "\u0391"), "\u0391", "U+0391 GREEK CAPITAL LETTER ALPHA"),
    ("LLM_TIM\u0415OUT", "\u0415", "U+0415 CYRILLIC CAPITAL LETTER IE"),
])
def test_look_alike_letter_is_named(query, char, point):
    p = run(query)
    assert p.returncode == 1
    assert f"it contains {char!r} ({point}), not an ASCII letter" in err(p), err(p)


def test_file_names_are_escaped_in_text_and_json(tmp_path):
    name = b"bad\xff\x1b[31mname\n.log"
    path = os.path.join(os.fsencode(tmp_path), name)
    with open(path, "wb") as fh:
        fh.write(b"ret = 1343270921\n")
    for fmt in ("text", "json", "markdown"):
        p = subprocess.run([SCRIPT.__fspath__().encode(), b"scan", b"--format", fmt.encode(), path],
                           capture_output=True, timeout=60)
        assert p.returncode == 1, p.stderr
        assert b"\x1b" not in p.stdout and b"\xff" not in p.stdout and b"name\n" not in p.stdout
        if fmt == "text":
            assert b"bad\\xff\\x1b[31mname\\x0a.log:1: LLM_LINK_FAILED" in p.stdout
    row = json.loads(subprocess.run([SCRIPT.__fspath__().encode(), b"scan", b"--json", path],
                                    capture_output=True, timeout=60).stdout)
    assert row["file"].endswith("bad\\xff\\x1b[31mname\\x0a.log")
    p = subprocess.run([SCRIPT.__fspath__().encode(), b"scan", path + b".missing"], capture_output=True, timeout=60)
    assert b"\x1b" not in p.stderr and b"\\x1b[31m" in p.stderr


@pytest.mark.parametrize("argv", [("LLM LINK FAILED",), ("llm link failed",), ("llm", "link", "failed"),
                                  ("LLM-LINK-FAILED",)])
def test_name_with_spaces_for_underscores(argv):
    p = run(*argv)
    assert p.returncode == 0 and out(p).startswith("LLM_LINK_FAILED "), err(p)


def test_words_that_are_codes_stay_separate():
    p = run("LLM_TIMEOUT", "LLM_FAILED")
    assert p.returncode == 0 and out(p).startswith("LLM_TIMEOUT ") and "\nLLM_FAILED " in out(p)
    p = run("LLM_TIMEOUT", "failed")  # one word is a code: the other is not glued to it
    assert p.returncode == 1 and "'failed'" in err(p)


@pytest.mark.parametrize("constant, name", [("kLinKFailed", "LLM_LINK_FAILED"),
                                            ("kLLMWaitProcessTimeOut", "LLM_WAIT_PROC_TIMEOUT"),
                                            ("llm_datadist_wrapper.kLLMDeviceMemError", "LLM_DEVICE_MEM_ERROR")])
def test_pybind_constants(constant, name):
    p = run(constant, "--json")
    (entry,) = json.loads(out(p))
    assert entry["name"] == name and entry["reading"] == "pybind name"


COMMANDS = [("LLM_TIMEOUT",), ("-1",), ("search", "timeout"), ("list", "--api", "cpp"), ("scan", str(POSITIVE_LOG))]


@pytest.mark.parametrize("fmt", ["text", "json", "markdown"])
@pytest.mark.parametrize("argv", COMMANDS, ids=lambda a: a[0])
def test_every_command_in_every_format(argv, fmt):
    p = run("--format", fmt, *argv)
    assert p.returncode in (0, 1) and err(p) == "", err(p)
    text = out(p)
    if fmt == "json":
        if argv[0] == "scan":
            assert [json.loads(line)["line"] for line in text.splitlines()] == [1, 2, 3, 4, 5]
        else:
            assert json.loads(text)
    elif fmt == "markdown":
        assert "|---|" in text and "\x1b" not in text
        assert ("**<code>" in text) if argv[0] in ("LLM_TIMEOUT", "-1") else True
    else:
        assert "|---|" not in text and text.strip()
    assert run(*argv, "--format", fmt).stdout == p.stdout  # before or after the command


def test_markdown_scan_is_one_table_with_a_summary():
    text = out(run("scan", "--format", "markdown", str(POSITIVE_LOG)))
    lines = text.splitlines()
    assert lines[0].startswith("| File | Line | Log line | Code |") and lines[1].startswith("|---|")
    from sphinx_llmstatus.render.markdown import esc

    assert len([line for line in lines if line.startswith(f"| {esc(str(POSITIVE_LOG))} |")]) == 5
    assert lines[-1].startswith(r"**Summary:** <code>LLM\_LINK\_FAILED</code> × 2")


def test_markdown_scan_shows_context_lines(tmp_path):
    """-C in Markdown: a Context column with the lines around each hit, still one table."""
    log = tmp_path / "ctx.log"
    log.write_text("start | one\nmiddle\n[ERROR] LinkLlmClusters failed, ret = 1343270921\nafter <b>\nend\n",
                   encoding="utf-8")
    lines = out(run("scan", "--format", "markdown", "-C", "1", str(log))).splitlines()
    assert lines[0].endswith("| Context |") and lines[1] == "|" + "---|" * 7
    row = lines[2]
    assert row.count(" | ") == 6  # seven cells: the | of the log lines is escaped
    assert row.endswith(r"| <code>2: middle</code><br><code>4: after &lt;b&gt;</code> |")
    plain = out(run("scan", "--format", "markdown", str(log))).splitlines()
    assert "Context" not in plain[0]


def test_formats_come_from_one_table():
    from sphinx_llmstatus.cli import commands, formats, parser

    assert tuple(formats.FORMATS) == parser.FORMATS
    source = Path(commands.__file__).read_text(encoding="utf-8")
    assert "args.json" not in source and "args.format ==" not in source


def _scan_of_many_codes(tmp_path: Path, *options: str, line: bytes = b"x" * 200 + b" ret = 1343270921\n"
                        ) -> subprocess.Popen:
    """``llmstatus scan`` of 40 MB of ``line``s, under way (stderr a pipe)."""
    import signal
    import time

    big = tmp_path / "big.log"
    with big.open("wb") as fh:
        fh.write(line * ((40 << 20) // len(line)))
    # A shell's background job ignores SIGINT, and a child would inherit that: the default is restored.
    proc = subprocess.Popen([str(SCRIPT), "scan", *options, str(big)], stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, start_new_session=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    time.sleep(1.0)
    assert proc.poll() is None, "the scan ended before Ctrl-C"
    return proc


def test_ctrl_c_during_a_scan_prints_no_traceback(tmp_path):
    import signal

    from sphinx_llmstatus.cli.scan import CTRL_C_NOTICE

    proc = _scan_of_many_codes(tmp_path)
    os.killpg(proc.pid, signal.SIGINT)  # what Ctrl-C in a terminal does: the whole process group
    _, stderr = proc.communicate(timeout=60)
    assert proc.returncode == 130
    assert b"Traceback" not in stderr and b"KeyboardInterrupt" not in stderr, stderr.decode()
    assert stderr.count(CTRL_C_NOTICE) == 1, stderr.decode()


def test_ctrl_c_says_the_lines_read_are_still_scanned_and_a_second_ends_it(tmp_path):
    """After Ctrl-C, the lines read ahead are still scanned for the report: on a log dense with
    codes that takes seconds (a tester waited up to 31 s, told nothing). The first Ctrl-C says so
    at once, and how to stop; the second gives the report of what was scanned."""
    import select
    import signal
    import time

    from sphinx_llmstatus.cli.scan import CTRL_C_NOTICE

    # Short lines, each a hit: what was read ahead would take a minute to scan.
    proc = _scan_of_many_codes(tmp_path, "--summary", line=b"ret = 1343270921\n")
    os.killpg(proc.pid, signal.SIGINT)
    assert select.select([proc.stderr], [], [], 30)[0], "no word after Ctrl-C"
    told = os.read(proc.stderr.fileno(), 4096)
    # As a person would: a signal that comes while Python runs the handler of the one before is
    # one Ctrl-C with it (written within the handler, the notice can be read by then).
    time.sleep(0.2)
    start = time.monotonic()
    os.killpg(proc.pid, signal.SIGINT)
    _, stderr = proc.communicate(timeout=60)
    assert proc.returncode == 130 and told == CTRL_C_NOTICE, told + stderr
    assert time.monotonic() - start < 10
    assert b"Traceback" not in stderr and b"interrupted" in stderr and CTRL_C_NOTICE not in stderr


def _whole_batch(spool: Path) -> bool:
    """Whether a ``-j`` worker's spool file holds a whole first batch (read from a copy of its bytes)."""
    import io
    import pickle

    try:
        pickle.load(io.BytesIO(spool.read_bytes()))
    except (OSError, EOFError, pickle.UnpicklingError):
        return False
    return True


@pytest.mark.parametrize(("form", "twice"), [(["--json"], False), (["--summary"], False), (["--summary"], True)])
def test_ctrl_c_with_workers_reports_every_path_in_flight_as_far_as_it_went(tmp_path, form, twice):
    """``scan -j 2``: Ctrl-C stops the workers. Each writes the events of what it read (those held
    for a batch too) and ends; the report covers every path in flight, not only the one the
    command waited for (a tester's got "No LLM DataDist status code found"). A second Ctrl-C
    while they write kills them: the report covers what they had written, at most half a
    second old (a tester's, again: "No LLM DataDist status code found")."""
    import json
    import signal
    import time

    logs = []
    for name in ("a.log", "b.log"):
        log = tmp_path / name
        log.write_bytes(b"[ERROR] LinkLlmClusters failed, ret = 1343270921\n" * 400_000)  # ~25 s each
        logs.append(str(log))
    spools = tmp_path / "tmp"  # where the command's private spool directory goes
    spools.mkdir()
    proc = subprocess.Popen([str(SCRIPT), "scan", "-j", "2", *form, *logs], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, start_new_session=True, env={**os.environ, "TMPDIR": str(spools)},
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    deadline = time.monotonic() + 60
    # Until each worker has written a whole batch of hits (a block of code lines takes a few seconds
    # to read): a file not empty may hold the first batch's start only, which a kill leaves unread.
    while len([f for f in spools.glob("*/*") if _whole_batch(f)]) < 2 and time.monotonic() < deadline \
            and proc.poll() is None:
        time.sleep(0.1)
    assert proc.poll() is None, "the scan ended before Ctrl-C"
    os.killpg(proc.pid, signal.SIGINT)
    if twice:  # while the workers read the rest of their block (seconds: every line is a code)
        time.sleep(0.2)
        os.killpg(proc.pid, signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130 and b"Traceback" not in err, err.decode()
    if "--json" in form:
        files = {json.loads(line)["file"] for line in out.splitlines()}
        assert files == set(logs), err.decode()
    else:
        assert b"No LLM DataDist status code found" not in out and b"LLM_LINK_FAILED" in out
        assert out.count(b"/a.log:") and out.count(b"/b.log:"), out.decode()[-2000:]


# -- issue 9 part 3: causes, settings and framework notes ------------------------------------

SETTINGS_REGISTRY = DATA / "cli_settings_registry.toml"


def _codes_with_causes() -> list[str]:
    from sphinx_llmstatus.registry import default_registry

    return [c.name for c in default_registry() if any(v.causes for v in c.views)]


def test_lookup_prints_causes_as_a_checklist():
    names = _codes_with_causes()
    assert names, "the registry has no cause yet"
    from sphinx_llmstatus.registry import default_registry

    code = default_registry()[names[0]]
    n_causes = len({c for v in code.views for c in v.causes})
    full = out(run(code.name, "--full"))
    assert "Causes and checks:" in full
    assert full.count("\n    [ ] ") == n_causes
    assert full.count("\n        Check: ") == n_causes and full.count("\n        Fix: ") == n_causes
    first = next(c for v in code.views for c in v.causes)
    assert first.sources[0].url in full
    zh = out(run(code.name, "--lang", "zh", "--full"))
    assert "原因与排查:" in zh and "\n        检查: " in zh and "\n        解决: " in zh
    # By default: the first causes and their checks, and how to see the rest (issue 24).
    short = out(run(code.name))
    shown = min(n_causes, 3)
    assert short.count("\n    [ ] ") == shown and short.count("\n        Check: ") == shown
    if n_causes > 3:
        assert f"{n_causes - 3} more causes, the fixes, settings and sources: llmstatus --full {code.name}" in short


@pytest.mark.slow  # one process per code
def test_a_lookup_reads_in_one_screen_and_fits_the_width():
    # Issue 24: `llmstatus 0x5010B009` printed 62 lines, cause lines up to 404 characters.
    for name in _codes_with_causes():
        text = out(run(name))
        lines = text.splitlines()
        assert len(lines) <= 50, (name, len(lines))  # a laptop terminal's height
        # Filled to 100 columns off a terminal; only an address, which cannot break, is longer.
        assert all(len(line) <= 100 or "://" in line for line in lines), name
    full = out(run("0x5010B009", "--full")).splitlines()
    assert all(len(line) <= 100 or "://" in line for line in full)


def test_lookup_json_says_which_engine_returns_the_code():
    """Issue 19: LLM_PROCESSING_LINK comes only from the KvCacheManager engine, each row cited."""
    (entry,) = json.loads(out(run("LLM_PROCESSING_LINK", "--json")))
    engines = {e["engine"]: e for e in entry["engines"]}
    assert engines["ge"]["returned"] and "link_clusters" in engines["ge"]["calls"]
    assert engines["ge"]["modes"] == ["KvCacheManager"]
    assert not engines["hixl"]["returned"] and not engines["hixl-cpp"]["returned"]
    assert all(e["sources"] for e in entry["engines"])
    text = out(run("LLM_PROCESSING_LINK"))
    assert ("In CacheManager mode this code is never returned: if you see it, you are on the KvCacheManager engine."
            in " ".join(text.split()))  # filled to the width


@pytest.mark.slow  # one process per code
def test_lookup_json_has_causes_settings_and_frameworks():
    for name in _codes_with_causes():
        (entry,) = json.loads(out(run(name, "--json")))
        assert entry["causes"], name
        for cause in entry["causes"]:
            assert set(cause) == {"api", "when", "check", "fix", "applies_to", "sources", "evidence", "unlogged"}
            assert set(cause["applies_to"]) == {"frameworks", "modes", "versions"}
            assert cause["evidence"] or cause["unlogged"]  # what the log shows of it, or why nothing
            assert cause["sources"] and all(set(s) == {"key", "title", "url", "lines"} for s in cause["sources"])
        assert isinstance(entry["settings"], list) and isinstance(entry["frameworks"], list)
    (entry,) = json.loads(out(run("--registry", str(SETTINGS_REGISTRY), "LLM_TIMEOUT", "--json")))
    assert entry["settings"] == [{"name": "sync_kv_timeout", "kind": "option", "api": None, "unit": "ms",
                                  "default": "1000", "about": "How long a pull waits.",
                                  "sources": [{"key": "t-src", "title": "A test thread",
                                               "url": "https://example.com/thread", "lines": None}]}]
    assert entry["frameworks"][0]["framework"] == "vllm-ascend" and entry["frameworks"][0]["does"]


def test_lookup_text_lists_settings_and_framework_notes():
    text = out(run("--registry", str(SETTINGS_REGISTRY), "LLM_TIMEOUT", "--full"))
    assert "  Settings:\n    - sync_kv_timeout (option, ms, default 1000): How long a pull waits." in text
    assert "  What frameworks do:\n    - vllm-ascend: Retries three times." in text


# -- adversarial run of issue 13 (second round) -----------------------------------------------


def test_no_argument_is_a_usage_error_on_stderr_only():
    p = run()
    assert p.returncode == 2 and p.stdout == b""
    assert err(p).startswith("usage: llmstatus") and "give a CODE or a command" in err(p)


def test_empty_search_is_a_usage_error():
    p = run("search", "")
    assert p.returncode == 2 and p.stdout == b"" and err(p) == "llmstatus: search needs a word (llmstatus search WORD...)\n"


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
@pytest.mark.parametrize("argv", [("--help",), ("--version",), ("scan", "--help")])
def test_help_to_a_full_disk_is_an_output_error(argv):
    with open("/dev/full", "wb") as full:
        env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
        p = subprocess.run([str(SCRIPT), *argv], stdout=full, stderr=subprocess.PIPE, env=env, timeout=60)
    assert p.returncode == 2 and err(p) == "llmstatus: cannot write output: No space left on device\n"


def test_same_registry_file_twice_is_read_once(tmp_path):
    f = tmp_path / "r1.toml"
    f.write_text('[[code]]\nname = "LLM_TIMEOUT"\nnote.en = "Site note."\nnote.zh = "站点说明。"\n', encoding="utf-8")
    p = run("--registry", str(f), "--registry", str(tmp_path / "." / "r1.toml"), "LLM_TIMEOUT")
    assert p.returncode == 0 and err(p) == "" and "Site note." in out(p)


def test_bytes_of_an_argument_are_shown_as_file_names_are():
    p = subprocess.run([str(SCRIPT), b"LLM_\xff"], capture_output=True, timeout=60)
    assert err(p) == "llmstatus: unknown LLM DataDist status code 'LLM_\\xff'\n"
    p = run("LLM_\x1b[31m")
    assert err(p) == "llmstatus: unknown LLM DataDist status code 'LLM_\\x1b[31m'\n"


def test_registry_text_with_control_characters_is_refused(tmp_path):
    f = tmp_path / "esc.toml"
    f.write_text('[[code]]\nname = "LLM_LINK_FAILED"\n[code.python]\nremedy.en = "Do \\u001b[31mRED"\n',
                 encoding="utf-8")
    p = run("--registry", str(f), "LLM_LINK_FAILED")
    assert p.returncode == 2 and p.stdout == b""
    assert err(p) == (f"llmstatus: {f}: entry LLM_LINK_FAILED: field python.remedy.en: "
                      "holds the control character U+001B (registry text is plain text)\n")


def test_registry_file_name_with_control_characters_is_escaped_in_errors(tmp_path):
    f = tmp_path / "bad\x1b[31m.toml"
    f.write_text("[[code]\n", encoding="utf-8")
    p = run("--registry", str(f), "list")
    assert p.returncode == 2 and "\x1b" not in err(p) and "bad\\x1b[31m.toml" in err(p)


def test_an_option_of_a_command_given_before_it_says_where_it_goes():
    p = run("-C", "2", "scan", "x.log")
    assert p.returncode == 2 and p.stdout == b""
    assert err(p).splitlines()[-1] == (
        "llmstatus: error: unrecognized arguments: -C (options of 'scan' go after it: llmstatus scan OPTION...)")
    assert "go after it" not in err(run("--bogus", "LLM_TIMEOUT"))


@pytest.mark.parametrize("argv", [
    ["LLM_LINK_FAILED"], ["0x5010B009"], ["1343270921", "-1"], ["-0x5010B009"], ["LLM", "LINK", "FAILED"],
    ["LLMStatusCode.LLM_TIMEOUT"], [""], ["@file"], ["5010b009", "kLinKFailed"],
])
def test_codes_alone_parse_as_argparse_does_without_it(argv):
    """`llmstatus CODE...` skips argparse (start-up): the namespace must be the one it would give."""
    from sphinx_llmstatus.cli.parser import parse
    from sphinx_llmstatus.cli.plain import plain_lookup

    assert vars(plain_lookup(argv)) == vars(parse(argv))


@pytest.mark.parametrize("argv", [
    [], ["-h"], ["--json", "X"], ["X", "--lang", "zh"], ["search", "x"], ["X", "scan"], ["--", "X"], ["-"],
    ["--registry=f.toml", "X"], ["-x1"],
])
def test_anything_but_codes_goes_to_argparse(argv):
    from sphinx_llmstatus.cli.plain import plain_lookup

    assert plain_lookup(argv) is None


def test_a_code_lookup_does_not_import_argparse():
    code = ("import sys; sys.argv = ['llmstatus', 'LLM_LINK_FAILED']\n"
            "from sphinx_llmstatus.cli import main\n"
            "status = main()\n"
            "print(status, 'argparse' in sys.modules, 'sphinx_llmstatus.registry.loader' in sys.modules,"
            " 'sphinx_llmstatus.registry.schema' in sys.modules, file=sys.stderr)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stderr.split() == ["0", "False", "False", "False"]


def test_an_empty_code_is_a_usage_error_and_a_huge_search_is_cut():
    # A new user's findings (issue 24): `llmstatus ''` exited 1, a 130 KB search word came back whole.
    p = run("")
    assert p.returncode == 2 and "give a CODE" in err(p)
    p = run("search", "x" * 130_000)
    assert p.returncode == 1 and len(err(p)) < 300 and "(130000 characters)" in err(p)
