"""Request ids come back exactly as sent, whatever their magnitude or characters, and however
a string id is spelled in JSON.

docs/protocol.md § Requests: the id is "echoed in the response exactly, every digit of an
integer of any magnitude and every character of a string"; § Framing (and the opening): the
protocol is "JSON Lines over stdin and stdout", so a string's characters are the ones its JSON
text decodes to (``"a\\/b"`` is the string ``a/b``, ``"\\u0041"`` is ``A``). A client's own
encoder writes one spelling only (and never ``\\/``), so every string id is also sent as raw
lines spelled each way JSON allows, and each response's id must be the decoded string.
"""

from __future__ import annotations

from collections.abc import Callable

from hypothesis import strategies as st

from conformance.coverage import Case, Plan
from conformance.engines.base import EngineClient
from conformance.loose_values import FALSY_TEXTS
from conformance.requirements.registry import requirement

IDS: tuple[int | str, ...] = (
    0,
    -1,
    2**53 - 1,
    2**53 + 1,
    2**63 + 1,
    2**64 + 1,
    -(2**63) - 3,
    10**40 + 1,
    10**999 + 7,
    -(10**999) - 7,
    "",
    "\U0001f600",
    "\ue000\ud7ff",
    "line\nbreak\u0000",
    " \tpadded\n",
    " ",
    'a/b"c\\d\be\ff\ng\rh\ti',
    *FALSY_TEXTS,
)
"""Ids a double, a 64-bit integer, a C string or a trim would not carry back unchanged (white
space first, last and alone, a NUL last, a line break inside); integers of
1,000 digits, the most the guarded reader accepts (the minus sign is not a digit); a string
holding each of the eight characters JSON has a two-character escape for (``"`` ``\\`` ``/``
backspace, form feed, line feed, carriage return, tab), an astral character (a surrogate pair
as ``\\u`` escapes), characters whose ``\\u`` escapes hold hex letters, and texts another
language reads as false (``"0"``, ``"null"``, ...)."""

SHORT_ESCAPES = {
    '"': '\\"',
    "\\": "\\\\",
    "/": "\\/",
    "\b": "\\b",
    "\f": "\\f",
    "\n": "\\n",
    "\r": "\\r",
    "\t": "\\t",
}
"""RFC 8259 § 7's eight two-character escapes, by the character each decodes to."""


def _u_escapes(text: str, hex_format: str) -> str:
    """*text* as ``\\uXXXX`` escapes of its UTF-16 code units (an astral character as a
    surrogate pair of two escapes), the hex digits in *hex_format* (``04x`` or ``04X``)."""
    units = text.encode("utf-16-be")
    return "".join(
        "\\u" + format(int.from_bytes(units[i : i + 2], "big"), hex_format)
        for i in range(0, len(units), 2)
    )


def _raw(char: str) -> str:
    """*char* written as itself, where JSON lets it be (a quote, a backslash and a control
    character below U+0020 must be escaped: a ``\\u`` escape)."""
    return _u_escapes(char, "04x") if char in '"\\' or ord(char) < 0x20 else char


SPELLINGS: dict[str, Callable[[str], str]] = {
    "every character written raw": lambda s: "".join(_raw(c) for c in s),
    "each two-character escape (\\/ among them)": lambda s: "".join(
        SHORT_ESCAPES.get(c) or _raw(c) for c in s
    ),
    "every character as \\u escapes, lower-case hex": lambda s: _u_escapes(s, "04x"),
    "every character as \\u escapes, upper-case hex": lambda s: _u_escapes(s, "04X"),
}
"""The JSON text (without its quotes) of a string, spelled each way: the response's id must
be the decoded string whichever way it was written."""


def _spelled_ids(engine: EngineClient, request_id: str) -> None:
    """*request_id* sent as raw hello lines, one per spelling; each echoes it decoded."""
    lines = {
        name: f'{{"id":"{spell(request_id)}","op":"hello"}}'.encode()
        for name, spell in SPELLINGS.items()
    }
    responses = engine.raw_lines(b"".join(line + b"\n" for line in lines.values()))
    for (name, line), response in zip(lines.items(), responses, strict=True):
        _answered(response, request_id, f"spelled {line.decode()!r} ({name})")


def _answered(response: object, request_id: int | str, how: str) -> None:
    """The hello of id *request_id* was served (a valid id is no refusal) and echoes the id
    with its type."""
    assert isinstance(response, dict), f"id {request_id!r} {how}: response {response!r}"
    echoed = response.get("id")
    assert echoed == request_id and type(echoed) is type(request_id), (
        f"id {request_id!r} {how} echoed as {echoed!r}"
    )
    assert response.get("ok") is True, (
        f"id {request_id!r} {how}: a valid id, but the hello was refused: {response.get('error')}"
    )


@requirement(
    "PROTO-ID-001",
    "a request's id is accepted (its hello is answered) and echoed exactly: integers past "
    '2^53 and 2^64 in every digit, the falsy 0, "" and "0", strings '
    "with astral, private-use, NUL and line-break characters and white space first, last or "
    "alone; every string id also sent as raw lines spelled with each two-character escape "
    "(\\/ among them), \\u escapes in lower- and upper-case hex (a surrogate pair for an "
    "astral character) and raw characters, each echoed as the decoded string",
    family="protocol",
    capabilities=(),
    seed='docs/protocol.md § Requests (id: integer or string, any magnitude; "echoed in the '
    "response exactly, every digit of an integer of any magnitude and every character of a "
    'string"); § Framing (JSON Lines); § Responses',
    strategy=lambda ctx: st.one_of(st.integers(-(2**80), 2**80), st.text(max_size=12)),
    cover=lambda ctx: Plan(tuple(Case(i, (("ids", repr(i)),)) for i in IDS), (("ids", len(IDS)),)),
)
def id_echoed(engine: EngineClient, request_id: int | str) -> None:
    response = engine.raw({"id": request_id, "op": "hello", "args": {}}, checked=False)
    _answered(response, request_id, "sent as a JSON value")
    if isinstance(request_id, str):
        _spelled_ids(engine, request_id)
