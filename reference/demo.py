"""Scripted demos: a short chat, and a register tour that checks the seam as it goes."""

from __future__ import annotations

from typing import TextIO

from reference.realize import DecorationSeed, Decorator
from reference.registers import SHIPPED_REGISTER_IDS
from reference.runtime import ChatResponse, ChatRuntime, RuntimeConfig

SCRIPT = (
    "What is light?",
    "Tell me about parent.",
    "Compare light and darkness.",
    "How is light connected to memory?",
    "No, a parent is a guide.",
    "What did I say about parent?",
    "What is a zorbleflax?",
    "Now tell me about memory.",
    "Tell me about parent.",
)

FOUR_REGISTERS = (None, *SHIPPED_REGISTER_IDS)


def scripted_chat(out: TextIO) -> int:
    """Print a short conversation with the reference engine (no register)."""
    runtime = ChatRuntime(RuntimeConfig())
    for prompt in SCRIPT:
        response = runtime.chat(prompt)
        out.write(f"you>  {prompt}\ncore> {response.surface}\n")
        out.write(
            f"      [{response.intent} · {response.grounding_source} · "
            f"trace {response.trace_hash[:12]} · versor {response.versor_condition:.1e}]\n"
        )
    return 0


def _recomputed_surface(runtime: ChatRuntime, response: ChatResponse) -> str:
    """The surface the engine's own decorator gives the turn's pre-decoration surface."""
    seed = DecorationSeed(
        trace_hash=response.trace_hash,
        register_id=runtime.register.register_id,
        turn_idx=response.turn_idx,
    )
    markers = runtime.register.discourse_markers.as_json()
    return Decorator().decorate(response.pre_decoration_surface, markers, seed).surface


def _turn_claims(runtimes: list[ChatRuntime], rows: list[ChatResponse]) -> list[str]:
    none, neutral = rows[0], rows[1]
    broken = []
    if len({r.trace_hash for r in rows}) != 1:
        broken.append("C: trace_hash differs across registers")
    if len({r.grounding_source for r in rows}) != 1:
        broken.append("grounding_source differs across registers")
    if none.surface != neutral.surface:
        broken.append("B: None and default_neutral_v1 surfaces differ")
    for runtime, row in zip(runtimes, rows, strict=True):
        if row.surface != _recomputed_surface(runtime, row):
            broken.append(f"seed: {row.register_id} surface is not its recomputed decoration")
    return broken


def register_tour(out: TextIO) -> int:
    """Walk the demo script through the four registers side by side; 0 iff the seam holds."""
    runtimes = [ChatRuntime(RuntimeConfig(register_id=rid)) for rid in FOUR_REGISTERS]
    broken: list[str] = []
    terse_differs = convivial_differs = False
    for prompt in SCRIPT:
        rows = [runtime.chat(prompt) for runtime in runtimes]
        out.write(f"\nyou> {prompt}   [{rows[0].intent} · {rows[0].grounding_source}]\n")
        for rid, row in zip(FOUR_REGISTERS, rows, strict=True):
            out.write(f"  {rid or 'none':<19} {row.surface}\n")
        broken += [f"turn {rows[0].turn_idx}: {claim}" for claim in _turn_claims(runtimes, rows)]
        terse_differs |= rows[2].surface != rows[1].surface
        convivial_differs |= rows[3].surface != rows[1].surface
    if not terse_differs:
        broken.append("terse_v1 never differs from default_neutral_v1")
    if not convivial_differs:
        broken.append("convivial_v1 never differs from default_neutral_v1")
    out.write("\n")
    for claim in broken:
        out.write(f"SEAM BROKEN: {claim}\n")
    if not broken:
        out.write(
            "seam holds: trace_hash and grounding invariant, None == neutral, "
            "decorations recomputed from trace_hash, terse and convivial differ\n"
        )
    return 0 if not broken else 1
