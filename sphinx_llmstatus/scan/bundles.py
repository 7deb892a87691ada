"""The logs inside an input: a plain log is one, a tar or zip bundle is each of its files.

``asys collect``, a ``kubectl logs`` dump or a tarball of ``~/ascend/log``
arrives as one archive, often compressed, sometimes holding archives itself.
:func:`inputs` yields every log in it as an :class:`Input` named by its
provenance, ``bundle.tar.gz{decode-1/logs.zip{plog/plog-77.log}}`` (the archive,
then the member's path in braces, nested), streaming tar members with
:mod:`tarfile`'s stream mode and zip members with :mod:`zipfile` (a zip needs
to seek: one inside another archive is held in a spooled temporary file).
Limits keep a hostile archive bounded: :data:`MAX_DEPTH` archive levels,
:data:`MAX_MEMBERS` members per input, and the expansion ratio of
:class:`~.decompress.Budget`. A member that cannot be read is an input with
``error`` set; a damaged one is scanned up to the damage, which lands in its
``damage`` list as it is read.
"""

from __future__ import annotations

import io
import os
import select
import stat
import sys
import time
from collections.abc import Callable, Iterator
from typing import BinaryIO

from .decompress import Budget, Counted, Salvaged, detect
from .encoding import looked_at, utf8_stream, waitless
from .reading import widen_pipe
from .sources import decompressed

#: Archives inside archives opened, counting the outermost (``a.tar{b.zip{c.tar{log}}}``: 3).
MAX_DEPTH = 3
#: Members read from one input, all levels together.
MAX_MEMBERS = 100_000
#: Bytes read from a tar member at a time: tarfile drops a read it cannot finish, so a cut
#: member loses at most this much before the cut.
TAR_STEP = 65536
#: Bytes tarfile's stream reader takes from the archive at a time (its default, 10 KiB, costs a
#: Python call per 10 KiB of every member).
TAR_BUFFER = 65536
#: A zip inside another archive is held in memory up to this size, then in a temporary file.
SPOOL_MEMORY = 32 << 20


class Input:
    """One log to scan: ``name`` its provenance, ``stream`` its text as UTF-8 bytes (None with
    ``error``), ``damage`` what went wrong while reading it (filled as it is read), ``mtime``
    the time its archive or file system gives it (seconds since the epoch), ``parts`` the outer
    path and each member's path inside it (``name`` is :func:`provenance` of them)."""

    # (A plain class, as the scan's other records are named tuples: no dataclasses at start.)
    __slots__ = ("name", "stream", "damage", "error", "mtime", "parts", "waits")

    def __init__(self, name: str, stream: BinaryIO | None, damage: list[str] | None = None, *,
                 error: str | None = None, mtime: float | None = None, parts: tuple[str, ...] = ()) -> None:
        self.name, self.stream, self.error, self.mtime, self.parts = name, stream, error, mtime, parts
        self.damage: list[str] = [] if damage is None else damage
        #: Standard input through a pipe, socket or terminal: whether input comes within so many
        #: milliseconds (None: a file's reads never wait for a writer).
        self.waits: Callable[[int], bool] | None = None


class _Walk:
    """State shared by the levels of one input: its byte budget and member count."""

    __slots__ = ("budget", "long", "members")

    def __init__(self, budget: Budget, long: bool) -> None:
        self.budget, self.long, self.members = budget, long, 0


def provenance(parts: tuple[str, ...]) -> str:
    """The name of a file inside archives: the outer path, then each member's path in braces,
    nested (``a.tar.gz``, ``x/b.zip``, ``c.log`` -> ``a.tar.gz{x/b.zip{c.log}}``). Braces and
    backslashes in member paths are escaped with a backslash, so a member named ``a{b}`` is not
    read as nesting."""
    if len(parts) == 1:
        return parts[0]
    members = [p.replace("\\", "\\\\").replace("{", "\\{").replace("}", "\\}") for p in parts[1:]]
    return parts[0] + "".join("{" + m for m in members) + "}" * len(members)


def kind_of(head: bytes) -> str | None:
    """``tar``, ``zip`` or None for the first 512 bytes of a (decompressed) stream."""
    if head.startswith((b"PK\x03\x04", b"PK\x05\x06")):
        return "zip"
    if len(head) >= 262 and head[257:262] == b"ustar":
        return "tar"
    return None


