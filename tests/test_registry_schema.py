"""Causes, readings, settings, framework notes and symptoms: every loader error names file, entry, field."""

from __future__ import annotations

import textwrap

import pytest

from sphinx_llmstatus.registry import RegistryError, load_registry

CAUSE = '''
[[code]]
name = "LLM_LINK_FAILED"
[[code.python.causes]]
when.en = "The `link` call fails."
when.zh = "`link` 调用失败。"
check.en = "Run `hccn_tool -i 0 -ip -g`."
check.zh = "执行 `hccn_tool -i 0 -ip -g`。"
fix.en = "Fix the address."
fix.zh = "修正地址。"
sources = ["{source}"]
terms = ["link", "hccn_tool -i 0 -ip -g"]
'''

SYMPTOM = '''
[[symptom]]
id = "{id}"
framework = "vllm-ascend"
pattern = "{pattern}"
likely = "{likely}"
check.en = "Look for the chained exception."
check.zh = "查看被链接的原始异常。"
sources = ["python-page"]
'''


def write(tmp_path, text, name="extra.toml"):
    path = tmp_path / name
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def load_error(tmp_path, text, name="extra.toml") -> RegistryError:
    path = write(tmp_path, text, name)
    with pytest.raises(RegistryError) as info:
        load_registry([path])
    assert info.value.file == str(path)
    return info.value


def test_an_override_file_replaces_the_causes_of_a_view(tmp_path):
    code = load_registry([write(tmp_path, CAUSE.format(source="python-page"))])["LLM_LINK_FAILED"]
    assert len(code.python.causes) == 1  # arrays replace, they do not append
    cause = code.python.causes[0]
    assert cause.sources[0].key == "python-page" and cause.terms == ("link", "hccn_tool -i 0 -ip -g")
    assert not cause.applies_to and cause.applies_to.frameworks == ()
    assert code.python.remedy.en.startswith("When this code")  # the rest of the view is kept


def test_cause_with_an_unknown_source_names_file_entry_and_field(tmp_path):
    err = load_error(tmp_path, CAUSE.format(source="nowhere"))
    assert (err.entry, err.field) == ("LLM_LINK_FAILED", "python.causes[1].sources")
    assert "'nowhere' is not a key of [sources]" in err.reason


def test_cause_needs_a_source(tmp_path):
    err = load_error(tmp_path, CAUSE.format(source="x").replace('sources = ["x"]\n', ""))
    assert err.field == "python.causes[1].sources" and "non-empty list" in err.reason


def test_cause_backticks_must_be_codes_api_names_settings_or_terms(tmp_path):
    """A style rule of the packaged data (consistency.problems), never a reason to refuse a user's file."""
    from sphinx_llmstatus.registry.consistency import problems

    reg = load_registry([write(tmp_path, CAUSE.format(source="python-page").replace("Fix the address.",
                                                                                      "Run `mystery`."))])
    assert any(p.startswith("LLM_LINK_FAILED: python.causes[1].fix.en: `mystery`") for p in problems(reg))


def test_cause_may_name_codes_and_the_views_api_names(tmp_path):
    text = CAUSE.format(source="python-page").replace(
        "Fix the address.", "Retry `link_clusters`; see `LLM_NOT_YET_LINK`.")
    assert load_registry([write(tmp_path, text)])["LLM_LINK_FAILED"].python.causes


def test_cause_term_that_is_never_used_is_a_problem(tmp_path):
    from sphinx_llmstatus.registry.consistency import problems

    text = CAUSE.format(source="python-page").replace('"hccn_tool -i 0 -ip -g"]', '"hccn_tool -i 0 -ip -g", "spare"]')
    assert any(p.startswith("LLM_LINK_FAILED: python.causes[1].terms: `spare`")
               for p in problems(load_registry([write(tmp_path, text)])))


def test_cause_missing_language_and_unknown_key(tmp_path):
    err = load_error(tmp_path, CAUSE.format(source="python-page").replace('fix.zh = "修正地址。"\n', ""))
    assert err.field == "python.causes[1].fix.zh"
    err = load_error(tmp_path, CAUSE.format(source="python-page") + 'colour = "red"\n')
    assert err.field == "python.causes[1].colour" and err.reason == "unknown key"


