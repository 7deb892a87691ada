"""Lookup accepts every form a user pastes; unknown input raises with suggestions."""

from __future__ import annotations

import subprocess
import sys

import pytest

from sphinx_llmstatus.registry import UnknownStatusCode, decode_layout, default_registry, lookup, search, suggest


@pytest.mark.parametrize("query", [
    "LLM_PARAM_INVALID", "llm_param_invalid", "0x5010b005", "0x5010B005", "5010B005", "5010b005",
    "1343270917", "LLMStatusCode.LLM_PARAM_INVALID", "<LLMStatusCode.LLM_PARAM_INVALID: 1343270917>",
    "llm_datadist::LLM_PARAM_INVALID", "ge::LLM_PARAM_INVALID", " `LLM_PARAM_INVALID` ",
    "0x5010B005U", "LLMStatusCode.LLM_PARAM_INVALID,",
])
def test_forms_of_param_invalid(query):
    matches = lookup(query)
    assert [m.code.name for m in matches] == ["LLM_PARAM_INVALID"]


@pytest.mark.parametrize("query,name,reading", [
    ("LLM_WAIT_PROCESS_TIMEOUT", "LLM_WAIT_PROC_TIMEOUT", "Python name"),
    ("llm_wait_proc_timeout", "LLM_WAIT_PROC_TIMEOUT", "name"),
    ("LLM_SEQ_LENOVERLIMIT", "LLM_SEQ_LEN_OVER_LIMIT", "Python name"),
    ("4294967295", "LLM_FAILED", "decimal"),
    ("0xFFFFFFFF", "LLM_FAILED", "hex"),
    ("0", "LLM_SUCCESS", "decimal"),
    ("0x0", "LLM_SUCCESS", "hex"),
    ("507053", "LLM_DEVICE_MEM_ERROR", "decimal"),
    ("0x7BCB1", "LLM_SUSPECT_REMOTE_ERROR", "hex"),
    ("ACL_ERROR_RT_DEVICE_MEM_ERROR", "LLM_DEVICE_MEM_ERROR", "alias"),
])
def test_spellings_and_numbers(query, name, reading):
    (match,) = lookup(query)
    assert match.code.name == name and match.reading == reading


def test_minus_one_gives_both_meanings():
    names = [m.code.name for m in lookup("-1")]
    assert names == ["LLM_UNKNOWN_ERROR", "LLM_FAILED"]
    assert "signed int32" in lookup("-1")[1].reading


@pytest.mark.parametrize("query,suggestion", [
    ("LLM_LINK_FAILD", "LLM_LINK_FAILED"),
    ("link_failed", "LLM_LINK_FAILED"),
    ("LLM_TIMEOUTT", "LLM_TIMEOUT"),
])
def test_unknown_names_suggest(query, suggestion):
    with pytest.raises(UnknownStatusCode) as info:
        lookup(query)
    assert isinstance(info.value, LookupError)
    assert suggestion in info.value.suggestions and len(info.value.suggestions) <= 3
    assert str(info.value).startswith("unknown LLM DataDist status code")


@pytest.mark.parametrize("query,phrase", [
    ("0x50100001", "is not an LLM DataDist status code (GE layout: runtime=1 (host)"),
    ("1343225857", "modid=0"),
    ("0x5010B0FF", "has the LLM DataDist layout but is not a known code"),
    ("0x05000063", "is a HCCL error number (value 99, sub-module HCCL)"),
    ("507999", "ACL runtime code"),
    ("99999999999", "does not fit in 32 bits"),
    ("", "no status code given (the text is empty)"),
    ("''", "no status code given (the text is empty)"),
    ("zzzz", "unknown LLM DataDist status code 'zzzz'"),
])
def test_numbers_that_are_not_codes(query, phrase):
    with pytest.raises(UnknownStatusCode) as info:
        lookup(query)
    assert phrase in str(info.value)
    assert "\n" not in str(info.value)


