"""Loader errors name the file, the entry and the field; extra files override and add codes."""

from __future__ import annotations

import os
import textwrap

import pytest

from sphinx_llmstatus.registry import RegistryError, default_registry, load_registry
from sphinx_llmstatus.registry.datafiles import packaged_registry_path
from sphinx_llmstatus.registry.loader import read_toml

VIEW = '''
[code.python]
name = "{name}"
documented = false
source = "python-source"
recoverable = "unknown"
meaning.en = "Test meaning."
meaning.zh = "测试含义。"
remedy.en = "Test remedy."
remedy.zh = "测试办法。"
'''


def write(tmp_path, text, name="extra.toml"):
    path = tmp_path / name
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def load_error(tmp_path, text) -> RegistryError:
    path = write(tmp_path, text)
    with pytest.raises(RegistryError) as info:
        load_registry([path])
    assert info.value.file == str(path)
    return info.value


def test_packaged_registry_loads_and_is_cached():
    from sphinx_llmstatus.registry import default_registry
    assert default_registry() is default_registry()
    assert os.path.isfile(packaged_registry_path())


def test_bad_toml(tmp_path):
    err = load_error(tmp_path, "[[code]\nname = 1\n")
    assert "invalid TOML" in str(err) and str(err).startswith(err.file)


def test_missing_file(tmp_path):
    with pytest.raises(RegistryError, match="cannot read"):
        load_registry([tmp_path / "nope.toml"])


def test_missing_field(tmp_path):
    err = load_error(tmp_path, '[[code]]\nname = "LLM_NEW_CODE"\nvalue = 0x5010B0F0\n'
                     + VIEW.format(name="LLM_NEW_CODE").replace('recoverable = "unknown"\n', ""))
    assert (err.entry, err.field) == ("LLM_NEW_CODE", "python.recoverable")
    assert "entry LLM_NEW_CODE: field python.recoverable:" in str(err)


def test_missing_language(tmp_path):
    err = load_error(tmp_path, '[[code]]\nname = "LLM_NEW_CODE"\nvalue = 0x5010B0F0\n'
                     + VIEW.format(name="LLM_NEW_CODE").replace('meaning.zh = "测试含义。"\n', ""))
    assert err.field == "python.meaning.zh"


def test_duplicate_name_in_one_file(tmp_path):
    entry = '[[code]]\nname = "LLM_NEW_CODE"\nvalue = 0x5010B0F0\n' + VIEW.format(name="LLM_NEW_CODE")
    err = load_error(tmp_path, entry + entry.replace("0x5010B0F0", "0x5010B0F1"))
    assert err.entry == "LLM_NEW_CODE" and "duplicate name" in err.reason


def test_duplicate_value(tmp_path):
    err = load_error(tmp_path, '[[code]]\nname = "LLM_NEW_CODE"\nvalue = 0x5010B009\n'
                     + VIEW.format(name="LLM_NEW_CODE"))
    assert err.field == "value" and "duplicate value 0x5010b009" in err.reason
    assert "LLM_LINK_FAILED" in err.reason


def test_bad_recoverable_and_unknown_key(tmp_path):
    err = load_error(tmp_path, '[[code]]\nname = "LLM_LINK_FAILED"\n[code.python]\nrecoverable = "maybe"\n')
    assert err.field == "python.recoverable" and "'maybe'" in err.reason
    err = load_error(tmp_path, '[[code]]\nname = "LLM_LINK_FAILED"\ncolour = "red"\n')
    assert err.entry == "LLM_LINK_FAILED" and "colour" in err.reason


