"""JSON values as they cross the core-engine/1 protocol, typed once for the whole suite.

A leaf module: it imports nothing from the suite.
"""

from __future__ import annotations

from typing import Any, TypeAlias

JSONValue: TypeAlias = "None | bool | int | float | str | list[JSONValue] | dict[str, JSONValue]"
"""Any value ``json.loads`` can return."""

JSONObject: TypeAlias = "dict[str, JSONValue]"
"""A JSON object: a request, its args, a response envelope."""

Result: TypeAlias = dict[str, Any]
"""The result object of a successful call; the requirement reading it checks each field."""
