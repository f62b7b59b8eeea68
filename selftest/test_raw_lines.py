"""The raw-line path of the engine adapters: lines split as a line reader splits them,
handlers without ``handle_line`` fed parsed requests, lone surrogates written as escapes."""

from __future__ import annotations

from typing import Any

import pytest

from conformance.engines.base import split_lines
from conformance.engines.lines import answer_line
from conformance.engines.subprocess import encode_request


@pytest.mark.parametrize(
    ("data", "lines"),
    [
        (b"", []),
        (b"\n", [b""]),
        (b"a\nb\n", [b"a", b"b"]),
        (b"a\r\n\n", [b"a\r", b""]),
        (b"a\nlast", [b"a", b"last"]),
    ],
)
def test_lines_split_like_a_line_reader(data: bytes, lines: list[bytes]) -> None:
    assert split_lines(data) == lines


class EchoHandler:
    """A handler with ``handle`` only: it answers with what it was given."""

    def handle(self, request: object) -> dict[str, Any]:
        return {"id": None, "ok": True, "result": {"got": request}}


@pytest.mark.parametrize(
    ("line", "got"),
    [
        (b'{"id":1,"op":"hello"}', '{"id":1,"op":"hello"}'),
        (b"\xff", "null"),
        (b"not json", "null"),
        (b'"\xc3\xa9"', '"\u00e9"'),
    ],
)
def test_a_handler_without_handle_line_gets_the_parsed_request(line: bytes, got: str) -> None:
    answer = answer_line(EchoHandler(), line)
    assert answer == f'{{"id":null,"ok":true,"result":{{"got":{got}}}}}'


def test_a_lone_surrogate_is_written_as_its_escape() -> None:
    assert encode_request({"id": 1, "op": "x\ud800"}) == b'{"id": 1, "op": "x\\ud800"}'
    assert encode_request({"id": 1, "op": "\u00e9"}) == '{"id": 1, "op": "\u00e9"}'.encode()
