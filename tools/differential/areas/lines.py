"""Raw protocol lines: empty, not JSON, not a request, odd ids and numbers, too deep,
truncated, and requests with arguments of the wrong type."""

from __future__ import annotations

import random

from tools.differential.material import Material
from tools.differential.shared import Json

LINES: list[bytes] = [
    b"",
    b"   ",
    b"hello?",
    b"[]",
    b"null",
    b"1",
    b'"x"',
    b"\xef\xbb\xbf{}",
    b"{",
    b"\xff\xfe",
    b'{"id":1}',
    b'{"op":"hello"}',
    b'{"id":null,"op":"hello"}',
    b'{"id":1.0,"op":"hello"}',
    b'{"id":true,"op":"hello"}',
    b'{"id":1,"op":3}',
    b'{"id":1,"op":"hello","args":[]}',
    b'{"id":1,"op":"Hello"}',
    b'{"id":1,"op":"hello ","args":{}}',
    b'{"id":01,"op":"hello"}',
    b'{"id":1,"op":"hello","args":{"x":1}}',
    b'{"id":"\\ud800","op":"hello"}',
    b'{"id":1,"op":"hello","pad":NaN}',
    b'{"id":1,"op":"hello","pad":1e400}',
    b'{"id":1,"op":"hello","pad":1e-400}',
    b'{"id":-0,"op":"lexicon.list"}',
    b'{"id":1,"op":"hello","op":"lexicon.list"}',
    b'{"id":1,"op":"state.export"}',
    b'{"id":123456789012345678901234567890,"op":"nope"}',
    b'{"id":1,"op":"hello"}\r',
    b'{"id":1,"op":"hello","pad":' + b"[" * 63 + b"]" * 63 + b"}",
    b'{"id":1,"op":"hello","pad":' + b"[" * 64 + b"]" * 64 + b"}",
    b'{"id":1,"op":"hello","pad":1' + b"0" * 1000 + b"}",
    b'{"id":1,"op":"session.chat","args":{"session":"s999","text":"x"}}',
    b'{"id":1,"op":"session.chat","args":{"session":1,"text":"x"}}',
    b'{"id":1,"op":"session.chat","args":{}}',
    b'{"id":1,"op":"session.open","args":{"register_id":""}}',
    b'{"id":1,"op":"session.open","args":{"register_id":"unregistered"}}',
    b'{"id":1,"op":"session.open","args":{}}',
    b'{"id":1,"op":"session.open","args":{"register_id":null,"files":{"a/b.json":""}}}',
    b'{"id":1,"op":"session.open","args":{"register_id":null,"files":{"a.json":"@@"}}}',
    b'{"id":1,"op":"lexicon.list","args":{"b":1,"a":2}}',
    b'{"id":"\xc3\xa9\xe2\x80\xa8","op":"nope"}',
    b'{"id":-0,"op":"nope"}',
    b'{"id":1e2,"op":"hello"}',
    b'{"id":-12345678901234567890123456789,"op":"nope"}',
    b'{"id":"1","op":"nope","args":null}',
    b'{"id":2,"op":"overrides.resolve","args":{"intent":"CAUSE","realizer_overrides":{"disclosure_domain_count":2,"disclosure_domain_count":1}}}',
    b'{"id":3,"op":"variation.select","args":{"bucket":["a"],"trace_hash":"x","register_id":"r","turn_idx":1.0,"bucket_name":"openings"}}',
    b'{"id":3,"op":"variation.select","args":{"bucket":["a"],"trace_hash":"x","register_id":"r","turn_idx":-0,"bucket_name":"openings"}}',
    b'{"id":3,"op":"variation.select","args":{"bucket":["a","b"],"trace_hash":"x","register_id":"r","turn_idx":123456789012345678901234567890,"bucket_name":"o"}}',
    b'{"id":4,"op":"batch","args":{"requests":[{"id":1,"op":"batch","args":{"requests":[]}},"x"]}}',
    b'{"id":5,"op":"register.validate","args":{"pack":{},"expected_id":null}}',
    b'{"id":6,"op":"session.open","args":{"register_id":"terse_v1","store":"x"}}',
    b'{"id":7,"op":"state.open","args":{"dir":"relative"}}',
    b'{"id":7,"op":"state.open","args":{"dir":""}}',
    b'{"id":7,"op":"state.load","args":{"dir":"/nonexistent-i47/\\u0000x"}}',
    b'{"id":8,"op":"algebra.grade","args":{"a":[0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0],"grade":5.0}}',
    b'{"id":9,"op":"state.journal","args":{"dir":"/nonexistent-i47","name":"Lineage"}}',
    b'{"id":9,"op":"state.journal","args":{"dir":"/nonexistent-i47","name":"lineage","repair":1}}',
]


def gen_lines(rng: random.Random, m: Material) -> tuple[list[Json], dict[str, Json]]:
    """One to four LINES sent as they are, about one in five cut short; no context."""
    case: list[Json] = []
    for _ in range(rng.randint(1, 4)):
        line = rng.choice(LINES)
        if rng.random() < 0.2 and len(line) > 2:
            cut = rng.randrange(1, len(line))
            line = line[:cut]
        case.append(line)
    return case, {}
