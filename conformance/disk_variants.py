"""The spellings of every field an engine reads back from disk, and of every name it reads
a number or an entry from, each with what the docs make of it.

:data:`ROWS` is conformance/data/disk_fields.json: every field of every persisted file
(docs/state.md; docs/registers.md § Loading) with its type, its range and the outcome the
docs give a value outside them. :func:`spellings` gives, for one row, the JSON texts a port
would misread (a boolean for an integer, ``1.0``, ``1e0``, ``-0``, a negative, ``2^53 + 1``,
``2^64``, a string of digits in ASCII, Arabic-Indic or fullwidth digits, ``null``, an array,
an object; for a string, its look-alikes) and, through :func:`expected`, whether each is
read as the value it spells (``ok``) or gets the row's outcome. :data:`GENERATION_NAMES`,
:data:`POINTER_TEXTS` and :data:`LOOKALIKE_ENTRIES` are the names of § Directory layout
spelled the same ways: none of them is a generation, a pointer or an entry of the store.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, NamedTuple

TABLE = Path(__file__).parent / "data" / "disk_fields.json"
ROWS: list[dict[str, Any]] = json.loads(TABLE.read_text(encoding="utf-8"))["rows"]

MISSING = "<missing>"
DUPLICATE = "<duplicate>"
ARABIC_INDIC = str.maketrans("0123456789", "٠١٢٣٤٥٦٧٨٩")
FULLWIDTH = str.maketrans("0123456789abcdef", "０１２３４５６７８９ａｂｃｄｅｆ")
SUPERSCRIPT = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")
MATH_BOLD = str.maketrans("0123456789", "𝟎𝟏𝟐𝟑𝟒𝟓𝟔𝟕𝟖𝟗")


class Spelling(NamedTuple):
    """One spelling of a field: *text* is the JSON text of its value (or :data:`MISSING`,
    :data:`DUPLICATE`), *number* the integer it is when it is an integer literal."""

    label: str
    text: str
    number: int | None = None


def integer_spellings(value: int) -> list[Spelling]:
    """The spellings of the integer *value* and of integers past every range the docs give."""
    digits = str(value)
    return [
        Spelling("true", "true"),
        Spelling("false", "false"),
        Spelling(f"{digits}.0", f"{digits}.0"),
        Spelling(f"{digits}e0", f"{digits}e0"),
        Spelling(f"{digits}E+0", f"{digits}E+0"),
        Spelling(f'"{digits}"', f'"{digits}"'),
        Spelling("Arabic-Indic digits", json.dumps(digits.translate(ARABIC_INDIC))),
        Spelling("fullwidth digits", json.dumps(digits.translate(FULLWIDTH))),
        Spelling("superscript digits", json.dumps(digits.translate(SUPERSCRIPT))),
        Spelling("null", "null"),
        Spelling(f"[{digits}]", f"[{digits}]"),
        Spelling("{}", "{}"),
        Spelling("-0", "-0"),
        Spelling("-1", "-1", -1),
        Spelling("2^53 + 1", str(2**53 + 1), 2**53 + 1),
        Spelling("2^64", str(2**64), 2**64),
        Spelling("missing", MISSING),
        Spelling("named twice", DUPLICATE),
    ]


HEX = "0123456789abcdef" * 4
STRING_SPELLINGS: dict[str, list[Spelling]] = {
    "digest": [
        Spelling("upper-case hex", json.dumps(HEX.upper())),
        Spelling("63 digits", json.dumps(HEX[:63])),
        Spelling("fullwidth hex", json.dumps(HEX.translate(FULLWIDTH))),
        Spelling("a trailing newline", json.dumps(HEX + "\n")),
        Spelling("true", "true"),
        Spelling("missing", MISSING),
    ],
    "address": [
        Spelling("upper-case hex", json.dumps(HEX.upper())),
        Spelling("63 digits", json.dumps(HEX[:63])),
        Spelling("fullwidth hex", json.dumps(HEX.translate(FULLWIDTH))),
        Spelling("Arabic-Indic digits", json.dumps(HEX.translate(ARABIC_INDIC))),
        Spelling("a trailing newline", json.dumps(HEX[:63] + "\n")),
    ],
    "key": [Spelling("empty", '""'), Spelling("129 characters", json.dumps("k" * 129))],
    "status": [
        Spelling("Coherent", '"Coherent"'),
        Spelling("a trailing newline", '"coherent\\n"'),
        Spelling("a leading space", '" coherent"'),
        Spelling("fullwidth c", '"ｃoherent"'),
    ],
    "fixed": [
        Spelling("capitalised", "<Capitalised>"),
        Spelling("a trailing newline", "<newline>"),
        Spelling("long s for s", "<long s>"),
    ],
    "bits": [
        Spelling("upper-case hex", json.dumps(["3FF0000000000000"] + ["0" * 16] * 31)),
        Spelling("fullwidth digits", json.dumps(["3ff" + "０" * 13] + ["0" * 16] * 31)),
        Spelling("15 digits", json.dumps(["3ff000000000000"] + ["0" * 16] * 31)),
        Spelling("31 patterns", json.dumps(["3ff0000000000000"] + ["0" * 16] * 30)),
    ],
}
"""The look-alikes of the strings the docs constrain (a digest, an address, a key, a status,
a fixed key, a bit pattern), each outside the constraint."""


def fixed_spellings(word: str) -> list[Spelling]:
    """The look-alikes of the fixed key *word* (``session``, ``life``)."""
    long_s = word.replace("s", "ſ") if "s" in word else word.upper()
    return [
        Spelling("capitalised", json.dumps(word.capitalize())),
        Spelling("a trailing newline", json.dumps(word + "\n")),
        Spelling("long s for s" if "s" in word else "upper case", json.dumps(long_s)),
    ]


NAMED_ELSEWHERE = ("generation", "schema_version")
"""Manifest members whose in-range values do not load on their own: a generation must be its
directory's number and a schema version past the engine's is refused as newer; their ends
are checked by the generation and schema requirements."""


def bound_spellings(row: dict[str, Any]) -> list[Spelling]:
    """Each end of *row*'s range and the integer just past it: the minimum, one below it,
    the maximum and one above it (the canonical range when the row gives no other)."""
    low, high = row.get("min", -(2**53 - 1)), row.get("max", 2**53 - 1)
    return [
        Spelling(f"{low} (its minimum)", str(low), low),
        Spelling(f"{low - 1} (one below its minimum)", str(low - 1), low - 1),
        Spelling(f"{high} (its maximum)", str(high), high),
        Spelling(f"{high + 1} (one above its maximum)", str(high + 1), high + 1),
    ]


def spellings(row: dict[str, Any]) -> list[Spelling]:
    """Every spelling of *row*'s field a port could misread (none for a field never read)."""
    kind = row["type"]
    if kind in ("count", "integer", "version", "boot"):
        found = integer_spellings(int(row["value"]))
        if row["field"] in NAMED_ELSEWHERE:
            return found
        texts = {spelling.text for spelling in found}
        return found + [s for s in bound_spellings(row) if s.text not in texts]
    if kind == "fixed":
        return fixed_spellings(row["kind"])
    return list(STRING_SPELLINGS.get(kind, []))


