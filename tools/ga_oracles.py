"""Measure how well each installed geometric-algebra library agrees with docs/spec.md § Algebra.

For clifford, kingdon and galgebra (whichever are installed): the 1024 basis blade
products and the 32 reversions against the suite's exact table
(``conformance.algebra_oracle``), then dense products of random rational multivectors
against the exact product: exactly equal (a library computing in rationals) or the
largest error in ULPs of the sum of the terms' magnitudes (one computing in doubles).

    python -m tools.ga_oracles            # print the table
    python -m tools.ga_oracles --write    # and write it into docs/spec.md § Algebra
"""

from __future__ import annotations

import argparse
import importlib.metadata
import math
import random
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

from conformance.algebra_oracle import REVERSE, SIGNS, SIZE, exact_product

SPEC = Path(__file__).resolve().parent.parent / "docs" / "spec.md"
MARKERS = ("<!-- ga-oracles:begin -->", "<!-- ga-oracles:end -->")
DENSE = 40
"""Dense random products per library (galgebra is symbolic and slow: it gets fewer)."""

Multivector = list[Fraction]


@dataclass(frozen=True)
class Library:
    """One library as the measurement drives it: names, a product, a reversion."""

    name: str
    exact: bool
    product: Callable[[Multivector, Multivector], list[Fraction | float]]
    reverse: Callable[[Multivector], list[Fraction | float]]
    dense: int = DENSE


def _kingdon() -> Library:
    from kingdon import Algebra

    algebra = Algebra(4, 1)
    keys = tuple(range(SIZE))

    def read(mv: object) -> list[Fraction | float]:
        out: list[Fraction | float] = [Fraction(0)] * SIZE
        for key, value in zip(mv.keys(), mv.values(), strict=True):  # type: ignore[attr-defined]
            out[key] = value
        return out

    def make(a: Multivector) -> object:
        return algebra.multivector(values=list(a), keys=keys)

    return Library(
        "kingdon",
        True,
        lambda a, b: read(make(a) * make(b)),  # type: ignore[operator]
        lambda a: read(~make(a)),  # type: ignore[operator]
    )


def _clifford() -> Library:
    import clifford
    import numpy as np

    layout, _ = clifford.Cl(4, 1)
    index = {name: i for i, name in enumerate(layout.names)}
    order = [
        index["e" + "".join(str(i + 1) for i in range(5) if m >> i & 1) if m else ""]
        for m in range(SIZE)
    ]

    def make(a: Multivector) -> object:
        values = np.zeros(SIZE)
        values[order] = [float(x) for x in a]
        return layout.MultiVector(values)

    def read(mv: object) -> list[Fraction | float]:
        return [float(mv.value[order[m]]) for m in range(SIZE)]  # type: ignore[attr-defined]

    return Library(
        "clifford",
        False,
        lambda a, b: read(make(a) * make(b)),  # type: ignore[operator]
        lambda a: read(~make(a)),  # type: ignore[operator]
    )


def _galgebra() -> Library:
    import sympy
    from galgebra.ga import Ga

    ga, *axes = Ga.build("e1 e2 e3 e4 e5", g=[1, 1, 1, 1, -1])
    blades = []
    for m in range(SIZE):
        factors = [axes[i] for i in range(5) if m >> i & 1]
        blade = ga.mv(sympy.S(1)) if not factors else factors[0]
        for factor in factors[1:]:
            blade = blade * factor
        blades.append(blade)

    def make(a: Multivector) -> object:
        total = ga.mv(sympy.S(0))
        for m, x in enumerate(a):
            if x:
                total = total + sympy.Rational(x.numerator, x.denominator) * blades[m]
        return total

    def read(mv: object) -> list[Fraction | float]:
        out: list[Fraction | float] = []
        for m in range(SIZE):
            # the coefficient of blade m: the scalar part of mv times blade m's inverse
            inverse = blades[m].rev() * (1 / (blades[m] * blades[m].rev()).scalar())
            value = sympy.Rational((mv * inverse).scalar())  # type: ignore[operator]
            out.append(Fraction(int(value.p), int(value.q)))
        return out

    return Library(
        "galgebra",
        True,
        lambda a, b: read(make(a) * make(b)),  # type: ignore[operator]
        lambda a: read(make(a).rev()),  # type: ignore[attr-defined]
        dense=4,
    )


