"""per_intent precedence end to end, through packs ratified into a user directory."""

from __future__ import annotations

from pathlib import Path

import pytest
from registers_helpers import GLOSSLESS, run

from reference.canonical import pretty_json
from reference.realize import resolve_disclosure_domain_count
from reference.registers.ratify import ratify_pack_file
from reference.truth.intent import IntentTag


def _pack(register_id: str, overrides: dict, transitions: tuple[str, ...] = ()) -> dict:
    return {
        "register_id": register_id,
        "version": "1.0.0",
        "description": "A user register for the overrides lane.",
        "schema_version": "1.0.0",
        "display_name": register_id,
        "depth_preference": "terse",
        "realizer_overrides": overrides,
        "discourse_markers": {"openings": [], "transitions": list(transitions), "closings": []},
    }


def _ratified(directory: Path, pack: dict) -> Path:
    path = directory / f"{pack['register_id']}.json"
    path.write_text(pretty_json(pack), encoding="utf-8")
    ratify_pack_file(path)
    return directory


def _head(surface: str) -> list[str]:
    return surface.split(": ", 1)[1].split(". ", 1)[0].split("; ")


PER_INTENT = {
    "disclosure_domain_count": 2,
    "per_intent": {"DEFINITION": {"disclosure_domain_count": 1}},
}


def test_per_intent_beats_flat_beats_default_on_every_glossless_lemma(tmp_path):
    _ratified(tmp_path, _pack("user_scoped_v1", PER_INTENT))
    _ratified(tmp_path, _pack("user_flat_v1", {"disclosure_domain_count": 2}))
    path = (tmp_path,)
    for entry in GLOSSLESS:
        (scoped_def,) = run(
            "user_scoped_v1", [f"What is {entry.lemma}?"], register_search_path=path
        )
        (scoped_tell,) = run(
            "user_scoped_v1", [f"Tell me about {entry.lemma}."], register_search_path=path
        )
        (flat_def,) = run("user_flat_v1", [f"What is {entry.lemma}?"], register_search_path=path)
        (default_def,) = run(None, [f"What is {entry.lemma}?"])
        assert scoped_def.intent == "DEFINITION" and scoped_tell.intent == "NARRATIVE"
        assert _head(scoped_def.surface) == list(entry.domains[:1])
        assert _head(scoped_tell.surface) == list(entry.domains[:2])
        assert _head(flat_def.surface) == list(entry.domains[:2])
        assert _head(default_def.surface) == list(entry.domains[:3])
        assert scoped_def.trace_hash == flat_def.trace_hash == default_def.trace_hash


def test_transitions_are_validated_but_not_consumed(tmp_path):
    _ratified(tmp_path, _pack("user_flat_v1", {"disclosure_domain_count": 2}))
    _ratified(tmp_path, _pack("user_trans_v1", {"disclosure_domain_count": 2}, ("Also,", "Next,")))
    script = [f"Tell me about {entry.lemma}." for entry in GLOSSLESS]
    plain = run("user_flat_v1", script, register_search_path=(tmp_path,))
    with_transitions = run("user_trans_v1", script, register_search_path=(tmp_path,))
    assert [r.surface for r in plain] == [r.surface for r in with_transitions]


@pytest.mark.parametrize("intent", [tag.name for tag in IntentTag])
def test_resolution_order_for_every_intent(intent):
    scoped = {"disclosure_domain_count": 2, "per_intent": {intent: {"disclosure_domain_count": 1}}}
    assert resolve_disclosure_domain_count(scoped, intent) == 1
    others = [tag.name for tag in IntentTag if tag.name != intent]
    assert all(resolve_disclosure_domain_count(scoped, other) == 2 for other in others)
    assert resolve_disclosure_domain_count({}, intent) == 3


@pytest.mark.parametrize("bad", [0, 4, -1, "2", 2.0, True, None, [1]])
def test_malformed_values_clamp_to_three(bad):
    assert resolve_disclosure_domain_count({"disclosure_domain_count": bad}, "DEFINITION") == 3
    scoped = {
        "disclosure_domain_count": 1,
        "per_intent": {"DEFINITION": {"disclosure_domain_count": bad}},
    }
    assert resolve_disclosure_domain_count(scoped, "DEFINITION") == 3
    assert resolve_disclosure_domain_count(scoped, "NARRATIVE") == 1
