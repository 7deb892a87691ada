"""The scanning engine: every format of FACTS.md and issues 3/6, the negatives, bad bytes."""

from __future__ import annotations

import io

import pytest

from sphinx_llmstatus.registry import default_registry
from sphinx_llmstatus.scan import Hit, engine, scan_stream, scan_text, scan_with_context

POSITIVE = [
    ("llm_datadist.status.LLMException: [link] failed, error code is LLMStatusCode.LLM_LINK_FAILED, {3: 0, 19: 1}.",
     ["LLM_LINK_FAILED"]),
    ("Check failed: ret == LLM_SUCCESS Initialize LlmDataList failed, ret = 1343270917", ["LLM_PARAM_INVALID"]),
    ("[ERROR] LinkLlmClusters failed, ret = 1343270921", ["LLM_LINK_FAILED"]),
    ("PullKvBlocks failed, layer = 3, role = decoder, ret = 5010b002", ["LLM_KV_CACHE_NOT_EXIST"]),
    ("[ERROR] GE(1234,python):2025-01-01-00:00:00.000.000 ... ErrorNo: 4294967295(failed)", ["LLM_FAILED"]),
    ("[pull_blocks] failed, error code is LLMStatusCode.LLM_KV_CACHE_NOT_EXIST, {}.", ["LLM_KV_CACHE_NOT_EXIST"]),
    ("ret, rets = (<LLMStatusCode.LLM_LINK_FAILED: 1343270921>, [<LLMStatusCode.LLM_LINK_FAILED: 1343270921>])",
     ["LLM_LINK_FAILED", "LLM_LINK_FAILED"]),
    ("status = 0x5010B01A", ["LLM_TIMEOUT"]),
    ("LLMStatusCode.LLM_WAIT_PROCESS_TIMEOUT and ge::LLM_WAIT_PROC_TIMEOUT", ["LLM_WAIT_PROC_TIMEOUT"] * 2),
    ("seq: LLMStatusCode.LLM_SEQ_LENOVERLIMIT", ["LLM_SEQ_LEN_OVER_LIMIT"]),
    ("error code is LLMStatusCode.LLM_DEVICE_MEM_ERROR", ["LLM_DEVICE_MEM_ERROR"]),
    ("aclrtMemcpy failed, ErrCode=507053", ["LLM_DEVICE_MEM_ERROR"]),
    ("ret = 507057", ["LLM_SUSPECT_REMOTE_ERROR"]),
    ("ret = ffffffff", ["LLM_FAILED"]),
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
]


def names(text: str, **kw) -> list[str | None]:
    return [h.code.name if h.code else None for h in scan_text(text, **kw)]


@pytest.mark.parametrize("line,expected", POSITIVE)
def test_positive_formats(line, expected):
    assert names(line) == expected


@pytest.mark.parametrize("line", NEGATIVE)
def test_negative_lines_are_silent(line):
    assert names(line) == []


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
    assert [(h.token, h.value, h.code) for h in hits] == [
        ("0x5010B0FF", 0x5010B0FF, None), ("1343271167", 0x5010B0FF, None), ("5010bfff", 0x5010BFFF, None)]
    assert not hits[0].is_success


def test_hit_fields_and_line_numbers():
    text = "a\r\nb ret = 1343270921 c\n\nLLMStatusCode.\nLLM_LINK_FAILED, {}\n"
    hits = list(scan_text(text))
    assert [(h.line_no, h.token) for h in hits] == [(2, "1343270921"), (5, "LLM_LINK_FAILED")]
    h = hits[0]
    assert isinstance(h, Hit) and h.line == "b ret = 1343270921 c" and h.line[h.start:h.end] == h.token
    assert h.value == 1343270921 and h.code is default_registry()["LLM_LINK_FAILED"] and h.api == "cpp"
    with pytest.raises(AttributeError):
        h.line_no = 3  # frozen


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


def test_blocks_cross_read_boundaries(monkeypatch):
    lines = [f"line {i} ret = 1343270921" if i % 97 == 0 else f"ordinary line {i}" for i in range(3000)]
    data = ("\n".join(lines)).encode()
    monkeypatch.setattr(engine, "READ_SIZE", 1000)
    got = [h.line_no for h in engine._scan_blocks(engine.iter_blocks(io.BytesIO(data), 1000), engine.matcher(), False)]
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