def inputs(path: str, long: bool = False, stdin: BinaryIO | None = None,
           on_read: Callable[[int], None] | None = None) -> Iterator[Input]:
    """Every log in the file ``path`` (``-``: standard input), in the order it holds them.

    Raises OSError when ``path`` cannot be opened; each yielded stream must be
    read (or left) before the next is asked for, as tar members come in order.
    ``on_read`` is called with the bytes of ``path`` read so far, as they are read.
    """
    walk = _Walk(Budget(), long)
    opened: BinaryIO | None = None
    if path == "-":
        raw: BinaryIO = _Ends(stdin if stdin is not None else sys.stdin.buffer)  # type: ignore[assignment]
        mtime = None
    else:
        raw = opened = open(path, "rb")  # noqa: SIM115 (closed below)
        mtime = _mtime(raw)
        if not _is_regular(raw):  # a named pipe, <(...), a device: read as standard input is, as it comes
            raw = _Ends(opened)  # type: ignore[assignment]
    stream: BinaryIO | None = None
    try:
        stream = _opened(raw, path, walk, on_read)
        for log in _level(stream, (path,), walk, mtime):
            log.waits = getattr(raw, "waits", None)
            yield log
    finally:
        if stream is not None:
            stream.close()
        if opened is not None:
            opened.close()


def _is_regular(raw: BinaryIO) -> bool:
    """Whether the open file ``raw`` is a regular file (its reads never wait for a writer)."""
    try:
        return stat.S_ISREG(os.fstat(raw.fileno()).st_mode)
    except (OSError, ValueError):
        return True  # (no descriptor: read as it is)


def _opened(raw: BinaryIO, path: str, walk: _Walk, on_read: Callable[[int], None] | None) -> BinaryIO:
    """The file's bytes; for a big compressed file on disk of a slow format, its decompressed
    bytes from a child process (:mod:`.unpack`), which decodes while this process scans."""
    from .unpack import CHILD_MIN, ChildDecoded, decodes_apart

    if path != "-":
        fd = raw.fileno()
        st = os.fstat(fd)
        # Only a file on disk is read in place (a named pipe or ``<(...)`` cannot be: pread fails).
        fmt = detect(os.pread(fd, 8, 0)) if stat.S_ISREG(st.st_mode) and st.st_size >= CHILD_MIN else None
        if fmt is not None and decodes_apart(fmt):
            damage: list[str] = []
            return _Reported(ChildDecoded(fd, fmt, damage, walk.long, on_read), damage)
    return io.BufferedReader(Counted(raw, walk.budget, on_read))


def _mtime(raw: BinaryIO) -> float | None:
    try:
        return os.fstat(raw.fileno()).st_mtime
    except (OSError, ValueError, io.UnsupportedOperation):
        return None


def _level(stream: BinaryIO, parts: tuple[str, ...], walk: _Walk, mtime: float | None) -> Iterator[Input]:
    """The logs of the stream of the file ``parts`` (its path, then its members' paths): itself, or
    its members."""
    name, depth = provenance(parts), len(parts) - 1
    damage: list[str] | None = getattr(stream, "member_damage", None)  # filled as the member is read
    if damage is None:
        damage = []
    text = decompressed(stream, damage, walk.budget, walk.long)
    head, text = looked_at(text, 512)
    kind = kind_of(head)
    if kind is None:
        yield Input(name, utf8_stream(text), damage, mtime=mtime, parts=parts)
        return
    if depth >= MAX_DEPTH:
        yield Input(name, None, damage, error=f"a {kind} archive nested more than {MAX_DEPTH} levels deep: not opened",
                    parts=parts)
        return
    members = _tar_members(text, damage) if kind == "tar" else _zip_members(text, damage, walk.budget)
    held = 0
    for member_name, member, member_mtime in members:
        walk.members += 1
        if walk.members > MAX_MEMBERS:
            damage.append(f"holds more than {MAX_MEMBERS:,} files: the rest were not read")
            break
        held += 1
        yield from _level(member, (*parts, member_name), walk, member_mtime)
    if not held and not damage:  # only directories or links: say so, as for an empty directory
        damage.append(f"the {kind} archive holds no file to scan")
    if damage:  # the archive's own damage (cut inside its index or headers), after its members
        yield Input(name, None, damage=[], error="; ".join(damage), parts=parts)


def _tar_members(stream: BinaryIO, damage: list[str]) -> Iterator[tuple[str, BinaryIO, float]]:
    """``(path, stream, mtime)`` of each regular file of a tar stream, read in order."""
    import tarfile  # here: most scans read no archive, and tarfile and zipfile take a while to import

    try:
        archive = tarfile.open(fileobj=stream, mode="r|", bufsize=TAR_BUFFER)  # noqa: SIM115 (a stream: nothing to close)
        for info in archive:
            if not info.isfile():
                continue
            body = archive.extractfile(info)
            if body is None:
                continue
            member_damage: list[str] = []
            salvaged = Salvaged(body, member_damage, (tarfile.TarError, EOFError, OSError),  # type: ignore[arg-type]
                                lambda exc: f"the archive ends inside this file ({exc})", step=TAR_STEP)
            reader = _Reported(salvaged, member_damage, 1 << 22)
            yield info.name, reader, float(info.mtime)
    except (tarfile.TarError, EOFError, OSError) as exc:
        damage.append(f"tar data is cut or corrupt after the files above ({exc})")


