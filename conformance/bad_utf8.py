"""Byte sequences that are not UTF-8, for every reader of bytes the docs call UTF-8.

A port that decodes leniently (replacing, skipping or passing through what is not UTF-8)
reads each of these as some text; the docs make every one of them malformed wherever they
arrive: a pack file (docs/registers.md § Loading), a journal payload (docs/state.md
§ Journals), a record of ``core.jsonl`` and an entry of ``delta.jsonl``.
"""

from __future__ import annotations

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
