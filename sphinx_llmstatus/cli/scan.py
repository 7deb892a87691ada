"""``llmstatus scan``: scan each log (bundles too), print hits, then the deployment's report.

Paths are scanned in order, in this process or by ``-j N`` workers
(:mod:`sphinx_llmstatus.scan.parallel`): both replay the same events
(:mod:`sphinx_llmstatus.scan.pipeline`), so the output is the same. Hits go
out as they are found, through the output format; LLM DataDist failures decide
the exit status, other layers' numbers (GE, ACL runtime, HCCL, HIXL) never
do. The report (:class:`sphinx_llmstatus.scan.report.Report`) opens with the
root-cause candidate and the first failure per process in time order, with
host, role and the other side of each link. ``--summary`` prints the report
only. Unreadable paths and damaged files are named on stderr (exit 2), after
the hits read before the damage. Ctrl-C ends with the report of what was
scanned (exit 130).
"""

from __future__ import annotations

import os
import stat
import sys
from contextlib import contextmanager, suppress

from ..registry.model import Registry
from ..scan.events import Closed, Event, Failed, Opened
from ..scan.interrupt import after_interrupt, deferred, held_back, relay
from ..scan.pipeline import ScanOptions
from ..scan.report import Place, Report
from ..scan.sources import is_regular, walk
from ..scan.timeline import Times, host_of, role_of_path
from .formats import STDIN_LABEL, shown_name
from .output import Pieces, error, shown_path

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterator, Sequence

    from ..scan.events import Found
    from ..scan.hit import Hit
    from .formats import Format
    from .plain import Args
    from .progress import Progress

#: Exit status after Ctrl-C (128 + SIGINT), as shells report it.
EXIT_INTERRUPTED = 130
#: Characters of hits held for one write to standard output when only files are scanned.
HELD_OUTPUT = 1 << 16
#: What a :class:`~..scan.events.Found` leaves to write (:meth:`_Run._take`): its hits.
_HITS = (None,)


