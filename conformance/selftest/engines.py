"""Every deliberately broken engine, with the requirement ids that must fail on it.

Each engine is a ``reference.serve.ProtocolHandler`` subclass with one defect; its
class is its factory, so ``conformance.selftest.engines:<ClassName>`` plugs it into
``python -m conformance --engine-python``. ``BROKEN`` maps a short name to a
:class:`BrokenEngine`; the self-test proves every id in ``catches`` fails on it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from conformance.selftest.mutants.algebra import FlippedProductSign
from conformance.selftest.mutants.cognition import (
    NowIsCorrection,
    RecallNeverFromVault,
    SubjectFromLastSlot,
)
from conformance.selftest.mutants.combined import (
    CrashAndSurfaceSeeded,
    CrashesWithoutKnownWord,
    FourDefects,
    TerseHashSlip,
)
from conformance.selftest.mutants.loader import (
    BrokenUserPackFallsBack,
    BucketBoundOffByOne,
    DepthBoundLoose,
    EmptyNonNullRatified,
    IdNotChecked,
    MarkerBoundOffByOne,
    MismatchUnchecked,
    NotFoundCodeWrong,
    NullPackRefused,
    RatifyNotIdempotent,
    SchemaUnchecked,
    SealUnchecked,
    ShippedPacksFirst,
    TamperNotDetected,
    UnknownKeyAccepted,
    UnratifiedLoads,
    WrongMissingFieldCode,
)
from conformance.selftest.mutants.overrides import (
    FlatBeatsPerIntent,
    LenientResolve,
    NoClamp,
    PerIntentIgnored,
    UnknownIntentAccepted,
)
from conformance.selftest.mutants.protocol import (
    BadHello,
    BatchReordered,
    BomStripped,
    BoolTurnIndexAccepted,
    ChatShapeWrong,
    EnvelopeFieldOmitted,
    FileValuesUnchecked,
    FirstDuplicateWins,
    InvalidUtf8Replaced,
    LanguageKeyRenamed,
    LoneSurrogatesRepaired,
    NanAccepted,
    NestedBatchSkipped,
    RepairFlagCoerced,
    ShutdownFails,
    UnclaimedOpsServed,
    UnknownOpOk,
    UnreachableLemma,
)
from conformance.selftest.mutants.refusals import (
    BoolDepthAccepted,
    LongestIdRefused,
    MarkersCoercedToStrings,
    MissingFieldMessageVague,
    NumericIdAccepted,
    PerIntentKeysOmitted,
    PerIntentShapeUnchecked,
    ReportKeyRenamed,
    ReportSelfSealUnchecked,
    SchemaErrorWithoutField,
    TransitionsRequired,
    UnicodeIdAccepted,
    UnknownFieldDropped,
)
from conformance.selftest.mutants.registers import (
    DepthIgnoredInChat,
    DriftingField,
    NeutralDecorates,
    RegisterInTraceHash,
    RegisterPerturbsCondition,
    ReplayLeak,
    TerseChangesGrounding,
    TerseNotShorter,
    UnregisteredDecorates,
    UserPacksUndecorated,
)
from conformance.selftest.mutants.variation import (
    BiasedSelector,
    BucketNameIgnored,
    DecorationMemoized,
    LittleEndianSeed,
    SpaceBeforeClosing,
    SurfaceSeeded,
    TransitionsConsumed,
    TurnIndexFrozen,
    VariantIdWithoutBar,
)
from reference.serve import ProtocolHandler


@dataclass(frozen=True)
class BrokenEngine:
    """One broken engine: its factory, the ids that must fail on it, and its defect."""

    name: str
    factory: Callable[[], ProtocolHandler]
    catches: tuple[str, ...]
    description: str

    @property
    def spec(self) -> str:
        """The ``module:factory`` spec that plugs this engine in by name."""
        return f"{self.factory.__module__}:{self.factory.__name__}"


def _broken(name: str, factory: Callable[[], ProtocolHandler], *catches: str) -> BrokenEngine:
    description = (factory.__doc__ or "").strip().splitlines()[0]
    return BrokenEngine(name, factory, catches, description)


_TABLE = (
    _broken(
        "little_endian_seed", LittleEndianSeed, "VAR-SELECT-001", "VAR-SELECT-002", "VAR-CHAT-002"
    ),
    _broken("surface_seeded", SurfaceSeeded, "VAR-CHAT-001"),
    _broken(
        "bucket_name_ignored", BucketNameIgnored, "VAR-SELECT-001", "VAR-SELECT-003", "VAR-UNIF-002"
    ),
    _broken("biased_selector", BiasedSelector, "VAR-UNIF-001"),
    _broken("turn_index_frozen", TurnIndexFrozen, "VAR-CHAT-001"),
    _broken("decoration_memoized", DecorationMemoized, "VAR-CHAT-001", "REG-TURN-001"),
    _broken("variant_id_wrong", VariantIdWithoutBar, "VAR-DECOR-001", "VAR-DECOR-002"),
    _broken("space_before_closing", SpaceBeforeClosing, "VAR-DECOR-001", "VAR-CHAT-001"),
    _broken("transitions_consumed", TransitionsConsumed, "REG-TRANS-001"),
    _broken("per_intent_ignored", PerIntentIgnored, "OVR-RESOLVE-001", "OVR-CHAT-001"),
    _broken("flat_beats_per_intent", FlatBeatsPerIntent, "OVR-RESOLVE-001"),
    _broken("no_clamp", NoClamp, "OVR-RESOLVE-002"),
    _broken("unknown_intent_accepted", UnknownIntentAccepted, "OVR-GATE-001"),
    _broken("lenient_resolve", LenientResolve, "PROTO-ERROR-002"),
    _broken("register_in_trace_hash", RegisterInTraceHash, "REG-INV-003", "VAR-CHAT-001"),
    _broken("terse_changes_grounding", TerseChangesGrounding, "REG-INV-004"),
    _broken("register_perturbs_condition", RegisterPerturbsCondition, "REG-INV-005"),
    _broken("neutral_decorates", NeutralDecorates, "REG-INV-002"),
    _broken("unregistered_decorates", UnregisteredDecorates, "REG-INV-001", "REG-INV-002"),
    _broken("user_packs_undecorated", UserPacksUndecorated, "VAR-CHAT-002"),
    _broken("replay_leak", ReplayLeak, "REG-REPLAY-001"),
    _broken("terse_not_shorter", TerseNotShorter, "REG-TERSE-001"),
    _broken("depth_ignored_in_chat", DepthIgnoredInChat, "OVR-CHAT-002", "REG-TERSE-001"),
    _broken("drifting_field", DriftingField, "REG-CLOSE-001"),
    _broken("unreachable_lemma", UnreachableLemma, "LEX-REACH-001"),
    _broken("marker_bound_off_by_one", MarkerBoundOffByOne, "LOAD-BOUND-001"),
    _broken("bucket_bound_off_by_one", BucketBoundOffByOne, "LOAD-BOUND-002"),
    _broken("depth_bound_loose", DepthBoundLoose, "LOAD-BOUND-003"),
    _broken("null_pack_refused", NullPackRefused, "LOAD-VALID-001"),
    _broken("tamper_not_detected", TamperNotDetected, "LOAD-TAMPER-001"),
    _broken("seal_unchecked", SealUnchecked, "LOAD-SEAL-002"),
    _broken("unratified_loads", UnratifiedLoads, "LOAD-SEAL-001"),
    _broken("wrong_missing_field_code", WrongMissingFieldCode, "LOAD-FIELD-001"),
    _broken("id_not_checked", IdNotChecked, "LOAD-ID-001"),
    _broken("mismatch_unchecked", MismatchUnchecked, "LOAD-ID-002"),
    _broken("schema_unchecked", SchemaUnchecked, "LOAD-SCHEMA-001"),
    _broken("unknown_key_accepted", UnknownKeyAccepted, "LOAD-KEY-001"),
    _broken("ratify_not_idempotent", RatifyNotIdempotent, "LOAD-RATIFY-001"),
    _broken("empty_non_null_ratified", EmptyNonNullRatified, "LOAD-RATIFY-001"),
    _broken("not_found_code_wrong", NotFoundCodeWrong, "LOAD-FOUND-001"),
    _broken("batch_reordered", BatchReordered, "PROTO-BATCH-001"),
    _broken("unknown_op_ok", UnknownOpOk, "PROTO-ERROR-001"),
    _broken("bad_hello", BadHello, "PROTO-HELLO-001"),
    _broken("language_key_renamed", LanguageKeyRenamed, "PROTO-HELLO-001"),
    _broken("chat_shape_wrong", ChatShapeWrong, "PROTO-CHAT-001"),
    _broken(
        "flipped_product_sign",
        FlippedProductSign,
        "ALG-TABLE-001",
        "ALG-PROD-001",
        "ALG-LAW-001",
        "ALG-LAW-002",
        "ALG-ROTOR-001",
        "ALG-CLOSE-001",
    ),
    _broken("schema_error_without_field", SchemaErrorWithoutField, "LOAD-SCHEMA-001"),
    _broken("missing_field_message_vague", MissingFieldMessageVague, "LOAD-FIELD-001"),
    _broken("markers_coerced_to_strings", MarkersCoercedToStrings, "LOAD-TYPE-001"),
    _broken("numeric_id_accepted", NumericIdAccepted, "LOAD-TYPE-001"),
    _broken("unknown_field_dropped", UnknownFieldDropped, "LOAD-FIELD-002"),
    _broken("transitions_required", TransitionsRequired, "LOAD-VALID-002"),
    _broken("longest_id_refused", LongestIdRefused, "LOAD-VALID-002"),
    _broken("unicode_id_accepted", UnicodeIdAccepted, "LOAD-ID-001"),
    _broken("bool_depth_accepted", BoolDepthAccepted, "LOAD-BOUND-003"),
    _broken("report_key_renamed", ReportKeyRenamed, "LOAD-RATIFY-002"),
    _broken("per_intent_keys_omitted", PerIntentKeysOmitted, "LOAD-RATIFY-002"),
    _broken("report_self_seal_unchecked", ReportSelfSealUnchecked, "LOAD-SEAL-003"),
    _broken("envelope_field_omitted", EnvelopeFieldOmitted, "PROTO-ENVELOPE-001"),
    _broken("bool_turn_index_accepted", BoolTurnIndexAccepted, "PROTO-ARGS-001"),
    _broken("nested_batch_skipped", NestedBatchSkipped, "PROTO-BATCH-002"),
    _broken("file_values_unchecked", FileValuesUnchecked, "PROTO-ARGS-001"),
    _broken("per_intent_shape_unchecked", PerIntentShapeUnchecked, "LOAD-SHAPE-001"),
    _broken("repair_flag_coerced", RepairFlagCoerced, "PROTO-ARGS-002"),
    _broken("bom_stripped", BomStripped, "PROTO-FRAME-001"),
    _broken("invalid_utf8_replaced", InvalidUtf8Replaced, "PROTO-FRAME-001"),
    _broken("nan_accepted", NanAccepted, "PROTO-JSON-001"),
    _broken("first_duplicate_wins", FirstDuplicateWins, "PROTO-JSON-001"),
    _broken("lone_surrogates_repaired", LoneSurrogatesRepaired, "PROTO-JSON-002"),
    _broken("unclaimed_ops_served", UnclaimedOpsServed, "PROTO-CAPS-001"),
    _broken("shutdown_fails", ShutdownFails, "PROTO-EOF-001"),
    _broken("shipped_packs_first", ShippedPacksFirst, "LOAD-SEARCH-001"),
    _broken("broken_user_pack_falls_back", BrokenUserPackFallsBack, "LOAD-SEARCH-001"),
    _broken("now_is_correction", NowIsCorrection, "COG-INTENT-001"),
    _broken("recall_never_from_vault", RecallNeverFromVault, "COG-GROUND-001"),
    _broken("subject_from_last_slot", SubjectFromLastSlot, "COG-SUBJECT-001"),
    _broken("crashes_without_known_word", CrashesWithoutKnownWord, "PROTO-CHAT-001"),
    _broken("terse_hash_slip", TerseHashSlip, "REG-INV-003"),
    _broken("crash_and_surface_seeded", CrashAndSurfaceSeeded, "PROTO-CHAT-001", "VAR-CHAT-001"),
    _broken(
        "four_defects",
        FourDefects,
        "PROTO-CHAT-001",
        "VAR-CHAT-001",
        "REG-INV-003",
        "OVR-RESOLVE-001",
        "OVR-CHAT-001",
    ),
)

SEMANTIC_CHAT = ("LEX-", "OVR-CHAT-", "REG-", "VAR-CHAT-")
"""Prefixes of the requirements that chat answerable prompts only (never arbitrary text)."""

COMBINED = ("crash_and_surface_seeded", "four_defects")
"""Engines with several independent defects, each caught in one certify run."""

BROKEN: dict[str, BrokenEngine] = {engine.name: engine for engine in _TABLE}
