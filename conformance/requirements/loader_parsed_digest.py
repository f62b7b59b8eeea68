"""Step 9 of loading hashes the parsed pack, whose JSON form has all three marker buckets.

docs/registers.md § Loading, step 9: "`pack_source_sha256` of the parsed pack equals the
report's — else `REGISTER_TAMPERED`, field `pack_source_sha256`"; step 10: "The pack file's
bytes equal its normal form — else `REGISTER_TAMPERED`, field null"; § Pack format: the
pack's JSON form "always has ... all three marker buckets (a missing one as `[]`)". A
ratified pack file edited only to leave out an empty bucket still parses to the pack that
was sealed, so step 9 passes and step 10 refuses it, field null. A port that hashes the
object as read from the file (its ``JSON.parse`` result, a map) instead of the parsed pack
fails step 9 and names ``pack_source_sha256``: LOAD-TAMPER-001's edits never leave a bucket
out, so there both readings agree. Leaving out a bucket that holds markers changes the
content, and both readings answer ``pack_source_sha256`` (a control).
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

RID = "parsed_digest_v1"
MARKERS = "discourse_markers"

CASES: dict[str, tuple[dict[str, Any], dict[str, list[str]], tuple[str, ...], str | None]] = {
    "transitions [] left out of a pack with openings and closings": (
        {},
        {"openings": ["So,"], "transitions": [], "closings": [""]},
        ("transitions",),
        None,
    ),
    "openings [] left out of a pack with closings and transitions": (
        {},
        {"openings": [], "transitions": ["Also,"], "closings": [" — right?"]},
        ("openings",),
        None,
    ),
    "all three empty buckets left out of an overrides-only pack": (
        {"disclosure_domain_count": 1},
        {"openings": [], "transitions": [], "closings": []},
        ("openings", "transitions", "closings"),
        None,
    ),
    "openings holding a marker left out (the content changed: a control)": (
        {},
        {"openings": ["So,"], "transitions": [], "closings": [""]},
        ("openings",),
        "pack_source_sha256",
    ),
}
"""Per case: the pack's overrides and buckets, the buckets the edit leaves out of the ratified
file, and the field of the REGISTER_TAMPERED refusal (null: only step 10 fails)."""


def _pretty(value: object) -> bytes:
    return (json.dumps(value, sort_keys=True, indent=2, ensure_ascii=False) + "\n").encode()


@requirement(
    "LOAD-TAMPER-471",
    "a ratified pack file edited only to leave out an empty marker bucket is refused with "
    "REGISTER_TAMPERED, field null (not in normal form): the content hash of step 9 is over "
    "the parsed pack, whose buckets are all there, not over the object the file holds",
    family="loader",
    capabilities=("registers.load", "registers.ratify"),
    seed="docs/registers.md § Loading (step 9: pack_source_sha256 of the parsed pack; step "
    "10: normal form, field null), § Pack format (a missing bucket as [])",
    strategy=lambda ctx: st.sampled_from(sorted(CASES)),
    cover=coverage.each("ratified pack files with a bucket left out", sorted(CASES)),
)
def bucket_left_out_is_not_content(engine: EngineClient, name: str) -> None:
    overrides, markers, dropped, field = CASES[name]
    document = gen.pack(RID, overrides=overrides, markers=markers, depth_preference="standard")
    files = ratified_files(engine, document)
    sealed = sealed_json(files, f"{RID}.json")
    edited = json.loads(json.dumps(sealed))
    for bucket in dropped:
        edited[MARKERS].pop(bucket, None)
    files = {**files, f"{RID}.json": base64.b64encode(_pretty(edited)).decode("ascii")}
    try:
        engine.call("register.load", {"register_id": RID, "files": files}, checked=False)
    except EngineRefused as refusal:
        got = (refusal.code, refusal.field)
    else:
        raise AssertionError(f"{name}: the edited pack loaded; its bytes are not its normal form")
    want = ("REGISTER_TAMPERED", field)
    assert got == want, (
        f"{name}: register.load refused with {got}, the docs give {want}: step 9 hashes the "
        "parsed pack (a missing bucket is []), so only a change of content fails it; a file "
        "that is not its normal form fails step 10, field null"
    )