def test_line_longer_than_a_piece_is_scanned_in_pieces(monkeypatch):
    monkeypatch.setattr(engine, "MAX_PIECE", 1 << 20)
    words = b" ".join([b"filler"] * 400_000)  # about 2.8 MB, no newline
    data = b"ret = 1343270921 " + words + b" ret = 1343270917\nLLMStatusCode.LLM_TIMEOUT\n"
    hits = list(scan_stream(io.BytesIO(data)))
    assert [(h.line_no, h.code.name) for h in hits] == [
        (1, "LLM_LINK_FAILED"), (1, "LLM_PARAM_INVALID"), (2, "LLM_TIMEOUT")]


def test_context_groups():
    text = "\n".join(["a", "b", "ret = 1343270921", "c", "d", "e", "LLMStatusCode.LLM_TIMEOUT", "f"])
    groups = list(scan_with_context(io.BytesIO(text.encode()), 1))
    assert [([n for n, _ in b], [h.line_no for h in hs], [n for n, _ in a]) for b, hs, a in groups] == [
        ([2], [3], [4]), ([6], [7], [8])]


def test_rules_come_from_the_registry(tmp_path):
    from sphinx_llmstatus.registry import load_registry

    extra = tmp_path / "extra.toml"
    extra.write_text(
        '[[code]]\nname = "LLM_CUSTOM_THING"\nvalue = 0x5010B0FE\n[code.cpp]\nname = "LLM_CUSTOM_THING"\n'
        'documented = false\nsource = "cpp-source"\nrecoverable = "unknown"\nmeaning.en = "m"\nmeaning.zh = "m"\n'
        'remedy.en = "r"\nremedy.zh = "r"\n', encoding="utf-8")
    reg = load_registry([extra])
    assert [h.code.name for h in scan_text("ret = 0x5010B0FE; LLM_CUSTOM_THING", registry=reg)] == ["LLM_CUSTOM_THING"] * 2
    assert [h.code for h in scan_text("ret = 0x5010B0FE")] == [None]


# -- several processes for a large file -------------------------------------------------

def _hit_keys(hits):
    return [(h.line_no, h.start, h.token, h.code.name if h.code else None, h.line) for h in hits]


@pytest.mark.parametrize("chunk", [1 << 12, 1 << 14, 50_000])
def test_parallel_scan_gives_the_sequential_hits_in_order(tmp_path, chunk):
    from sphinx_llmstatus.scan import scan_stream
    from sphinx_llmstatus.scan.parallel import scan_file

    lines = []
    for i in range(20000):
        if i % 97 == 0:
            lines.append(f"[ERROR] LinkLlmClusters failed, ret = 1343270921 #{i}")
        elif i % 131 == 0:
            lines.append(f"llm_datadist.status.LLMException: [link] failed, error code is LLMStatusCode.LLM_TIMEOUT, {i}.")
        else:
            lines.append(f"INFO ordinary line {i} request_id=cmpl-9f05010b0091ac2e77d1 status ok")
    path = tmp_path / "big.log"
    path.write_text("\n".join(lines) + "\n")
    with open(path, "rb") as fh:
        expected = _hit_keys(scan_stream(fh))
    hits = scan_file(str(path), workers=2, min_bytes=0, chunk_bytes=chunk)
    assert hits is not None
    assert _hit_keys(hits) == expected and len(expected) > 300


def test_parallel_scan_declines_small_files_and_uncuttable_lines(tmp_path):
    from sphinx_llmstatus.scan.parallel import scan_file

    small = tmp_path / "small.log"
    small.write_text("ret = 1343270921\n")
    assert scan_file(str(small), workers=2) is None
    one_line = tmp_path / "one.log"
    one_line.write_bytes(b"x" * (10 << 20) + b" ret = 1343270921\n")
    assert scan_file(str(one_line), workers=2, min_bytes=0, chunk_bytes=1 << 16) is None
