"""Tab completion for ``%llmstatus`` (IPython matcher API v2, ``Completer.custom_matchers``).

After ``%llmstatus `` (or ``llmstatus `` with automagic) it offers code names
in every spelling, ``LLMStatusCode.NAME`` after ``LLMStatusCode.``, the
options after ``-``, and the choices after ``--api``, ``--lang``,
``--recoverable`` and ``--hook``. On the first line of a ``%%llmstatus`` cell
it offers the cell options. When it has matches it suppresses the other
matchers (Jedi, file names), which have nothing useful to add there.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

IDENTIFIER = "sphinx_llmstatus.completion"
CHOICES = {
    "--api": ("python", "cpp"),
    "--lang": ("en", "zh"),
    "--recoverable": ("yes", "no"),
    "--hook": ("on", "off"),
}
LINE_OPTIONS = ("--search", "--api", "--recoverable", "--lang", "--last", "--hook")
CELL_OPTIONS = ("--all", "--api", "--lang", "--limit")
_ENUM = "LLMStatusCode."


def candidates(before_cursor: str, spellings: Callable[[], tuple[str, ...]]) -> list[str] | None:
    """Completions for the text of the line up to the cursor; None when not a ``%llmstatus`` line.

    The last element of the returned list's items replaces the current word
    (whatever follows the last space).
    """
    stripped = before_cursor.lstrip()
    cell = stripped.startswith("%%llmstatus")
    if not (cell or stripped.startswith(("%llmstatus ", "llmstatus "))) or (cell and " " not in stripped):
        return None
    words = stripped.split(" ")
    word, previous = words[-1], (words[-2] if len(words) > 2 else "")
    if previous in CHOICES:
        return [c for c in CHOICES[previous] if c.startswith(word.lower())]
    if word.startswith("-") or cell:
        return [o for o in (CELL_OPTIONS if cell else LINE_OPTIONS) if o.startswith(word)]
    if previous == "--search":
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


def make_matcher(spellings: Callable[[], tuple[str, ...]]) -> Any:
    """A v2 context matcher for ``IPCompleter.custom_matchers``; ``spellings`` lists code names."""
    from IPython.core.completer import SimpleCompletion, context_matcher

    @context_matcher(identifier=IDENTIFIER, priority=100)
    def llmstatus_matcher(context: Any) -> dict[str, Any]:
        found = candidates(context.text_until_cursor, spellings)
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
