"""Request lines one character away from JSON: each is answered as RFC 8259 judges it.

docs/protocol.md § Framing makes a request line a JSON text, and § Error codes answers
``PROTOCOL_BAD_JSON`` for a line that is "not JSON". A hand-written reader (the usual port)
has a check for every rule of the grammar: a raw control character in a string, an escape
other than JSON's nine, ``\\u`` followed by anything but four hex digits, a member name
without its quotes, a missing ``:`` or ``,``, an unterminated string, text after the value.
Each dropped check turns some line that is not JSON into a request. Rather than list such
lines, this requirement edits valid request lines by one character (inserted, deleted or
replaced, from the characters those rules turn on) and judges each edit with the suite's
strict reader: a line it refuses (or that is no object) must get ``PROTOCOL_BAD_JSON``, and a
line that is still a JSON object must not.
"""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from conformance.canonical import RefusedJSON, read_json
from conformance.coverage import Case, Plan
from conformance.engines.base import EngineClient
from conformance.requirements.protocol_raw import _bad_json, _hello, _hello_answered
from conformance.requirements.registry import requirement

BASES: tuple[str, ...] = (
    '{"id":"e0","op":"hello","pad":{"s":"a\\u00e9\\n\\"\\\\\\/\\t","k":"v",'
    '"n":[-12.5e-3,0,1E2,true,false,null],"o":{},"a":[],"p":"\\ud83d\\ude00"}}',
    '{ "id" : "e1" , "op" : "hello" , "pad" : [ "x" , { "y" : [ 1 , 2 ] } ] }',
)
"""Valid request lines (hellos, so any edit that keeps them JSON asks for nothing with an
effect), holding every kind of value, each escape and white space between tokens."""

NOT_JSON_SPACE = {
    "a vertical tab": "\x0b",
    "a form feed": "\x0c",
    "a next line (U+0085)": "\x85",
    "a no-break space": "\u00a0",
    "a line separator (U+2028)": "\u2028",
    "an ideographic space": "\u3000",
    "a byte order mark (U+FEFF)": "\ufeff",
}
"""White space in C's ``isspace``, Python's ``str.isspace``, JavaScript's ``\\s`` or
``trim``, Go's ``unicode.IsSpace``, but not JSON's (space, tab, line feed, carriage return)."""

ALPHABET: tuple[str, ...] = (
    *'{}[]:,"\\/',
    *"bfnrtu",
    *"0aFGx'",
    *"-+.eE9",
    " ",
    "\t",
    "\r",
    "\x00",
    "\x01",
    "\x1f",
    "\x7f",
    "\u00e9",
    *NOT_JSON_SPACE,
)
"""The characters an edit writes: the grammar's punctuation, escape letters, hex and not-hex
letters, number characters, JSON white space (never a line feed: that ends the line), control
characters (allowed outside JSON only as white space, never raw in a string), the white space
of other languages' classes and others."""

KINDS = ("insert", "delete", "replace")

Edit = list[Any]
"""``[base index, kind, position, character]`` (the character is ignored by a delete)."""


def edited(edit: Edit) -> str:
    """The base line with *edit* applied (the position taken modulo the line's length)."""
    base, kind, position, char = edit
    line: str = BASES[base]
    if kind == "insert":
        at = position % (len(line) + 1)
        return line[:at] + str(char) + line[at:]
    at = position % len(line)
    return line[:at] + ("" if kind == "delete" else str(char)) + line[at + 1 :]


def is_json_object(line: str) -> bool:
    """Whether the suite's strict reader takes *line* as a JSON object."""
    try:
        return isinstance(read_json(line.encode("utf-8")), dict)
    except RefusedJSON:
        return False


def _at(base: int, marker: str, offset: int = 0) -> int:
    return BASES[base].index(marker) + offset


