"""The packaged registry keeps its own style rules (sphinx_llmstatus/registry/consistency.py).

A user's registry file is never refused for them (tests/test_registry_loader.py); the
packaged data must pass every one.
"""

from __future__ import annotations

from sphinx_llmstatus.registry import default_registry
from sphinx_llmstatus.registry.consistency import problems


def test_packaged_registry_has_no_style_problems():
    assert problems(default_registry()) == []


def test_a_cause_in_a_mode_whose_engines_never_return_the_code_is_a_problem(tmp_path):
    """Issue 19: LLM_PROCESSING_LINK comes only from the ge engine (KvCacheManager mode)."""
    from sphinx_llmstatus.registry import load_registry

    extra = tmp_path / "extra.toml"
    extra.write_text('''
[[code]]
name = "LLM_PROCESSING_LINK"
[[code.python.causes]]
when.en = "A relink races a pull."
when.zh = "重新建链与拉取竞争。"
check.en = "Look at the log."
check.zh = "查看日志。"
fix.en = "Serialise them."
fix.zh = "串行执行。"
sources = ["python-page"]
applies_to.modes = ["CacheManager"]
''', encoding="utf-8")
    found = problems(load_registry([extra]))
    assert found == ["LLM_PROCESSING_LINK: python.causes[1].applies_to.modes: no engine of CacheManager mode "
                     "returns this code"]
