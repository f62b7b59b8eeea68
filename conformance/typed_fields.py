"""The type-confusion matrix: every typed field the docs define, as plain data.

Each :data:`FIELDS` row names a field of a protocol op's arguments (docs/protocol.md), of a
persisted file (docs/state.md), of a state record or of a register pack
(docs/registers.md), its documented type, whether it is optional and nullable, and the
refusal the docs require for a value of the wrong type (code and ``field``, or what a load
does with the generation). :func:`wrong_values` gives the values of the wrong type that
apply to a row: a boolean where an integer is required, ``1.0`` for an integer, the
numeric string ``"1"``, ``null`` unless nullable, ``-1`` where the value is at least 0, an
array or object where a scalar is required, an out-of-range integer.
``lanes/docs/test_typed_fields_table.py`` keeps the list closed: a field the docs gain or
lose fails it. Requirements PROTO-TYPE-001, STATE-TYPE-001 to 004, LOAD-TYPE-002 and 003 send
every (field, wrong value) pair.
"""

from __future__ import annotations

from typing import Any, NamedTuple

MV_ZERO: list[Any] = [0] * 32


class Field(NamedTuple):
    """One typed field: *place* is ``protocol:<op>``, ``manifest``, ``record:<kind>`` or
    ``pack`` (*name* then a dotted path)."""

    place: str
    name: str
    type: str
    required: bool
    nullable: bool
    outcome: str
    """``PROTOCOL_BAD_ARGS``, ``STATE_BAD_MUTATION``, ``invalid`` (the generation is proven
    invalid: the load falls back from it), ``STATE_SCHEMA_MALFORMED``, ``ignored`` (the
    value does not count) or a ``REGISTER_*`` code."""


def _arg(op: str, name: str, kind: str, *, required: bool = True, nullable: bool = False) -> Field:
    return Field(f"protocol:{op}", name, kind, required, nullable, "PROTOCOL_BAD_ARGS")


ENVELOPE_FIELDS: tuple[Field, ...] = (
    Field("request", "id", "id", True, False, "PROTOCOL_BAD_REQUEST"),
    Field("request", "op", "string", True, False, "PROTOCOL_BAD_REQUEST"),
    Field("request", "args", "object", False, False, "PROTOCOL_BAD_REQUEST"),
)
"""The members of a request (docs/protocol.md § Requests): a wrong type is
``PROTOCOL_BAD_REQUEST`` naming the member."""

PROTOCOL_FIELDS: tuple[Field, ...] = (
    _arg("register.validate", "pack", "object"),
    _arg("register.validate", "expected_id", "string", required=False, nullable=True),
    _arg("register.ratify", "pack", "object"),
    _arg("register.ratify_file", "path", "string"),
    _arg("register.load", "register_id", "string"),
    _arg("register.load", "files", "files"),
    _arg("variation.select", "bucket", "strings"),
    _arg("variation.select", "trace_hash", "string"),
    _arg("variation.select", "register_id", "string"),
    _arg("variation.select", "turn_idx", "count"),
    _arg("variation.select", "bucket_name", "string"),
    _arg("variation.decorate", "surface", "string"),
    _arg("variation.decorate", "discourse_markers", "markers"),
    _arg("variation.decorate", "register_id", "string"),
    _arg("variation.decorate", "trace_hash", "string"),
    _arg("variation.decorate", "turn_idx", "count"),
    _arg("overrides.resolve", "realizer_overrides", "object"),
    _arg("overrides.resolve", "intent", "intent"),
    _arg("session.open", "register_id", "string", nullable=True),
    _arg("session.open", "files", "files", required=False),
    _arg("session.open", "store", "string", required=False),
    _arg("session.chat", "session", "string"),
    _arg("session.chat", "text", "string"),
    _arg("session.close", "session", "string"),
    _arg("batch", "requests", "requests"),
    _arg("algebra.product", "a", "multivector"),
    _arg("algebra.product", "b", "multivector"),
    _arg("algebra.reverse", "a", "multivector"),
    _arg("algebra.grade", "a", "multivector"),
    _arg("algebra.grade", "grade", "grade"),
    _arg("algebra.rotor", "bivector", "multivector"),
    _arg("algebra.rotor", "angle", "angle"),
    _arg("algebra.versor_apply", "versor", "multivector"),
    _arg("algebra.versor_apply", "x", "multivector"),
    _arg("algebra.versor_condition", "versor", "multivector"),
    _arg("engine.fork", "socket", "string"),
    _arg("state.open", "dir", "string"),
    _arg("state.apply", "store", "string"),
    _arg("state.apply", "mutations", "list"),
    _arg("state.checkpoint", "store", "string"),
    _arg("state.trace_checkpoint", "store", "string"),
    _arg("state.digest", "store", "string"),
    _arg("state.close", "store", "string"),
    _arg("state.load", "dir", "string"),
    _arg("state.propose", "store", "string"),
    _arg("state.propose", "proposal", "object"),
    _arg("state.journal", "dir", "string"),
    _arg("state.journal", "name", "journal"),
    _arg("state.journal", "repair", "boolean", required=False),
    _arg("state.soak", "dir", "string"),
    _arg("state.soak", "iterations", "count"),
    _arg("state.soak", "seed", "count"),
)
"""Every argument of every op of docs/protocol.md (``hello`` and ``lexicon.list`` take none)."""

