"""Seeded surface variation: the selector, decoration, and their use in chat."""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

from hypothesis import strategies as st

from conformance import coverage, near_misses, oracle
from conformance import strategies as gen
from conformance.driver import ratified_files, run_script
from conformance.engines.base import EngineClient
from conformance.requirements.registry import requirement

SEED = "ADR-0071 § The seed"
DECORATION = "ADR-0071 § Decoration shape"
RUNTIME = "ADR-0071 § Runtime threading"


def _vectors(name: str) -> list[dict[str, Any]]:
    text = resources.files("conformance.data.vectors").joinpath(name).read_text("utf-8")
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def _select(engine: EngineClient, args: dict[str, Any]) -> dict[str, Any]:
    return engine.call("variation.select", args)


@requirement(
    "VAR-SELECT-001",
    "variation.select picks bucket[sha256(seed)[:8] big-endian mod len] on arbitrary inputs",
    family="variation",
    capabilities=("variation",),
    seed=SEED,
    strategy=lambda ctx: gen.select_args(st.one_of(st.just([]), gen.buckets)),
    cover=near_misses.select_cases,
)
def selector_formula(engine: EngineClient, args: dict[str, Any]) -> None:
    got = _select(engine, args)
    seed = (args["trace_hash"], args["register_id"], args["turn_idx"], args["bucket_name"])
    index = oracle.select_index(args["bucket"], *seed)
    expected = "" if index is None else args["bucket"][index]
    assert got["entry"] == expected, f"picked {got['entry']!r}, formula picks {expected!r}"
    assert got["index"] == index, f"index {got['index']}, formula gives {index}"


@requirement(
    "VAR-SELECT-002",
    "variation.select agrees with every known-answer vector",
    family="variation",
    capabilities=("variation",),
    seed=SEED,
)
def selector_vectors(engine: EngineClient, _: object) -> None:
    for line in _vectors("select.jsonl"):
        args = {k: line[k] for k in ("bucket", "trace_hash", "register_id", "turn_idx")}
        got = _select(engine, {**args, "bucket_name": line["bucket_name"]})
        assert got["entry"] == line["entry"], f"vector {line}: engine picked {got['entry']!r}"


def _one_input_changed(base: dict[str, Any], which: str, k: int) -> dict[str, Any]:
    changed = dict(base)
    if which == "turn_idx":
        changed["turn_idx"] = base["turn_idx"] + k
    elif which == "bucket_name":
        changed["bucket_name"] = oracle.BUCKET_NAMES[k % 3] if k < 3 else f"bucket{k}"
    else:
        changed[which] = f"{base[which]}~{k}"
    return changed


@requirement(
    "VAR-SELECT-003",
    "each of the four seed inputs (trace_hash, register_id, turn_idx, bucket_name) matters",
    family="variation",
    capabilities=("variation",),
    seed=SEED,
    strategy=lambda ctx: gen.select_args(st.just([f"m{i}" for i in range(32)])),
    max_examples=25,
)
def every_seed_input_matters(engine: EngineClient, args: dict[str, Any]) -> None:
    base = _select(engine, args)["index"]
    for which in ("trace_hash", "register_id", "turn_idx", "bucket_name"):
        variants = [_one_input_changed(args, which, k) for k in range(1, 13)]
        variants = [v for v in variants if v != args]
        picked = {_select(engine, v)["index"] for v in variants}
        assert picked != {base}, f"changing {which} 12 times never changed the pick ({base})"


