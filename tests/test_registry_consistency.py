"""The packaged registry keeps its own style rules (sphinx_llmstatus/registry/consistency.py).

A user's registry file is never refused for them (tests/test_registry_loader.py); the
packaged data must pass every one.
"""

from __future__ import annotations

from sphinx_llmstatus.registry import default_registry
from sphinx_llmstatus.registry.consistency import problems


def test_packaged_registry_has_no_style_problems():
    assert problems(default_registry()) == []
