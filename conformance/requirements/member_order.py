"""JSON objects carry no member order: an engine answers the same whatever order it reads.

docs/protocol.md § Requests: "Sorted" strings, keys and lists are in Unicode code point order
throughout; docs/registers.md § The ratification gate: `per_intent_keys` (sorted),
`realizer_overrides_keys` (sorted top-level keys), digests over canonical JSON (sorted
keys); § Structural check order: unknown names reported sorted; docs/state.md: records and
proposals written as their canonical JSON. None of these depends on the order in which a
request lists an object's members, so an engine that uses the order members arrive in (a
port's ``Object.keys``, an ordered map) answers a request differently once its objects are
reversed or rotated. Each request here is sent three times, its args' objects at every
depth in sorted, reversed and rotated member order (``json.dumps`` keeps a dict's order on
the wire and in the in-process round trip), and the answers must be byte for byte the same
canonical JSON, ids aside.
"""

from __future__ import annotations

import base64
import contextlib
import itertools
import json
from pathlib import Path
from typing import Any

from hypothesis import strategies as st

from conformance import strategies as gen
from conformance.canonical import canonical_json
from conformance.engines.base import EngineClient, EngineFault, EngineRefused, shown
from conformance.engines.view import member
from conformance.oracle import BUCKET_NAMES, DEPTH_KEY, INTENT_NAMES, PER_INTENT_KEY
from conformance.requirements.registry import requirement
from conformance.state.driver import put, scratch

ORDERS = ("sorted", "reversed", "rotated")
"""The member orders each request is sent in; the first is the one compared against."""


def _keys(keys: list[str], order: str) -> list[str]:
    ranked = sorted(keys)
    if order == "reversed":
        return ranked[::-1]
    if order == "rotated":
        return ranked[1:] + ranked[:1]
    return ranked


def reordered(value: Any, order: str) -> Any:
    """*value* with every object, at every depth, listing its members in *order*."""
    if isinstance(value, dict):
        return {key: reordered(value[key], order) for key in _keys(list(value), order)}
    if isinstance(value, list):
        return [reordered(item, order) for item in value]
    return value


_ids = itertools.count(1)


def _answer(engine: EngineClient, op: str, args: dict[str, Any]) -> dict[str, Any]:
    """The response to *op* as sent (its args in their given order), its id removed."""
    request: dict[str, Any] = {"id": f"member-order-{next(_ids)}", "op": op, "args": args}
    response = engine.raw(request)
    if not isinstance(response, dict):
        raise EngineFault(
            "protocol", f"response to {shown(op)} is not an object: {str(response)[:200]}"
        )
    return {key: value for key, value in response.items() if key != "id"}


def _shown(value: Any) -> str:
    """*value* for a message: a base64 file decoded to its text, anything else as JSON."""
    if isinstance(value, str):
        with contextlib.suppress(ValueError, UnicodeDecodeError):
            return repr(base64.b64decode(value, validate=True).decode("utf-8"))
    return canonical_json(value)


def _differences(base: Any, other: Any, path: str = "$") -> list[tuple[str, Any, Any]]:
    """The paths where *other* differs from *base*, with both values, depth first."""
    if isinstance(base, dict) and isinstance(other, dict):
        found = []
        for key in sorted(base.keys() | other.keys()):
            found += _differences(base.get(key), other.get(key), f"{path}.{key}")
        return found
    if isinstance(base, list) and isinstance(other, list) and len(base) == len(other):
        found = []
        for index, (a, b) in enumerate(zip(base, other, strict=True)):
            found += _differences(a, b, f"{path}[{index}]")
        return found
    return [] if canonical_json(base) == canonical_json(other) else [(path, base, other)]


def _same(what: str, answers: dict[str, Any]) -> None:
    base = answers[ORDERS[0]]
    for order in ORDERS[1:]:
        found = _differences(base, answers[order])
        # A file's bytes differ whenever a member of the report they hold differs: name the
        # member first, then the file.
        found.sort(key=lambda item: ".files." in item[0])
        lines = [
            f"  {path}: {_shown(got)[:300]} where sorted order gave {_shown(want)[:300]}"
            for path, want, got in found[:4]
        ]
        more = f"\n  ... and {len(found) - 4} more" if len(found) > 4 else ""
        assert not found, (
            f"{what}: sent with every object's members in {order} order, the engine answered "
            "differently from the same request in sorted order (ids aside):\n"
            + "\n".join(lines)
            + more
            + "\nA JSON object has no member order (docs/protocol.md § Requests; what the docs "
            "call sorted is in code point order, whatever order the request lists the members in)"
        )


# The corpus ---------------------------------------------------------------------------------

