"""I/O errors at every system call: a checkpoint session and a journal session are run
again and again under strace, each time one recorded call on the state directory failing
(EIO, ENOSPC, EROFS; an fsync also twice in a row; an ``lstat`` of an entry, EIO). Every
refusal is a typed one-line STATE_IO (or STATE_UNREADABLE: a delta load's of its base
directory, a load's failed close of a descriptor it opened to read) naming the path and the
error of the first failed call; a request whose close failed, of a descriptor written or
changed through or of a file a load read, is refused, also after a successful fsync;
nothing acknowledged is missing from the directory as left, nor from what a power cut
would leave right after the acknowledgement or at the end (a failed fsync made nothing
durable, whatever a later fsync says: PostgreSQL's lesson of 2018); a refused proposal is
never listed, and ``pending`` counts exactly (docs/state.md § I/O errors).
"""

from __future__ import annotations

import errno as errnos
import os
import re
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from conformance import cases, details
from conformance.engines.base import EngineClient, EngineRefused
from conformance.model import NotCheckable
from conformance.requirements.registry import requirement
from conformance.requirements.state_delta import delta_bytes, write_delta
from conformance.state import oracle, strace
from conformance.state.crashstates import materialise, snapshot
from conformance.state.driver import load_many, scratch
from conformance.state.inject import (
    ERRNOS,
    STORE,
    Injection,
    Launcher,
    Planner,
    Request,
    Run,
    Session,
    answered_at,
    durable_image,
    landed,
    plan,
    plannable,
    run_session,
)

STATE = ("state",)
TYPED = ("STATE_IO", "STATE_UNREADABLE")
"""What a file-system failure may be answered with: a writer's STATE_IO, a read's
STATE_UNREADABLE (docs/state.md § Confinement)."""
LOCK = "LOCK"
"""The one entry whose failed close cannot matter: the pid in it is advisory."""
LOADING = ("state.open", "state.load")
"""The ops that load a state directory, whose failed reads are STATE_UNREADABLE."""
TURNS = 3
APPENDS = 5
SEED = (
    "docs/state.md § I/O errors; PostgreSQL's fsync errors (2018): after a failed fsync, "
    "assume the data is gone"
)
CLOSE_SEED = (
    '; docs/state.md § I/O errors: "A failed `close` of a descriptor opened to write, or one '
    "a write, an fsync, a truncation or a change of an entry went through, is a failure like "
    "any other, also when the file's fsync succeeded before it (...): the request it serves "
    "is refused with `STATE_IO`, never acknowledged. So is a failed close of a file a load "
    "opened to read, as the load's read: `STATE_UNREADABLE`. Any other failed close cannot "
    "matter (...) and may be passed over (...); an engine that refuses for one answers "
    '`STATE_UNREADABLE` while it serves a load and `STATE_IO` otherwise."'
)
ACKNOWLEDGING = ("state.checkpoint", "state.close", "state.propose")
Pair = tuple[Any, Any]
Start = tuple[int, int]
"""The generation a session's open loads, and its schema version."""


def _record(key: str) -> dict[str, Any]:
    return {"kind": "recognizer", "key": key, "pattern": f"p-{key}", "weight": len(key)}


FIRST = [_record("live")]
PROPOSALS = [{"lemma": f"l{n}", "claim": f"c{n}"} for n in range(APPENDS + 1)]


@dataclass(frozen=True)
class Seen:
    """What the suite's own engine reads in one directory: its load and its proposals."""

    load: dict[str, Any]
    proposals: dict[str, Any]


@dataclass(frozen=True)
class Views:
    """The directory as the run left it, what a power cut would leave at the end, and
    what it would leave right after each acknowledgement (by request index)."""

    live: Seen
    durable: Seen
    acknowledged: dict[int, Seen]


Judge = Callable[[Run, Session, Views], tuple[list[str], int]]


