"""The cache of compiled Hyperscan databases, safe in a home other users or programs can reach.

Compiling the scanner's patterns takes about 20 ms; loading them from
``$XDG_CACHE_HOME/sphinx_llmstatus`` (or ``~/.cache/sphinx_llmstatus``) well
under 1 ms. A cache is input from elsewhere, so it is used only when nobody
else could have written it, and only after it proves it finds what it should:

- the directory must be a real directory (not a symlink) owned by this user
  and writable by nobody else; it is created with mode 0700;
- a file is opened without following a symlink and without blocking (a FIFO
  planted at its name is refused, never waited on), and must be a regular
  file of this user's, writable by nobody else, and at most :data:`MAX_BYTES`;
- it holds the patterns it was compiled from, compared byte for byte, and the
  loaded database must find, in a probe line made for each pattern, that
  pattern (:func:`probe`): a database compiled from other patterns is compiled
  again;
- it is written to a new file of a random name (``O_CREAT | O_EXCL |
  O_NOFOLLOW``, mode 0600) and renamed over the old one, so a symlink planted at
  the temporary name is never written through and readers see a whole file or
  none.

Any problem means compiling, never an error.
"""

from __future__ import annotations

import os
import re
import stat
import zlib
from typing import Any

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

MAGIC = b"sphinx_llmstatus hyperscan prefilter 1"
#: Largest cache file read (the scanner's databases are well under 1 MiB).
MAX_BYTES = 1 << 24


def directory() -> str | None:
    """The cache directory, created if missing; None when it is not safe to use (or to make)."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    if not os.path.isabs(base):
        return None
    path = os.path.join(base, "sphinx_llmstatus")
    try:
        os.makedirs(path, mode=0o700, exist_ok=True)
        st = os.lstat(path)
    except OSError:
        return None
    return path if stat.S_ISDIR(st.st_mode) and _mine(st) else None


def _mine(st: os.stat_result) -> bool:
    """Owned by this user and writable by nobody else."""
    return st.st_uid == os.geteuid() and not st.st_mode & (stat.S_IWGRP | stat.S_IWOTH)


def read(path: str) -> bytes | None:
    """The bytes of the cache file at ``path``, or None when it is missing or not trustworthy."""
    flags = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags)
    except OSError:
        return None
    try:
        st = os.fstat(fd)
        if not (stat.S_ISREG(st.st_mode) and _mine(st) and st.st_size <= MAX_BYTES):
            return None
        with os.fdopen(os.dup(fd), "rb") as fh:
            return fh.read(MAX_BYTES)
    except OSError:
        return None
    finally:
        os.close(fd)


def write(path: str, data: bytes) -> None:
    """Write ``data`` to ``path`` through a new file of a random name, then rename it (best effort)."""
    tmp = os.path.join(os.path.dirname(path), f".{os.path.basename(path)}.{os.urandom(8).hex()}.tmp")
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(tmp, flags, 0o600)
    except OSError:
        return
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.replace(tmp, path)
    except OSError:
        try:
            os.unlink(tmp)
        except OSError:
            pass


def path_for(directory: str, key: bytes) -> str:
    return os.path.join(directory, f"prefilter-{zlib.crc32(key):08x}.hsdb")


#: Probe texts the code that made a pattern vouches for (a test checks each with :mod:`re`): a
#: long pattern (a field name's trie, 10 KB) then costs no parse and no compile at each start.
_VOUCHED: dict[bytes, bytes] = {}


def vouch(pattern: bytes, text: bytes) -> None:
    """Let :func:`probe` give ``text`` for ``pattern``, which its maker knows ``pattern`` matches."""
    _VOUCHED[pattern] = text


def probe(pattern: bytes) -> bytes | None:
    """A short text ``pattern`` matches (checked with :mod:`re`, or vouched for), or None when none
    is made.

    Reads the pattern with the parser of :mod:`re` (literals, classes, repeats,
    groups, alternation: what the scanner's patterns use) and takes the first way
    through it: each repeat its least count, each class its first member.
    """
    vouched = _VOUCHED.get(pattern)
    if vouched is not None:
        return vouched
    literal = _UNESCAPE.sub(rb"\1", pattern)
    if re.escape(literal) == pattern:  # an escaped literal (names, watched words): itself, no parse
        return literal
    try:
        from re import _parser  # the parser behind re.compile: the pattern's own reading
    except ImportError:  # pragma: no cover - an interpreter without it skips the check
        return None
    try:
        text = bytes(_walk(_parser.parse(pattern.decode("latin-1")), _parser))
    except (ValueError, TypeError, re.error, RecursionError):
        return None
    return text if re.search(pattern, text) else None


_UNESCAPE = re.compile(rb"\\(.)", re.DOTALL)
# Characters tried, in order, for a negated class (``[^A-Za-z0-9_]``).
_OTHERS = b" -:=,;()[]/x0"


def _walk(items: Any, p: Any) -> list[int]:
    out: list[int] = []
    for op, arg in items:
        if op is p.LITERAL:
            out.append(arg)
        elif op is p.IN:
            out.append(_member(arg, p))
        elif op in (p.MAX_REPEAT, p.MIN_REPEAT):
            low, _high, inner = arg
            out += _walk(inner, p) * low
        elif op is p.SUBPATTERN:
            out += _walk(arg[-1], p)
        elif op is p.BRANCH:
            out += _walk(arg[1][0], p)
        elif op is not p.AT:  # anchors take no character; anything else is not made here
            raise ValueError(f"no probe for {op}")
    return out


def _member(items: Any, p: Any) -> int:
    """A character of the class ``items``."""
    if items and items[0][0] is p.NEGATE:
        return next(c for c in _OTHERS if not _in(c, items[1:], p))
    op, arg = items[0]
    if op is p.LITERAL:
        return int(arg)
    if op is p.RANGE:
        return int(arg[0])
    raise ValueError(f"no probe for {op}")


def _in(c: int, items: Any, p: Any) -> bool:
    return any((op is p.LITERAL and arg == c) or (op is p.RANGE and arg[0] <= c <= arg[1]) for op, arg in items)


def proves(scan_ids: Callable[[bytes], set[int]], patterns: Sequence[bytes],
           ids: Sequence[int] | None = None) -> bool:
    """True when a database finds each pattern in that pattern's probe (``scan_ids(text)`` gives the
    ids it matched; a pattern's id is its index, or its one of ``ids``): one made from other
    patterns does not."""
    for i, pattern in enumerate(patterns):
        text = probe(pattern)
        if text is not None and (i if ids is None else ids[i]) not in scan_ids(text):
            return False
    return True
