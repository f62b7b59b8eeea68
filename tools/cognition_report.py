"""``nox -s cognition``: the cognition lane's metrics, four registers side by side.

The holdout sets are reported only in aggregate: development does not tune on them.
The natural holdout is scored on intent, subject and whether the answer says something
about the subject (docs/golden.md § The natural holdout).
"""

from __future__ import annotations

from lanes._support.cognition import HOLDOUTS, REGISTERS, load_cases, measure, metrics_table
from lanes._support.natural import NATURAL, load_natural, measure_all, natural_table


def main() -> int:
    for name in ("public", *HOLDOUTS):
        cases = load_cases(name)
        per_register = {register: measure(cases, register) for register in REGISTERS}
        print(metrics_table(f"{name} ({len(cases)} cases)", per_register))
        print()
    print(natural_table(f"{NATURAL} ({len(load_natural())} cases)", measure_all()))
    print()
    dev = "natural_dev"
    print(natural_table(f"{dev} ({len(load_natural(dev))} cases)", measure_all(dev)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