@dataclass(frozen=True)
class Scenario:
    """A session to fail call by call: how its directory starts, and how a run is judged."""

    session: Session
    prepare: Callable[[Path], None]
    judge: Judge
    needed: tuple[str, ...] = ()
    """Entries the load of the session's open needs (a delta's base directory): a failed
    ``lstat`` of one while the open loads is the load's failure, STATE_UNREADABLE."""

    def bound(self, directory: Path) -> Session:
        """The session, its opens naming *directory*."""
        return [
            Request(r.op, {**r.args, "dir": str(directory)}) if r.op == "state.open" else r
            for r in self.session
        ]


def _checkpoint_session() -> Session:
    requests = [Request("state.open", {"dir": ""})]
    for turn in range(1, TURNS + 1):
        mutations = [{"op": "put", "record": _record(f"t{turn}")}, {"op": "turn"}]
        requests += [
            Request("state.apply", {"store": STORE, "mutations": mutations}),
            Request("state.checkpoint", {"store": STORE}),
        ]
    return [*requests, Request("state.close", {"store": STORE})]


def _append_session() -> Session:
    opened = [Request("state.open", {"dir": ""})]
    proposed = [Request("state.propose", {"store": STORE, "proposal": p}) for p in PROPOSALS]
    closed = [Request("state.close", {"store": STORE})]
    return [*opened, *proposed[:APPENDS], *closed, *opened, *proposed[APPENDS:], *closed]


def _identity(records: list[dict[str, Any]], version: int = oracle.CURRENT_SCHEMA_VERSION) -> str:
    return oracle.identity(version, oracle.encode_core(records))


def _engine_schema(run: Run) -> int:
    """The engine's current schema version, as its ``state.open`` answered it."""
    answer = run.answers[0] if run.answers else None
    version = _result(answer, "schema_version") if answer is not None and answer.ok else None
    return version if isinstance(version, int) else oracle.CURRENT_SCHEMA_VERSION


def names_path(message: str, path: str, directory: Path) -> bool:
    """Whether *message* names *path* (relative to *directory*; ``.`` is the directory
    itself) as a whole path, not inside a longer name (``staging-proposals.journal`` does
    not name ``proposals.journal``)."""
    shown = re.escape(directory.name if path == "." else path)
    return re.search(rf"(?<![\w.-]){shown}(?![\w-]|\.\w|/\w)", message) is not None


def names_errno(message: str, name: str) -> bool:
    """Whether *message* names the error *name* (``EIO``) or says its system message."""
    text = os.strerror(getattr(errnos, name))
    return name in message or text.lower() in message.lower()


def _shown(path: str) -> str:
    return "the state directory" if path == "." else path


def _changes(call: Any) -> bool:
    """Whether *call* changes the directory or makes a change durable (a write, an fsync, a
    rename, an open for writing, ...), or closes a descriptor opened to write or through
    which a change was made: a failed one is a writer's failure, STATE_IO, whatever op it
    served (docs/state.md § I/O errors; only a load's read is STATE_UNREADABLE)."""
    if call.name == "close":
        return any(f in call.flags for f in strace.WRITE_FLAGS) or call.changed
    return strace.changes(call.name, call.flags)


def _closed_read(call: Any) -> bool:
    """Whether *call* closes a descriptor opened to read: not for writing, nothing changed
    through it, on an entry of the state directory (a file or a directory). The state
    directory's own descriptor is left out: a writer reaches what it changes through it as a
    load reaches what it reads, so how it was opened does not say which it served."""
    return _opened_close(call) and call.paths[0] != "." and not _changes(call)


def _opened_close(call: Any) -> bool:
    """Whether *call* closes a descriptor the engine opened (strace saw its open: it has
    flags), not ``LOCK``'s. A descriptor strace saw no open of is a runtime's duplicate (the
    one a directory listing reads through, which the runtime closes itself and whose
    failure it may not pass on: Python's ``os.listdir`` of a descriptor); it is left out."""
    return call.name == "close" and bool(call.flags) and call.paths[0] != LOCK


