"""The suite's JSON reader refuses nesting deeper than MAX_DEPTH, counted over containers
wherever they sit (a deep object inside a wide list, behind scalars)."""

from __future__ import annotations

import json

import pytest

from conformance.canonical import MAX_DEPTH, RefusedJSON, read_json


def nested(levels: int) -> object:
    """*levels* containers, lists and objects alternating, the deepest among siblings."""
    value: object = []
    for level in range(levels - 2):
        value = [2, value, {}] if level % 2 else {"a": value, "b": []}
    return [*(["wide"] * 40), value]


@pytest.mark.parametrize("levels", [MAX_DEPTH - 1, MAX_DEPTH])
def test_nesting_up_to_the_limit_is_read(levels: int) -> None:
    assert read_json(json.dumps(nested(levels))) == nested(levels)


@pytest.mark.parametrize("levels", [MAX_DEPTH + 1, MAX_DEPTH + 5])
def test_deeper_nesting_is_refused(levels: int) -> None:
    with pytest.raises(RefusedJSON, match=f"nested deeper than {MAX_DEPTH} levels"):
        read_json(json.dumps(nested(levels)))
