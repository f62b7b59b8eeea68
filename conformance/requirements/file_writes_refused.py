"""No staged file outlives the op, whatever the op answers, and in session.open too.

docs/protocol.md § register.load: "The engine deletes the directory before it answers: no
staged file outlives the op." PROTO-FILES-502 stages files for a ``register.load`` that
succeeds, so an engine that deletes its staging directory only on the way out of a
successful load (a cleanup skipped by the error path), or that keeps ``session.open``'s
(files "as for `register.load`", the register "loaded now") for the session's life, passes
it. Here each file name is new (named at run time), and after each answer no file of that
name is left in the engine's working directory or in a directory of its temporary directory
or of /dev/shm: ``register.load`` refused (the pack not ratified; no pack of the id; a
second file that cannot be written, after the first was), ``session.open`` that opens a
session and one that is refused.
"""

from __future__ import annotations

import base64
import json
import secrets
from typing import Any

from hypothesis import strategies as st

from conformance import coverage
from conformance import strategies as gen
from conformance.engines.base import EngineClient, EngineRefused
from conformance.jsontypes import EncodableObject
from conformance.requirements.file_writes import staged_left
from conformance.requirements.registry import requirement

SHIPPED = "default_neutral_v1"
UNWRITABLE = "z" * 300 + ".json"
"""A plain name longer than a file name may be (255 bytes on Linux): it cannot be written,
and it sorts after the staged names here."""


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def _unratified(register_id: str) -> bytes:
    return (json.dumps(gen.pack(register_id), indent=2, sort_keys=True) + "\n").encode()


def _case(name: str, token: str) -> tuple[str, EncodableObject, str, str | None]:
    """The op, its args, the staged file name to look for, and the refusal (None: ok)."""
    rid = f"staged_{token}"
    staged = f"{rid}.json"
    if name == "register.load of an unratified pack":
        args: EncodableObject = {"register_id": rid, "files": {staged: _b64(_unratified(rid))}}
        return "register.load", args, staged, "REGISTER_NOT_RATIFIED"
    if name == "register.load of an id no file holds":
        args = {"register_id": f"absent_{token}", "files": {staged: _b64(b"{}")}}
        return "register.load", args, staged, "REGISTER_NOT_FOUND"
    if name == "register.load whose second file cannot be written":
        files = {staged: _b64(b"{}"), UNWRITABLE: _b64(b"{}")}
        return (
            "register.load",
            {"register_id": SHIPPED, "files": files},
            staged,
            "PROTOCOL_BAD_ARGS",
        )
    if name == "session.open that opens":
        return (
            "session.open",
            {"register_id": SHIPPED, "files": {staged: _b64(b"{}")}},
            staged,
            None,
        )
    if name == "session.open of an unratified pack":
        args = {"register_id": rid, "files": {staged: _b64(_unratified(rid))}}
        return "session.open", args, staged, "REGISTER_NOT_RATIFIED"
    raise KeyError(name)


CASES = (
    "register.load of an unratified pack",
    "register.load of an id no file holds",
    "register.load whose second file cannot be written",
    "session.open that opens",
    "session.open of an unratified pack",
)


@requirement(
    "PROTO-FILES-503",
    "no staged file outlives the op whatever it answers: register.load refused (not ratified, "
    "not found, a file that cannot be written after one that was) and session.open, opened "
    "or refused, leave no file of theirs in the engine's working directory, temporary "
    "directory or /dev/shm",
    family="protocol",
    capabilities=("registers.load", "sessions"),
    seed="docs/protocol.md § register.load (the engine deletes the directory before it "
    "answers); § session.open (loaded like register.load)",
    strategy=lambda ctx: st.sampled_from(CASES),
    cover=coverage.each("staging ops", list(CASES)),
)
def staged_files_deleted_on_every_answer(engine: EngineClient, name: str) -> None:
    op, args, staged, code = _case(name, secrets.token_hex(12))
    assert not staged_left(staged), f"{staged} exists before the op"
    result: dict[str, Any] | None = None
    try:
        result = engine.call(op, args)
    except EngineRefused as refusal:
        assert code is not None, f"{name}: refused with {refusal.code}"
        assert refusal.code == code, f"{name}: refused with {refusal.code}, expected {code}"
    else:
        assert code is None, f"{name}: answered ok, expected {code}"
    left = staged_left(staged)
    if result is not None and op == "session.open" and isinstance(result.get("session"), str):
        engine.call("session.close", {"session": result["session"]})
    assert not left, f"{name}: a staged file outlived the op: {left}"