def _close_problems(run: Run, session: Session) -> list[str]:
    """A failed ``close`` of a descriptor opened to write or through which a change was
    made, or of a file a load opened, refuses the request it serves: that request is never
    acknowledged, also when the file's fsync succeeded before it (docs/state.md § I/O
    errors). Any other failed close (a directory opened only to read it, a file read
    outside a load, ``LOCK``'s) may be passed over by those words."""
    problems = []
    for call in run.failed:
        if not _opened_close(call) or call.answers >= len(session):
            continue
        read_file = session[call.answers].op in LOADING and "O_DIRECTORY" not in call.flags
        if not (_changes(call) or read_file):
            continue
        answer = run.answers[call.answers]
        if answer is not None and answer.ok:
            problems.append(
                f"{session[call.answers].op} (request {call.answers}) was acknowledged though "
                f"its close of {_shown(call.paths[0])} failed ({call.errno}): a failed close "
                f"is a failure like any other, also after a successful fsync, and refuses "
                f"the request it serves (only a descriptor nothing was written through may fail "
                f"unseen, and not a file a load read)"
            )
    return problems


def _refusal_problems(
    run: Run, session: Session, directory: Path, needed: tuple[str, ...] = ()
) -> list[str]:
    """Each refusal typed and one line; the first call failed while serving a request,
    named with its error by that request's refusal; a failed ``lstat`` of an entry the
    load needs (*needed*) while a load is served refused STATE_UNREADABLE."""
    problems = []
    for index, answer in enumerate(run.answers):
        if answer is None or answer.ok:
            continue
        op = session[index].op
        if answer.code not in TYPED:
            problems.append(f"{op} answered {answer.code}, not {' or '.join(TYPED)}")
        if "\n" in answer.message:
            problems.append(f"{op}'s refusal is not one line: {answer.message[:200]!r}")
        first = next((c for c in run.failed if c.answers == index), None)
        if first is None:
            continue
        if (_changes(first) or op not in LOADING) and answer.code != "STATE_IO":
            problems.append(
                f"{op} answered {answer.code} when its {first.name} of {_shown(first.paths[0])} "
                f"failed first: only a load's read is STATE_UNREADABLE; a failed call that "
                f"changes the directory, or any failed call of an op that loads nothing, is "
                f"STATE_IO"
            )
        if _closed_read(first) and op in LOADING and answer.code != "STATE_UNREADABLE":
            problems.append(
                f"{op} answered {answer.code} when its close of {first.paths[0]}, opened to "
                f"read, failed first: a failed close of a descriptor a load opened to read is "
                f"the load's read, STATE_UNREADABLE"
            )
        examined = first.name in strace.STATS and first.paths[0] in needed
        if examined and op in LOADING and answer.code != "STATE_UNREADABLE":
            problems.append(
                f"{op} answered {answer.code} when its {first.name} of {first.paths[0]}, "
                f"the base of the delta generation it loads, failed first: an entry a load "
                f"needs that cannot be read is STATE_UNREADABLE"
            )
        if not any(names_path(answer.message, path, directory) for path in first.paths):
            problems.append(
                f"{op}'s refusal does not name {_shown(first.paths[0])}, whose {first.name} "
                f"failed first: {answer.message[:200]!r}"
            )
        elif first.errno and not names_errno(answer.message, first.errno):
            problems.append(f"{op}'s refusal does not name {first.errno}: {answer.message!r}")
    return problems


def _result(answer: Any, key: str) -> Any:
    return (answer.result or {}).get(key)


