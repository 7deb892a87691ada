"""Every row of both vendor pages is in the registry, with its facts.

The facts below were read off the two seed pages (the Python ``LLMStatusCode``
page: 24 rows; the C++ error-code page: 18 constants and rows) and
``../shared/FACTS.md``. They are held here as data, never as the vendor's text,
so the tests read only files of this repository. When the vendor pages change,
check that these tables still list every row they have:
``python tests/test_registry_seeds.py DIR`` (DIR holding the saved pages,
``000_*.txt`` for Python and ``003_*.txt`` for C++).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from sphinx_llmstatus.registry import default_registry

# name -> (recoverable, API names the vendor remedy mentions, other facts to keep)
PYTHON_ROWS: dict[str, tuple[str, tuple[str, ...], tuple[str, ...]]] = {
    "LLM_SUCCESS": ("n/a", (), ()),
    "LLM_FAILED": ("no", (), ()),
    "LLM_WAIT_PROCESS_TIMEOUT": ("yes", ("pull_cache", "pull_blocks", "transfer_cache_async", "KvCacheManager"), ()),
    "LLM_PARAM_INVALID": ("yes", (), ()),
    "LLM_KV_CACHE_NOT_EXIST": ("yes", (), ()),
    "LLM_REPEAT_REQUEST": ("yes", (), ()),
    "LLM_NOT_YET_LINK": ("yes", (), ()),
    "LLM_ALREADY_LINK": ("yes", (), ()),
    "LLM_LINK_FAILED": ("yes", ("link_clusters",), ()),
    "LLM_UNLINK_FAILED": ("yes", ("unlink_clusters",), ()),
    "LLM_NOTIFY_PROMPT_UNLINK_FAILED": ("yes", ("unlink_clusters",), ()),
    "LLM_CLUSTER_NUM_EXCEED_LIMIT": ("yes", ("link_clusters", "unlink_clusters"), ("16",)),
    "LLM_PROCESSING_LINK": ("yes", (), ()),
    "LLM_PREFIX_ALREADY_EXIST": ("yes", (), ()),
    "LLM_PREFIX_NOT_EXIST": ("yes", (), ()),
    "LLM_DEVICE_OUT_OF_MEMORY": ("yes", ("KvCacheManager",), ()),
    "LLM_EXIST_LINK": ("yes", ("switch_role", "unlink_clusters", "LLMDataDist"), ()),
    "LLM_FEATURE_NOT_ENABLED": ("yes", ("LLMDataDist", "LLMConfig", "enable_switch_role"), ("True",)),
    "LLM_TIMEOUT": ("yes", ("CacheManager", "pull_cache", "pull_blocks", "transfer_cache_async"), ()),
    "LLM_LINK_BUSY": ("yes", ("unlink_clusters", "KvCacheManager", "CacheManager", "pull_cache",
                              "transfer_cache_async", "check_link_status", "pull_blocks"), ()),
    "LLM_OUT_OF_MEMORY": ("yes", ("CacheManager",), ()),
    "LLM_DEVICE_MEM_ERROR": ("yes", ("torch_npu.npu.restart_device", "remap_registered_memory"), ("UCE",)),
    "LLM_SUSPECT_REMOTE_ERROR": ("no", (), ("UCE",)),
    "LLM_UNKNOWN_ERROR": ("no", (), ()),
}

CPP_ROWS: dict[str, tuple[int, str, tuple[str, ...], tuple[str, ...]]] = {
    "LLM_SUCCESS": (0x0, "n/a", (), ()),
    "LLM_FAILED": (0xFFFFFFFF, "no", (), ()),
    "LLM_WAIT_PROC_TIMEOUT": (0x5010B001, "yes", ("PullKvCache", "PullKvBlocks"), ()),
    "LLM_KV_CACHE_NOT_EXIST": (0x5010B002, "yes", ("cache_id",), ()),
    "LLM_PARAM_INVALID": (0x5010B005, "yes", (), ()),
    "LLM_NOT_YET_LINK": (0x5010B007, "yes", (), ()),
    "LLM_ALREADY_LINK": (0x5010B008, "yes", (), ()),
    "LLM_LINK_FAILED": (0x5010B009, "yes", ("LinkLlmClusters",), ()),
    "LLM_UNLINK_FAILED": (0x5010B00A, "yes", ("UnlinkLlmClusters",), ()),
    "LLM_NOTIFY_PROMPT_UNLINK_FAILED": (0x5010B00B, "yes", ("UnlinkLlmClusters",), ()),
    "LLM_CLUSTER_NUM_EXCEED_LIMIT": (0x5010B00C, "yes", ("LinkLlmClusters", "UnlinkLlmClusters"), ("16",)),
    "LLM_PROCESSING_LINK": (0x5010B00D, "yes", (), ()),
    "LLM_DEVICE_OUT_OF_MEMORY": (0x5010B00E, "yes", (), ()),
    "LLM_EXIST_LINK": (0x5010B018, "yes", ("SetRole", "UnlinkLlmClusters"), ()),
    "LLM_FEATURE_NOT_ENABLED": (0x5010B019, "yes", ("SetRole", "OPTION_ENABLE_SET_ROLE"), ('"1"',)),
    "LLM_TIMEOUT": (0x5010B01A, "no", (), ()),
    "LLM_LINK_BUSY": (0x5010B01B, "yes", (), ()),
    "LLM_OUT_OF_MEMORY": (0x5010B01C, "yes", (), ()),
}

# Every value of FACTS.md, including the codes neither page documents.
VALUES = {
    "LLM_SUCCESS": 0, "LLM_FAILED": 4294967295, "LLM_WAIT_PROC_TIMEOUT": 1343270913,
    "LLM_KV_CACHE_NOT_EXIST": 1343270914, "LLM_REPEAT_REQUEST": 1343270915,
    "LLM_REQUEST_ALREADY_COMPLETED": 1343270916, "LLM_PARAM_INVALID": 1343270917,
    "LLM_ENGINE_FINALIZED": 1343270918, "LLM_NOT_YET_LINK": 1343270919, "LLM_ALREADY_LINK": 1343270920,
    "LLM_LINK_FAILED": 1343270921, "LLM_UNLINK_FAILED": 1343270922,
    "LLM_NOTIFY_PROMPT_UNLINK_FAILED": 1343270923, "LLM_CLUSTER_NUM_EXCEED_LIMIT": 1343270924,
    "LLM_PROCESSING_LINK": 1343270925, "LLM_DEVICE_OUT_OF_MEMORY": 1343270926,
    "LLM_PREFIX_ALREADY_EXIST": 1343270927, "LLM_PREFIX_NOT_EXIST": 1343270928,
    "LLM_SEQ_LEN_OVER_LIMIT": 1343270929, "LLM_NO_FREE_BLOCK": 1343270930,
    "LLM_BLOCKS_OUT_OF_MEMORY": 1343270931, "LLM_CACHE_INCOMPATIBLE": 1343270932,
    "LLM_CACHE_KEY_ALREADY_EXIST": 1343270933, "LLM_COPY_CACHE_FAILED": 1343270934,
    "LLM_CACHE_ID_ALREADY_EXIST": 1343270935, "LLM_EXIST_LINK": 1343270936,
    "LLM_FEATURE_NOT_ENABLED": 1343270937, "LLM_TIMEOUT": 1343270938, "LLM_LINK_BUSY": 1343270939,
    "LLM_OUT_OF_MEMORY": 1343270940, "LLM_DEVICE_MEM_ERROR": 507053,
    "LLM_SUSPECT_REMOTE_ERROR": 507057, "LLM_UNKNOWN_ERROR": -1,
}
# Codes that only the older (deprecated) C++ page documents, with its recoverability
# (hicann/ge docs/zh/user_guides/llm_datadist/llm_datadist_api/cpp/error-code-deprecated.md).
OLDER_CPP_ONLY = {
    "LLM_REPEAT_REQUEST": "yes", "LLM_REQUEST_ALREADY_COMPLETED": "yes", "LLM_ENGINE_FINALIZED": "no",
    "LLM_PREFIX_ALREADY_EXIST": "yes", "LLM_PREFIX_NOT_EXIST": "yes", "LLM_SEQ_LEN_OVER_LIMIT": "yes",
    "LLM_NO_FREE_BLOCK": "yes", "LLM_BLOCKS_OUT_OF_MEMORY": "yes",
}
# On no vendor page at all (the older page lists them in its macro block, without a row).
UNDOCUMENTED = {"LLM_CACHE_INCOMPATIBLE", "LLM_CACHE_KEY_ALREADY_EXIST", "LLM_COPY_CACHE_FAILED",
                "LLM_CACHE_ID_ALREADY_EXIST"}
PYTHON_LESS = {"LLM_CACHE_INCOMPATIBLE", "LLM_CACHE_KEY_ALREADY_EXIST", "LLM_COPY_CACHE_FAILED",
               "LLM_CACHE_ID_ALREADY_EXIST"}

REG = default_registry()
OWN = REG.in_family("llm_datadist")  # LLM DataDist's own codes (the neighbouring layers: test_registry_families.py)


def assert_names_and_facts(view, api_names, facts):
    """Both languages name every API name (in backticks) and keep every fact of the vendor row."""
    for lang in ("en", "zh"):
        text = view.meaning.get(lang) + "\n" + view.remedy.get(lang)
        for api_name in api_names:
            assert f"`{api_name}" in text, (view.name, lang, api_name)
        for fact in facts:
            assert fact in text, (view.name, lang, fact)


def test_counts():
    assert len(PYTHON_ROWS) == 24 and len(CPP_ROWS) == 18
    assert sum(1 for c in OWN if c.python and c.python.documented) == 24
    assert sum(1 for c in OWN if c.cpp and c.cpp.documented and c.cpp.source.key == "cpp-page") == 18
    assert sum(1 for c in OWN if c.cpp and c.cpp.documented) == 18 + len(OLDER_CPP_ONLY)
    assert len(OWN) == len(VALUES) == 33


@pytest.mark.parametrize("name", PYTHON_ROWS)
def test_python_row(name):
    recoverable, api_names, facts = PYTHON_ROWS[name]
    view = REG[name].python
    assert view is not None and view.name == name and view.documented
    assert view.source.key == "python-page"
    assert view.recoverable == recoverable
    assert_names_and_facts(view, api_names, facts)


@pytest.mark.parametrize("name", CPP_ROWS)
def test_cpp_row(name):
    value, recoverable, api_names, facts = CPP_ROWS[name]
    code = REG[name]
    view = code.cpp
    assert view is not None and view.name == name and view.documented
    assert view.source.key == "cpp-page" and view.source.url.endswith("llmcrv1_42_27.html")
    assert code.value == value and view.recoverable == recoverable
    assert_names_and_facts(view, api_names, facts)


@pytest.mark.parametrize("name,value", VALUES.items())
def test_values(name, value):
    code = REG[name]
    assert code.value == value
    if value >= 0:
        assert code.hex == f"0x{value:08X}"
    if code.is_llm_layout:
        assert code.value - 0x5010B000 in range(1, 29)


def test_undocumented_codes_are_marked():
    for name in UNDOCUMENTED:
        code = REG[name]
        assert code.documented_by == (), name
        assert all(v.recoverable == "unknown" and v.source.kind == "source" for v in code.views)
    assert {c.name for c in OWN if c.python is None} == PYTHON_LESS
    for name in PYTHON_LESS:
        assert "LLM_FAILED" in REG[name].note.en and "LLM_FAILED" in REG[name].note.zh


def test_two_spellings_are_one_code():
    assert REG["LLM_WAIT_PROCESS_TIMEOUT"] is REG["LLM_WAIT_PROC_TIMEOUT"]
    assert REG["LLM_SEQ_LENOVERLIMIT"] is REG["LLM_SEQ_LEN_OVER_LIMIT"]
    assert REG["LLM_SEQ_LEN_OVER_LIMIT"].python.name == "LLM_SEQ_LENOVERLIMIT"


def test_disagreements_are_kept_per_api():
    timeout = REG["LLM_TIMEOUT"]
    assert timeout.python.recoverable == "yes" and timeout.cpp.recoverable == "no"
    assert "recoverable" in timeout.disagreements
    busy = REG["LLM_LINK_BUSY"]
    assert "reserved" in busy.cpp.remedy.en.lower() and "预留" in busy.cpp.remedy.zh
    assert "check_link_status" in busy.python.remedy.en
    assert REG["LLM_FEATURE_NOT_ENABLED"].python.options == ("enable_switch_role",)
    assert REG["LLM_FEATURE_NOT_ENABLED"].cpp.options == ("OPTION_ENABLE_SET_ROLE",)


def test_related_codes_and_sources():
    for code in OWN:
        for name in code.related:
            assert name in REG
        for view in code.views:
            assert view.source.url.startswith("https://")


def test_text_is_our_own_in_both_languages():
    for code in OWN:
        for view in code.views:
            for field in (view.meaning, view.remedy):
                assert field.en.isascii() or "—" in field.en
                assert re.search(r"[\u4e00-\u9fff]", field.zh), (code.name, field.zh)


def check_seed_pages(seeds: Path) -> None:
    """Assert that the saved vendor pages in ``seeds`` list no row these tables miss (run by hand)."""
    python_page = next(seeds.glob("000_*.txt")).read_text(encoding="utf-8")
    cpp_page = next(seeds.glob("003_*.txt")).read_text(encoding="utf-8")
    py_names = set(re.findall(r"^(LLM_[A-Z_]+)\t", python_page, re.M))
    assert py_names == set(PYTHON_ROWS)
    constants = dict(re.findall(r"constexpr Status (LLM_[A-Z_]+) = (0x[0-9A-F]+)U;", cpp_page))
    assert {k: int(v, 16) for k, v in constants.items()} == {k: v[0] for k, v in CPP_ROWS.items()}
    cpp_rows = {r.replace("\\_", "_") for r in re.findall(r"^\| (LLM[\\_A-Z]+) \|", cpp_page, re.M)}
    assert cpp_rows == set(CPP_ROWS)
    for line in python_page.splitlines():
        cells = line.split("\t")
        if len(cells) == 4 and cells[0] in PYTHON_ROWS:
            expected = {"是": "yes", "否": "no", "无": "n/a"}[cells[2]]
            assert PYTHON_ROWS[cells[0]][0] == expected, cells[0]
            for api_name in PYTHON_ROWS[cells[0]][1]:
                # The page says "unlink" where the function is `unlink_clusters`.
                short = api_name.removesuffix("_clusters")
                assert short in cells[1] + cells[3], (cells[0], api_name)
    for row in re.findall(r"^\| (LLM[^|]+) \| [^|]+ \| ([^|]+) \| ([^|]+) \|", cpp_page, re.M):
        name = row[0].replace("\\_", "_").strip()
        expected = {"是": "yes", "否": "no", "无": "n/a"}[row[1].strip()]
        assert CPP_ROWS[name][1] == expected, name
        for api_name in CPP_ROWS[name][2]:
            assert api_name.replace("_", "\\_") in row[2] or api_name in row[2], (name, api_name)


if __name__ == "__main__":
    import sys

    check_seed_pages(Path(sys.argv[1]))
    print("every row of the vendor pages is in the tables")