class _Run:
    """One scan's state: the report, the output format, what went wrong."""

    def __init__(self, args: Args, registry: Registry, fmt: Format, roots: dict[str, str | None],
                 progress: Progress) -> None:
        self.report = Report(times=Times(registry))
        self.fmt, self.args, self.roots = fmt, args, roots
        self.summary_only = getattr(args, "summary", False)
        self.unreadable = False
        self.told = False  # whether the events replayed were told of Ctrl-C
        self.scanned = 0
        self.found = False
        self.ended = False  # whether the report was taken to write
        self._labels: dict[str, str] = {}
        self.progress = progress
        # Hits from files are written in pieces of HELD_OUTPUT, as grep writes to a pipe: a write a
        # hit is a system call each where Python's output is unbuffered (PYTHONUNBUFFERED=1, as
        # container images set it), 10 us a hit. A stream's hits (standard input, a named pipe)
        # and a terminal's are written as they come: they must show while the writer pauses.
        self._held: list[str] | None = None if sys.stdout is None or sys.stdout.isatty() else []
        self._held_size = 0
        self._pieces: Pieces | None = None  # made at the first piece: stdout may change till then

    def hold_output(self, paths: list[str]) -> None:
        """Write as hits come when one of ``paths`` is a stream."""
        if any(map(_is_stream, paths)):
            self._held = None

    def flush_output(self) -> None:
        """Write the hits held and what Ctrl-C left (whole, whenever Ctrl-C comes: they are
        handed to :class:`~.output.Pieces` with it held back)."""
        if self._held:
            with held_back():
                self._out().keep("".join(self._held))
                self._held.clear()
                self._held_size = 0
        if self._pieces is not None:
            with self.progress.paused():
                self._pieces.flush()

    def end(self, interrupted: bool) -> None:
        """Write the report (its text taken once, with Ctrl-C held back), unless nothing was read
        whole: "no code found" would mislead."""
        if not self.ended and (self.scanned or self.found or interrupted):
            with held_back():
                self._out().keep(self.fmt.scan_end(self.report, self.summary_only))
                self.ended = True
        self.flush_output()

    def _out(self) -> Pieces:
        """Standard output, written in pieces (made at the first: stdout may change till then)."""
        if self._pieces is None:
            self._pieces = Pieces(sys.stdout)
        return self._pieces

    def _keep(self, text: str) -> None:
        """Take ``text`` to write (Ctrl-C held back): files' hits are held for the next piece of
        :data:`HELD_OUTPUT`; a stream's and a terminal's go to the pieces to write now."""
        if self._held is None:
            self._out().keep(text)
            return
        self._held.append(text)
        self._held_size += len(text)

    def replay(self, path: str, events: Iterator[Event]) -> None:
        """Take one path's events (each whole: counted, laid out; :func:`~..scan.interrupt.relay`
        hands it over with Ctrl-C held back), then write what each leaves to write."""
        taken = relay(events, lambda event: self._take(path, event))
        try:
            for after in taken:
                self._write(after)
        except KeyboardInterrupt:  # while writing: what the events still give (:mod:`..scan.interrupt`)
            self.told = True  # (once: told again, each layer would give its rest again)
            for after in after_interrupt(taken):
                self._write(after)
            raise

    def _take(self, path: str, event: Event) -> Sequence[tuple[str, str] | None]:
        """Take ``event``; what it leaves to write: the hits laid out (None), what could not be
        read (name, reason)."""
        from ..scan.events import Found

        if isinstance(event, Found):
            self._found(event)
            return _HITS
        if isinstance(event, Opened):
            self._opened(path, event)
        elif isinstance(event, Closed):
            return self._closed(event)
        elif isinstance(event, Failed):
            return [(event.name, event.reason)]
        return ()

    def _write(self, after: tuple[str, str] | None) -> None:
        """Write what an event left: the hits held when due (a stream's and a terminal's, now), or
        the name of what could not be read."""
        if after is not None:
            self._cannot_read(*after)
        elif self._held is None or self._held_size >= HELD_OUTPUT:
            self.flush_output()

    def _label(self, name: str) -> str:
        """How ``name`` is shown: standard input as the formats name it, a path escaped."""
        shown = self._labels.get(name)
        if shown is None:
            shown = self._labels[name] = shown_name(name) or STDIN_LABEL
        return shown

    def _opened(self, path: str, event: Opened) -> None:
        # --host names the node whose logs these are (a per-node scan for merge): it wins.
        root = self.roots.get(path)
        several = len({r for r in self.roots.values() if r is not None}) > 1
        host = getattr(self.args, "host", None) or host_of(event.parts or (event.name,), root, several)
        role = role_of_path(host or "") or role_of_path(event.name)
        # Processes are told apart by host and pid within one directory given: two nodes' trees
        # scanned together may reuse a pid.
        self.report.places[self._key(event.name)] = Place(host, role, event.mtime, group=f"{root or ''}\0{host}")

    def _key(self, name: str) -> str:
        return "-" if name == "-" else self._label(name)

    def _found(self, event: Found) -> None:
        """Count and lay out the hits of ``event`` (up to :data:`~..scan.pipeline.BATCH`, with
        Ctrl-C held back: none may be lost or counted twice), the text kept to write after."""
        self.found = True
        marked = self.report.triage(self._key(event.name), event.hits)
        if self.summary_only:
            return
        file = None if event.name == "-" else self._label(event.name)  # None: each format names stdin
        # A worker's rendering holds for hits the report did not mark (scan.pipeline.Found.rendered).
        rendered = [line if hit.consequence_of is None else None
                    for hit, line in zip(marked, event.rendered)] if event.rendered else ()
        self._keep(self._laid_out(event, marked, file, rendered))

    def _laid_out(self, event: Found, marked: list[Hit], file: str | None, rendered: list[str | None] | tuple) -> str:
        """The output of ``event``'s hits (``marked``: as the report marked them): with ``-C``, a
        group a line, each with its lines around."""
        if event.groups:
            return self.fmt.scan_groups(event.groups, marked, file)
        return self.fmt.scan_hits(event.before, marked, event.after, file, bool(self.args.context), rendered)

    def _closed(self, event: Closed) -> list[tuple[str, str]]:
        """Note a log read to its end or to its damage; what could not be read in it."""
        self.report.note_clues(self._key(event.name), event.clues)
        if event.error is None:
            self.scanned += 1
        return [(event.name, problem) for problem in (*event.damage, *([event.error] if event.error else []))]

    def _cannot_read(self, name: str, reason: str) -> None:
        self.flush_output()  # the hits read before it first, as written without holding
        with self.progress.paused(stderr=True):  # the message on its own line, not after the bar
            error(f"cannot read {self._label(name)}: {reason}")
        self.unreadable = True