def _checkpoints(
    run: Run, session: Session, first: list[dict[str, Any]], start: Start
) -> tuple[dict[int, Pair], list[tuple[Pair, list[str]]]]:
    """The checkpoint session's acknowledgements by request index, and after each request
    the last acknowledged (generation, identity) with the identities refused since; before
    any, the generation and schema version *start* holding *first* (none: the fresh state,
    generation 0, whose identity, the empty core's at the engine's schema version, is not
    checked here)."""
    version = _engine_schema(run)
    records = list(first)
    last: Pair = (start[0], _identity(first, start[1])) if first else (0, None)
    attempts: list[str] = []
    acked: dict[int, Pair] = {}
    after = []
    for index, (request, answer) in enumerate(zip(session, run.answers, strict=True)):
        if request.op == "state.apply" and answer is not None and answer.ok:
            records += [m["record"] for m in request.args["mutations"] if m["op"] == "put"]
        if request.op in ("state.checkpoint", "state.close") and answer is not None:
            if answer.ok:
                last = acked[index] = (_result(answer, "generation"), _result(answer, "identity"))
                attempts = []
            else:
                attempts = [*attempts, _identity(records, version)]
        after.append((last, attempts))
    return acked, after


def _loaded(what: str, seen: Seen, last: Pair, attempts: list[str]) -> tuple[str, bool]:
    """What is wrong with the state the *what* directory loads (empty: nothing), and
    whether an acknowledged checkpoint is lost."""
    loaded = seen.load
    if "error" in loaded:
        message = f"{loaded['error']} {loaded.get('message', '')}"
        return f"{what} does not load: {message[:200]}", True
    got = (loaded["result"].get("generation"), loaded["result"].get("identity"))
    later = got[1] in attempts and isinstance(got[0], int) and got[0] > last[0]
    fresh = last == (0, None) and got[0] == 0
    if got == last or later or fresh:
        return "", False
    lost = isinstance(got[0], int) and got[0] < last[0]
    said = " (an acknowledged checkpoint is lost)" if lost else ""
    return f"{what} loads generation {got[0]}{said}; acknowledged {last[0]}", lost


def _judge_checkpoints(
    run: Run,
    session: Session,
    views: Views,
    first: list[dict[str, Any]],
    start: Start = (1, oracle.CURRENT_SCHEMA_VERSION),
) -> tuple[list[str], int]:
    acked, after = _checkpoints(run, session, first, start)
    problems: list[str] = []
    wanted: list[tuple[str, Seen, Pair, list[str]]] = [
        (f"after {session[i].op} (request {i}) was acknowledged, a power cut", seen, acked[i], [])
        for i, seen in views.acknowledged.items()
        if i in acked
    ]
    final, attempts = after[-1]
    wanted += [
        ("the directory as left", views.live, final, attempts),
        ("after a power cut at the end, the directory", views.durable, final, attempts),
    ]
    lost = 0
    for what, seen, last, since in wanted:
        problem, gone = _loaded(what, seen, last, since)
        problems += [problem] if problem else []
        lost += gone
    records = list(first)
    for index, request in enumerate(session):
        if request.op == "state.apply":
            records += [m["record"] for m in request.args["mutations"] if m["op"] == "put"]
        if index in acked and acked[index][1] != _identity(records, _engine_schema(run)):
            problems.append(
                f"{request.op} acknowledged identity {acked[index][1]}, not that of the "
                "records applied"
            )
    return [*problems, *_kept_after_refusal(run, session)], lost


def _kept_after_refusal(run: Run, session: Session) -> list[str]:
    """A refused checkpoint keeps the in-memory state and the next checkpoint, or the
    close, commits it whole: after a refused checkpoint, every later request that no failed
    call served is acknowledged (a generation the refusal left on disk numbered past)."""
    served = {call.answers for call in run.failed}
    refused: int | None = None
    problems = []
    for index, (request, answer) in enumerate(zip(session, run.answers, strict=True)):
        if answer is None:
            break
        if refused is None:
            if request.op == "state.checkpoint" and not answer.ok:
                refused = index
        elif not answer.ok and index not in served:
            problems.append(
                f"{request.op} (request {index}) answered {answer.code} though none of its "
                f"calls failed, after the checkpoint of request {refused} was refused: a "
                f"refused checkpoint keeps the in-memory state, and the next checkpoint or "
                f"the close commits it whole ({answer.message[:160]!r})"
            )
    return problems


