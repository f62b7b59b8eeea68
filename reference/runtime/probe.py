"""The ratification probe: run the engine under a candidate register and check the seam.

The probe script (:func:`lexicon_script`) asks one question per lexicon lemma,
cycling through intent templates, so every lemma, glossed or not, is exercised.
"""

from __future__ import annotations

from reference.canonical import digest
from reference.registers.model import UNREGISTERED, RegisterPack
from reference.registers.ratify import is_null_pack
from reference.runtime.chat import ChatResponse, ChatRuntime
from reference.runtime.probe_script import lexicon_script


def run_session(pack: RegisterPack, script: list[str]) -> list[ChatResponse]:
    """Run *script* in one fresh session under *pack*."""
    runtime = ChatRuntime(register_pack=pack)
    return [runtime.chat(prompt) for prompt in script]


def register_probe(pack: RegisterPack) -> dict[str, object]:
    """Evidence that *pack* changes wording only: truth invariant, replay exact."""
    script = lexicon_script()
    baseline = run_session(UNREGISTERED, script)
    first = run_session(pack, script)
    second = run_session(pack, script)
    null_pack = is_null_pack(pack)
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
