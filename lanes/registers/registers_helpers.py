"""Strategies and helpers for the registers lane: sessions drawn from the whole lexicon."""

from __future__ import annotations

from hypothesis import strategies as st

from reference.lexicon import default_lexicon
from reference.runtime import ChatRuntime, RuntimeConfig
from reference.runtime.probe_script import INTENT_TEMPLATES

FOUR_REGISTERS = (None, "default_neutral_v1", "terse_v1", "convivial_v1")
LEMMAS = tuple(entry.lemma for entry in default_lexicon().lemmas)
GLOSSLESS = tuple(entry for entry in default_lexicon().lemmas if not entry.has_gloss)

prompts = st.builds(
    lambda template, a, b: template.format(a=a, b=b),
    st.sampled_from(INTENT_TEMPLATES),
    st.sampled_from(LEMMAS),
    st.sampled_from(LEMMAS),
)
any_prompt = st.one_of(prompts, prompts, st.text(max_size=40))


@st.composite
def sessions(draw, max_turns: int = 8) -> list[str]:
    """A multi-turn session; some turns repeat earlier prompts verbatim."""
    script = draw(st.lists(any_prompt, min_size=1, max_size=max_turns))
    repeats = draw(st.lists(st.integers(0, len(script) - 1), max_size=3))
    return script + [script[i] for i in repeats]


def run(register: str | None, script: list[str], **config) -> list:
    runtime = ChatRuntime(RuntimeConfig(register_id=register, **config))
    return [runtime.chat(prompt) for prompt in script]
