"""A journal the writer rewrites after a failed append keeps its mode, and is no longer
stale once rewritten (docs/state.md § Journals).

The proposals journal is planted with one line, a torn tail (the open repairs it) and a
mode that neither 0644 nor the engine's umask gives (0664, the engine started under umask
077); an open, then a proposal whose append fails (the journal's fsync with EIO, once or
twice in a row, or its write with ENOSPC, under strace), then two more proposals, a
``state.digest`` and a close. The failed append is refused; the journal is rebuilt from
its good lines (a rewrite, by the reference's way or another engine's); the later
proposals are acknowledged, ``pending`` counts the journal's entries, the store stays
clean (a journal is outside the identity) and its close commits nothing; and the journal
lists the planted line and the acknowledged ones with the mode it had. A port that
rewrites the journal with 0644, or leaves the new file's mode to the umask, or keeps the
journal stale once its rewrite succeeded (refusing every later append, or rewriting the
journal again before each: a rename onto it while the last proposal is served, which the
fault-free run does not make), fails. Then with no proposals journal at all: the first
proposal's append, which would create it, fails at its creating open (ENOSPC, EROFS) or its
fsync (EIO); the journal holds no acknowledged line, so there is nothing to rebuild and the
later proposals are acknowledged, counted and listed (a port whose retried rewrite refuses
a journal that is not there refuses every proposal of that life).
"""

from __future__ import annotations

import stat
from pathlib import Path
from typing import Any

from conformance import cases
from conformance.engines.base import EngineClient, EngineRefused
from conformance.model import NotCheckable
from conformance.requirements.registry import requirement
from conformance.state import oracle, strace
from conformance.state.driver import scratch
from conformance.state.inject import (
    STORE,
    Injection,
    Launcher,
    Request,
    Run,
    landed,
    run_session,
)

JOURNAL = "proposals.journal"
MODE = 0o664
"""The planted journal's mode: not 0644, and 0600 under the engine's umask."""
UMASK = 0o077
PLANTED = {"lemma": "planted", "claim": "before the open"}
TORN = {"lemma": "torn", "claim": "a crash cut it short"}
TORN_BYTES = 12
"""The torn tail planted after the line: the open repairs the journal before appending."""
FAILED = {"lemma": "refused", "claim": "its append fails"}
LATER = [{"lemma": "after", "claim": "one"}, {"lemma": "after", "claim": "two"}]
FAILING = 1
"""The index of the request whose append is failed."""
SESSION = [
    Request("state.open", {"dir": ""}),
    Request("state.propose", {"store": STORE, "proposal": FAILED}),
    Request("state.propose", {"store": STORE, "proposal": LATER[0]}),
    Request("state.digest", {"store": STORE}),
    Request("state.propose", {"store": STORE, "proposal": LATER[1]}),
    Request("state.close", {"store": STORE}),
]
LINEAGE = "lineage.journal"
FSYNCS = ("fsync", "fdatasync")
WRITES = ("write", "writev", "pwrite64")


def _prepare(directory: Path, version: int) -> None:
    """A live generation of the engine's own schema version (an older one would make the
    store dirty, migrated) and the planted journal."""
    directory.mkdir()
    oracle.write_generation(directory, 1, oracle.encode_core([]), version, turn_count=0)
    journal = directory / JOURNAL
    journal.write_bytes(oracle.frame(PLANTED) + oracle.frame(TORN)[:TORN_BYTES])
    journal.chmod(MODE)
    lineage = directory / LINEAGE
    lineage.write_bytes(oracle.frame(_boot(version)))
    lineage.chmod(MODE)


def _prepare_fresh(directory: Path, version: int) -> None:
    """As :func:`_prepare`, but without a proposals journal: the failing proposal's append
    is the one that would create it."""
    _prepare(directory, version)
    (directory / JOURNAL).unlink()


