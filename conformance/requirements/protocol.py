"""The protocol itself: hello, typed errors that keep the engine alive, argument refusals and
defaults, file names, batch, chat shape."""

from __future__ import annotations

import base64
import re
import zlib
from typing import Any

from hypothesis import strategies as st

from conformance import coverage, near_misses, oracle
from conformance import strategies as gen
from conformance.coverage import Case, Plan
from conformance.driver import run_script
from conformance.engines.base import EngineClient, EngineRefused
from conformance.jsontypes import EncodableObject, JSONEncodable, JSONValue
from conformance.requirements.registry import SuiteContext, requirement
from conformance.state.driver import Stores, scratch

PROTOCOL = "docs/protocol.md (core-engine/1)"
HEX64 = re.compile(r"[0-9a-f]{64}")
VARIANT = re.compile(r"([0-9a-f]{12})?")


@requirement(
    "PROTO-HELLO-001",
    "hello names the protocol core-engine/1, the engine, its version and its capabilities, "
    "sorted, unique, and each with the capabilities it implies (answers: sessions; "
    "state.life: state and sessions; state.delta: state.life)",
    family="protocol",
    capabilities=(),
    seed=PROTOCOL,
)
def hello_shape(engine: EngineClient, _: object) -> None:
    hello = engine.call("hello")
    assert hello.get("protocol") == "core-engine/1", f"protocol {hello.get('protocol')!r}"
    info = hello.get("engine", {})
    assert isinstance(info.get("name"), str) and info["name"], "engine.name missing"
    assert isinstance(info.get("version"), str) and info["version"], "engine.version missing"
    extra = sorted(set(info) - {"name", "version", "language"})
    assert not extra, f"engine has members the protocol does not list: {extra}"
    language = info.get("language", "python")
    assert isinstance(language, str) and language, f"engine.language {language!r}"
    caps = hello.get("capabilities")
    assert isinstance(caps, list) and all(isinstance(c, str) for c in caps), "capabilities"
    assert caps == sorted(set(caps)), f"capabilities are not sorted and unique: {caps}"
    for claimed, needed in IMPLIED_CAPABILITIES.items():
        missing = [n for n in needed if claimed in caps and n not in caps]
        assert not missing, (
            f"capabilities claim {claimed} without {', '.join(missing)}: an engine claiming "
            f"{claimed} also claims {', '.join(needed)} (docs/protocol.md § Capabilities)"
        )


IMPLIED_CAPABILITIES: dict[str, tuple[str, ...]] = {
    "answers": ("sessions",),
    "state.life": ("state", "sessions"),
    "state.delta": ("state.life",),
}
"""What claiming a capability implies claiming too (docs/protocol.md § Capabilities)."""


def _still_alive(engine: EngineClient) -> None:
    assert engine.call("hello")["protocol"] == "core-engine/1", "engine did not answer hello"


UNUSUAL_OPS = {"line breaks": "op\nwith\r\nline breaks", "100,000 characters": "x" * 100_000}
"""Unknown ops an error message must still fit on one line: quoted line breaks, great length."""


@requirement(
    "PROTO-ERROR-001",
    "an unknown op (line breaks and 100,000 characters included) is refused with "
    "PROTOCOL_UNKNOWN_OP, field op, a message of one line, and the engine keeps serving",
    family="protocol",
    capabilities=(),
    seed=f"{PROTOCOL} § Responses (error.message is one line); § Error codes",
    strategy=lambda ctx: st.text(min_size=1, max_size=30).filter(
        lambda op: op not in {"hello", "batch"} and "." not in op
    ),
    cover=lambda ctx: Plan(
        tuple(Case(op, (("unusual unknown ops", name),)) for name, op in UNUSUAL_OPS.items()),
        (("unusual unknown ops", len(UNUSUAL_OPS)),),
    ),
)
def unknown_op(engine: EngineClient, op: str) -> None:
    shown = op if len(op) <= 40 else f"{op[:20]!r}... ({len(op)} characters)"
    try:
        engine.call(op, checked=False)
    except EngineRefused as refusal:
        assert refusal.code == "PROTOCOL_UNKNOWN_OP", f"op {shown!r} refused with {refusal.code}"
        assert refusal.field == "op", f"op {shown!r}: field {refusal.field!r}, not 'op'"
        assert "\n" not in refusal.message and "\r" not in refusal.message, (
            f"op {shown!r}: the message spans lines: {refusal.message[:120]!r}"
        )
    else:
        raise AssertionError(f"unknown op {op!r} was answered with ok")
    _still_alive(engine)