def test_layout_decoding():
    layout = decode_layout(0x5010B009)
    assert layout.as_dict() == {"runtime": 1, "type": 1, "level": 0, "sysid": 8, "modid": 11, "value": 9}
    assert layout.is_llm_datadist and not decode_layout(0x50100001).is_llm_datadist
    with pytest.raises(ValueError):
        decode_layout(-1)


def test_search_english_and_chinese():
    # Causes, settings and symptoms are searched too, so other codes may mention timeouts.
    assert {"LLM_WAIT_PROC_TIMEOUT", "LLM_TIMEOUT"} <= {c.name for c in search("timeout")}
    assert "LLM_LINK_FAILED" in {c.name for c in search("建链")}
    assert "LLM_CLUSTER_NUM_EXCEED_LIMIT" in {c.name for c in search("16 clusters")}
    assert len(search("")) == len(default_registry())


def test_suggest_is_bounded():
    assert len(suggest("LLM")) <= 3
    assert suggest("") == ()


def test_lookup_imports_no_sphinx_docutils_ipython():
    code = ("import sys, sphinx_llmstatus.registry as r; r.lookup('-1'); r.search('link');"
            "bad = [m for m in sys.modules if m.split('.')[0] in ('sphinx', 'docutils', 'IPython')];"
            "print(bad)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_filter_codes():
    from sphinx_llmstatus.registry import default_registry, filter_codes

    reg = default_registry()
    cpp_only = {"LLM_CACHE_INCOMPATIBLE", "LLM_CACHE_KEY_ALREADY_EXIST", "LLM_COPY_CACHE_FAILED",
                "LLM_CACHE_ID_ALREADY_EXIST"}
    assert {c.name for c in filter_codes(reg)} - {c.name for c in filter_codes(reg, api="python")} == cpp_only
    assert {c.family for c in filter_codes(reg, family=None)} >= {"llm_datadist", "hixl", "hccl", "acl_runtime"}
    assert len(filter_codes(reg, api="python", documented=True)) == 24
    # 18 rows of today's C++ page plus 8 codes only the older C++ page documents (issue #9).
    assert len(filter_codes(reg, api=("cpp",), documented=True)) == 18 + 8
    not_recoverable = {c.name for c in filter_codes(reg, api="cpp", recoverable="no", documented=True)}
    assert not_recoverable == {"LLM_FAILED", "LLM_TIMEOUT", "LLM_ENGINE_FINALIZED"}
    assert "LLM_TIMEOUT" not in {c.name for c in filter_codes(reg, api="python", recoverable="no")}


# -- issue 13: more forms users paste -------------------------------------------------------

def test_every_pybind_constant_resolves_to_its_code():
    reg = default_registry()
    pybind = [s for s in reg.bound_names if s.binding == "pybind"]
    assert len(pybind) == 28  # BindStatusCodes in hixl src/python/llm_wrapper/llm_wrapper_v2.cc
    assert ("kLinKFailed", "LLM_LINK_FAILED") in {(s.name, s.code) for s in pybind}
    for spelled in pybind:
        for form in (spelled.name, spelled.name.lower(), f"llm_datadist_wrapper.{spelled.name}"):
            (match,) = lookup(form, reg)
            assert match.code is reg[spelled.code] and match.reading == "pybind name", form


@pytest.mark.parametrize("query,name", [
    ("LLMOutOfMemory", "LLM_DEVICE_OUT_OF_MEMORY"),  # issue 19: not LLM_OUT_OF_MEMORY
    ("LLMKVCacheNotExist", "LLM_KV_CACHE_NOT_EXIST"),
    ("mindspore_lite.llm_engine.LLMNoFreeBlocks", "LLM_NO_FREE_BLOCK"),
    ("kLiteLLMWaitProcessTimeOut", "LLM_WAIT_PROC_TIMEOUT"),
])
def test_mindspore_lite_spellings_resolve_to_the_codes_they_carry(query, name):
    (match,) = lookup(query)
    assert match.code.name == name


@pytest.mark.parametrize("query", ["LLM LINK FAILED", "llm  link\tfailed", "LLM-LINK-FAILED", "Llm Link_Failed"])
def test_spaces_or_hyphens_for_underscores(query):
    (match,) = lookup(query)
    assert match.code.name == "LLM_LINK_FAILED"


@pytest.mark.parametrize("query", ["LLM_TIMEOUT LLM_FAILED", "1343270921 LLM", "LLM FAILED FAILED"])
def test_words_that_are_codes_or_no_name_are_not_joined(query):
    with pytest.raises(UnknownStatusCode):
        lookup(query)


@pytest.mark.parametrize("query, name", [("0" * 40 + "1343270921", "LLM_LINK_FAILED"),
                                         ("0x" + "0" * 30 + "5010B009", "LLM_LINK_FAILED"),
                                         ("-0x1", "LLM_UNKNOWN_ERROR"), ("+0x5010B009", "LLM_LINK_FAILED")])
def test_leading_zeros_and_signed_hex(query, name):
    assert lookup(query)[0].code.name == name


def test_leading_zeros_do_not_hide_a_number_too_long():
    with pytest.raises(UnknownStatusCode) as info:
        lookup("0" * 10 + "9" * 30)
    assert "does not fit in 32 bits" in info.value.reason()


def test_look_alike_letters_are_named_and_chinese_is_not():
    with pytest.raises(UnknownStatusCode) as info:
        lookup("LLM_LІNK_FAILED")
    assert "'І' (U+0406 CYRILLIC CAPITAL LETTER BYELORUSSIAN-UKRAINIAN I), not an ASCII letter" in info.value.reason()
    with pytest.raises(UnknownStatusCode) as info:
        lookup("建链失败")
    assert "Latin" not in info.value.reason()


def test_default_registry_equals_the_fully_checked_one():
    """default_registry() skips re-checking the compiled copy's references; load_registry() checks them."""
    from sphinx_llmstatus.registry.loader import load_registry

    full, fast = load_registry(), default_registry()
    assert [(c.name, c.views, c.related, c.note) for c in full] == [(c.name, c.views, c.related, c.note) for c in fast]


@pytest.mark.parametrize(("query", "first"), [
    ("建链", "LLM_LINK_FAILED"), ("link failed", "LLM_LINK_FAILED"), ("timed out", "LLM_TIMEOUT"),
    ("内存不足", "LLM_OUT_OF_MEMORY"), ("device out of memory", "LLM_DEVICE_OUT_OF_MEMORY"),
])
def test_search_ranks_names_and_meanings_before_remedies_and_causes(query, first):
    """Issue 24: relevance, not registry order (`llmstatus search 建链` gave LLM_WAIT_PROC_TIMEOUT first)."""
    assert search(query)[0].name == first


def test_search_rank_is_by_the_lowest_tier_of_every_word():
    from sphinx_llmstatus.registry.lookup import _rank

    tiers = ("llm_link_failed", "establishing the link failed.", "check the network", "errno 111 means refused")
    assert _rank(tiers, ["link"]) == (0, 0, 4)
    assert _rank(tiers, ["link", "network"]) == (2, 2, 14)
    assert _rank(tiers, ["refused"]) == (3, 3, 16) and _rank(tiers, ["absent"]) is None


@pytest.mark.parametrize(("query", "name", "reading"), [
    ("０x５０１０Ｂ００９", "LLM_LINK_FAILED", "hex"), ("ＬＬＭ＿ＬＩＮＫ＿ＦＡＩＬＥＤ", "LLM_LINK_FAILED", "name"),
    ("ＬＬＭＳｔａｔｕｓＣｏｄｅ．ＬＬＭ＿ＴＩＭＥＯＵＴ", "LLM_TIMEOUT", "name"), ("－１", "LLM_UNKNOWN_ERROR", None),
])
def test_fullwidth_input_from_a_cjk_keyboard_reads_as_its_ascii_twin(query, name, reading):
    """Issue 24: fullwidth hex and names were refused while fullwidth digits resolved."""
    match = lookup(query)[0]
    assert match.code.name == name and (reading is None or match.reading == reading)
