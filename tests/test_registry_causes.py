"""Issue #9 facts: causes with resolvable sources, the older C++ page, the page comparison, search.

The expectations are data read off the cited pages and files (see the registry's
[sources]); they are held here as facts, never as the vendor's wording.
"""

from __future__ import annotations

import pytest

from sphinx_llmstatus.registry import default_registry, search

REG = default_registry()
OWN = REG.in_family("llm_datadist")  # LLM DataDist's own codes (the neighbouring layers: test_registry_families.py)
FAILURE_CODES = [c for c in OWN if not c.is_success]

# Recoverability on the older C++ page (hicann/ge .../cpp/error-code-deprecated.md) for every
# code it has a row for: 4294967295 and 1343270913..1343270931.
OLDER_PAGE = {
    "LLM_FAILED": "no", "LLM_WAIT_PROC_TIMEOUT": "yes", "LLM_KV_CACHE_NOT_EXIST": "yes",
    "LLM_REPEAT_REQUEST": "yes", "LLM_REQUEST_ALREADY_COMPLETED": "yes", "LLM_PARAM_INVALID": "yes",
    "LLM_ENGINE_FINALIZED": "no", "LLM_NOT_YET_LINK": "yes", "LLM_ALREADY_LINK": "yes",
    "LLM_LINK_FAILED": "yes", "LLM_UNLINK_FAILED": "yes", "LLM_NOTIFY_PROMPT_UNLINK_FAILED": "yes",
    "LLM_CLUSTER_NUM_EXCEED_LIMIT": "yes", "LLM_PROCESSING_LINK": "yes", "LLM_DEVICE_OUT_OF_MEMORY": "yes",
    "LLM_PREFIX_ALREADY_EXIST": "yes", "LLM_PREFIX_NOT_EXIST": "yes", "LLM_SEQ_LEN_OVER_LIMIT": "yes",
    "LLM_NO_FREE_BLOCK": "yes", "LLM_BLOCKS_OUT_OF_MEMORY": "yes",
}


def _older_page_verdict(code):
    view = code.cpp
    if view.source.key == "cpp-page-deprecated":
        return view.recoverable
    (reading,) = [r for r in view.readings if r.source.key == "cpp-page-deprecated"]
    return reading.recoverable


@pytest.mark.parametrize("name", OLDER_PAGE)
def test_older_cpp_page_is_cited_with_its_recoverability(name):
    assert _older_page_verdict(REG[name]) == OLDER_PAGE[name]


def test_codes_only_the_older_page_documents_are_no_longer_on_neither_page():
    only_older = {c.name for c in OWN if c.cpp and c.cpp.source.key == "cpp-page-deprecated"}
    assert only_older == {n for n in OLDER_PAGE if REG[n].cpp.source.key != "cpp-page"}
    for name in only_older:
        assert REG[name].cpp.documented and "cpp" in REG[name].documented_by
    assert {c.name for c in OWN if not c.documented_by} == {
        "LLM_CACHE_INCOMPATIBLE", "LLM_CACHE_KEY_ALREADY_EXIST", "LLM_COPY_CACHE_FAILED",
        "LLM_CACHE_ID_ALREADY_EXIST"}
    # Where the pages disagree, both readings are kept: the older page calls this one unrecoverable.
    assert REG["LLM_ENGINE_FINALIZED"].cpp.recoverable == "no"
    assert REG["LLM_ENGINE_FINALIZED"].python.recoverable == "unknown"


def test_feature_not_enabled_keeps_both_page_versions():
    code = REG["LLM_FEATURE_NOT_ENABLED"]
    assert "OPTION_ENABLE_SET_ROLE" in code.cpp.options  # today's page (the seed)
    (newer,) = [r for r in code.cpp.readings if r.source.key == "cpp-page-hixl"]
    assert "not support" in newer.remedy.en and "不支持" in newer.remedy.zh


