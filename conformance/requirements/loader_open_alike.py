"""Every load the loader requirements make, made again as ``session.open``: the same answer.

docs/protocol.md § session.open: the register is "loaded like `register.load` with the files
first on the search path", with "every loader `REGISTER_*` code" and `files` "as for
`register.load`". LOAD-OPEN-001 checks that on a table of changed ratified pairs; a port whose
sessions load through a path of their own (a check done in the `register.load` handler, a
reader of its own for `files`) passes it and every loader requirement. Here the coverage
cases of every requirement that loads (its capabilities within `registers.load` and
`registers.ratify`) run again, and right after each `register.load` they make, the same
`register_id` and `files` are given to `session.open`: a pack that loads opens a session, and
a refusal is the same code naming the same field. The case's own verdict is its requirement's.
"""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from conformance import cases
from conformance.engines.base import EngineClient, EngineRefused
from conformance.model import Requirement
from conformance.requirements import replays
from conformance.requirements.registry import requirement
from conformance.requirements.replays import Forwarding

LOADS = frozenset({"registers.load", "registers.ratify"})
"""The capabilities a requirement replayed here may need (this one claims them all)."""
ARGS = frozenset({"register_id", "files"})
"""The arguments `register.load` and `session.open` share."""


def _loads(rid: str, found: Requirement) -> bool:
    """Whether *found* loads packs and needs no capability beyond :data:`LOADS`."""
    return (
        "registers.load" in found.capabilities
        and set(found.capabilities) <= LOADS
        and not rid.startswith("LOAD-OPEN-")
    )


class _OpensEachLoad(Forwarding):
    """*engine*, but every ``register.load`` it answers is followed by ``session.open`` of the
    same register id and files; each disagreement is kept in :attr:`problems`."""

    def call(self, op: str, args: Any = None, *, checked: bool = True) -> Any:
        try:
            result = self._engine.call(op, args, checked=checked)
        except EngineRefused as refusal:
            self._open_alike(op, args, (refusal.code, refusal.field))
            raise
        self._open_alike(op, args, None)
        return result

    def _open_alike(self, op: str, args: Any, loaded: tuple[str, str | None] | None) -> None:
        """Compare ``session.open`` of *args* with the load's answer *loaded* (None: loaded)."""
        if op != "register.load" or not isinstance(args, dict) or not set(args) <= ARGS:
            return
        if not isinstance(args.get("register_id"), str):
            return
        try:
            opened = self._engine.call("session.open", dict(args), checked=False)
        except EngineRefused as refusal:
            got: tuple[str, str | None] | None = (refusal.code, refusal.field)
        else:
            got = None
            if isinstance(opened.get("session"), str):
                self._engine.call("session.close", {"session": opened["session"]})
        if got != loaded:
            said = "loaded" if loaded is None else f"refused {loaded[0]} naming {loaded[1]!r}"
            did = "opened a session" if got is None else f"refused {got[0]} naming {got[1]!r}"
            files = sorted(args.get("files") or {})
            self.problems.append(
                f"register_id {args['register_id']!r}, files {files}: register.load {said}; "
                f"session.open of the same {did}"
            )


@requirement(
    "LOAD-OPEN-002",
    "every register.load that the coverage cases of the loading requirements make (LOAD-*, "
    "PROTO-FILES-*: bad bytes, bounds, seals, tampering, files beside, search path, ids), "
    "made again at once as session.open with the same register_id and files, answers alike: "
    "a pack that loads opens a session, a refusal is the same code naming the same field",
    family="loader",
    capabilities=("sessions", "registers.load", "registers.ratify"),
    seed="docs/protocol.md § session.open (loaded like register.load with the files first on "
    "the search path; every loader REGISTER_* code; files as for register.load)",
    strategy=lambda ctx: st.sampled_from(replays.items(ctx, _loads)),
    cover=replays.planner(_loads),
)
def session_open_loads_alike(engine: EngineClient, item: list[Any]) -> None:
    alike = _OpensEachLoad(engine)
    replays.run_case(alike, item)
    assert not alike.problems, cases.lines(
        alike.problems,
        f"{item[0]}'s case {item[1]!r}: session.open does not load as register.load:",
    )
