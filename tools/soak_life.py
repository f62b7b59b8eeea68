"""The no-drift soak of one continuous life (issue 29 § Deliver 3; docs/state.md § The life).

One engine process (``python -m reference serve``) lives ``--turns`` turns of generated
conversation in a session on a state store, each turn checkpointed before it is answered.
At ``--kills`` generated points it is SIGKILLed (between turns, or with a turn in flight at
a generated fraction of its mean turn time), and a fresh process resumes the life on the
same directory. Alongside, an in-process runtime lives the same conversation without a
store or a kill: the uninterrupted life.

It passes (exit 0) when every turn's ``versor_condition`` is below 1e-6, every restart
resumes at the last answered turn or the one in flight, every answered turn's record is
byte for byte the uninterrupted one's, and, unless ``--no-time-check``, the median turn
time (checkpoint included) of the last window is at most 1.1 times that of the first.
Figures are printed as a markdown table, with the window from which the core is within 5%
of its final size (the vault grows with the distinct subjects, to the lexicon's bound).

Run from the repository root: ``nice -n 10 python -m tools.soak_life --turns 20000 --kills 20``.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

from conformance.state.conversation import conversation
from conformance.state.life import LifeProcess, open_session, record_of
from reference.lexicon import default_lexicon
from reference.runtime import ChatRuntime
from tools.benchrecord import Recording

VERSOR_BOUND = 1e-6
TIME_RATIO = 1.1
WINDOW = 200
"""Turns per timing window."""


def lemmas() -> list[str]:
    """Every one-word lemma of the shipped lexicon, sorted."""
    return sorted(e.lemma for e in default_lexicon().lemmas if " " not in e.lemma)


def resident_bytes(pid: int) -> int:
    """The resident set size of process *pid*."""
    with open(f"/proc/{pid}/statm", encoding="ascii") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def tree_bytes(directory: Path) -> int:
    """The bytes of every file under *directory*."""
    return sum(p.stat().st_size for p in directory.rglob("*") if p.is_file())


class Soak:
    """The engine's life, the uninterrupted one beside it, and what was measured."""

    def __init__(self, args: argparse.Namespace, directory: Path) -> None:
        self.args, self.directory = args, directory
        self.prompts = conversation(lemmas(), args.turns, args.seed)
        rng = random.Random(args.seed)
        points = sorted(rng.sample(range(1, args.turns), min(args.kills, args.turns - 1)))
        self.kills = {turn: rng.choice([None, rng.randrange(1000)]) for turn in points}
        self.whole = ChatRuntime()
        self.whole_records: list[str] = []
        self.times: list[float] = [0.0] * args.turns
        self.worst_versor = 0.0
        self.problems: list[str] = []
        self.rss: list[int] = []
        self.core_sizes: list[int] = []

    def uninterrupted(self, upto: int) -> None:
        """Live the uninterrupted session up to turn *upto* (exclusive)."""
        while len(self.whole_records) < upto:
            text = self.prompts[len(self.whole_records)]
            self.whole_records.append(record_of(self.whole.chat(text).as_json()))

    def turn(self, engine: LifeProcess, session: str, index: int) -> None:
        sent = time.perf_counter()
        result = engine.call("session.chat", {"session": session, "text": self.prompts[index]})
        self.times[index] = time.perf_counter() - sent
        self.worst_versor = max(self.worst_versor, float(result["versor_condition"]))
        if not result["versor_condition"] < VERSOR_BOUND:
            self.problems.append(f"turn {index}: versor_condition {result['versor_condition']}")
        self.uninterrupted(index + 1)
        if record_of(result) != self.whole_records[index]:
            self.problems.append(f"turn {index}: not the uninterrupted record")
        if index % WINDOW == 0:
            self.rss.append(resident_bytes(engine.process.pid))
            self.core_sizes.append(self.core_bytes())

    def core_bytes(self) -> int:
        current = (self.directory / "CURRENT").read_text("ascii").strip()
        return (self.directory / current / "core.jsonl").stat().st_size

    def run(self) -> None:
        command = [sys.executable, "-m", "reference", "serve"]
        allowed = {0}
        while True:
            engine = LifeProcess(command)
            try:
                _, session, index = open_session(engine, str(self.directory), None)
                if index not in allowed:
                    self.problems.append(f"resumed at turn {index}, not {sorted(allowed)}")
                    return
                while index < self.args.turns:
                    phase = self.kills.pop(index, "none")
                    if phase != "none":
                        break
                    self.turn(engine, session, index)
                    index += 1
                else:
                    return
                if phase is None:
                    allowed = {index}
                else:
                    window = self.times[max(0, index - 20) : index]
                    engine.send("session.chat", {"session": session, "text": self.prompts[index]})
                    time.sleep(statistics.mean(window) * 2 * int(phase) / 1000)
                    allowed = {index, index + 1}
            finally:
                engine.kill()