MALFORMED_ARGS: dict[str, EncodableObject] = {
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
    cover=coverage.each("ops", sorted(MALFORMED_ARGS)),
)
def malformed_args(engine: EngineClient, op: str) -> None:
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
def batch_equals_sequential(engine: EngineClient, arg_list: list[dict[str, Any]]) -> None:
    requests: list[dict[str, Any]] = [
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
        st.sampled_from(oracle.FOUR_REGISTERS),
        st.lists(st.text(max_size=200), min_size=1, max_size=4),
    ).map(list),
    cover=near_misses.falsy_chats,
)
def chat_shape(engine: EngineClient, scenario: list[Any]) -> None:
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
def every_lemma_reachable(engine: EngineClient, _: object) -> None:
    lexicon = SuiteContext.from_engine(engine).lexicon
    assert lexicon, "the engine lists no lemma"
    for entry in lexicon:
        (response,) = run_script(engine, None, [f"What is {entry.lemma}?"])
        assert response["grounding_source"] not in ("oov", "none"), (
            f"{entry.lemma} ({entry.pack}) is listed but grounds as {response['grounding_source']}"
        )


BAD_ENVELOPES: dict[str, tuple[EncodableObject, JSONValue, str]] = {
    "id missing": ({"op": "hello", "args": {}}, None, "id"),
    "id true": ({"id": True, "op": "hello", "args": {}}, None, "id"),
    "id 1.5": ({"id": 1.5, "op": "hello", "args": {}}, None, "id"),
    "id a list": ({"id": [1], "op": "hello", "args": {}}, None, "id"),
    "op missing": ({"id": 7, "args": {}}, 7, "op"),
    "op a number": ({"id": 7, "op": 5, "args": {}}, 7, "op"),
    "args a list": ({"id": "r7", "op": "hello", "args": []}, "r7", "args"),
    "args a string": ({"id": "r7", "op": "hello", "args": "x"}, "r7", "args"),
    "op null": ({"id": 7, "op": None, "args": {}}, 7, "op"),
    "args null (a value, not an absent args)": (
        {"id": "r7", "op": "hello", "args": None},
        "r7",
        "args",
    ),
    "args false": ({"id": "r7", "op": "hello", "args": False}, "r7", "args"),
    "args 0": ({"id": "r7", "op": "hello", "args": 0}, "r7", "args"),
    "args the empty string": ({"id": "r7", "op": "hello", "args": ""}, "r7", "args"),
}


@requirement(
    "PROTO-ENVELOPE-001",
    "a malformed envelope (id, op or args) is refused with PROTOCOL_BAD_REQUEST naming the "
    "member, echoing a valid id (null otherwise), and the engine keeps serving",
    family="protocol",
    capabilities=(),
    seed="docs/protocol.md § Requests; § Responses; § Error codes (check order)",
    strategy=lambda ctx: st.sampled_from(sorted(BAD_ENVELOPES)),
    cover=coverage.each("envelopes", sorted(BAD_ENVELOPES)),
)
def bad_envelope(engine: EngineClient, name: str) -> None:
    request, echoed, field = BAD_ENVELOPES[name]
    response = engine.raw(request, checked=False)
    assert isinstance(response, dict) and response.get("ok") is False, f"{name}: {response!r}"
    assert response.get("id") == echoed and type(response.get("id")) is type(echoed), (
        f"{name}: response id {response.get('id')!r}, expected {echoed!r}"
    )
    error = response.get("error") or {}
    assert error.get("code") == "PROTOCOL_BAD_REQUEST", f"{name}: code {error.get('code')!r}"
    assert error.get("field") == field, f"{name}: field {error.get('field')!r}, expected {field!r}"
    _still_alive(engine)


