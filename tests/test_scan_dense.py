"""Dense lines: the fast path finds the tokens of the specification (issues 10, 20).

:meth:`Matcher.tokens` tries one alternation of the rules' expressions and
decides a match on the window its rule reads, remembered across lines;
:func:`sphinx_llmstatus.scan.reference.tokens` tries each expression at every
position and decides each match on the whole line. Both are compared here on
random lines full of near-misses, and each rule's sample lines give their
tokens; bench/ has the timings.
"""

from __future__ import annotations

import random

import pytest

from sphinx_llmstatus.scan import engine, reference, scan_text
from sphinx_llmstatus.scan.prefilter import available
from sphinx_llmstatus.scan.rules import RULES

ENGINES = available()

PIECES = [
    "ret = 1343270921", "ret=0x5010B009", "1343270921", "0x5010b009", "5010b002", "rc: ffffffff", "k_ret = ffffffff",
    "ErrorNo: 4294967295(failed)", "error code is 507053", "error 507057", "err=507046", "errNo[0x0000000005000007]",
    "ErrorNo: 103905()", "code FFFFFFFF", "LLM_LINK_FAILED", "LLM_TIMEOUT", "LLMStatusCode.LLM_LINK_FAILED",
    "<LLMStatusCode.LLM_TIMEOUT: 1343270917>", "ge::LLM_FAILED", "llm_datadist::LLM_NOT_YET_LINK", "LLM_SUCCESS",
    "ret == LLM_SUCCESS", "ret != 1343270921", "remote_ip=1343270921", "port: 1343270922", "cluster_id:1343270923",
    "remoteIp 1343270921", "x1343270921", "a.1343270921", "1343270921.5", "/path/1343270921", "LinkLlmClusters",
    "llm_datadist", "PushKvBlocks", "LLM_", "ret", "=", "==", " ", "\t", ":", ".", "::", "<", ">", "-1", "0",
    "id=73921", "a.b.c.", "ffffffffff", "LLMStatusCode.", "error", "errno", "is", "status_code", "é", "\u00a0",
    "ret ffffffff == 0", "ffffffff", "4294967295", "507057", "0x", "LLM_LINK_FAILEDX", "_LLM_TIMEOUT",
    "ret = 0x5010B009", "(1343270921", "9 0x5010b009", "status = 0x5010B009", "ERR:1343270921", "k_ret=ffffffff",
    "code 1343270921 ==", "xret = 1343270921", "_ret = 1343270921", "Ret: 5010b002", "rc:4294967295", "errno 507053 !=",
    "result = 0x5010B009", "port 1343270921", "a1 1343270921", "ret = 1343270921 id=", "error FFFFFFFF", "1 ",
    "== <LLMStatusCode.LLM_TIMEOUT: 1343270917>", "<   LLMStatusCode.LLM_LINK_FAILED : 1343270921 >",
    "ret ==  llm_datadist.LLMStatusCode.LLM_TIMEOUT", "x!=<ge::LLM_FAILED: 1>",
]


def one_by_one(line: str) -> list[tuple]:
    """The specification's tokens."""
    return reference.tokens(engine.scanner().matcher, line)


def grouped(line: str) -> list[tuple]:
    tokens = engine.scanner().matcher.tokens(line)
    return sorted((s, s + t.end - t.start, t.kind, t.value, t.code) for t in tokens for s in t.occurrences())


def random_line(rnd: random.Random, words: int) -> str:
    vocab = rnd.sample(PIECES, rnd.randint(2, 10))
    return "".join((rnd.choice(vocab) if rnd.random() < 0.8 else rnd.choice(PIECES))
                   + rnd.choice([" ", " ", "", "  ", str(rnd.randint(0, 999)) + " "]) for _ in range(words))


