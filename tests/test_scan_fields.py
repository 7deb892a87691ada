"""Field values in the LLM DataDist range are told apart in the multi-pattern engine (issue 20).

``remote_ip=1343270921`` is an IP written as an integer, no code: the rules
say so (``verdicts.is_field_value``) and, with Hyperscan, the prefilter never
reports such a number (its expressions take only what may come before a number
that is no field's: ``expressions.unfielded``), so a log dense with them costs
what a quiet log costs. The prefilter may only drop what the rules would drop:
checked here on random names, cases, separators, numbers and terminal colours.
"""

from __future__ import annotations

import random

import pytest

from sphinx_llmstatus.scan import engine, scan_text
from sphinx_llmstatus.scan.prefilter import available
from sphinx_llmstatus.scan.verdicts import FIELD_SUFFIXES

pytestmark = pytest.mark.skipif("hyperscan" not in available(), reason="the Hyperscan wheel is not installed")

NUMBERS = ["1343270921", "1343271024", "0x5010B009", "5010b002", "0X5010bfff", "13432709210", "1343270921.5"]
SEPARATORS = ["=", ":", " = ", ": ", " ", "  ", "\t", "     ", " :", "==", "=\t\t\t\t\t", "    =    ", "\t:\t\t\t\t",
              " " * 12, ":" * 11, "= =", "    :     "]
BEFORE = ["", " ", "[", "(", ",", "x", "_", "9", ".", "LLM_TIMEOUT ", "ret ", "err_", "0", "0x", "\x1b[m",
          "\x1b[0m", '{"', "'", '"', "=", ":"]


def _name(rnd: random.Random) -> str:
    suffix = rnd.choice([*FIELD_SUFFIXES, "ret", "code", "bytes", "status", "IpX"])
    suffix = rnd.choice([suffix, suffix.upper(), suffix.title(), suffix[:1] + suffix[1:].upper()])
    head = "".join(rnd.choice("abcXYZ_9") for _ in range(rnd.choice([0, 1, 5, 18, 19, 20, 21, 35])))
    glue = rnd.choice(["", "_", "__", "\x1b[m", "\x1b[1m"])
    return rnd.choice([suffix, head + glue + suffix, rnd.choice("aZ") + head + glue + suffix])


def _line(rnd: random.Random) -> str:
    quotes = ["", "", '"', "'", '""']  # a JSON key or value, a Python dict's
    return (rnd.choice(BEFORE) + _name(rnd) + rnd.choice(quotes) + rnd.choice(SEPARATORS) + rnd.choice(quotes)
            + rnd.choice(NUMBERS) + rnd.choice(["", " ", ",", "x", " == 0", '"']))


@pytest.mark.parametrize("seed", range(12))
def test_the_prefilter_drops_only_what_the_rules_drop(seed):
    rnd = random.Random(seed)
    sc = engine.scanner(engine="hyperscan")
    for _ in range(2000):
        line = _line(rnd)
        data = (line + "\n").encode()
        candidate = bool(sc.prefilter.starts(data, len(data)))
        if not candidate:
            assert sc.matcher.tokens(line) == [], line


@pytest.mark.parametrize("line", [
    "link cluster_id:1343271024, remote_ip=1343270921, local_ip=3232235777",
    "connect remoteIp 1343270921 port: 1343270922 rank 3",
    "a devicePORT=5010B009 and IP = 5010b002 clusterID 0x5010b00a",
    # The name's end tells, whatever comes before it: a name led by no letter, or longer than
    # the window the rules read (48 characters with the separator).
    "link _ip=1343270921 9_port: 1343270922 2ndRankId 1343270923",
    "a_very_long_field_name_of_31_ch_ip=1343270921, " + "x" * 60 + "_peer_listen_ip = 0x5010B009",
    # Quoted: LLM DataDist's cluster options as JSON in its init failure (vllm-ascend issue 696,
    # tests/corpus/vllm-ascend-696.log, here with an IP in 80.16.176.0/20), a Python dict.
    """'llm.ClusterInfo': '{"cluster_id": 0, "listen_ip_info": [{"ip": 1343270921, "port": 26000}]}'""",
    "{'remote_ip': 1343270921, 'devId': '5010b002'} ip=\"0x5010B009\"",
])
def test_a_line_of_field_values_is_no_candidate(line):
    data = (line + "\n").encode()
    assert engine.scanner(engine="hyperscan").prefilter.starts(data, len(data)) == []
    assert list(scan_text(line, engine="python")) == []


@pytest.mark.parametrize("line", [
    "ret = 1343270921", "err_num=1343270921", "LLM_TIMEOUT 1343270921", "bytes=1343270921",
    "XXID=1343270921", "zip=1343270921", "remoteip=1343270921", "ip_=1343270921", '{"ret": 1343270921}',
    'ip=":1343270921', 'ip"":1343270921', 'id"1343270921',
])
def test_a_number_after_no_field_stays_a_candidate(line):
    data = (" " + line + "\n").encode()
    assert engine.scanner(engine="hyperscan").prefilter.starts(data, len(data)) == [0]
    assert [h.token for h in scan_text(line)] == [h.token for h in scan_text(line, engine="python")]


@pytest.mark.parametrize(("line", "token"), [("zip=1343270921", "1343270921"), ("ZIP: 0x5010B009", "0x5010B009"),
                                           ("XID 5010b002", "5010b002")])
def test_a_word_the_start_may_have_cut_stays_a_candidate(line, token):
    """A long line is prefiltered in pieces: one may start within a word (``ip`` of ``zip``, no
    field's name, as ``ZIP`` and ``XID`` are none: camel case needs a lower-case letter)."""
    data = (line[1:] + "\n").encode()
    assert engine.scanner(engine="hyperscan").prefilter.starts(data, len(data)) == [0]
    assert [h.token for h in scan_text(line)] == [token]
