"""A ``session.open`` refused on a store leaves no session on it and changes nothing.

docs/protocol.md § Sessions on a store: a second ``session.open`` on a store is
``STATE_IN_USE`` only "while that session is open", and the op checks the store before it
loads the register. An open refused after that check (the register, its id, its files) or
before it (an argument) opened no session, so the next ``session.open`` on the store opens,
at the store's turn, and the store's state is what it was. A port that claims the store for
the new session before the register loads keeps it claimed by a session that never opened.
"""

from __future__ import annotations

import base64
import json
from typing import Any

from conformance.engines.base import EngineClient, EngineRefused
from conformance.requirements.registry import requirement
from conformance.requirements.state_life import LIFE
from conformance.state.driver import scratch

UNRATIFIED_ID = "refused_open_v1"
UNRATIFIED_PACK = {
    "register_id": UNRATIFIED_ID,
    "version": "1",
    "description": "a pack given to session.open without its report",
    "schema_version": "1.0.0",
    "display_name": "Refused open",
    "depth_preference": "standard",
    "realizer_overrides": {},
    "discourse_markers": {"openings": ["So,"], "transitions": [], "closings": []},
}


def _unratified_files() -> dict[str, str]:
    data = (json.dumps(UNRATIFIED_PACK, sort_keys=True, indent=2) + "\n").encode("utf-8")
    return {f"{UNRATIFIED_ID}.json": base64.b64encode(data).decode("ascii")}


REFUSED_OPENS: tuple[tuple[str, dict[str, Any], str | None], ...] = (
    ("a register no search finds", {"register_id": "no_such_register_v1"}, None),
    ("an invalid register id", {"register_id": "Not An Id"}, None),
    ("the reserved id unregistered", {"register_id": "unregistered"}, None),
    ("a register id that is a number", {"register_id": 7}, None),
    ("an unknown argument", {"register_id": None, "colour": "red"}, None),
    (
        "a pack in files without its report",
        {"register_id": UNRATIFIED_ID, "files": _unratified_files()},
        "registers.load",
    ),
    (
        "a file name that is not a pack's or a report's",
        {"register_id": None, "files": {"notes.txt": ""}},
        "registers.load",
    ),
)
"""Each way a ``session.open`` with a store is refused, and the capability it needs."""


def _digest(engine: EngineClient, store: str) -> dict[str, Any]:
    return dict(engine.call("state.digest", {"store": store}))


def _refused(engine: EngineClient, args: dict[str, Any]) -> str:
    """The code of ``session.open``'s refusal of *args* (malformed on purpose, so not
    validated in strict mode); AssertionError when it opens a session."""
    try:
        opened = engine.call("session.open", args, checked=False)
    except EngineRefused as refusal:
        return refusal.code
    raise AssertionError(f"session.open {args} opened {opened}; the docs refuse it")


@requirement(
    "STATE-LIFE-102",
    "a session.open refused on an open, free store (a register no search finds, an invalid "
    "or reserved id, an argument of the wrong type or unknown, a pack without its report, a "
    "bad file name) opens no session on it: the store's digest is unchanged and the next "
    "session.open on it opens at the store's turn and lives a turn",
    family="state",
    capabilities=LIFE,
    seed="docs/protocol.md § Sessions on a store (Refusals: STATE_IN_USE only while a "
    "session is open on the store; the store is checked before the register loads)",
    max_examples=1,
)
def refused_open_leaves_store_free(engine: EngineClient, _: object) -> None:
    claimed = set(engine.capabilities())
    cases = [(name, args) for name, args, needs in REFUSED_OPENS if needs in (None, *claimed)]
    with scratch() as root:
        store = engine.call("state.open", {"dir": str(root / "life")})["store"]
        try:
            for turns, (name, args) in enumerate(cases):
                before = _digest(engine, store)
                code = _refused(engine, {**args, "store": store})
                after = _digest(engine, store)
                assert after == before, (
                    f"session.open with {name} was refused ({code}) yet changed the store: "
                    f"digest {before} became {after}"
                )
                try:
                    opened = engine.call("session.open", {"register_id": None, "store": store})
                except EngineRefused as refusal:
                    raise AssertionError(
                        f"after a session.open with {name} was refused ({code}), the next "
                        f"session.open on the store was refused too ({refusal.code}): a "
                        "refused open holds no session on the store"
                    ) from None
                assert opened.get("turn_idx") == turns, (
                    f"after a session.open with {name} was refused ({code}), the next "
                    f"session.open on the store answered {opened}, not turn_idx {turns}: "
                    "a refused open holds no session on the store"
                )
                engine.call("session.chat", {"session": opened["session"], "text": "Hello."})
                engine.call("session.close", {"session": opened["session"]})
        finally:
            engine.call("state.close", {"store": store})