def test_cause_frameworks_come_from_the_fixed_list(tmp_path):
    err = load_error(tmp_path, CAUSE.format(source="python-page") + 'applies_to.frameworks = ["tensorrt"]\n')
    assert err.field == "python.causes[1].applies_to.frameworks" and "'tensorrt'" in err.reason


def test_causes_must_be_an_array_of_tables(tmp_path):
    err = load_error(tmp_path, '[[code]]\nname = "LLM_LINK_FAILED"\n[code.python]\ncauses = "none"\n')
    assert err.field == "python.causes"


def test_error_in_a_cause_is_blamed_on_the_file_that_wrote_the_causes(tmp_path):
    base = write(tmp_path, '''
        [sources.s]
        api = "python"
        kind = "page"
        title.en = "S"
        title.zh = "S"
        url = "https://example.org/s"
        [[code]]
        name = "LLM_NEW_CODE"
        value = 0x5010B0F0
        [code.python]
        name = "LLM_NEW_CODE"
        documented = true
        source = "s"
        recoverable = "yes"
        meaning.en = "M."
        meaning.zh = "含义。"
        remedy.en = "R."
        remedy.zh = "办法。"
        [[code.python.causes]]
        when.en = "Run it."
        when.zh = "执行。"
        check.en = "C."
        check.zh = "检查。"
        fix.en = "F."
        fix.zh = "修复。"
        sources = ["s#L0"]
    ''', "base.toml")
    # The later file touches only python.meaning: the broken cause is still base.toml's.
    override = write(tmp_path, '[[code]]\nname = "LLM_NEW_CODE"\n[code.python]\nmeaning.en = "Site wording."\n')
    with pytest.raises(RegistryError) as info:
        load_registry([base, override], packaged=False)
    assert info.value.file == str(base) and info.value.field == "python.causes[1].sources"
    assert "'s#L0' is not a key of [sources]" in info.value.reason


def test_setting_errors(tmp_path):
    base = '''
    [[code]]
    name = "LLM_LINK_BUSY"
    [[code.settings]]
    name = "sync_kv_timeout"
    kind = "{kind}"
    about.en = "How long to wait."
    about.zh = "等待时长。"
    sources = ["python-page"]
    '''
    err = load_error(tmp_path, base.format(kind="knob"))
    assert (err.entry, err.field) == ("LLM_LINK_BUSY", "settings[1].kind")
    err = load_error(tmp_path, base.format(kind="option") + base.format(kind="option").split("name = \"LLM_LINK_BUSY\"")[1])
    assert err.field == "settings[2].name" and "declared twice" in err.reason
    reg = load_registry([write(tmp_path, base.format(kind="option"))])
    assert [s.name for s in reg["LLM_LINK_BUSY"].settings] == ["sync_kv_timeout"]


def test_framework_note_errors(tmp_path):
    err = load_error(tmp_path, '''
    [[code]]
    name = "LLM_ALREADY_LINK"
    [[code.frameworks]]
    framework = "mindie-llm"
    does.en = "Treats it as success."
    does.zh = "视为成功。"
    sources = ["python-page"]
    ''')
    assert (err.entry, err.field) == ("LLM_ALREADY_LINK", "frameworks[1].framework")


def test_reading_must_cite_a_page_of_its_api(tmp_path):
    text = '''
    [[code]]
    name = "LLM_TIMEOUT"
    [[code.cpp.readings]]
    source = "{source}"
    recoverable = "yes"
    '''
    err = load_error(tmp_path, text.format(source="cpp-source"))
    assert (err.entry, err.field) == ("LLM_TIMEOUT", "cpp.readings[1].source") and "vendor page" in err.reason
    err = load_error(tmp_path, text.format(source="python-page"))
    assert "belongs to the python API" in err.reason
    err = load_error(tmp_path, text.format(source="cpp-page").replace('recoverable = "yes"', 'recoverable = "unknown"'))
    assert err.field == "cpp.readings[1].recoverable"


