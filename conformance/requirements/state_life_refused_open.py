"""A ``session.open`` on a store changes nothing of it: one refused leaves no session on it,
and one answered writes nothing before the session's first turn.

docs/protocol.md § Sessions on a store: a second ``session.open`` on a store is
``STATE_IN_USE`` only "while that session is open", and the op checks the store before it
loads the register. An open refused after that check (the register, its id, its files) or
before it (an argument) opened no session, so the next ``session.open`` on the store opens,
at the store's turn, and the store's state is what it was. A port that claims the store for
the new session before the register loads keeps it claimed by a session that never opened.

An open that is answered resumes the store's life ("**Open.** The session resumes the
store's life"); what is applied to the store is applied by a turn ("**Each turn.**
`session.chat` applies the turn to the store (a `turn`, the `session` record naming the
register, the `life` record and the `vault` records the turn changed)", as docs/state.md
§ In the chat runtime has it: "after every turn applies `{"op": "turn"}` and the session
record"). So before any turn the store's identity and turn count are its last
checkpoint's, and it is clean (docs/state.md § Commit protocol: "A store is **dirty**
exactly when its in-memory identity or turn count is not its last checkpoint's ...
`state.close` of a clean store never commits"; docs/protocol.md: "`state.close` commits
only what changed"). A port that writes the ``session`` record at ``session.open`` makes a
fresh store close to ``gen-00000001``, and a store whose life was lived under another
register commit a generation no turn made.
"""

from __future__ import annotations

import base64
import json
from pathlib import Path
from typing import Any

from conformance.engines.base import EngineClient, EngineRefused
from conformance.oracle import CONVIVIAL, TERSE
from conformance.requirements.registry import requirement
from conformance.requirements.state_life import LIFE
from conformance.state import format as fmt
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


def _on_disk(directory: Path) -> tuple[list[str], bytes | None]:
    """The generations in *directory* and the bytes of its ``CURRENT`` (None: none)."""
    names = sorted(p.name for p in directory.iterdir() if fmt.generation_number(p.name) is not None)
    current = directory / "CURRENT"
    return names, current.read_bytes() if current.is_file() else None


def _opened_unchanged(
    engine: EngineClient, directory: Path, register_id: str | None, what: str, *, keep: bool
) -> None:
    """Open a store on *directory*, open a session on it under *register_id* and have it
    answer no turn: the store's digest is what it was and clean; then ``state.close`` (with
    *keep*, while the session is still open; else after ``session.close``) answers the last
    checkpoint and leaves the generations and ``CURRENT`` as they were."""
    store = engine.call("state.open", {"dir": str(directory)})["store"]
    try:
        before = _digest(engine, store)
        disk = _on_disk(directory)
        session = engine.call("session.open", {"register_id": register_id, "store": store})
        after = _digest(engine, store)
        if not keep:
            engine.call("session.close", {"session": session["session"]})
    finally:
        closed = engine.call("state.close", {"store": store})
    assert after == before and after["dirty"] is False, (
        f"session.open under {register_id!r} on {what}, before any turn, changed the store: "
        f"digest {before} became {after}; an open resumes the store's life, a turn writes it"
    )
    kept = {k: before[k] for k in ("generation", "identity", "turn_count")}
    assert closed == kept, (
        f"state.close of {what} after a session.open under {register_id!r} and no turn "
        f"answered {closed}, not the last checkpoint {kept}: a clean store's close never commits"
    )
    assert _on_disk(directory) == disk, (
        f"state.close of {what} after a session.open under {register_id!r} and no turn left "
        f"{_on_disk(directory)}, not {disk}: a clean store's close never commits"
    )


@requirement(
    "STATE-LIFE-102",
    "a session.open on an open, free store changes nothing of it: one refused (a register no "
    "search finds, an invalid or reserved id, an argument of the wrong type or unknown, a "
    "pack without its report, a bad file name) opens no session on it: the store's digest is "
    "unchanged and the next session.open on it opens at the store's turn and lives a turn; "
    "one answered, before any turn, on a fresh store and on a loaded one whose life was "
    "lived under another register, leaves the digest unchanged and the store clean, and "
    "state.close then (the session closed, or still open) answers the last checkpoint and "
    "adds no generation, CURRENT as it was",
    family="state",
    capabilities=LIFE,
    seed="docs/protocol.md § Sessions on a store (Open: the session resumes the store's "
    "life; Each turn: session.chat applies the turn, the session record ...; Refusals: "
    "STATE_IN_USE only while a session is open on the store; the store is checked before the "
    "register loads); docs/state.md § Commit protocol (a store is dirty exactly when its "
    "identity or turn count is not its last checkpoint's; state.close of a clean store never "
    "commits)",
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
        _opened_unchanged(engine, root / "fresh", TERSE, "a fresh store", keep=False)
        lived = f"a store whose life was lived under UNREGISTERED ({len(cases)} turns)"
        _opened_unchanged(engine, root / "life", CONVIVIAL, lived, keep=True)