def test_internal_codes_say_where_they_come_from():
    # Codes 20-23 are set inside hicann/ge's KvCacheManager-mode engine (dflow/udf/built_in/
    # llm_common/cache_manager.cpp) and folded into LLM_FAILED by every public call of it.
    for name in ("LLM_CACHE_INCOMPATIBLE", "LLM_CACHE_KEY_ALREADY_EXIST", "LLM_COPY_CACHE_FAILED",
                 "LLM_CACHE_ID_ALREADY_EXIST"):
        view = REG[name].cpp
        assert "hicann/ge" in view.meaning.en and "No public call returns it" in view.meaning.en
        assert "没有任何公开接口" in view.meaning.zh
        assert "LLM_FAILED" in view.remedy.en and not view.documented
    assert "numbers of tensors" in REG["LLM_CACHE_INCOMPATIBLE"].cpp.meaning.en
    assert "halSdmaCopy" in REG["LLM_COPY_CACHE_FAILED"].cpp.meaning.en


def test_unsupported_claims_are_gone():
    for view in REG["LLM_PARAM_INVALID"].views:
        assert "names the parameter" not in view.remedy.en
    assert "给出了出错的虚拟地址" not in REG["LLM_DEVICE_MEM_ERROR"].python.meaning.zh
    # The vendor writes "等" (and so on) / "例如" (for example): the lists stay open.
    assert "such as" in REG["LLM_WAIT_PROC_TIMEOUT"].python.remedy.en
    assert "等传输类接口" in REG["LLM_TIMEOUT"].python.remedy.zh
    assert "example" in REG["LLM_LINK_BUSY"].python.remedy.en
    # C++ per-cluster results are the `rets` output parameter.
    assert "rets" in REG["LLM_LINK_FAILED"].cpp.options


def test_comparison_lists_what_really_differs():
    both = [c for c in OWN if c.python and c.cpp]
    recoverable = {c.name for c in both if "recoverable" in c.disagreements}
    assert recoverable == {"LLM_TIMEOUT"}  # a missing row on one page is no disagreement
    differing = {c.name for c in both if set(c.disagreements) & {"modes", "functions", "remedy"}}
    assert {"LLM_OUT_OF_MEMORY", "LLM_DEVICE_OUT_OF_MEMORY", "LLM_FAILED"} <= differing
    assert "remedy" in REG["LLM_FAILED"].disagreements  # restart advice is on the Python page only
    assert "modes" in REG["LLM_DEVICE_OUT_OF_MEMORY"].disagreements
    assert {"modes", "remedy"} <= set(REG["LLM_OUT_OF_MEMORY"].disagreements)
    # Same step, another spelling (link_clusters / LinkLlmClusters) is not a real difference.
    assert not REG["LLM_LINK_FAILED"].disagreements and REG["LLM_LINK_FAILED"].names_differ


def test_cpp_folding_into_llm_failed_is_recorded():
    assert "TransRetToLlmCodes" in REG["LLM_TIMEOUT"].note.en
    texts = [c.when.en + c.check.en for c in REG["LLM_FAILED"].cpp.causes]
    assert any("Initialize" in t for t in texts)


@pytest.mark.parametrize("code", FAILURE_CODES, ids=lambda c: c.name)
def test_every_cause_has_a_resolvable_source(code):
    for view in code.views:
        for cause in view.causes:
            assert cause.sources
            for source in cause.sources:
                assert REG.sources[source.key] is source and source.url.startswith("https://")
    for item in code.settings + code.frameworks:
        assert item.sources and all(s.url.startswith("https://") for s in item.sources)


def test_symptoms_point_at_real_codes_and_sources():
    assert len({s.id for s in REG.symptoms}) == len(REG.symptoms)
    for symptom in REG.symptoms:
        assert symptom.sources
        for name in symptom.codes + ((symptom.likely,) if symptom.likely else ()):
            assert REG[name].name == name
    (pull,) = [s for s in REG.symptoms if s.id == "vllm-ascend-pull-blocks-timeout"]
    assert pull.pattern == "Timeout during pull_blocks" and pull.framework == "vllm-ascend"


