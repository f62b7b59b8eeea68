"""Crash safety: journals that survive tearing, SIGKILL mid-soak, and the crash states of a
session whose system calls strace recorded (checked against the engine's own trace)."""

from __future__ import annotations

import zlib
from concurrent.futures import ThreadPoolExecutor, as_completed
from pathlib import Path
from typing import Any

from hypothesis import strategies as st

from conformance import bad_utf8, cases, details
from conformance.coverage import Case, Plan
from conformance.disk_variants import ARABIC_INDIC
from conformance.engines.base import EngineClient, EngineRefused
from conformance.jsontypes import EncodableObject
from conformance.model import NotCheckable, UnitScale
from conformance.requirements.registry import SuiteContext, requirement
from conformance.state import oracle, strace
from conformance.state.crashstates import expand
from conformance.state.driver import Stores, load, scratch
from conformance.state.judge import distinct_states, failures
from conformance.state.killer import (
    KILL_TIMEOUT,
    PHASES,
    KillPlan,
    KillRecord,
    kill_workers,
    soak_and_kill,
    spawner,
)
from conformance.state.oracle import PENDING_CAP
from conformance.state.traces import (
    Trace,
    both_traces,
    damaged_directory,
    reported_session,
    strace_session,
)

BRIEF = "L10 brief"
KILLS_PER_EXAMPLE = 8
KILL_SCALE = UnitScale("kills", KILLS_PER_EXAMPLE)
"""STATE-KILL-001 is sized in SIGKILLs: the profile's ``kills``, eight to an example."""
KILL_OUTCOMES = ("loaded_acknowledged", "loaded_in_flight", "invalid", "lost")
CRASH_EXAMPLES = 8
CRASH_SAMPLES = 8
NO_STRACE = f"self-reported (strace unavailable: {strace.INSTALL_HINT}; the open is not traced)"
proposals = st.fixed_dictionaries(
    {"lemma": st.text(min_size=1, max_size=8), "claim": st.text(max_size=20)}
)


def _journal(engine: EngineClient, directory: Path, name: str, repair: bool) -> dict[str, Any]:
    return engine.call("state.journal", {"dir": str(directory), "name": name, "repair": repair})


