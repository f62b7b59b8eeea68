"""A result member the docs give under a condition is there exactly when the condition holds.

docs/protocol.md § Ops: "results have exactly the listed fields" (`session.chat` may add
fields of its own, but not these); § session.open: the result is `{"session": str}`, and
"with the optional `store` ... the result then also has `turn_idx`"; the `says` row of
§ session.chat: "only from an engine claiming `answers`, and then in every result". The
result schemas can only mark such members optional, so a port that always answers
`turn_idx`, or sends `says` without claiming `answers`, passes every schema check. Here
each op is sent with and without its condition, and the members are compared.
"""

from __future__ import annotations

from hypothesis import strategies as st

from conformance import coverage
from conformance.engines.base import EngineClient
from conformance.engines.view import member
from conformance.requirements.registry import requirement
from conformance.state.driver import scratch

OPENS = ("no register", "a shipped register", "a store (state.life)")
PROMPT = "What is light?"


def _open_args(engine: EngineClient, how: str, directory: str) -> dict[str, str | None]:
    if how == "no register":
        return {"register_id": None}
    if how == "a shipped register":
        return {"register_id": "terse_v1"}
    store = member(engine.call("state.open", {"dir": directory}), "store", "string")
    return {"register_id": None, "store": store}


@requirement(
    "PROTO-COND-481",
    "session.open answers turn_idx exactly when it is given a store, and session.chat "
    "answers says exactly when the engine claims answers (in every turn then)",
    family="protocol",
    capabilities=("sessions",),
    seed="docs/protocol.md § Ops (results have exactly the listed fields); § session.open "
    "(with the optional store the result then also has turn_idx); § session.chat (says: only "
    "from an engine claiming answers, and then in every result)",
    strategy=lambda ctx: st.sampled_from(OPENS),
    cover=coverage.each("session opens", list(OPENS)),
)
def conditional_members_follow_their_condition(engine: EngineClient, how: str) -> None:
    claims = engine.capabilities()
    if how == "a store (state.life)" and "state.life" not in claims:
        return
    with scratch() as directory:
        args = _open_args(engine, how, str(directory / "store"))
        opened = engine.call("session.open", args)
        session = member(opened, "session", "string")
        turn = engine.call("session.chat", {"session": session, "text": PROMPT})
        engine.call("session.close", {"session": session})
        if "store" in args:
            engine.call("state.close", {"store": args["store"]})
    want = {"session", "turn_idx"} if "store" in args else {"session"}
    assert set(opened) == want, (
        f"session.open with {how}: the result has {sorted(opened)}, the docs list {sorted(want)}"
        " (turn_idx only with a store)"
    )
    says = "says" in turn
    assert says == ("answers" in claims), (
        f"session.chat after session.open with {how}: says is "
        f"{'there' if says else 'missing'}, and the engine "
        f"{'claims' if 'answers' in claims else 'does not claim'} answers (says only from an "
        "engine claiming answers, and then in every result)"
    )