def scan_files(files: list[str], args: Args, registry: Registry, fmt: Format) -> int:
    """Scan ``files`` (directories too with ``-r``) in order, writing hits through ``fmt``;
    return 130 after Ctrl-C, 2 if something was unreadable, else 1 if an LLM DataDist failure
    was found, else 0."""
    from .progress import Progress

    paths, roots = [], {}
    walk_ok = True
    for walked in walk(files, getattr(args, "recursive", False), _output_file()):
        if walked.error is not None:
            error(f"cannot read {shown_path(walked.path)}: {walked.error}")
            walk_ok = False
            continue
        paths.append(walked.path)
        roots[walked.path] = walked.root
    opts = ScanOptions(context=args.context, include_success=args.all, long=getattr(args, "long", False),
                       render=None if args.context or getattr(args, "summary", False) else fmt.prerender())
    _freeze(registry)
    if "-" in paths and sys.stdin is not None and sys.stdin.isatty():
        error("reading the log from standard input (end it with Ctrl-D; give a FILE to scan a file)")
    interrupted = False
    with _told_on_ctrl_c():
        with Progress(paths, enabled=not getattr(args, "no_progress", False)) as progress:
            run = _Run(args, registry, fmt, roots, progress)
            run.unreadable = not walk_ok
            run.hold_output(paths)
            source = None
            try:
                for source in _sources(paths, opts, args, registry, progress):
                    run.replay(*source)
                    progress.done(source[0])
            except KeyboardInterrupt:
                interrupted = True
                if source is not None and not run.told:  # Ctrl-C between two paths' events
                    try:
                        run.replay(source[0], after_interrupt(source[1]))
                    except KeyboardInterrupt:  # a second Ctrl-C: the report of what was replayed, now
                        pass
            finally:
                interrupted = _whole(run.flush_output) or interrupted
        # (after the progress bar's last line)
        interrupted = _whole(lambda: run.end(interrupted)) or interrupted
    if interrupted:
        error(f"interrupted: the report covers what was read before Ctrl-C ({run.scanned} file(s) whole)")
        return EXIT_INTERRUPTED
    return 2 if run.unreadable else 1 if run.report.failures else 0


def _whole(step: Callable[[], None]) -> bool:
    """Do ``step`` (the writing of what is left, which resumes where Ctrl-C cut it), again if
    Ctrl-C cut it; whether Ctrl-C came meanwhile. What is left is written all the same: Ctrl-C
    again is the report now, and this is it. (A Ctrl-C Python handles late, as where the system
    gave SIGINT to another thread, comes here too: a test's report was lost so.)"""
    try:
        step()
    except KeyboardInterrupt:
        with suppress(KeyboardInterrupt):
            step()
        return True
    return False


def _freeze(registry: Registry) -> None:
    """Build the scanner, then leave the registry's and the scanner's objects (they live as long
    as the command) out of the garbage collector's passes: a full pass walked them all, a few
    dozen times in a log of a million hits (about a second of it)."""
    import gc

    from ..scan.engine import scanner

    scanner(registry)
    gc.freeze()