def _acknowledged_proposals(run: Run, session: Session) -> tuple[dict[int, list[Any]], list[str]]:
    """For each acknowledged proposal (by request index), the proposals acknowledged so
    far; and each ``pending`` that does not count them."""
    acked: list[Any] = []
    so_far: dict[int, list[Any]] = {}
    wrong = []
    for index, (request, answer) in enumerate(zip(session, run.answers, strict=True)):
        if request.op != "state.propose" or answer is None or not answer.ok:
            continue
        acked.append(request.args["proposal"])
        so_far[index] = list(acked)
        if _result(answer, "pending") != len(acked):
            wrong.append(
                f"{len(acked)} proposals queued, pending says {_result(answer, 'pending')}"
            )
    return so_far, wrong


def _subsequence(short: list[Any], long: list[Any]) -> bool:
    found = iter(long)
    return all(item in found for item in short)


def _judge_appends(run: Run, session: Session, views: Views) -> tuple[list[str], int]:
    so_far, problems = _acknowledged_proposals(run, session)
    acked = so_far[max(so_far)] if so_far else []
    unread = [s.proposals for s in (views.live, views.durable) if "error" in s.proposals]
    if unread:
        return [*problems, f"the proposals journal cannot be read: {unread[0]}"], 0
    live = views.live.proposals
    lost = 0
    if live["entries"] != acked:
        lost += len([p for p in acked if p not in live["entries"]])
        problems.append(f"the journal lists {live['entries']}, acknowledged {acked}")
    if live["skipped"] or live["cut_bytes"]:
        problems.append(
            f"a failed append left bytes behind: lines {live['skipped']} skipped, "
            f"{live['cut_bytes']} bytes of a torn tail"
        )
    durable = [
        (f"after request {i} was acknowledged", s, so_far[i])
        for i, s in views.acknowledged.items()
        if i in so_far
    ]
    for what, seen, wanted in [*durable, ("at the end", views.durable, acked)]:
        entries = seen.proposals.get("entries", [])
        if not _subsequence(wanted, entries):
            lost += len([p for p in wanted if p not in entries])
            problems.append(
                f"a power cut {what} would leave the journal listing {entries}; "
                f"acknowledged {wanted}"
            )
    return problems, lost


def _prepare_live(directory: Path) -> None:
    oracle.write_generation(directory, 1, oracle.encode_core(FIRST), turn_count=0)


def _judge_from_live(run: Run, session: Session, views: Views) -> tuple[list[str], int]:
    return _judge_checkpoints(run, session, views, FIRST)


def _judge_from_fresh(run: Run, session: Session, views: Views) -> tuple[list[str], int]:
    return _judge_checkpoints(run, session, views, [])


CHECKPOINTS = Scenario(_checkpoint_session(), _prepare_live, _judge_from_live)
FRESH_CHECKPOINTS = Scenario(_checkpoint_session(), lambda directory: None, _judge_from_fresh)
"""The same session on an empty directory: its first checkpoint creates `gen-00000001` and
`CURRENT` (no live generation, no `CURRENT` to keep)."""
APPENDING = Scenario(_append_session(), lambda directory: None, _judge_appends)

FILLER = [_record(f"f{n:02d}") for n in range(12)]
"""Records every generation of the delta scenario holds, so a turn's change is small beside
the core and a writer that writes deltas (the reference: one no larger than a quarter of the
core) writes them, checking its base is on disk (an lstat of each of its files)."""
OLDER = [_record("older")]
BASE = [*FILLER, _record("base"), _record("gone")]
TARGET = [*FILLER, _record("base"), _record("live")]
DELTA = oracle.DELTA_SCHEMA_VERSION