def test_source_kinds_optional_api_and_version(tmp_path):
    err = load_error(tmp_path, '[sources.t]\nkind = "blog"\ntitle.en = "T"\ntitle.zh = "T"\nurl = "https://x.org"\n')
    assert (err.entry, err.field) == ("sources.t", "kind")
    err = load_error(tmp_path, '[sources.t]\nkind = "issue"\nversion = ""\ntitle.en = "T"\ntitle.zh = "T"\n'
                     'url = "https://x.org"\n')
    assert err.field == "version"
    reg = load_registry([write(tmp_path, '[sources.t]\nkind = "issue"\nversion = "CANN 8.1"\ntitle.en = "T"\n'
                                         'title.zh = "T"\nurl = "https://x.org/1"\n')])
    assert reg.sources["t"].api is None and reg.sources["t"].version == "CANN 8.1"


@pytest.mark.parametrize("pattern,why", [("short", "8 to 200"), ("x" * 201, "8 to 200"),
                                         ("two\\nlines here", "one line")])
def test_symptom_pattern_is_a_bounded_literal(tmp_path, pattern, why):
    err = load_error(tmp_path, SYMPTOM.format(id="s-1", pattern=pattern, likely="LLM_TIMEOUT"))
    assert (err.entry, err.field) == ("symptom.s-1", "pattern") and why in err.reason


def test_symptom_ids_codes_and_overrides(tmp_path):
    err = load_error(tmp_path, SYMPTOM.format(id="Bad Id", pattern="Something failed", likely="LLM_TIMEOUT"))
    assert (err.entry, err.field) == ("symptom.Bad Id", "id")
    one = SYMPTOM.format(id="s-1", pattern="Something failed", likely="LLM_TIMEOUT")
    err = load_error(tmp_path, one + one)
    assert err.field == "id" and "symptom.s-1 is defined twice" in err.reason
    err = load_error(tmp_path, SYMPTOM.format(id="s-1", pattern="Something failed", likely="LLM_NOPE"))
    assert err.field == "likely" and "LLM_NOPE" in err.reason
    # Spellings resolve to the canonical name; a later file's symptom replaces one with its id.
    reg = load_registry([write(tmp_path, SYMPTOM.format(id="vllm-ascend-pull-blocks-timeout",
                                                        pattern="Something failed", likely="LLM_WAIT_PROCESS_TIMEOUT"))])
    (s,) = [s for s in reg.symptoms if s.id == "vllm-ascend-pull-blocks-timeout"]
    assert s.pattern == "Something failed" and s.likely == "LLM_WAIT_PROC_TIMEOUT"


def test_symptom_backticks(tmp_path):
    from sphinx_llmstatus.registry.consistency import problems

    text = SYMPTOM.format(id="s-1", pattern="Something failed", likely="LLM_TIMEOUT").replace(
        "Look for the chained exception.", "Raise `sync_kv_timeout` or run `mystery`.")
    found = [p for p in problems(load_registry([write(tmp_path, text)])) if p.startswith("symptom.s-1")]
    assert len(found) == 1 and "check.en: `mystery`" in found[0]  # a setting of the likely code is fine


def test_differs_values_and_needs_both_pages(tmp_path):
    err = load_error(tmp_path, '[[code]]\nname = "LLM_LINK_FAILED"\ndiffers = ["colour"]\n')
    assert (err.entry, err.field) == ("LLM_LINK_FAILED", "differs")
    err = load_error(tmp_path, '[[code]]\nname = "LLM_ENGINE_FINALIZED"\ndiffers = ["remedy"]\n')
    assert "documented" in err.reason


def test_an_override_that_replaces_settings_or_lists_keeps_packaged_causes_valid(tmp_path):
    # Arrays replace: the packaged causes of LLM_TIMEOUT name settings and functions this
    # override drops; names declared by any loaded file stay allowed in backticks.
    reg = load_registry([write(tmp_path, '''
        [sources.t]
        kind = "issue"
        title.en = "T"
        title.zh = "T"
        url = "https://example.org/t"
        [[code]]
        name = "LLM_TIMEOUT"
        [code.python]
        functions = []
        modes = []
        remedy.en = "Site advice."
        remedy.zh = "本站建议。"
        [[code.settings]]
        name = "my_timeout"
        kind = "option"
        about.en = "Ours."
        about.zh = "我们的。"
        sources = ["t"]
    ''')])
    code = reg["LLM_TIMEOUT"]
    assert [s.name for s in code.settings] == ["my_timeout"] and code.python.causes
