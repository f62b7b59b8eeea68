"""The ratification probe: run the engine under a candidate register and check the seam.

The probe script asks one question per lexicon lemma, cycling through intent
templates, so every lemma (glossed or not) is exercised under the pack.
"""

from __future__ import annotations

from reference.canonical import digest
from reference.lexicon import default_lexicon
from reference.registers.model import UNREGISTERED, RegisterPack
from reference.runtime.chat import ChatResponse, ChatRuntime

TEMPLATES = (
    "What is {a}?",
    "Tell me about {a}.",
    "Give me an example of {a}.",
    "How do I work with {a}?",
    "Compare {a} and {b}.",
    "How is {a} connected to {b}?",
    "What did I say about {a}?",
    "No, {a} is {b}.",
    "Why {a}?",
    "Is {a} a kind of {b}?",
    "Think of {a} as {b}.",
    "What is {a}?",
)


def probe_script() -> list[str]:
    """One prompt per lemma, cycling through intent templates, plus out-of-lexicon turns."""
    names = [entry.lemma for entry in default_lexicon().lemmas]
    prompts = [
        TEMPLATES[i % len(TEMPLATES)].format(a=name, b=names[(i * 7 + 3) % len(names)])
        for i, name in enumerate(names)
    ]
    return [*prompts, "What is a zorbleflax?", "hello", "What is light?"]


def run_session(pack: RegisterPack, script: list[str]) -> list[ChatResponse]:
    """Run *script* in one fresh session under *pack*."""
    runtime = ChatRuntime(register_pack=pack)
    return [runtime.chat(prompt) for prompt in script]


def register_probe(pack: RegisterPack) -> dict[str, object]:
    """Evidence that *pack* changes wording only: truth invariant, replay exact."""
    script = probe_script()
    baseline = run_session(UNREGISTERED, script)
    first = run_session(pack, script)
    second = run_session(pack, script)
    null_pack = not pack.realizer_overrides and not (
        pack.discourse_markers.openings or pack.discourse_markers.closings
    )
    checks = {
        "trace_hash_invariant": all(
            a.trace_hash == b.trace_hash for a, b in zip(baseline, first, strict=True)
        ),
        "grounding_invariant": all(
            a.grounding_source == b.grounding_source for a, b in zip(baseline, first, strict=True)
        ),
        "replay_equivalent": first == second,
        "null_lift_byte_identical": (
            [r.surface for r in baseline] == [r.surface for r in first] if null_pack else None
        ),
    }
    failed = [name for name, value in checks.items() if value is False]
    return {
        **checks,
        "ok": not failed,
        "reason": f"failed: {', '.join(failed)}" if failed else "",
        "turns": len(script),
        "surfaces_differing": sum(
            a.surface != b.surface for a, b in zip(baseline, first, strict=True)
        ),
        "trace_digest": digest([r.trace_hash for r in first]),
    }
