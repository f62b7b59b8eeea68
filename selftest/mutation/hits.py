"""Which mutated functions an engine process reached, for mutmut's test selection.

mutmut learns which tests reach which function by recording trampoline hits in the
pytest process. The suite certifies the mutated engine over the protocol, in engine
processes of its own, so those processes record their hits in files and the test adds
them to mutmut's record before the test ends.

A process an engine forks (``engine.fork``: the short-lived middle process and the child
serving the socket) records its own: its own hits file from the fork on, and under
``$LINES`` its own lines, saved before ``os._exit`` too (the child never runs ``atexit``).
"""

from __future__ import annotations

import atexit
import contextlib
import os
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

if TYPE_CHECKING:
    import coverage

HITS_DIR = "CORE_MUTATION_HITS"
"""Environment variable: the directory where engine processes write the functions they reach."""
LINES = "CORE_MUTATION_LINES"
"""Environment variable: a directory whose lines engine processes also record (fastrun record)."""


def install_recorder() -> None:
    """In an engine process: append each mutated function reached to a file in ``$HITS_DIR``.

    A line is written as soon as a function is first reached, so a process killed with
    SIGKILL keeps what it reached. Without ``$HITS_DIR`` (or without mutmut) nothing changes.
    """
    directory = os.environ.get(HITS_DIR)
    if not directory:
        return
    try:
        from mutmut.mutation import trampoline
    except ImportError:
        return
    recorder = Recorder(Path(directory), os.environ.get(LINES))
    trampoline.record_trampoline_hit = recorder.hit  # type: ignore[assignment]
    os.register_at_fork(after_in_child=recorder.forked)
    if recorder.source:
        atexit.register(recorder.save)
        _save_before_exit(recorder)


class Recorder:
    """What this process reached: ``<pid>.hits`` in *directory* (a function per line) and,
    with *source*, the lines it runs under *source*.

    The lines are saved when the process exits normally or by ``os._exit``, into a
    coverage.py data file named with its pid, which ``<pid>.lines`` names; a process killed
    with SIGKILL leaves none (its lines are unknown). A forked process starts its own hits
    file (:meth:`forked`) and keeps the tracer it inherits: it goes on tracing the frame that
    forked (a tracer started afresh would miss the rest of it), and coverage.py chooses the
    data file again, with the child's pid, at a fork.
    """

    def __init__(self, directory: Path, source: str | None) -> None:
        self.directory, self.source = directory, source
        self.tracer: coverage.Coverage | None = None
        self.saved = 0
        if source:
            import coverage

            self.tracer = coverage.Coverage(
                data_file=str(directory / "lines"),
                data_suffix=True,
                source=[source],
                branch=False,
            )
            self.tracer.start()
        self._begin()

    def _begin(self) -> None:
        self.fd = os.open(
            self.directory / f"{os.getpid()}.hits", os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644
        )
        self.seen: set[str] = set()

    def hit(self, name: str, caller: str | None = None) -> None:
        if name not in self.seen:
            self.seen.add(name)
            os.write(self.fd, name.encode() + b"\n")

    def forked(self) -> None:
        """In a forked child: record from here on in a file of its own, every function it
        reaches (the ones the parent reached before the fork too)."""
        os.close(self.fd)
        self._begin()

    def save(self) -> None:
        """Save the lines this process ran (once), and name their file in ``<pid>.lines``."""
        pid = os.getpid()
        if self.tracer is None or self.saved == pid:
            return
        self.saved = pid
        self.tracer.stop()
        data = self.tracer.get_data()
        data.write()
        (self.directory / f"{pid}.lines").write_text(data.data_filename(), "utf-8")


def _save_before_exit(recorder: Recorder) -> None:
    """``os._exit`` saves *recorder*'s lines first: a forked engine ends with it, and
    ``atexit`` does not run then."""
    exit_now = os._exit

    def save_and_exit(status: int) -> NoReturn:
        with contextlib.suppress(Exception):
            recorder.save()
        exit_now(status)

    os._exit = save_and_exit


def collect(directory: Path) -> None:
    """In the test process: add every hit recorded under *directory* to mutmut's record."""
    names = {
        line
        for path in sorted(directory.glob("*.hits"))
        for line in path.read_text("utf-8").splitlines()
        if line
    }
    if names:
        from mutmut.state import state

        state()._stats.update(names)