def _creating_injections(run: Run) -> list[Injection]:
    """The open that creates the journal for the failing proposal, and its first fsync."""
    opened = fsync = None
    for call in run.calls:
        if call.answers != FAILING or not call.paths or call.paths[0] != JOURNAL:
            continue
        if call.name in ("open", "openat", "creat") and "O_CREAT" in call.flags and not opened:
            opened = call
        if call.name in FSYNCS and fsync is None:
            fsync = call
    if opened is None or fsync is None:
        raise AssertionError(
            f"strace saw no {'creating open' if opened is None else 'fsync'} of {JOURNAL} "
            "while the engine answered the first proposal: it creates the journal and makes "
            "the line durable"
        )
    return [
        *(Injection(opened.name, opened.number, e, JOURNAL, FAILING) for e in ("ENOSPC", "EROFS")),
        Injection(fsync.name, fsync.number, "EIO", JOURNAL, FAILING),
    ]


def _fresh_problems(engine: EngineClient, run: Run, directory: Path) -> list[str]:
    """The append that would have created the journal is refused; the later proposals are
    acknowledged and counted (a journal with no line has nothing to rebuild) and listed."""
    if run.fault:
        return [f"the engine stopped: {run.fault}"]
    answers = run.answers
    ok = [a is not None and a.ok for a in answers]
    found: list[str] = []
    if ok[FAILING]:
        found.append("the proposal whose append failed was acknowledged")
    for index, wanted in ((2, 1), (4, 2)):
        if not ok[index]:
            answer = answers[index]
            code = "no answer" if answer is None else answer.code
            found.append(
                f"a proposal after the refused one was refused ({code}): a journal that holds "
                "no line has nothing to rewrite, and the next append goes ahead as on a fresh "
                "journal"
            )
        elif _member(answers[index], "pending") != wanted:
            found.append(f"pending is {_member(answers[index], 'pending')}, not {wanted}")
    try:
        listed = engine.call("state.journal", {"dir": str(directory), "name": "proposals"})
    except EngineRefused as refusal:
        return [*found, f"the journal cannot be read: {refusal.code}"]
    acked = [p for i, p in ((2, LATER[0]), (4, LATER[1])) if ok[i]]
    if listed.get("entries") != acked:
        found.append(f"the journal lists {listed.get('entries')}, acknowledged {acked}")
    return found


def _boot(version: int) -> dict[str, Any]:
    """The lineage's one recorded boot event: the fresh first boot of the directory."""
    return {
        "boot": 1,
        "from_version": None,
        "identity": oracle.identity(version, oracle.encode_core([])),
        "parent": None,
        "reason": "fresh",
        "recovered": None,
        "to_version": version,
    }


def _bound(directory: Path) -> list[Request]:
    return [
        Request(r.op, {**r.args, "dir": str(directory)}) if r.op == "state.open" else r
        for r in SESSION
    ]


def _launcher(engine: EngineClient) -> Launcher:
    command = engine.spawn_command()
    if not command:
        raise NotCheckable("the engine cannot be started as a separate process to run under strace")
    if strace.available() is None:
        raise NotCheckable(f"strace is not available ({strace.INSTALL_HINT})")
    umasked = ["/bin/sh", "-c", f'umask {UMASK:03o} && exec "$@"', "sh", *command]
    return Launcher(umasked, forks=False)


def _injections(run: Run) -> list[Injection]:
    """The first fsync and the first write of the journal made for the failing proposal."""
    fsync = write = None
    for call in run.calls:
        if call.answers != FAILING or not call.paths or call.paths[0] != JOURNAL:
            continue
        if call.name in FSYNCS and fsync is None:
            fsync = call
        if call.name in WRITES and write is None:
            write = call
    if fsync is None or write is None:
        raise AssertionError(
            f"strace saw no {'fsync' if fsync is None else 'write'} of {JOURNAL} while the "
            "engine answered the proposal: an acknowledged proposal is written and made durable"
        )
    return [
        Injection(fsync.name, fsync.number, "EIO", JOURNAL, FAILING),
        Injection(fsync.name, fsync.number, "EIO", JOURNAL, FAILING, times=2),
        Injection(write.name, write.number, "ENOSPC", JOURNAL, FAILING),
    ]


def _lineage_injection(run: Run) -> list[Injection]:
    """The first fsync of the lineage journal the open makes (its boot event's)."""
    for call in run.calls:
        if call.answers == 0 and call.paths and call.paths[0] == LINEAGE and call.name in FSYNCS:
            return [Injection(call.name, call.number, "EIO", LINEAGE, 0)]
    raise AssertionError(
        f"strace saw no fsync of {LINEAGE} while the engine answered the open: its boot event "
        "is appended and made durable"
    )


