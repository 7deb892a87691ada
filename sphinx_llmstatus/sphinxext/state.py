"""The registry as the Sphinx build sees it: packaged data plus ``llmstatus_registry_files``."""

from __future__ import annotations

import os
import re
from typing import TYPE_CHECKING

from ..registry.errors import RegistryError
from ..registry.loader import load_registry
from ..registry.model import Registry
from ..registry.packaged import default_registry
from .config import settings
from .diagnostics import Subtype, warn

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.environment import BuildEnvironment

_CACHE: dict[tuple[tuple[str, float], ...], Registry] = {}


def extra_registry_files(env: BuildEnvironment) -> list[str]:
    """Absolute paths of ``llmstatus_registry_files`` (relative ones are relative to conf.py)."""
    return [os.path.join(env.srcdir, p) for p in settings(env.config).registry_files]


def get_registry(env: BuildEnvironment) -> Registry:
    """The registry for this build, loaded once per set of files and modification times.

    An invalid extra file is reported as a ``llmstatus.registry`` warning that
    names the file, entry and field; the build then uses the packaged registry.
    """
    if not settings(env.config).registry_files:  # the common case, once per mention: keep it cheap
        return default_registry()
    files = extra_registry_files(env)
    key = tuple((f, _mtime(f)) for f in files)
    reg = _CACHE.get(key)
    if reg is None:
        try:
            reg = load_registry(files)
        except RegistryError as exc:
            warn(f"invalid registry file: {exc}; using the packaged registry", Subtype.registry,
                 location=f"{exc.file}:{_line_of(exc)}")
            reg = default_registry()
        _CACHE.clear()
        _CACHE[key] = reg
    return reg


def note_registry_dependency(env: BuildEnvironment) -> None:
    """Rebuild the current document when an extra registry file changes."""
    if not settings(env.config).registry_files:
        return
    for path in extra_registry_files(env):
        env.note_dependency(path)


def doc_lang(env: BuildEnvironment, override: str | None = None) -> str:
    """Registry language for a directive: its ``:lang:``, else the project's."""
    return override or settings(env.config).registry_lang


def _line_of(exc: RegistryError) -> int:
    """Best line number for a registry error: the parser's, else the entry's first mention."""
    found = re.search(r"at line (\d+)", exc.reason)
    if found:
        return int(found.group(1))
    if exc.entry:
        try:
            with open(exc.file, encoding="utf-8") as fh:
                for number, line in enumerate(fh, 1):
                    if exc.entry in line:
                        return number
        except OSError:
            pass
    return 1


def validate_registry(app: Sphinx) -> None:
    """Load the registry once at build start, so a bad file is reported even if no page uses it."""
    get_registry(app.env)


def _mtime(path: str) -> float:
    try:
        return os.stat(path).st_mtime
    except OSError:
        return -1.0
