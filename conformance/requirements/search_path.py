"""The register search path: files given to ``register.load`` or ``session.open`` come before
the shipped packs.

docs/registers.md § Loading: the first ``<id>.json`` found wins, even if it later fails a
check, so a user pack named like a shipped one shadows it, and a broken user pack is
refused instead of falling back to the shipped pack. docs/protocol.md § session.open loads
its register "like `register.load` with the files first on the search path": the same
scenarios opened as a session are refused with the same code, or speak with the user
pack's markers.
"""

from __future__ import annotations

import base64
import json
from typing import Any

from conformance import coverage
from conformance import strategies as gen
from conformance.driver import ratified_files
from conformance.engines.base import EngineClient, EngineRefused
from conformance.engines.view import member, sealed_json
from conformance.requirements.registry import requirement

SHIPPED = ("convivial_v1", "default_neutral_v1", "terse_v1")
"""The packs every engine ships (ADR-0070, ADR-0071)."""
SHADOW_MARKERS = {"openings": ["Shadowing,"], "transitions": [], "closings": [" (user pack)"]}
PROMPT = "What is light?"

Files = dict[str, str]


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def _user_files(engine: EngineClient, register_id: str, variant: str) -> tuple[Files, str | None]:
    """The files of a user pack named *register_id*, and the code its load must give."""
    document = gen.pack(register_id, markers=SHADOW_MARKERS)
    document["description"] = "A user pack named like a shipped one."
    name = f"{register_id}.json"
    if variant == "unratified":
        text = json.dumps(document, sort_keys=True, indent=2, ensure_ascii=False) + "\n"
        return {name: _b64(text.encode())}, "REGISTER_NOT_RATIFIED"
    if variant == "not JSON":
        return {name: _b64(b'{"register_id": ')}, "REGISTER_MALFORMED"
    files = ratified_files(engine, document)
    if variant == "edited after ratification":
        raw = base64.b64decode(files[name]).replace(b"Shadowing,", b"Shadowing;", 1)
        return {**files, name: _b64(raw)}, "REGISTER_TAMPERED"
    return files, None


VARIANTS = ("ratified", "unratified", "edited after ratification", "not JSON")


@requirement(
    "LOAD-SEARCH-001",
    "a pack given to register.load shadows the shipped pack of the same id: a ratified one "
    "is loaded as given, a broken one is refused with its own code, never replaced by the "
    "shipped pack",
    family="loader",
    capabilities=("registers.load", "registers.ratify"),
    seed="docs/registers.md § Loading (search path); docs/protocol.md § register.load",
    cover=coverage.each("shadowings", [[r, v] for r in SHIPPED for v in VARIANTS]),
)
def user_pack_shadows_shipped(engine: EngineClient, scenario: list[str]) -> None:
    register_id, variant = scenario
    files, code = _user_files(engine, register_id, variant)
    what = f"{variant} user pack named {register_id}"
    try:
        loaded: dict[str, Any] = engine.call(
            "register.load", {"register_id": register_id, "files": files}
        )["pack"]
    except EngineRefused as refusal:
        assert code is not None, f"{what}: refused with {refusal.code}"
        assert refusal.code == code, f"{what}: refused with {refusal.code}, expected {code}"
        return
    assert code is None, f"{what}: loaded (markers {loaded.get('discourse_markers')!r})"
    given = sealed_json(files, f"{register_id}.json")
    assert loaded == given, f"{what}: the engine loaded another pack: {loaded!r}"


@requirement(
    "LOAD-SEARCH-002",
    "a pack given to session.open shadows the shipped pack of the same id: a ratified one is "
    "the session's register (its one opening and closing decorate the first turn), a broken "
    "one is refused with its own code, never replaced by the shipped pack",
    family="loader",
    capabilities=("sessions", "registers.ratify"),
    seed="docs/protocol.md § session.open (loaded like register.load with the files first on "
    "the search path); docs/registers.md § Loading (search path)",
    cover=coverage.each("shadowings opened", [[r, v] for r in SHIPPED for v in VARIANTS]),
)
def session_pack_shadows_shipped(engine: EngineClient, scenario: list[str]) -> None:
    register_id, variant = scenario
    files, code = _user_files(engine, register_id, variant)
    what = f"session.open of a {variant} user pack named {register_id}"
    try:
        opened = engine.call("session.open", {"register_id": register_id, "files": files})
    except EngineRefused as refusal:
        assert code is not None, f"{what}: refused with {refusal.code}"
        assert refusal.code == code, f"{what}: refused with {refusal.code}, expected {code}"
        return
    session = member(opened, "session", "string")
    turn = engine.call("session.chat", {"session": session, "text": PROMPT})
    engine.call("session.close", {"session": session})
    assert code is None, f"{what}: opened a session, expected {code}"
    surface = member(turn, "surface", "string")
    opening, closing = SHADOW_MARKERS["openings"][0], SHADOW_MARKERS["closings"][0]
    assert surface.startswith(opening + " ") and surface.endswith(closing), (
        f"{what}: {PROMPT!r} answered {surface!r}, not decorated with the user pack's only "
        f"opening {opening!r} and closing {closing!r}: the session speaks another pack"
    )