LOADERS = {"clifford": _clifford, "galgebra": _galgebra, "kingdon": _kingdon}


def _blade(mask: int) -> Multivector:
    return [Fraction(1 if m == mask else 0) for m in range(SIZE)]


def _random_mv(rng: random.Random) -> Multivector:
    return [
        Fraction(rng.randint(-(10**6), 10**6), rng.choice((1, 2**10, 2**20))) for _ in range(SIZE)
    ]


def measure(library: Library, seed: int = 20261202) -> dict[str, str]:
    """One row of the table: agreement counts, dense errors, time per dense product."""
    blade_bad = sum(
        1
        for a in range(SIZE)
        for b in range(SIZE)
        if library.product(_blade(a), _blade(b))
        != [Fraction(SIGNS[a][b] if m == a ^ b else 0) for m in range(SIZE)]
    )
    reverse_bad = sum(1 for m in range(SIZE) if library.reverse(_blade(m))[m] != REVERSE[m])
    rng = random.Random(seed)
    worst, exact_count, started = 0.0, 0, time.perf_counter()
    for _ in range(library.dense):
        a, b = _random_mv(rng), _random_mv(rng)
        got = library.product(a, b)
        expected, sizes = exact_product(a, b)
        if [Fraction(x) for x in got] == expected:
            exact_count += 1
        for g, e, s in zip(got, expected, sizes, strict=True):
            if s:
                worst = max(worst, float(abs(Fraction(g) - e)) / math.ulp(float(s)))
    per_product = (time.perf_counter() - started) / library.dense * 1000
    requires = importlib.metadata.requires(library.name) or []
    direct = sorted(
        {re.split(r"[ ;<>=!~\[]", r, maxsplit=1)[0] for r in requires if "extra" not in r}
    )
    return {
        "library": f"{library.name} {importlib.metadata.version(library.name)}",
        "blade products wrong": f"{blade_bad} of 1024",
        "blade reversions wrong": f"{reverse_bad} of 32",
        "dense products": (
            f"{exact_count} of {library.dense} exact"
            if library.exact
            else f"{exact_count} of {library.dense} exact, worst {worst:.2g} ULPs"
        ),
        "ms per dense product": f"{per_product:.1f}",
        "arithmetic": "exact (rationals)" if library.exact else "doubles",
        "requires": ", ".join(direct),
    }


def table(rows: Sequence[dict[str, str]]) -> str:
    """The rows as a Markdown table."""
    head = list(rows[0])
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    lines += ["| " + " | ".join(row[h] for h in head) + " |" for row in rows]
    return "\n".join(lines)


def write(text: str) -> None:
    """Put *text* between the markers of docs/spec.md."""
    spec = SPEC.read_text(encoding="utf-8")
    begin, end = MARKERS
    start, stop = spec.index(begin) + len(begin), spec.index(end)
    SPEC.write_text(spec[:start] + "\n" + text + "\n" + spec[stop:], encoding="utf-8")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--write", action="store_true", help="write the table into docs/spec.md")
    args = parser.parse_args(argv)
    rows = []
    for name, load in LOADERS.items():
        try:
            library = load()
        except ImportError:
            print(f"{name}: not installed, skipped")
            continue
        rows.append(measure(library))
    if not rows:
        print("no library installed")
        return 1
    text = (
        table(rows)
        + "\n\n(`python -m tools.ga_oracles`; random dense multivectors of "
        + "dyadic rationals (denominators 1, 2^10 and 2^20, exact in doubles), seed 20261202.)"
    )
    print(text)
    if args.write:
        write(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
