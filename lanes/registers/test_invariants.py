"""Register invariants over generated multi-turn sessions drawn from the whole lexicon."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from hypothesis import given, settings
from registers_helpers import FOUR_REGISTERS, GLOSSLESS, LEMMAS, run, sessions

from reference.canonical import wire_json
from reference.runtime import ChatRuntime, RuntimeConfig
from tools.freeze_baseline import BASELINE, baseline_lines


def test_a_none_equals_the_frozen_pre_register_baseline():
    frozen = Path(BASELINE).read_text(encoding="utf-8").splitlines()
    assert baseline_lines() == frozen


@settings(max_examples=60)
@given(sessions())
def test_b_none_is_byte_identical_to_default_neutral(script):
    none = run(None, script)
    neutral = run("default_neutral_v1", script)
    assert [r.surface for r in none] == [r.surface for r in neutral]
    assert [r.pre_decoration_surface for r in none] == [r.surface for r in none]


@settings(max_examples=60)
@given(sessions())
def test_c_and_grounding_invariant_across_the_four_registers(script):
    runs = [run(register, script) for register in FOUR_REGISTERS]
    for turn in zip(*runs, strict=True):
        assert len({r.trace_hash for r in turn}) == 1
        assert len({r.grounding_source for r in turn}) == 1
        assert len({r.intent for r in turn}) == 1
        assert len({r.versor_condition for r in turn}) == 1


@settings(max_examples=40)
@given(sessions())
def test_replay_equivalence_in_every_register(script):
    for register in FOUR_REGISTERS:
        first = [wire_json(r.as_json()) for r in run(register, script)]
        second = [wire_json(r.as_json()) for r in run(register, script)]
        assert first == second


def _recomputed(markers, response) -> str:
    def pick(bucket, name):
        if not bucket:
            return ""
        seed = f"{response.trace_hash}|{response.register_id}|{response.turn_idx}|{name}"
        index = int.from_bytes(hashlib.sha256(seed.encode()).digest()[:8], "big") % len(bucket)
        return bucket[index]

    opening, closing = pick(markers.openings, "openings"), pick(markers.closings, "closings")
    body = response.pre_decoration_surface
    return (f"{opening} {body}" if opening else body) + closing


@settings(max_examples=60)
@given(sessions())
def test_convivial_surface_is_the_decoration_of_its_own_trace_hash(script):
    convivial = ChatRuntime(RuntimeConfig(register_id="convivial_v1"))
    markers = convivial.register.discourse_markers
    for prompt in script:
        response = convivial.chat(prompt)
        assert response.surface == _recomputed(markers, response)


def test_turn_distinct_under_convivial_for_every_lemma():
    stuck = []
    for lemma in LEMMAS:
        responses = run("convivial_v1", [f"What is {lemma}?"] * 4)
        if len({r.register_variant_id for r in responses}) == 1:
            stuck.append(lemma)
    assert stuck == []


def test_terse_is_visibly_shorter_on_every_glossless_lemma():
    for entry in GLOSSLESS:
        prompt = [f"What is {entry.lemma}?"]
        (neutral,) = run("default_neutral_v1", prompt)
        (terse,) = run("terse_v1", prompt)
        assert len(terse.surface) < len(neutral.surface)
        assert f": {entry.domains[0]}. " in terse.surface
        assert f": {'; '.join(entry.domains[:3])}. " in neutral.surface


def test_terse_equals_neutral_on_glossed_lemmas():
    for lemma in LEMMAS:
        prompt = [f"What is {lemma}?"]
        (neutral,) = run("default_neutral_v1", prompt)
        (terse,) = run("terse_v1", prompt)
        if "is " in neutral.surface.split(".")[0]:
            assert terse.surface == neutral.surface


def test_audit_lines_hold_ids_unless_content_is_asked(tmp_path):
    ids_only, with_content = tmp_path / "ids.jsonl", tmp_path / "content.jsonl"
    run("convivial_v1", ["What is light?", "hello"], audit_path=ids_only)
    run("convivial_v1", ["What is light?", "hello"], audit_path=with_content, audit_content=True)
    rows = [json.loads(line) for line in ids_only.read_text(encoding="utf-8").splitlines()]
    assert [row["turn_idx"] for row in rows] == [0, 1]
    assert all(row["register_id"] == "convivial_v1" and "surface" not in row for row in rows)
    full = [json.loads(line) for line in with_content.read_text(encoding="utf-8").splitlines()]
    assert full[0]["input"] == "What is light?" and full[0]["surface"].endswith(
        ("knowable. pack-grounded (en_core_v1).", "help?", "sense?")
    )
