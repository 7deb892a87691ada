"""One path scanned as a series of events, the same in this process and in a worker.

:func:`events` opens a path (a file, a bundle, standard input), scans every
log in it and yields, per log: :class:`Opened`, then a :class:`Found` per
line with hits (with its ``-C`` context), then :class:`Closed` with the
damage met while reading and the clue lines (cluster ids, roles) seen. A path
that cannot be opened is one :class:`Failed`. The command replays the
events in order, whether they were made here or by ``-j N`` workers
(:mod:`.parallel`), so both give the same output.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import BinaryIO, NamedTuple

from ..registry.model import Registry
from .around import Made, context_groups
from .bundles import inputs
from .diagnosis import Diagnoser
from .engine import LineWatch, scanner
from .events import Closed, Event, Failed, Found, GroupSpan, Opened
from .evidence import Lines
from .helper import cpus
from .hit import Hit
from .interrupt import relay
from .prefilter import ANY
from .readahead import ReadAhead, scan_progress
from .report import Report
from .timeline import ClueWatch, Times


class ScanOptions(NamedTuple):
    """What every log of a scan is scanned with (picklable: it travels to the workers)."""

    context: int = 0
    include_success: bool = False
    long: bool = False
    #: What a ``-j`` worker runs on each line's hits to prepare their output (picklable; None:
    #: the command lays them out itself). The scan never imports a face: the command hands it in.
    render: Callable[[list[Hit], str], list[str]] | None = None
    #: Whether a second process may prefilter the blocks of a big regular file or of a stream, and
    #: decide their candidate lines where they are many (:mod:`.helper`), with ``-C`` too: the
    #: command asks for it when it scans in this process; a library caller (a notebook) never forks.
    helper: bool = False


def default_jobs() -> int:
    """The CPUs this process may run on (``scan -j``'s default)."""
    return cpus()


def events(path: str, opts: ScanOptions, registry: Registry, stdin: BinaryIO | None = None,
           on_read: Callable[[int], None] | None = None) -> Iterator[Event]:
    """The events of scanning ``path`` (``-``: standard input); see the module's text.

    ``on_read`` is told how many bytes of the file have been read, as reading goes.
    """
    try:
        logs = inputs(path, opts.long, stdin, on_read)
        for log in logs:
            yield Opened(log.name, log.mtime, log.parts)
            watch = ClueWatch(registry)
            error = log.error
            if log.stream is not None:
                try:
                    yield from _diagnosed(log.name, log.stream, opts, registry, watch, log.waits)
                except OSError as exc:
                    if isinstance(exc, BrokenPipeError):
                        raise
                    error = exc.strerror or str(exc)
            yield Closed(log.name, tuple(log.damage), error, tuple(watch.clues))
    except OSError as exc:
        if isinstance(exc, BrokenPipeError):
            raise
        yield Failed(path, exc.strerror or str(exc))


def _diagnosed(name: str, stream: BinaryIO, opts: ScanOptions, registry: Registry, watch: ClueWatch,
               waits: Callable[[int], bool] | None = None) -> Iterator[Found]:
    """The log's events, each failure with its :class:`~.diagnosis.Diagnosis` (``waits``: a pipe's
    test of whether input comes, :attr:`~.bundles.Input.waits`)."""
    times = Times(registry)
    evidence = Lines(registry, times)
    watched = _Watch(scanner(registry).watch_literals, watch, evidence)
    diagnoser = Diagnoser(registry, watch, evidence, times)

    def take(item: Found | int) -> Iterator[Found]:
        return diagnoser.read_to(item) if isinstance(item, int) else diagnoser.feed(item)

    try:
        yield from relay(_found(name, stream, opts, registry, watched, waits), take)
        yield from diagnoser.flush()
    except KeyboardInterrupt:
        # The report of what was read (llmstatus scan) keeps the failures held for their windows
        # too (relay gave the hits the scanner still held), and those held at the end.
        yield from diagnoser.flush()
        raise


class _Watch:
    """Hands the lines the prefilter finds for the scanner's watched literals to the clue and the
    evidence readers; a literal nothing wants any more (a context clue already read) is skipped."""

    def __init__(self, literals: tuple[str, ...], clues: ClueWatch, evidence: Lines) -> None:
        self._literals, self._clues, self._evidence = literals, clues, evidence
        self.skip: set[int] = set()

    def line(self, text: str, line_no: int, literals: list[int]) -> None:
        # ANY: the prefilter stopped within the line (a batch of matches was full); which of the
        # literals it holds is read here, so that a flood of code lines keeps no line as evidence.
        names = [lit for lit in self._literals if lit in text] if ANY in literals else [
            self._literals[i] for i in literals]
        self._clues.line(text, line_no, names)
        self._evidence.line(text, line_no, names)
        for i in literals:
            if i != ANY and self._clues.done(self._literals[i]) and not self._evidence.wants(self._literals[i]):
                self.skip.add(i)


def _found(name: str, stream: BinaryIO, opts: ScanOptions, registry: Registry, watched: LineWatch | None,
           waits: Callable[[int], bool] | None = None) -> Iterator[Found | int]:
    """The log's hits as :class:`Found` events and, between them, how many lines have been read."""
    ahead = ReadAhead(opts.helper, waits)
    if opts.context:
        scan = scanner(registry).reading(opts.include_success, watched)
        yield from _batched(name, context_groups(stream, opts.context, scan, True, ahead))
        return
    yield from _batched(name, scan_progress(stream, registry, opts.include_success, watched, ahead))


#: Most hits of one :class:`Found` (memory: a 4 MiB block of code lines is 50,000), but for a
#: line's group with ``-C``, which is never cut.
BATCH = 1024


def _batched(name: str, items: Iterator[list[Hit] | list[Made] | int]) -> Iterator[Found | int]:
    """The hits (``-C``: the lines' groups) between two counts of lines read (a block's) as
    :class:`Found` events of at most :data:`BATCH` hits, then the count: every later layer takes
    an event at a time, and a flood of code lines is a hit a line."""
    batch = _Batch(name)
    try:
        yield from relay(items, batch.given)
        yield from batch.found(whole=True)
    except KeyboardInterrupt:  # the hits held, as at the end (relay gave those the scan gives after Ctrl-C)
        yield from batch.found(whole=True)
        raise


class _Batch:
    """The hits of the :class:`Found` events being gathered, and with ``-C`` their lines' groups."""

    def __init__(self, name: str) -> None:
        self.name, self.hits = name, list[Hit]()
        self.groups: list[GroupSpan] = []

    def given(self, item: list[Hit] | list[Made] | int) -> list[Found | int]:
        """Take ``item`` (:func:`~.interrupt.relay`'s step); the events it completes: a run of hits
        (groups) makes those of :data:`BATCH` hits; a count of lines read, all, then the count."""
        if isinstance(item, int):
            return [*self.found(whole=True), item]
        if isinstance(item[0], Hit):
            self.hits += item
        else:
            self.hits += [hit for _, hits, _ in item for hit in hits]
            self.groups += [(before, len(hits), after) for before, hits, after in item]
        return list(self.found(whole=False))

    def found(self, whole: bool) -> Iterator[Found]:
        """Events of :data:`BATCH` hits while so many are held (``whole``: then the rest too)."""
        while len(self.hits) >= BATCH or whole and self.hits:
            yield self._cut()

    def _cut(self) -> Found:
        """The first :data:`BATCH` hits held (``-C``: their groups, the last one whole) as an event,
        made before they are let go (Ctrl-C while it is made loses none)."""
        n = k = BATCH
        if self.groups and len(self.groups) != len(self.hits):  # (as many: a hit a group)
            n = k = 0
            while k < len(self.groups) and n < BATCH:
                n += self.groups[k][1]
                k += 1
        found = Found(self.name, [], self.hits[:n], [], (), tuple(self.groups[:k]))
        self.hits, self.groups = self.hits[n:], self.groups[k:]  # (no call: no Ctrl-C here)
        return found


class Triaged(NamedTuple):
    """A text's hits, triaged, and the report they make (first failures, other layers, symptoms)."""

    hits: list[Hit]
    report: Report


def scan_triaged(text: str, registry: Registry | None = None, include_success: bool = False) -> Triaged:
    """Every hit of ``text`` (one log: a notebook cell, an exception and its traceback), each failure
    with its :class:`~.diagnosis.Diagnosis` and each likely consequence marked
    (:meth:`~.report.Report.triage`), and the report: the pipeline of one log of ``llmstatus scan``."""
    import io

    if registry is None:
        from ..registry.packaged import default_registry

        registry = default_registry()
    stream = io.BytesIO(text.encode("utf-8", "replace"))
    opts = ScanOptions(include_success=include_success)
    report = Report()
    hits = [hit for found in _diagnosed("-", stream, opts, registry, ClueWatch(registry))
            for hit in report.triage("", found.hits)]
    return Triaged(hits, report)


def scan_diagnosed(text: str, registry: Registry | None = None, include_success: bool = False) -> list[Hit]:
    """:func:`scan_triaged`'s hits."""
    return scan_triaged(text, registry, include_success).hits