def expected(row: dict[str, Any], spelling: Spelling) -> str:
    """What the docs make of *spelling* in *row*'s field: ``ok`` (read as the integer it
    spells, within the row's ``min`` and ``max``) or the row's outcome. ``-0`` is never
    ``ok``: canonical JSON never writes it (a record holding it is malformed, a manifest's
    checksum over its canonical form does not match, and as a boot it is 0, below 1). A
    manifest naming a member twice is proven invalid, its schema version too."""
    outcome = str(row["outcome"])
    if spelling.text == MISSING and row.get("optional"):
        return "ok"
    if spelling.text == DUPLICATE and row["file"] == "manifest.json":
        return "invalid"
    if spelling.number is None:
        return outcome
    if not row.get("min", -(2**53 - 1)) <= spelling.number <= row.get("max", 2**53 - 1):
        return outcome
    return "ok"


def rows_of(file: str) -> list[dict[str, Any]]:
    """The rows of *file*, in table order."""
    return [row for row in ROWS if row["file"] == file]


def spelled(document: Any, name: str, text: str, good: str = "1") -> str:
    """The canonical JSON of *document* with its one placeholder string, the value of its
    member *name*, replaced by *text*: the member dropped for :data:`MISSING`, written twice
    holding *good* for :data:`DUPLICATE`."""
    from conformance.canonical import canonical_json

    encoded = canonical_json(document)
    member = f"{json.dumps(name)}:{json.dumps(PLACEHOLDER)}"
    assert encoded.count(member) == 1, f"{name}: no single placeholder in {encoded}"
    if text == DUPLICATE:
        return encoded.replace(member, f"{json.dumps(name)}:{good},{json.dumps(name)}:{good}")
    if text != MISSING:
        return encoded.replace(member, f"{json.dumps(name)}:{text}")
    for cut in (member + ",", "," + member, member):
        if cut in encoded:
            return encoded.replace(cut, "", 1)
    raise AssertionError(member)