def _prepare_delta(directory: Path) -> None:
    """``gen-00000001`` full, ``gen-00000002`` full (the base), ``gen-00000003`` a delta over
    it (one put, one delete) that ``CURRENT`` names: the open loads the delta and its base,
    and the first checkpoint's step 6 examines and removes ``gen-00000001``, a generation
    this writer neither loaded nor committed."""
    oracle.write_generation(directory, 1, oracle.encode_core(OLDER), DELTA, 1, point=False)
    oracle.write_generation(directory, 2, oracle.encode_core(BASE), DELTA, 2, point=False)
    write_delta(directory, 3, 2, delta_bytes(BASE, TARGET), _identity(TARGET, DELTA), 3)
    (directory / "CURRENT").write_bytes(b"gen-00000003\n")


def _judge_from_delta(run: Run, session: Session, views: Views) -> tuple[list[str], int]:
    return _judge_checkpoints(run, session, views, TARGET, (3, DELTA))


DELTA_CHECKPOINTS = Scenario(
    _checkpoint_session(), _prepare_delta, _judge_from_delta, needed=("gen-00000002",)
)
"""The checkpoint session from a delta generation (an engine claiming ``state.delta``)."""


def _launcher(engine: EngineClient) -> Launcher:
    """How to start the engine under strace, or NotCheckable: the run is then PARTIAL."""
    command = engine.spawn_command()
    if not command:
        raise NotCheckable("the engine cannot be started as a separate process to run under strace")
    if strace.available() is None:
        raise NotCheckable(f"strace is not available ({strace.INSTALL_HINT})")
    return Launcher(command, "fork" in engine.capabilities())


def _recorded(
    launcher: Launcher, scenario: Scenario, root: Path, planner: Planner
) -> list[Injection]:
    directory = root / "recorded"
    directory.mkdir()
    scenario.prepare(directory)
    session = scenario.bound(directory)
    run = run_session(launcher, directory, session, None)
    refused = [(r.op, a) for r, a in zip(session, run.answers, strict=True) if a and not a.ok]
    assert run.fault is None and not refused and all(run.answers), (
        f"without any injected failure the session went wrong: {run.fault or refused}"
    )
    injections = planner(run.calls, session)
    if not injections:
        raise NotCheckable("strace saw no system call of the engine on the state directory")
    return injections


@dataclass(frozen=True)
class Injected:
    """One injected run: the directory it left, the durable images to read (at the end,
    and right after each acknowledgement, by request index), and the run."""

    live: Path
    durable: Path
    acknowledged: dict[int, Path]
    run: Run


def _injected(
    launcher: Launcher, scenario: Scenario, root: Path, number: int, injection: Injection
) -> Injected:
    """Run the session in a fresh directory with *injection*; write its durable images."""
    directory = root / f"run{number}"
    directory.mkdir()
    scenario.prepare(directory)
    before = snapshot(directory)
    session = scenario.bound(directory)
    run = run_session(launcher, directory, session, injection)
    images = root / f"images{number}"
    answered = answered_at(run.ops)
    points: dict[int | str, int] = {"end": len(run.ops)}
    for index, answer in enumerate(run.answers):
        acknowledging = answer is not None and answer.ok and session[index].op in ACKNOWLEDGING
        if acknowledging and index < len(answered):
            points[index] = answered[index]
    written: dict[int | str, Path] = {}
    for name, end in points.items():
        written[name] = images / str(name)
        written[name].mkdir(parents=True)
        materialise(durable_image(before, run.ops[:end]), written[name])
    final = written.pop("end")
    return Injected(directory, final, {int(k): v for k, v in written.items()}, run)


def _journal(engine: EngineClient, directory: Path) -> dict[str, Any]:
    try:
        return engine.call(
            "state.journal", {"dir": str(directory), "name": "proposals", "repair": False}
        )
    except EngineRefused as refusal:
        return {"error": refusal.code, "message": refusal.message}


