"""Every client-supplied text an error of core-engine/1 can name or quote, as data.

docs/protocol.md § Responses (quoted text) binds every message that quotes text the client
sent. :data:`OPS` lists every op of docs/protocol.md with every argument it takes: each
argument either has entries (a request whose refusal may quote, or must name, that text) or
the reason no refusal quotes it. ``lanes/docs/test_quoted_table.py`` fails when the docs
gain an op or an argument this table does not list. The requirements of
``conformance/requirements/quoting.py`` expand every entry into cases (each line-break kind
at the start, inside and at the end of the text, other hazardous characters, long texts).

An entry's ``request`` is a request template (or ``line``: a raw line that is not JSON); in
its strings and keys ``@T@`` is the text under test, ``@DIR@`` a scratch directory and
``@STORE@`` the handle of a store opened for the cases. ``code`` and ``field`` are what the
refusal must carry (``field`` a template, ``None`` for none); ``os_error``: the symbolic name and
the system message of the OS error the message must name (either, letter case aside).
``names`` is the text the
message must name (docs/protocol.md § Responses: STATE_IO's path, the member of a state
refusal, the field of a structural pack refusal), ``None`` when quoting is free. ``file``
names a regular file made before the request (a path under it is unusable). ``inner``: the
refusal is the first response inside a batch's result. ``path``: the text is part of a
file-system path (a NUL is refused before any file is touched: PROTO-PATH-001). ``rotate``
(the generated unknown-argument entries, one per op, which share one check in any engine):
each line-break kind at one position only, the position turning with the op, so the ops
together still hold every kind at every position.
"""

from __future__ import annotations

from typing import Any

T = "@T@"
DIR = "@DIR@"
STORE = "@STORE@"
ANY = "@ANY@"
"""A ``field`` any value of which is right (STATE_IO fixes none: spec.md FREE-008)."""

_PACK: dict[str, Any] = {
    "register_id": "q_v1",
    "version": "1",
    "description": "",
    "schema_version": "1.0.0",
    "display_name": "",
    "depth_preference": "standard",
    "realizer_overrides": {},
    "discourse_markers": {},
}


def _pack(**changes: Any) -> dict[str, Any]:
    return {**_PACK, **changes}


def _entry(name: str, request: Any, code: str, field: str | None, **more: Any) -> dict[str, Any]:
    return {"name": name, "request": request, "code": code, "field": field, **more}


def _op(op: str, args: dict[str, Any]) -> dict[str, Any]:
    return {"op": op, "args": args}


_CANDIDATE = {"kind": "candidate", "key": "k0", "lemma": "l", "score": 1, "status": "coherent"}

_STRUCTURAL = {
    "register_id": (_pack(register_id=f"r/{T}"), "REGISTER_INVALID_ID", "register_id"),
    "an unknown field": ({**_PACK, T: 1}, "REGISTER_MALFORMED", T),
    "depth_preference": (_pack(depth_preference=T), "REGISTER_BAD_DEPTH_PREFERENCE", None),
    "schema_version": (_pack(schema_version=T), "REGISTER_SCHEMA_VERSION", None),
    "a bucket name": (
        _pack(discourse_markers={T: []}),
        "REGISTER_UNKNOWN_BUCKET",
        f"discourse_markers.{T}",
    ),
    "an override key": (
        _pack(realizer_overrides={T: 1}),
        "REGISTER_UNKNOWN_OVERRIDE",
        f"realizer_overrides.{T}",
    ),
    "an intent key": (
        _pack(realizer_overrides={"per_intent": {T: {}}}),
        "REGISTER_UNKNOWN_INTENT",
        f"realizer_overrides.per_intent.{T}",
    ),
}
"""Structural pack refusals quoting a text (registers.md § Structural check order: the
message names the field, here its last component, as state.md § Refusals words it): the pack,
the code and the field (``None``: the field's own name)."""


def _structural(op: str) -> list[dict[str, Any]]:
    entries = []
    for what, (pack, code, field) in _STRUCTURAL.items():
        named = field or what
        last = named.rsplit(".", 1)[-1]
        entries.append(
            _entry(f"{op} pack {what}", _op(op, {"pack": pack}), code, named, names=last)
        )
    return entries


_STATE_DIR = {
    "file": f"{DIR}/f{T}",
    "names": f"{DIR}/f{T}",
    "os_error": ("ENOTDIR", "not a directory"),
    "path": True,
}
"""A state directory that is a regular file: STATE_IO naming its path and the OS error, by its
symbolic name or its system message (state.md § Error codes; § I/O errors)."""


def _state_dir(op: str, **args: Any) -> dict[str, Any]:
    return _entry(
        f"{op} dir", _op(op, {"dir": f"{DIR}/f{T}", **args}), "STATE_IO", ANY, **_STATE_DIR
    )


def _not_open(op: str, **args: Any) -> dict[str, Any]:
    request = _op(op, {"store": T, **args})
    return _entry(f"{op} store", request, "STATE_NOT_OPEN", "store", names="store")


