"""The scanning engine: every format of FACTS.md and issues 3/6, the negatives, bad bytes."""

from __future__ import annotations

import io

import pytest

from sphinx_llmstatus.registry import default_registry
from sphinx_llmstatus.scan import Hit, engine, reading, scan_stream, scan_text, scan_with_context
from sphinx_llmstatus.scan.prefilter import available

ENGINES = available()


@pytest.fixture(params=ENGINES, autouse=True)
def scan_engine(request, monkeypatch):
    """Every test runs with each installed prefilter (Hyperscan and pure Python): same hits."""
    monkeypatch.setenv("LLMSTATUS_SCAN_ENGINE", request.param)
    return request.param

POSITIVE = [
    # A code's name before a number is no field name, though LLM_TIMEOUT ends like one ("timeout").
    ("pull failed: LLM_TIMEOUT 1343270921 llm_datadist", ["LLM_TIMEOUT", "LLM_LINK_FAILED"]),
    ("LLMStatusCode.LLM_WAIT_PROC_TIMEOUT 0x5010B009", ["LLM_WAIT_PROC_TIMEOUT", "LLM_LINK_FAILED"]),
    ("llm_datadist.status.LLMException: [link] failed, error code is LLMStatusCode.LLM_LINK_FAILED, {3: 0, 19: 1}.",
     ["LLM_LINK_FAILED"]),
    ("Check failed: ret == LLM_SUCCESS Initialize LlmDataList failed, ret = 1343270917", ["LLM_PARAM_INVALID"]),
    ("[ERROR] LinkLlmClusters failed, ret = 1343270921", ["LLM_LINK_FAILED"]),
    ("PullKvBlocks failed, layer = 3, role = decoder, ret = 5010b002", ["LLM_KV_CACHE_NOT_EXIST"]),
    ("[ERROR] GE(1234,python):2025-01-01-00:00:00.000.000 [llm_datadist.cc:88] LinkLlmClusters: ErrorNo: 4294967295(failed)",
     ["LLM_FAILED"]),
    ("[pull_blocks] failed, error code is LLMStatusCode.LLM_KV_CACHE_NOT_EXIST, {}.", ["LLM_KV_CACHE_NOT_EXIST"]),
    ("ret, rets = (<LLMStatusCode.LLM_LINK_FAILED: 1343270921>, [<LLMStatusCode.LLM_LINK_FAILED: 1343270921>])",
     ["LLM_LINK_FAILED"]),  # one hit per code per line
    ("status = 0x5010B01A", ["LLM_TIMEOUT"]),
    ("LLMStatusCode.LLM_WAIT_PROCESS_TIMEOUT and ge::LLM_WAIT_PROC_TIMEOUT", ["LLM_WAIT_PROC_TIMEOUT"]),
    ("seq: LLMStatusCode.LLM_SEQ_LENOVERLIMIT", ["LLM_SEQ_LEN_OVER_LIMIT"]),
    ("error code is LLMStatusCode.LLM_DEVICE_MEM_ERROR", ["LLM_DEVICE_MEM_ERROR"]),
    ("llm_datadist: aclrtMemcpy failed, ErrCode=507053", ["LLM_DEVICE_MEM_ERROR"]),
    ("pull_blocks ret = 507057", ["LLM_SUSPECT_REMOTE_ERROR"]),
    ("PushKvBlocks failed, layer = 2, k_ret = ffffffff, v_ret = 0", ["LLM_FAILED"]),
    ("[pull_blocks] got error: 507053", ["LLM_DEVICE_MEM_ERROR"]),
    ("LLMDataDist.pull_cache error 507057", ["LLM_SUSPECT_REMOTE_ERROR"]),
    ("status: <LLMStatusCode.LLM_UNKNOWN_ERROR: -1>", ["LLM_UNKNOWN_ERROR"]),
    ("(ret=1343270921)", ["LLM_LINK_FAILED"]),
]

