"""The words of the plain-text, HTML and Markdown renderings, in English and Chinese.

One table for every renderer of this layer (no Sphinx here: the Sphinx face
uses gettext catalogs, ``sphinx_llmstatus/locales``).
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

LABELS: Mapping[str, Mapping[str, str]] = {
    "en": {
        "api": "API",
        "python": "Python",
        "cpp": "C++",
        "name": "Name",
        "recoverable": "Recoverable",
        "meaning": "Meaning",
        "remedy": "Remedy",
        "related": "Related",
        "note": "Note",
        "source": "Source",
        "hex": "Hex",
        "decimal": "Decimal",
        "read_as": "read as",
        "not_documented": "not on the vendor page",
        "line": "Line",
        "code": "Code",
        "text": "Log line",
        "summary": "Summary",
        "no_codes": "No LLM DataDist status code found.",
        "meanings": "{query} has {n} meanings",
        "query_meanings": "{query}: {n} meanings",
        "codes": "{n} status codes",
        "match": "{n} of {total} codes",
        "hits": "{n} status code occurrences in {lines} lines",
        "more": "{n} more not shown",
        "success_hidden": "success codes hidden; --all lists them",
        "unknown_code": "unknown LLM DataDist code",
        "yes": "yes",
        "no": "no",
        "n/a": "n/a",
        "unknown": "unknown",
        "n_of_total": "{n} of {total} LLM DataDist status codes",
        "none_found": "No LLM DataDist status code",
        "matching": "matching {q}",
        "name_contains": "whose name contains {q}",
        "in_api": "in the {api} API",
        "last_exc": "Last exception",
        "code_from": "Status code from its {how}:",
        "no_code_in": "No LLM DataDist status code in it (checked: {how}).",
        "status_code attribute": "status_code attribute",
        "message and traceback text": "message and traceback text",
        "undocumented": "not on the vendor page; our description",
        "Recoverable": "Recoverable",
        "no_hits": "No LLM DataDist status code found.",
        "scan_summary": "{n} occurrence(s) of {k} code(s), {f} failure(s)",
    },
    "zh": {
        "api": "接口",
        "python": "Python",
        "cpp": "C++",
        "name": "名称",
        "recoverable": "可恢复",
        "meaning": "含义",
        "remedy": "处理建议",
        "related": "相关错误码",
        "note": "说明",
        "source": "来源",
        "hex": "十六进制",
        "decimal": "十进制",
        "read_as": "解读为",
        "not_documented": "官方文档未列出",
        "line": "行",
        "code": "错误码",
        "text": "日志行",
        "summary": "汇总",
        "no_codes": "未找到 LLM DataDist 错误码。",
        "meanings": "{query} 有 {n} 种含义",
        "query_meanings": "{query}: {n} 种含义",
        "codes": "{n} 个错误码",
        "match": "{total} 个错误码中的 {n} 个",
        "hits": "{lines} 行中出现 {n} 次错误码",
        "more": "另有 {n} 条未显示",
        "success_hidden": "已隐藏成功码，--all 可列出",
        "unknown_code": "未知的 LLM DataDist 错误码",
        "yes": "是",
        "no": "否",
        "n/a": "不适用",
        "unknown": "未知",
        "n_of_total": "{total} 个 LLM DataDist 错误码中的 {n} 个",
        "none_found": "没有 LLM DataDist 错误码",
        "matching": "匹配 {q}",
        "name_contains": "名称包含 {q}",
        "in_api": "（{api} 接口）",
        "last_exc": "最近的异常",
        "code_from": "错误码取自其{how}：",
        "no_code_in": "其中没有 LLM DataDist 错误码（已检查：{how}）。",
        "status_code attribute": " status_code 属性",
        "message and traceback text": "消息与回溯文本",
        "undocumented": "厂商页面未列出，为本项目的说明",
        "Recoverable": "可恢复",
        "no_hits": "未发现 LLM DataDist 状态码。",
        "scan_summary": "共 {n} 处，{k} 种错误码，其中失败 {f} 处",
    },
}


def labels(lang: str) -> Mapping[str, str]:
    """The UI words in ``lang`` (English for anything but ``"zh"``)."""
    return LABELS["zh" if lang == "zh" else "en"]


def label(key: str, lang: str, **fmt: object) -> str:
    """The word ``key`` in ``lang``, formatted with ``fmt`` when given."""
    text = labels(lang)[key]
    return text.format(**fmt) if fmt else text


def scan_title(lang: str, *, total: int, lines: int, success_hidden: bool) -> str:
    """The heading of a scan report: occurrences, lines scanned, and whether success codes were hidden."""
    title = label("hits", lang, n=total, lines=lines)
    return f"{title} ({label('success_hidden', lang)})" if success_hidden else title
