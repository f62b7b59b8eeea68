"""A journal a writer's open cannot read refuses the open with ``STATE_UNREADABLE``, and
the refused open leaves every entry but ``LOCK`` as it found it (docs/state.md
§ Confinement).

Each of the three journals in turn is made mode 000 beside the two others, each holding a
good line and a torn tail, and beside the debris of a crashed commit (``CURRENT.tmp``, a
staging directory); an engine that file modes bind opens the directory for writing. The
open is refused with ``STATE_UNREADABLE``, no torn tail is cut, no debris removed, no boot
event appended; then, the journal readable again, the next open succeeds (the refused one
kept no lock) and reads every journal's good line. A port that reads an unreadable journal
as empty (and opens), answers ``STATE_IO``, or repairs a journal or clears the debris
before the last journal is read, fails.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from conformance import cases
from conformance.engines.base import EngineClient, EngineRefused
from conformance.requirements.registry import requirement
from conformance.state import oracle
from conformance.state.crashstates import snapshot
from conformance.state.driver import scratch

JOURNALS = ("proposals.journal", "overflow.journal", "lineage.journal")
GOOD: dict[str, dict[str, Any]] = {
    "proposals.journal": {"lemma": "pending", "claim": "kept"},
    "overflow.journal": {"lemma": "spilled", "claim": "kept"},
    "lineage.journal": {
        "boot": 4,
        "from_version": None,
        "identity": "0" * 64,
        "parent": None,
        "reason": "fresh",
        "recovered": None,
        "to_version": oracle.BASE_SCHEMA_VERSION,
    },
}
TORN = oracle.frame({"lemma": "torn", "claim": "a crash cut this line"})[:-7]


def _plant(directory: Path, unreadable: str, version: int) -> None:
    oracle.write_generation(directory, 1, oracle.encode_core([]), version)
    for name in JOURNALS:
        (directory / name).write_bytes(oracle.frame(GOOD[name]) + TORN)
    (directory / "CURRENT.tmp").write_bytes(b"gen-00000002\n")
    (directory / "staging-2").mkdir()
    (directory / "staging-2" / "core.jsonl").write_bytes(b"debris\n")
    os.chmod(directory / unreadable, 0)


def _changed(before: Mapping[str, object], after: Mapping[str, object]) -> list[str]:
    return sorted(
        k for k in set(before) | set(after) if k != "LOCK" and before.get(k) != after.get(k)
    )


@requirement(
    "STATE-UNREADABLE-461",
    "a writer's open of a directory whose proposals, overflow or lineage journal is mode 000 "
    "(the others torn, debris of a crashed commit beside them), by an engine file modes "
    "bind, is refused with STATE_UNREADABLE and changes no entry but LOCK (no tail cut, no "
    "debris removed, no boot event); the journal readable again, the next open succeeds",
    family="state",
    capabilities=("state",),
    seed="docs/state.md § Confinement (a journal a writer's open cannot read is "
    "STATE_UNREADABLE; every read that can refuse comes first, so a refused open leaves "
    "every entry but LOCK as it found it)",
    max_examples=1,
)
def unreadable_journal_refuses_open(engine: EngineClient, _: object) -> None:
    from conformance.state.unprivileged import bound_by_modes

    command = engine.spawn_command()
    assert command, "the engine cannot be started as a separate process"
    version = oracle.schema_of(engine.capabilities())
    problems: list[str] = []
    with scratch() as root, bound_by_modes(command, engine.transcript) as bound:
        for name in JOURNALS:
            directory = root / name.split(".")[0]
            _plant(directory, name, version)
            before = snapshot(directory)
            try:
                opened = bound.call("state.open", {"dir": str(directory)})
            except EngineRefused as refusal:
                if refusal.code != "STATE_UNREADABLE":
                    problems.append(f"{name} mode 000: the open was refused {refusal.code}")
            else:
                problems.append(f"{name} mode 000: the open succeeded, as if it were empty")
                bound.call("state.close", {"store": opened["store"]})
            os.chmod(directory / name, 0o644)
            changed = _changed(before, snapshot(directory))
            if changed:
                problems.append(f"{name} mode 000: the refused open changed {changed}")
            try:
                reopened = bound.call("state.open", {"dir": str(directory)})
            except EngineRefused as refusal:
                problems.append(f"{name} readable again: the next open was refused {refusal.code}")
                continue
            bound.call("state.close", {"store": reopened["store"]})
            for journal in ("proposals", "overflow"):
                entries = bound.call("state.journal", {"dir": str(directory), "name": journal})
                want = [GOOD[f"{journal}.journal"]]
                if entries.get("entries") != want:
                    problems.append(
                        f"{name} readable again: {journal}.journal lists "
                        f"{entries.get('entries')}, not {want}"
                    )
    assert not problems, cases.lines(problems, f"{len(problems)} problems:")
