"""JSON values as they cross the core-engine/1 protocol, typed once for the whole suite.

A leaf module: it imports nothing from the suite.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, TypeAlias

JSONValue: TypeAlias = "None | bool | int | float | str | list[JSONValue] | dict[str, JSONValue]"
"""Any value ``json.loads`` can return."""

JSONEncodable: TypeAlias = (
    "None | bool | int | float | str | Sequence[JSONEncodable] | Mapping[str, JSONEncodable]"
)
"""What the suite may send: JSON built of any sequences (tuples are written as arrays) and
string-keyed mappings, so a ``list[float]`` or ``dict[str, str]`` needs no conversion."""

EncodableObject: TypeAlias = "Mapping[str, JSONEncodable]"
"""A request, or the args of one, as the suite builds it."""

Result: TypeAlias = dict[str, Any]
"""The result object of a successful call; the requirement reading it checks each field."""