def _lineage_problems(engine: EngineClient, run: Run, directory: Path, version: int) -> list[str]:
    """The open whose boot event could not be made durable is refused; the lineage journal
    is rewritten with its mode and lists the planted event only; the next open is boot 2."""
    if run.fault:
        return [f"the engine stopped: {run.fault}"]
    found: list[str] = []
    if run.answers[0] is not None and run.answers[0].ok:
        found.append("the open whose boot event's fsync failed was answered")
    mode = stat.S_IMODE((directory / LINEAGE).stat().st_mode)
    if mode != MODE:
        found.append(
            f"the rewritten {LINEAGE} has mode {mode:04o}, not the {MODE:04o} of the journal it "
            f"replaced (engine umask {UMASK:03o})"
        )
    try:
        listed = engine.call("state.journal", {"dir": str(directory), "name": "lineage"})
        opened = engine.call("state.open", {"dir": str(directory)})
    except EngineRefused as refusal:
        return [*found, f"after the refused open: {refusal.code} {refusal.message}"]
    engine.call("state.close", {"store": opened.get("store")})
    if listed.get("entries") != [_boot(version)]:
        found.append(f"{LINEAGE} lists {listed.get('entries')}, not the planted event alone")
    if opened.get("boot") != 2:
        found.append(f"the next open is boot {opened.get('boot')!r}, not 2")
    return found


def _member(answer: Any, key: str) -> Any:
    return (answer.result or {}).get(key) if answer is not None and answer.ok else None


RENAMES = ("rename", "renameat", "renameat2")
LAST = 4
"""The last proposal of :data:`SESSION`."""


def _renamed_onto_journal(run: Run, request: int) -> bool:
    """Whether a rename onto the journal succeeded while *request* was served."""
    return any(
        c.name in RENAMES
        and c.errno is None
        and c.paths[-1:] == (JOURNAL,)
        and c.answers == request
        for c in run.calls
    )


def _rewritten_again(recorded: Run, run: Run) -> list[str]:
    """Once a rewrite succeeded (a rename onto the journal), the last proposal appends as
    it does without any failure: no rewrite of its own when the fault-free run made none."""
    if _renamed_onto_journal(recorded, LAST):
        return []
    if not any(_renamed_onto_journal(run, request) for request in range(FAILING, LAST)):
        return []
    if not _renamed_onto_journal(run, LAST):
        return []
    return [
        "the last proposal rewrote the journal again (a rename onto it) after a rewrite had "
        "succeeded: once rewritten the journal is no longer stale, and the next append is "
        "acknowledged like any other (the fault-free run appends it in place)"
    ]


def _problems(engine: EngineClient, run: Run, directory: Path) -> list[str]:
    if run.fault:
        return [f"the engine stopped: {run.fault}"]
    answers = run.answers
    said = [
        "refused " + str(a.code) if a is not None and not a.ok else "ok" if a else "no answer"
        for a in answers
    ]
    ok = [a is not None and a.ok for a in answers]
    found: list[str] = []
    if not ok[0]:
        return [f"the open was refused: {said[0]}"]
    if ok[FAILING]:
        found.append("the proposal whose append failed was acknowledged")
    for index, wanted in ((2, 2), (4, 3)):
        if not ok[index]:
            found.append(
                f"a proposal after the rewrite was {said[index]}: once the journal is rewritten "
                "it is not stale, and an append is acknowledged"
            )
        elif _member(answers[index], "pending") != wanted:
            found.append(
                f"pending is {_member(answers[index], 'pending')} after the proposal, not "
                f"{wanted} (the planted line and the acknowledged ones)"
            )
    if _member(answers[3], "dirty") is not False:
        found.append(
            f"state.digest says dirty {_member(answers[3], 'dirty')!r} (or was {said[3]}): "
            "proposals and a journal's rewrite leave the identity and turn count as checkpointed"
        )
    generation = _member(answers[5], "generation")
    if generation != 1 or (directory / "gen-00000002").exists():
        found.append(
            f"the close of a clean store answered generation {generation!r} ({said[5]}) or "
            "committed gen-00000002: nothing but journals changed"
        )
    try:
        listed = engine.call("state.journal", {"dir": str(directory), "name": "proposals"})
    except EngineRefused as refusal:
        return [*found, f"the journal cannot be read: {refusal.code}"]
    acked = [PLANTED] + [p for i, p in ((2, LATER[0]), (4, LATER[1])) if ok[i]]
    if listed.get("entries") != acked:
        found.append(f"the journal lists {listed.get('entries')}, acknowledged {acked}")
    mode = stat.S_IMODE((directory / JOURNAL).stat().st_mode)
    if mode != MODE:
        found.append(
            f"the rewritten journal has mode {mode:04o}, not the {MODE:04o} of the journal it "
            f"replaced (engine umask {UMASK:03o})"
        )
    return found


