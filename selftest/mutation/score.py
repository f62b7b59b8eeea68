"""Mutation score of the suite per module, from mutmut's results, and the CI sample.

Mutants are named by their stable key (:mod:`selftest.mutation.keys`) wherever a name must
outlive one generation of mutants: the reviewed list (:mod:`selftest.mutation.reviews`),
``sample.txt`` and the verdict cache (:mod:`selftest.mutation.cache`). mutmut's own names
(``..._mutmut_N``) are used only within one ``mutants/`` directory.

``python -m selftest.mutation.score``:

* ``report [--by-file]``: per package or module (or per file), killed, survived, "no
  tests" (no requirement reaches the mutated code), reviewed and unchecked mutants, and
  killed / (killed + survived + no tests);
* ``check [NAME|KEY ...]``: exit 1 on a stale review or sample line, or when a named mutant
  (default: every one the score counts) survived, was reached by no test or never ran;
* ``pending``: the mutmut names the score still waits for (not reviewed; not run, or no tests);
* ``sample BASE [COUNT]``: the CI sample: ``sample.txt``, the mutants of functions changed
  since the commit BASE, and COUNT (default 12) cached kills that rotate weekly;
* ``show NAME|KEY``: the lines a mutant changes;
* ``figures``: write ``docs/figures/mutation.json`` (per module and per file tallies, the
  per-mutant cost of the last :mod:`selftest.mutation.fastrun` run), which
  ``python -m tools.docfigures`` renders into docs/mutation.md;
* ``remember`` / ``recall``: store the verdicts of ``mutants/`` in ``verdicts.json`` / give
  back to mutmut every stored verdict that still holds (so unchanged code is not run again).
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

from selftest.mutation import cache, changed, figures, reviews
from selftest.mutation.keys import Mutant, mutant_table

HERE = Path(__file__).resolve().parent
SAMPLE = HERE / "sample.txt"
KILLED = cache.KILLED
ROTATING = 12


def module_of(name: str, depth: int = 2) -> str:
    """The package (``reference.truth``) or top-level module (``reference.canonical``); with
    *depth* 3, the module of a package (``reference.truth.text``)."""
    parts = name.split(".")
    return ".".join(parts[: min(depth, len(parts) - 1)])


def results(root: Path = Path("mutants")) -> dict[str, int | None]:
    """Every mutant's exit code (None when not run yet)."""
    import json

    codes: dict[str, int | None] = {}
    for meta in sorted(root.glob("reference/**/*.meta")):
        codes.update(json.loads(meta.read_text("utf-8"))["exit_code_by_key"])
    return codes


def verdict(code: int | None) -> str:
    if code is None:
        return "unchecked"
    if code in KILLED:
        return "killed"
    return "survived" if code == 0 else "no tests"


def tally(
    codes: dict[str, int | None], reviewed: dict[str, reviews.Review], depth: int = 2
) -> dict[str, Counter]:
    table: dict[str, Counter] = {}
    for name, code in sorted(codes.items()):
        counts = table.setdefault(module_of(name, depth), Counter())
        counts["reviewed" if name in reviewed else verdict(code)] += 1
    return table