NEGATIVE = [
    "Load graph failed, error code:1343225857, see plog",
    "Transfer slice failed with status: 503900",
    "ErrCode=507046, InnerCode=0x7030010",
    "request_id=cmpl-9f05010b0091ac2e77d1  url=https://example.invalid/a/65010b0091/b",
    "client 3232235777 connected",
    "ret=[<LLMStatusCode.LLM_SUCCESS: 0>]",
    "Check failed: ret == LLM_SUCCESS",
    "ret = -1",
    "ret = 0",
    "waited 507053 us",
    "timeout=4294967295",
    "url=https://example.invalid/5010b009/x and id=cmpl-1343270921 and v1.1343270921.2",
    "MY_LLM_LINK_FAILED_COUNT=3",
    "expect(ret != 1343270921)",
    "ret = 0x7bcad",
    "remote_ip=1343270921 local_port:1343270922 pid = 1343270923 clusterId=1343270924",
    "sync_kv_timeout 1343270921",
]


def names(text: str, **kw) -> list[str | None]:
    return [h.code.name if h.code else None for h in scan_text(text, **kw) if h.family == "llm_datadist"]


@pytest.mark.parametrize("line,expected", POSITIVE)
def test_positive_formats(line, expected):
    assert names(line) == expected


@pytest.mark.parametrize("line", NEGATIVE)
def test_negative_lines_are_silent(line):
    assert names(line) == []


@pytest.mark.parametrize("line,expected", [
    ("[ERROR] HCCL(4201,python3):... [transport_manager.cc:300] [4202]call trace: hcclRet -> 12",
     [("hccl", "12", "HCCL_E_ROCE_CONNECT")]),
    ("[4302]call trace: hcclRet -> 5 ", [("hccl", "5", "HCCL_E_NOT_SUPPORT")]),
    ("call trace: hcclRet -> 0", []),  # HCCL_SUCCESS is never traced
    ("call trace: hcclRet -> 99", []),  # no such HcclResult
    ("xhcclRet -> 5", []), ("call trace: hcclRet -> 5.1", []), ("hcclRet -> 7 == x", []),
])
def test_hccl_call_trace(line, expected):
    """HCCL's ``CHK_RET`` trace names the ``HcclResult`` a call returned: HCCL's, never LLM DataDist's."""
    hits = list(scan_text(line))
    assert [(h.family, h.token, h.other_name) for h in hits] == expected
    assert all(h.evidence == f"HCCL call trace (hcclRet -> {h.token})" for h in hits)
    # An HCCL error number after a keyword is told by that keyword, not as a trace.
    hit = next(scan_text("errNo[0x0000000005000007]"))
    assert hit.family == "hccl" and hit.evidence == "HCCL number after a status keyword"


def test_success_only_when_asked():
    assert names("ret=[<LLMStatusCode.LLM_SUCCESS: 0>]", include_success=True) == ["LLM_SUCCESS"]
    assert names("got LLMStatusCode.LLM_SUCCESS", include_success=True) == ["LLM_SUCCESS"]
    # The success name in a check expression is the expectation, never a hit.
    assert names("Check failed: ret == LLM_SUCCESS", include_success=True) == []
    assert names("ret = 0", include_success=True) == []
    hit = next(scan_text("LLMStatusCode.LLM_SUCCESS", include_success=True))
    assert hit.is_success


def test_unknown_llm_layout_is_reported_with_code_none():
    hits = list(scan_text("x ret = 0x5010B0FF y 1343271167 z 5010bfff"))
    assert [(h.token, h.value, h.code, h.columns) for h in hits] == [
        ("0x5010B0FF", 0x5010B0FF, None, (8, 21)), ("5010bfff", 0x5010BFFF, None, (34,))]
    assert not hits[0].is_success


def test_hit_fields_and_line_numbers():
    text = "a\r\nb ret = 1343270921 c\n\nLLMStatusCode.\nLLM_LINK_FAILED, {}\n"
    hits = list(scan_text(text))
    assert [(h.line_no, h.token) for h in hits] == [(2, "1343270921"), (5, "LLM_LINK_FAILED")]
    h = hits[0]
    assert isinstance(h, Hit) and h.line == "b ret = 1343270921 c" and h.line[h.start:h.end] == h.token
    assert h.value == 1343270921 and h.code is default_registry()["LLM_LINK_FAILED"] and h.api == "cpp"



