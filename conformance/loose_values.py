"""Values another language's loose tests confuse: plain data for the plans that send them.

A port written in a language with truthiness (PHP, JavaScript, Perl, Lua, Python itself)
or loose equality treats some non-empty texts as absent, some distinct texts as equal, and
some JSON values as others. docs/ gives none of them a special meaning: each is data like
any other text or object, used and written as it is.
"""

from __future__ import annotations

from conformance.jsontypes import EncodableObject

FALSY_TEXTS = (
    "0",
    "0.0",
    "00",
    "-0",
    "false",
    "False",
    "null",
    "nil",
    "None",
    "undefined",
    "NaN",
    "[]",
    "{}",
)
"""Non-empty texts a truthiness test or a loose comparison with ``false``, ``0`` or ``null``
reads as absent in some language (PHP ``empty("0")``, ``"0" == false``, a text parsed before
it is tested)."""

NUMERIC_TWINS = (("10", "1e1"), ("1", "01"), ("1", "1.0"), ("0", "0.0"), ("100", "1E2"))
"""Pairs of distinct valid register ids equal as numbers (PHP's ``==`` on numeric strings,
a text parsed to a number before it is compared)."""

EMPTY_SHAPES: dict[str, EncodableObject] = {
    "the empty object": {},
    "empty containers inside": {"a": {}, "b": [], "c": [{}], "d": {"e": []}},
    "falsy members": {"zero": 0, "false": False, "null": None, "empty": "", "text": "0"},
    "integer-like keys": {"10": 1, "9": 2, "0": 3, "": 4},
    "deeply nested": {"a": [[[{"b": [[{}]]}]]]},
}
"""JSON objects whose empty or falsy parts an encoder of another language writes as something
else (PHP writes an empty object as ``[]``; a table-backed one renumbers integer-like keys;
a writer that skips falsy members drops them)."""
