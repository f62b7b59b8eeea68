"""Marker length and bucket size are counted over what the pack holds, as it holds it.

docs/registers.md § Pack format: each bucket is a list of at most 32 strings, each string
has at most 128 characters counted in Unicode code points, and "Empty strings are allowed".
LOAD-BOUND-001 sends markers of one character repeated (ASCII, two-, three- and four-byte
UTF-8), on which a port that counts grapheme clusters (Swift's ``String.count``, Elixir's
``String.length``) or normalises to NFC before counting agrees with one counting code
points; LOAD-BOUND-002 sends buckets of ``"m"``, on which a port that counts only the
markers that say something agrees too. Here a marker's code points differ from its grapheme
clusters and from its NFC form in both directions (combining marks, conjoining jamo and a
joined emoji sequence make fewer; U+0958, which NFC decomposes, makes more), and a bucket's
markers include empty strings.
Each marker sits at index 1 of its bucket, so the refusal names ``[1]``.
"""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from conformance import coverage
from conformance import strategies as gen
from conformance.engines.base import EngineClient, EngineRefused
from conformance.oracle import BUCKET_NAMES
from conformance.requirements.registry import requirement

LIMIT = 128
BUCKET_LIMIT = 32
FAMILY = "\U0001f468\u200d\U0001f469\u200d\U0001f467"
"""Man, ZWJ, woman, ZWJ, girl: five code points, one grapheme cluster."""

LENGTHS: dict[str, tuple[str, bool]] = {
    "e + U+0301 x 64: 128 code points, 64 clusters, 64 after NFC (accepted)": (
        "e\u0301" * 64,
        True,
    ),
    "e + U+0301 x 64, then x: 129 code points, 65 clusters, 65 after NFC (refused)": (
        "e\u0301" * 64 + "x",
        False,
    ),
    "U+0958 x 128: 128 code points, 256 after NFC decomposes each (accepted)": (
        "\u0958" * 128,
        True,
    ),
    "U+1100 U+1161 x 64, then U+1100: 129 jamo code points, 65 after NFC (refused)": (
        "\u1100\u1161" * 64 + "\u1100",
        False,
    ),
    "a five-code-point family emoji x 25, then xxxx: 129 code points, 29 clusters (refused)": (
        FAMILY * 25 + "xxxx",
        False,
    ),
    "a five-code-point family emoji x 25, then xxx: 128 code points (accepted)": (
        FAMILY * 25 + "xxx",
        True,
    ),
}
"""Markers whose code points differ from their clusters or their NFC form, and whether the
128 code point bound accepts them."""

SIZES: dict[str, tuple[list[str], bool]] = {
    "33 empty strings (refused)": ([""] * 33, False),
    "32 empty strings (accepted)": ([""] * 32, True),
    "32 empty strings and one marker (refused)": ([""] * 32 + ["So,"], False),
    "one marker and 32 empty strings (refused)": (["So,"] + [""] * 32, False),
}
"""Buckets holding empty strings, and whether the 32 marker bound accepts them."""


def _pack(bucket: str, markers: list[str]) -> dict[str, Any]:
    buckets: dict[str, list[str]] = {name: [] for name in BUCKET_NAMES}
    buckets[bucket] = markers
    return gen.pack("units_v1", markers=buckets)


def _verdict(engine: EngineClient, document: dict[str, Any]) -> tuple[str, str | None] | None:
    """None when register.validate accepts *document*, else its refusal's code and field."""
    try:
        engine.call("register.validate", {"pack": document}, checked=False)
    except EngineRefused as refusal:
        return refusal.code, refusal.field
    return None


LENGTH_CASES = [[bucket, name] for bucket in BUCKET_NAMES for name in sorted(LENGTHS)]
SIZE_CASES = [[bucket, name] for bucket in BUCKET_NAMES for name in sorted(SIZES)]


@requirement(
    "LOAD-BOUND-471",
    f"a marker's {LIMIT} character bound counts Unicode code points as the pack holds them: "
    "not grapheme clusters (combining marks, conjoining jamo, a joined emoji sequence) and "
    "not the NFC form (which composes e + U+0301 and jamo, and decomposes U+0958)",
    family="loader",
    capabilities=("registers.validate",),
    seed="docs/registers.md § Pack format (each string has at most 128 characters, counted "
    "in Unicode code points)",
    strategy=lambda ctx: st.tuples(
        st.sampled_from(BUCKET_NAMES), st.sampled_from(sorted(LENGTHS))
    ).map(list),
    cover=coverage.each("markers whose code points differ from clusters or NFC", LENGTH_CASES),
)
def marker_length_in_code_points(engine: EngineClient, scenario: list[str]) -> None:
    bucket, name = scenario
    marker, accepted = LENGTHS[name]
    got = _verdict(engine, _pack(bucket, ["So,", marker]))
    want = None if accepted else ("REGISTER_MARKER_TOO_LONG", f"discourse_markers.{bucket}[1]")
    assert got == want, (
        f"{bucket}[1] = {name}: register.validate answered "
        f"{'acceptance' if got is None else got}, the docs give "
        f"{'acceptance' if want is None else want}: at most {LIMIT} characters, counted in "
        f"Unicode code points ({len(marker)} here)"
    )


@requirement(
    "LOAD-BOUND-472",
    f"a bucket's {BUCKET_LIMIT} marker bound counts every marker it holds, empty strings "
    f"included: {BUCKET_LIMIT + 1} empty strings are too many, {BUCKET_LIMIT} are not",
    family="loader",
    capabilities=("registers.validate",),
    seed="docs/registers.md § Pack format (each bucket is a list of at most 32 strings; "
    "empty strings are allowed)",
    strategy=lambda ctx: st.tuples(
        st.sampled_from(BUCKET_NAMES), st.sampled_from(sorted(SIZES))
    ).map(list),
    cover=coverage.each("buckets holding empty strings", SIZE_CASES),
)
def bucket_size_counts_empty_markers(engine: EngineClient, scenario: list[str]) -> None:
    bucket, name = scenario
    markers, accepted = SIZES[name]
    got = _verdict(engine, _pack(bucket, markers))
    want = None if accepted else ("REGISTER_BUCKET_TOO_LARGE", f"discourse_markers.{bucket}")
    assert got == want, (
        f"{bucket} holding {name}: register.validate answered "
        f"{'acceptance' if got is None else got}, the docs give "
        f"{'acceptance' if want is None else want}: a bucket is a list of at most "
        f"{BUCKET_LIMIT} strings, and an empty string is one"
    )