def median_ms(times: list[float]) -> float:
    measured = [t for t in times if t > 0]
    return statistics.median(measured) * 1000 if measured else 0.0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=100_000)
    parser.add_argument("--kills", type=int, default=100)
    parser.add_argument("--seed", type=int, default=29)
    parser.add_argument("--no-time-check", action="store_true")
    parser.add_argument("--no-record", action="store_true", help="print only")
    args = parser.parse_args(argv)
    run = Recording(f"soak-{args.turns}", argv)
    if args.turns < 2 * WINDOW and not args.no_time_check:
        parser.error(f"--turns below {2 * WINDOW} needs --no-time-check")
    started = time.monotonic()
    with tempfile.TemporaryDirectory() as tmp:
        soak = Soak(args, Path(tmp) / "life")
        soak.run()
        disk = tree_bytes(soak.directory)
        generations = len(list(soak.directory.glob("gen-*")))
    times = soak.times
    settled = next(
        (
            i * WINDOW
            for i, size in enumerate(soak.core_sizes)
            if size >= 0.95 * soak.core_sizes[-1]
        ),
        0,
    )
    first = median_ms(times[:WINDOW])
    at_settled = median_ms(times[settled : settled + WINDOW])
    last = median_ms(times[-WINDOW:])
    ratio = last / first if first else 0.0
    rows = [
        ("turns", f"{args.turns:,}"),
        ("SIGKILLs (restarts)", f"{args.kills:,}"),
        ("worst versor_condition", f"{soak.worst_versor:.3g}"),
        (
            "records unlike the uninterrupted life",
            f"{sum('uninterrupted' in p for p in soak.problems)}",
        ),
        (f"median turn (checkpoint included), turns 0-{WINDOW}", f"{first:.2f} ms"),
        (
            f"median turn, from turn {settled:,} (core within 5% of its last size)",
            f"{at_settled:.2f} ms",
        ),
        (f"median turn, last {WINDOW} turns", f"{last:.2f} ms"),
        ("last / first", f"{ratio:.2f}"),
        ("last / settled", f"{last / at_settled if at_settled else 0:.2f}"),
        (
            "engine RSS, first and last sample",
            f"{soak.rss[0]:,} B, {soak.rss[-1]:,} B" if soak.rss else "-",
        ),
        (
            "core.jsonl, first and last sample",
            f"{soak.core_sizes[0]:,} B, {soak.core_sizes[-1]:,} B" if soak.core_sizes else "-",
        ),
        ("state directory at the end", f"{disk:,} B in {generations} generations"),
        ("wall time", f"{time.monotonic() - started:.0f} s"),
    ]
    print("| measure | value |\n|---|---|")
    for name, value in rows:
        print(f"| {name} | {value} |")
    if not args.no_record:
        run.write({"rows": [list(row) for row in rows]})
    for problem in soak.problems[:10]:
        print(f"problem: {problem}", file=sys.stderr)
    slow = not args.no_time_check and ratio > TIME_RATIO
    if slow:
        print(f"problem: last / first {ratio:.2f} > {TIME_RATIO}", file=sys.stderr)
    return 1 if soak.problems or slow else 0


if __name__ == "__main__":
    raise SystemExit(main())