SELECT: dict[str, JSONEncodable] = {
    "bucket": ["a", "b"],
    "trace_hash": "0" * 64,
    "register_id": "r",
    "turn_idx": 0,
    "bucket_name": "openings",
}
DECORATE: EncodableObject = {
    "surface": "s",
    "discourse_markers": {"openings": ["So,"], "closings": [""]},
    "register_id": "r",
    "trace_hash": "0" * 64,
    "turn_idx": 0,
}
BAD_ARGS: dict[str, tuple[str, EncodableObject, str]] = {
    "unknown argument": ("variation.select", {**SELECT, "colour": "red"}, "colour"),
    "unknown arguments astral and private-use": (
        "variation.select",
        {**SELECT, "\U0001f600": 1, "\ue000": 1},
        "\ue000",
    ),
    "missing argument": (
        "variation.select",
        {k: v for k, v in SELECT.items() if k != "bucket"},
        "bucket",
    ),
    "turn_idx true": ("variation.select", {**SELECT, "turn_idx": True}, "turn_idx"),
    "turn_idx false": ("variation.select", {**SELECT, "turn_idx": False}, "turn_idx"),
    "turn_idx 1.0": ("variation.select", {**SELECT, "turn_idx": 1.0}, "turn_idx"),
    "turn_idx -1": ("variation.select", {**SELECT, "turn_idx": -1}, "turn_idx"),
    "turn_idx a string": ("variation.select", {**SELECT, "turn_idx": "0"}, "turn_idx"),
    "decorate turn_idx true": ("variation.decorate", {**DECORATE, "turn_idx": True}, "turn_idx"),
    "decorate turn_idx 2.0": ("variation.decorate", {**DECORATE, "turn_idx": 2.0}, "turn_idx"),
    "decorate turn_idx -1": ("variation.decorate", {**DECORATE, "turn_idx": -1}, "turn_idx"),
    "turn_idx -(2^64)": ("variation.select", {**SELECT, "turn_idx": -(2**64)}, "turn_idx"),
    "bucket of numbers": ("variation.select", {**SELECT, "bucket": [1, 2]}, "bucket"),
    "register_id a number": ("variation.select", {**SELECT, "register_id": 3}, "register_id"),
    "intent unknown": (
        "overrides.resolve",
        {"realizer_overrides": {}, "intent": "definition"},
        "intent",
    ),
    "text missing": ("session.chat", {"session": "s1"}, "text"),
    "requests not a list": ("batch", {"requests": {"id": 1}}, "requests"),
    "session register_id a number": ("session.open", {"register_id": 5}, "register_id"),
    "a file value not a string": (
        "register.load",
        {"register_id": "x", "files": {"x.json": 5}},
        "files",
    ),
    "a file name with a separator": (
        "register.load",
        {"register_id": "x", "files": {"a/x.json": "e30="}},
        "files",
    ),
    "a file value not base64": (
        "register.load",
        {"register_id": "x", "files": {"x.json": "*"}},
        "files",
    ),
    "a file value in the URL-safe alphabet": (
        "register.load",
        {"register_id": "x", "files": {"x.json": "-_8="}},
        "files",
    ),
    "a file value without its padding": (
        "register.load",
        {"register_id": "x", "files": {"x.json": "e30"}},
        "files",
    ),
    "a file value with excess padding": (
        "register.load",
        {"register_id": "x", "files": {"x.json": "e30=="}},
        "files",
    ),
    "a file value ending in a line break": (
        "register.load",
        {"register_id": "x", "files": {"x.json": "e30=\n"}},
        "files",
    ),
    "a file value holding a space": (
        "register.load",
        {"register_id": "x", "files": {"x.json": "e3 0="}},
        "files",
    ),
    "session.open: a file value in the URL-safe alphabet": (
        "session.open",
        {"register_id": None, "files": {"x.json": "-_8="}},
        "files",
    ),
    "session.open: a file value without its padding": (
        "session.open",
        {"register_id": None, "files": {"x.json": "e30"}},
        "files",
    ),
    "session.open: a file value holding a space": (
        "session.open",
        {"register_id": None, "files": {"x.json": "e3 0="}},
        "files",
    ),
    "an unknown marker bucket": (
        "variation.decorate",
        {**DECORATE, "discourse_markers": {"openings": ["So,"], "closings": [""], "middles": []}},
        "discourse_markers",
    ),
    "closings missing": (
        "variation.decorate",
        {**DECORATE, "discourse_markers": {"openings": ["So,"]}},
        "discourse_markers",
    ),
    "openings missing": (
        "variation.decorate",
        {**DECORATE, "discourse_markers": {"closings": [""]}},
        "discourse_markers",
    ),
    "a marker bucket of numbers": (
        "variation.decorate",
        {**DECORATE, "discourse_markers": {"openings": [1], "closings": [""]}},
        "discourse_markers",
    ),
    "realizer_overrides not an object": (
        "overrides.resolve",
        {"realizer_overrides": ["disclosure_domain_count"], "intent": "DEFINITION"},
        "realizer_overrides",
    ),
    "transitions not a list": (
        "variation.decorate",
        {**DECORATE, "discourse_markers": {"openings": [], "closings": [], "transitions": "x"}},
        "discourse_markers",
    ),
}