def test_a_users_own_remedy_loads_whatever_it_backticks(tmp_path):
    """Issue 19: the backtick rules are the packaged registry's style (tests/test_registry_consistency.py),
    never a reason to refuse a user's file that rewrites a remedy, a cause or a setting."""
    from sphinx_llmstatus.registry.consistency import problems

    path = write(tmp_path, '[[code]]\nname = "LLM_LINK_FAILED"\n[code.python]\n'
                 'remedy.en = "Call `mystery_fn` again (runbook KV-12)."\nremedy.zh = "再次调用 `mystery_fn`（运行手册 KV-12）。"\n'
                 '[[code.python.causes]]\nwhen.en = "Our `pod` restarts."\nwhen.zh = "我们的 `pod` 重启。"\n'
                 'check.en = "Look."\ncheck.zh = "查看。"\nfix.en = "Restart."\nfix.zh = "重启。"\n'
                 'sources = ["python-page"]\n')
    reg = load_registry([path])
    assert reg["LLM_LINK_FAILED"].python.remedy.en.startswith("Call `mystery_fn`")
    assert reg["LLM_LINK_FAILED"].python.causes[0].when.en == "Our `pod` restarts."
    found = problems(reg)
    assert any(p.startswith("LLM_LINK_FAILED: python.remedy.en: `mystery_fn`") for p in found)
    assert any("names no `link_clusters`" in p for p in found)


def test_unknown_related_code(tmp_path):
    err = load_error(tmp_path, '[[code]]\nname = "LLM_LINK_FAILED"\nrelated = ["LLM_NOPE"]\n')
    assert err.field == "related" and "LLM_NOPE" in err.reason


def test_override_and_add(tmp_path):
    path = write(tmp_path, '''
        [[code]]
        name = "LLM_WAIT_PROCESS_TIMEOUT"   # Python spelling reaches the same code
        [code.python]
        functions = []
        modes = []
        remedy.en = "Our site's own advice."
        remedy.zh = "本站自己的建议。"

        [[code]]
        name = "LLM_SITE_SPECIFIC"
        value = 0x5010B0F0
    ''' + VIEW.format(name="LLM_SITE_SPECIFIC"))
    reg = load_registry([path])
    assert reg["LLM_WAIT_PROC_TIMEOUT"].python.remedy.en == "Our site's own advice."
    assert reg["LLM_WAIT_PROC_TIMEOUT"].python.recoverable == "yes"  # untouched field kept
    assert reg["LLM_SITE_SPECIFIC"].value == 0x5010B0F0
    assert len(reg.in_family("llm_datadist")) == 34 and reg.files[-1] == str(path)


def test_read_toml_names_file(tmp_path):
    with pytest.raises(RegistryError) as info:
        read_toml(tmp_path / "missing.toml")
    assert "missing.toml" in str(info.value)


def test_compiled_registry_is_fresh():
    """registry.jsonl must match registry.toml: run `make registry` after editing the TOML."""
    from sphinx_llmstatus.registry.compile import compiled_text
    from sphinx_llmstatus.registry.datafiles import COMPILED_NAME, DATA_DIR

    with open(f"{DATA_DIR}/{COMPILED_NAME}", encoding="utf-8") as fh:
        assert fh.read() == compiled_text()


def _same_registry(a, b):
    assert repr(list(a.codes)) == repr(list(b.codes))
    assert repr(a.symptoms) == repr(b.symptoms)
    assert a.sources == b.sources and a.files == b.files
    for table in ("families", "frameworks", "engines", "bindings"):
        assert getattr(a, table) == getattr(b, table), table
    for array in ("bound_names", "returns", "shared", "log_formats"):
        assert repr(getattr(a, array)) == repr(getattr(b, array)), array


def test_stored_registry_equals_the_checked_build():
    """registry.jsonl decodes to the registry load_registry() builds and checks from the TOML."""
    _same_registry(default_registry(), load_registry())
    code = default_registry()["LLM_LINK_FAILED"]
    # one Source object per key, shared by every reference
    assert code.python.source is default_registry().sources[code.python.source.key]


def test_compile_check_says_when_the_json_is_stale(tmp_path, monkeypatch, capsys):
    import shutil

    from sphinx_llmstatus.registry import compile as compile_
    from sphinx_llmstatus.registry import datafiles as loader

    for path in loader.packaged_registry_paths():
        shutil.copy(path, tmp_path)
    (tmp_path / loader.COMPILED_NAME).write_text("{}")
    monkeypatch.setattr(loader, "DATA_DIR", str(tmp_path))
    monkeypatch.setattr(compile_, "DATA_DIR", str(tmp_path))
    assert compile_.main(["--check"]) == 1 and "stale" in capsys.readouterr().err
    assert compile_.main([]) == 0 and compile_.main(["--check"]) == 0


