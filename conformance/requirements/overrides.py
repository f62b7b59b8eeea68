"""Realizer overrides: per_intent over flat over default, the clamp, the gate, end to end."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from conformance import coverage, near_misses, oracle
from conformance import strategies as gen
from conformance.driver import ratified_files, run_script
from conformance.engines.base import EngineClient, EngineRefused
from conformance.jsontypes import EncodableObject
from conformance.requirements.registry import requirement

PER_INTENT = "ADR-0071 § Per-intent override schema"
CLAMP = "ADR-0070 § Wiring shape (the defensive clamp)"
GATE = "ADR-0071 § Ratify gate widening (per_intent keys must be IntentTag names)"


def _scoped_to(overrides: dict[str, Any], intent: str, depth: int | None) -> dict[str, Any]:
    """*overrides*, with a per_intent depth for *intent* when *depth* is given."""
    if depth is None:
        return overrides
    scoped = dict(overrides.get("per_intent", {}))
    scoped[intent] = {"disclosure_domain_count": depth}
    return {**overrides, "per_intent": scoped}


def _resolve(engine: EngineClient, overrides: dict[str, Any], intent: str) -> int:
    args: EncodableObject = {"realizer_overrides": overrides, "intent": intent}
    depth: int = engine.call("overrides.resolve", args)["disclosure_domain_count"]
    return depth


@requirement(
    "OVR-RESOLVE-001",
    "disclosure depth resolves per_intent[intent] over the flat key over the default 3",
    family="overrides",
    capabilities=("overrides",),
    seed=PER_INTENT,
    strategy=lambda ctx: st.tuples(
        gen.overrides(), gen.intents, st.one_of(st.none(), gen.depths)
    ).map(lambda t: [_scoped_to(*t), t[1]]),
    cover=coverage.precedence_cases,
)
def precedence(engine: EngineClient, scenario: list[Any]) -> None:
    overrides, intent = scenario
    got, expected = _resolve(engine, overrides, intent), oracle.resolve_depth(overrides, intent)
    assert got == expected, f"{overrides} for {intent}: engine {got}, spec {expected}"


@requirement(
    "OVR-RESOLVE-002",
    "a malformed depth (not an int in {1, 2, 3}) clamps to 3 instead of failing",
    family="overrides",
    capabilities=("overrides",),
    seed=CLAMP,
    strategy=lambda ctx: st.tuples(gen.malformed_depths, gen.depths, gen.intents).map(list),
    cover=coverage.malformed_depth_cases,
)
def clamp(engine: EngineClient, scenario: list[Any]) -> None:
    bad, good, intent = scenario
    flat = _resolve(engine, {"disclosure_domain_count": bad}, intent)
    default = oracle.DEFAULT_DEPTH
    assert flat == default, f"flat depth {bad!r} resolved to {flat}, not {default}"
    scoped = {
        "disclosure_domain_count": good,
        "per_intent": {intent: {"disclosure_domain_count": bad}},
    }
    clamped = _resolve(engine, scoped, intent)
    assert clamped == default, f"per_intent depth {bad!r} resolved to {clamped}, not {default}"


@requirement(
    "OVR-GATE-001",
    "a per_intent key that is not an IntentTag name is refused (REGISTER_UNKNOWN_INTENT)",
    family="overrides",
    capabilities=("registers.validate",),
    seed=GATE,
    strategy=lambda ctx: st.tuples(
        gen.register_ids,
        st.text(min_size=1, max_size=20).filter(lambda s: s not in oracle.INTENT_NAMES),
    ).map(list),
    max_examples=10,
    cover=coverage.joined(coverage.unknown_intents, near_misses.intent_names),
)
def unknown_intent_refused(engine: EngineClient, scenario: list[Any]) -> None:
    register_id, intent = scenario
    overrides = {"per_intent": {intent: {"disclosure_domain_count": 1}}}
    document = gen.pack(register_id, overrides=overrides, depth_preference="terse")
    try:
        engine.call("register.validate", {"pack": document, "expected_id": register_id})
    except EngineRefused as refusal:
        assert refusal.code == "REGISTER_UNKNOWN_INTENT", f"refused with {refusal.code}"
        return
    raise AssertionError(f"per_intent key {intent!r} was accepted")


def _depth_pack(register_id: str, overrides: dict[str, Any]) -> dict[str, Any]:
    return gen.pack(register_id, overrides=overrides, depth_preference="terse")


@requirement(
    "OVR-CHAT-001",
    "in chat, a per_intent depth acts on its intent exactly like that flat depth, and other "
    "intents keep the flat depth",
    family="overrides",
    capabilities=("sessions", "registers.ratify", "lexicon"),
    seed=PER_INTENT,
    strategy=lambda ctx: st.tuples(
        st.lists(gen.lexicon_lemmas(ctx, glossed=False), min_size=1, max_size=4),
        st.sampled_from(((1, 2), (1, 3), (2, 3), (2, 1), (3, 1))),
    ).map(list),
    max_examples=10,
    cover=coverage.glossless_depths,
)
def per_intent_end_to_end(engine: EngineClient, scenario: list[Any]) -> None:
    lemmas, (scoped, flat) = scenario
    script = [f"What is {lemma}?" for lemma in lemmas] + [
        f"Tell me about {lemma}." for lemma in lemmas
    ]
    packs = {
        "conf_scoped_v1": {
            "disclosure_domain_count": flat,
            "per_intent": {"DEFINITION": {"disclosure_domain_count": scoped}},
        },
        "conf_as_scoped_v1": {"disclosure_domain_count": scoped},
        "conf_as_flat_v1": {"disclosure_domain_count": flat},
    }
    runs = {}
    for register_id, overrides in packs.items():
        files = ratified_files(engine, _depth_pack(register_id, overrides))
        runs[register_id] = run_script(engine, register_id, script, files)
    for i, response in enumerate(runs["conf_scoped_v1"]):
        like = "conf_as_scoped_v1" if response["intent"] == "DEFINITION" else "conf_as_flat_v1"
        said, expected = response["pre_decoration_surface"], runs[like][i]["pre_decoration_surface"]
        assert said == expected, (
            f"{script[i]!r} ({response['intent']}): per_intent pack says {said!r}, "
            f"{like} says {expected!r}"
        )
    assert any(r["intent"] == "DEFINITION" for r in runs["conf_scoped_v1"]), "no DEFINITION turn"


@requirement(
    "OVR-CHAT-002",
    "disclosure depth is observable: depth 1 and depth 3 differ on some gloss-less lemma",
    family="overrides",
    capabilities=("sessions", "registers.ratify", "lexicon"),
    seed="ADR-0070 § The composer change",
)
def depth_is_observable(engine: EngineClient, _: object) -> None:
    from conformance.requirements.registry import SuiteContext

    glossless = [e.lemma for e in SuiteContext.from_engine(engine).lexicon if not e.has_gloss]
    assert glossless, "the engine's lexicon has no lemma without a gloss"
    script = [f"What is {lemma}?" for lemma in glossless]
    surfaces = {}
    for depth in (1, 3):
        register_id = f"conf_depth{depth}_v1"
        files = ratified_files(engine, _depth_pack(register_id, {"disclosure_domain_count": depth}))
        surfaces[depth] = [r["surface"] for r in run_script(engine, register_id, script, files)]
    assert surfaces[1] != surfaces[3], "depth 1 and depth 3 give identical surfaces everywhere"
