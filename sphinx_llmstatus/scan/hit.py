"""One status code (or symptom) found on one line of scanned text."""

from __future__ import annotations

from operator import attrgetter

from ..registry.model import StatusCode
from .record import Record


# Not frozen: a frozen record sets each field through ``object.__setattr__`` (3 us a hit against
# 0.8), and a flood of a million code lines has 10 us a line for everything. Nothing changes a
# hit once the scan hands it out (:meth:`~.record.Record._replace` makes a changed copy).
class Hit(Record):
    """A status code found on one line: one hit per code per line.

    ``line_no`` is 1-based. ``line`` is the line decoded as UTF-8 with
    ``errors="replace"``, without its line ending; for a line longer than the
    engine keeps whole (:data:`sphinx_llmstatus.scan.reading.LONG_LINE` bytes)
    it is an excerpt (the line's start, ``" … "``, the text around the token),
    and ``line_length`` is the real length. ``line[start:end] == token``.
    ``column`` is the 0-based character offset of the first occurrence in the
    real line and ``columns`` those of every occurrence of the same code on
    the line (at most :data:`MAX_COLUMNS`; ``columns_truncated`` says so).

    ``value`` is the number the token stands for (the code's value for names).
    ``family`` is the layer the number belongs to: ``llm_datadist``, or ``ge``,
    ``acl_runtime``, ``hccl``, ``hixl`` for a number several layers share that
    has no LLM DataDist context around it; ``evidence`` says what decided.
    ``code`` is the registry code for LLM DataDist hits (None for a number
    with the LLM DataDist layout that the registry does not know, and for
    other families); ``related`` is the registry code sharing the number of
    another family's hit (507053 is also Python's ``LLM_DEVICE_MEM_ERROR``);
    ``other_name``/``other_meaning`` are that family's own reading, ``other``
    its registry entry (a HIXL/ADXL, HCCL or ACL runtime code) when it has one,
    and ``other_check`` what to check first (its first cause, else its remedy).
    ``process`` names the process the line's prefix names (``1254
    (ker_DP25_EP25)``), ``process_api`` the API it implies (``GE(pid,python)``:
    ``python``). ``kind`` is ``code`` or ``symptom`` (a framework's words
    for a hidden code: ``symptom`` holds the registry record).
    ``consequence_of`` is ``(file, line, name)`` of the first failure of the
    same process when this generic code likely only passes it on (set by
    :class:`sphinx_llmstatus.scan.report.Report` users such as ``llmstatus scan``).
    ``diagnosis`` is a failure's :class:`~.diagnosis.Diagnosis` (which cause the lines around it
    prove), set by the scan's :class:`~.diagnosis.Diagnoser`.
    ``others_cut`` is the column of the line from which no other layer's number was read: it
    holds more than :data:`~.rules.MAX_OTHERS` different ones (None on every other line).
    """

    __slots__ = ("line_no", "line", "start", "end", "token", "value", "code", "family", "evidence", "column",
                 "columns", "columns_truncated", "line_length", "process", "process_api", "related", "other_name",
                 "other_meaning", "other", "other_check", "kind", "symptom", "consequence_of", "diagnosis",
                 "others_cut")

    def __init__(  # noqa: PLR0913  (a record's fields, as a dataclass's ``__init__`` takes them)
            self, line_no: int, line: str, start: int, end: int, token: str, value: int | None,
            code: StatusCode | None, family: str = "llm_datadist", evidence: str = "", column: int = -1,
            columns: tuple[int, ...] = (), columns_truncated: bool = False, line_length: int = -1,
            process: str | None = None, process_api: str | None = None, related: StatusCode | None = None,
            other_name: str | None = None, other_meaning: tuple[str, str] | None = None,
            other: StatusCode | None = None, other_check: tuple[str, str] | None = None, kind: str = "code",
            symptom: object = None, consequence_of: tuple[str, int, str] | None = None, diagnosis: object = None,
            others_cut: int | None = None) -> None:
        # One statement a field (a tuple assignment would build a tuple per hit).
        self.line_no = line_no
        self.line = line
        self.start = start
        self.end = end
        self.token = token
        self.value = value
        self.code = code
        self.family = family
        self.evidence = evidence
        self.column = start if column < 0 else column
        self.columns = columns or (self.column,)
        self.columns_truncated = columns_truncated
        self.line_length = len(line) if line_length < 0 else line_length
        self.process = process
        self.process_api = process_api
        self.related = related
        self.other_name = other_name
        self.other_meaning = other_meaning
        self.other = other
        self.other_check = other_check
        self.kind = kind
        self.symptom = symptom
        self.consequence_of = consequence_of
        self.diagnosis = diagnosis
        self.others_cut = others_cut

    @property
    def is_success(self) -> bool:
        """True for the success code (shown only when asked for)."""
        return self.code is not None and self.code.is_success

    @property
    def is_llm_datadist(self) -> bool:
        """True for an LLM DataDist code (only those make a scan fail)."""
        return self.kind == "code" and self.family == "llm_datadist"

    @property
    def is_failure(self) -> bool:
        """An LLM DataDist code other than success: what sets ``llmstatus scan``'s exit status 1."""
        # The two properties above, spelled out: asked several times of every hit.
        return self.kind == "code" and self.family == "llm_datadist" and (self.code is None or not self.code.is_success)

    @property
    def api(self) -> str | None:
        """The API whose view applies: the process's (``GE(pid,python)``), else the token's form.

        ``python`` for ``LLMStatusCode.X`` and reprs or a Python-only spelling,
        ``cpp`` for numbers and C++-only spellings (C++ code logs numbers);
        None for a bare name both APIs spell alike, and for unknown codes.
        """
        code = self.code
        if code is None:
            return None
        if self.process_api is not None and code.view(self.process_api) is not None:
            return self.process_api
        if "LLMStatusCode" in self.token:
            return "python" if code.python else code.views[0].api
        if self.token.strip("0123456789abcdefABCDEFxX") == "":  # a number, decimal or hex (ffffffff)
            return "cpp" if code.cpp else code.views[0].api
        name = self.token.rsplit(".", 1)[-1].rsplit(":", 1)[-1]
        spelled = [view.api for view in code.views if view.name == name]
        if len(spelled) == 1:  # a spelling only one API uses, or a one-API code
            return spelled[0]
        return None  # both APIs spell it so: the token does not tell


#: Most columns kept per hit (a line can repeat a code millions of times).
MAX_COLUMNS = 100_000


#: Every field of a hit but its line number, in order, read in one call.
_BUT_LINE = attrgetter(*Hit.__slots__[1:])


def astuple_but_line(hit: Hit) -> tuple:
    """``hit``'s fields but the first (``line_no``), in order: ``Hit(n, *fields)`` is the same hit on line ``n``."""
    return _BUT_LINE(hit)
