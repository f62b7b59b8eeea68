"""Register invariants: wording may change with the register, truth may not."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from conformance import coverage
from conformance import strategies as gen
from conformance.driver import ratified_files, run_four, run_script
from conformance.engines.base import EngineClient
from conformance.oracle import CONVIVIAL, FOUR_REGISTERS, NEUTRAL, TERSE
from conformance.requirements.registry import SuiteContext, requirement

ADR69 = "ADR-0070 § Context; invariants A/B/C (ADR-0069)"
GROUNDING = "ADR-0070 § The new invariant (register_invariant_grounding)"
REPLAY = "ADR-0071 § Invariants pinned in CI at R4 (seeded_variation_replay)"
TURN = "ADR-0071 § Invariants pinned in CI at R4 (seeded_variation_turn_distinct)"
CLOSURE = "L10 brief § Decision 0 (versor_condition < 1e-6 by construction)"
MAX_VERSOR_CONDITION = 1e-6


def _sessions(ctx: SuiteContext) -> st.SearchStrategy[list[str]]:
    return gen.sessions(ctx)


def _same_across(runs: list[list[dict[str, Any]]], key: str, script: list[str]) -> None:
    for turn, responses in enumerate(zip(*runs, strict=True)):
        values = {str(r.get(key)) for r in responses}
        assert len(values) == 1, (
            f"turn {turn} ({script[turn]!r}): {key} differs across registers "
            + ", ".join(
                f"{reg or 'none'}={r.get(key)!r}"
                for reg, r in zip(FOUR_REGISTERS, responses, strict=True)
            )
        )


@requirement(
    "REG-INV-001",
    "invariant A: the UNREGISTERED sentinel adds no decoration and reports no register",
    family="registers",
    capabilities=("sessions",),
    seed=ADR69,
    strategy=_sessions,
    cover=coverage.scripts_under((None,)),
)
def unregistered_is_bare(engine: EngineClient, script: list[str]) -> None:
    for turn, r in enumerate(run_script(engine, None, script)):
        assert r["surface"] == r["pre_decoration_surface"], f"turn {turn}: None decorated"
        assert r["register_id"] is None, f"turn {turn}: register_id {r['register_id']!r}"
        assert r["register_variant_id"] == "", f"turn {turn}: variant {r['register_variant_id']!r}"


@requirement(
    "REG-INV-002",
    "invariant B: None and default_neutral_v1 give byte-identical surfaces",
    family="registers",
    capabilities=("sessions",),
    seed=ADR69,
    strategy=_sessions,
    cover=coverage.scripts_under((None, NEUTRAL)),
)
def none_equals_neutral(engine: EngineClient, script: list[str]) -> None:
    none = run_script(engine, None, script)
    neutral = run_script(engine, NEUTRAL, script)
    for turn, (a, b) in enumerate(zip(none, neutral, strict=True)):
        for key in ("surface", "pre_decoration_surface", "register_variant_id"):
            assert a[key] == b[key], (
                f"turn {turn} ({script[turn]!r}): {key} {a[key]!r} != {b[key]!r}"
            )


@requirement(
    "REG-INV-003",
    "invariant C: trace_hash is identical across the four registers on every turn",
    family="registers",
    capabilities=("sessions",),
    seed=ADR69,
    strategy=_sessions,
    cover=coverage.scripts_under(),
)
def trace_hash_invariant(engine: EngineClient, script: list[str]) -> None:
    _same_across(run_four(engine, script), "trace_hash", script)


@requirement(
    "REG-INV-004",
    "grounding_source is identical across the four registers on every turn",
    family="registers",
    capabilities=("sessions",),
    seed=GROUNDING,
    strategy=_sessions,
    cover=coverage.scripts_under(),
)
def grounding_invariant(engine: EngineClient, script: list[str]) -> None:
    _same_across(run_four(engine, script), "grounding_source", script)


@requirement(
    "REG-INV-005",
    "intent, subject, turn index and versor condition are identical across the four registers",
    family="registers",
    capabilities=("sessions",),
    seed=GROUNDING,
    strategy=_sessions,
    cover=coverage.scripts_under(),
)
def truth_fields_invariant(engine: EngineClient, script: list[str]) -> None:
    runs = run_four(engine, script)
    for key in ("intent", "subject", "turn_idx", "versor_condition"):
        _same_across(runs, key, script)


@requirement(
    "REG-REPLAY-001",
    "replay: two fresh sessions under the same register and inputs give identical responses",
    family="registers",
    capabilities=("sessions",),
    seed=REPLAY,
    strategy=lambda ctx: st.tuples(st.sampled_from(FOUR_REGISTERS), _sessions(ctx)).map(list),
    cover=coverage.register_and_script,
)
def replay_equivalence(engine: EngineClient, scenario: list[Any]) -> None:
    register_id, script = scenario
    first = run_script(engine, register_id, script)
    second = run_script(engine, register_id, script)
    for turn, (a, b) in enumerate(zip(first, second, strict=True)):
        assert a == b, f"turn {turn} ({script[turn]!r}) differs between fresh sessions: {a} != {b}"


@requirement(
    "REG-TURN-001",
    "turn-distinct: one prompt asked 6 times under convivial_v1 is not decorated the same way "
    "every time",
    family="registers",
    capabilities=("sessions",),
    seed=TURN,
    strategy=lambda ctx: gen.prompts(ctx),
    cover=coverage.template_prompts,
)
def turn_distinct(engine: EngineClient, prompt: str) -> None:
    responses = run_script(engine, CONVIVIAL, [prompt] * 6)
    variants = {r["register_variant_id"] for r in responses}
    assert len(variants) > 1, f"{prompt!r}: all 6 turns use marker variant {variants}"


@requirement(
    "REG-TERSE-001",
    "terse_v1 is strictly shorter than default_neutral_v1 on every pack-grounded gloss-less "
    "lemma, and equal on glossed ones",
    family="registers",
    capabilities=("sessions", "lexicon"),
    seed="ADR-0070 § Decision; § Cognition lane — split expectation",
)
def terse_is_shorter(engine: EngineClient, _: object) -> None:
    lexicon = SuiteContext.from_engine(engine).lexicon
    script = [f"What is {e.lemma}?" for e in lexicon]
    neutral = run_script(engine, NEUTRAL, script)
    terse = run_script(engine, TERSE, script)
    shorter = 0
    for entry, n, t in zip(lexicon, neutral, terse, strict=True):
        if n["grounding_source"] != "pack":
            continue
        if entry.has_gloss:
            assert t["surface"] == n["surface"], f"{entry.lemma} (glossed): terse changed it"
        else:
            assert len(t["surface"]) < len(n["surface"]), f"{entry.lemma}: terse is not shorter"
            shorter += 1
    assert shorter, "no gloss-less lemma was pack-grounded under a DEFINITION prompt"


@requirement(
    "REG-TRANS-001",
    "transitions are validated but not consumed: adding them changes no surface",
    family="registers",
    capabilities=("sessions", "registers.ratify"),
    seed="ADR-0071 § Decoration shape (transitions deferred)",
    strategy=lambda ctx: st.tuples(
        gen.discourse_markers(), st.lists(gen.markers, min_size=1, max_size=5), gen.sessions(ctx, 4)
    ).map(list),
    max_examples=15,
    cover=coverage.transition_buckets,
)
def transitions_not_consumed(engine: EngineClient, scenario: list[Any]) -> None:
    markers, transitions, script = scenario
    plain = {**markers, "transitions": []}
    with_transitions = {**markers, "transitions": transitions}
    depth = {"disclosure_domain_count": 2}
    runs = []
    for marks in (plain, with_transitions):
        document = gen.pack(
            "conf_trans_v1", overrides=depth, markers=marks, depth_preference="terse"
        )
        runs.append(run_script(engine, "conf_trans_v1", script, ratified_files(engine, document)))
    for turn, (a, b) in enumerate(zip(*runs, strict=True)):
        assert a == b, f"turn {turn} ({script[turn]!r}): transitions changed the response"


@requirement(
    "REG-CLOSE-001",
    f"versor_condition stays below {MAX_VERSOR_CONDITION:g} on every turn",
    family="registers",
    capabilities=("sessions",),
    seed=CLOSURE,
    strategy=lambda ctx: gen.sessions(ctx, 12),
    cover=coverage.scripts_under((None,)),
)
def versor_closure(engine: EngineClient, script: list[str]) -> None:
    for turn, r in enumerate(run_script(engine, None, script)):
        condition = r["versor_condition"]
        assert isinstance(condition, (int, float)) and 0 <= condition < MAX_VERSOR_CONDITION, (
            f"turn {turn}: versor_condition {condition!r}"
        )
