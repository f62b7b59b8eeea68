"""session.open loads its register as register.load does: every loader refusal, the same code
and field.

docs/protocol.md § session.open: the register is "loaded like `register.load` with the files
first on the search path"; its errors are "every loader `REGISTER_*` code". The loader's
refusals of a ratified pair that was changed (docs/registers.md § Loading, steps 5 to 10) are
checked through ``register.load`` (LOAD-SEAL-*, LOAD-TAMPER-001, LOAD-ORDER-002), and
``session.open`` only ever opens packs that load, so an engine whose sessions read a pack
with a loader of their own that skips the seal and the content checks opens a session under
an edited pack and passes them. Here a ratified pair is changed in one way per loading step
and given to ``session.open``: the refusal is the code and field docs/registers.md § Loading
gives it, and the unchanged pair opens.
"""

from __future__ import annotations

import base64
import json
from typing import Any

from hypothesis import strategies as st

from conformance import coverage
from conformance import strategies as gen
from conformance.driver import ratified_files
from conformance.engines.base import EngineClient, EngineRefused
from conformance.engines.view import sealed_json
from conformance.requirements.registry import requirement

RID = "open_loader_v1"
MARKERS = {"openings": ["So,"], "transitions": [], "closings": [" (opened)"]}
PACK, REPORT = f"{RID}.json", f"{RID}.mastery_report.json"


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def _raw(files: dict[str, str], name: str) -> bytes:
    return base64.b64decode(files[name])


def _normal_form(value: object) -> bytes:
    return (json.dumps(value, sort_keys=True, indent=2, ensure_ascii=False) + "\n").encode()


def _plain(files: dict[str, str], name: str) -> dict[str, Any]:
    value: dict[str, Any] = json.loads(json.dumps(sealed_json(files, name)))
    return value


def _case(name: str, files: dict[str, str], other: dict[str, str]) -> tuple[str, dict[str, str]]:
    """The register id opened and the files given for case *name*."""
    if name == "the ratified pair, unchanged":
        return RID, files
    if name == "the pack's description edited":
        pack = {**_plain(files, PACK), "description": "edited after ratification"}
        return RID, {**files, PACK: _b64(_normal_form(pack))}
    if name == "the pack out of normal form (a space added)":
        return RID, {**files, PACK: _b64(_raw(files, PACK).replace(b"\n", b" \n", 1))}
    if name == "the pack not JSON, its report beside it":
        return RID, {**files, PACK: _b64(_raw(files, PACK).rstrip()[:-1])}
    if name == "an unknown depth_preference, its report beside it":
        pack = {**_plain(files, PACK), "depth_preference": "loud"}
        return RID, {**files, PACK: _b64(_normal_form(pack))}
    if name == "the report left out":
        return RID, {PACK: files[PACK]}
    if name == "the report not JSON":
        return RID, {**files, REPORT: _b64(b"not json")}
    if name == "another pack's report":
        return RID, {**files, REPORT: other[REPORT]}
    if name == "the pair renamed to another id":
        return "renamed_v1", {
            "renamed_v1.json": files[PACK],
            "renamed_v1.mastery_report.json": files[REPORT],
        }
    raise KeyError(name)


CASES: dict[str, tuple[str, str | None] | None] = {
    "the ratified pair, unchanged": None,
    "the pack's description edited": ("REGISTER_TAMPERED", "pack_source_sha256"),
    "the pack out of normal form (a space added)": ("REGISTER_TAMPERED", None),
    "the pack not JSON, its report beside it": ("REGISTER_TAMPERED", None),
    "an unknown depth_preference, its report beside it": (
        "REGISTER_BAD_DEPTH_PREFERENCE",
        "depth_preference",
    ),
    "the report left out": ("REGISTER_NOT_RATIFIED", "mastery_report_sha256"),
    "the report not JSON": ("REGISTER_SEAL_MISMATCH", "mastery_report"),
    "another pack's report": ("REGISTER_SEAL_MISMATCH", "mastery_report_sha256"),
    "the pair renamed to another id": ("REGISTER_ID_MISMATCH", "register_id"),
}
"""Each change of a ratified pair, and the refusal docs/registers.md § Loading gives it
(None: the pair opens)."""


@requirement(
    "LOAD-OPEN-001",
    "session.open loads its register as register.load does: a ratified pair opens, and a "
    "pair changed after ratification (content, normal form, unreadable pack, structure, "
    "report left out, unreadable or another pack's, renamed) is refused with the loader's "
    "code and field",
    family="loader",
    capabilities=("sessions", "registers.load", "registers.ratify"),
    seed="docs/protocol.md § session.open (loaded like register.load; every loader REGISTER_* "
    "code); docs/registers.md § Loading",
    strategy=lambda ctx: st.sampled_from(sorted(CASES)),
    cover=coverage.each("changed pairs opened", sorted(CASES)),
)
def session_open_refuses_what_loading_refuses(engine: EngineClient, name: str) -> None:
    files = ratified_files(engine, gen.pack(RID, markers=MARKERS))
    other = ratified_files(
        engine, {**gen.pack(RID, markers=MARKERS), "description": "another pack"}
    )
    register_id, given = _case(name, files, other)
    want = CASES[name]
    try:
        result = engine.call("session.open", {"register_id": register_id, "files": given})
    except EngineRefused as refusal:
        assert want is not None, f"{name}: session.open refused with {refusal.code}"
        got = (refusal.code, refusal.field)
        assert got == want, (
            f"{name}: session.open refused with {refusal.code} naming {refusal.field!r}; "
            f"loading it is {want[0]} naming {want[1]!r}"
        )
        return
    session = result.get("session")
    if isinstance(session, str):
        engine.call("session.close", {"session": session})
    assert want is None, (
        f"{name}: session.open opened a session; loading the pack is {want[0]} naming "
        f"{want[1]!r} (docs/registers.md § Loading)"
    )
