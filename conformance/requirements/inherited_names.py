"""A name is only the string it is: names a language's objects inherit are unknown names.

docs/protocol.md § Closed lists: every op, argument, list member, pack key and handle is
matched code point by code point, and a name these docs do not list gets the answer of
any other unknown name of its shape. For every claimed op, each name of
:data:`~conformance.inherited_names.INHERITED_NAMES` is put in every place of a
well-formed request where a name arrives (the op, a member of the request, of its args
and of every object inside them, every string value but paths), beside its control (the
same name one letter away): the two answers must agree in ``ok``, code and field.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from conformance import cases
from conformance.engines.base import EngineClient
from conformance.inherited_names import INHERITED_NAMES, as_named, control
from conformance.oracle import BUCKET_NAMES
from conformance.requirements.registry import requirement
from conformance.requirements.reserved import op_names
from conformance.requirements.type_matrix import RECORDS, base_args, op_capability
from conformance.state.driver import Stores, scratch
from conformance.strategies import pack

PATHS = frozenset({"dir", "path", "socket"})
"""String arguments that are paths: a name there would be a file in the engine's cwd."""

ACTING = frozenset(
    {
        "engine.fork",
        "register.ratify_file",
        "session.close",
        "state.apply",
        "state.checkpoint",
        "state.close",
        "state.open",
        "state.propose",
        "state.soak",
        "state.trace_checkpoint",
    }
)
"""Ops whose well-formed request changes what the next one sees: a member of the request
is ignored, so the pair's first request would act and the second find it done."""


def _richer(op: str, root: Path, store: str | None) -> list[dict[str, Any]]:
    """Well-formed args of *op* whose objects hold the names a port keeps in tables."""
    markers = {name: ["So,"] for name in BUCKET_NAMES}
    overrides = {"per_intent": {"DEFINITION": {"disclosure_domain_count": 2}}}
    extra: dict[str, list[dict[str, Any]]] = {
        "register.validate": [{"pack": pack("names_v1", overrides=overrides, markers=markers)}],
        "register.ratify": [{"pack": pack("names_v1", overrides=overrides, markers=markers)}],
        "overrides.resolve": [{"realizer_overrides": overrides, "intent": "DEFINITION"}],
        "session.open": [{"register_id": "default_neutral_v1"}],
        "batch": [{"requests": [{"id": 1, "op": "hello", "args": {}}]}],
    }
    found = extra.get(op, [])
    if store is not None and op == "state.apply":
        put = {"op": "put", "record": dict(RECORDS["candidate"])}
        delete = {"op": "delete", "kind": "candidate", "key": "k"}
        found = [{"store": store, "mutations": [m]} for m in (put, delete)]
    elif store is not None and op == "state.digest":
        found = [{"store": store}]
    return [base_args(op, root), *found]


def _objects(value: Any, path: str = "") -> Iterator[tuple[str, dict[str, Any]]]:
    if isinstance(value, dict):
        yield path, value
        for key, member in value.items():
            yield from _objects(member, f"{path}.{key}")
    elif isinstance(value, list):
        for index, member in enumerate(value):
            yield from _objects(member, f"{path}[{index}]")


def _strings(value: Any, path: str = "") -> Iterator[tuple[str, Any, Any]]:
    """(path, container, key) of every string value outside :data:`PATHS`."""
    items = value.items() if isinstance(value, dict) else enumerate(value)
    for key, member in items:
        where = f"{path}.{key}" if isinstance(value, dict) else f"{path}[{key}]"
        if isinstance(member, str) and key not in PATHS:
            yield where, value, key
        elif isinstance(member, dict | list):
            yield from _strings(member, where)


def _object_at(request: dict[str, Any], where: str) -> dict[str, Any]:
    return next(found for place, found in _objects(request) if place == where)


def _placed(request: dict[str, Any], name: str) -> Iterator[tuple[str, dict[str, Any]]]:
    """Every request *request* becomes with *name* in one place where a name arrives."""
    yield "the op", {**request, "op": name}
    for where, _ in list(_objects(request)):
        if not where and request["op"] in ACTING:
            continue
        changed = copy.deepcopy(request)
        target = _object_at(changed, where)
        target[name] = copy.deepcopy(next(iter(target.values()), 1))
        yield f"a member of {where or 'the request'}", changed
    for where, _, _ in list(_strings(request["args"], ".args")):
        changed = copy.deepcopy(request)
        for place, container, key in _strings(changed["args"], ".args"):
            if place == where:
                container[key] = name
        yield f"the value of {where}", changed


def _outcome(response: Any, name: str) -> tuple[Any, ...]:
    if not isinstance(response, dict):
        return ("not an object",)
    error = response.get("error")
    if response.get("ok") is True or not isinstance(error, dict):
        result = response.get("result")
        inner = result.get("responses") if isinstance(result, dict) else None
        return (response.get("ok"), _inner(inner, name))
    field = error.get("field")
    return (False, error.get("code"), as_named(field, name) if isinstance(field, str) else field)


def _inner(responses: Any, name: str) -> Any:
    """The outcomes of a batch's responses (None for another op's result)."""
    if not isinstance(responses, list):
        return None
    return tuple(_outcome(r, name) for r in responses)


def _pairs(engine: EngineClient, root: Path, store: str | None) -> list[tuple[str, Any, Any]]:
    claimed = engine.capabilities()
    ops = [op for op in op_names() if op == "hello" or op_capability(op) in claimed]
    sent: list[tuple[str, str, dict[str, Any], dict[str, Any]]] = []
    for op in ops:
        for args in _richer(op, root, store):
            request = {"id": 0, "op": op, "args": args}
            for name in INHERITED_NAMES:
                named = dict(_placed(request, name))
                for where, other in _placed(request, control(name)):
                    sent.append((f"{op}: {name!r} as {where}", name, named[where], other))
    return _exchange(engine, sent)


def _exchange(
    engine: EngineClient, sent: list[tuple[str, str, dict[str, Any], dict[str, Any]]]
) -> list[tuple[str, Any, Any]]:
    lines = []
    for number, (_, _, named, other) in enumerate(sent):
        for offset, request in enumerate((named, other)):
            lines.append(json.dumps({**request, "id": 2 * number + offset}, ensure_ascii=False))
    responses = engine.raw_lines(("\n".join(lines) + "\n").encode("utf-8"))
    found = []
    for number, (what, name, _, _) in enumerate(sent):
        got, expected = responses[2 * number], responses[2 * number + 1]
        found.append((what, _outcome(got, name), _outcome(expected, name)))
    return found


@requirement(
    "PROTO-NAMES-001",
    "a name a programming language's objects inherit (constructor, __proto__, toString, "
    "hasOwnProperty, valueOf, prototype, length, ...) is an unknown name like any other: "
    "as the op, as a member of a request, of its args or of any object inside them, and as "
    "any string value but a path, it gets the answer (ok, code, field) of the same name "
    "one letter away",
    family="protocol",
    capabilities=(),
    seed="docs/protocol.md § Closed lists are matched exactly (a name is only the string "
    "it is); § Requests (unknown members, unknown arguments)",
    max_examples=1,
)
def inherited_names_unknown(engine: EngineClient, _: object) -> None:
    with scratch() as root, Stores(engine) as stores:
        claimed = engine.capabilities()
        store = stores.open(root / "store")["store"] if "state" in claimed else None
        found = _pairs(engine, root, store)
    wrong = [
        f"{what}: {got}, where its control got {expected}"
        for what, got, expected in found
        if got != expected
    ]
    assert not wrong, cases.lines(
        wrong, f"{len(wrong)} of {len(found)} inherited names answered unlike their control:"
    )
