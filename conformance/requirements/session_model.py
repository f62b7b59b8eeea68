"""Sessions and batches against a model: programs a rule-based state machine writes.

The model and the machine are in :mod:`conformance.session_model`; a program is JSON, so
a failure shrinks to a short program that ``python -m conformance replay`` runs again.
"""

from __future__ import annotations

from typing import Any

from conformance.coverage import Case, Plan
from conformance.engines.base import EngineClient
from conformance.requirements.registry import requirement
from conformance.session_model import ProgramMachine, SessionsOnly, programs, run_program

RECALL = "What have I said about light?"


def _open(register: str | None = None) -> dict[str, Any]:
    return {"do": "open", "register": register}


def _chat(handle: int | str, text: object = "What is light?") -> dict[str, Any]:
    return {"do": "chat", "session": handle, "text": text}


def _close(handle: int | str) -> dict[str, Any]:
    return {"do": "close", "session": handle}


def _batch(*elements: dict[str, Any]) -> dict[str, Any]:
    return {"do": "batch", "elements": list(elements)}


SESSION_PROGRAMS: dict[str, list[dict[str, Any]]] = {
    "an id after a close": [
        _open(),
        _open("convivial_v1"),
        _close(0),
        _open("terse_v1"),
        _chat(1),
        _chat(2),
        _chat(0),
        _chat(1),
        _open(),
        _chat(3),
        _chat(2),
    ],
    "closing twice, chatting after a close": [
        _open(),
        _chat(0),
        _close(0),
        _close(0),
        _chat(0),
        _open(),
        _chat(1),
        _close(1),
    ],
    "never-opened ids": [_chat("unknown"), _close("unknown"), _open(), _chat("unknown"), _chat(0)],
    "a mistyped text counts no turn": [
        _open(),
        _chat(0),
        _chat(0, 5),
        _chat(0, None),
        _chat(0),
        _chat(0, ["hello"]),
        _chat(0),
    ],
    "an unknown register opens nothing": [
        _open("no_such_register_v9"),
        _open(),
        _chat(0),
        _open("no_such_register_v9"),
        _chat(0),
    ],
    "interleaved sessions of every register": [
        _open(),
        _open("default_neutral_v1"),
        _open("terse_v1"),
        _open("convivial_v1"),
        *[
            _chat(h, t)
            for t in ("What is light?", "What have I said about light?")
            for h in range(4)
        ],
    ],
    "two sessions side by side: referring back, a correction, a check of it, a recall": [
        _open(),
        _open("terse_v1"),
        _chat(0, "What is a river?"),
        _chat(1, "Why?"),
        _chat(1, "No, a whale is not a fish."),
        _chat(0, "Tell me more."),
        _chat(0, "Is a whale a fish?"),
        _chat(1, "Is a whale a fish?"),
        _open(),
        _chat(1, "Why?"),
        _chat(2, "Tell me more."),
        _chat(0, "What did I say about whales?"),
        _chat(1, "What did I say about whales?"),
    ],
}
"""Session programs the coverage sample runs before any generated one."""
BATCH_PROGRAMS: dict[str, list[dict[str, Any]]] = {
    "non-object and failing elements in the middle": [
        _open(),
        _batch(
            _chat(0),
            {"do": "non-object", "value": 5},
            _chat("unknown"),
            {"do": "no id"},
            _chat(0, 7),
            {"do": "non-object", "value": None},
            _chat(0),
            _close(0),
            _chat(0),
        ),
        _chat(0),
    ],
    "sessions opened and closed inside a batch": [
        _batch(_open(), _open("convivial_v1"), _open("no_such_register_v9")),
        _chat(0),
        _chat(1),
        _batch(_close(0), _chat(1), _close(0), _open()),
        _chat(0),
        _chat(2),
        _chat(1),
    ],
    "a nested batch after elements that would change sessions": [
        _open(),
        _chat(0),
        _batch(_close(0), _chat(0), _open(), {"do": "nested"}, _chat(0)),
        _chat(0),
    ],
    "a nested batch first": [_open(), _batch({"do": "nested"}, _close(0)), _chat(0), _close(0)],
    "an empty batch": [_batch(), _open(), _batch(), _chat(0)],
    "a batch leaning on turns before it and turns after it leaning on the batch": [
        _open(),
        _open("convivial_v1"),
        _chat(0, "No, a whale is not a fish."),
        _chat(0, "What is a river?"),
        _batch(
            _chat(0, "Why?"),
            _chat(0, "Is a whale a fish?"),
            _chat(1, "What is light?"),
            _chat(0, "No, light is a wave."),
        ),
        _chat(0, "Tell me more."),
        _chat(0, "Is light a wave?"),
        _chat(1, "Why?"),
        _batch(_chat(0, "What did I say about whales?"), _chat(1, "Is light a wave?")),
    ],
}
"""Batch programs the coverage sample runs before any generated one."""


def _plan(dimension: str, table: dict[str, list[dict[str, Any]]]) -> Plan:
    cases = tuple(Case(table[name], ((dimension, name),)) for name in sorted(table))
    return Plan(cases, ((dimension, len(table)),))


SEED = (
    "docs/protocol.md § session.open (an independent session); § session.chat (exactly what a "
    "fresh runtime that saw the same earlier turns answers: a turn that refers back, checks a "
    "claim or recalls what was said reads its own session's latest subject and claims, never "
    "another session's); § session.close; § Responses; "
    "§ Error codes (SESSION_UNKNOWN, the check order)"
)


@requirement(
    "PROTO-SESSION-002",
    "any program of opens, chats and closes (closed, reused and never-opened ids, a mistyped "
    "text, an unknown register) is answered as the session model says: ids distinct among "
    "open sessions, turn_idx per session, SESSION_UNKNOWN once closed, and each session's "
    "turns equal to the same turns in a fresh session alone, with other sessions opened and "
    "chatting between them (turns that refer back to the latest subject, corrections, checks "
    "of a claim and recalls among them)",
    family="protocol",
    capabilities=("sessions",),
    seed=SEED,
    strategy=lambda ctx: programs(SessionsOnly),
    cover=lambda ctx: _plan("session programs", SESSION_PROGRAMS),
)
def sessions_follow_the_model(engine: EngineClient, program: list[Any]) -> None:
    run_program(engine, program)


@requirement(
    "PROTO-BATCH-003",
    "programs with batches follow the same model: one response per element in order, each "
    "what it would get alone (a non-object element PROTOCOL_BAD_JSON, one without an id "
    "PROTOCOL_BAD_REQUEST, a failing element in the middle changing nothing after it), "
    "sessions opened or closed inside a batch counted as if sent alone, session state "
    "carrying through a batch's edges (a latest subject or claim made before a batch read "
    "inside it, one made inside read after it), and a nested batch refusing the whole batch "
    "before any element runs",
    family="protocol",
    capabilities=("sessions", "batch"),
    seed=f"docs/protocol.md § batch (each element exactly what it would get if sent on its own "
    f"line at that point; session state carries through the batch); {SEED}",
    strategy=lambda ctx: programs(ProgramMachine),
    cover=lambda ctx: _plan("batch programs", {**SESSION_PROGRAMS, **BATCH_PROGRAMS}),
)
def batches_follow_the_model(engine: EngineClient, program: list[Any]) -> None:
    run_program(engine, program)