@requirement(
    "PROTO-ARGS-001",
    "an unknown, missing or mistyped argument (a bool or a float where an integer is "
    "required, a number where a string is, malformed discourse_markers, a file value that is "
    "not strict base64 given to register.load, or to session.open in another alphabet, "
    "without its padding or with a space) is refused with "
    "PROTOCOL_BAD_ARGS naming it",
    family="protocol",
    capabilities=("variation", "overrides", "sessions", "batch", "registers.load"),
    seed="docs/protocol.md § Requests (unknown argument names); § Error codes; § register.load; "
    "§ session.open (files as for register.load); § variation.decorate",
    strategy=lambda ctx: st.sampled_from(sorted(BAD_ARGS)),
    cover=coverage.each("argument faults", sorted(BAD_ARGS)),
)
def bad_args(engine: EngineClient, name: str) -> None:
    _refused_as_bad_args(engine, name, *BAD_ARGS[name])


def _refused_as_bad_args(
    engine: EngineClient, name: str, op: str, args: EncodableObject, field: str
) -> None:
    """*op* with *args* is refused with PROTOCOL_BAD_ARGS naming *field*, and the engine lives."""
    try:
        engine.call(op, args, checked=False)
    except EngineRefused as refusal:
        assert refusal.code == "PROTOCOL_BAD_ARGS", f"{name}: refused with {refusal.code}"
        assert refusal.field == field, f"{name}: field {refusal.field!r}, expected {field!r}"
    else:
        raise AssertionError(f"{name}: {op} answered with ok")
    _still_alive(engine)


def _unknown_session(engine: EngineClient, op: str, args: EncodableObject, why: str) -> None:
    try:
        engine.call(op, args, checked=False)
    except EngineRefused as refusal:
        assert (refusal.code, refusal.field) == ("SESSION_UNKNOWN", "session"), (
            f"{op} on {why}: {refusal.code} with field {refusal.field!r}, "
            "expected SESSION_UNKNOWN with field 'session'"
        )
    else:
        raise AssertionError(f"{op} on {why} was answered with ok")