def repeating_line(rnd: random.Random) -> str:
    unit = "".join(rnd.choice(PIECES) + rnd.choice([" ", "", ", "]) for _ in range(rnd.randint(1, 5)))
    line = list(random_line(rnd, 5) + unit * (40_000 // len(unit) + 2) + random_line(rnd, 5))
    for _ in range(rnd.choice([0, 1, 2])):  # an edit somewhere in the repeats
        line[rnd.randrange(len(line))] = rnd.choice(["x", " ", "=", "LLM_TIMEOUT"])
    return "".join(line)


@pytest.mark.parametrize("rule", RULES, ids=lambda r: r.kind)
def test_each_rule_gives_its_samples(rule):
    for line, expected in rule.samples:
        tokens = engine.scanner().matcher.tokens(line)
        assert tuple(line[t.start:t.end] for t in tokens) == expected, line
        assert tuple(line[s:e] for s, e, *_ in one_by_one(line)) == expected, line


@pytest.mark.parametrize("seed", range(12))
def test_long_lines_decide_as_every_match_on_the_line(seed):
    rnd = random.Random(seed)
    for line in (random_line(rnd, rnd.randint(300, 3000)), repeating_line(rnd)):
        assert grouped(line) == one_by_one(line)


@pytest.mark.parametrize("seed", range(4))
def test_short_lines_decide_as_every_match_on_the_line(seed):
    rnd = random.Random(seed)
    for _ in range(300):
        line = random_line(rnd, rnd.randint(1, 40))
        assert grouped(line) == one_by_one(line), line


@pytest.mark.parametrize("line", [
    # Qualified names whose windows the line's end cuts: alike as text, not alike in where the name is.
    "ret ==  llm_datadist.LLMStatusCode.LLM_TIMEOUT:LLMStatusCode.LLM_LINK_FAILED:LLMStatusCode.LLM_LINK_FAILED=",
    "x " * 1500 + "a.LLMStatusCode.LLM_LINK_FAILED:LLMStatusCode.LLM_LINK_FAILED:",
    # A number that goes on (its expression has no look-ahead: _ends_number decides).
    "ret=0x5010B01A ret = 0x5010B0091 1343270921.1 rc: ffffffffff k_ret=ffffffff5 error 5070531 0x5010b009",
])
def test_lines_decided_as_every_match(line):
    assert grouped(line) == one_by_one(line)
    assert grouped(line * 300) == one_by_one(line * 300)


def test_a_number_glued_inside_a_word_is_decided():
    """A match that is no token hides nothing after it (the alternation resumes a character later)."""
    for line in ["LLM_ret507057 ", "x LLM_FOO_ret=507053", "LLM_TIMEOUTX LLM_TIMEOUT"]:
        assert grouped(line) == one_by_one(line)
        assert grouped(line * 300) == one_by_one(line * 300)


DENSE = ["ret = 1343270921", "LLM_LINK_FAILED", "0x5010B009", "k_ret = ffffffff", "LLMStatusCode.LLM_TIMEOUT",
         "error 507053", "ret=0x5010b002", "(1343270921)", "rc: 4294967295", "x=1343270921", "ret == 1343270921"]


@pytest.mark.parametrize("engine_name", ENGINES)
@pytest.mark.parametrize("seed", range(4))
def test_dense_lines_with_random_ids(engine_name, seed):
    """Dense lines in random order with random ids between (narrow keys of numbers): every
    column as deciding every match on the whole line, with both prefilters."""
    rnd = random.Random(seed)
    line = " ".join(rnd.choice(DENSE) + rnd.choice(["", f" id={rnd.randint(0, 99_999)}", " ", "  ", "\t"])
                    for _ in range(rnd.randint(2_000, 8_000)))
    assert grouped(line) == one_by_one(line)
    expected = sorted(s for s, *_ in one_by_one(line))
    columns = sorted(c for h in scan_text(line, engine=engine_name) for c in h.columns)
    assert columns == expected


@pytest.mark.parametrize("line", [
    "LLM_FAILED." * 300, "LLMStatusCode.LLM_FAILED." * 200, "ge::LLM_FAILED::" * 200,
    ("a." * 8 + "LLM_FAILED ") * 100, ("a" * 53 + ".LLM_FAILED.") * 50, "é.LLM_TIMEOUT x" * 100,
    "\x1b[31mLLM_LINK_FAILED\x1b[0m ret=\x1b[1m0x5010B009\x1b[m", "\x1b[m_id=1343270921 \x1b[K_port=1343270921",
])
def test_qualified_chains_and_colours_decide_as_the_specification(line):
    assert grouped(line) == one_by_one(line)


def test_a_repr_across_two_pieces_is_one_token():
    """A long line's pieces: a repr that starts in one piece covers the number the next one reads."""
    m = engine.scanner().matcher
    line = "x" * 6 + "<LLMStatusCode.LLM_TIMEOUT: 1343270917> y"
    cut = line.index(": 1343")  # inside the repr, before its number
    tokens = [*m.tokens(line, 0, cut), *m.tokens(line, cut, len(line))]
    assert [line[t.start:t.end] for t in tokens] == ["<LLMStatusCode.LLM_TIMEOUT: 1343270917>"]


@pytest.mark.skipif("hyperscan" not in ENGINES, reason="the Hyperscan wheel is not installed")
@pytest.mark.parametrize("text", [
    "ret = 0x05010000 x 0x05000007\nnext\n",  # the HCCL form's end takes the line break
    # Colours change what the rules read as a field ("m_id" written, "_id" read; "mret", "ret").
    "\x1b[m_id=1343270921\n\x1b[0;m_ip: 0x5010B009 \x1b[0;mret: 0x5010B00A\n",
])
def test_both_engines_give_the_same_hits(text):
    def hits(name: str) -> list[tuple]:
        return [(h.line_no, h.token, h.family) for h in scan_text(text, engine=name)]

    assert hits("hyperscan") == hits("python") and hits("python")


def test_a_name_after_a_long_chain_reads_eight_links_of_it():
    """The links of a line are remembered (``verdicts.Chains``), but a name after 500,000 links
    reads only the 8 its qualifier may have: walked to the chain's start, the junk line
    ``a.`` x 500,000 took 0.85 s, not 0.10 s."""
    from sphinx_llmstatus.scan.verdicts import Chains, qualifier_start

    line = "a." * 500_000 + "LLM_FAILED"
    s, chains = len(line) - len("LLM_FAILED"), Chains()
    assert chains.start(line, s) == qualifier_start(line, s) == s - 16
    assert len(chains._back) == 1
