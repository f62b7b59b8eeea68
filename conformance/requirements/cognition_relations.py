"""Relations that hold where the words of an answer are free: the reading is the text's.

docs/intents.md § How a prompt is read: step 1 normalises (NFC, one kind of apostrophe,
lowercase, single spaces) and every later step reads the normalised text alone, so two
prompts equal after step 1 are read alike: the same intent, subject and grounding source.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from typing import Any

from conformance import cases as cases_
from conformance import rules
from conformance.coverage import Case, Plan
from conformance.driver import run_script
from conformance.engines.base import EngineClient
from conformance.model import SuiteContext
from conformance.requirements.registry import requirement

KEYS = ("intent", "subject", "grounding_source")
SPREAD = 5
"""Every prompt with an apostrophe, and every fifth other one-turn case of the catalogue."""

VARIANTS: dict[str, Callable[[str], str]] = {
    "upper case": str.upper,
    "spaces doubled and tabs": lambda text: text.replace(" ", " \t "),
    "typographic apostrophe": lambda text: text.replace("'", "\u2019"),
    "decomposed (NFD)": lambda text: unicodedata.normalize("NFD", text),
    "padded": lambda text: f"  {text}\n",
}
"""Rewritings that step 1 undoes: each variant of a prompt normalises to the prompt's own
normalised text."""


def variant_plan(ctx: SuiteContext) -> Plan:
    """One-turn cases of the rule catalogue (see :data:`SPREAD`), with every variant."""
    del ctx
    single = [c["turns"][0] for c in rules.catalogue()["cases"] if len(c["turns"]) == 1]
    prompts = [p for i, p in enumerate(single) if "'" in p or i % SPREAD == 0]
    classes = tuple(("variants", name) for name in VARIANTS)
    return Plan((Case(prompts, classes),), (("variants", len(VARIANTS)),))


def _reading(engine: EngineClient, text: str) -> tuple[Any, ...]:
    last = run_script(engine, None, [text])[-1]
    return tuple(last.get(key) for key in KEYS)


@requirement(
    "COG-META-001",
    "prompts equal after normalisation (case, white space, apostrophe kind, NFC) are read "
    "alike: the same intent, subject and grounding source",
    family="cognition",
    capabilities=("sessions",),
    seed="docs/intents.md § How a prompt is read, step 1 (every step reads the text alone)",
    cover=variant_plan,
)
def normalisation_equal_prompts(engine: EngineClient, prompts: list[str]) -> None:
    found = []
    for prompt in prompts:
        plain = _reading(engine, prompt)
        for name, rewrite in VARIANTS.items():
            other = _reading(engine, rewrite(prompt))
            if other != plain:
                said, plainly = (
                    dict(zip(KEYS, other, strict=True)),
                    dict(zip(KEYS, plain, strict=True)),
                )
                found.append(f"{prompt!r} ({name}): {said} vs {plainly}")
    assert not found, cases_.lines(found, f"{len(found)} variants read differently:")
