"""Find LLM DataDist status codes in logs (no Sphinx, docutils or IPython).

Public contract, shared by the ``llmstatus scan`` command and the
``%%llmstatus`` cell magic:

* :class:`Hit`: one occurrence (line number, line, span, token, value, code);
* :func:`scan_text` for a string, :func:`scan_stream` for a binary stream
  (constant memory, any line length, invalid UTF-8 replaced);
* :func:`scan_with_context` for ``grep -C`` style groups;
* :func:`sphinx_llmstatus.scan.pipeline.events` for a path (a file, a bundle of
  logs, standard input) as events, the same in this process and in the ``-j N``
  workers of :mod:`sphinx_llmstatus.scan.parallel`; each failure hit carries its
  :class:`~sphinx_llmstatus.scan.diagnosis.Diagnosis` (which cause the lines
  around it prove); :func:`sphinx_llmstatus.scan.pipeline.scan_diagnosed` gives
  the same for a string (a notebook cell).

The recognition rules are documented in :mod:`sphinx_llmstatus.scan.rules`.
"""

from .around import scan_with_context
from .engine import matcher, scan_stream, scan_text
from .hit import Hit
from .rules import Matcher

__all__ = ["Hit", "Matcher", "matcher", "scan_stream", "scan_text", "scan_with_context"]