def test_a_repeated_line_gives_hits_of_its_own():
    """Lines of one text are decided once (the engine's shapes): each still gets hits of its own."""
    hits = list(scan_text("ret = 1343270921\nret = 1343270921\n"))
    assert [h.line_no for h in hits] == [1, 2] and hits[0] is not hits[1] and hits[0].line == hits[1].line


def test_api_of_token():
    assert next(scan_text("LLMStatusCode.LLM_TIMEOUT")).api == "python"
    assert next(scan_text("ret = 1343270938")).api == "cpp"
    assert next(scan_text("LLM_WAIT_PROC_TIMEOUT")).api == "cpp"
    assert next(scan_text("LLM_WAIT_PROCESS_TIMEOUT")).api == "python"


class Trickle:
    """A stream that hands out a few bytes per read, like a slow pipe."""

    def __init__(self, data: bytes, step: int = 5):
        self.data, self.pos, self.step = data, 0, step

    def read1(self, n=-1):
        chunk = self.data[self.pos:self.pos + min(self.step, n if n > 0 else self.step)]
        self.pos += len(chunk)
        return chunk

    read = read1


def test_stream_equals_text_whatever_the_read_size():
    text = "\n".join(line for line, _ in POSITIVE) + "\n" + "\n".join(NEGATIVE)
    expected = [(h.line_no, h.start, h.token) for h in scan_text(text)]
    assert [(h.line_no, h.start, h.token) for h in scan_stream(io.BytesIO(text.encode()))] == expected
    assert [(h.line_no, h.start, h.token) for h in scan_stream(Trickle(text.encode()))] == expected


def test_blocks_cross_read_boundaries():
    lines = [f"line {i} ret = 1343270921" if i % 97 == 0 else f"ordinary line {i}" for i in range(3000)]
    data = ("\n".join(lines)).encode()
    segments = reading.iter_segments(io.BytesIO(data), 1000)
    got = [h.line_no for h in engine._scan_segments(segments, engine.scanner(), False)]
    assert got == [i + 1 for i in range(0, 3000, 97)]


def test_invalid_utf8_and_binary_bytes():
    data = b"\x00\x01\xff\xfe ret = 1343270921 \xc3(\n\x89PNG\r\n\x1a\n"
    (hit,) = scan_stream(io.BytesIO(data))
    assert hit.token == "1343270921" and "\ufffd" in hit.line and hit.line_no == 1


def test_empty_input():
    assert list(scan_text("")) == [] and list(scan_stream(io.BytesIO(b""))) == []


def test_multi_megabyte_line():
    line = b"x" * (6 << 20) + b" ret = 5010b009 " + b"y" * 1000
    (hit,) = scan_stream(io.BytesIO(line + b"\n"))
    assert hit.line_no == 1 and hit.token == "5010b009" and len(hit.line) == len(line)


def test_line_longer_than_a_piece_is_scanned_whole(monkeypatch):
    """A line longer than LONG_LINE is read in pieces: every token once, right columns, file == pipe."""
    monkeypatch.setattr(reading, "LONG_LINE", 1 << 16)
    head = "(VllmWorker rank=0 pid=123) ERROR 01-01 10:00:05 "
    words = [head]
    expected = []
    col = len(head)
    for i in range(40_000):  # about 400 KB, tokens all over, some across every cut
        w = "ret = 1343270921 " if i % 997 == 0 else ("é" if i % 7 == 0 else "filler ")
        if i % 997 == 0:
            expected.append(col + 6)
        words.append(w)
        col += len(w)
    line = "".join(words)
    data = (line + "\nLLMStatusCode.LLM_TIMEOUT\n").encode()
    for stream in (io.BytesIO(data), Trickle(data, 4093)):
        hits = list(scan_stream(stream))
        assert [(h.line_no, h.code.name) for h in hits] == [(1, "LLM_LINK_FAILED"), (2, "LLM_TIMEOUT")]
        assert hits[0].columns == tuple(expected) and hits[0].line_length == len(line)
        assert hits[0].line.startswith(head) and hits[0].line[hits[0].start:hits[0].end] == "1343270921"
        assert hits[0].process == "123 (VllmWorker rank=0)"


