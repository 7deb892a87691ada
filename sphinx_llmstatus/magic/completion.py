"""Tab completion for ``%llmstatus`` (IPython matcher API v2, ``Completer.custom_matchers``).

After ``%llmstatus `` (or ``llmstatus `` with automagic) it offers code names
in every spelling, ``LLMStatusCode.NAME`` after ``LLMStatusCode.``, the
options after ``-`` and the choices of options that have them (``--api``, ``--lang``,
...), all read from the magics' own parsers. On the first line of a
``%%llmstatus`` cell it offers the cell magic's options. When it has matches it suppresses the other
matchers (Jedi, file names), which have nothing useful to add there.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

IDENTIFIER = "sphinx_llmstatus.completion"
_ENUM = "LLMStatusCode."


class Grammar:
    """The options and option choices of one magic, read from its ``magic_arguments`` parser.

    argparse lists a parser's arguments only in ``parser._actions`` (the same
    attribute argcomplete reads); everything the completer offers comes from
    there, so a new option or choice is completed without editing this file.
    """

    def __init__(self, parser: Any):
        self.options: list[str] = []
        self.choices: dict[str, tuple[str, ...]] = {}
        self.takes_words: set[str] = set()
        for action in parser._actions:
            if not action.option_strings or "-h" in action.option_strings:
                continue
            self.options += [o for o in action.option_strings if o.startswith("--")]
            for option in action.option_strings:
                if action.choices:
                    self.choices[option] = tuple(str(c) for c in action.choices)
                elif action.nargs != 0:
                    self.takes_words.add(option)


def candidates(before_cursor: str, spellings: Callable[[], tuple[str, ...]],
               line: Grammar, cell: Grammar) -> list[str] | None:
    """Completions for the text of the line up to the cursor; None when not a ``%llmstatus`` line.

    ``line`` and ``cell`` are the grammars of ``%llmstatus`` and ``%%llmstatus``.
    Each returned item replaces the current word (whatever follows the last space).
    """
    stripped = before_cursor.lstrip()
    is_cell = stripped.startswith("%%llmstatus")
    if not (is_cell or stripped.startswith(("%llmstatus ", "llmstatus "))) or (is_cell and " " not in stripped):
        return None
    grammar = cell if is_cell else line
    words = stripped.split(" ")
    word, previous = words[-1], (words[-2] if len(words) > 2 else "")
    if previous in grammar.choices:
        return [c for c in grammar.choices[previous] if c.startswith(word.lower())]
    if word.startswith("-") or is_cell:
        return [o for o in grammar.options if o.startswith(word)]
    if previous in grammar.takes_words:
        return []
    up = word.upper()
    if up.startswith(_ENUM.upper()):
        rest = up[len(_ENUM):]
        return [_ENUM + s for s in spellings() if s.upper().startswith(rest)]
    names = [s for s in spellings() if s.upper().startswith(up)]
    if not up.startswith("LLM_"):
        # Users type the part after the prefix: "link<TAB>" offers LLM_LINK_FAILED...
        names += [s for s in spellings() if s.upper().startswith("LLM_" + up) and s not in names]
    return names


def make_matcher(spellings: Callable[[], tuple[str, ...]], line_parser: Any, cell_parser: Any) -> Any:
    """A v2 context matcher for ``IPCompleter.custom_matchers``.

    ``spellings`` lists code names; the parsers are the two magics' ``magic_arguments`` parsers.
    """
    from IPython.core.completer import SimpleCompletion, context_matcher

    line, cell = Grammar(line_parser), Grammar(cell_parser)

    @context_matcher(identifier=IDENTIFIER, priority=100)
    def llmstatus_matcher(context: Any) -> dict[str, Any]:
        found = candidates(context.text_until_cursor, spellings, line, cell)
        if not found:
            return {"completions": []}
        word = context.text_until_cursor.split(" ")[-1]
        return {
            "completions": [SimpleCompletion(text=f, type="llmstatus") for f in dict.fromkeys(found)],
            "matched_fragment": word,
            "suppress": True,
            "ordered": True,
        }

    return llmstatus_matcher


def install(shell: Any, matcher: Any) -> None:
    """Add ``matcher`` to the shell's completer, replacing an earlier copy of ours."""
    uninstall(shell)
    shell.Completer.custom_matchers.append(matcher)


def uninstall(shell: Any) -> None:
    """Remove every matcher of ours from the shell's completer."""
    completer = getattr(shell, "Completer", None)
    if completer is None:
        return
    completer.custom_matchers[:] = [
        m for m in completer.custom_matchers if getattr(m, "matcher_identifier", None) != IDENTIFIER
    ]