#: Said on stderr at the first Ctrl-C: the lines read ahead are still scanned (on a log dense with
#: codes, seconds: a tester waited up to 31 s without a word), and how to stop at once.
CTRL_C_NOTICE = b"llmstatus: Ctrl-C: finishing the report of what was read (Ctrl-C again: the report now)\n"


@contextmanager
def _told_on_ctrl_c() -> Iterator[None]:
    """Within: the first Ctrl-C says :data:`CTRL_C_NOTICE`, then raises as Python's own handler
    does (the scan keeps every line read; within a hold, as it ends: :func:`~..scan.interrupt.deferred`);
    the next raises alike, without a word. Only where Python's own
    handler is on (not where SIGINT is ignored, nor in a thread). A second SIGINT that comes while
    this handler runs (microseconds) raises within it: one Ctrl-C, as two that come before Python
    runs its handlers are."""
    import signal

    # On a terminal the notice gets a line of its own (after ^C, or the progress line).
    notice = (b"\n" if os.isatty(2) else b"") + CTRL_C_NOTICE

    def again(signum: int, frame: object) -> None:
        if not deferred():  # (within a hold: raised as it ends)
            raise KeyboardInterrupt

    def on_sigint(signum: int, frame: object) -> None:
        signal.signal(signal.SIGINT, again)
        try:  # a handler runs between two steps of the program, maybe within a write: no buffer
            os.write(2, notice)
        except OSError:  # stderr closed (2>&-)
            pass
        again(signum, frame)

    try:
        ours = signal.getsignal(signal.SIGINT) is signal.default_int_handler
        if ours:
            signal.signal(signal.SIGINT, on_sigint)
    except ValueError:  # not the main thread
        ours = False
    try:
        yield
    finally:
        if ours:
            signal.signal(signal.SIGINT, signal.default_int_handler)


def _is_stream(path: str) -> bool:
    """Standard input, a named pipe, a device: what may pause between lines (a path that cannot be
    read is named on stderr, nothing to stream)."""
    return path == "-" or (os.path.exists(path) and not is_regular(path))


def _output_file() -> os.stat_result | None:
    """The file standard output writes to, when it is a regular file (never read as input)."""
    try:
        st = os.fstat(sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        return None
    return st if stat.S_ISREG(st.st_mode) else None


#: Objects made (less those freed) between two of the cyclic collector's passes over the youngest:
#: Python's 700 has it walk a flood's hits every 700 (a twentieth of the scan's instructions, for
#: nothing: hits make no cycles); the garbage cycles left meanwhile stay a few MB at most.
YOUNG_OBJECTS = 100_000


def _collector_on() -> None:
    """Turn the cyclic collector back on (main() turns it off for the start) with all made so far
    frozen: it would walk the registry and the compiled rules again at each full collection, for
    nothing (~12 ms of a scan's start)."""
    import gc

    gc.freeze()
    gc.set_threshold(YOUNG_OBJECTS, *gc.get_threshold()[1:])
    gc.enable()


def _sources(paths: list[str], opts: ScanOptions, args: Args, registry: Registry,
             progress: Progress) -> Iterator[tuple[str, Iterator[Event]]]:
    """``(path, its events)`` in order: scanned here, or by workers when several files wait."""
    from ..scan.engine import scanner
    from ..scan.pipeline import default_jobs, events

    jobs = min(getattr(args, "jobs", None) or default_jobs(), len(paths))
    if jobs <= 1 or "-" in paths:
        # One file at a time here: a second process may prefilter its blocks (scan.helper).
        opts = opts._replace(helper=True)
        scanner(registry)  # built first, as it lasts the whole scan (~28 ms): no collection walks it
        _collector_on()
        for path in paths:
            yield path, events(path, opts, registry, on_read=progress.reading(path))
        return
    from ..scan.parallel import Workers

    _collector_on()
    with Workers(jobs, registry, tuple(args.registry or ())) as workers:
        yield from workers.scan(paths, opts)
