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


@pytest.mark.parametrize(
    ("text", "refused"),
    [
        ("1" * 1000, False),
        ("-" + "1" * 1001, True),
        ("[1, " + "2" * 1001 + "]", True),
        ("1e308", False),
        ("1.8e308", True),
        ("-1E+0400", True),
        ("9" * 309 + ".0", True),
        ("[1.5e-400, 0.25, -3]", False),
    ],
)
def test_numbers_out_of_range_are_refused_with_or_without_hooks(text: str, refused: bool) -> None:
    if refused:
        with pytest.raises(RefusedJSON):
            read_json(text)
    else:
        assert read_json(text) == json.loads(text)
