"""Near-miss coverage: values one step from valid, where a port's looser check lets them in.

A port in another language rarely gets a rule wholly wrong; it gets the edge wrong: a
version compared as a semantic version, a name matched without case, a key list sorted
by UTF-16 code units, an index that went through a double. Each plan here runs those
values first, one class each, so a single such mistake fails its requirement.
"""

from __future__ import annotations

from conformance import coverage, oracle
from conformance import strategies as gen
from conformance.coverage import Case, Plan
from conformance.loose_values import FALSY_TEXTS, NUMERIC_TWINS
from conformance.model import SuiteContext

SCHEMA_NEAR_MISSES = (
    "1.0",
    "1",
    "1.0.0.0",
    "v1.0.0",
    "1.0.0 ",
    " 1.0.0",
    "1.0.0\n",
    "1.0.0+build",
    "1.0.0-rc1",
    "01.0.0",
    "1.00.0",
    "0.9.0",
    "1.0.1",
    "2.0.0",
    "\uff11.0.0",
)
"""schema_version strings a semver parser, a trim or a digit class would take for 1.0.0."""


def schema_versions(ctx: SuiteContext) -> Plan:
    """Each near-miss schema_version once, in an otherwise valid pack."""
    cases = tuple(
        Case([gen.pack("schema_v1"), version], (("near misses", repr(version)),))
        for version in SCHEMA_NEAR_MISSES
    )
    return Plan(cases, (("near misses", len(SCHEMA_NEAR_MISSES)),))


INTENT_NEAR_MISSES = (
    "definition",
    "Definition",
    "DEFINITION ",
    " CAUSE",
    "CAUSE\n",
    "IntentTag.RECALL",
    "TRANSITIVE-QUERY",
    "FRAMETRANSFER",
    "UNKNOWN_",
    "0",
    "\uff24\uff25\uff26\uff29\uff2e\uff29\uff34\uff29\uff2f\uff2e",
)
"""per_intent keys that a case fold, a trim, an enum value or NFKC would take for a name."""


def intent_names(ctx: SuiteContext) -> Plan:
    """Each near-miss intent name once."""
    cases = tuple(
        Case(["intent_v1", name], (("near misses", repr(name)),)) for name in INTENT_NEAR_MISSES
    )
    return Plan(cases, (("near misses", len(INTENT_NEAR_MISSES)),))


UNKNOWN_FIELD_NAMES: tuple[tuple[str, ...], ...] = (
    ("Register_id",),
    ("register_id ",),
    ("registerId",),
    ("\ue000", "\U0001f600"),
    ("\uffff", "\U00010000"),
    ("a\U0001f600", "a\ue000"),
    ("9", "10"),
)
"""Unknown top-level fields: near misses of real names, pairs whose first in code point
order is not their first in UTF-16 code unit order, and integer-like names whose first in
code point order is not the smallest number (a JavaScript object lists such keys first, in
numeric order, whatever order they came in)."""


def unknown_fields(ctx: SuiteContext) -> Plan:
    """Each set of unknown field names once, added to a valid pack."""
    cases = tuple(
        Case([gen.pack("fields_v1"), list(names)], (("unknown names", repr(names)),))
        for names in UNKNOWN_FIELD_NAMES
    )
    return Plan(cases, (("unknown names", len(UNKNOWN_FIELD_NAMES)),))


EXPECTED_ID_NEAR_MISSES = ("", "MISMATCH_v1", "mismatch_v1 ", "mismatch_v", "mismatch_v1.json")
"""Expected ids one step from the pack's ``mismatch_v1``; the empty one is not "no id"."""


def expected_ids(ctx: SuiteContext) -> Plan:
    """The pack ``mismatch_v1`` validated against each near-miss expected id, then each pair
    of ids equal as numbers, both ways round."""
    cases = tuple(
        Case([gen.pack("mismatch_v1"), other], (("near misses", repr(other)),))
        for other in EXPECTED_ID_NEAR_MISSES
    )
    twins = numeric_twins(ctx)
    return Plan(
        cases + twins.cases, (("near misses", len(EXPECTED_ID_NEAR_MISSES)), *twins.universe)
    )