def test_long_line_keeps_a_bounded_number_of_columns_and_one_hit_per_symptom(monkeypatch):
    """Read in pieces, a line repeating a code millions of times keeps the first MAX_COLUMNS
    columns of each code (later pieces add none, so memory stays bounded) and a symptom is
    one hit, at its first occurrence: the same hits as the line read whole."""
    monkeypatch.setattr(engine, "MAX_COLUMNS", 50)
    unit = "ret = 1343270921 0x5010B009 Failed to connect peer, error msg:Connection refused, errno:111 "
    data = ("llm_datadist " + unit * 2_000 + "\n").encode()

    def hits() -> list[tuple]:
        return [(h.kind, h.code.name if h.code else None, h.column, h.columns, h.columns_truncated)
                for h in scan_stream(io.BytesIO(data))]

    whole = hits()
    monkeypatch.setattr(reading, "LONG_LINE", 1 << 14)  # about a dozen pieces
    assert hits() == whole
    (code,) = [h for h in whole if h[0] == "code"]
    assert len(code[3]) == 50 and code[4]  # both spellings of LLM_LINK_FAILED, the first 50
    assert code[3][:2] == (19, 30)
    assert [h[0] for h in whole].count("symptom") == 1


def test_memory_of_a_long_line_does_not_grow_with_its_codes(monkeypatch):
    """Peak memory (tracemalloc) scanning a line read in pieces is that of a piece, however many
    more codes and symptoms the line repeats (it grew by 6x for 4x the line before)."""
    import tracemalloc

    monkeypatch.setattr(reading, "LONG_LINE", 1 << 16)
    monkeypatch.setattr(engine, "MAX_COLUMNS", 50)
    unit = "ret = 1343270921 0x5010B009 Failed to connect peer, error msg:Connection refused, errno:111 "
    peaks = []
    for repeats in (20_000, 80_000):
        data = io.BytesIO(("llm_datadist " + unit * repeats + "\n").encode())
        tracemalloc.start()
        try:  # reads of 64 KiB, as the reads of 4 MiB of scan_stream would hide a small growth
            (code, _symptom) = engine._scan_segments(reading.iter_segments(data, 1 << 16), engine.scanner(), False)
            peaks.append(tracemalloc.get_traced_memory()[1])
        finally:
            tracemalloc.stop()
    assert code.columns_truncated and len(code.columns) == 50
    assert peaks[1] < 1.5 * peaks[0], peaks


# -- attribution (issue 10) --------------------------------------------------------------

GE_OP_FAULT = ("[ERROR] GE(1254,ker_DP25_EP25):2025-06-12-10:36:53.301.823 [error_tracking.cc:113]1254 "
               "ErrorTrackingCallback: ErrorNo: 4294967295(failed) Error happened, origin_op_name "
               "[MoeDistributeCombineV2_48], op_name [MoeDistributeCombineV2_48]")
TORCH_UCE = "RuntimeError: copy between host_and device_opapi, UCE ERROR, error code is 507053"


def fams(text: str) -> list[tuple[str | None, str, str | None]]:
    return [(h.code.name if h.code else h.other_name, h.family, h.related.name if h.related else None)
            for h in scan_text(text)]


def test_shared_numbers_without_context_keep_their_family():
    assert fams(GE_OP_FAULT) == [("ge::FAILED", "ge", None)]
    assert fams(TORCH_UCE) == [("ACL_ERROR_RT_DEVICE_MEM_ERROR", "acl_runtime", "LLM_DEVICE_MEM_ERROR")]
    assert fams("error 507057") == [("ACL_ERROR_RT_SUSPECT_REMOTE_ERROR", "acl_runtime", "LLM_SUSPECT_REMOTE_ERROR")]
    assert fams("[ERROR] HCCL(777,python):2025-11-01-11:00:00.000.000 [transport.cc:12] call failed, ret = 4294967295") \
        == [("-1 (not an HcclResult)", "hccl", None)]
    (hit,) = scan_text(GE_OP_FAULT)
    assert not hit.is_failure and hit.code is None and "GE(" in hit.evidence