@pytest.mark.parametrize("query,expected", [
    ("sync_kv_timeout", {"LLM_TIMEOUT", "LLM_WAIT_PROC_TIMEOUT"}),
    ("ranktable", {"LLM_LINK_FAILED"}),
    ("rank table", {"LLM_LINK_FAILED", "LLM_NOT_YET_LINK"}),
    ("device_ip", {"LLM_LINK_FAILED"}),
    ("mbuf", {"LLM_DEVICE_OUT_OF_MEMORY", "LLM_BLOCKS_OUT_OF_MEMORY"}),
    ("hccn_tool", {"LLM_LINK_FAILED"}),
    ("errno 111", {"LLM_LINK_FAILED"}),
    ("Connection refused", {"LLM_LINK_FAILED"}),
])
def test_search_finds_codes_by_their_causes_and_settings(query, expected):
    assert expected <= {c.name for c in search(query)}


SEVERAL = ("LLM_LINK_FAILED", "LLM_WAIT_PROC_TIMEOUT", "LLM_TIMEOUT", "LLM_DEVICE_OUT_OF_MEMORY",
           "LLM_KV_CACHE_NOT_EXIST", "LLM_NOT_YET_LINK")


def _causes(code):
    return [cause for view in code.views for cause in view.causes]


@pytest.mark.parametrize("code", FAILURE_CODES, ids=lambda c: c.name)
def test_every_failure_code_has_a_cited_cause(code):
    assert _causes(code), code.name


@pytest.mark.parametrize("name", SEVERAL)
def test_common_codes_have_several_causes_from_two_kinds_of_source(name):
    causes = _causes(REG[name])
    assert len(causes) >= 3
    assert len({s.kind for cause in causes for s in cause.sources}) >= 2


def test_settings_carry_exact_names_and_units():
    timeout = {s.name: s for s in REG["LLM_TIMEOUT"].settings}
    assert timeout["sync_kv_timeout"].unit == "ms" and timeout["sync_kv_timeout"].default == "1000"
    assert "llm.SyncKvCacheWaitTime" in timeout["sync_kv_timeout"].about.en
    link = {s.name: s for s in REG["LLM_LINK_FAILED"].settings}
    assert link["link_total_time"].unit == "s" and link["link_retry_count"].default == "1"
    assert {s.name for s in REG["LLM_WAIT_PROC_TIMEOUT"].settings} >= {"sync_kv_timeout", "kv_trans_timeout"}
    assert "llm.MemPoolConfig" in {s.name for s in REG["LLM_OUT_OF_MEMORY"].settings}


def test_framework_notes():
    assert {n.framework for n in REG["LLM_LINK_FAILED"].frameworks} >= {"omni-npu", "mindie"}
    (mindie,) = REG["LLM_ALREADY_LINK"].frameworks
    assert mindie.framework == "mindie" and "not as a success" in mindie.does.en
    vllm = [n for n in REG["LLM_TIMEOUT"].frameworks if n.framework == "vllm-ascend"]
    assert vllm and "Timeout during pull_blocks" in vllm[0].does.en


def test_every_view_of_an_llm_datadist_code_has_a_cited_action():
    """Issue 19, point 5: what an automation may do, now and then, per code and API (Xid catalog style)."""
    from sphinx_llmstatus.registry.model import ACTIONS

    for code in OWN:
        for view in code.views:
            action = view.action
            assert action is not None, (code.name, view.api)
            assert {action.immediate, action.investigate} <= set(ACTIONS) and action.sources, (code.name, view.api)
    timeout = REG["LLM_WAIT_PROC_TIMEOUT"].python.action
    assert (timeout.immediate, timeout.investigate, timeout.setting) == ("relink", "raise-setting", "sync_kv_timeout")
