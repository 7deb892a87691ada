"""An entry's field knowledge: causes and checks, settings, what frameworks do, public reports."""

from __future__ import annotations

import pytest
from bs4 import BeautifulSoup

EXTRA = '''
[sources.test-issue]
kind = "issue"
title.en = "A public report of the timeout"
title.zh = "一份关于超时的公开报告"
url = "https://github.com/example/project/issues/1"

[[code]]
name = "LLM_TIMEOUT"

[[code.python.causes]]
when.en = "The decoder pulls while the prompt side is still busy."
when.zh = "解码端拉取时提示端仍在忙。"
check.en = "Look at the prompt side's queue length."
check.zh = "查看提示端的队列长度。"
fix.en = "Raise the timeout."
fix.zh = "调大超时时间。"
sources = ["test-issue"]
applies_to.frameworks = ["vllm-ascend"]
applies_to.versions = "CANN 8.1 and later"

[[code.settings]]
name = "TEST_TIMEOUT_MS"
kind = "env"
unit = "ms"
default = "1000"
about.en = "How long to wait."
about.zh = "等待多久。"
sources = ["test-issue"]

[[code.frameworks]]
framework = "omni-npu"
does.en = "Retries three times."
does.zh = "重试三次。"
sources = ["test-issue"]
'''


def build(project, body: str, **overrides):
    return project({"index.rst": "Home\n====\n\n" + body, "extra.toml": EXTRA},
                   confoverrides={"llmstatus_registry_files": ["extra.toml"], **overrides})


def body(app) -> BeautifulSoup:
    html = (app.outdir / "index.html").read_text(encoding="utf-8")
    return BeautifulSoup(html, "html.parser").select_one("dd")


def test_entry_shows_causes_settings_frameworks_and_reports(project):
    app = build(project, ".. llm-status:: LLM_TIMEOUT\n")
    assert app.warning.getvalue() == ""
    dd = body(app)
    headings = [p.get_text() for p in dd.select("p.rubric")]
    assert headings == ["Causes and checks", "Settings", "What frameworks do", "Where it comes from",
                        "Seen in public reports"]
    cause = dd.select_one("dl.llmstatus-causes")
    text = cause.get_text(" ")
    assert "The decoder pulls while the prompt side is still busy." in text
    for label, value in [("Check", "queue length"), ("Fix", "Raise the timeout."),
                         ("Applies to", "vllm-ascend; CANN 8.1 and later")]:
        assert label in text and value in text
    assert "Python:" in text  # only the Python view has this cause
    assert cause.select_one("a.reference.external")["href"] == "https://github.com/example/project/issues/1"
    setting = dd.select_one("dl.llmstatus-settings").get_text(" ")
    assert "TEST_TIMEOUT_MS" in setting and "environment variable" in setting and "default: 1000" in setting
    assert "Retries three times." in dd.select_one("dl.llmstatus-frameworks").get_text(" ")
    reports = [a.get_text() for a in dd.select("ul.llmstatus-reports a")]
    assert reports == ["A public report of the timeout"]
    # Issue 19: which engine returns it, from which calls (each row cited), and what it is reported as.
    origins = dd.select_one("dl.llmstatus-origins").get_text(" ")
    assert "In KvCacheManager mode this code is never returned: if you see it, you are on the CacheManager" in origins
    assert "ge engine (KvCacheManager mode) : never returned (reports LLM_WAIT_PROC_TIMEOUT" in " ".join(
        origins.split())
    assert "PullKvBlocks" in origins and "kLLMTimeout" in origins


def test_sections_option_picks_or_leaves_them_out(project):
    app = build(project, ".. llm-status:: LLM_TIMEOUT\n   :sections: settings\n\n"
                         ".. llm-status:: LLM_TIMEOUT\n   :no-index:\n   :sections: none\n")
    assert app.warning.getvalue() == ""
    first, second = BeautifulSoup((app.outdir / "index.html").read_text(encoding="utf-8"),
                                  "html.parser").select("dd")[:2]
    assert [p.get_text() for p in first.select("p.rubric")] == ["Settings"]
    assert second.select("p.rubric") == []


def test_bad_sections_value_warns_and_shows_all(project):
    app = build(project, ".. llm-status:: LLM_TIMEOUT\n   :sections: causes, gossip\n")
    warnings = app.warning.getvalue()
    assert "[llmstatus.option]" in warnings and "'gossip'" in warnings
    assert len(body(app).select("p.rubric")) == 5


@pytest.mark.parametrize("language", ["zh_CN", "zh-Hans"])
def test_chinese_headings_and_text(project, language):
    app = build(project, ".. llm-status:: LLM_TIMEOUT\n", language=language)
    dd = body(app)
    assert [p.get_text() for p in dd.select("p.rubric")] == ["原因与排查", "相关配置", "各框架的处理", "错误码来源",
                                                            "公开报告中的案例"]
    assert "解码端拉取时提示端仍在忙。" in dd.get_text()


def test_myst_entry_has_the_same_sections(project):
    app = project({"index.md": "# Home\n\n```{llm-status} LLM_TIMEOUT\n:sections: causes\n```\n",
                   "extra.toml": EXTRA}, confoverrides={"llmstatus_registry_files": ["extra.toml"]})
    assert app.warning.getvalue() == ""
    assert [p.get_text() for p in body(app).select("p.rubric")] == ["Causes and checks"]


@pytest.mark.parametrize("buildername", ["text", "latex", "man"])
def test_sections_render_in_print_builders(project, buildername):
    app = project({"index.rst": "Home\n====\n\n.. llm-status:: LLM_TIMEOUT\n", "extra.toml": EXTRA},
                  buildername=buildername, confoverrides={"llmstatus_registry_files": ["extra.toml"]})
    assert app.warning.getvalue() == ""
    out = "\n".join(p.read_text(encoding="utf-8") for p in app.outdir.rglob("*") if p.suffix in (".txt", ".tex", ".1"))
    assert "Causes and checks" in out and "Raise the timeout." in out
