"""The protocol itself: hello, typed errors that keep the engine alive, batch, chat shape."""

from __future__ import annotations

import re

from hypothesis import strategies as st

from conformance import oracle
from conformance import strategies as gen
from conformance.driver import run_script
from conformance.engines.base import EngineRefused
from conformance.requirements.registry import SuiteContext, requirement

PROTOCOL = "docs/protocol.md (core-engine/1)"
HEX64 = re.compile(r"[0-9a-f]{64}")
VARIANT = re.compile(r"([0-9a-f]{12})?")


@requirement(
    "PROTO-HELLO-001",
    "hello names the protocol core-engine/1, the engine, its version and its capabilities",
    family="protocol",
    capabilities=(),
    seed=PROTOCOL,
)
def hello_shape(engine, _):
    hello = engine.call("hello")
    assert hello.get("protocol") == "core-engine/1", f"protocol {hello.get('protocol')!r}"
    info = hello.get("engine", {})
    assert isinstance(info.get("name"), str) and info["name"], "engine.name missing"
    assert isinstance(info.get("version"), str) and info["version"], "engine.version missing"
    caps = hello.get("capabilities")
    assert isinstance(caps, list) and all(isinstance(c, str) for c in caps), "capabilities"
    assert caps == sorted(set(caps)), f"capabilities are not sorted and unique: {caps}"


def _still_alive(engine) -> None:
    assert engine.call("hello")["protocol"] == "core-engine/1", "engine did not answer hello"


@requirement(
    "PROTO-ERROR-001",
    "an unknown op is refused with PROTOCOL_UNKNOWN_OP and the engine keeps serving",
    family="protocol",
    capabilities=(),
    seed=PROTOCOL,
    strategy=lambda ctx: st.text(min_size=1, max_size=30).filter(
        lambda op: op not in {"hello", "batch"} and "." not in op
    ),
)
def unknown_op(engine, op):
    try:
        engine.call(op, checked=False)
    except EngineRefused as refusal:
        assert refusal.code == "PROTOCOL_UNKNOWN_OP", f"op {op!r} refused with {refusal.code}"
    else:
        raise AssertionError(f"unknown op {op!r} was answered with ok")
    _still_alive(engine)


MALFORMED_ARGS = {
    "variation.select": {"bucket": "not-a-list", "trace_hash": 1, "turn_idx": -1},
    "variation.decorate": {"surface": 5},
    "overrides.resolve": {"realizer_overrides": [], "intent": "NOPE"},
    "session.chat": {"session": "no-such-session", "text": "hi"},
    "register.validate": {"pack": "not-an-object"},
    "register.load": {"register_id": "x", "files": {"../escape.json": "AAAA"}},
}


@requirement(
    "PROTO-ERROR-002",
    "requests with malformed args get a typed error response and the engine keeps serving",
    family="protocol",
    capabilities=(),
    seed=PROTOCOL,
    strategy=lambda ctx: st.sampled_from(sorted(MALFORMED_ARGS)),
)
def malformed_args(engine, op):
    try:
        engine.call(op, MALFORMED_ARGS[op], checked=False)
    except EngineRefused as refusal:
        assert re.fullmatch(r"[A-Z][A-Z0-9_]+", refusal.code), f"code {refusal.code!r}"
        assert refusal.code != "ENGINE_INTERNAL", f"{op}: an internal error, not a typed refusal"
    else:
        raise AssertionError(f"{op} with malformed args was answered with ok")
    _still_alive(engine)


@requirement(
    "PROTO-BATCH-001",
    "a batch answers exactly as the same requests sent one by one",
    family="protocol",
    capabilities=("batch", "variation"),
    seed=PROTOCOL,
    strategy=lambda ctx: st.lists(gen.select_args(), min_size=1, max_size=12),
)
def batch_equals_sequential(engine, arg_list):
    requests = [
        {"id": f"b{i}", "op": "variation.select", "args": a} for i, a in enumerate(arg_list)
    ]
    batched = engine.call("batch", {"requests": requests})["responses"]
    single = [engine.call("variation.select", a) for a in arg_list]
    assert [r.get("id") for r in batched] == [r["id"] for r in requests], "batch ids/order"
    assert [r.get("result") for r in batched] == single, "batch results differ from single calls"


@requirement(
    "PROTO-CHAT-001",
    "any text gets a well-formed chat response (hash, intent, grounding source, turn index)",
    family="protocol",
    capabilities=("sessions",),
    seed="ADR-0070 § Capability unlocked (ChatRuntime under a register)",
    strategy=lambda ctx: st.tuples(
        st.sampled_from((None, "default_neutral_v1", "terse_v1", "convivial_v1")),
        st.lists(st.text(max_size=200), min_size=1, max_size=4),
    ).map(list),
)
def chat_shape(engine, scenario):
    register_id, texts = scenario
    for turn, r in enumerate(run_script(engine, register_id, texts)):
        assert HEX64.fullmatch(str(r.get("trace_hash"))), f"trace_hash {r.get('trace_hash')!r}"
        assert r.get("intent") in oracle.INTENT_NAMES, f"intent {r.get('intent')!r}"
        assert r.get("grounding_source") in oracle.GROUNDING_SOURCES, "grounding_source"
        assert r.get("turn_idx") == turn, f"turn_idx {r.get('turn_idx')!r} at turn {turn}"
        assert isinstance(r.get("surface"), str) and r["surface"], "empty surface"
        assert VARIANT.fullmatch(str(r.get("register_variant_id"))), "register_variant_id"
        assert r.get("register_id") == register_id, f"register_id {r.get('register_id')!r}"


@requirement(
    "LEX-REACH-001",
    "every lemma the engine lists is reachable: 'What is <lemma>?' is grounded, never oov/none",
    family="lexicon",
    capabilities=("sessions", "lexicon"),
    seed="L10 brief § 2 (the lexicon is part of the minimal persistent core)",
)
def every_lemma_reachable(engine, _):
    lexicon = SuiteContext.from_engine(engine).lexicon
    assert lexicon, "the engine lists no lemma"
    for entry in lexicon:
        (response,) = run_script(engine, None, [f"What is {entry.lemma}?"])
        assert response["grounding_source"] not in ("oov", "none"), (
            f"{entry.lemma} ({entry.pack}) is listed but grounds as {response['grounding_source']}"
        )