@requirement(
    "PROTO-SESSION-001",
    "open sessions have distinct ids and count their turns apart; session.chat and "
    "session.close on a session never opened or already closed are refused with "
    "SESSION_UNKNOWN, field session",
    family="protocol",
    capabilities=("sessions",),
    seed="docs/protocol.md § Error codes (SESSION_UNKNOWN); § session.open (an independent "
    "chat session); § session.chat; § session.close",
    strategy=lambda ctx: st.integers(2, 4),
)
def sessions_apart(engine: EngineClient, count: int) -> None:
    ids = [engine.call("session.open", {"register_id": None})["session"] for _ in range(count)]
    assert len(set(ids)) == count, f"{count} open sessions got the ids {ids}"
    for turns, session in enumerate(ids, start=1):
        for _ in range(turns):
            engine.call("session.chat", {"session": session, "text": "What is light?"})
    for turns, session in enumerate(ids, start=1):
        answer = engine.call("session.chat", {"session": session, "text": "What is light?"})
        assert answer.get("turn_idx") == turns, (
            f"session {session} answered its turn {turns} as turn_idx {answer.get('turn_idx')!r}"
        )
    closed = ids[0]
    engine.call("session.close", {"session": closed})
    never = "".join(ids) + "-never-opened"
    for op, args, why in (
        ("session.chat", {"session": never, "text": "hi"}, "a session never opened"),
        ("session.close", {"session": never}, "a session never opened"),
        ("session.chat", {"session": closed, "text": "hi"}, "a closed session"),
        ("session.close", {"session": closed}, "a closed session"),
    ):
        _unknown_session(engine, op, args, why)
    for session in ids[1:]:
        engine.call("session.close", {"session": session})


NESTED: dict[str, EncodableObject] = {
    "a well-formed nested batch": {"id": "n", "op": "batch", "args": {"requests": []}},
    "a nested batch without an id": {"op": "batch", "args": {"requests": []}},
    "a nested batch whose id is null and args a number": {"id": None, "op": "batch", "args": 5},
}
"""Elements whose op is "batch": any of them refuses the whole batch, whatever else the
element holds (docs/protocol.md § batch: an element whose `op` is "batch")."""


@requirement(
    "PROTO-BATCH-002",
    "a batch holding a nested batch is refused whole (PROTOCOL_BAD_ARGS, field requests) "
    "before any element runs",
    family="protocol",
    capabilities=("batch", "sessions"),
    seed="docs/protocol.md § batch",
    strategy=lambda ctx: st.tuples(st.integers(0, 3), st.sampled_from(sorted(NESTED))).map(list),
    cover=coverage.each("nested batch elements", [[p, n] for n in sorted(NESTED) for p in (0, 3)]),
)
def nested_batch_refused(engine: EngineClient, scenario: list[Any]) -> None:
    position, kind = scenario
    session = engine.call("session.open", {"register_id": None})["session"]
    closes: list[EncodableObject] = [
        {"id": i, "op": "session.close", "args": {"session": session}} for i in range(3)
    ]
    nested = NESTED[kind]
    requests = [*closes[:position], nested, *closes[position:]]
    try:
        engine.call("batch", {"requests": requests}, checked=False)
    except EngineRefused as refusal:
        assert refusal.code == "PROTOCOL_BAD_ARGS", f"refused with {refusal.code}"
        assert refusal.field == "requests", f"field {refusal.field!r}"
    else:
        raise AssertionError("a batch with a nested batch was answered with ok")
    try:
        engine.call("session.chat", {"session": session, "text": "hello"})
    except EngineRefused as refusal:
        raise AssertionError(f"an element of the refused batch ran: {refusal.code}") from None
    engine.call("session.close", {"session": session})


STATE_ARGS: dict[str, tuple[str, EncodableObject, str]] = {
    "dir empty": ("state.load", {"dir": ""}, "dir"),
    "dir with NUL": ("state.load", {"dir": "/tmp/a\x00b"}, "dir"),
    "dir a number": ("state.open", {"dir": 7}, "dir"),
    "mutations not a list": ("state.apply", {"store": "none", "mutations": {}}, "mutations"),
    "repair not a boolean": (
        "state.journal",
        {"dir": "/nonexistent-conformance-dir", "name": "proposals", "repair": "yes"},
        "repair",
    ),
    "repair an integer": (
        "state.journal",
        {"dir": "/nonexistent-conformance-dir", "name": "proposals", "repair": 1},
        "repair",
    ),
    "journal name unknown": (
        "state.journal",
        {"dir": "/nonexistent-conformance-dir", "name": "pending"},
        "name",
    ),
    "journal name a file name": (
        "state.journal",
        {"dir": "/nonexistent-conformance-dir", "name": "proposals.journal"},
        "name",
    ),
}