@requirement(
    "VAR-DECOR-001",
    "variation.decorate returns opening + ' ' + surface + closing and the variant id",
    family="variation",
    capabilities=("variation",),
    seed=DECORATION,
    strategy=lambda ctx: st.fixed_dictionaries(
        {
            "surface": st.text(max_size=80),
            "discourse_markers": gen.discourse_markers(),
            "register_id": gen.register_ids,
            "trace_hash": gen.hex_hashes,
            "turn_idx": gen.turn_indices,
        }
    ),
    cover=coverage.decoration_shapes,
)
def decoration_formula(engine: EngineClient, args: dict[str, Any]) -> None:
    got = engine.call("variation.decorate", args)
    markers = args["discourse_markers"]
    expected = oracle.decorate(
        args["surface"],
        markers["openings"],
        markers["closings"],
        args["register_id"],
        args["trace_hash"],
        args["turn_idx"],
    )
    for key, value in expected.items():
        assert got.get(key) == value, f"{key}: engine {got.get(key)!r}, formula {value!r}"


@requirement(
    "VAR-DECOR-002",
    "variation.decorate agrees with every known-answer vector, variant ids included",
    family="variation",
    capabilities=("variation",),
    seed=DECORATION,
)
def decoration_vectors(engine: EngineClient, _: object) -> None:
    for line in _vectors("decorate.jsonl"):
        args = {k: line[k] for k in ("surface", "discourse_markers", "register_id", "trace_hash")}
        got = engine.call("variation.decorate", {**args, "turn_idx": line["turn_idx"]})
        for key in ("decorated", "opening", "closing", "register_variant_id"):
            assert got[key] == line[key], f"vector {line['decorated']!r}: {key} {got[key]!r}"
    table = json.loads(
        resources.files("conformance.data.vectors").joinpath("variant_ids.json").read_text("utf-8")
    )
    for pair, expected in table.items():
        opening, closing = pair.split("|")
        got = engine.call(
            "variation.decorate",
            {
                "surface": "x",
                "discourse_markers": {"openings": [opening], "closings": [closing]},
                "register_id": "r",
                "trace_hash": "0" * 64,
                "turn_idx": 0,
            },
        )
        assert got["register_variant_id"] == expected, f"variant id of {pair!r}"


def _check_decorated(
    responses: list[dict[str, Any]], markers: dict[str, Any], register_id: str
) -> None:
    for turn, response in enumerate(responses):
        assert response["turn_idx"] == turn, f"turn {turn} reported turn_idx {response['turn_idx']}"
        expected = oracle.decorate(
            response["pre_decoration_surface"],
            markers["openings"],
            markers["closings"],
            register_id,
            response["trace_hash"],
            turn,
        )
        assert response["surface"] == expected["decorated"], (
            f"turn {turn}: surface {response['surface']!r} is not the decoration "
            f"{expected['decorated']!r} of its own trace_hash, register id and turn index"
        )
        assert response["register_variant_id"] == expected["register_variant_id"], (
            f"turn {turn}: register_variant_id {response['register_variant_id']!r}"
        )


@requirement(
    "VAR-CHAT-001",
    "every convivial_v1 chat surface is the decoration computed from its own trace_hash, "
    "register id and turn index",
    family="variation",
    capabilities=("sessions",),
    seed=RUNTIME,
    strategy=lambda ctx: gen.sessions(ctx),
    cover=coverage.scripts_under((oracle.CONVIVIAL,)),
)
def chat_surfaces_are_their_decoration(engine: EngineClient, script: list[str]) -> None:
    responses = run_script(engine, oracle.CONVIVIAL, script)
    _check_decorated(responses, oracle.CONVIVIAL_MARKERS, oracle.CONVIVIAL)


@requirement(
    "VAR-CHAT-002",
    "a ratified user register's markers decorate chat exactly as the formula says",
    family="variation",
    capabilities=("sessions", "registers.ratify"),
    seed=RUNTIME,
    strategy=lambda ctx: st.tuples(
        gen.register_ids, gen.discourse_markers(allow_empty=False), gen.sessions(ctx, 4)
    ).map(list),
    max_examples=30,
    cover=coverage.user_registers,
)
def user_markers_decorate_chat(engine: EngineClient, scenario: list[Any]) -> None:
    register_id, markers, script = scenario
    files = ratified_files(engine, gen.pack(register_id, markers=markers))
    _check_decorated(run_script(engine, register_id, script, files), markers, register_id)