def test_shared_numbers_with_context_on_a_neighbour_of_the_same_process():
    before = "[INFO] GE(77,python):2025-01-01-00:00:00.000.000 [llm_datadist.cc:1] PullKvBlocks start\n"
    other = "[INFO] GE(78,python):2025-01-01-00:00:00.000.000 [llm_datadist.cc:1] PullKvBlocks start\n"
    line = "[ERROR] GE(77,python):2025-01-01-00:00:00.000.001 [x.cc:2] ErrorNo: 4294967295(failed)\n"
    (hit,) = scan_text(before + line)
    assert hit.family == "llm_datadist" and hit.code.name == "LLM_FAILED" and "1 line before" in hit.evidence
    assert hit.api == "python"  # GE(pid,python): the Python API's view
    (hit,) = scan_text(line + "x\n" + before)
    assert hit.family == "llm_datadist" and "2 lines after" in hit.evidence
    (hit,) = scan_text(other + line)  # another process's context does not count
    assert hit.family == "ge"
    (hit,) = scan_text(line + "a\nb\nc\n" + before)  # too far
    assert hit.family == "ge"


def test_context_after_arrives_in_a_later_read():
    line = b"x ret = ffffffff\n"
    data = line + b"a\n" + b"PushKvBlocks failed\n" + b"tail\n" * 5
    for stream in (io.BytesIO(data), Trickle(data, 3)):
        (hit,) = scan_stream(stream)
        assert hit.family == "llm_datadist", stream


def test_fields_are_not_codes():
    assert fams("link to remote_ip=1343270921 port 1343270922 ok") == []
    assert fams("cluster_id: 1343270921, ret = 1343270921") == [("LLM_LINK_FAILED", "llm_datadist", None)]


@pytest.mark.parametrize("line", [
    "LLM_ " * 16_000 + "a." * 40_000,
    "LLM_ ret" + " " * 40_000 + "x",
    "ret = " * 150_000 + "ffffffff",
    "a." * 500_000 + "LLM_LINK_FAILED",
    "LLMStatusCode." * 70_000 + "LLM_LINK_FAILED",
    "<" * 1_000_000 + "LLMStatusCode.LLM_TIMEOUT: 1",
    "1343270921 " * 90_000,
    "ret = ffffffff " * 66_000,
    "".join(("ret = 1343270921 ", "LLM_LINK_FAILED ", "0x5010B009 ", "error 507053 ")[i * 7 % 4] for i in range(60_000)),
    # Near-misses that go on, each in new surroundings: ``re`` must drop them, not Python.
    "".join(f"5010b{i * 7919 % 65536:04x} " for i in range(100_000)),
    "".join(f"ret = 134327{i * 7919 % 100000:05d} " for i in range(55_000)),
    "".join(f"ret = ffffffff{i * 13 % 16:x}{i % 97} " for i in range(50_000)),
])
def test_hostile_lines_are_linear(line):
    """Hang guard only (generous): each took tens of seconds with the old rules; bench/ has the figure."""
    import time

    start = time.perf_counter()
    list(scan_text(line))
    assert time.perf_counter() - start < 5


def test_context_groups():
    text = "\n".join(["a", "b", "ret = 1343270921", "c", "d", "e", "LLMStatusCode.LLM_TIMEOUT", "f"])
    for stream in (io.BytesIO(text.encode()), Trickle(text.encode(), 2)):
        groups = list(scan_with_context(stream, 1))
        assert [([n for n, _ in b], [h.line_no for h in hs], [n for n, _ in a]) for b, hs, a in groups] == [
            ([2], [3], [4]), ([6], [7], [8])]
    # Each group's window is whole (it stands alone as a JSON object), even where windows overlap.
    groups = list(scan_with_context(io.BytesIO(text.encode()), 3))
    assert [([n for n, _ in b], [h.line_no for h in hs], [n for n, _ in a]) for b, hs, a in groups] == [
        ([1, 2], [3], [4, 5, 6]), ([4, 5, 6], [7], [8])]