def _propose_all(
    engine: EngineClient, stores: Stores, directory: Path, items: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    store = stores.open(directory)["store"]
    answers = [engine.call("state.propose", {"store": store, "proposal": p}) for p in items]
    stores.close(store)
    return answers


TORN_JOURNALS: dict[str, list[dict[str, Any]]] = {
    "one line": [{"lemma": "a", "claim": ""}],
    "two lines": [{"lemma": "é", "claim": "x"}, {"lemma": "b", "claim": "naïve € 𝄞"}],
    "six lines": [{"lemma": f"w{i}", "claim": "c" * i} for i in range(6)],
}
"""Journals of one line (the torn line is the only one), two, and six; payloads with
characters of each UTF-8 width (the length counts bytes)."""
TEAR_POINTS: dict[str, Any] = {
    "the whole line": lambda size: size,
    "inside the length": lambda size: 3,
    "the length whole": lambda size: 8,
    "the length and its space": lambda size: 9,
    "inside the CRC": lambda size: 13,
    "the header whole": lambda size: 18,
    "one payload byte": lambda size: 19,
    "inside the payload": lambda size: size // 2,
    "all but the newline": lambda size: size - 1,
}
"""Where the last line (``size`` bytes with its newline) is cut: kept bytes, ``cut % size``
of the strategy. docs/state.md § Journals: a last line without its ``\\n`` is a torn
tail, wherever it stops, even one that lacks only the newline; cut at a line end, no line
is torn."""


def _tear_plan(ctx: SuiteContext) -> Plan:
    cases = tuple(
        Case(
            [items, TEAR_POINTS[point](len(oracle.frame(items[-1])))],
            (("journal lengths", length), ("tear points", point)),
        )
        for point in TEAR_POINTS
        for length, items in TORN_JOURNALS.items()
    )
    return Plan(cases, (("journal lengths", len(TORN_JOURNALS)), ("tear points", len(TEAR_POINTS))))


@requirement(
    "STATE-JOURNAL-001",
    "a torn last journal line is detected and cut on recovery; every whole line survives",
    family="state",
    capabilities=("state",),
    seed=f"{BRIEF} § 6 (checksummed/length-prefixed lines, skip-corrupt on read)",
    strategy=lambda ctx: st.tuples(
        st.lists(proposals, min_size=1, max_size=6), st.integers(1, 10**6)
    ).map(list),
    cover=_tear_plan,
)
def torn_tail(engine: EngineClient, scenario: list[Any]) -> None:
    items, cut = scenario
    with scratch() as directory, Stores(engine) as stores:
        _propose_all(engine, stores, directory, items)
        path = directory / "proposals.journal"
        data = path.read_bytes()
        assert data == b"".join(oracle.frame(p) for p in items), "journal lines are not framed"
        last = oracle.journal_lines(data)[-1]
        keep = len(data) - len(last) + cut % len(last)
        path.write_bytes(data[:keep])
        got = _journal(engine, directory, "proposals", repair=True)
        assert got["entries"] == items[:-1], f"recovered {got['entries']}"
        assert got["cut_bytes"] == keep - (len(data) - len(last)), f"cut {got['cut_bytes']}"
        assert path.read_bytes() == data[: len(data) - len(last)], "torn tail not cut from file"
    _short_last_line(engine, items, cut)


def _reframed(payload: dict[str, Any], declared: int) -> bytes:
    """The journal line of *payload* with *declared* as its length (its CRC unchanged)."""
    line = oracle.frame(payload)
    return b"%08x" % declared + line[8:]


def _short_last_line(engine: EngineClient, items: list[dict[str, Any]], cut: int) -> None:
    """A complete last line (it ends in a newline) shorter than its declared length is torn."""
    good = b"".join(oracle.frame(p) for p in items[:-1])
    payload = len(oracle.frame(items[-1])) - 19
    last = _reframed(items[-1], payload + 1 + cut % 36)
    with scratch() as directory:
        path = directory / "proposals.journal"
        path.write_bytes(good + last)
        got = _journal(engine, directory, "proposals", repair=True)
        assert (got["entries"], got["skipped"]) == (items[:-1], []), (
            f"a last line shorter than its length: recovered {got['entries']}, "
            f"skipped {got['skipped']}"
        )
        assert got["cut_bytes"] == len(last), f"cut {got['cut_bytes']}, not the {len(last)} torn"
        assert path.read_bytes() == good, "the short last line was not cut from the file"


@requirement(
    "STATE-JOURNAL-002",
    "a corrupt line in the middle of a journal is reported and skipped; the lines after it "
    "are kept",
    family="state",
    capabilities=("state",),
    seed=f"{BRIEF} § 6 (skip-corrupt on read)",
    strategy=lambda ctx: st.tuples(
        st.lists(proposals, min_size=3, max_size=6), st.integers(0, 10**6), st.integers(0, 10**6)
    ).map(list),
)
def corrupt_middle(engine: EngineClient, scenario: list[Any]) -> None:
    items, which, where = scenario
    with scratch() as directory, Stores(engine) as stores:
        _propose_all(engine, stores, directory, items)
        path = directory / "proposals.journal"
        lines = oracle.journal_lines(path.read_bytes())
        index = 1 + which % (len(lines) - 2)
        line = bytearray(lines[index])
        position = 18 + where % (len(line) - 19)
        line[position] = ord("#") if line[position] != ord("#") else ord("%")
        lines[index] = bytes(line)
        path.write_bytes(b"".join(lines))
        got = _journal(engine, directory, "proposals", repair=True)
        assert got["skipped"] == [index + 1], f"skipped {got['skipped']}, corrupted {index + 1}"
        assert got["entries"] == items[:index] + items[index + 1 :], "lines after it were lost"
    for kind, (lines, skipped, kept) in _damaged(items, which, where).items():
        with scratch() as directory:
            (directory / "proposals.journal").write_bytes(b"".join(lines))
            got = _journal(engine, directory, "proposals", repair=True)
        assert (got["skipped"], got["cut_bytes"]) == (skipped, 0), (
            f"{kind}: skipped {got['skipped']} and cut {got['cut_bytes']}, expected {skipped}, 0"
        )
        assert got["entries"] == kept, f"{kind}: recovered {got['entries']}, expected {kept}"


def _damaged(
    items: list[dict[str, Any]], which: int, where: int
) -> dict[str, tuple[list[bytes], list[int], list[dict[str, Any]]]]:
    """Journals with one complete corrupt line: its lines, the line numbers to skip, what
    recovery keeps."""
    lines = [oracle.frame(p) for p in items]
    index = 1 + which % (len(lines) - 2)
    short = _reframed(items[index], len(lines[index]) - 19 + 1 + where % 36)
    rest = items[:index] + items[index + 1 :]
    return {
        "a middle line shorter than its length": (
            [*lines[:index], short, *lines[index + 1 :]],
            [index + 1],
            rest,
        ),
        "a middle line without a header": (
            [*lines[:index], b"not a framed line\n", *lines[index:]],
            [index + 1],
            items,
        ),
        "an empty first line": ([b"\n", *lines], [1], items),
        "a middle line with bytes past its length": (
            [*lines[:index], _trailed(items[index]), *lines[index + 1 :]],
            [index + 1],
            rest,
        ),
        "a middle line with its header in upper case hex": (
            [*lines[:index], _upper_header(), *lines[index:]],
            [index + 1],
            items,
        ),
        "a middle line with its header in Arabic-Indic digits": (
            [*lines[:index], _lookalike_header(), *lines[index:]],
            [index + 1],
            items,
        ),
        "well-framed middle lines whose payloads are not objects": (
            [lines[0], *_interleaved(lines[1:])],
            _not_object_lines(lines[1:]),
            items,
        ),
    }


def _interleaved(lines: list[bytes]) -> list[bytes]:
    """A well-framed line of each payload of :data:`NOT_OBJECTS`, each followed by a good
    line of *lines* while they last."""
    out: list[bytes] = []
    for number, payload in enumerate(NOT_OBJECTS.values()):
        out += [_framed(payload), *lines[number : number + 1]]
    return out + lines[len(NOT_OBJECTS) :]


def _not_object_lines(lines: list[bytes]) -> list[int]:
    """The line numbers of the payloads :func:`_interleaved` adds, after one line before."""
    bad = {_framed(payload) for payload in NOT_OBJECTS.values()}
    return [number for number, line in enumerate(_interleaved(lines), 2) if line in bad]


NOT_OBJECTS = {
    "an array": b'["lemma","claim"]',
    "a string": b'"lemma"',
    "a number": b"42",
    "null": b"null",
    "not JSON": b"lemma: claim",
    **{
        f"not UTF-8: {name}": b'{"lemma":"a' + inside + b'"}'
        for name, inside in bad_utf8.INSIDE.items()
    },
    **{
        f"not UTF-8: {name}": payload
        for name, payload in bad_utf8.outside(b'{"lemma":"a"}').items()
    },
}
"""Payloads that are not a JSON object: a line framing one is corrupt (docs/state.md
§ Journals), however good its length and checksum."""


def _framed(payload: bytes) -> bytes:
    """A line with the right length and CRC-32 for *payload*, whatever it holds."""
    return b"%08x %08x " % (len(payload), zlib.crc32(payload)) + payload + b"\n"


def _trailed(payload: dict[str, Any]) -> bytes:
    """A line whose length and CRC are those of *payload* but which holds three more bytes
    after it: the whole line does not match its length (docs/state.md § Journals)."""
    line = oracle.frame(payload)
    return line[:-1] + b"   \n"


def _upper_header() -> bytes:
    """A well-framed line but for its header's hex letters in upper case: the header is
    8 lowercase hex digits, so this line has none (docs/state.md § Journals)."""
    for pad in range(64):
        line = oracle.frame({"lemma": "upper", "pad": pad})
        if line[:17] != line[:17].upper():
            return line[:17].upper() + line[17:]
    raise AssertionError("no payload of 64 has a hex letter in its header")


def _lookalike_header() -> bytes:
    """A well-framed line but for its header's digits, spelled as Arabic-Indic digits (which
    a port's integer parser may take for hex digits): the header has no 8 hex digits."""
    line = oracle.frame({"lemma": "look-alike"})
    header = line[:17].decode("ascii").translate(ARABIC_INDIC)
    return header.encode() + line[17:]


def _tear(path: Path, cut: int) -> None:
    """Cut the last line of the journal at *path* somewhere inside it (a torn tail)."""
    data = path.read_bytes()
    last = oracle.journal_lines(data)[-1]
    path.write_bytes(data[: len(data) - len(last) + 1 + cut % (len(last) - 1)])


def _spill_after_torn_overflow(
    engine: EngineClient, items: list[Any], later: Any, cut: int
) -> None:
    """An overflow journal left torn: the open cuts it, and a proposal spilled after reads
    back whole (an open that finds the overflow journal non-empty spills new proposals)."""
    kept = items[:-1]
    with scratch() as directory, Stores(engine) as stores:
        (directory / "overflow.journal").write_bytes(b"".join(oracle.frame(p) for p in items))
        _tear(directory / "overflow.journal", cut)
        _propose_all(engine, stores, directory, [later])
        overflow = _journal(engine, directory, "overflow", repair=False)
        pending = _journal(engine, directory, "proposals", repair=False)
    assert (overflow["skipped"], overflow["cut_bytes"]) == ([], 0), f"overflow read {overflow}"
    spilled, queued = (kept + [later], []) if kept else ([], [later])
    assert overflow["entries"] == spilled, "overflow proposals after the repair"
    assert pending["entries"] == queued, "pending proposals after the overflow's repair"


@requirement(
    "STATE-JOURNAL-004",
    "a writer's open cuts the torn tail of the lineage, proposal and overflow journals before "
    "appending: its boot event and later proposals read back as whole lines",
    family="state",
    capabilities=("state",),
    seed="docs/state.md § Journals (a writer's open repairs before it appends); "
    "§ Identity and lineage",
    strategy=lambda ctx: st.tuples(
        st.lists(proposals, min_size=1, max_size=4), proposals, st.integers(0, 10**6)
    ).map(list),
    max_examples=6,
)
def open_repairs_journals(engine: EngineClient, scenario: list[Any]) -> None:
    items, later, cut = scenario
    with scratch() as directory, Stores(engine) as stores:
        stores.close(stores.open(directory)["store"])
        _propose_all(engine, stores, directory, items)
        first = _journal(engine, directory, "lineage", repair=False)["entries"][0]
        _tear(directory / "lineage.journal", cut)
        _tear(directory / "proposals.journal", cut)
        _propose_all(engine, stores, directory, [later])
        lineage = _journal(engine, directory, "lineage", repair=False)
        assert (lineage["skipped"], lineage["cut_bytes"]) == ([], 0), f"lineage read {lineage}"
        boots = [event["boot"] for event in lineage["entries"]]
        assert lineage["entries"][0] == first and boots == [1, 2], f"boot events {boots}"
        pending = _journal(engine, directory, "proposals", repair=False)
        assert (pending["skipped"], pending["cut_bytes"]) == ([], 0), f"proposals read {pending}"
        assert pending["entries"] == items[:-1] + [later], "proposals after the repair"
    _spill_after_torn_overflow(engine, items, later, cut)


@requirement(
    "STATE-JOURNAL-003",
    f"past {PENDING_CAP} pending proposals, new ones spill to the overflow journal, the caller "
    "is told, and none is lost",
    family="state",
    capabilities=("state",),
    seed=f"{BRIEF} § M5 (backpressure under an absent reviewer)",
    strategy=lambda ctx: st.integers(1, 40),
    max_examples=2,
)
def backpressure(engine: EngineClient, extra: int) -> None:
    items = [{"lemma": f"l{i}", "claim": str(i)} for i in range(PENDING_CAP + extra)]
    with scratch() as directory, Stores(engine) as stores:
        answers = _propose_all(engine, stores, directory, items)
        queued = [a["queued"] for a in answers]
        assert queued == [True] * PENDING_CAP + [False] * extra, "queue cap is not 256"
        assert all(a["spilled"] for a in answers[PENDING_CAP:]), "spill not reported"
        pending = _journal(engine, directory, "proposals", repair=False)["entries"]
        overflow = _journal(engine, directory, "overflow", repair=False)["entries"]
        assert pending + overflow == items, "a proposal was lost or reordered"
        assert pending == items[:PENDING_CAP], (
            f"the pending journal holds {len(pending)} proposals, not the first {PENDING_CAP}"
        )
    _spill_while_overflowing(engine, items[:extra])


def _spill_while_overflowing(engine: EngineClient, items: list[dict[str, Any]]) -> None:
    """An open that finds the overflow journal non-empty spills every new proposal, even
    with fewer than the cap pending."""
    earlier = [{"lemma": "pending", "claim": "0"}, {"lemma": "overflow", "claim": "1"}]
    later = [*items, {"lemma": "last", "claim": "2"}]
    with scratch() as directory, Stores(engine) as stores:
        (directory / "proposals.journal").write_bytes(oracle.frame(earlier[0]))
        (directory / "overflow.journal").write_bytes(oracle.frame(earlier[1]))
        answers = _propose_all(engine, stores, directory, later)
        spilled = [(a["queued"], a["spilled"]) for a in answers]
        assert spilled == [(False, True)] * len(later), (
            f"with the overflow journal non-empty, new proposals answered {spilled}"
        )
        pending = _journal(engine, directory, "proposals", repair=False)["entries"]
        overflow = _journal(engine, directory, "overflow", repair=False)["entries"]
        assert (pending, overflow) == ([earlier[0]], [earlier[1], *later]), (
            f"arrival order broken: pending {pending}, overflow {overflow}"
        )


def _kill_plans(ctx: SuiteContext) -> st.SearchStrategy[list[list[int]]]:
    phase = st.integers(0, PHASES - 1)
    plan = st.builds(KillPlan, st.integers(0, 2**16), st.integers(1, 6), phase)
    return st.lists(plan, min_size=KILLS_PER_EXAMPLE, max_size=KILLS_PER_EXAMPLE).map(
        lambda plans: [[p.seed, p.acks, p.phase] for p in plans]
    )


def _check_kill(
    engine: EngineClient, directory: Path, plan: KillPlan, record: KillRecord
) -> tuple[str | None, str | None]:
    """What the restart after *record* loaded (a figure name), and the problem, if any."""
    if record.error:
        soak: EncodableObject = {"op": "state.soak", "dir": str(directory), "seed": plan.seed}
        engine.transcript.record({"soak_engine": soak, "acks": plan.acks}, record.error)
        return None, f"{plan}: {record.error}"
    try:
        got = load(engine, directory)
    except EngineRefused as refusal:
        return "invalid", f"{plan}: the restart was refused: {refusal}"
    outcome = record.judge(got)
    if outcome in ("loaded_acknowledged", "loaded_in_flight"):
        return outcome, None
    return outcome, f"{plan}: {outcome}: loaded generation {got.get('generation')}; allowed " + (
        f"{record.allowed()}"
    )


@requirement(
    "STATE-KILL-001",
    "SIGKILL at any moment of a soak: every restart loads an acknowledged checkpoint or the "
    "one in flight, and no acknowledged checkpoint is ever lost",
    family="state",
    capabilities=("state", "state.soak"),
    seed=f"{BRIEF} § M4 (kill -9 at any instruction lands on a valid prior checkpoint)",
    strategy=_kill_plans,
    scale=KILL_SCALE,
)
def survives_sigkill(engine: EngineClient, plans: list[list[int]]) -> None:
    command = engine.spawn_command()
    assert command, "the engine cannot be started as a separate process"
    problems: dict[int, str] = {}
    details.count(kills=0, **{outcome: 0 for outcome in KILL_OUTCOMES})
    workers = kill_workers(len(plans))
    spawn = spawner(command, "fork" in engine.capabilities(), ahead=workers)
    with scratch(in_memory=True) as root, ThreadPoolExecutor(workers) as pool:
        running = {}
        for number, fields in enumerate(plans):
            directory = root / f"kill{number}"
            directory.mkdir()
            plan = KillPlan(*fields)
            soak = (spawn, str(directory), plan, KILL_TIMEOUT)
            running[pool.submit(soak_and_kill, *soak)] = (number, directory, plan)
        for future in as_completed(running):
            number, directory, plan = running[future]
            outcome, problem = _check_kill(engine, directory, plan, future.result())
            details.count(kills=1 if outcome else 0, **({outcome: 1} if outcome else {}))
            if problem:
                problems[number] = problem
    assert not problems, cases.lines([problems[n] for n in sorted(problems)])


def kill_examples(kills: int) -> int:
    """Examples needed for *kills* SIGKILLs."""
    return KILL_SCALE.examples(kills)


TRACE_RECORD = {"kind": "recognizer", "key": "x", "pattern": "p", "weight": 1}


def _records(kind_keys: str, min_size: int = 0) -> st.SearchStrategy[list[dict[str, Any]]]:
    return st.lists(
        st.builds(
            lambda k, w: {"kind": "recognizer", "key": k, "pattern": "p", "weight": w},
            st.text(kind_keys, min_size=1, max_size=2),
            st.integers(0, 9),
        ),
        min_size=min_size,
        max_size=3,
    )


def _crash_scenarios(ctx: SuiteContext) -> st.SearchStrategy[list[Any]]:
    batch = _records("abcxyz", min_size=1)
    return st.tuples(
        _records("ab"),
        _records("cd"),
        st.lists(batch, min_size=3, max_size=3),
        st.integers(0, 2**16),
    ).map(list)


def _session(engine: EngineClient, directory: Path, batches: list[list[dict[str, Any]]]) -> Trace:
    command = engine.spawn_command()
    if strace.available() and command:
        return strace_session(command, directory, batches, engine.transcript)
    if "state.trace" not in engine.capabilities():
        raise NotCheckable(f"no strace ({strace.INSTALL_HINT}) and no state.trace to trace with")
    return reported_session(engine, directory, batches)


@requirement(
    "STATE-CRASH-001",
    "every crash state of a traced session (the open of a damaged directory, then three "
    "checkpoints with prune and leftover removal) loads the last acknowledged checkpoint or "
    "the one in flight, under ALICE's file-system model",
    family="state",
    capabilities=("state",),
    seed=f"{BRIEF} § M4; ALICE (OSDI 2014) crash states of an strace-recorded trace",
    strategy=_crash_scenarios,
    max_examples=CRASH_EXAMPLES,
    expected_ms=5_000,
)
def crash_states_load(engine: EngineClient, scenario: list[Any]) -> None:
    live, unacknowledged, batches, seed = scenario
    with scratch(in_memory=True) as root:
        directory = root / "live"
        directory.mkdir()
        damaged_directory(directory, live, unacknowledged)
        trace = _session(engine, directory, batches)
        states, ops, generated = distinct_states(trace, seed=seed, samples=CRASH_SAMPLES)
        details.count(
            crash_states=len(states), crash_states_generated=generated, traced_ops=len(ops)
        )
        details.note(trace=trace.source if trace.source == "strace" else NO_STRACE)
        (root / "crashes").mkdir()
        problems = failures(engine, states, ops, root / "crashes")
    assert not problems, cases.lines(
        problems, f"{len(problems)} crash states load wrongly ({trace.source} trace):"
    )


def comparable(ops: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    """*ops* as comparable tuples; each run of removals becomes one unordered set, with the
    first removal inside each generation directory it touches: a generation is removed
    ``core.jsonl`` first (docs/state.md § Commit protocol, step 6), and no other order of
    removals is stated."""
    out: list[tuple[Any, ...]] = []
    removals: list[tuple[str, str]] = []
    for op in ops:
        if op["op"] in ("unlink", "rmdir"):
            removals.append((op["op"], op["path"]))
            continue
        if removals:
            out.append(_removal_run(removals))
            removals = []
        out.append(tuple(op.get(k) for k in ("op", "path", "src", "dst", "data", "offset", "size")))
    return [*out, _removal_run(removals)] if removals else out


def _removal_run(removals: list[tuple[str, str]]) -> tuple[Any, ...]:
    """A run of removals in order, as the set of them and the first one in each
    generation directory (``gen-*``) they remove from."""
    first: dict[str, tuple[str, str]] = {}
    for removal in removals:
        top = removal[1].split("/", 1)[0]
        if top.startswith("gen-"):
            first.setdefault(top, removal)
    return ("remove", frozenset(removals), frozenset(first.items()))


def _first_difference(reported: list[tuple[Any, ...]], observed: list[tuple[Any, ...]]) -> str:
    for index, (said, done) in enumerate(zip(reported, observed, strict=False)):
        if said != done:
            return f"operation {index}: reported {said[:3]}, strace saw {done[:3]}"
    common = min(len(reported), len(observed))
    if len(reported) > common:
        return f"operation {common} reported only: {reported[common][:3]}"
    return f"operation {common} seen by strace only: {observed[common][:3]}"


def _final_path(path: str, later: list[dict[str, Any]]) -> str:
    """Where *path* ends up after the renames among the *later* reported operations."""
    for op in later:
        if op["op"] == "rename" and (path == op["src"] or path.startswith(op["src"] + "/")):
            path = op["dst"] + path[len(op["src"]) :]
    return path


def mode_mismatches(ops: list[dict[str, Any]], modes: dict[str, int]) -> list[str]:
    """Each reported ``write`` whose ``mode`` is not the mode its file has after the commit."""
    wrong = []
    for index, op in enumerate(ops):
        if op["op"] != "write":
            continue
        final = _final_path(op["path"], ops[index + 1 :])
        if final in modes and op.get("mode") != modes[final]:
            wrong.append(
                f"write {op['path']}: reported mode {op.get('mode')!r}, the file has "
                f"{oct(modes[final])}"
            )
    return wrong


@requirement(
    "STATE-TRACE-001",
    "the file operations an engine reports for a checkpoint (state.trace_checkpoint) are the "
    "system calls strace sees it make, in order, the removal of a crashed checkpoint's "
    "debris included, and each reported write's mode is the mode its file is given",
    family="state",
    capabilities=("state", "state.trace"),
    seed="ALICE (OSDI 2014): judge the system calls a program makes, not what it says it does",
    strategy=lambda ctx: st.tuples(
        _records("ab"), _records("cd"), _records("xy", 1), st.booleans()
    ).map(list),
    cover=lambda ctx: Plan(
        tuple(
            Case([[], [], [TRACE_RECORD], debris], (("debris", str(debris).lower()),))
            for debris in (False, True)
        ),
        (("debris", 2),),
    ),
    max_examples=2,
)
def reported_trace_is_real(engine: EngineClient, scenario: list[Any]) -> None:
    older, live, batch, debris = scenario
    command = engine.spawn_command()
    assert command, "the engine cannot be started as a separate process"
    if not strace.available():
        raise NotCheckable(f"strace is not available ({strace.INSTALL_HINT})")
    with scratch() as root:
        directory = root / "live"
        oracle.write_generation(directory, 1, oracle.encode_core(older))
        oracle.write_generation(directory, 2, oracle.encode_core(live))
        traces = both_traces(command, directory, batch, engine.transcript, debris=debris)
    reported = comparable(expand(traces.image, traces.reported))
    observed = comparable(traces.observed)
    details.count(traced_ops=len(traces.observed))
    if reported != observed:
        difference = _first_difference(reported, observed)
        raise AssertionError(f"the reported trace is not what the engine did: {difference}")
    wrong = mode_mismatches(traces.reported, traces.modes)
    assert not wrong, cases.lines(wrong)