MANIFEST_FIELDS: tuple[Field, ...] = (
    Field("manifest", "checksum", "digest", True, False, "invalid"),
    Field("manifest", "files", "digests", True, False, "invalid"),
    Field("manifest", "generation", "count", True, False, "invalid"),
    Field("manifest", "identity", "digest", True, False, "invalid"),
    Field("manifest", "schema_version", "version", True, False, "STATE_SCHEMA_MALFORMED"),
    Field("manifest", "turn_count", "count", True, False, "invalid"),
)
"""The six members of ``manifest.json`` (docs/state.md § The manifest; § Schema versions)."""


def _rec(kind: str, name: str, type_: str, *, nullable: bool = False) -> Field:
    return Field(f"record:{kind}", name, type_, True, nullable, "STATE_BAD_MUTATION")


RECORD_FIELDS: tuple[Field, ...] = (
    _rec("candidate", "kind", "string"),
    _rec("candidate", "key", "string"),
    _rec("candidate", "lemma", "string"),
    _rec("candidate", "score", "integer"),
    _rec("candidate", "status", "status"),
    _rec("candidate", "evidence", "integer"),
    _rec("recognizer", "kind", "string"),
    _rec("recognizer", "key", "string"),
    _rec("recognizer", "pattern", "string"),
    _rec("recognizer", "weight", "integer"),
    _rec("recognizer", "label", "string"),
    _rec("session", "kind", "string"),
    _rec("session", "key", "string"),
    _rec("session", "register_id", "string", nullable=True),
    _rec("life", "kind", "string"),
    _rec("life", "key", "string"),
    _rec("life", "turns", "count"),
    _rec("life", "context", "string", nullable=True),
    _rec("life", "rotor", "bits"),
    _rec("vault", "kind", "string"),
    _rec("vault", "key", "string"),
    _rec("vault", "lemma", "string"),
    _rec("vault", "count", "count"),
    _rec("vault", "first_turn", "count"),
    _rec("vault", "last_turn", "count"),
    _rec("vault", "latest_claim", "string", nullable=True),
    _rec("vault", "said", "said"),
)
"""Every field of every record kind of ``core.jsonl`` (docs/state.md § The persistent core):
a put carrying it mistyped is ``STATE_BAD_MUTATION`` (STATE-TYPE-002); a generation holding
it mistyped, its checksums holding, is ``STATE_RECORD_MALFORMED`` (STATE-TYPE-004)."""


def _mut(name: str, type_: str) -> Field:
    return Field("mutation", name, type_, True, False, "STATE_BAD_MUTATION")


