"""Mutation score of the suite per module, from mutmut's results, and a fixed mutant sample.

``python -m selftest.mutation.score sample N`` prints N mutant names per module, the
same on every machine (ordered by the SHA-256 of the name). ``... report`` reads
``mutants/**/*.meta`` and prints, per module, killed, survived, "no tests" (no requirement
reaches the mutated code), reviewed (listed in ``equivalent.txt``) and unchecked mutants,
and the score killed / (killed + survived + no tests). ``... check`` exits 1 when a checked
mutant that is not reviewed survived or was never reached. ``... pending`` prints the
mutants that are not reviewed and not run yet or reached by no test: the ones the
score still waits for.
"""

from __future__ import annotations

import hashlib
import json
import sys
from collections import Counter
from pathlib import Path

MODULES = (
    "reference.registers",
    "reference.realize",
    "reference.protocol",
    "reference.state",
    "reference.algebra",
)
HERE = Path(__file__).resolve().parent
KILLED = {1, 3, 36, 24, -24, 152, 255, -9, -11}
"""Exit codes mutmut counts as a kill (a failure, a timeout or a crash of the test run)."""


def equivalents() -> dict[str, str]:
    """Reviewed mutants: ``name  kind: reason`` per line, ``#`` comments. A name without
    the ``__mutmut_N`` suffix is a mutated function: the line reviews all its mutants."""
    rows = {}
    for line in (HERE / "equivalent.txt").read_text("utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            name, reason = line.split(None, 1)
            rows[name] = reason.strip()
    return rows


def results(root: Path = Path("mutants")) -> dict[str, int | None]:
    """Every mutant's exit code (None when not run yet)."""
    codes: dict[str, int | None] = {}
    for meta in sorted(root.glob("reference/**/*.meta")):
        codes.update(json.loads(meta.read_text("utf-8"))["exit_code_by_key"])
    return codes


def function_of(name: str) -> str:
    """The mutated function a mutant name belongs to (the name without ``__mutmut_N``)."""
    return name.rsplit("__mutmut_", 1)[0]


def is_reviewed(name: str, reviewed: dict[str, str]) -> bool:
    return name in reviewed or function_of(name) in reviewed


def module_of(name: str) -> str:
    return next((m for m in MODULES if name.startswith(m + ".")), "other")


def sample(codes: dict[str, int | None], per_module: int) -> list[str]:
    """*per_module* names of each module, ordered by the SHA-256 of the name."""
    chosen = []
    for module in MODULES:
        names = [n for n in codes if module_of(n) == module]
        names.sort(key=lambda n: hashlib.sha256(n.encode()).hexdigest())
        chosen += names[:per_module]
    return chosen


def tally(codes: dict[str, int | None], reviewed: dict[str, str]) -> dict[str, Counter]:
    table = {module: Counter() for module in MODULES}
    for name, code in codes.items():
        counts = table.setdefault(module_of(name), Counter())
        if is_reviewed(name, reviewed):
            counts["reviewed"] += 1
        elif code is None:
            counts["unchecked"] += 1
        elif code in KILLED:
            counts["killed"] += 1
        elif code == 0:
            counts["survived"] += 1
        else:
            counts["no tests"] += 1
    return table


def report(codes: dict[str, int | None], reviewed: dict[str, str]) -> str:
    lines = [
        "| module | killed | survived | no tests | reviewed | unchecked "
        "| score: killed / (killed + survived + no tests) |"
    ]
    lines.append("|---|---:|---:|---:|---:|---:|---:|")
    for module, c in tally(codes, reviewed).items():
        checked = c["killed"] + c["survived"] + c["no tests"]
        score = f"{100 * c['killed'] / checked:.1f}%" if checked else "-"
        lines.append(
            f"| {module} | {c['killed']} | {c['survived']} | {c['no tests']} "
            f"| {c['reviewed']} | {c['unchecked']} | {score} |"
        )
    return "\n".join(lines)


def check(codes: dict[str, int | None], reviewed: dict[str, str], names: list[str]) -> int:
    """Exit status 1 when a named mutant (default: every one the score counts, that is every
    one not reviewed) survived, was never run, or is not a mutant of this reference at all,
    or when a reviewed name is not one (a stale sample or review list must not pass unseen)."""
    functions = {function_of(name) for name in codes}
    problems = [
        f"reviewed, but not a mutant of this reference: {name}"
        for name in sorted(reviewed)
        if name not in codes and name not in functions
    ]
    for name in sorted(set(names) or set(codes)):
        if name not in codes:
            problems.append(f"not a mutant of this reference: {name}")
        elif codes[name] is None and (names or not is_reviewed(name, reviewed)):
            problems.append(f"not run: {name}")
        elif codes[name] in (0, 33) and not is_reviewed(name, reviewed):
            problems.append(f"{'survived' if codes[name] == 0 else 'no tests'}: {name}")
    print("\n".join(problems) or "no survivor")
    return 1 if problems else 0


def pending(codes: dict[str, int | None], reviewed: dict[str, str]) -> list[str]:
    """The mutants the score still needs: not reviewed, and not run yet or not reached by
    any test (a changed suite may reach them now)."""
    waiting = (None, 33)
    return [n for n, c in sorted(codes.items()) if c in waiting and not is_reviewed(n, reviewed)]


def main(argv: list[str]) -> int:
    codes, reviewed = results(), equivalents()
    if argv[:1] == ["sample"]:
        print("\n".join(sample(codes, int(argv[1]))))
        return 0
    if argv[:1] == ["report"]:
        print(report(codes, reviewed))
        return 0
    if argv[:1] == ["check"]:
        return check(codes, reviewed, argv[1:])
    if argv[:1] == ["pending"]:
        print("\n".join(pending(codes, reviewed)))
        return 0
    print("usage: python -m selftest.mutation.score sample N | report | check [NAMES] | pending")
    return 2


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
