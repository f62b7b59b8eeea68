"""Byte sequences that are not UTF-8, for every reader of bytes the docs call UTF-8.

A port that decodes leniently (replacing, skipping or passing through what is not UTF-8)
reads each of these as some text; the docs make every one of them malformed wherever they
arrive: a pack file (docs/registers.md § Loading), a manifest (docs/state.md § The
manifest), a journal payload (docs/state.md § Journals), a record of ``core.jsonl`` and an
entry of ``delta.jsonl``.
"""

from __future__ import annotations

import codecs

INSIDE: dict[str, bytes] = {
    "a lone continuation byte": b"\x80",
    "the byte 0xFF": b"\xff",
    "a cut three-byte sequence": b"\xe2\x82",
    "an overlong '/' (C0 AF)": b"\xc0\xaf",
    "an encoded surrogate (ED A0 80)": b"\xed\xa0\x80",
}
"""Sequences put inside a JSON string: none is UTF-8 however the bytes around it read."""

BOM = b"\xef\xbb\xbf"
"""A UTF-8 byte order mark: valid UTF-8, which a pack file may not start with."""


def reencoded(text: str) -> dict[str, bytes]:
    """*text* (a JSON document) in every encoding that is not plain UTF-8 but that a lenient
    reader still parses: a UTF-8 byte order mark before it, and UTF-16 and UTF-32 with and
    without their own mark (Python's ``json.loads`` of bytes detects all of these)."""
    return {
        "a byte order mark before it": BOM + text.encode("utf-8"),
        "UTF-16 (little-endian) with its byte order mark": codecs.BOM_UTF16_LE
        + text.encode("utf-16-le"),
        "UTF-16 (little-endian) without a byte order mark": text.encode("utf-16-le"),
        "UTF-16 (big-endian) without a byte order mark": text.encode("utf-16-be"),
        "UTF-32 (little-endian) with its byte order mark": codecs.BOM_UTF32_LE
        + text.encode("utf-32-le"),
    }
