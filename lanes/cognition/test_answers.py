"""docs/intents.md § Answers: what each answer must say, held on the reference.

The words are the reference's own; these checks look for what the rules require (a
verdict, the steps of a path, the user's words, turns counted from 1), not for a wording.
"""

from __future__ import annotations

import pytest

from lanes._support.cognition import REGISTERS, register_id_of
from reference.runtime import ChatResponse, ChatRuntime, RuntimeConfig


def chat(*prompts: str, register: str = "none") -> list[ChatResponse]:
    runtime = ChatRuntime(RuntimeConfig(register_id=register_id_of(register)))
    return [runtime.chat(prompt) for prompt in prompts]


def last(*prompts: str) -> ChatResponse:
    return chat(*prompts)[-1]


@pytest.mark.parametrize(
    ("prompts", "verdict", "source"),
    [
        (("Is the sun a star?",), "Yes", "pack"),
        (("Does the moon pull the tide?",), "Yes", "teaching"),
        (("Is a spider a kind of insect?",), "Yes", "teaching"),
        (("Is a whale a kind of fish?",), "Not known", "pack"),
        (("Is it true that the sun is not a star?",), "No", "pack"),
        (("Isn't the sun a star?",), "Yes", "pack"),
        (("A whale isn't a fish.", "Is a whale a fish?"), "No", "vault"),
        (("No, honey is made by bees.", "Is honey made by bees?"), "Yes", "vault"),
    ],
)
def test_verification_says_yes_no_or_not_known_and_what_decides_it(prompts, verdict, source):
    response = last(*prompts)
    assert response.intent == "VERIFICATION"
    assert response.pre_decoration_surface.startswith(f"{verdict}:")
    assert response.grounding_source == source


def test_a_verdict_from_a_teaching_step_names_the_step_and_its_chain():
    surface = last("Does the moon pull the tide?").surface
    assert "moon pulls tide" in surface and "moon-to-beach" in surface


@pytest.mark.parametrize(
    ("prompt", "steps"),
    [
        ("How is light connected to memory?", ["light reveals knowledge", "kept in memory"]),
        ("How is memory connected to light?", ["light reveals knowledge", "kept in memory"]),
        ("Why does the sun feed a tree?", ["sun warms soil", "soil feeds seed"]),
    ],
)
def test_paths_between_two_lemmas_are_given_step_by_step(prompt, steps):
    response = last(prompt)
    assert response.grounding_source == "teaching"
    positions = [response.surface.lower().index(step) for step in steps]
    assert positions == sorted(positions)


def test_a_path_read_the_other_way_says_so():
    assert "other way" in last("How is memory connected to light?").surface


def test_no_path_says_so_and_what_the_pack_says_of_both():
    surface = last("How is rain related to a harvest?").surface
    assert "No teaching chain links rain and harvest" in surface
    assert "water falling from clouds" in surface and "gathering of ripe crops" in surface


def test_recall_after_a_correction_repeats_the_latest_claim_first():
    responses = chat(
        "What is trust?",
        "No, trust is earned slowly.",
        "Actually, trust is a gift.",
        "What did I say about trust?",
    )
    surface = responses[-1].surface
    assert responses[-1].grounding_source == "vault"
    assert surface.index("it is a gift") < surface.index("it is earned slowly")
    assert "turn 3" in surface and "turn 2" in surface


def test_recall_counts_turns_from_one():
    surface = last("Tell me about the moon.", "What did I say about the moon?").surface
    assert "turn 1" in surface and "turn 0" not in surface
    assert '"tell me about the moon."' in surface


def test_empty_recall_says_plainly_that_nothing_was_said():
    response = last("Remind me what I said about the river.")
    assert response.intent == "RECALL" and response.grounding_source == "pack"
    assert response.surface.startswith("You haven't said anything about river")


def test_recall_of_the_whole_session_repeats_the_latest_claim_first():
    responses = chat("What is a whale?", "No, a whale isn't a fish.", "What have I said so far?")
    surface = responses[-1].surface
    assert responses[-1].grounding_source == "vault"
    assert surface.index("is not a fish") < surface.index('"what is a whale?"')
    assert last("What have I said so far?").surface == (
        "You haven't said anything in this conversation yet."
    )


def test_narrative_tells_the_gloss_and_teaching_steps():
    surface = last("Tell me about the moon.").surface
    assert "the body that circles the earth" in surface
    assert "moon lights night" in surface and "moon pulls tide" in surface


def test_example_gives_instances_from_the_teaching_chains():
    assert "spider" in last("Can you name a few insects?").surface


def test_a_kept_correction_shows_what_the_pack_still_says():
    surface = last("No, the moon is a lantern.").surface
    assert "moon is a lantern" in surface and "circles the earth" in surface


@pytest.mark.parametrize(
    "prompts",
    [
        ("Is the sun a star?",),
        ("How is memory connected to light?",),
        ("No, trust is earned slowly.", "What did I say about trust?"),
        ("Tell me about the moon.",),
    ],
)
def test_answers_are_the_same_under_every_register(prompts):
    runs = {register: chat(*prompts, register=register) for register in REGISTERS}
    hashes = {tuple(r.trace_hash for r in responses) for responses in runs.values()}
    assert len(hashes) == 1
    depth_free = {
        tuple(r.pre_decoration_surface for r in responses)
        for register, responses in runs.items()
        if register != "terse_v1"
    }
    assert len(depth_free) == 1
