"""Core records: validation, normalisation, canonical encoding, ordering and identity."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from state_helpers import candidate, recognizer

from reference.canonical import sha256_hex
from reference.state import StateError, decode_core, encode_core, identity, validate_record
from reference.state.records import OPTIONAL, Record, normalise


def with_defaults(record: Record) -> Record:
    """*record* with every optional field present (absent ones take their default)."""
    defaults = {name: spec.default for name, spec in OPTIONAL[record["kind"]].items()}
    return {**defaults, **record}


TEXT = st.text(alphabet=st.characters(codec="utf-8"), max_size=12)
KEYS = st.text(alphabet=st.characters(codec="utf-8"), min_size=1, max_size=16)
INTS = st.integers(min_value=-(2**53 - 1), max_value=2**53 - 1)


def _candidates(version: int) -> st.SearchStrategy[dict]:
    base = st.fixed_dictionaries(
        {
            "kind": st.just("candidate"),
            "key": KEYS,
            "lemma": TEXT,
            "score": INTS,
            "status": st.sampled_from(["speculative", "coherent", "rejected"]),
        },
        optional={"evidence": INTS} if version >= 3 else {},
    )
    return base


def _recognizers(version: int) -> st.SearchStrategy[dict]:
    return st.fixed_dictionaries(
        {"kind": st.just("recognizer"), "key": KEYS, "pattern": TEXT, "weight": INTS},
        optional={"label": TEXT} if version >= 2 else {},
    )


SESSIONS = st.fixed_dictionaries(
    {
        "kind": st.just("session"),
        "key": st.just("session"),
        "register_id": st.none() | TEXT,
    }
)


def _records(version: int = 3) -> st.SearchStrategy[list[dict]]:
    one = _candidates(version) | _recognizers(version) | SESSIONS
    unique = st.lists(one, unique_by=lambda r: (r["kind"], r["key"]), max_size=12)
    return unique.map(lambda rs: [validate_record(r, version) for r in rs])


@given(_records())
def test_round_trip(records: list[dict]) -> None:
    decoded = decode_core(encode_core(records), 3)
    assert decoded == {(r["kind"], r["key"]): r for r in records}
    assert encode_core(decoded.values()) == encode_core(records)


@given(st.data())
def test_encoding_is_independent_of_insertion_order(data: st.DataObject) -> None:
    records = data.draw(_records())
    shuffled = data.draw(st.permutations(records))
    assert encode_core(shuffled) == encode_core(records)
    as_dict = dict(((r["kind"], r["key"]), r) for r in shuffled)
    assert encode_core(as_dict.values()) == encode_core(records)


@given(_records())
def test_lines_are_sorted_by_kind_then_key_in_utf8_byte_order(records: list[dict]) -> None:
    lines = encode_core(records).splitlines()
    keys = [tuple(decode_core(line + b"\n", 3)) for line in lines]
    utf8 = [(k.encode(), key.encode()) for ((k, key),) in keys]
    assert utf8 == sorted(utf8)


@given(st.sampled_from([1, 2, 3]).flatmap(lambda v: st.tuples(st.just(v), _records(v))))
def test_every_version_reads_its_own_records(case: tuple[int, list[dict]]) -> None:
    version, records = case
    assert decode_core(encode_core(records), version) == {(r["kind"], r["key"]): r for r in records}


@given(_records(1))
def test_additive_optional_fields_keep_v1_bytes(records: list[dict]) -> None:
    core = encode_core(records)
    assert decode_core(core, 3) == decode_core(core, 1)
    with_explicit_defaults = [validate_record(with_defaults(r), 3) for r in records]
    assert encode_core(with_explicit_defaults) == core


def test_defaults_are_omitted() -> None:
    assert validate_record(candidate("c", evidence=0), 3) == candidate("c")
    assert validate_record(recognizer("r", label=""), 3) == recognizer("r")
    assert validate_record(candidate("c", evidence=2), 3)["evidence"] == 2
    assert normalise(recognizer("r", label="x")) == recognizer("r", label="x")


def test_with_defaults_fills_absent_optional_fields() -> None:
    assert with_defaults(candidate("c"))["evidence"] == 0
    assert with_defaults(recognizer("r"))["label"] == ""


def test_a_v3_record_without_optional_fields_encodes_as_in_v1() -> None:
    v1 = encode_core([validate_record(candidate("c", 4), 1), validate_record(recognizer("r"), 1)])
    v3 = encode_core([validate_record(candidate("c", 4, evidence=0), 3), recognizer("r")])
    assert v1 == v3


@pytest.mark.parametrize(
    ("record", "version", "field"),
    [
        ("not a record", 3, "record"),
        ({"kind": "vault", "key": "k"}, 3, "kind"),
        (recognizer("r", label="x"), 1, "label"),
        (candidate("c", evidence=1), 2, "evidence"),
        (candidate("c", colour="red"), 3, "colour"),
        ({"kind": "candidate", "key": "c", "lemma": "x", "score": 1}, 3, "status"),
        (candidate("c", status="maybe"), 3, "status"),
        (candidate("c", score=True), 3, "score"),
        (candidate("c", score=1.0), 3, "score"),
        (recognizer("r", weight="1"), 3, "weight"),
        (recognizer("r", label=None), 3, "label"),
        (recognizer(""), 3, "key"),
        (recognizer("k" * 129), 3, "key"),
        (recognizer("bad\udc80"), 3, "key"),
        ({"kind": "session", "key": "other", "register_id": None}, 3, "key"),
        ({"kind": "session", "key": "session", "register_id": 3}, 3, "register_id"),
    ],
)
def test_malformed_records_name_the_field(record: object, version: int, field: str) -> None:
    with pytest.raises(StateError) as caught:
        validate_record(record, version)
    assert caught.value.code == "STATE_RECORD_MALFORMED"
    assert caught.value.field == field


def test_key_of_128_characters_is_accepted() -> None:
    assert validate_record(recognizer("é" * 128), 3)["key"] == "é" * 128


GOOD = encode_core([candidate("a"), candidate("b")])


@pytest.mark.parametrize(
    "data",
    [
        GOOD[:-1],
        GOOD + GOOD,
        b"".join(reversed(GOOD.splitlines(keepends=True))),
        GOOD.replace(b'"key":"a",', b'"key": "a",'),
        GOOD.replace(b'"score":0', b'"score":0.0'),
        encode_core([candidate("a")]).replace(b"}", b',"evidence":0}'),
        b"not json\n",
        b"\xff\n",
        b"[1]\n",
        b'{"key":"a","kind":"candidate","lemma":"x","score":NaN,"status":"coherent"}\n',
        b"\n",
    ],
)
def test_decode_refuses_what_the_encoder_would_not_write(data: bytes) -> None:
    with pytest.raises(StateError) as caught:
        decode_core(data, 3)
    assert caught.value.code == "STATE_RECORD_MALFORMED"


def test_empty_core_is_empty_file() -> None:
    assert encode_core([]) == b""
    assert decode_core(b"", 3) == {}


def test_identity_follows_the_formula() -> None:
    core = encode_core([candidate("a")])
    assert identity(3, core) == sha256_hex(b"core-state/3\n" + core)
    assert identity(1, core) != identity(3, core)
    assert identity(3, b"") == sha256_hex(b"core-state/3\n")
