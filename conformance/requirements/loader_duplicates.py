"""A pack file that names a member twice: the last occurrence counts, as in a request line.

docs/registers.md § Loading, step 4 reads the pack "with the guarded reader", counted "as for
a request line", and docs/protocol.md § Requests: "When an object names the same member twice,
the last occurrence counts". PROTO-DUP-001 names members twice in request lines only; no pack
file the suite stages held a duplicate member, so a loader that keeps the first occurrence,
or refuses the file (a typed decoder that rejects a duplicate field, as Rust's serde derive
does), passed. Here an unratified pack file names ``depth_preference`` or a marker bucket
twice, once valid and once not, in both orders: the last one decides between
REGISTER_NOT_RATIFIED (the pack parsed) and the structural refusal. And a ratified pack file
names its ``description`` twice, the sealed value and another, in both orders: with the
sealed value last the content is the ratified one and only the bytes differ (step 10, field
null); with it first the content changed (step 9, ``pack_source_sha256``).
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

RID = "duplicate_member_v1"
MARKERS = {"openings": ["So,"], "transitions": [], "closings": [""]}
TOO_MANY = [f"m{i}" for i in range(33)]
Want = tuple[str, str | None]


def _with_twice(pack: dict[str, Any], path: tuple[str, ...], first: object, last: object) -> bytes:
    """*pack* as pretty JSON whose member at *path* is written twice: *first*, then *last*."""
    document = json.loads(json.dumps(pack))
    target = document
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = "@@TWICE@@"
    name = json.dumps(path[-1])
    indent = "  " * len(path)
    first_text = json.dumps(first, ensure_ascii=False)
    last_text = json.dumps(last, ensure_ascii=False)
    text = json.dumps(document, sort_keys=True, indent=2, ensure_ascii=False) + "\n"
    twice = f"{first_text},\n{indent}{name}: {last_text}"
    return text.replace('"@@TWICE@@"', twice, 1).encode("utf-8")


UNSEALED: dict[str, tuple[tuple[str, ...], object, object, Want]] = {
    "depth_preference loud, then standard (the last is valid)": (
        ("depth_preference",),
        "loud",
        "standard",
        ("REGISTER_NOT_RATIFIED", "mastery_report_sha256"),
    ),
    "depth_preference standard, then loud (the last is unknown)": (
        ("depth_preference",),
        "standard",
        "loud",
        ("REGISTER_BAD_DEPTH_PREFERENCE", "depth_preference"),
    ),
    "openings of 33 markers, then of one (the last fits)": (
        ("discourse_markers", "openings"),
        TOO_MANY,
        ["So,"],
        ("REGISTER_NOT_RATIFIED", "mastery_report_sha256"),
    ),
    "openings of one marker, then of 33 (the last is too large)": (
        ("discourse_markers", "openings"),
        ["So,"],
        TOO_MANY,
        ("REGISTER_BUCKET_TOO_LARGE", "discourse_markers.openings"),
    ),
}
"""Unratified pack files naming a member twice: where, the two values in file order, and the
refusal the last occurrence gives."""

SEALED: dict[str, tuple[bool, Want]] = {
    "a ratified pack's description: another value, then the sealed one": (
        True,
        ("REGISTER_TAMPERED", None),
    ),
    "a ratified pack's description: the sealed value, then another": (
        False,
        ("REGISTER_TAMPERED", "pack_source_sha256"),
    ),
}
"""Ratified pack files whose description is named twice: whether the sealed value comes
last, and the refusal (step 10 when the content is the sealed one, else step 9)."""

NAMES = sorted([*UNSEALED, *SEALED])


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


@requirement(
    "LOAD-READ-471",
    "a pack file that names a member twice is read with the last occurrence counting: an "
    "unknown depth_preference or an oversized bucket written first and a valid one last "
    "parses (REGISTER_NOT_RATIFIED), the reverse is refused for the last one; a ratified "
    "pack with its sealed description last fails only the normal form (field null)",
    family="loader",
    capabilities=("registers.load", "registers.ratify"),
    seed="docs/registers.md § Loading (step 4: the guarded reader, as for a request line; a "
    "member named twice, the last occurrence counts)",
    strategy=lambda ctx: st.sampled_from(NAMES),
    cover=coverage.each("pack files naming a member twice", NAMES),
)
def last_occurrence_counts_in_pack_files(engine: EngineClient, name: str) -> None:
    if name in UNSEALED:
        path, first, last, want = UNSEALED[name]
        pack = gen.pack(RID, markers=MARKERS)
        files = {f"{RID}.json": _b64(_with_twice(pack, path, first, last))}
    else:
        sealed_last, want = SEALED[name]
        files = ratified_files(engine, gen.pack(RID, markers=MARKERS))
        pack = sealed_json(files, f"{RID}.json")
        values = ("edited by hand", pack["description"])
        first, last = values if sealed_last else values[::-1]
        files = {**files, f"{RID}.json": _b64(_with_twice(pack, ("description",), first, last))}
    try:
        engine.call("register.load", {"register_id": RID, "files": files}, checked=False)
    except EngineRefused as refusal:
        got = (refusal.code, refusal.field)
    else:
        raise AssertionError(f"{name}: the pack loaded")
    assert got == want, (
        f"{name}: register.load refused with {got}, the docs give {want}: a pack file is read "
        "as a request line is, and of a member named twice the last occurrence counts"
    )
