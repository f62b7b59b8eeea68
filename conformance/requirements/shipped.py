"""The shipped register packs: exactly the values ADR-0070 and ADR-0071 fix, in data and in chat."""

from __future__ import annotations

from typing import Any

from conformance import strategies as gen
from conformance.driver import ratified_files, run_script
from conformance.engines.base import EngineClient
from conformance.model import SuiteContext
from conformance.requirements.registry import requirement

EMPTY_MARKERS: dict[str, list[str]] = {"openings": [], "transitions": [], "closings": []}
SHIPPED: dict[str, dict[str, Any]] = {
    "default_neutral_v1": {
        "depth_preference": "standard",
        "realizer_overrides": {},
        "discourse_markers": EMPTY_MARKERS,
    },
    "terse_v1": {
        "depth_preference": "terse",
        "realizer_overrides": {"disclosure_domain_count": 1},
        "discourse_markers": EMPTY_MARKERS,
        "display_name": "Terse",
    },
    "convivial_v1": {
        "depth_preference": "standard",
        "realizer_overrides": {},
        "discourse_markers": {
            "openings": ["So,", "Right —", "OK,"],
            "transitions": [],
            "closings": ["", " — does that help?", " — make sense?"],
        },
        "display_name": "Convivial",
    },
}
"""Per shipped id, the fields its ADR fixes (every pack also has version and schema 1.0.0)."""
COMMON = {"version": "1.0.0", "schema_version": "1.0.0"}


@requirement(
    "REG-SHIP-001",
    "each shipped pack loads with exactly the overrides, markers, depth label and versions its "
    "ADR fixes (terse_v1 depth 1, convivial_v1's six markers, no transitions anywhere)",
    family="registers",
    capabilities=("registers.load",),
    seed="ADR-0070 § The new pack; ADR-0071 § The new pack — convivial_v1; "
    "docs/registers.md § Shipped packs",
)
def shipped_pack_values(engine: EngineClient, _: object) -> None:
    for register_id, fixed in SHIPPED.items():
        pack = engine.call("register.load", {"register_id": register_id, "files": {}})["pack"]
        assert pack.get("register_id") == register_id, f"{register_id}: loaded {pack!r}"
        for name, value in {**COMMON, **fixed}.items():
            got = pack.get(name)
            assert got == value, f"{register_id}.{name} is {got!r}, the ADR fixes {value!r}"


DISCLOSING = ("What is {a}?", "Tell me about {a}.")
"""Prompt forms whose answer discloses a lemma's domains, where depth shows."""


def _glossless_script(engine: EngineClient) -> list[str]:
    lexicon = SuiteContext.from_engine(engine).lexicon
    glossless = [entry.lemma for entry in lexicon if not entry.has_gloss]
    assert glossless, "the engine's lexicon has no lemma without a gloss"
    return [form.format(a=lemma) for lemma in glossless for form in DISCLOSING]


@requirement(
    "REG-SHIP-002",
    "in chat, terse_v1 words every turn exactly as a user pack with disclosure_domain_count 1, "
    "and convivial_v1's undecorated surface is default_neutral_v1's surface",
    family="registers",
    capabilities=("sessions", "registers.ratify", "lexicon"),
    seed="ADR-0070 § The new pack; ADR-0071 § The new pack — convivial_v1 (depth follows the "
    "standard 3-domain default)",
)
def shipped_packs_in_chat(engine: EngineClient, _: object) -> None:
    script = _glossless_script(engine)
    depth_one = gen.pack(
        "conf_depth_one_v1",
        overrides={"disclosure_domain_count": 1},
        depth_preference="terse",
    )
    files = ratified_files(engine, depth_one)
    runs = {
        "user depth 1": run_script(engine, "conf_depth_one_v1", script, files),
        "terse_v1": run_script(engine, "terse_v1", script),
        "default_neutral_v1": run_script(engine, "default_neutral_v1", script),
        "convivial_v1": run_script(engine, "convivial_v1", script),
    }
    pairs = (("terse_v1", "user depth 1"), ("convivial_v1", "default_neutral_v1"))
    for shipped, like in pairs:
        for prompt, said, expected in zip(script, runs[shipped], runs[like], strict=True):
            got, want = said["pre_decoration_surface"], expected["pre_decoration_surface"]
            assert got == want, f"{prompt!r}: {shipped} says {got!r}, {like} says {want!r}"
