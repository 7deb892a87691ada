"""Where the command writes, and in which language and colours."""

from __future__ import annotations

import os
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from .plain import Args


def prepare_streams(fmt: str = "text") -> None:
    """Make stdout/stderr unable to fail on characters the terminal encoding lacks; JSON is
    written in UTF-8 whatever the locale (RFC 8259), so that it stays exact."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            if stream is sys.stdout and fmt == "json":
                reconfigure(encoding="utf-8", errors="strict")
            else:
                reconfigure(errors="replace")


def use_color(args: Args) -> bool:
    """``--color always|never``, else colour only on a terminal with ``NO_COLOR`` unset or empty."""
    if args.color != "auto":
        return args.color == "always"
    return not os.environ.get("NO_COLOR") and sys.stdout is not None and sys.stdout.isatty()


def lang_of(args: Args) -> str:
    if args.lang:
        return args.lang
    from ..render.lang import default_lang  # the one resolver of every face

    return default_lang()


class OutputError(Exception):
    """Writing to standard output failed (disk full, closed): not the input's fault."""


def write(stream, text: str) -> None:
    """``stream.write(text)``, with write failures (other than a closed pipe) as :class:`OutputError`."""
    try:
        stream.write(text)
    except BrokenPipeError:
        raise
    except OSError as exc:
        raise OutputError(exc.strerror or str(exc)) from None


class Pieces:
    """Text for a stream, written to its descriptor as bytes with Ctrl-C held back, a pipe's worth
    (``PIPE_BUF``) at a time once the descriptor takes more (so no write waits with Ctrl-C held):
    Ctrl-C comes between two writes, and what was not written stays, to go first next time. A
    buffered write cut by Ctrl-C (a reader that reads nothing, as ``less`` while one looks) lost
    the rest of its 64 KiB: a tester's JSON line cut in two. Where the stream has no descriptor
    (a test's capture) or the system no ``poll``, written as :func:`write` does."""

    def __init__(self, stream) -> None:
        import select
        import stat

        self._stream, self._rest = stream, bytearray()
        self._fd: int | None = None
        if not hasattr(select, "poll"):  # (Windows: its text streams also translate line ends)
            return
        try:
            self._fd = stream.fileno()
            regular = stat.S_ISREG(os.fstat(self._fd).st_mode)
        except (OSError, ValueError, AttributeError):  # io.UnsupportedOperation is both
            self._fd = None
            return
        self._step = 1 << 30 if regular else select.PIPE_BUF  # a file's write is never cut
        self._ready = None if regular else select.poll()
        if self._ready is not None:
            self._ready.register(self._fd, select.POLLOUT)
        self._pipe = 0 if regular else _pipe_size(self._fd)

    def write(self, text: str) -> None:
        """Write ``text`` after what is left of the last."""
        self.keep(text)
        self.flush()

    def keep(self, text: str) -> None:
        """Take ``text`` to write after what is left, writing nothing yet (what is taken with
        Ctrl-C held back never waits for the reader: :meth:`flush` writes it)."""
        if self._fd is None:
            write(self._stream, text)
            return
        self._rest += text.encode(self._stream.encoding, self._stream.errors or "strict")

    def flush(self) -> None:
        """Write what is left."""
        from ..scan.interrupt import held_back

        if self._rest:
            self._stream.flush()  # what went through the stream before goes first
        while self._rest:
            if self._ready is not None:
                self._ready.poll()  # Ctrl-C while the reader reads nothing: the rest stays
            with held_back():
                try:
                    step = max(self._step, _room(self._fd, self._pipe)) if self._pipe else self._step  # type: ignore[arg-type]
                    n = os.write(self._fd, self._rest[:step])  # type: ignore[arg-type]
                except BrokenPipeError:
                    raise
                except OSError as exc:
                    raise OutputError(exc.strerror or str(exc)) from None
                del self._rest[:n]


#: Bytes of a pipe's slot (a page): what a pipe holds is counted in slots.
_SLOT = 4096


def _pipe_size(fd: int) -> int:
    """The bytes the pipe ``fd`` holds (0: not a pipe, or a system that does not tell)."""
    try:
        import fcntl

        return fcntl.fcntl(fd, fcntl.F_GETPIPE_SZ)
    except (ImportError, AttributeError, OSError):
        return 0


def _room(fd: int, size: int) -> int:
    """Bytes the pipe ``fd`` of ``size`` bytes takes now without waiting (0: unknown). It holds
    ``size / 4096`` slots; the bytes unread fill at most one more than their pages, and the
    slot written last may be full. A write of 4,096 bytes a time (``PIPE_BUF``) made a million
    hits 55,000 writes, each with its ``poll``: 2.4 s of system time for 217 MB."""
    try:
        import fcntl
        import termios

        unread = int.from_bytes(fcntl.ioctl(fd, termios.FIONREAD, b"\0\0\0\0"), sys.byteorder)
    except (ImportError, AttributeError, OSError):
        return 0
    return max(0, size // _SLOT - unread // _SLOT - 2) * _SLOT


def error(message: str) -> None:
    """One line on stderr, prefixed with the program name; nothing when stderr is closed (``2>&-``).

    Control characters and undecodable bytes in ``message`` are escaped (``\\x1b``, ``\\xff``)."""
    if sys.stderr is None:
        return
    if not message.isprintable():  # a file name or registry path with control characters or bad bytes
        message = shown_path(message)
    try:
        sys.stderr.write(f"llmstatus: {message}\n")
    except OSError:  # stderr is a closed pipe or a full disk: the exit status still tells
        pass


def shown_path(path: str) -> str:
    """A file name for the terminal and JSON: undecodable bytes and control characters escaped."""
    from ..render.text import terminal_safe

    return terminal_safe(path)
