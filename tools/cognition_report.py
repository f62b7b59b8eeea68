"""``nox -s cognition``: the cognition lane's metrics, four registers side by side.

The holdout sets are reported only in aggregate: development does not tune on them.
"""

from __future__ import annotations

from lanes._support.cognition import HOLDOUTS, REGISTERS, load_cases, measure, metrics_table


def main() -> int:
    for name in ("public", *HOLDOUTS):
        cases = load_cases(name)
        per_register = {register: measure(cases, register) for register in REGISTERS}
        print(metrics_table(f"{name} ({len(cases)} cases)", per_register))
        print()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