PLACEHOLDER = "\x01spelling\x01"
"""The string :func:`spelled` replaces: put it where the spelling goes."""


GENERATION_NAMES: list[tuple[str, str, int]] = [
    ("Arabic-Indic digits", "gen-" + "00000003".translate(ARABIC_INDIC), 3),
    ("one Arabic-Indic digit", "gen-0000000٣", 3),
    ("fullwidth digits", "gen-" + "00000003".translate(FULLWIDTH), 3),
    ("superscript digits", "gen-" + "00000003".translate(SUPERSCRIPT), 3),
    ("mathematical digits", "gen-" + "00000003".translate(MATH_BOLD), 3),
    ("7 digits", "gen-0000003", 3),
    ("9 digits", "gen-000000003", 3),
    ("a plus sign", "gen-+0000003", 3),
    ("a minus sign", "gen--0000003", 3),
    ("a leading space", " gen-00000003", 3),
    ("a trailing space", "gen-00000003 ", 3),
    ("a trailing newline", "gen-00000003\n", 3),
    ("upper case", "GEN-00000003", 3),
    ("an underscore", "gen_00000003", 3),
    ("number 0", "gen-00000000", 0),
]
"""Directory names that spell a generation's number another way than ``gen-`` and 8 ASCII
digits from 1 to 99999999, and the number they spell: none is a generation."""

POINTER_TEXTS: list[tuple[str, bytes]] = [
    ("Arabic-Indic digits", ("gen-" + "00000001".translate(ARABIC_INDIC) + "\n").encode()),
    ("fullwidth digits", ("gen-" + "00000001".translate(FULLWIDTH) + "\n").encode()),
    ("superscript digit", "gen-0000000¹\n".encode()),
    ("a carriage return", b"gen-00000001\r\n"),
    ("two newlines", b"gen-00000001\n\n"),
    ("a leading space", b" gen-00000001\n"),
    ("a trailing tab", b"gen-00000001\t\n"),
    ("9 digits", b"gen-000000001\n"),
    ("7 digits", b"gen-0000001\n"),
    ("1 digit (as the docs' gen-7)", b"gen-1\n"),
    ("a plus sign", b"gen-+0000001\n"),
    ("a NUL", b"gen-00000001\x00\n"),
    ("upper case", b"GEN-00000001\n"),
    ("number 0", b"gen-00000000\n"),
]
"""Pointer contents spelling ``gen-00000001\\n`` another way: each is garbage."""

LOOKALIKE_ENTRIES: list[tuple[str, str, bool]] = [
    ("long s in staging-", "ſtaging-9", True),
    ("Staging-", "Staging-9", True),
    ("STAGING-", "STAGING-9", False),
    ("fullwidth s", "ｓtaging-9", True),
    ("CURRENT.TMP", "CURRENT.TMP", False),
    ("current.tmp", "current.tmp", False),
    ("CURRENT.tmp and a newline", "CURRENT.tmp\n", False),
    ("Kelvin sign in LOCK", "LOC\u212a", False),
    ("dotless i in lineage", "l\u0131neage.journal", False),
]
"""Entries whose names only look like a staging leftover, the pointer swap's leftover, the
lock or a journal (True: a directory, else a file): the store never reads, writes or
removes them."""
