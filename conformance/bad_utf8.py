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

TAIL = {name: INSIDE[name] for name in ("a cut three-byte sequence", "the byte 0xFF")}
"""Sequences put after a document: a decoder that holds back an unfinished sequence at the
end of its input (a streaming decoder, Go's ``utf8.FullRune`` loop, ``TextDecoder`` with
``stream``) drops the cut one and never sees it; 0xFF is never the start of a sequence."""


def outside(document: bytes) -> dict[str, bytes]:
    """*document* with each sequence of :data:`INSIDE` where no string holds it: before its
    first byte, after its first byte (between two tokens) and, for :data:`TAIL`, after its
    last byte. A reader that decodes only the strings, or stops at the end of the value,
    reads each one as *document*."""
    placed = {}
    for name, sequence in INSIDE.items():
        placed[f"{name} before it"] = sequence + document
        placed[f"{name} after its first byte"] = document[:1] + sequence + document[1:]
    for name, sequence in TAIL.items():
        placed[f"{name} after it"] = document + sequence
    return placed


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
