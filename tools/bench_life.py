"""Persist the life with the core, or rebuild it from a turn journal? (docs/state.md § The life)

Measures, on one machine in one run:

* **with the core**: the per-turn checkpoint (apply the turn and the life records, commit a
  generation) at turn 1, after ``--turns`` turns of generated conversation, and at the
  bound (every lemma of the lexicon in the vault with all its things said at full length);
  the restart (open the store, read the life, resume) at the same points; the core's size.
* **from a turn journal**: the per-turn append of one framed, fsynced line, and the restart
  by replaying every turn through a fresh runtime, at ``--turns``; 100,000 turns are
  extrapolated linearly from it (replay is one turn's work per turn).

Run from the repository root: ``nice -n 10 python -m tools.bench_life --turns 10000``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from conformance.state.conversation import conversation
from reference.lexicon import default_lexicon
from reference.runtime import ChatRuntime, RuntimeConfig
from reference.runtime.persistence import PersistedSession
from reference.state import frame
from reference.truth.pipeline import Life
from reference.truth.vault import SAID_CHARS, SAID_KEPT, Said, VaultHit, lemma_address
from tools.benchrecord import Recording

SAMPLES = 30


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:.2f} ms"


def _timed(action: Callable[[], object]) -> float:
    start = time.perf_counter()
    action()
    return time.perf_counter() - start


def lemmas() -> list[str]:
    """Every lemma of the shipped lexicon that is one word, sorted."""
    return sorted(e.lemma for e in default_lexicon().lemmas if " " not in e.lemma)


def checkpoint_ms(runtime: ChatRuntime, directory: Path, prompts: list[str]) -> float:
    """The median time of one turn's checkpoint, the runtime attached to *directory*."""
    persisted = PersistedSession.open(directory, runtime.register_id)
    persisted.record_turn(runtime.truth.life())
    times = []
    for text in prompts[:SAMPLES]:
        runtime.chat(text)
        life = runtime.truth.life()
        times.append(_timed(lambda life=life: persisted.record_turn(life)))
    persisted.close()
    return statistics.median(times)


def restart_seconds(directory: Path) -> float:
    """Open the store, read the life and resume a runtime on it; then let go."""
    start = time.perf_counter()
    runtime = ChatRuntime(RuntimeConfig(state_dir=directory))
    seconds = time.perf_counter() - start
    runtime.close()
    return seconds


def core_bytes(directory: Path) -> int:
    current = (directory / "CURRENT").read_text("ascii").strip()
    return (directory / current / "core.jsonl").stat().st_size


def bound_life(names: list[str], turns: int) -> Life:
    """The largest life the vault can hold: every lemma, three things said at full length."""
    text = "x" * SAID_CHARS
    hits = tuple(
        VaultHit(
            lemma_address(name),
            name,
            turns,
            i,
            turns - 1,
            text,
            tuple(Said(turns - 1 - k, text, text) for k in range(SAID_KEPT)),
        )
        for i, name in enumerate(names)
    )
    return Life(turns, names[0], ChatRuntime().truth.field.state, hits)


def journal_append_ms(directory: Path, prompts: list[str]) -> float:
    """The median time of appending one turn's prompt as a framed line and fsyncing it."""
    path = directory / "turns.journal"
    times = []
    with open(path, "ab") as journal:
        for text in prompts[:SAMPLES]:
            line = frame({"text": text})

            def append(line: bytes = line) -> None:
                journal.write(line)
                journal.flush()
                os.fsync(journal.fileno())

            times.append(_timed(append))
    return statistics.median(times)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=29)
    parser.add_argument("--no-record", action="store_true", help="print only")
    args = parser.parse_args(argv)
    run = Recording("life", argv)
    names = lemmas()
    prompts = conversation(names, args.turns + SAMPLES, args.seed)
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        fresh = ChatRuntime()
        first = checkpoint_ms(fresh, root / "fresh", prompts)
        lived = ChatRuntime()
        live = _timed(lambda: [lived.chat(text) for text in prompts[: args.turns]])
        at_n = checkpoint_ms(lived, root / "lived", prompts[args.turns :])
        bounded = ChatRuntime()
        bounded.truth.resume(bound_life(names, args.turns))
        at_bound = checkpoint_ms(bounded, root / "bound", prompts)
        append = journal_append_ms(root, prompts)
        rows = [
            ("lemmas in the lexicon (the vault's bound)", f"{len(names)}"),
            ("turns lived", f"{args.turns:,}"),
            ("with the core: checkpoint per turn at turn 1", _ms(first)),
            (f"with the core: checkpoint per turn at turn {args.turns:,}", _ms(at_n)),
            ("with the core: checkpoint per turn at the bound", _ms(at_bound)),
            ("with the core: core.jsonl at turn 1", f"{core_bytes(root / 'fresh'):,} B"),
            (
                f"with the core: core.jsonl at turn {args.turns:,}",
                f"{core_bytes(root / 'lived'):,} B",
            ),
            ("with the core: core.jsonl at the bound", f"{core_bytes(root / 'bound'):,} B"),
            ("with the core: restart at turn 1", _ms(restart_seconds(root / "fresh"))),
            (
                f"with the core: restart at turn {args.turns:,}",
                _ms(restart_seconds(root / "lived")),
            ),
            ("with the core: restart at the bound", _ms(restart_seconds(root / "bound"))),
            ("from a journal: append per turn", _ms(append)),
            (f"from a journal: restart (replay) at turn {args.turns:,}", f"{live:.2f} s"),
            (
                "from a journal: restart (replay) at turn 100,000, extrapolated",
                f"{live * 100_000 / args.turns:.1f} s",
            ),
        ]
    print("| measure | value |\n|---|---|")
    for name, value in rows:
        print(f"| {name} | {value} |")
    if not args.no_record:
        run.write({"rows": [list(row) for row in rows]})
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
