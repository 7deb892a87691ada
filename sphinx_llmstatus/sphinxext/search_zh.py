"""Chinese search that finds Chinese words typed without spaces, with or without jieba.

Sphinx's Chinese search indexes Chinese text only when jieba is installed, and its search page
takes a query such as ``建链失败`` as one word, which matches no indexed word: a user's
``zh_CN`` project found nothing for a code's own meaning (issue 24). The usual answer of
full-text engines for CJK text (Lucene's CJKAnalyzer, Elasticsearch's ``cjk_bigram``) is to
index every pair of neighbouring ideographs and to split the query the same way; a page then
matches when it holds every pair. This language does both and keeps what Sphinx's own does:
jieba's words when it is installed, Latin words and stemming as before.
"""

from __future__ import annotations

import re

from sphinx.search.zh import SearchChinese

#: CJK ideographs (unified, extension A, compatibility): the characters written without spaces.
_IDEOGRAPHS = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_RUN = re.compile(f"[{_IDEOGRAPHS}]+")


def bigrams(text: str) -> list[str]:
    """Every pair of neighbouring ideographs in ``text`` (``建链失败``: 建链, 链失, 失败); a lone
    ideograph between other characters gives nothing (Sphinx drops one-character words anyway)."""
    return [run[i:i + 2] for run in _RUN.findall(text) for i in range(len(run) - 1)]


#: The search page's query splitter (``splitQuery`` in language_data.js): Sphinx's split on
#: non-word characters, then each run of ideographs into pairs side by side, the last one
#: overlapping for an odd length (``超时重试``: 超时, 重试; ``等待处理超时``: 等待, 处理, 超时).
#: Every such pair is among the index's pairs of the phrase, so the phrase itself matches; and
#: since most Chinese words have two characters, words of a query found apart on a page
#: (``超时`` ... ``重试``) match too, as a reader typing remedy words expects.
JS_SPLITTER = """
function splitQuery(query) {
  const ideographs = /[\\u3400-\\u4dbf\\u4e00-\\u9fff\\uf900-\\ufaff]+/gu;
  const out = [];
  for (const word of query.split(/[^\\p{Letter}\\p{Number}_\\p{Emoji_Presentation}]+/gu)) {
    if (!word) continue;
    const latin = word.replace(ideographs, " ").split(" ").filter((w) => w);
    out.push(...latin);
    for (const run of word.match(ideographs) || []) {
      if (run.length === 1) out.push(run);
      for (let i = 0; i + 1 < run.length; i += 2) out.push(run.slice(i, i + 2));
      if (run.length > 2 && run.length % 2 === 1) out.push(run.slice(-2));
    }
  }
  return out;
}
"""


class SearchChineseBigrams(SearchChinese):
    """Sphinx's Chinese search plus ideograph pairs, in the index and in the query."""

    js_splitter_code = JS_SPLITTER

    def split(self, input: str) -> list[str]:  # noqa: A002 - Sphinx's parameter name
        return super().split(input) + bigrams(input)