@requirement(
    "PROTO-ARGS-002",
    "a mistyped argument of a state op (an empty or NUL-holding dir, mutations not a list, "
    "repair not a boolean, a journal name not listed) is refused with PROTOCOL_BAD_ARGS "
    "naming it",
    family="protocol",
    capabilities=("state",),
    seed="docs/protocol.md § Error codes (argument types before the op); § Persisted-state ops",
    strategy=lambda ctx: st.sampled_from(sorted(STATE_ARGS)),
    cover=coverage.each("state argument faults", sorted(STATE_ARGS)),
)
def bad_state_args(engine: EngineClient, name: str) -> None:
    _refused_as_bad_args(engine, name, *STATE_ARGS[name])


PLAIN_NAMES = ("a b.json", "x..json", "\u00e9t\u00e9.json", "\U0001f600.json", "~x.json")
"""File names docs/protocol.md allows: a space, ``..`` inside a name, non-ASCII, astral."""

NOT_PLAIN_NAMES: dict[str, str] = {
    "a parent path": "../conformance-escape-probe.json",
    "a backslash": "a\\x.json",
    "NUL": "a\x00.json",
    "a control character": "a\x01.json",
    "unit separator": "a\x1f.json",
    "DEL": "a\x7f.json",
    "a C1 control (NEL U+0085, Unicode category Cc)": "a\x85.json",
    "not *.json": "x.txt",
    "a .json prefix": "x.json.txt",
}
"""File names docs/protocol.md refuses, by what is wrong with them."""

NOT_PLAIN_AMONG: dict[str, tuple[str, ...]] = {
    "a control character in the first of three names": ("a\x01.json", "b.json", "d.json"),
    "a control character in the middle of three names": ("b.json", "c\x01.json", "d.json"),
    "a control character in the last of three names": ("b.json", "d.json", "e\x01.json"),
    "a separator in the last of three names": ("b.json", "d.json", "e\\x.json"),
}
"""One name that is not plain among plain ones, first, in the middle and last (in the order
sent, which is also the sorted order): every name is checked, not only the first."""

FILE_NAME_CASES = [*PLAIN_NAMES, *sorted(NOT_PLAIN_NAMES), *NOT_PLAIN_AMONG]
SHIPPED = "default_neutral_v1"
EMPTY_OBJECT = base64.b64encode(b"{}").decode("ascii")


@requirement(
    "PROTO-FILES-001",
    "register.load (and session.open, files as for register.load) accepts every plain *.json "
    "file name (a space, '..' inside, non-ASCII) and refuses a separator, a control character "
    "or DEL, or another ending, in any name of the object (first, middle or last), with "
    "PROTOCOL_BAD_ARGS, field files",
    family="protocol",
    capabilities=("registers.load",),
    seed="docs/protocol.md § register.load (File names); § session.open (files as for "
    "register.load)",
    strategy=lambda ctx: st.sampled_from(FILE_NAME_CASES),
    cover=coverage.each("file names", FILE_NAME_CASES),
)
def file_names(engine: EngineClient, case: str) -> None:
    ops = ["register.load"]
    if "sessions" in engine.capabilities():
        ops.append("session.open")
    for op in ops:
        _file_name_case(engine, op, case)


def _file_name_case(engine: EngineClient, op: str, case: str) -> None:
    """*case* given to *op* (session.open takes ``files`` "as for register.load")."""
    if case in NOT_PLAIN_AMONG:
        among: EncodableObject = {
            "register_id": SHIPPED,
            "files": dict.fromkeys(NOT_PLAIN_AMONG[case], EMPTY_OBJECT),
        }
        _refused_as_bad_args(engine, f"{op}: {case}", op, among, "files")
        return
    if case in NOT_PLAIN_NAMES:
        files = {NOT_PLAIN_NAMES[case]: EMPTY_OBJECT}
        args: EncodableObject = {"register_id": SHIPPED, "files": files}
        _refused_as_bad_args(engine, f"{op}: a file name with {case}", op, args, "files")
        return
    try:
        loaded = engine.call(op, {"register_id": SHIPPED, "files": {case: EMPTY_OBJECT}})
    except EngineRefused as refusal:
        raise AssertionError(
            f"{op}: the plain file name {case!r} was refused: {refusal.code} ({refusal.field})"
        ) from None
    if op == "session.open":
        engine.call("session.close", {"session": loaded.get("session")})
        return
    pack = loaded.get("pack") or {}
    assert pack.get("register_id") == SHIPPED, f"{case!r}: loaded {pack.get('register_id')!r}"