_intent_sets = st.lists(st.sampled_from(INTENT_NAMES), min_size=2, max_size=5, unique=True)
_unknown_names = st.lists(
    st.text("abcdefgh_XYZ", min_size=1, max_size=6), min_size=2, max_size=4, unique=True
)


@st.composite
def packs(draw: st.DrawFn) -> dict[str, Any]:
    """A valid pack whose realizer_overrides has both top-level keys, per_intent 2+ intents,
    and all three marker buckets."""
    scoped = {
        intent: draw(st.sampled_from(({}, {DEPTH_KEY: 1}, {DEPTH_KEY: 2}, {DEPTH_KEY: 3})))
        for intent in draw(_intent_sets)
    }
    overrides = {DEPTH_KEY: draw(gen.depths), PER_INTENT_KEY: scoped}
    markers = {
        "openings": draw(st.lists(gen.markers, min_size=1, max_size=4)),
        "transitions": draw(st.lists(gen.markers, min_size=1, max_size=3)),
        "closings": draw(st.lists(gen.markers, min_size=1, max_size=4)),
    }
    depth = draw(st.sampled_from(("terse", "standard", "pedagogical")))
    return gen.pack(
        draw(gen.register_ids), overrides=overrides, markers=markers, depth_preference=depth
    )


@st.composite
def bad_pack(draw: st.DrawFn, document: dict[str, Any], kind: str) -> dict[str, Any]:
    """*document* with two or more faults of one step, which the docs report sorted."""
    names = draw(_unknown_names)
    broken: dict[str, Any] = json.loads(json.dumps(document))
    overrides = broken["realizer_overrides"]
    if kind == "intents":
        overrides[PER_INTENT_KEY].update({name: {} for name in names})
    elif kind == "intent keys":
        first = sorted(overrides[PER_INTENT_KEY])[0]
        overrides[PER_INTENT_KEY][first] = {name: 1 for name in names}
    elif kind == "override keys":
        overrides.update({name: 1 for name in names})
    elif kind == "fields":
        broken.update({f"x_{name}": "" for name in names})
    else:
        broken["discourse_markers"].update({f"x_{name}": [] for name in names})
    return broken


FAULTS = ("intents", "intent keys", "override keys", "fields", "buckets")
"""The faults of which a bad pack holds two or more: unknown per_intent names, unknown keys
of one per-intent value, unknown top-level override keys, unknown top-level fields, unknown
marker buckets."""

_records = st.builds(
    lambda key, lemma, score, pattern, weight: [
        {"kind": "candidate", "key": key, "lemma": lemma, "score": score, "status": "coherent"},
        {"kind": "recognizer", "key": key, "pattern": pattern, "weight": weight},
    ],
    st.text("abcdefxyz", min_size=1, max_size=8),
    st.text("abcdefxyz", min_size=1, max_size=8),
    st.integers(-1000, 1000),
    st.text(max_size=8),
    st.integers(0, 99),
)
_leaf = st.one_of(
    st.integers(-(2**53) + 1, 2**53 - 1), st.text(max_size=6), st.booleans(), st.none()
)
_proposals = st.dictionaries(
    st.text(min_size=1, max_size=5),
    st.recursive(
        _leaf,
        lambda inner: st.one_of(
            st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=4), inner, max_size=4)
        ),
        max_leaves=10,
    ),
    min_size=2,
    max_size=5,
)


@st.composite
def scenarios(draw: st.DrawFn) -> dict[str, Any]:
    document = draw(packs())
    return {
        "pack": document,
        "bad_packs": {kind: draw(bad_pack(document, kind)) for kind in FAULTS},
        "intent": draw(gen.intents),
        "decorate": {
            "surface": draw(st.text(max_size=24)),
            "trace_hash": draw(gen.hex_hashes),
            "turn_idx": draw(gen.turn_indices),
        },
        "records": draw(_records),
        "proposals": draw(st.lists(_proposals, min_size=1, max_size=3)),
    }