MUTATION_FIELDS: tuple[Field, ...] = (
    _mut("mutations[0]", "object"),
    _mut("mutations[0].op", "mutation_op"),
    _mut("mutations[0].record", "object"),
    _mut("mutations[0].kind", "string"),
    _mut("mutations[0].key", "string"),
)
"""The members of a ``state.apply`` mutation (docs/protocol.md § Persisted-state ops;
docs/state.md § Mutations, § Refusals): ``record`` of a put, ``kind`` and ``key`` of a
delete; the refusal's ``field`` is the path."""

LINEAGE_FIELDS: tuple[Field, ...] = (Field("lineage", "boot", "boot", True, False, "ignored"),)
"""The member of a recorded boot event an open reads (docs/state.md § Identity and lineage):
an event whose ``boot`` is not an integer does not count toward the next number."""

REPORT_FIELDS: tuple[Field, ...] = (
    Field("report", "seal", "sealed", True, False, "REGISTER_SEAL_MISMATCH"),
    Field("report", "register_id", "sealed", True, False, "REGISTER_SEAL_MISMATCH"),
    Field("report", "verdict", "sealed", True, False, "REGISTER_SEAL_MISMATCH"),
    Field("report", "pack_source_sha256", "sealed", True, False, "REGISTER_TAMPERED"),
)
"""The members of a mastery report a load reads (docs/registers.md § Loading, steps 7 and 9),
each given a wrong type with the report resealed (but ``seal`` itself) and the pack naming
the new seal: ``field`` is ``mastery_report`` for the seal, ``mastery_report.<member>`` for
``register_id`` and ``verdict``, ``pack_source_sha256`` for that one. The other members are
under the seal only and not read."""


def _pack(path: str, type_: str, outcome: str, *, required: bool = True) -> Field:
    return Field("pack", path, type_, required, False, outcome)


PACK_FIELDS: tuple[Field, ...] = (
    _pack("register_id", "string", "REGISTER_INVALID_ID"),
    _pack("version", "string", "REGISTER_MALFORMED"),
    _pack("description", "string", "REGISTER_MALFORMED"),
    _pack("schema_version", "string", "REGISTER_MALFORMED"),
    _pack("display_name", "string", "REGISTER_MALFORMED"),
    _pack("depth_preference", "string", "REGISTER_MALFORMED"),
    _pack("realizer_overrides", "object", "REGISTER_MALFORMED"),
    _pack("discourse_markers", "object", "REGISTER_MALFORMED"),
    _pack("mastery_report_sha256", "string", "REGISTER_MALFORMED", required=False),
    _pack("discourse_markers.openings", "list", "REGISTER_MALFORMED", required=False),
    _pack("discourse_markers.transitions", "list", "REGISTER_MALFORMED", required=False),
    _pack("discourse_markers.closings", "list", "REGISTER_MALFORMED", required=False),
    _pack("discourse_markers.openings[0]", "string", "REGISTER_MALFORMED"),
    _pack("discourse_markers.transitions[0]", "string", "REGISTER_MALFORMED"),
    _pack("discourse_markers.closings[0]", "string", "REGISTER_MALFORMED"),
    _pack(
        "realizer_overrides.disclosure_domain_count",
        "domains",
        "REGISTER_OVERRIDE_OUT_OF_BOUNDS",
        required=False,
    ),
    _pack(
        "realizer_overrides.per_intent", "object", "REGISTER_OVERRIDE_OUT_OF_BOUNDS", required=False
    ),
    _pack("realizer_overrides.per_intent.DEFINITION", "object", "REGISTER_OVERRIDE_OUT_OF_BOUNDS"),
    _pack(
        "realizer_overrides.per_intent.DEFINITION.disclosure_domain_count",
        "domains",
        "REGISTER_OVERRIDE_OUT_OF_BOUNDS",
    ),
)
"""Every typed member of a register pack (docs/registers.md § Pack format; § Structural check
order), as a dotted path: the code its wrong type gets, and ``field`` is the path."""

FIELDS: tuple[Field, ...] = (
    ENVELOPE_FIELDS
    + PROTOCOL_FIELDS
    + MANIFEST_FIELDS
    + RECORD_FIELDS
    + MUTATION_FIELDS
    + LINEAGE_FIELDS
    + PACK_FIELDS
    + REPORT_FIELDS
)