def report(
    codes: dict[str, int | None], reviewed: dict[str, reviews.Review], depth: int = 2
) -> str:
    lines = [
        "| module | killed | survived | no tests | reviewed | unchecked "
        "| score: killed / (killed + survived + no tests) |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for module, c in sorted(tally(codes, reviewed, depth).items()):
        checked = c["killed"] + c["survived"] + c["no tests"]
        score = f"{100 * c['killed'] / checked:.1f}%" if checked else "-"
        lines.append(
            f"| {module} | {c['killed']} | {c['survived']} | {c['no tests']} "
            f"| {c['reviewed']} | {c['unchecked']} | {score} |"
        )
    return "\n".join(lines)


def resolve(targets: list[str], table: dict[str, Mutant]) -> tuple[list[str], list[str]]:
    """mutmut names for *targets* (names or keys), and the targets that name no mutant."""
    by_key = {m.key: m.name for m in table.values()}
    names, stale = [], []
    for target in targets:
        name = by_key.get(target) if "#" in target else (target if target in table else None)
        (names.append(name) if name else stale.append(target))
    return names, stale


def sample_targets(path: Path = SAMPLE) -> list[str]:
    if not path.is_file():
        return []
    lines = path.read_text("utf-8").splitlines()
    return [ln.split()[0] for ln in lines if ln.strip() and not ln.startswith("#")]


def check(
    codes: dict[str, int | None],
    reviewed: dict[str, reviews.Review],
    stale_reviews: list[reviews.Review],
    table: dict[str, Mutant],
    targets: list[str],
) -> int:
    problems = [f"stale review (equivalent.txt:{r.line}): {r.target}" for r in stale_reviews]
    names, stale = resolve(targets, table)
    problems += [f"stale: names no mutant of this reference: {t}" for t in stale]
    for name in sorted(set(names) if targets else set(codes)):
        code = codes.get(name)
        if code is None and (targets or name not in reviewed):
            problems.append(f"not run: {name} ({table[name].key})")
        elif code is not None and code not in KILLED and name not in reviewed:
            problems.append(f"{verdict(code)}: {name} ({table[name].key})")
    print("\n".join(problems) or "no survivor")
    return 1 if problems else 0


def pending(codes: dict[str, int | None], reviewed: dict[str, reviews.Review]) -> list[str]:
    return [n for n, c in sorted(codes.items()) if c in (None, 33) and n not in reviewed]


def main(argv: list[str]) -> int:
    command, args = (argv[0], argv[1:]) if argv else ("", [])
    table = mutant_table()
    if not table and command in {
        "report",
        "check",
        "pending",
        "sample",
        "show",
        "remember",
        "recall",
        "figures",
    }:
        print("no mutants/: generate them first (python -m selftest.mutation.generate)")
        return 2
    codes = results()
    review_list = reviews.load()
    reviewed = reviews.reviewed_names(review_list, table)
    if command == "report":
        print(report(codes, reviewed, 3 if args[:1] == ["--by-file"] else 2))
        return 0
    if command == "check":
        stale = reviews.stale(review_list, table)
        return check(codes, reviewed, stale, table, args)
    if command == "pending":
        print("\n".join(pending(codes, reviewed)))
        return 0
    if command == "sample" and args:
        count = int(args[1]) if len(args) > 1 else ROTATING
        fixed, stale = resolve(sample_targets(), table)
        for target in stale:
            print(f"stale sample line: {target}", file=sys.stderr)
        rest = changed.sample(table, cache.load(), args[0], count, changed.rotation_seed())
        chosen = [n for n in dict.fromkeys(fixed + rest) if n not in reviewed]
        print("\n".join(chosen))
        return 1 if stale else 0
    if command == "show" and args:
        names, _ = resolve(args, table)
        for name in names:
            mutant = table[name]
            print(f"{name}  {mutant.key}  {verdict(codes.get(name))}\n{mutant.description}")
        return 0 if names else 1
    if command == "remember":
        store = cache.load()
        written = cache.remember(store, codes, table, cache.suite_hash())
        cache.save(store)
        print(f"{written} verdicts stored in {cache.CACHE.name}")
        return 0
    if command == "figures":
        path = figures.write(codes, reviewed, table)
        print(f"wrote {path}")
        return 0
    if command == "recall":
        given = cache.recall(cache.load(), table, cache.suite_hash())
        print(f"{given} stored verdicts given back to mutmut")
        return 0
    print(
        "usage: python -m selftest.mutation.score report [--by-file] | check [NAME|KEY ...]"
        " | pending | sample BASE [COUNT] | show NAME|KEY | remember | recall"
    )
    return 2


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