def _requests(
    engine: EngineClient, scenario: dict[str, Any]
) -> list[tuple[str, str, dict[str, Any]]]:
    """(what, op, args) of every claimed op the scenario gives, args in sorted order."""
    claimed = engine.capabilities()
    document = scenario["pack"]
    rid = document["register_id"]
    out: list[tuple[str, str, dict[str, Any]]] = []
    if "registers.validate" in claimed:
        out.append(
            ("register.validate", "register.validate", {"pack": document, "expected_id": rid})
        )
        for kind, bad in scenario["bad_packs"].items():
            what = f"register.validate of a pack with 2+ {kind} unknown"
            out.append((what, "register.validate", {"pack": bad}))
    if "registers.ratify" in claimed:
        out.append(("register.ratify", "register.ratify", {"pack": document}))
        for kind, bad in scenario["bad_packs"].items():
            what = f"register.ratify of a pack with 2+ {kind} unknown"
            out.append((what, "register.ratify", {"pack": bad}))
    if "overrides" in claimed:
        args = {"realizer_overrides": document["realizer_overrides"], "intent": scenario["intent"]}
        out.append(("overrides.resolve", "overrides.resolve", args))
        scoped = document["realizer_overrides"][PER_INTENT_KEY]
        for intent in sorted(scoped)[:2]:
            out.append(
                (f"overrides.resolve of {intent}", "overrides.resolve", {**args, "intent": intent})
            )
    if "variation" in claimed:
        markers = {name: document["discourse_markers"][name] for name in BUCKET_NAMES}
        args = {**scenario["decorate"], "discourse_markers": markers, "register_id": rid}
        out.append(("variation.decorate", "variation.decorate", args))
    if "registers.ratify" in claimed and "registers.load" in claimed:
        files = dict(member(engine.call("register.ratify", {"pack": document}), "files", "object"))
        out.append(("register.load", "register.load", {"register_id": rid, "files": files}))
    return out


def _session_answers(engine: EngineClient, args: dict[str, Any]) -> dict[str, Any]:
    """session.open with *args* (its session id aside), then one turn's answer."""
    opened = _answer(engine, "session.open", args)
    result = opened.get("result")
    if not isinstance(result, dict) or not isinstance(result.get("session"), str):
        return {"open": opened}
    session = result["session"]
    try:
        chat = _answer(engine, "session.chat", {"session": session, "text": "What is a dog?"})
    finally:
        with contextlib.suppress(EngineRefused):
            engine.call("session.close", {"session": session})
    return {
        "open": {**opened, "result": {k: v for k, v in result.items() if k != "session"}},
        "chat": chat,
    }


def _store_answers(engine: EngineClient, scenario: dict[str, Any], order: str) -> dict[str, Any]:
    """What docs/state.md fixes of a store fed the scenario's records and proposals in *order*:
    its digest, and the bytes of its proposals journal."""
    with scratch() as directory:
        store = engine.call("state.open", {"dir": str(directory)})["store"]
        try:
            mutations = [put(record) for record in scenario["records"]] + [{"op": "turn"}]
            applied = _answer(
                engine, "state.apply", reordered({"store": store, "mutations": mutations}, order)
            )
            proposed = [
                _answer(engine, "state.propose", {"store": store, "proposal": reordered(p, order)})
                for p in scenario["proposals"]
            ]
            digest = engine.call("state.digest", {"store": store})
        finally:
            engine.call("state.close", {"store": store})
        journal = Path(directory) / "proposals.journal"
        data = (
            journal.read_bytes().decode("utf-8", "backslashreplace") if journal.exists() else None
        )
    return {
        "state.apply": applied,
        "state.propose": proposed,
        "state.digest": {k: digest[k] for k in ("identity", "generation", "turn_count", "dirty")},
        "proposals.journal": data,
    }


@requirement(
    "PROTO-ORDER-006",
    "every request is answered the same (result or error, byte for byte as canonical JSON, "
    "ids aside) when every object of its args lists its members in reverse or rotated order: "
    "register.validate, register.ratify (evidence keys, seal), refusals naming the sorted-first "
    "fault, register.load and session.open with 2+ files, overrides.resolve, "
    "variation.decorate, batch; state.apply and state.propose give the same digest and "
    "journal bytes",
    family="protocol",
    capabilities=(),
    seed='docs/protocol.md § Requests ("Sorted" ... code point order throughout); '
    "docs/registers.md § Structural check order (sorted), § The ratification gate "
    "(per_intent_keys (sorted), realizer_overrides_keys (sorted top-level keys)), "
    "§ Digests (canonical JSON); docs/state.md (canonical JSON records and proposals)",
    strategy=lambda ctx: scenarios(),
    max_examples=6,
)
def member_order_free(engine: EngineClient, scenario: dict[str, Any]) -> None:
    claimed = engine.capabilities()
    requests = _requests(engine, scenario)
    for what, op, args in requests:
        _same(what, {order: _answer(engine, op, reordered(args, order)) for order in ORDERS})
    if "batch" in claimed and requests:
        inner = [{"id": i, "op": op, "args": args} for i, (_, op, args) in enumerate(requests)]
        _same(
            "batch",
            {
                order: _answer(engine, "batch", reordered({"requests": inner}, order))
                for order in ORDERS
            },
        )
    if "sessions" in claimed and requests and requests[-1][1] == "register.load":
        args = dict(requests[-1][2])
        _same(
            "session.open with 2 files",
            {o: _session_answers(engine, reordered(args, o)) for o in ORDERS},
        )
    if "state" in claimed:
        answers = {order: _store_answers(engine, scenario, order) for order in ORDERS}
        _same("state.apply and state.propose on a fresh store", answers)