@pytest.mark.parametrize("size", [7, 61, 997])
def test_context_groups_are_whole_wherever_the_reads_end(size):
    """A hit at a block's end is given before the next block's lines are read: its group waits
    for them (a tester's log lost an ``after`` line where a 4 MiB block ended)."""
    lines = [f"ret = {1343270921 + i % 3}" if i % 3 else f"quiet line {i}" for i in range(60)]
    text = "\n".join(lines).encode()

    def shown(stream: io.RawIOBase | io.BytesIO) -> list:
        return [([n for n, _ in b], [h.line_no for h in hs], [n for n, _ in a])
                for b, hs, a in scan_with_context(stream, 2)]

    whole = shown(io.BytesIO(text))
    assert all(len(a) == 2 for _, _, a in whole[:-2]) and len(whole) == 40
    assert shown(Trickle(text, size)) == whole


def test_context_line_numbers_after_a_long_line(monkeypatch):
    monkeypatch.setattr(reading, "LONG_LINE", 1 << 14)
    text = "a\n" + "x " * 50_000 + "\nb\nret = 1343270921\nc\n"
    (group,) = scan_with_context(io.BytesIO(text.encode()), 1)
    assert [n for n, _ in group[0]] == [3] and group[1][0].line_no == 4 and [n for n, _ in group[2]] == [5]


def test_rules_come_from_the_registry(tmp_path):
    from sphinx_llmstatus.registry import load_registry

    extra = tmp_path / "extra.toml"
    extra.write_text(
        '[[code]]\nname = "LLM_CUSTOM_THING"\nvalue = 0x5010B0FE\n[code.cpp]\nname = "LLM_CUSTOM_THING"\n'
        'documented = false\nsource = "cpp-source"\nrecoverable = "unknown"\nmeaning.en = "m"\nmeaning.zh = "m"\n'
        'remedy.en = "r"\nremedy.zh = "r"\n', encoding="utf-8")
    reg = load_registry([extra])
    assert [h.code.name for h in scan_text("ret = 0x5010B0FE; LLM_CUSTOM_THING", registry=reg)] == ["LLM_CUSTOM_THING"]
    assert [h.code for h in scan_text("ret = 0x5010B0FE")] == [None]


def test_hyperscan_database_cache(tmp_path, monkeypatch):
    """The compiled prefilter is cached per user; a bad or foreign cache file means compiling again."""
    pytest.importorskip("hyperscan")
    from sphinx_llmstatus.scan import prefilter

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    patterns = list(engine.scanner().matcher.prefilter)
    data = b"x\nret = 1343270921\nLLM_TIMEOUT y\nnothing\n"
    expected = prefilter.HyperscanPrefilter(patterns).starts(data, len(data))
    (cached,) = (tmp_path / "sphinx_llmstatus").iterdir()
    assert expected == [2, 19] and prefilter.HyperscanPrefilter(patterns).starts(data, len(data)) == expected
    blob = cached.read_bytes()
    for bad in (blob[:-100], blob.replace(b"LLM_", b"LLX_", 1), b"garbage"):
        cached.write_bytes(bad)
        assert prefilter.HyperscanPrefilter(patterns).starts(data, len(data)) == expected
    assert cached.read_bytes() == blob  # compiled and written again
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "file"))
    (tmp_path / "file").write_text("not a directory")
    assert prefilter.HyperscanPrefilter(patterns).starts(data, len(data)) == expected


# -- issue 19: the neighbouring layers ---------------------------------------------------------

HIXL_FAILED_LINE = ("[ERROR] GE(77,python):2026-11-30-10:00:00.000.001 [hixl_engine.cc:120][HIXL] 78 Connect: "
                    "ErrorNo: 4294967295 connect failed")


def test_a_hixl_line_is_hixls_even_under_ges_module_id():
    """HIXL_LOGE writes '[file:line][HIXL] <tid> <Func>: ErrorNo: <n>' under GE's module id (hixl_log.h):
    the tag names the writer, so its generic failure is HIXL's, not GE model loading's."""
    (hit,) = scan_text(HIXL_FAILED_LINE)
    assert hit.family == "hixl" and not hit.is_failure and "GE" not in (hit.other_name or "").split("::")[0]
    # With LLM DataDist context (its link manager logs through the same macro) it is LLM_FAILED.
    (hit,) = scan_text(HIXL_FAILED_LINE.replace("hixl_engine.cc", "llm_link_manager.cc"))
    assert hit.family == "llm_datadist" and hit.code.name == "LLM_FAILED"


