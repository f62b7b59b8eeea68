"""Check requests and responses against the core-engine/1 JSON Schemas (draft 2020-12).

Every schema is self-contained (no ``$ref``). Integers are JSON numbers written
without a fraction or exponent, as Python parses them: ``1.0`` is not an integer.
A failure raises :class:`ProtocolViolation` with a one-line message naming the
JSON path that failed.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator, validators
from jsonschema.exceptions import best_match

SCHEMA_DIR = Path(__file__).resolve().parent / "schemas"
MAX_MESSAGE_LEN = 300


class ProtocolViolation(Exception):
    """A request or response breaks the protocol; the message names the failing JSON path."""


def _is_integer(_checker: object, instance: object) -> bool:
    return type(instance) is int


def _is_number(_checker: object, instance: object) -> bool:
    return type(instance) in (int, float)


# types-jsonschema leaves validators.extend unannotated.
WireValidator = validators.extend(  # type: ignore[no-untyped-call]
    Draft202012Validator,
    type_checker=Draft202012Validator.TYPE_CHECKER.redefine_many(
        {"integer": _is_integer, "number": _is_number}
    ),
)


def load_schemas() -> dict[str, dict[str, Any]]:
    """Every schema by file stem: ``request``, ``response``, ``args.<op>``, ``result.<op>``."""
    return {
        path.stem: json.loads(path.read_text(encoding="utf-8"))
        for path in sorted(SCHEMA_DIR.glob("*.json"))
    }


@lru_cache(maxsize=1)
def _validators() -> dict[str, Any]:
    return {name: WireValidator(schema) for name, schema in load_schemas().items()}


def _one_line(text: str) -> str:
    flat = " ".join(text.splitlines())
    return flat if len(flat) <= MAX_MESSAGE_LEN else flat[: MAX_MESSAGE_LEN - 3] + "..."


def _check(name: str, instance: object, where: str) -> None:
    error = best_match(_validators()[name].iter_errors(instance))
    if error is None:
        return
    path = where + error.json_path[1:]
    raise ProtocolViolation(_one_line(f"{path}: {error.message} (schema {name})"))


def has_schema(name: str) -> bool:
    """True when a schema of that stem exists, e.g. ``has_schema("result.hello")``."""
    return name in _validators()


def validate_request(obj: object) -> None:
    """Check a request envelope and, for a protocol op, its args."""
    _check("request", obj, "$")
    assert isinstance(obj, dict)  # the request schema admits only objects
    op = obj["op"]
    if has_schema(f"args.{op}"):
        _check(f"args.{op}", obj.get("args", {}), "$.args")


def validate_event(obj: object) -> None:
    """Check one event line of a streaming op (``{"id", "event", "generation", "identity"}``)."""
    _check("event", obj, "$")


def validate_response(
    request_op: str, obj: object, *, inner_ops: Sequence[str | None] | None = None
) -> None:
    """Check a response envelope and, when ok, the result schema of *request_op*.

    Results of ops outside the protocol are only checked to be objects. For a
    batch, *inner_ops* (the op of each batched request, None when it had none)
    also checks every inner response against its own op.
    """
    _check_response(request_op, obj, "$")
    assert isinstance(obj, dict)  # the response schema admits only objects
    if request_op == "batch" and inner_ops is not None and obj.get("ok") is True:
        _check_inner(inner_ops, obj["result"]["responses"])


def _check_response(op: str | None, obj: object, where: str) -> None:
    _check("response", obj, where)
    assert isinstance(obj, dict)  # the response schema admits only objects
    if obj["ok"] is True and op is not None and has_schema(f"result.{op}"):
        _check(f"result.{op}", obj["result"], f"{where}.result")


def _check_inner(inner_ops: Sequence[str | None], responses: list[Any]) -> None:
    if len(inner_ops) != len(responses):
        message = f"$.result.responses: {len(responses)} responses to {len(inner_ops)} requests"
        raise ProtocolViolation(message)
    for index, (op, response) in enumerate(zip(inner_ops, responses, strict=True)):
        _check_response(op, response, f"$.result.responses[{index}]")
