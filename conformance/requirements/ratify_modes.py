"""The permission bits of the pair register.ratify_file writes (docs/registers.md § Atomic
commit of the pair, step 2): each file gets the bits of the file it replaces, 0644 when new,
whatever the engine's umask.

The cases give the pack and its report different modes, and neither 0644 nor the umask's
default, so a port that copies one file's mode to both, resets both to 0644, or leaves the
mode to the umask answers a different mode for some file. The engine runs as a separate
process started with a restrictive umask.
"""

from __future__ import annotations

import json
import stat
from pathlib import Path

from hypothesis import strategies as st

from conformance import coverage
from conformance import strategies as gen
from conformance.engines.base import EngineClient
from conformance.requirements.registry import requirement
from conformance.state.driver import scratch
from conformance.state.separate import END_OF_INPUT, EngineProcess

STEM = "moded"
PACK, REPORT = f"{STEM}.json", f"{STEM}.mastery_report.json"
NEW_MODE = 0o644
UMASK = 0o077
"""The engine's umask: it would take every bit of 0644 but the owner's off a new file."""

CASES: dict[str, tuple[int, int | None]] = {
    "pack 0600, report 0640": (0o600, 0o640),
    "pack 0640, report 0604": (0o640, 0o604),
    "pack 0604, no report": (0o604, None),
    "pack 0644, report 0600": (0o644, 0o600),
    "pack 0660, report 0644": (0o660, 0o644),
}
"""The modes the pack and its report have before the ratify (None: the report is new)."""


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@requirement(
    "LOAD-MODE-001",
    "register.ratify_file gives the pack and its report each the permission bits of the "
    "file it replaces (0644 for a report that did not exist), whatever the engine's umask: "
    "not one file's mode for both, not 0644 for a file that had other bits",
    family="loader",
    capabilities=("registers.ratify_file",),
    seed="docs/registers.md § Atomic commit of the pair, step 2 (each given the permission "
    "bits of the file it replaces, 0644 when new)",
    strategy=lambda ctx: st.sampled_from(sorted(CASES)),
    max_examples=len(CASES),
    cover=coverage.each("modes before the ratify", sorted(CASES)),
)
def ratified_pair_keeps_each_mode(engine: EngineClient, name: str) -> None:
    command = engine.spawn_command()
    assert command, "the engine cannot be started as a separate process"
    pack_mode, report_mode = CASES[name]
    with scratch() as root:
        pack, report = root / PACK, root / REPORT
        pack.write_bytes((json.dumps(gen.pack(STEM), indent=2) + "\n").encode())
        pack.chmod(pack_mode)
        if report_mode is not None:
            report.write_bytes(b'{"seal": "an earlier report"}\n')
            report.chmod(report_mode)
        ratifier = EngineProcess(command, engine.transcript, umask=UMASK)
        try:
            ratifier.call("register.ratify_file", {"path": str(pack)})
            ratifier.end(END_OF_INPUT)
        finally:
            ratifier.kill()
        want = {PACK: pack_mode, REPORT: NEW_MODE if report_mode is None else report_mode}
        got = {PACK: _mode(pack), REPORT: _mode(report)}
        wrong = [f"{f} {got[f]:04o} (want {want[f]:04o})" for f in want if got[f] != want[f]]
        assert not wrong, f"{name}, engine umask {UMASK:04o}: after the ratify " + ", ".join(wrong)
