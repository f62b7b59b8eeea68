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

Then the failed append (its fsync, with and without a journal) fails twice over: after it,
the first call of its clean-up is failed too (the cut back's truncate with EROFS, the
rewrite's read with EIO, its staged write with ENOSPC, its rename with EROFS; the cut back
and the rename both; the read and, in the next proposal, the retried rewrite's read),
calls found in the run with the fsync alone failed. docs/state.md § I/O errors: "A failed
system call of a state op on the state directory ... is refused with STATE_IO (a load's
read: STATE_UNREADABLE ...)", "When work done after the failure (a cleanup, a retry) fails
too, the refusal still names the first failure", and "A refused proposal is never listed
..., no torn bytes of it remain for the next line to fuse with, and pending counts only
acknowledged proposals". So each refusal is STATE_IO naming the path and error of the
first call failed while it was served, and the journal lists the planted line and the
acknowledged proposals only, which ``pending`` counts. Later proposals may be refused (an
engine may refuse every append until it has rebuilt the journal). A port that leaves the
refused line in a journal that holds no acknowledged line (nothing to rebuild, it thinks),
or forgets the journal is stale when the cut back and the rewrite both failed, or reads
the journal for its retried rewrite as a load does (STATE_UNREADABLE), fails.
"""

from __future__ import annotations

import stat
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from conformance import cases
from conformance.engines.base import EngineClient, EngineRefused
from conformance.model import NotCheckable
from conformance.requirements.registry import requirement
from conformance.requirements.state_eio import names_errno, names_path
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
        if call.name in strace.WRITES and write is None:
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


@dataclass(frozen=True)
class Twofold(Injection):
    """The failed append's call (*call*, *number*, ...) and, after it, the calls of its
    clean-up (*then*) failed too, each once: several strace injections in one run."""

    then: tuple[Injection, ...] = ()

    @property
    def spec(self) -> str:
        """One ``inject`` spec per call name (two invocations of one name by a step)."""
        numbers: dict[tuple[str, str], list[int]] = {}
        for part in (self, *self.then):
            numbers.setdefault((part.call, part.errno), []).append(part.number)
        specs = []
        for (call, errno), found in numbers.items():
            first, last = min(found), max(found)
            when = str(first) if first == last else f"{first}..{last}+{last - first}"
            specs.append(f"{call}:error={errno}:when={when}")
        return " ".join(specs)

    def describe(self) -> str:
        later = "; then ".join(
            f"{i.call} #{i.number} on {i.path} (request {i.request}) with {i.errno}"
            for i in self.then
        )
        return f"{super().describe()}; then {later}"


def _twofold(first: Injection, *then: Injection) -> Twofold | None:
    """*first* and *then* in one run; None when two of them are one call name failed with
    two errnos (strace takes one errno per name)."""
    errnos: dict[str, str] = {}
    for part in (first, *then):
        if errnos.setdefault(part.call, part.errno) != part.errno:
            return None
    return Twofold(
        first.call, first.number, first.errno, first.path, first.request, then=tuple(then)
    )


def _after_failure(run: Run, request: int) -> list[strace.StateCall]:
    """The calls serving *request* made after the first call strace failed, by its process."""
    failed = next((i for i, c in enumerate(run.calls) if c.injected), None)
    if failed is None:
        return []
    pid = run.calls[failed].pid
    return [c for c in run.calls[failed + 1 :] if c.pid == pid and c.answers == request]


def _is_read_open(call: strace.StateCall) -> bool:
    return call.name in ("open", "openat") and not any(f in call.flags for f in strace.WRITE_FLAGS)


CLEAN_UP = (
    ("cut back", lambda c: c.name in ("ftruncate", "truncate") and c.paths[0] == JOURNAL, "EROFS"),
    ("read", lambda c: _is_read_open(c) and c.paths[0] == JOURNAL, "EIO"),
    ("staged write", lambda c: c.name in strace.WRITES, "ENOSPC"),
    ("rename", lambda c: c.name in RENAMES and c.paths[-1] == JOURNAL, "EROFS"),
)
"""The clean-up calls of a failed append, how each is found among the calls made after
the failure while the refused proposal is served, and the errno it is failed with (not
the append's EIO: the refusal must name the first failure, docs/state.md § I/O errors)."""


def _clean_up(run: Run, request: int, kind: str) -> Injection | None:
    """The first clean-up call of *kind* made after the failure while *request* is served."""
    _, matches, errno = next(entry for entry in CLEAN_UP if entry[0] == kind)
    call = next((c for c in _after_failure(run, request) if c.paths and matches(c)), None)
    if call is None:
        return None
    return Injection(call.name, call.number, errno, call.paths[-1], request)


def _landed_twofold(injection: Twofold, run: Run) -> bool:
    """Whether the append's call failed first and each clean-up call failed as planned."""
    if not landed(injection, run):
        return False
    failed = {(c.name, c.number, c.answers) for c in run.failed}
    return all((t.call, t.number, t.request) in failed for t in injection.then)


def _twofold_injections(once: Run, failed_append: Injection) -> list[Twofold]:
    """The failed append with each clean-up call of the refused proposal failed too, and
    with both its cut back and its rename (nothing then rebuilds the journal in that
    request: the refused line's bytes are still there)."""
    found = {kind: _clean_up(once, FAILING, kind) for kind, _, _ in CLEAN_UP}
    made = [_twofold(failed_append, i) for i in found.values() if i is not None]
    if found["cut back"] is not None and found["rename"] is not None:
        made.append(_twofold(failed_append, found["cut back"], found["rename"]))
    return [m for m in made if m is not None]


def _twofold_problems(
    engine: EngineClient, run: Run, directory: Path, planted: list[dict[str, Any]]
) -> list[str]:
    """The refused proposal is refused STATE_IO naming its first failure, any refusal a
    failed call caused is STATE_IO naming that call's path and error, and the journal lists
    the planted lines and the acknowledged proposals only (the refused one never, and no
    bytes of it fused with a later line); ``pending`` counts them."""
    if run.fault:
        return [f"the engine stopped: {run.fault}"]
    answers = run.answers
    ok = [a is not None and a.ok for a in answers]
    if not ok[0]:
        return ["the open was refused"]
    found: list[str] = []
    if ok[FAILING]:
        found.append("the proposal whose append failed was acknowledged")
    for index, answer in enumerate(answers):
        first = next((c for c in run.failed if c.answers == index), None)
        if answer is None or answer.ok or first is None:
            continue
        op = SESSION[index].op
        if answer.code != "STATE_IO":
            found.append(
                f"{op} answered {answer.code} when its {first.name} of {first.paths[0]} failed "
                "first: a failed call of a state op that is not a load's read is STATE_IO"
            )
        if not any(names_path(answer.message, path, directory) for path in first.paths) or (
            first.errno and not names_errno(answer.message, first.errno)
        ):
            found.append(
                f"{op}'s refusal does not name its first failure ({first.name} of "
                f"{first.paths[0]}, {first.errno}): {answer.message[:200]!r}"
            )
    acked = [p for i, p in ((2, LATER[0]), (4, LATER[1])) if ok[i]]
    for index, wanted in ((2, len(planted) + 1), (4, len(planted) + len(acked))):
        if ok[index] and _member(answers[index], "pending") != wanted:
            found.append(f"pending is {_member(answers[index], 'pending')}, not {wanted}")
    try:
        listed = engine.call("state.journal", {"dir": str(directory), "name": "proposals"})
    except EngineRefused as refusal:
        return [*found, f"the journal cannot be read: {refusal.code}"]
    if listed.get("entries") != planted + acked:
        found.append(
            f"the journal lists {listed.get('entries')}, not the planted lines and the "
            f"acknowledged proposals {planted + acked}: a refused proposal is never listed, "
            "and no bytes of it remain for the next line to fuse with"
        )
    return found


def _landed_run(
    launcher: Launcher,
    directory: Path,
    prepare: Callable[[Path, int], None],
    version: int,
    injection: Injection,
    as_planned: Callable[[Any, Run], bool] = landed,
) -> Run | None:
    """The session run with *injection* in *directory*, made by *prepare*; None when the
    injection did not land as planned (the engine's calls differ from the recorded run)."""
    prepare(directory, version)
    failed = run_session(launcher, directory, _bound(directory), injection)
    return failed if as_planned(injection, failed) else None


def _twofold_runs(
    engine: EngineClient,
    launcher: Launcher,
    root: Path,
    once: Run,
    failed_append: Injection,
    fresh: bool,
) -> tuple[int, list[str]]:
    """Run each two-fold failure of *failed_append* (its run alone: *once*); the retried
    rewrite's read is failed too after a failed read (the next proposal's retry)."""
    prepare = _prepare_fresh if fresh else _prepare
    planted = [] if fresh else [PLANTED]
    version = oracle.schema_of(engine.capabilities())
    label = "no journal yet, " if fresh else ""
    ran, problems = 0, []
    pending = _twofold_injections(once, failed_append)
    while pending:
        injection = pending.pop(0)
        directory = root / f"{'fresh' if fresh else 'planted'}-twofold{ran}-{len(pending)}"
        failed = _landed_run(launcher, directory, prepare, version, injection, _landed_twofold)
        if failed is None:
            continue
        ran += 1
        problems += [
            f"{label}{injection.describe()}: {p}"
            for p in _twofold_problems(engine, failed, directory, planted)
        ]
        read = [t for t in injection.then if t.call in ("open", "openat")]
        if read and len(injection.then) == 1 and (retry := _clean_up(failed, 2, "read")):
            retried = _twofold(failed_append, read[0], retry)
            if retried is not None:
                pending.append(retried)
    return ran, problems


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
    "later ones are acknowledged, counted and listed; when the failed fsync's clean-up fails "
    "too (the cut back's truncate, the rewrite's read, staged write or rename, the cut back and "
    "the rename, the read and the next proposal's retried read), each refusal is STATE_IO "
    "naming its first failure and the journal lists the acknowledged lines only",
    family="state",
    capabilities=("state",),
    seed="docs/state.md § Journals (a rewritten journal keeps the mode of the journal it "
    "replaces; until that rewrite succeeds the journal is stale; a journal that holds no "
    "acknowledged line has nothing to rebuild), § Commit protocol (dirty), § I/O errors (a "
    "failed call of a state op that is not a load's read is STATE_IO; when a cleanup or retry "
    "fails too the refusal still names the first failure; a refused proposal is never listed "
    "and leaves no torn bytes)",
    expected_ms=24_000,
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
            failed = _landed_run(launcher, directory, _prepare, version, injection)
            if failed is None:
                continue
            ran += 1
            problems += [
                f"{injection.describe()}: {p}"
                for p in [*_problems(engine, failed, directory), *_rewritten_again(run, failed)]
            ]
            if number == 0:
                _, found = _twofold_runs(engine, launcher, root, failed, injection, fresh=False)
                problems += found
        for number, injection in enumerate(_lineage_injection(run)):
            directory = root / f"lineage{number}"
            failed = _landed_run(launcher, directory, _prepare, version, injection)
            if failed is None:
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
            failed = _landed_run(launcher, directory, _prepare_fresh, version, injection)
            if failed is None:
                continue
            problems += [
                f"no journal yet, {injection.describe()}: {p}"
                for p in _fresh_problems(engine, failed, directory)
            ]
            if injection.call in FSYNCS:
                _, found = _twofold_runs(engine, launcher, root, failed, injection, fresh=True)
                problems += found
    if not ran:
        raise NotCheckable(
            "no injected failure landed on the journal: its calls differ from run to run"
        )
    assert not problems, cases.lines(problems, f"{len(problems)} problems:")
