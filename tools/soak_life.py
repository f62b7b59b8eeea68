"""The no-drift soak of one continuous life (issue 29 § Deliver 3; docs/state.md § The life).

One engine process (``python -m reference serve``) lives ``--turns`` turns of generated
conversation in a session on a state store, each turn checkpointed before it is answered.
At ``--kills`` generated points it is SIGKILLed (between turns, or with a turn in flight at
a generated fraction of its mean turn time), and a fresh process resumes the life on the
same directory. Alongside, an in-process runtime lives the same conversation without a
store or a kill: the uninterrupted life.

Turn time is the engine's CPU time per turn (the scheduler's ``/proc/PID/schedstat``
runtime of every thread, read before and after the turn), so other jobs on a shared
machine do not count, as they would in wall time; the fsyncs' waits are not CPU time and
are reported in wall time beside it. The predicate compares the median of the life's last
:data:`WINDOW` turns with the median of a fresh life's first :data:`WINDOW` turns (a
second engine on an empty directory, the same conversation), lived interleaved with them
in blocks of :data:`BLOCK` turns, so a change of the machine's load between the start and
the end of a long run weighs on both alike. A third engine lives the same blocks too: the
life as it was at turn ``--settle`` (copied aside then, between turns), resumed for
:data:`WINDOW` turns, so last / settled tells a drift with the turns lived from the growth
of the core to its bound in the first turns. No kill lands in the first or the last window
(when the life is long enough to have three windows).

It passes (exit 0) when every turn's ``versor_condition`` is below 1e-6, every restart
resumes at the last answered turn or the one in flight, every answered turn's record (the
other lives' too) is byte for byte the uninterrupted one's, and, unless
``--no-time-check``, the last / first ratio is at most 1.1 (last / settled is reported).
Figures are printed as a markdown table; ``--record`` also writes them to
``docs/figures/soak-life-TURNS.json`` (``-settle-N`` with ``--settle``), rendered into
docs/benchmarks.md by ``python -m tools.docfigures``.

Run from the repository root:
``nice -n 15 python -m tools.soak_life --turns 100000 --kills 100 --record``; progress goes
to stderr every :data:`WINDOW` turns.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from conformance.state.conversation import conversation
from conformance.state.life import LifeProcess, open_session, record_of
from reference.lexicon import default_lexicon
from reference.runtime import ChatRuntime
from reference.state import encode_core, load_state
from tools.benchrecord import Recording
from tools.soak_figures import table

VERSOR_BOUND = 1e-6
TIME_RATIO = 1.1
WINDOW = 1000
"""Turns per timing window (the first, the last, and the fresh life's)."""
BLOCK = 100
"""Turns per block when the last window and the fresh life's are interleaved."""
SAMPLE = 1000
"""Turns between samples of the engine's RSS and the directory's size."""
ENGINE = [sys.executable, "-m", "reference", "serve"]


def lemmas() -> list[str]:
    """Every one-word lemma of the shipped lexicon, sorted."""
    return sorted(e.lemma for e in default_lexicon().lemmas if " " not in e.lemma)


def resident_bytes(pid: int) -> int:
    """The resident set size of process *pid*."""
    with open(f"/proc/{pid}/statm", encoding="ascii") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def cpu_ns(pid: int) -> int:
    """The CPU time every thread of process *pid* has run, in nanoseconds."""
    total = 0
    for task in Path(f"/proc/{pid}/task").iterdir():
        total += int((task / "schedstat").read_text("ascii").split()[0])
    return total


def tree_bytes(directory: Path) -> int:
    """The bytes of every file under *directory*."""
    return sum(p.stat().st_size for p in directory.rglob("*") if p.is_file())


@dataclass
class Turns:
    """Per-turn wall and CPU seconds of one life (0.0 where a turn was not timed)."""

    wall: list[float]
    cpu: list[float]

    @classmethod
    def of(cls, count: int) -> Turns:
        return cls([0.0] * count, [0.0] * count)


@dataclass
class Life:
    """One engine process living a session on a store."""

    engine: LifeProcess
    session: str
    index: int
    turns: Turns
    directory: Path
    rss: list[int] = field(default_factory=list)


class Soak:
    """The engine's life, the uninterrupted one beside it, and what was measured."""

    def __init__(self, args: argparse.Namespace, root: Path) -> None:
        self.args, self.directory, self.fresh_directory = args, root / "life", root / "fresh"
        self.settled_directory = root / "settled"
        self.settle = args.settle if args.settle is not None else args.turns // 10
        self.prompts = conversation(lemmas(), args.turns, args.seed)
        self.timed = not args.no_time_check and args.turns >= 3 * WINDOW
        lo, hi = (WINDOW, args.turns - WINDOW) if self.timed else (1, args.turns)
        rng = random.Random(args.seed)
        points = sorted(rng.sample(range(lo, hi), min(args.kills, hi - lo)))
        self.kills = {turn: rng.choice([None, rng.randrange(1000)]) for turn in points}
        self.whole = ChatRuntime()
        self.whole_records: list[str] = []
        self.times = Turns.of(args.turns)
        self.fresh_times = Turns.of(WINDOW)
        self.settled_times = Turns.of(args.turns)
        self.worst_versor = 0.0
        self.problems: list[str] = []
        self.rss: list[int] = []
        self.disk: list[int] = []
        self.core_sizes: list[int] = []
        self.restarts = 0
        self.started = time.monotonic()

    def uninterrupted(self, upto: int) -> None:
        """Live the uninterrupted session up to turn *upto* (exclusive)."""
        while len(self.whole_records) < upto:
            text = self.prompts[len(self.whole_records)]
            self.whole_records.append(record_of(self.whole.chat(text).as_json()))

    def turn(self, life: Life) -> None:
        """Live turn ``life.index`` and check it; advance the life."""
        index, pid = life.index, life.engine.process.pid
        args = {"session": life.session, "text": self.prompts[index]}
        cpu, sent = cpu_ns(pid), time.perf_counter()
        result = life.engine.call("session.chat", args)
        life.turns.wall[index] = time.perf_counter() - sent
        life.turns.cpu[index] = (cpu_ns(pid) - cpu) / 1e9
        self.worst_versor = max(self.worst_versor, float(result["versor_condition"]))
        if not result["versor_condition"] < VERSOR_BOUND:
            self.problems.append(f"turn {index}: versor_condition {result['versor_condition']}")
        self.uninterrupted(index + 1)
        if record_of(result) != self.whole_records[index]:
            self.problems.append(f"turn {index}: not the uninterrupted record")
        life.index += 1
        if life.directory == self.directory and index % SAMPLE == 0:
            self.sample(life)

    def sample(self, life: Life) -> None:
        self.rss.append(resident_bytes(life.engine.process.pid))
        self.disk.append(tree_bytes(self.directory))
        self.core_sizes.append(len(encode_core(load_state(self.directory).records.values())))
        if life.index > 1:
            print(
                f"turn {life.index:,}: {time.monotonic() - self.started:.0f} s, "
                f"{len(self.problems)} problems, {self.restarts} restarts",
                file=sys.stderr,
                flush=True,
            )

    def start(self, directory: Path, turns: Turns) -> Life:
        engine = LifeProcess(ENGINE)
        _, session, index = open_session(engine, str(directory), None)
        return Life(engine, session, index, turns, directory)

    def run(self) -> None:
        allowed = {0}
        end = self.args.turns - WINDOW if self.timed else self.args.turns
        while True:
            life = self.start(self.directory, self.times)
            try:
                if life.index not in allowed:
                    self.problems.append(f"resumed at turn {life.index}, not {sorted(allowed)}")
                    return
                while life.index < end:
                    if life.index == self.settle and self.timed:
                        self.copy_settled()
                    phase = self.kills.pop(life.index, "none")
                    if phase != "none":
                        break
                    self.turn(life)
                else:
                    if self.timed:
                        self.interleave(life)
                    self.sample(life)
                    return
                self.restarts += 1
                if phase is None:
                    allowed = {life.index}
                else:
                    window = self.times.wall[max(0, life.index - 20) : life.index]
                    args = {"session": life.session, "text": self.prompts[life.index]}
                    life.engine.send("session.chat", args)
                    time.sleep(statistics.mean(window) * 2 * int(phase) / 1000)
                    allowed = {life.index, life.index + 1}
            finally:
                life.engine.kill()

    def copy_settled(self) -> None:
        """Copy the life aside between turns (its last checkpoint is durable, the engine idle)."""
        if not self.settled_directory.exists():
            shutil.copytree(self.directory, self.settled_directory, symlinks=True)

    def interleave(self, life: Life) -> None:
        """The life's last window, a fresh life's first and the settled copy's next, in
        blocks of :data:`BLOCK` turns taken in turn."""
        fresh = self.start(self.fresh_directory, self.fresh_times)
        settled = self.start(self.settled_directory, self.settled_times)
        try:
            if settled.index != self.settle:
                self.problems.append(f"the copy at turn {self.settle} resumed at {settled.index}")
                return
            while life.index < self.args.turns:
                for other in (life, fresh, settled):
                    for _ in range(BLOCK):
                        self.turn(other)
        finally:
            fresh.engine.kill()
            settled.engine.kill()


def median_ms(times: list[float]) -> float:
    measured = [t for t in times if t > 0]
    return statistics.median(measured) * 1000 if measured else 0.0


def commit() -> str:
    found = subprocess.run(
        ["git", "rev-parse", "HEAD"], capture_output=True, text=True, check=False
    )
    return found.stdout.strip()


def figures(soak: Soak, args: argparse.Namespace) -> dict[str, Any]:
    """What was measured, as plain data."""
    times, fresh, settled = soak.times, soak.fresh_times, soak.settled_times
    last = slice(args.turns - WINDOW, args.turns)
    first_cpu, last_cpu = median_ms(fresh.cpu), median_ms(times.cpu[last])
    settled_cpu = median_ms(settled.cpu)
    return {
        "turns": args.turns,
        "kills": args.kills,
        "restarts": soak.restarts,
        "seed": args.seed,
        "window": WINDOW,
        "block": BLOCK,
        "worst_versor_condition": soak.worst_versor,
        "records_unlike_uninterrupted": sum("uninterrupted" in p for p in soak.problems),
        "problems": len(soak.problems),
        "cpu_ms": {
            "life_first_window": median_ms(times.cpu[:WINDOW]),
            "fresh_first_window": first_cpu,
            "life_last_window": last_cpu,
            "settled_window": settled_cpu,
        },
        "wall_ms": {
            "life_first_window": median_ms(times.wall[:WINDOW]),
            "fresh_first_window": median_ms(fresh.wall),
            "life_last_window": median_ms(times.wall[last]),
            "settled_window": median_ms(settled.wall),
        },
        "ratio_cpu": last_cpu / first_cpu if first_cpu else 0.0,
        "ratio_cpu_settled": last_cpu / settled_cpu if settled_cpu else 0.0,
        "settle": soak.settle,
        "ratio_wall": (
            median_ms(times.wall[last]) / median_ms(fresh.wall) if median_ms(fresh.wall) else 0.0
        ),
        "rss_bytes": {"first": soak.rss[0], "last": soak.rss[-1], "max": max(soak.rss)},
        "core_bytes": {"first": soak.core_sizes[0], "last": soak.core_sizes[-1]},
        "disk_bytes": {"last": soak.disk[-1], "max": max(soak.disk)},
        "generations": len(list(soak.directory.glob("gen-*"))),
        "wall_s": round(time.monotonic() - soak.started),
        "load_average": list(os.getloadavg()),
        "commit": commit(),
        "command": f"python -m tools.soak_life --turns {args.turns} --kills {args.kills}"
        + (f" --settle {args.settle}" if args.settle is not None else ""),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=100_000)
    parser.add_argument("--kills", type=int, default=100)
    parser.add_argument("--seed", type=int, default=29)
    parser.add_argument("--no-time-check", action="store_true")
    parser.add_argument(
        "--settle",
        type=int,
        help="the turn at which the life is copied aside, to live its next window again "
        "beside the last one (default: a tenth of the turns)",
    )
    parser.add_argument(
        "--record", action="store_true", help="also write docs/figures/soak-life-TURNS.json"
    )
    args = parser.parse_args(argv)
    if args.turns < 3 * WINDOW and not args.no_time_check:
        parser.error(f"--turns below {3 * WINDOW} needs --no-time-check")
    if args.settle is not None and not 0 < args.settle <= args.turns - 2 * WINDOW:
        parser.error(f"--settle must be in 1..{args.turns - 2 * WINDOW}")
    settle = f"-settle-{args.settle}" if args.settle is not None else ""
    run = Recording(f"soak-life-{args.turns}{settle}", argv)
    with tempfile.TemporaryDirectory() as tmp:
        soak = Soak(args, Path(tmp))
        soak.run()
        found = figures(soak, args)
    print(table(found))
    for problem in soak.problems[:10]:
        print(f"problem: {problem}", file=sys.stderr)
    slow = soak.timed and found["ratio_cpu"] > TIME_RATIO
    if slow:
        print(f"problem: last / first {found['ratio_cpu']:.3f} > {TIME_RATIO}", file=sys.stderr)
    if args.record:
        found["passed"] = not (soak.problems or slow)
        run.write(found)
    return 1 if soak.problems or slow else 0


if __name__ == "__main__":
    raise SystemExit(main())