def numeric_twins(ctx: SuiteContext) -> Plan:
    """A pack of each id of :data:`~conformance.loose_values.NUMERIC_TWINS` with its twin,
    both ways round: the twin is another id."""
    cases = tuple(
        Case([gen.pack(rid), other], (("ids equal as numbers", f"{rid} as {other}"),))
        for pair in NUMERIC_TWINS
        for rid, other in (pair, pair[::-1])
    )
    return Plan(cases, (("ids equal as numbers", len(cases)),))


def falsy_chats(ctx: SuiteContext) -> Plan:
    """Under each of the four registers, one session whose turns are the empty text and each
    text another language reads as false (:data:`~conformance.loose_values.FALSY_TEXTS`)."""
    cases = tuple(
        Case([register_id, ["", *FALSY_TEXTS]], (("falsy texts", str(register_id)),))
        for register_id in oracle.FOUR_REGISTERS
    )
    return Plan(cases, (("falsy texts", len(cases)),))


FREE_TEXT = {
    "version empty": ("version", ""),
    "version not semver": ("version", "1.0"),
    "version a word": ("version", "draft"),
    "version astral": ("version", "\U0001f600"),
    "description empty": ("description", ""),
    "display_name empty": ("display_name", ""),
    "display_name astral": ("display_name", "\U0001f680 Rocket"),
    **{
        f"{name} {text!r}": (name, text)
        for name in ("version", "description", "display_name")
        for text in ("0", "false", "null")
    },
}
"""Free-text fields hold any string: the format puts no rule on them."""

BIG_TURN_INDICES = (2**53 + 1, 2**53 + 3, 2**63 + 1, 2**64 + 1, 10**30 + 7)
"""Turn indices past 2**53: a port that parses numbers into doubles seeds with a rounded one."""


def pack_variants(ctx: SuiteContext) -> Plan:
    """The coverage plan of every optional part, then each free-text field at its edges."""
    base = coverage.pack_variants(ctx)
    cases = tuple(
        Case({**gen.pack("free_text"), name: value}, (("free text", label),))
        for label, (name, value) in FREE_TEXT.items()
    )
    return Plan(base.cases + cases, (*base.universe, ("free text", len(FREE_TEXT))))


SEED_TEXT_FIELDS = ("trace_hash", "register_id", "bucket_name")


UNTOUCHED_MARKERS = (
    "e\u0301",
    "\u212b",
    "\ufb01ne,",
    "\uff33o,",
    " So, ",
    "\u00a0Well\u00a0",
    "So,\u200b",
    "\ufeffSo,",
    "So,\r\n",
    "\t",
)
"""Markers a normaliser would change (NFD, a singleton NFC maps, compatibility forms, padding,
invisible characters, line ends): the entry is ``bucket[index]`` byte for byte."""


def select_cases(ctx: SuiteContext) -> Plan:
    """The selector's bucket-size plan, then 32-entry buckets at turn indices past 2**53 and
    with a character of each UTF-8 width (one outside the BMP) in each text of the seed."""
    base = coverage.select_sizes(ctx)
    wide = {**coverage.SELECT_SEED, "bucket": [f"e{i}" for i in range(32)]}
    cases = tuple(
        Case({**wide, "turn_idx": index, "bucket_name": name}, (("big turn indices", str(index)),))
        for index in BIG_TURN_INDICES
        for name in ("openings", "closings")
    )
    plain = {**wide, "bucket_name": "openings"}
    texts = tuple(
        Case({**plain, field: f"{plain[field]}{char}"}, (("seed characters", f"{field}:{char}"),))
        for field in SEED_TEXT_FIELDS
        for char in coverage.MARKER_CHARS
    )
    untouched = tuple(
        Case({**plain, "bucket": [marker]}, (("markers kept byte for byte", repr(marker)),))
        for marker in (*UNTOUCHED_MARKERS, *FALSY_TEXTS)
    )
    universe = (
        *base.universe,
        ("big turn indices", len(BIG_TURN_INDICES)),
        ("seed characters", len(SEED_TEXT_FIELDS) * len(coverage.MARKER_CHARS)),
        ("markers kept byte for byte", len(UNTOUCHED_MARKERS) + len(FALSY_TEXTS)),
    )
    return Plan(base.cases + cases + texts + untouched, universe)