_NUMBERS = "a number: no refusal quotes text"
_FREE_TEXT = "any string is accepted: no refusal quotes it"
_MULTIVECTOR = "a list of numbers: no refusal quotes text"

OPS: dict[str, dict[str, Any]] = {
    "hello": {"capability": None, "args": {}},
    "lexicon.list": {"capability": "lexicon", "args": {}},
    "register.validate": {
        "capability": "registers.validate",
        "args": {
            "pack": _structural("register.validate"),
            "expected_id": [
                _entry(
                    "register.validate expected_id",
                    _op("register.validate", {"pack": _PACK, "expected_id": T}),
                    "REGISTER_ID_MISMATCH",
                    "register_id",
                    names="register_id",
                )
            ],
        },
    },
    "register.ratify": {
        "capability": "registers.ratify",
        "args": {"pack": _structural("register.ratify")},
    },
    "register.ratify_file": {
        "capability": "registers.ratify_file",
        "args": {
            "path": [
                _entry(
                    "register.ratify_file path",
                    _op("register.ratify_file", {"path": f"{DIR}/n{T}.json"}),
                    "REGISTER_NOT_FOUND",
                    "path",
                    path=True,
                )
            ]
        },
    },
    "register.load": {
        "capability": "registers.load",
        "args": {
            "register_id": [
                _entry(
                    "register.load register_id",
                    _op("register.load", {"register_id": f"r/{T}", "files": {}}),
                    "REGISTER_INVALID_ID",
                    "register_id",
                )
            ],
            "files": [
                _entry(
                    "register.load file name",
                    _op("register.load", {"register_id": "q_v1", "files": {f"{T}/x.json": ""}}),
                    "PROTOCOL_BAD_ARGS",
                    "files",
                )
            ],
        },
    },
    "variation.select": {
        "capability": "variation",
        "args": {
            "bucket": _FREE_TEXT,
            "trace_hash": _FREE_TEXT,
            "register_id": _FREE_TEXT,
            "turn_idx": _NUMBERS,
            "bucket_name": _FREE_TEXT,
        },
    },
    "variation.decorate": {
        "capability": "variation",
        "args": {
            "surface": _FREE_TEXT,
            "discourse_markers": [
                _entry(
                    "variation.decorate bucket name",
                    _op(
                        "variation.decorate",
                        {
                            "surface": "s",
                            "discourse_markers": {"openings": [], "closings": [], T: []},
                            "register_id": "r",
                            "trace_hash": "t",
                            "turn_idx": 0,
                        },
                    ),
                    "PROTOCOL_BAD_ARGS",
                    "discourse_markers",
                )
            ],
            "register_id": _FREE_TEXT,
            "trace_hash": _FREE_TEXT,
            "turn_idx": _NUMBERS,
        },
    },
    "overrides.resolve": {
        "capability": "overrides",
        "args": {
            "realizer_overrides": "never validated (a malformed value clamps): no refusal",
            "intent": [
                _entry(
                    "overrides.resolve intent",
                    _op("overrides.resolve", {"realizer_overrides": {}, "intent": T}),
                    "PROTOCOL_BAD_ARGS",
                    "intent",
                )
            ],
        },
    },
    "session.open": {
        "capability": "sessions",
        "args": {
            "register_id": [
                _entry(
                    "session.open register_id",
                    _op("session.open", {"register_id": f"r/{T}"}),
                    "REGISTER_INVALID_ID",
                    "register_id",
                )
            ],
            "files": [
                _entry(
                    "session.open file name",
                    _op("session.open", {"register_id": None, "files": {f"{T}/x.json": ""}}),
                    "PROTOCOL_BAD_ARGS",
                    "files",
                    capability="registers.load",
                )
            ],
            "store": [
                {
                    **_not_open("session.open", register_id=None),
                    "capability": "state.life",
                }
            ],
        },
    },
    "session.chat": {
        "capability": "sessions",
        "args": {
            "session": [
                _entry(
                    "session.chat session",
                    _op("session.chat", {"session": T, "text": "hi"}),
                    "SESSION_UNKNOWN",
                    "session",
                )
            ],
            "text": "any text is a turn: no refusal quotes it",
        },
    },
    "session.close": {
        "capability": "sessions",
        "args": {
            "session": [
                _entry(
                    "session.close session",
                    _op("session.close", {"session": T}),
                    "SESSION_UNKNOWN",
                    "session",
                )
            ]
        },
    },
    "batch": {
        "capability": "batch",
        "args": {
            "requests": [
                _entry(
                    "batch element op",
                    _op("batch", {"requests": [{"id": "e", "op": T}]}),
                    "PROTOCOL_UNKNOWN_OP",
                    "op",
                    inner=True,
                )
            ]
        },
    },
    "algebra.product": {"capability": "algebra", "args": {"a": _MULTIVECTOR, "b": _MULTIVECTOR}},
    "algebra.reverse": {"capability": "algebra", "args": {"a": _MULTIVECTOR}},
    "algebra.grade": {"capability": "algebra", "args": {"a": _MULTIVECTOR, "grade": _NUMBERS}},
    "algebra.rotor": {
        "capability": "algebra",
        "args": {"bivector": _MULTIVECTOR, "angle": _NUMBERS},
    },
    "algebra.versor_apply": {
        "capability": "algebra",
        "args": {"versor": _MULTIVECTOR, "x": _MULTIVECTOR},
    },
    "algebra.versor_condition": {"capability": "algebra", "args": {"versor": _MULTIVECTOR}},
    "state.open": {"capability": "state", "args": {"dir": [_state_dir("state.open")]}},
    "state.apply": {
        "capability": "state",
        "args": {
            "store": [_not_open("state.apply", mutations=[])],
            "mutations": [
                _entry(
                    "state.apply mutation member",
                    _op("state.apply", {"store": STORE, "mutations": [{"op": "turn", T: 1}]}),
                    "STATE_BAD_MUTATION",
                    f"mutations[0].{T}",
                    names=T,
                ),
                _entry(
                    "state.apply mutation op",
                    _op("state.apply", {"store": STORE, "mutations": [{"op": T}]}),
                    "STATE_BAD_MUTATION",
                    "mutations[0].op",
                    names="op",
                ),
                _entry(
                    "state.apply delete kind",
                    _op(
                        "state.apply",
                        {"store": STORE, "mutations": [{"op": "delete", "kind": T, "key": "k"}]},
                    ),
                    "STATE_BAD_MUTATION",
                    "mutations[0].kind",
                    names="kind",
                ),
                _entry(
                    "state.apply record field",
                    _op(
                        "state.apply",
                        {
                            "store": STORE,
                            "mutations": [{"op": "put", "record": {**_CANDIDATE, T: 1}}],
                        },
                    ),
                    "STATE_BAD_MUTATION",
                    f"mutations[0].record.{T}",
                    names=T,
                ),
            ],
        },
    },
    "state.checkpoint": {
        "capability": "state",
        "args": {"store": [_not_open("state.checkpoint")]},
    },
    "state.trace_checkpoint": {
        "capability": "state.trace",
        "args": {"store": [_not_open("state.trace_checkpoint")]},
    },
    "state.digest": {"capability": "state", "args": {"store": [_not_open("state.digest")]}},
    "state.close": {"capability": "state", "args": {"store": [_not_open("state.close")]}},
    "state.load": {"capability": "state", "args": {"dir": [_state_dir("state.load")]}},
    "state.propose": {
        "capability": "state",
        "args": {
            "store": [_not_open("state.propose", proposal={})],
            "proposal": "refused only when not canonical JSON (a float): no text is quoted",
        },
    },
    "state.journal": {
        "capability": "state",
        "args": {
            "dir": [_state_dir("state.journal", name="proposals")],
            "name": [
                _entry(
                    "state.journal name",
                    _op("state.journal", {"dir": DIR, "name": T}),
                    "PROTOCOL_BAD_ARGS",
                    "name",
                )
            ],
            "repair": "a boolean: no refusal quotes text",
        },
    },
    "state.soak": {
        "capability": "state.soak",
        "args": {
            "dir": [_state_dir("state.soak", iterations=1, seed=1)],
            "iterations": _NUMBERS,
            "seed": _NUMBERS,
        },
    },
    "engine.fork": {
        "capability": "fork",
        "args": {
            "socket": [
                _entry(
                    "engine.fork socket",
                    _op("engine.fork", {"socket": f"{DIR}/s{T}"}),
                    "PROTOCOL_BAD_ARGS",
                    "socket",
                    path=True,
                )
            ]
        },
    },
}
"""Every op of docs/protocol.md: the capability that gates it and, per argument, the entries
quoting its text or why none does."""

ENVELOPE: list[dict[str, Any]] = [
    _entry("an unknown op", {"op": T}, "PROTOCOL_UNKNOWN_OP", "op"),
    _entry("a line that is not JSON", {"line": f"zQ{T}"}, "PROTOCOL_BAD_JSON", None),
]
"""Texts outside any op's arguments: the op's name, a line that is not JSON."""


def unknown_argument(op: str) -> dict[str, Any]:
    """The entry of an unknown argument name of *op* (its field is the name itself)."""
    return _entry(f"{op} unknown argument", _op(op, {T: 1}), "PROTOCOL_BAD_ARGS", T)


def entries() -> list[dict[str, Any]]:
    """Every entry, each with its ``capability`` (``None``: every engine answers it)."""
    found = [{**entry, "capability": None} for entry in ENVELOPE]
    for index, (op, spec) in enumerate(OPS.items()):
        found.append({**unknown_argument(op), "capability": spec["capability"], "rotate": index})
        for quoted in spec["args"].values():
            if isinstance(quoted, list):
                found.extend({"capability": spec["capability"], **entry} for entry in quoted)
    return found
