"""A pack file is UTF-8 JSON: no bad byte sequence, no byte order mark (registers.md § Loading)."""

from __future__ import annotations

import base64
import json

from hypothesis import strategies as st

from conformance import bad_utf8, coverage
from conformance import strategies as gen
from conformance.engines.base import EngineClient, EngineRefused
from conformance.requirements.registry import requirement

PLACE = b"@@BYTES@@"
BAD_BYTES = sorted([*bad_utf8.INSIDE, *bad_utf8.outside(b"{}"), *bad_utf8.reencoded("{}")])
"""Every case: bytes that are not UTF-8 put inside the pack's description or where no string
holds them (before, between two tokens, after the document), or the whole pack file in an
encoding other than plain UTF-8 (a byte order mark first, UTF-16, UTF-32)."""


def pack_file(register_id: str, name: str) -> str:
    """The base64 of an unratified pack file holding the bad bytes of case *name*."""
    document = gen.pack(register_id)
    if name in bad_utf8.INSIDE:
        document["description"] = "before @@BYTES@@ after"
        text = json.dumps(document, ensure_ascii=False).encode("utf-8")
        data = text.replace(PLACE, bad_utf8.INSIDE[name])
    elif name in bad_utf8.outside(b"{}"):
        data = bad_utf8.outside(json.dumps(document, ensure_ascii=False).encode("utf-8"))[name]
    else:
        data = bad_utf8.reencoded(json.dumps(document, ensure_ascii=False))[name]
    return base64.b64encode(data).decode("ascii")


@requirement(
    "LOAD-READ-301",
    "a pack file that is not UTF-8 (a lone continuation byte, 0xFF, a cut sequence, an "
    "overlong sequence, an encoded surrogate, inside a string, before, between two tokens "
    "or after the document), that starts with a byte order mark or that is "
    "UTF-16 or UTF-32 (with or without their byte order mark) is refused "
    "with REGISTER_MALFORMED, field null: never read with replacement characters",
    family="loader",
    capabilities=("registers.load",),
    seed="docs/registers.md § Loading (step 4: UTF-8 JSON, no byte order mark)",
    strategy=lambda ctx: st.tuples(gen.register_ids, st.sampled_from(BAD_BYTES)).map(list),
    cover=coverage.each("bytes", [["r", name] for name in BAD_BYTES]),
    max_examples=10,
)
def pack_bytes_are_utf8(engine: EngineClient, scenario: list[str]) -> None:
    register_id, name = scenario
    files = {f"{register_id}.json": pack_file(register_id, name)}
    try:
        engine.call("register.load", {"register_id": register_id, "files": files})
    except EngineRefused as refusal:
        got = (refusal.code, refusal.field)
    else:
        raise AssertionError(f"{name}: an unratified pack file holding it loaded")
    assert got == ("REGISTER_MALFORMED", None), (
        f"{name}: refused with {got}, expected ('REGISTER_MALFORMED', None): registers.md "
        "§ Loading step 4 reads the bytes as UTF-8 JSON"
    )