def _views(engine: EngineClient, runs: list[Injected], journals: bool) -> list[Views]:
    """Read every directory the runs left and imaged, with the suite's engine."""
    places = [[r.live, r.durable, *r.acknowledged.values()] for r in runs]
    loads = iter(load_many(engine, [p for group in places for p in group]))

    def seen(directory: Path) -> Seen:
        return Seen(next(loads), _journal(engine, directory) if journals else {})

    views = []
    for run in runs:
        live, durable = seen(run.live), seen(run.durable)
        views.append(Views(live, durable, {i: seen(p) for i, p in run.acknowledged.items()}))
    return views


def _record_failed(engine: EngineClient, injection: Injection, run: Run, found: list[str]) -> None:
    """Keep a failed run in the transcript: what was failed, what the engine answered."""
    answers = [
        None if a is None else a.result or {"code": a.code, "message": a.message}
        for a in run.answers
    ]
    engine.transcript.record(
        {"inject": injection.spec, "path": injection.path, "request": injection.request},
        {"answers": answers, "problems": found[:5]},
    )


def _judged(
    engine: EngineClient,
    scenario: Scenario,
    injections: list[Injection],
    runs: list[Injected],
    views: list[Views],
) -> tuple[list[str], int]:
    """Every problem of every run whose injection landed; the figures go to ``details``."""
    problems: list[str] = []
    lost = 0
    per_errno = {name: 0 for name in (*ERRNOS, "EIO twice")}
    missed = refused = answers = 0
    for injection, injected, seen in zip(injections, runs, views, strict=True):
        run = injected.run
        session = scenario.bound(injected.live)
        if not landed(injection, run, len(session)):
            missed += 1
            continue
        per_errno["EIO twice" if injection.times == 2 else injection.errno] += 1
        refused += any(a is not None and not a.ok for a in run.answers)
        answers += sum(1 for a in run.answers if a is not None and a.ok)
        found = [f"the engine stopped: {run.fault}"] if run.fault else []
        found += _refusal_problems(run, session, injected.live, scenario.needed)
        found += _close_problems(run, session)
        judged, gone = scenario.judge(run, session, seen)
        lost += gone
        if (found or judged) and not problems:
            _record_failed(engine, injection, run, [*found, *judged])
        problems += [f"{injection.describe()}: {p}" for p in [*found, *judged]]
    if missed == len(injections):
        raise NotCheckable(
            "no injected failure landed on the call it was aimed at: the engine's system "
            "calls differ from run to run"
        )
    calls = len({(i.call, i.number) for i in injections})
    details.count(injections=len(injections), calls_failed=calls, missed=missed)
    details.count(runs_with_a_refusal=refused, answered_ok=answers, acknowledged_lost=lost)
    details.note(failed_by_errno=per_errno)
    return problems, lost


def plan_examined(calls: list[strace.StateCall], session: Session) -> list[Injection]:
    """:func:`plan`, and besides each ``lstat`` of an entry every checkpoint makes, once per
    checkpoint (its live generation's files, its base's, then step 6's of each generation
    it may remove: one checkpoint's are the next one's with other generations)."""
    chosen = plan(calls, session)
    planned = {(i.call, i.number) for i in chosen}
    seen: set[tuple[int, str]] = set()
    for call in calls:
        request = min(call.answers, len(session) - 1)
        if not plannable(call, calls) or call.name not in strace.STATS:
            continue
        first = (request, call.paths[0]) not in seen
        seen.add((request, call.paths[0]))
        if session[request].op != "state.checkpoint" or (call.name, call.number) in planned:
            continue
        if first:
            chosen.append(Injection(call.name, call.number, "EIO", call.paths[0], request))
    return chosen