NAMED: dict[str, Edit] = {
    "a raw U+0001 in a string": [0, "insert", _at(0, '"v"', 1), "\x01"],
    "a raw tab in a string": [0, "insert", _at(0, '"v"', 2), "\t"],
    "a raw U+001F in a member name": [0, "insert", _at(0, '"k"', 1), "\x1f"],
    "an escape JSON has not (\\x)": [0, "replace", _at(0, "\\n", 1), "x"],
    "an escape JSON has not (\\')": [0, "replace", _at(0, "\\n", 1), "'"],
    "a \\u escape with a letter that is not hex": [0, "replace", _at(0, "u00e9", 2), "G"],
    "a \\u escape cut to three hex digits": [0, "delete", _at(0, "u00e9", 4), ""],
    "a member name without its opening quote": [0, "delete", _at(0, '"pad"'), ""],
    "a missing ':' after a member name": [1, "delete", _at(1, '"op" :', 5), ""],
    "a missing ',' between members": [1, "delete", _at(1, ', "pad"'), ""],
    "a ':' replaced by a ','": [0, "replace", _at(0, '"k":', 3), ","],
    "a string left unterminated": [0, "delete", _at(0, 'de00"', 4), ""],
    "text after the object": [1, "insert", len(BASES[1]), "x"],
    "a trailing comma in an array": [1, "insert", _at(1, "2 ]", 1), ","],
    "a DEL (U+007F) raw in a string, which JSON allows": [0, "insert", _at(0, '"v"', 1), "\x7f"],
    "white space between tokens, which JSON allows": [1, "insert", _at(1, ", {"), "\r"],
    "a solidus written raw after its escape": [0, "insert", _at(0, "\\/", 2), "/"],
    **{
        f"{name} between tokens, which JSON does not allow": [1, "insert", _at(1, ", {"), char]
        for name, char in NOT_JSON_SPACE.items()
    },
    **{
        f"{name} after the object, which JSON does not allow": [0, "insert", len(BASES[0]), char]
        for name, char in NOT_JSON_SPACE.items()
    },
}
"""One edit per rule of the grammar a reader is likeliest to leave out, and edits that keep
the line JSON (a raw DEL in a string, a carriage return between tokens)."""

EDITS = st.lists(
    st.tuples(
        st.integers(0, len(BASES) - 1),
        st.sampled_from(KINDS),
        st.integers(0, 4096),
        st.sampled_from(ALPHABET),
    ).map(list),
    min_size=1,
    max_size=6,
)


def _cover(ctx: Any) -> Plan:
    cases = tuple(Case([edit], (("edits", name),)) for name, edit in NAMED.items())
    return Plan(cases, (("edits", len(NAMED)),))


@requirement(
    "PROTO-JSON-003",
    "a request line one character away from valid JSON (a character inserted, deleted or "
    "replaced: punctuation, quotes, backslash, escape letters, hex and not-hex letters, "
    "number characters, white space, other languages' white space such as a vertical tab, a "
    "no-break space or U+2028, control characters) is answered as RFC 8259 judges "
    "it: not JSON (a raw control character in a string, an unknown escape, \\u without four "
    "hex digits, an unquoted name, a missing or replaced ':', a missing ',', an "
    "unterminated string, text after the value) gets PROTOCOL_BAD_JSON (id null, no "
    "field) and a line still a JSON object does not; the engine answers the next line",
    family="protocol",
    capabilities=(),
    seed="docs/protocol.md § Framing (a request line is a JSON text); § Error codes "
    "(PROTOCOL_BAD_JSON: not JSON)",
    strategy=lambda ctx: EDITS,
    max_examples=40,
    cover=_cover,
)
def one_character_from_json(engine: EngineClient, edits: list[Edit]) -> None:
    lines = [edited(edit) for edit in edits]
    data = b"".join(
        line.encode("utf-8") + b"\n" + _hello(f"h{index}") + b"\n"
        for index, line in enumerate(lines)
    )
    responses = engine.raw_lines(data)
    assert len(responses) == 2 * len(lines), (
        f"{len(lines) * 2} lines sent, {len(responses)} responses"
    )
    for index, (edit, line) in enumerate(zip(edits, lines, strict=True)):
        what = f"the line {line!r} ({edit[1]} {edit[3]!r} at {edit[2]} of base line {edit[0]})"
        response = responses[2 * index]
        if not is_json_object(line):
            _bad_json(response, f"{what}, not JSON")
        else:
            assert isinstance(response, dict), f"{what}: response {response!r} is not an object"
            error = response.get("error")
            code = error.get("code") if isinstance(error, dict) else None
            assert code != "PROTOCOL_BAD_JSON", f"{what} is JSON, refused as {error!r}"
        _hello_answered(responses[2 * index + 1], f"h{index}", f"the hello after {what}")