def _zip_members(stream: BinaryIO, damage: list[str], budget: Budget) -> Iterator[tuple[str, BinaryIO, float]]:
    """``(path, stream, mtime)`` of each file of a zip, from its central directory."""
    import zipfile

    seekable = _seekable(stream)
    try:
        archive = zipfile.ZipFile(seekable)
    except (zipfile.BadZipFile, OSError, EOFError) as exc:
        damage.append(f"zip data is cut or corrupt ({exc}): its files cannot be listed")
        return
    # What reading a member's data raises when it is damaged: zipfile's own errors and those of
    # the decompressors it calls (deflate, bzip2, lzma).
    import lzma
    import zlib

    errors = (zipfile.BadZipFile, EOFError, OSError, ValueError, zlib.error, lzma.LZMAError,
              NotImplementedError, RuntimeError)
    with archive:
        for info in archive.infolist():
            if info.is_dir():
                continue
            mtime = time.mktime((*info.date_time, 0, 0, -1))
            member_damage: list[str] = []
            try:
                body = archive.open(info)
            except (zipfile.BadZipFile, NotImplementedError, OSError, RuntimeError) as exc:
                yield info.filename, _failed(str(exc)), mtime
                continue
            salvaged = Salvaged(body, member_damage, errors,  # type: ignore[arg-type]
                                lambda exc: f"zip data of this file is cut or corrupt ({exc})", budget)
            yield info.filename, _Reported(salvaged, member_damage, 1 << 22), mtime


def _seekable(stream: BinaryIO) -> BinaryIO:
    """``stream`` when it can seek (a zip file on disk), else a spooled copy of it."""
    try:
        if stream.seekable():
            stream.seek(0, os.SEEK_CUR)
            return stream
    except (OSError, ValueError):
        pass
    import tempfile

    spool = tempfile.SpooledTemporaryFile(max_size=SPOOL_MEMORY)  # noqa: SIM115 (closed with the zip)
    while chunk := stream.read(1 << 20):
        spool.write(chunk)
    spool.seek(0)
    return spool  # type: ignore[return-value]


class _Ends(io.RawIOBase):
    """Standard input, or a named pipe given as a path, whose end stays the end: a terminal gives
    one empty read per Ctrl-D, and the formats are told apart by looking ahead, which would ask
    the user for more.

    A pipe gives at most what it holds (64 KiB) a read: a read goes on while more is waiting, so
    a fast writer's input comes in blocks as large as a file's (each block costs the scan a
    pass), and a slow writer's (``tail -f``) still comes as soon as it is written."""

    def __init__(self, inner: BinaryIO) -> None:
        super().__init__()
        self._inner, self._ended = inner, False
        self._read = waitless(inner)
        #: Whether input comes within so many milliseconds (None: reads never wait for a writer).
        self.waits = _waits(inner)

    def readable(self) -> bool:
        return True

    def fileno(self) -> int:
        return self._inner.fileno()

    def readinto(self, buffer: memoryview) -> int:  # type: ignore[override]
        if self._ended:
            return 0
        n = self._read(buffer)
        while n and n < len(buffer) and self.waits is not None and self.waits(0):
            more = self._read(buffer[n:])
            if not more:  # the end (a terminal's Ctrl-D is read once): the next call says so
                self._ended = True
                return n
            n += more
        self._ended = n == 0
        return n


def _waits(stream: BinaryIO) -> Callable[[int], bool] | None:
    """For a pipe, socket or terminal: whether a read would return within so many milliseconds
    (data or the end waiting); None for a file, whose reads never wait for a writer, or a stream
    of no descriptor.
    The descriptor is made ready: a pipe widened, and blocking where another program left it
    non-blocking (a buffered read of no data would return nothing, as at the end)."""
    try:
        fd = stream.fileno()
        mode = os.fstat(fd).st_mode
    except (OSError, ValueError, AttributeError):  # io.UnsupportedOperation is both
        return None
    if stat.S_ISREG(mode):
        return None
    if not hasattr(select, "poll"):  # Windows
        return None
    if not os.get_blocking(fd):
        os.set_blocking(fd, True)
    if stat.S_ISFIFO(mode):
        widen_pipe(fd)
    poller = select.poll()
    poller.register(fd, select.POLLIN)
    return lambda ms: bool(poller.poll(ms))


class _Reported(io.BufferedReader):
    """A member's stream that carries its damage list, for :func:`_level` to take over."""

    def __init__(self, raw: io.RawIOBase, damage: list[str], size: int = io.DEFAULT_BUFFER_SIZE) -> None:
        super().__init__(raw, size)
        self.member_damage = damage


def _failed(why: str) -> BinaryIO:
    """A member that could not be opened: no bytes, and why as its damage."""
    return _Reported(io.BytesIO(b""), [f"cannot be opened ({why})"])  # type: ignore[arg-type]