def fail_each_call(
    engine: EngineClient, scenario: Scenario, *, journals: bool, planner: Planner = plan
) -> None:
    """Record *scenario*'s session, fail each call *planner* chooses in a run of its own,
    judge every run (reading the proposals journal too when *journals*), and report the
    figures."""
    launcher = _launcher(engine)
    with scratch(in_memory=True) as root:
        injections = _recorded(launcher, scenario, root, planner)
        with ThreadPoolExecutor(max(1, os.cpu_count() or 1)) as pool:
            runs = list(
                pool.map(
                    lambda item: _injected(launcher, scenario, root, *item), enumerate(injections)
                )
            )
        views = _views(engine, runs, journals)
        problems, _ = _judged(engine, scenario, injections, runs, views)
    assert not problems, cases.lines(
        problems, f"{len(problems)} problems in {len(injections)} injected failures:"
    )


@requirement(
    "STATE-EIO-001",
    f"each system call an open, {TURNS} checkpoints and a close make on the state "
    "directory, from a generation 1 and from an empty directory (the first checkpoint "
    "creating gen-00000001 and CURRENT), failed in turn with EIO, ENOSPC and EROFS (an "
    "fsync also twice in a row): every refusal is a typed one-line STATE_IO naming the path "
    "and the error of the first failed call, and the directory as left, and as a power cut "
    "would leave it right after each acknowledgement or at the end (a failed fsync made "
    "nothing durable), loads the last acknowledged checkpoint (from empty, before any: the "
    "fresh state) or one refused after it; after a refused checkpoint, every later request "
    "none of whose calls failed is acknowledged; with state.delta, also from a delta "
    "generation beside an older full one, where an lstat failed in commit step 6 (of each "
    "generation and its files) is STATE_IO and one of the base directory while the open "
    "loads it STATE_UNREADABLE; a failed close (not of LOCK) of a descriptor opened to write "
    "or through which a change was made, or of a file a load opened, refuses the request it "
    "serves (never acknowledged, also after a successful fsync), and a load's failed close of "
    "a descriptor it opened to read is STATE_UNREADABLE",
    family="state",
    capabilities=STATE,
    seed=SEED
    + (
        '; docs/state.md § I/O errors: "A refused checkpoint leaves `CURRENT` naming the last '
        'acknowledged generation", from a fresh directory too (no `CURRENT` yet); '
        '§ Confinement: "an entry to remove is checked with `lstat`", "An entry a load needs '
        "that exists but cannot be read (permission denied, an I/O error) ... is refused with "
        '`STATE_UNREADABLE`", "Every other file-system failure of a state op ... is '
        '`STATE_IO`"; § Delta generations: "A base that exists but cannot be read is '
        '`STATE_UNREADABLE`, as for any entry a load needs"' + CLOSE_SEED
    ),
    expected_ms=45_000,
)
def checkpoints_survive_io_errors(engine: EngineClient, _: object) -> None:
    fail_each_call(engine, CHECKPOINTS, journals=False, planner=plan_examined)
    fail_each_call(engine, FRESH_CHECKPOINTS, journals=False)
    if "state.delta" in engine.capabilities():
        fail_each_call(engine, DELTA_CHECKPOINTS, journals=False, planner=plan_examined)


@requirement(
    "STATE-EIO-002",
    f"each system call {APPENDS} proposals (the journal created), a close, a reopen and "
    "one more proposal make on the state directory, failed in turn with EIO, ENOSPC and "
    "EROFS (an fsync also twice in a row): every refusal is a typed one-line STATE_IO "
    "naming the path and the error of the first failed call; a failed close (not of LOCK) "
    "of a descriptor opened to write or through which a change was made, or of a file an "
    "open loads, refuses the request it serves (never acknowledged, also after a successful "
    "fsync), and an open's failed close of a journal it read is STATE_UNREADABLE; the journal "
    "lists exactly the proposals acknowledged (no refused one, no torn bytes), pending counts "
    "them, and a power cut right after each acknowledgement or at the end would lose none of "
    "them",
    family="state",
    capabilities=STATE,
    seed=SEED + CLOSE_SEED,
    expected_ms=5_000,
)
def appends_survive_io_errors(engine: EngineClient, _: object) -> None:
    fail_each_call(engine, APPENDING, journals=True)