TORN = b'{"torn'


@requirement(
    "PROTO-ARGS-003",
    "an optional argument left out means its documented default: state.journal without "
    "repair reports a torn tail and leaves it in the file",
    family="protocol",
    capabilities=("state",),
    seed="docs/protocol.md § Persisted-state ops (state.journal: repair, default false)",
)
def journal_repair_default(engine: EngineClient, _: object) -> None:
    with scratch() as directory, Stores(engine) as stores:
        store = stores.open(directory)["store"]
        engine.call("state.propose", {"store": store, "proposal": {"lemma": "l", "claim": 1}})
        stores.close(store)
        journal = directory / "proposals.journal"
        with journal.open("ab") as handle:
            handle.write(TORN)
        before = journal.read_bytes()
        args: EncodableObject = {"dir": str(directory), "name": "proposals"}
        for call in ("first", "second"):
            found = engine.call("state.journal", args)
            assert found.get("cut_bytes") == len(TORN), (
                f"{call} call without repair: cut_bytes {found.get('cut_bytes')!r}, "
                f"the torn tail is {len(TORN)} bytes"
            )
            assert journal.read_bytes() == before, (
                f"{call} call without repair changed proposals.journal (repair defaults to false)"
            )


NOT_JSON_PAYLOADS: dict[str, bytes] = {
    "NaN": b'{"claim":NaN,"lemma":"l"}',
    "-Infinity": b'{"claim":-Infinity,"lemma":"l"}',
    "a lone surrogate": b'{"claim":"\\ud800","lemma":"l"}',
}
"""Journal payloads that are not JSON text (docs/protocol.md: NaN and lone surrogates are not)."""
GOOD_PAYLOAD = b'{"claim":1,"lemma":"l"}'


def framed(payload: bytes) -> bytes:
    """One journal line of docs/state.md § Journals: length, CRC-32, payload."""
    return b"%08x %08x " % (len(payload), zlib.crc32(payload)) + payload + b"\n"


@requirement(
    "PROTO-INTERNAL-001",
    "a journal line framed right whose payload is not JSON (NaN, Infinity, a lone surrogate) "
    "is skipped as corrupt, never answered with ENGINE_INTERNAL",
    family="protocol",
    capabilities=("state",),
    seed="docs/protocol.md § Error codes (ENGINE_INTERNAL is never the answer to a malformed "
    "file); § Persisted-state ops (state.journal: valid payloads); docs/state.md § Journals",
    strategy=lambda ctx: st.sampled_from(sorted(NOT_JSON_PAYLOADS)),
    cover=coverage.each("payloads that are not JSON", sorted(NOT_JSON_PAYLOADS)),
)
def not_json_in_a_journal(engine: EngineClient, name: str) -> None:
    with scratch() as directory:
        lines = (GOOD_PAYLOAD, NOT_JSON_PAYLOADS[name], GOOD_PAYLOAD)
        (directory / "proposals.journal").write_bytes(b"".join(map(framed, lines)))
        args: EncodableObject = {"dir": str(directory), "name": "proposals"}
        try:
            found = engine.call("state.journal", args, checked=False)
        except EngineRefused as refusal:
            raise AssertionError(f"{name}: state.journal refused with {refusal.code}") from None
    assert found.get("skipped") == [2], f"{name}: skipped {found.get('skipped')!r}, expected [2]"
    good = {"claim": 1, "lemma": "l"}
    assert found.get("entries") == [good, good], f"{name}: entries {found.get('entries')!r}"
