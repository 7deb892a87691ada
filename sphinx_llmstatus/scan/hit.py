"""One occurrence of a status code in scanned text."""

from __future__ import annotations

from dataclasses import dataclass

from ..registry.model import StatusCode


@dataclass(frozen=True, slots=True)
class Hit:
    """A status code found on one line.

    ``line_no`` is 1-based; ``line`` is the line decoded as UTF-8 with
    ``errors="replace"``, without its line ending; ``line[start:end] == token``.
    ``value`` is the number the token stands for (the code's value for names).
    ``code`` is None for a number with the LLM DataDist layout (``0x5010B0xx``)
    that the registry does not know.
    """

    line_no: int
    line: str
    start: int
    end: int
    token: str
    value: int | None
    code: StatusCode | None

    @property
    def is_success(self) -> bool:
        """True for the success code (shown only when asked for)."""
        return self.code is not None and self.code.is_success

    @property
    def api(self) -> str | None:
        """The API the token was written by, as far as its form tells.

        ``python`` for ``LLMStatusCode.X`` and reprs or a Python-only spelling,
        ``cpp`` for numbers and C++-only spellings (C++ code logs numbers);
        None for a bare name both APIs spell alike, and for unknown codes.
        """
        code = self.code
        if code is None:
            return None
        if "LLMStatusCode" in self.token:
            return "python" if code.python else code.views[0].api
        if "_" not in self.token:  # a number (names all have underscores)
            return "cpp" if code.cpp else code.views[0].api
        name = self.token.rsplit(".", 1)[-1].rsplit(":", 1)[-1]
        spelled = [view.api for view in code.views if view.name == name]
        if len(spelled) == 1:  # a spelling only one API uses, or a one-API code
            return spelled[0]
        return None  # both APIs spell it so: the token does not tell