@pytest.mark.parametrize("content", ["", "\x00garbage", '{"format": 2, "toml_crc32": {}}', "other", "truncated"])
def test_stale_or_broken_stored_registry_falls_back_to_the_toml(tmp_path, monkeypatch, content):
    import shutil

    from sphinx_llmstatus.registry import datafiles as loader
    from sphinx_llmstatus.registry import store
    from sphinx_llmstatus.registry.packaged import default_registry

    for path in loader.packaged_registry_paths():
        shutil.copy(path, tmp_path)
    if content == "other":  # a registry of other TOML files
        content = store.dumps(load_registry(), {"registry.toml": "00000000"})
    elif content == "truncated":  # the right checksums, a line lost
        content = store.dumps(load_registry(), loader.packaged_checksums()).rpartition("\n")[0].rpartition("\n")[0] + "\n"
    (tmp_path / loader.COMPILED_NAME).write_text(content)
    monkeypatch.setattr(loader, "DATA_DIR", str(tmp_path))
    assert store.loads(content, loader.packaged_checksums(), ()) is None
    default_registry.cache_clear()
    try:
        rebuilt = default_registry()
    finally:
        default_registry.cache_clear()
    assert rebuilt.files[0] == str(tmp_path / loader.PACKAGED_NAME)
    assert repr(list(rebuilt.codes)) == repr(list(load_registry().codes))


def test_no_binary_model_ships():
    from sphinx_llmstatus.registry.datafiles import DATA_DIR

    assert sorted(os.listdir(DATA_DIR)) == sorted(n for n in os.listdir(DATA_DIR) if n.endswith((".toml", ".jsonl")))


def test_override_of_one_language_keeps_the_other(tmp_path):
    path = write(tmp_path, '[[code]]\nname = "LLM_TIMEOUT"\n[code.python]\nmeaning.en = "Timed out (site wording)."\n')
    code = load_registry([path])["LLM_TIMEOUT"]
    assert code.python.meaning.en == "Timed out (site wording)."
    assert code.python.meaning.zh == "处理超时。"


def test_deeply_nested_toml_is_a_registry_error(tmp_path):
    err = load_error(tmp_path, "x = " + "[" * 100000 + "]" * 100000 + "\n")
    assert "nested too deeply" in err.reason


@pytest.mark.parametrize("schema", ["true", "1.0", '"1"', "3", "0"])
def test_schema_must_be_the_integer_1_or_2(tmp_path, schema):
    err = load_error(tmp_path, f"schema = {schema}\n")
    assert err.field == "schema" and "unsupported schema" in err.reason


def test_source_api_mismatch_blames_the_file_that_changed_the_source(tmp_path):
    err = load_error(tmp_path, '[sources.python-page]\napi = "cpp"\n')
    assert (err.entry, err.field) == ("sources.python-page", "api")
    assert "is 'cpp', but LLM_SUCCESS [code.python] cites this source" in err.reason


@pytest.mark.parametrize("key", ["plain", "引用", 'a "quoted", key', "back\\slash"])
def test_stored_keyed_line_gives_its_key_unparsed(key):
    import json

    from sphinx_llmstatus.registry.store import key_of, parse_json

    line = json.dumps([key, {"title": "x"}], ensure_ascii=False).encode("utf-8")
    assert key_of(line) == key and parse_json(line) == [key, {"title": "x"}]


def test_holding_builds_only_the_codes_whose_stored_text_holds_the_key():
    """A scan's start asks for the codes with evidence (28 of them), not for every code's causes."""
    import os

    from sphinx_llmstatus.registry import datafiles, store

    fresh = store.load(os.path.join(datafiles.DATA_DIR, datafiles.COMPILED_NAME), datafiles.packaged_checksums(),
                       datafiles.packaged_registry_paths())
    assert fresh is not None
    with_evidence = [c.name for c in load_registry() if any(cause.evidence for v in c.views for cause in v.causes)]
    held = fresh.holding("evidence")
    assert 0 < len(held) < len(fresh) and [c.name for c in held] == with_evidence
    assert sum(1 for item in fresh._items if hasattr(item, "holds")) == len(fresh) - len(held)  # none else built
    assert [c.name for c in load_registry().holding("evidence")] == [c.name for c in load_registry()]  # built: all
