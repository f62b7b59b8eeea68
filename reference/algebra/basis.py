"""Basis blades of Cl(4,1) and the sign table of their geometric product.

A multivector is a float64 array of shape ``(SIZE,)``. Index ``m`` holds the
coefficient of the blade with bitmask ``m``: bit ``i`` set means ``e_{i+1}`` is
a factor, and factors are written in ascending order. ``e1..e4`` square to
``+1`` and ``e5`` squares to ``-1``. Every table is computed once at import and
is read-only.
"""

from __future__ import annotations

from typing import TypeVar

import numpy as np
from numpy.typing import NDArray

Multivector = NDArray[np.float64]
"""A multivector: a float64 array of shape ``(SIZE,)``, one coefficient per basis blade."""

_Scalar = TypeVar("_Scalar", bound=np.generic)


def _read_only(table: NDArray[_Scalar]) -> NDArray[_Scalar]:
    table.setflags(write=False)
    return table


DIM = 5
SIZE = 1 << DIM
METRIC: NDArray[np.float64] = _read_only(np.array([1.0, 1.0, 1.0, 1.0, -1.0]))


def _factors(mask: int) -> list[int]:
    return [i for i in range(DIM) if mask >> i & 1]


def _blade_name(mask: int) -> str:
    if mask == 0:
        return "1"
    return "e" + "".join(str(i + 1) for i in _factors(mask))


def _reordering_sign(left: int, right: int) -> int:
    swaps = sum((left >> (i + 1)).bit_count() for i in _factors(right))
    return -1 if swaps % 2 else 1


def _metric_sign(left: int, right: int) -> int:
    sign = 1
    for i in _factors(left & right):
        sign *= int(METRIC[i])
    return sign


def blade_product_sign(left: int, right: int) -> int:
    """Return the sign s with ``blade(left) * blade(right) = s * blade(left ^ right)``.

    The sign counts the swaps that bring the factors into ascending order and the metric
    signature of the factors that cancel.
    """
    return _reordering_sign(left, right) * _metric_sign(left, right)


def _product_sign_table() -> NDArray[np.float64]:
    table = np.empty((SIZE, SIZE))
    for out in range(SIZE):
        for right in range(SIZE):
            table[out, right] = blade_product_sign(out ^ right, right)
    return table


def _reverse_sign(grade: int) -> float:
    return -1.0 if (grade * (grade - 1) // 2) % 2 else 1.0


GRADE = _read_only(np.array([mask.bit_count() for mask in range(SIZE)], dtype=np.int64))
BLADE_NAMES = tuple(_blade_name(mask) for mask in range(SIZE))
PRODUCT_LEFT: NDArray[np.intp] = _read_only(np.bitwise_xor.outer(np.arange(SIZE), np.arange(SIZE)))
PRODUCT_SIGN = _read_only(_product_sign_table())
REVERSE_SIGN: NDArray[np.float64] = _read_only(np.array([_reverse_sign(int(r)) for r in GRADE]))
