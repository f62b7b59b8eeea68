"""Which mutated functions an engine process reached, for mutmut's test selection.

mutmut learns which tests reach which function by recording trampoline hits in the
pytest process. The suite certifies the mutated engine over the protocol, in engine
processes of its own, so those processes record their hits in files and the test adds
them to mutmut's record before the test ends.
"""

from __future__ import annotations

import os
from pathlib import Path

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
    path = Path(directory) / f"{os.getpid()}.hits"
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
    seen: set[str] = set()

    def record(name: str, caller: str | None = None) -> None:
        if name not in seen:
            seen.add(name)
            os.write(fd, name.encode() + b"\n")

    trampoline.record_trampoline_hit = record  # type: ignore[assignment]
    source = os.environ.get(LINES)
    if source:
        _trace_lines(Path(directory) / f"{os.getpid()}.coverage", source)


def _trace_lines(path: Path, source: str) -> None:
    """Record the lines this process runs under *source* into *path* when it exits normally
    (a process killed with SIGKILL leaves no such file: its lines are unknown)."""
    import atexit

    import coverage

    tracer = coverage.Coverage(data_file=str(path), source=[source], branch=False)
    tracer.start()

    def save() -> None:
        tracer.stop()
        tracer.save()

    atexit.register(save)


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
