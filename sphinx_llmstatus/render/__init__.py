"""Plain-text and JSON rendering of status codes and scan hits (no Sphinx, docutils or IPython).

:mod:`.lang` picks the language, :mod:`.text` makes terminal text,
:mod:`.json` makes JSON-ready dicts. Shared by the ``llmstatus`` command and
the ``text/plain`` output of the IPython magic.
"""