@requirement(
    "STATE-JOURNAL-461",
    "a proposals journal of mode 0664 whose append fails (its fsync with EIO, once or twice "
    "in a row, or its write with ENOSPC, under strace, engine umask 077): the proposal is "
    "refused, the journal is rewritten from its good lines and keeps mode 0664, later "
    "proposals are acknowledged (the journal is not stale once rewritten: the last one is "
    "appended without a rewrite of its own, as in the fault-free run) and counted, the "
    "store stays clean and its close commits nothing; a lineage journal of mode 0664 whose "
    "boot event's fsync fails: the open is refused, the journal keeps mode 0664 and lists "
    "the planted event only, and the next open is boot 2; with no proposals journal yet, a "
    "proposal whose creating open (ENOSPC, EROFS) or fsync (EIO) fails is refused and the "
    "later ones are acknowledged, counted and listed",
    family="state",
    capabilities=("state",),
    seed="docs/state.md § Journals (a rewritten journal keeps the mode of the journal it "
    "replaces; until that rewrite succeeds the journal is stale; a journal that holds no "
    "acknowledged line has nothing to rebuild), § Commit protocol (dirty)",
    expected_ms=14_000,
)
def rewritten_journal_keeps_mode(engine: EngineClient, _: object) -> None:
    launcher = _launcher(engine)
    version = oracle.schema_of(engine.capabilities())
    problems: list[str] = []
    ran = 0
    with scratch() as root:
        recorded = root / "recorded"
        _prepare(recorded, version)
        run = run_session(launcher, recorded, _bound(recorded), None)
        refused = [
            (r.op, a) for r, a in zip(SESSION, run.answers, strict=True) if not a or not a.ok
        ]
        assert run.fault is None and not refused, (
            f"without any injected failure the session went wrong: {run.fault or refused}"
        )
        for number, injection in enumerate(_injections(run)):
            directory = root / f"run{number}"
            _prepare(directory, version)
            failed = run_session(launcher, directory, _bound(directory), injection)
            if not landed(injection, failed):
                continue
            ran += 1
            problems += [
                f"{injection.describe()}: {p}"
                for p in [*_problems(engine, failed, directory), *_rewritten_again(run, failed)]
            ]
        for number, injection in enumerate(_lineage_injection(run)):
            directory = root / f"lineage{number}"
            _prepare(directory, version)
            failed = run_session(launcher, directory, _bound(directory), injection)
            if not landed(injection, failed):
                continue
            problems += [
                f"{injection.describe()}: {p}"
                for p in _lineage_problems(engine, failed, directory, version)
            ]
        fresh = root / "fresh"
        _prepare_fresh(fresh, version)
        created = run_session(launcher, fresh, _bound(fresh), None)
        for number, injection in enumerate(_creating_injections(created)):
            directory = root / f"fresh{number}"
            _prepare_fresh(directory, version)
            failed = run_session(launcher, directory, _bound(directory), injection)
            if not landed(injection, failed):
                continue
            problems += [
                f"no journal yet, {injection.describe()}: {p}"
                for p in _fresh_problems(engine, failed, directory)
            ]
    if not ran:
        raise NotCheckable(
            "no injected failure landed on the journal: its calls differ from run to run"
        )
    assert not problems, cases.lines(problems, f"{len(problems)} problems:")
