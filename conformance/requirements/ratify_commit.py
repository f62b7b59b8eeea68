"""Ratify commits the pack and its report as one pair: an engine killed at any system call
of ``register.ratify_file`` leaves the old pair or the new one, never one file of each
(docs/registers.md § Atomic commit of the pair).

One uninterrupted ratify, run under strace, lists the calls the engine makes in the pack's
directory and leaves the new pair. Then, for each chosen call, a fresh engine ratifies the
same starting directory and is killed by strace as it enters that call
(``inject=<call>:signal=KILL:when=<n>``). The directory is read as the loader reads it
(a file from ``.<stem>.ratify/`` when it is there, else at its final name) and must hold
the old pair or the new pair. The next ratify, in a fresh engine, must then finish
with the new pair at the final names and no hidden directory left.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hypothesis import strategies as st

from conformance import coverage, details
from conformance import strategies as gen
from conformance.engines.base import EngineClient, EngineRefused, Transcript
from conformance.engines.view import sealed_json
from conformance.jsontypes import EncodableObject
from conformance.model import NotCheckable
from conformance.requirements.registry import requirement
from conformance.state import inject, strace
from conformance.state.driver import scratch

SEED = "docs/registers.md § Atomic commit of the pair"
COMMIT_ID = "commit_pack"
KILLABLE = (*strace.CHANGES, "open", "openat", "close")
"""Calls a kill lands at: every call that changes the directory or makes a change durable,
and the opens and closes between them."""
Pair = tuple[bytes | None, bytes | None]


@dataclass(frozen=True)
class KillAt(inject.Injection):
    """Kill the engine with SIGKILL as it enters invocation *number* of *call*."""

    @property
    def spec(self) -> str:
        return f"{self.call}:signal=KILL:when={self.number}"

    def describe(self) -> str:
        return f"killed entering {self.call} #{self.number} on {self.path}"


def read_pair(directory: Path, stem: str) -> Pair:
    """The pack and report as the loader reads them: from ``.<stem>.ratify/`` when there."""
    committed = directory / f".{stem}.ratify"
    found: list[bytes | None] = []
    for name in (f"{stem}.json", f"{stem}.mastery_report.json"):
        for place in (committed / name, directory / name):
            if place.is_file():
                found.append(place.read_bytes())
                break
        else:
            found.append(None)
    return found[0], found[1]


def _hidden(directory: Path, stem: str) -> list[str]:
    return sorted(p.name for p in directory.iterdir() if p.name.startswith(f".{stem}.ratify"))


def _describe(pair: Pair, old: Pair, new: Pair) -> str:
    def which(index: int) -> str:
        value = pair[index]
        if value == new[index]:
            return "new"
        if value == old[index]:
            return "old" if value is not None else "absent (as before)"
        return "absent" if value is None else f"neither ({len(value)} bytes)"

    return f"pack {which(0)}, report {which(1)}"


def _scenario(ctx: object) -> st.SearchStrategy[list[Any]]:
    return st.tuples(
        gen.valid_packs(), st.booleans(), st.lists(st.integers(0, 999), min_size=1, max_size=2)
    ).map(list)


def _old_files(engine: EngineClient, pack: dict[str, Any], reratify: bool) -> dict[str, bytes]:
    """The directory before the ratify: the pack's source, and with *reratify* the report
    of an earlier ratify of another version of it."""
    stem = pack["register_id"]
    files = {f"{stem}.json": json.dumps(pack, indent=1, sort_keys=True).encode()}
    if reratify:
        earlier = {**pack, "description": f"{pack['description']} (an earlier version)"}
        sealed = engine.call("register.ratify", {"pack": earlier})["files"]
        report = sealed_json(sealed, f"{stem}.mastery_report.json")
        files[f"{stem}.mastery_report.json"] = json.dumps(report, indent=2).encode()
    return files


def _prepared(directory: Path, files: dict[str, bytes]) -> None:
    for name, data in files.items():
        (directory / name).write_bytes(data)


@requirement(
    "LOAD-COMMIT-001",
    "an engine killed at any system call of an in-place ratify (register.ratify_file) leaves "
    "the old pack+report pair or the new pair as the loader reads them, never one file of "
    "each; the next ratify finishes with the new pair and no hidden directory",
    family="loader",
    capabilities=("registers.ratify", "registers.ratify_file"),
    seed=SEED,
    strategy=_scenario,
    cover=coverage.each("every call of a re-ratify", [[gen.pack(COMMIT_ID), True, None]]),
    max_examples=3,
)
def ratify_commits_the_pair(engine: EngineClient, scenario: list[Any]) -> None:
    pack, reratify, points = scenario
    command = engine.spawn_command()
    if not command:
        raise NotCheckable("the engine cannot be started as a separate process to kill")
    if not strace.available():
        raise NotCheckable(f"strace is not available ({strace.INSTALL_HINT})")
    stem = pack["register_id"]
    try:
        files = _old_files(engine, pack, reratify)
    except EngineRefused:
        if points is None:
            raise
        return  # a generated pack the gate refuses: nothing is written, nothing to kill
    old = (files.get(f"{stem}.json"), files.get(f"{stem}.mastery_report.json"))
    launcher = inject.Launcher(command, "fork" in engine.capabilities())
    with scratch() as root:
        directory = root / "packs"
        directory.mkdir()
        session = [
            inject.Request("register.ratify_file", {"path": str(directory / f"{stem}.json")})
        ]
        _prepared(directory, files)
        record = inject.run_session(launcher, directory, session, None)
        answer = record.answers[0]
        if answer is None or not answer.ok:
            if points is not None and answer is not None and answer.code != "REGISTER_WRITE_FAILED":
                return  # refused as a pack (the gate), not as a write: nothing to kill
            raise AssertionError(f"the uninterrupted ratify failed: {record.fault or answer}")
        new = read_pair(directory, stem)
        assert new[0] is not None and new[1] is not None, "the ratify left no pair"
        assert not _hidden(directory, stem), f"the ratify left {_hidden(directory, stem)}"
        calls = [c for c in record.calls if c.pid == record.calls[0].pid and c.name in KILLABLE]
        assert calls, "strace saw no call of the engine in the pack's directory"
        chosen = calls if points is None else [calls[p % len(calls)] for p in points]
        killed = 0
        for call in chosen:
            kill = KillAt(call.name, call.number, "KILL", call.paths[0], 0)
            killed += _kill_and_recover(
                launcher, root, stem, files, session, kill, old, new, engine.transcript
            )
    details.count(kills=len(chosen), killed=killed)
    if not killed:
        raise NotCheckable("strace's signal injection never killed the engine here")


def _kill_and_recover(
    launcher: inject.Launcher,
    root: Path,
    stem: str,
    files: dict[str, bytes],
    session: inject.Session,
    kill: KillAt,
    old: Pair,
    new: Pair,
    transcript: Transcript,
) -> bool:
    """Kill a ratify at *kill* in a fresh copy of the starting directory; check what a
    reader sees, then that the next ratify finishes the pair. Whether the engine died."""
    directory = root / "packs"
    for leftover in sorted(directory.rglob("*"), key=lambda p: -len(p.parts)):
        leftover.rmdir() if leftover.is_dir() else leftover.unlink()
    _prepared(directory, files)
    answer = inject.run_session(launcher, directory, session, kill).answers[0]
    request: EncodableObject = {
        "op": session[0].op,
        "args": session[0].bound(None),
        "strace": f"inject={kill.spec}",
    }
    transcript.record(request, None if answer is None else vars(answer))
    died = answer is None
    seen = read_pair(directory, stem)
    assert seen in (old, new), (
        f"{kill.describe()}: a reader sees a mix of the pairs ({_describe(seen, old, new)})"
    )
    again = inject.run_session(launcher, directory, session, None).answers[0]
    assert again is not None and again.ok, f"{kill.describe()}: the next ratify failed: {again}"
    after = read_pair(directory, stem)
    assert after == new, f"{kill.describe()}: after the next ratify, {_describe(after, old, new)}"
    assert not _hidden(directory, stem), (
        f"{kill.describe()}: the next ratify left {_hidden(directory, stem)}"
    )
    return died