@pytest.mark.parametrize("line,family,name", [
    ("Failed to connect to target: 192.0.2.1:25482, status: 103900", "hixl", "HIXL_PARAM_INVALID"),
    ("Transfer slice failed with status: 103902", "hixl", "HIXL_NOT_CONNECTED"),
    ("rtStreamSynchronizeWithTimeout: ErrCode=507046, desc=[stream sync timeout]", "acl_runtime",
     "ACL_ERROR_RT_STREAM_SYNC_TIMEOUT"),
    ("[ERROR] HCCL(1,python):... errNo[0x0000000005000007] ranktable config devId[1]", "hccl", "HCCL_E_UNAVAIL"),
])
def test_another_layers_number_carries_its_entry(line, family, name):
    """Family, name, meaning and a first check: not only "another layer's code"."""
    hits = [h for h in scan_text(line) if h.kind == "code"]
    assert [(h.family, h.other_name) for h in hits] == [(family, name)]
    (hit,) = hits
    assert hit.other is not None and hit.other_meaning and hit.other_check and not hit.is_failure


def test_mindspore_lite_exception_names_are_llm_datadist_codes():
    line = "mindspore_lite.llm_engine.LLMOutOfMemory: pull_kv failed: Device out of memory, llm_req {llm_req: 44}"
    (hit,) = scan_text(line)
    assert hit.code.name == "LLM_DEVICE_OUT_OF_MEMORY" and hit.is_failure


def test_triage_marks_a_generic_failure_after_a_specific_one_once_in_the_core():
    """Report.triage decides the consequence marks for the command, the notebook and the MCP tool."""
    from sphinx_llmstatus.scan.pipeline import scan_triaged

    text = ("(VllmWorker rank=0 pid=9) ERROR [link] failed, error code is LLMStatusCode.LLM_LINK_FAILED.\n"
            "(VllmWorker rank=0 pid=9) ERROR [pull] failed, error code is LLMStatusCode.LLM_FAILED.\n"
            "(VllmWorker rank=0 pid=7) ERROR [pull] failed, error code is LLMStatusCode.LLM_FAILED.\n")
    hits, report = scan_triaged(text)
    assert [h.consequence_of for h in hits] == [None, ("", 1, "LLM_LINK_FAILED"), None]
    assert report.consequences == {"LLM_FAILED": 1} and len(report.first) == 2


@pytest.mark.parametrize("api", ["scan_stream", "scan_with_context"])
def test_ctrl_c_thrown_in_between_two_hits_of_a_run_loses_none(api):
    """The scanner gives a run of lines' hits at a time (a block's); Ctrl-C thrown in while one hit
    (group) of a run is taken, as a layer above tells a scan (:func:`~.interrupt.relay`), still
    gives the rest of that run and of what was read, then the scan ends."""
    from sphinx_llmstatus.scan.interrupt import after_interrupt

    data = b"[ERROR] LinkLlmClusters failed, ret = 1343270921\nok\n" * 50
    items = scan_stream(io.BytesIO(data)) if api == "scan_stream" else scan_with_context(io.BytesIO(data), 1)
    line_no = (lambda h: h.line_no) if api == "scan_stream" else (lambda g: g.hits[0].line_no)
    first = [line_no(next(items)) for _ in range(3)]
    rest = [line_no(item) for item in after_interrupt(items)]
    assert first + rest == list(range(1, 100, 2))


def test_a_flood_goes_up_in_runs_of_at_most_run_hits():
    """The scanner gives its hits a run at a time, of at most :data:`~.engine.RUN` (a line waiting
    for its neighbours aside): ``-C`` makes a run's groups at once, and a block's (50,000 lines of
    codes) held 11 MB more on a flood."""
    data = b"[ERROR] LinkLlmClusters failed, ret = 1343270921\n" * 5000
    scan = engine.scanner().reading(False, None)
    runs = [item for item in engine._scanned(reading.iter_segments(io.BytesIO(data)), scan, True, None)
            if not isinstance(item, int)]
    assert len(runs) > 1 and max(map(len, runs)) == engine.RUN and sum(map(len, runs)) == 5000