_SCALARS: list[Any] = [True, False, [], {}]
WRONG: dict[str, list[Any]] = {
    "string": [*_SCALARS, 1, 1.0, None],
    "integer": [*_SCALARS, 1.0, -0.0, 1.5, "1", None],
    "count": [*_SCALARS, 1.0, 1.5, "1", None, -1],
    "grade": [*_SCALARS, 1.0, "1", None, -1, 6],
    "angle": [*_SCALARS, "1", None, 65, -65],
    "version": [*_SCALARS, 1.0, "1", None, -1, 0],
    "id": [True, False, 1.0, None, [], {}],
    "mutation_op": [True, 1, None, [], {}, "PUT", "put\n", " put", "\uff50ut"],
    "sealed": [True, False, 1, None, [], {}],
    "boot": [True, False, 9.0, "9", None, [9], {}],
    "domains": [*_SCALARS, 1.0, 2.0, "1", None, -1, 0, 4],
    "boolean": [[], {}, 1, 0, 1.0, "true", None],
    "object": [True, False, 1, 1.0, "{}", None, []],
    "list": [True, False, 1, 1.0, "[]", None, {}],
    "strings": [True, False, 1, "x", None, {}, [1], [True], [None], [[]]],
    "requests": [True, False, 1, "[]", None, {}],
    "files": [True, 1, "x", None, [], {"x.json": 1}, {"x.json": None}, {"x.json": True}],
    "markers": [
        True,
        1,
        "x",
        None,
        [],
        {"openings": "So,", "closings": []},
        {"openings": [], "closings": None},
        {"openings": [True], "closings": []},
        {"openings": [], "closings": [1]},
        {"openings": [], "closings": [], "transitions": None},
    ],
    "intent": [True, 1, None, [], {}, "definition", "DEFINITION\n", "\uff24EFINITION"],
    "journal": [True, 1, None, [], {}, "Proposals", "proposal\u017f", "lineage\n", "\uff4cineage"],
    "status": [
        True,
        1,
        None,
        [],
        {},
        "Coherent",
        "coherent\n",
        "\u017fpeculative",
        "\uff43oherent",
    ],
    "multivector": [
        True,
        1,
        "x",
        None,
        {},
        MV_ZERO[:31],
        [True, *MV_ZERO[1:]],
        ["1", *MV_ZERO[1:]],
        [None, *MV_ZERO[1:]],
        [[], *MV_ZERO[1:]],
        [1e51, *MV_ZERO[1:]],
    ],
    "digest": [True, 1, None, [], {}],
    "digests": [True, 1, "x", None, [], {"core.jsonl": 1}, {"core.jsonl": None}],
    "bits": [True, 1, "x", None, {}, [0] * 32, [1.0] * 32, [*["0" * 16] * 31, True]],
    "said": [
        True,
        1,
        "x",
        None,
        {},
        [1],
        [None],
        [{"claim": None, "text": 1, "turn_idx": 0}],
        [{"claim": True, "text": "t", "turn_idx": 0}],
        [{"claim": None, "text": "t", "turn_idx": 1.0}],
        [{"claim": None, "text": "t", "turn_idx": "0"}],
        [{"claim": None, "text": "t", "turn_idx": True}],
        [{"claim": None, "text": "t", "turn_idx": -1}],
    ],
}
"""The values of the wrong type for each documented type (``null`` dropped when nullable); an
enumerated string (an op, an intent, a journal, a status) also gets its look-alikes: a
trailing newline, a space, a fullwidth letter, a long s (U+017F, which case folding maps to
``s``)."""


def wrong_values(field: Field) -> list[Any]:
    """The wrong-type values that apply to *field* (fresh copies, in a fixed order)."""
    import copy

    values = WRONG[field.type]
    return [copy.deepcopy(v) for v in values if not (v is None and field.nullable)]


def matrix(fields: tuple[Field, ...] = FIELDS) -> list[tuple[Field, Any]]:
    """Every (field, wrong value) pair of *fields*, in table order."""
    return [(field, value) for field in fields for value in wrong_values(field)]
