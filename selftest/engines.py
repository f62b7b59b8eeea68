"""Every deliberately broken engine, with the requirement ids that must fail on it.

Each engine is a ``reference.serve.ProtocolHandler`` subclass with one defect; its
class is its factory, so ``selftest.engines:<ClassName>`` plugs it into
``python -m conformance --engine-python``. ``BROKEN`` maps a short name to a
:class:`BrokenEngine`; the self-test proves every id in ``catches`` fails on it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from reference.serve import ProtocolHandler
from selftest.mutants.algebra import (
    AbsoluteSimplicityTolerance,
    BoundsExclusive,
    ConditionEvenGradesOnly,
    ConditionFromScalarPart,
    EvenProductFastPath,
    FlippedProductSign,
    GradeBoundLoose,
    SandwichKeepsGradeOfX,
    SandwichReversed,
    SimplicityByLargestPart,
    SinglePlaneElliptic,
    StrayPartTolerated,
    TinyProductsFlushed,
)
from selftest.mutants.answers import (
    CauseStepOverPath,
    CauseStepSortedLast,
    CheckedSlotAOnly,
    ClaimKeepsNotC,
    ClaimSplitAtLastCopula,
    ComparedOverAllDomains,
    EarlierCountsQuoted,
    ExampleKindOfSomethingElse,
    FormOfReadInto,
    ListsRunTogether,
    NarrativeTellsKindsFirst,
    NegationFromFirstWord,
    NegationIgnoredByGloss,
    NoIsNoNegation,
    NothingSaidRefused,
    QuestionBangNotQuestion,
    RecallClaimInTurnOrder,
    RecallCutBeforeClaimFirst,
    RecallLemmasByOldestSaid,
    RecallNothingSaidSwapped,
    RecallOldestFirst,
    RecallPackFirst,
    RecallTurnsFromZero,
    SaidCutInUtf16Units,
    SharedBeyondSecondsThird,
    SpansToDisclosureDepth,
    StepKindBothWays,
    StepsCutByRegister,
    SurfaceNamesFirstUnknownOnly,
    SurfaceStepLetterDoubled,
    SurfaceStepsSwapped,
    SurfaceTurnsFromZero,
    SurfaceUnknownUnnamed,
    SurfaceYesWhenDecided,
    TagInCheckedStatement,
    TeachingStepsInFileOrder,
    TransitiveWayReversed,
    UnsaidSubjectDefined,
    WholeRecallLatestTurnsOnly,
)
from selftest.mutants.audit46 import (
    DecorationJoinsNonEmptyParts,
    DecorationTrimmed,
    HtmlEscapedWire,
    KeysSortedIgnoringCase,
    PrefixKeysUnordered,
    ProposalExponentAsInteger,
    SealHtmlEscaped,
    ShipsPathFromMemoryToLight,
    SignedSeedInteger,
    StructOrderedResults,
)
from selftest.mutants.audit47 import (
    BucketCountsNonEmptyMarkers,
    DigestsComparedAsHexValues,
    ExponentLiteralsAreIntegers,
    GateMalformedBesideReportTampered,
    MarkerLengthAfterNfc,
    MarkerLengthInClusters,
    PackMemberFirstOccurrence,
    PackMemberTwiceRefused,
    SourceHashOfFileObject,
    TamperedOnlyBesideReadableReport,
)
from selftest.mutants.batch_alone import (
    BatchElementArgsNullAsAbsent,
    BatchElementNumbersAsDoubles,
)
from selftest.mutants.beside_report import (
    BesideReportMissingFieldTampered,
    BesideReportUnknownNamesTampered,
)
from selftest.mutants.bounds import (
    BracketsCountedAsLevels,
    DecorateTurnIndexUnsigned,
    DeepLineInternal,
    DepthPerBatchElement,
    DoubleBoundAt1e308,
    DoubleBoundExact,
    HyperbolicBandAbsolute,
    IdDigitsUnchecked,
    LettersInUtf8Bytes,
    LettersInUtf16Units,
    LooseSimplicityBound,
    MinusCountedAsDigit,
    NarrowNullBand,
    ObjectsNotNested,
    OneSidedAlgebraBounds,
    PackMinusCounted,
    PackReadUnguarded,
    RequestNotALevel,
    TwoLetterWordsMended,
    WideNullBand,
)
from selftest.mutants.check_order import (
    DeletesBeforePuts,
    LastBadMutationNamed,
    MissingArgsLastFirst,
    MissingBeforeUnknown,
    MissingFieldsSorted,
    MutationsBeforeStore,
    NullRuleFirst,
    RegisterBeforeFiles,
    RotorBivectorFirst,
    SealBeforeStructure,
    SealTypeLast,
    SessionBeforeMissingText,
    SessionBeforeText,
    ShapesBeforeRecords,
    SoakOpensFirst,
    StoreBeforeProposal,
)
from selftest.mutants.clauses import CLAUSE_MUTANTS
from selftest.mutants.cognition import (
    CompatibilityNormalised,
    FirstClaimKept,
    NowIsCorrection,
    RecallNeverFromVault,
    RecallOfAnyKnownLemmaFromVault,
    SubjectFromLastSlot,
    TeachingOneWay,
    TypographicApostropheKept,
    VerdictDropped,
)
from selftest.mutants.combined import (
    CrashAndSurfaceSeeded,
    CrashesWithoutKnownWord,
    FourDefects,
    TerseHashSlip,
)
from selftest.mutants.conditions import CONDITION_MUTANTS
from selftest.mutants.diff47 import JavaScriptTrimmed, PythonSpaceStripped
from selftest.mutants.disk_names import FoldedJournalName, FoldedMutationOp
from selftest.mutants.duplicates import DuplicateArgumentRefused, FirstDuplicateWinsBelowTop
from selftest.mutants.earlier_count import EarlierCountInEightBits
from selftest.mutants.edges import EDGE_MUTANTS, SAYS_MUTANTS
from selftest.mutants.enumerations import dropped, swapped
from selftest.mutants.folding import folded_any_undoubled, folded_loose
from selftest.mutants.fork_framing import ForkChildReadsText
from selftest.mutants.function_words import missing_function_word
from selftest.mutants.gate_bounds import RatifyFileTrimsMarkers, RatifyTrimsMarkers
from selftest.mutants.in_place import (
    InPlacePackLeftAsGiven,
    InPlaceSealedLeftAlone,
    InPlaceSealNotSet,
)
from selftest.mutants.lists42 import (
    EveryClaimFirst,
    PathTriedBackwardFirst,
    RecallOrderedByLastNamed,
    ShorterWayWins,
)
from selftest.mutants.loader import (
    BrokenUserPackFallsBack,
    BucketBoundOffByOne,
    DepthBoundLoose,
    EmptyNonNullRatified,
    GateRefusalWithoutField,
    IdNotChecked,
    MarkerBoundOffByOne,
    MismatchUnchecked,
    NotFoundCodeWrong,
    NotFoundWithoutField,
    NotRatifiedWithoutField,
    NullPackRefused,
    OverridesDefaulted,
    PackFormBomDropped,
    PackFormLineEnds,
    RatifyNotIdempotent,
    RatifyPairInTwoSteps,
    RatifyPathsUnchecked,
    RatifyWriteMiscoded,
    RatifyWriteWithoutField,
    RenamedPackNotNamed,
    ReportFormByValue,
    ReportFormTrimmed,
    ReportRefusalsWithoutField,
    ReportWithoutSealRatified,
    SchemaUnchecked,
    SealMismatchWithoutField,
    SealUnchecked,
    SentinelIdLoadsSentinel,
    SessionShippedPacksFirst,
    ShippedPacksFirst,
    TamperedWithoutField,
    TamperNotDetected,
    UnknownKeyAccepted,
    UnratifiedLoads,
    UnreadableRatifiedPackMalformed,
    UnreadableReportMalformed,
    UnverifiableSealAccepted,
    VerdictUnchecked,
    WhitespaceEditMalformed,
    WrongMissingFieldCode,
)
from selftest.mutants.loose import FalsyIdRefused, FalsyOpeningDropped, NumericIdsEqual
from selftest.mutants.member_order import (
    EvidenceKeysInArrivalOrder,
    UnknownIntentInArrivalOrder,
)
from selftest.mutants.mut41 import (
    KindOutIgnored,
    LastTwoKnownSubjects,
    NegationFromThirdWord,
    PathSearchStopsAtVisited,
    StartFromAnyKnownLemma,
    UnknownNamedWhateverGrounds,
)
from selftest.mutants.mut42 import AbbreviationAfterAnySeparator, AbbreviationStopEndsScan
from selftest.mutants.names import (
    ContractionOfConstructor,
    FirstTurnZeroForgotten,
    InheritedOpFound,
    IntentByAttribute,
    UnknownNamesInObjectKeyOrder,
)
from selftest.mutants.node42 import AsciiWordBoundaries, SlotNoiseJoins
from selftest.mutants.null_rule import (
    NullRuleCountsTransitions,
    NullRuleEmptyMarkersCountAsNone,
    NullRuleEmptyPerIntentIsNull,
    NullRuleRefusesOnlyTerse,
)
from selftest.mutants.open_loader import SessionOpenMalformedBeside, SessionOpenSkipsSeal
from selftest.mutants.order_pairs import (
    Order2ContentBeforeStem,
    Order2ExistsBeforeSuffix,
    Order2FileBeforeId,
    Order2UnknownNamesAsSent,
)
from selftest.mutants.overrides import (
    EntryNotObjectPresent,
    EntryWithoutDepthPresent,
    FlatBeatsPerIntent,
    LenientResolve,
    NoClamp,
    PerIntentIgnored,
    ResolveValidatesKeys,
    UnknownIntentAccepted,
)
from selftest.mutants.pack_bytes import (
    PackBytesReplaced,
    PackEncodingDetected,
    ReportNotObjectUnratified,
)
from selftest.mutants.pack_says import (
    DepthOnlyInPackSurface,
    GlossFlagAlwaysSet,
    GlossJoinedToNextWord,
    GlossVerdictWithoutGloss,
    NarrativeStepsWithoutDomains,
    OovWordedAsRefusal,
    ProcedureVerbNotNamed,
    RecallSaysLatestClaimOnly,
    RecallTellsEveryDomain,
    TeachingVerdictWithoutStep,
    VerdictAboutSecondSubject,
)
from selftest.mutants.plain_reader import (
    OpenPackBomDropped,
    OpenPlainReader,
    OpenSealBeforeStructure,
    OpenSealCaseFolded,
    RatifyPlainReader,
)
from selftest.mutants.porting import (
    ArgsSortedUtf16,
    CaseFoldedId,
    ChatTurnsFromOne,
    ControlCharactersInStrings,
    ConvivialClosingsReordered,
    ConvivialHyphen,
    ConvivialShallow,
    ConvivialTransitions,
    DecorateIndexCoerced,
    DepthNarrowedToByte,
    EmptyRegisterUnregistered,
    ExponentIntegers,
    FalsyExpectedIdSkipped,
    IdEchoedAsDouble,
    IntentNamesFolded,
    LenientBase64,
    LineBuffer64K,
    LooseNumberLiterals,
    MarkerLengthUtf16,
    NeutralLabelledTerse,
    SealAsciiEscaped,
    SealSeparatorsEscaped,
    SeedInCesu8,
    SemverSchemaVersion,
    SolidusEscapeDropped,
    StringIdTrimmed,
    TerseDepthTwo,
    TurnIndexAsDouble,
    UnknownIntentForgotten,
    UnknownNamesSortedUtf16,
    UpperCaseEscapes,
    UpperHexDigests,
    UpperHexVariantId,
    VersionMustBeSemver,
)
from selftest.mutants.primed import PRIMED_MUTANTS
from selftest.mutants.protocol import (
    ArgsNullAsAbsent,
    AsciiEscapedWire,
    BackslashFileNameAccepted,
    BadHello,
    BatchReordered,
    BomStripped,
    BoolTurnIndexAccepted,
    C1ControlFileNameAccepted,
    ChatShapeWrong,
    DeltaClaimedWithoutLife,
    EmptyFieldLeftOut,
    EmptyStructuralMessage,
    EnvelopeFieldOmitted,
    FileValuesUnchecked,
    FirstDuplicateWins,
    FirstFileNameOnlyChecked,
    ForkAbstractSocketAccepted,
    ForkInParentsGroup,
    ForkKeepsParentStdio,
    ForkNulAtEndsOnly,
    ForkNulLeadingOnly,
    ForkRefusalWithoutField,
    IdNumbersUnguarded,
    InvalidUtf8Replaced,
    JournalNameWithoutField,
    JournalTakesNonJson,
    LanguageKeyRenamed,
    LexiconByPack,
    LoneSurrogatesRepaired,
    MarkersRefusedWithoutField,
    MessageSpansLines,
    NanAccepted,
    NestedBatchNeedsValidEnvelope,
    NestedBatchSkipped,
    OpenAlwaysAnswersTurnIdx,
    OverridesNotObjectWithoutField,
    RepairByDefault,
    RepairFlagCoerced,
    SaysWithoutAnswersClaim,
    SessionFileNamesUnchecked,
    SessionFilesLenient,
    SessionIdsRepeat,
    ShutdownFails,
    SpaceAsIsspace,
    SpaceInFileNameRefused,
    StateDirNulLeadingOnly,
    StateDirNulPaddingStripped,
    StrykerStagedFilesKept,
    StrykerUnwritableFileLeftOut,
    UnclaimedOpsServed,
    UnknownOpOk,
    UnknownSessionAsBadArgs,
    UnreachableLemma,
    Utf16KeyOrderWire,
)
from selftest.mutants.quoting import (
    BareRelativeDirAccepted,
    BreaksDropped,
    ControlsKeptRaw,
    CrLfTwoSpaces,
    CutEarly,
    CutHalfReplaced,
    CutInUtf16Units,
    DropsQuotedPath,
    FieldFolded,
    FoldsOnlyNewline,
    NulPathNotFound,
    OsErrorDropped,
    RelativeDirAccepted,
)
from selftest.mutants.ratify_hidden import (
    RatifyPendingDiscarded,
    RatifyPendingLinkFollowed,
    RatifyPendingLinksRolled,
    RatifyPendingPartlyRolled,
    RatifyPendingReportLinkRolled,
    RatifyPendingWithoutField,
    RatifyStagingElsePending,
    RatifyStagingFileKept,
    RatifyStagingLinkFollowed,
    RatifyStagingRemovedBeforeRefusal,
)
from selftest.mutants.ratify_modes import (
    RatifyModesReset,
    RatifyNewReportUmasked,
    RatifyReportTakesPackMode,
)
from selftest.mutants.ratify_order import PackRolledFirst, StagingUnsynced
from selftest.mutants.referring import REFERRING_MUTANTS
from selftest.mutants.refusals import (
    BoolDepthAccepted,
    IdTrailingNewlineAccepted,
    IdTrimmed,
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
from selftest.mutants.refused_pair import RatifyGateAfterWrite, RatifyRefusalDropsOldReport
from selftest.mutants.registers import (
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
from selftest.mutants.report_order import RegisterIdBeforeReportForm, VerdictBeforeRegisterId
from selftest.mutants.reserved import (
    BucketNamesNfkc,
    DepthTrimmed,
    ExpectedIdCaseFolded,
    IntentCaseFolded,
    LookalikeIdRefused,
    LookalikeReportedAsSentinel,
    MutationNamesLoosened,
    NullStringOpensBare,
    OpNamesCaseFolded,
    SentinelIdInvalid,
    SentinelIdLoadable,
    SentinelIdOpensBare,
    SentinelStemRefused,
)
from selftest.mutants.sections import (
    DecorateIdValidated,
    LatestPackWins,
    MissingOpeningsDefaulted,
    PackCachedById,
    RatifyScratchLeft,
    SealCheckedAtRatify,
)
from selftest.mutants.session_context import SESSION_CONTEXT_MUTANTS
from selftest.mutants.sessions import (
    BatchStopsAtFailure,
    FilesWithoutLoad,
    NonObjectElementInternal,
    RuntimePerRegister,
    SessionIdsByCount,
    StoreWithoutLife,
    TurnIndexFromWindow,
)
from selftest.mutants.stages import STAGE_MUTANTS
from selftest.mutants.staging import (
    RatifyReadsBeforeRollForward,
    RatifyScratchKeptOnRefusal,
    RatifyScratchLeftInShm,
    SessionStagingKept,
    StagingKeptOnRefusal,
)
from selftest.mutants.subchecks import (
    IntentKeysAsGiven,
    OnePassArgNames,
    OnePassArgsInOrder,
    OnePassBuckets,
    OnePassFields,
    OnePassIntentKeys,
    OnePassIntents,
    OnePassOverrides,
    OnePassRequiredFields,
    SubchecksAcrossBuckets,
    SubchecksAcrossIntents,
)
from selftest.mutants.types import (
    BoolAsInteger,
    NullAsAbsent,
    NumericStringCoerced,
    PackNullAsAbsent,
    PackWholeFloatCount,
    TruthyVerdict,
    WholeFloatAsInteger,
)
from selftest.mutants.unknown_named import UNKNOWN_NAMED_MUTANTS
from selftest.mutants.variation import (
    BiasedSelector,
    BucketNameIgnored,
    DecorationMemoized,
    EntryNormalised,
    LittleEndianSeed,
    OpeningTrimmedBeforeJoin,
    SpaceBeforeClosing,
    SurfaceSeeded,
    TransitionsConsumed,
    TurnIndexFrozen,
    VariantIdOfNfc,
    VariantIdWithoutBar,
)
from selftest.mutants.written import (
    BucketSizesSwapped,
    DisplayNameFromId,
    OverrideKeysFromPerIntent,
    ReportVersionFromSchema,
)
from selftest.mutants.written_subject import WRITTEN_SUBJECT_MUTANTS


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


def broken_engine(name: str, factory: Callable[[], ProtocolHandler], *catches: str) -> BrokenEngine:
    """The table entry of *factory*: its defect is the first line of its docstring."""
    description = (factory.__doc__ or "").strip().splitlines()[0]
    return BrokenEngine(name, factory, catches, description)


FunctionWordMissingWhom = missing_function_word("whom")
FunctionWordMissingNever = missing_function_word("never")
SemicolonEndsNoSentence = dropped("end mark ;")
AbbreviationEgDropped = dropped("abbreviation e.g")
BeliefReckonDropped = dropped("belief verb reckon")
TypoBetweenDropped = swapped("typo between")
ContractionWontDropped = swapped("contraction won't")
WrapperKindlyDropped = swapped("wrapper anywhere kindly")
CueAnalogyDropped = swapped("cue C-02 analogy")
GluedFullStopEndsSentence = swapped("end mark . glued")

_TABLE = (
    broken_engine("inherited_op_found", InheritedOpFound, "PROTO-NAMES-001"),
    broken_engine("intent_by_attribute", IntentByAttribute, "PROTO-NAMES-001"),
    broken_engine(
        "unknown_names_in_object_key_order",
        UnknownNamesInObjectKeyOrder,
        "LOAD-FIELD-002",
        "LOAD-SHAPE-001",
    ),
    broken_engine("contraction_of_constructor", ContractionOfConstructor, "COG-META-002"),
    broken_engine("first_turn_zero_forgotten", FirstTurnZeroForgotten, "STATE-FORMAT-001"),
    broken_engine("evidence_keys_in_arrival_order", EvidenceKeysInArrivalOrder, "PROTO-ORDER-006"),
    broken_engine(
        "unknown_intent_in_arrival_order", UnknownIntentInArrivalOrder, "PROTO-ORDER-006"
    ),
    broken_engine("folds_only_newline", FoldsOnlyNewline, "PROTO-QUOTE-001"),
    broken_engine("crlf_two_spaces", CrLfTwoSpaces, "PROTO-QUOTE-001"),
    broken_engine("drops_quoted_path", DropsQuotedPath, "PROTO-QUOTE-001"),
    broken_engine("breaks_dropped", BreaksDropped, "PROTO-QUOTE-001"),
    broken_engine("os_error_dropped", OsErrorDropped, "PROTO-QUOTE-001"),
    broken_engine("field_folded", FieldFolded, "PROTO-QUOTE-001"),
    broken_engine("controls_kept_raw", ControlsKeptRaw, "PROTO-QUOTE-002"),
    broken_engine("cut_in_utf16_units", CutInUtf16Units, "PROTO-QUOTE-002"),
    broken_engine("cut_half_replaced", CutHalfReplaced, "PROTO-QUOTE-002"),
    broken_engine("cut_early", CutEarly, "PROTO-QUOTE-002"),
    broken_engine("nul_path_not_found", NulPathNotFound, "PROTO-PATH-001"),
    broken_engine("relative_dir_accepted", RelativeDirAccepted, "PROTO-PATH-002"),
    broken_engine("bare_relative_dir_accepted", BareRelativeDirAccepted, "PROTO-PATH-002"),
    broken_engine("sentinel_id_loadable", SentinelIdLoadable, "REG-RESERVED-001"),
    broken_engine("sentinel_id_opens_bare", SentinelIdOpensBare, "REG-RESERVED-001"),
    broken_engine("sentinel_id_invalid", SentinelIdInvalid, "REG-RESERVED-001"),
    broken_engine("sentinel_stem_refused", SentinelStemRefused, "REG-RESERVED-002"),
    broken_engine("null_string_opens_bare", NullStringOpensBare, "REG-RESERVED-001"),
    broken_engine("lookalike_id_refused", LookalikeIdRefused, "REG-RESERVED-001"),
    broken_engine("expected_id_case_folded", ExpectedIdCaseFolded, "REG-RESERVED-001"),
    broken_engine(
        "lookalike_reported_as_sentinel", LookalikeReportedAsSentinel, "REG-RESERVED-001"
    ),
    broken_engine("intent_case_folded", IntentCaseFolded, "PROTO-RESERVED-001"),
    broken_engine("depth_trimmed", DepthTrimmed, "PROTO-RESERVED-001"),
    broken_engine("bucket_names_nfkc", BucketNamesNfkc, "PROTO-RESERVED-001"),
    broken_engine("op_names_case_folded", OpNamesCaseFolded, "PROTO-RESERVED-001"),
    broken_engine("mutation_names_loosened", MutationNamesLoosened, "STATE-RESERVED-001"),
    broken_engine("ies_on_any_ending", folded_loose("W-IES"), "LEX-FOLD-001"),
    broken_engine("s_on_any_ending", folded_loose("W-S"), "LEX-FOLD-001"),
    broken_engine("ing_undoubles_any_letter", folded_any_undoubled(), "LEX-FOLD-001"),
    broken_engine(
        "little_endian_seed", LittleEndianSeed, "VAR-SELECT-001", "VAR-SELECT-002", "VAR-CHAT-002"
    ),
    broken_engine("surface_seeded", SurfaceSeeded, "VAR-CHAT-001"),
    broken_engine(
        "bucket_name_ignored", BucketNameIgnored, "VAR-SELECT-001", "VAR-SELECT-003", "VAR-UNIF-002"
    ),
    broken_engine("biased_selector", BiasedSelector, "VAR-UNIF-001"),
    broken_engine("entry_normalised", EntryNormalised, "VAR-SELECT-001"),
    broken_engine("turn_index_frozen", TurnIndexFrozen, "VAR-CHAT-001"),
    broken_engine("decoration_memoized", DecorationMemoized, "VAR-CHAT-001", "REG-TURN-001"),
    broken_engine("variant_id_wrong", VariantIdWithoutBar, "VAR-DECOR-001", "VAR-DECOR-002"),
    broken_engine("space_before_closing", SpaceBeforeClosing, "VAR-DECOR-001", "VAR-CHAT-001"),
    broken_engine("opening_trimmed_before_join", OpeningTrimmedBeforeJoin, "VAR-DECOR-001"),
    broken_engine("variant_id_of_nfc", VariantIdOfNfc, "VAR-DECOR-001"),
    broken_engine("transitions_consumed", TransitionsConsumed, "REG-TRANS-001"),
    broken_engine("per_intent_ignored", PerIntentIgnored, "OVR-RESOLVE-001", "OVR-CHAT-001"),
    broken_engine("flat_beats_per_intent", FlatBeatsPerIntent, "OVR-RESOLVE-001"),
    broken_engine("no_clamp", NoClamp, "OVR-RESOLVE-002"),
    broken_engine("entry_without_depth_present", EntryWithoutDepthPresent, "OVR-RESOLVE-001"),
    broken_engine("entry_not_object_present", EntryNotObjectPresent, "OVR-RESOLVE-001"),
    broken_engine("unknown_intent_accepted", UnknownIntentAccepted, "OVR-GATE-001"),
    broken_engine("lenient_resolve", LenientResolve, "PROTO-ERROR-002"),
    broken_engine("register_in_trace_hash", RegisterInTraceHash, "REG-INV-003", "VAR-CHAT-001"),
    broken_engine("terse_changes_grounding", TerseChangesGrounding, "REG-INV-004"),
    broken_engine("register_perturbs_condition", RegisterPerturbsCondition, "REG-INV-005"),
    broken_engine("neutral_decorates", NeutralDecorates, "REG-INV-002"),
    broken_engine("unregistered_decorates", UnregisteredDecorates, "REG-INV-001", "REG-INV-002"),
    broken_engine("user_packs_undecorated", UserPacksUndecorated, "VAR-CHAT-002"),
    broken_engine("sections_pack_cached_by_id", PackCachedById, "REG-OPEN-401"),
    broken_engine("sections_latest_pack_wins", LatestPackWins, "REG-OPEN-401"),
    broken_engine("sections_openings_defaulted", MissingOpeningsDefaulted, "PROTO-ARGS-001"),
    broken_engine("sections_seal_checked_at_ratify", SealCheckedAtRatify, "LOAD-RATIFY-001"),
    broken_engine("sections_decorate_id_validated", DecorateIdValidated, "REG-RESERVED-001"),
    broken_engine("sections_ratify_scratch_left", RatifyScratchLeft, "LOAD-SCRATCH-401"),
    broken_engine("replay_leak", ReplayLeak, "REG-REPLAY-001"),
    broken_engine("terse_not_shorter", TerseNotShorter, "REG-TERSE-001"),
    broken_engine("depth_ignored_in_chat", DepthIgnoredInChat, "OVR-CHAT-002", "REG-TERSE-001"),
    broken_engine("drifting_field", DriftingField, "REG-CLOSE-001"),
    broken_engine("unreachable_lemma", UnreachableLemma, "LEX-REACH-001"),
    broken_engine("lexicon_by_pack", LexiconByPack, "LEX-SORTED-001"),
    broken_engine("marker_bound_off_by_one", MarkerBoundOffByOne, "LOAD-BOUND-001"),
    broken_engine("bucket_bound_off_by_one", BucketBoundOffByOne, "LOAD-BOUND-002"),
    broken_engine("overrides_defaulted", OverridesDefaulted, "LOAD-FIELD-001"),
    broken_engine("depth_bound_loose", DepthBoundLoose, "LOAD-BOUND-003"),
    broken_engine("null_pack_refused", NullPackRefused, "LOAD-VALID-001"),
    broken_engine("tamper_not_detected", TamperNotDetected, "LOAD-TAMPER-001"),
    broken_engine("seal_unchecked", SealUnchecked, "LOAD-SEAL-002"),
    broken_engine("unratified_loads", UnratifiedLoads, "LOAD-SEAL-001"),
    broken_engine("report_without_seal_ratified", ReportWithoutSealRatified, "LOAD-SEAL-004"),
    broken_engine("wrong_missing_field_code", WrongMissingFieldCode, "LOAD-FIELD-001"),
    broken_engine("id_not_checked", IdNotChecked, "LOAD-ID-001"),
    broken_engine("mismatch_unchecked", MismatchUnchecked, "LOAD-ID-002"),
    broken_engine("schema_unchecked", SchemaUnchecked, "LOAD-SCHEMA-001"),
    broken_engine("unknown_key_accepted", UnknownKeyAccepted, "LOAD-KEY-001"),
    broken_engine("ratify_not_idempotent", RatifyNotIdempotent, "LOAD-RATIFY-001"),
    broken_engine("ratify_pair_in_two_steps", RatifyPairInTwoSteps, "LOAD-COMMIT-001"),
    broken_engine("ratify_pack_rolled_first", PackRolledFirst, "LOAD-STEPS-001"),
    broken_engine("ratify_staging_unsynced", StagingUnsynced, "LOAD-STEPS-001"),
    broken_engine("empty_non_null_ratified", EmptyNonNullRatified, "LOAD-RATIFY-001"),
    broken_engine(
        "beside_report_missing_field_tampered", BesideReportMissingFieldTampered, "LOAD-BESIDE-001"
    ),
    broken_engine(
        "beside_report_unknown_names_tampered", BesideReportUnknownNamesTampered, "LOAD-BESIDE-001"
    ),
    broken_engine("first_duplicate_wins_below_top", FirstDuplicateWinsBelowTop, "PROTO-DUP-001"),
    broken_engine("duplicate_argument_refused", DuplicateArgumentRefused, "PROTO-DUP-001"),
    broken_engine("c1_control_file_name_accepted", C1ControlFileNameAccepted, "PROTO-FILES-001"),
    broken_engine("first_file_name_only_checked", FirstFileNameOnlyChecked, "PROTO-FILES-001"),
    broken_engine("session_file_names_unchecked", SessionFileNamesUnchecked, "PROTO-FILES-001"),
    broken_engine("ratify_gate_after_write", RatifyGateAfterWrite, "LOAD-RATIFY-102"),
    broken_engine(
        "ratify_refusal_drops_old_report", RatifyRefusalDropsOldReport, "LOAD-RATIFY-102"
    ),
    broken_engine("staging_kept_on_refusal", StagingKeptOnRefusal, "PROTO-FILES-503"),
    broken_engine("session_staging_kept", SessionStagingKept, "PROTO-FILES-503"),
    broken_engine("args_null_as_absent", ArgsNullAsAbsent, "PROTO-ENVELOPE-001", "PROTO-TYPE-001"),
    broken_engine(
        "nested_batch_needs_valid_envelope", NestedBatchNeedsValidEnvelope, "PROTO-BATCH-002"
    ),
    broken_engine("ratify_scratch_left_in_shm", RatifyScratchLeftInShm, "LOAD-SCRATCH-401"),
    broken_engine(
        "ratify_reads_before_roll_forward", RatifyReadsBeforeRollForward, "LOAD-HIDDEN-103"
    ),
    broken_engine("ratify_plain_reader", RatifyPlainReader, "LOAD-READ-101"),
    broken_engine("open_plain_reader", OpenPlainReader, "LOAD-READ-102"),
    broken_engine("open_seal_before_structure", OpenSealBeforeStructure, "LOAD-ORDER-002"),
    broken_engine("open_pack_bom_dropped", OpenPackBomDropped, "LOAD-FORM-481"),
    broken_engine("open_seal_case_folded", OpenSealCaseFolded, "LOAD-SEAL-471"),
    broken_engine(
        "batch_element_args_null_as_absent", BatchElementArgsNullAsAbsent, "PROTO-BATCH-004"
    ),
    broken_engine(
        "batch_element_numbers_as_doubles", BatchElementNumbersAsDoubles, "PROTO-BATCH-005"
    ),
    broken_engine("ratify_scratch_kept_on_refusal", RatifyScratchKeptOnRefusal, "LOAD-SCRATCH-402"),
    broken_engine("delta_claimed_without_life", DeltaClaimedWithoutLife, "PROTO-HELLO-001"),
    broken_engine("resolve_validates_keys", ResolveValidatesKeys, "OVR-RESOLVE-003"),
    broken_engine("in_place_pack_left_as_given", InPlacePackLeftAsGiven, "LOAD-INPLACE-001"),
    broken_engine("in_place_seal_not_set", InPlaceSealNotSet, "LOAD-INPLACE-001"),
    broken_engine("in_place_sealed_left_alone", InPlaceSealedLeftAlone, "LOAD-INPLACE-001"),
    broken_engine("session_open_skips_seal", SessionOpenSkipsSeal, "LOAD-OPEN-001"),
    broken_engine("session_open_malformed_beside", SessionOpenMalformedBeside, "LOAD-OPEN-002"),
    broken_engine("ratify_trims_markers", RatifyTrimsMarkers, "LOAD-RATIFY-103"),
    broken_engine("ratify_file_trims_markers", RatifyFileTrimsMarkers, "LOAD-RATIFY-103"),
    broken_engine("null_rule_counts_transitions", NullRuleCountsTransitions, "LOAD-NULL-001"),
    broken_engine("null_rule_refuses_only_terse", NullRuleRefusesOnlyTerse, "LOAD-NULL-001"),
    broken_engine(
        "null_rule_empty_markers_count_as_none", NullRuleEmptyMarkersCountAsNone, "LOAD-NULL-001"
    ),
    broken_engine(
        "null_rule_empty_per_intent_is_null", NullRuleEmptyPerIntentIsNull, "LOAD-NULL-001"
    ),
    broken_engine("not_found_code_wrong", NotFoundCodeWrong, "LOAD-FOUND-001"),
    broken_engine("sentinel_id_loads_sentinel", SentinelIdLoadsSentinel, "LOAD-FOUND-101"),
    broken_engine("ratify_paths_unchecked", RatifyPathsUnchecked, "LOAD-RATIFY-101"),
    broken_engine("ratify_write_miscoded", RatifyWriteMiscoded, "LOAD-WRITE-101"),
    broken_engine("ratify_write_without_field", RatifyWriteWithoutField, "LOAD-WRITE-101"),
    broken_engine("ratify_staging_file_kept", RatifyStagingFileKept, "LOAD-HIDDEN-101"),
    broken_engine("ratify_staging_link_followed", RatifyStagingLinkFollowed, "LOAD-HIDDEN-101"),
    broken_engine("ratify_pending_partly_rolled", RatifyPendingPartlyRolled, "LOAD-HIDDEN-102"),
    broken_engine(
        "ratify_staging_removed_before_refusal",
        RatifyStagingRemovedBeforeRefusal,
        "LOAD-HIDDEN-102",
    ),
    broken_engine("ratify_pending_link_followed", RatifyPendingLinkFollowed, "LOAD-HIDDEN-102"),
    broken_engine("ratify_pending_links_rolled", RatifyPendingLinksRolled, "LOAD-HIDDEN-102"),
    broken_engine("ratify_pending_discarded", RatifyPendingDiscarded, "LOAD-HIDDEN-102"),
    broken_engine(
        "ratify_pending_report_link_rolled", RatifyPendingReportLinkRolled, "LOAD-HIDDEN-102"
    ),
    broken_engine("ratify_staging_else_pending", RatifyStagingElsePending, "LOAD-HIDDEN-101"),
    broken_engine("ratify_report_takes_pack_mode", RatifyReportTakesPackMode, "LOAD-MODE-001"),
    broken_engine("ratify_modes_reset", RatifyModesReset, "LOAD-MODE-001"),
    broken_engine("ratify_new_report_umasked", RatifyNewReportUmasked, "LOAD-MODE-001"),
    broken_engine("ratify_pending_without_field", RatifyPendingWithoutField, "LOAD-HIDDEN-102"),
    broken_engine("not_found_without_field", NotFoundWithoutField, "LOAD-FOUND-001"),
    broken_engine("not_ratified_without_field", NotRatifiedWithoutField, "LOAD-SEAL-001"),
    broken_engine("seal_mismatch_without_field", SealMismatchWithoutField, "LOAD-SEAL-002"),
    broken_engine("report_refusals_without_field", ReportRefusalsWithoutField, "LOAD-SEAL-003"),
    broken_engine("unreadable_report_malformed", UnreadableReportMalformed, "LOAD-SEAL-003"),
    broken_engine("verdict_unchecked", VerdictUnchecked, "LOAD-SEAL-003"),
    broken_engine("unverifiable_seal_accepted", UnverifiableSealAccepted, "LOAD-SEAL-003"),
    broken_engine(
        "unreadable_ratified_pack_malformed", UnreadableRatifiedPackMalformed, "LOAD-TAMPER-001"
    ),
    broken_engine("tampered_without_field", TamperedWithoutField, "LOAD-TAMPER-001"),
    broken_engine("gate_refusal_without_field", GateRefusalWithoutField, "LOAD-RATIFY-001"),
    broken_engine("batch_reordered", BatchReordered, "PROTO-BATCH-001"),
    broken_engine("unknown_op_ok", UnknownOpOk, "PROTO-ERROR-001"),
    broken_engine("bad_hello", BadHello, "PROTO-HELLO-001"),
    broken_engine("language_key_renamed", LanguageKeyRenamed, "PROTO-HELLO-001"),
    broken_engine("chat_shape_wrong", ChatShapeWrong, "PROTO-CHAT-001"),
    broken_engine(
        "flipped_product_sign",
        FlippedProductSign,
        "ALG-TABLE-001",
        "ALG-PROD-001",
        "ALG-LAW-001",
        "ALG-LAW-002",
        "ALG-ROTOR-001",
        "ALG-CLOSE-001",
    ),
    broken_engine("schema_error_without_field", SchemaErrorWithoutField, "LOAD-SCHEMA-001"),
    broken_engine("missing_field_message_vague", MissingFieldMessageVague, "LOAD-FIELD-001"),
    broken_engine("markers_coerced_to_strings", MarkersCoercedToStrings, "LOAD-TYPE-001"),
    broken_engine("numeric_id_accepted", NumericIdAccepted, "LOAD-TYPE-001"),
    broken_engine("unknown_field_dropped", UnknownFieldDropped, "LOAD-FIELD-002"),
    broken_engine("transitions_required", TransitionsRequired, "LOAD-VALID-002"),
    broken_engine("longest_id_refused", LongestIdRefused, "LOAD-VALID-002"),
    broken_engine("unicode_id_accepted", UnicodeIdAccepted, "LOAD-ID-001"),
    broken_engine("id_trailing_newline_accepted", IdTrailingNewlineAccepted, "LOAD-ID-001"),
    broken_engine("id_trimmed", IdTrimmed, "LOAD-ID-001"),
    broken_engine("bool_depth_accepted", BoolDepthAccepted, "LOAD-BOUND-003"),
    broken_engine("report_key_renamed", ReportKeyRenamed, "LOAD-RATIFY-002"),
    broken_engine("per_intent_keys_omitted", PerIntentKeysOmitted, "LOAD-RATIFY-002"),
    broken_engine("report_self_seal_unchecked", ReportSelfSealUnchecked, "LOAD-SEAL-003"),
    broken_engine("envelope_field_omitted", EnvelopeFieldOmitted, "PROTO-ENVELOPE-001"),
    broken_engine("bool_turn_index_accepted", BoolTurnIndexAccepted, "PROTO-ARGS-001"),
    broken_engine("nested_batch_skipped", NestedBatchSkipped, "PROTO-BATCH-002"),
    broken_engine("file_values_unchecked", FileValuesUnchecked, "PROTO-ARGS-001"),
    broken_engine("session_files_lenient", SessionFilesLenient, "PROTO-ARGS-001"),
    broken_engine("id_numbers_unguarded", IdNumbersUnguarded, "PROTO-JSON-001"),
    broken_engine("per_intent_shape_unchecked", PerIntentShapeUnchecked, "LOAD-SHAPE-001"),
    broken_engine("repair_flag_coerced", RepairFlagCoerced, "PROTO-ARGS-002"),
    broken_engine("journal_name_without_field", JournalNameWithoutField, "PROTO-ARGS-002"),
    broken_engine("repair_by_default", RepairByDefault, "PROTO-ARGS-003"),
    broken_engine("journal_takes_non_json", JournalTakesNonJson, "PROTO-INTERNAL-001"),
    broken_engine("ascii_escaped_wire", AsciiEscapedWire, "PROTO-WIRE-001"),
    broken_engine("utf16_key_order_wire", Utf16KeyOrderWire, "PROTO-WIRE-002"),
    broken_engine("markers_refused_without_field", MarkersRefusedWithoutField, "PROTO-ARGS-001"),
    broken_engine("backslash_file_name_accepted", BackslashFileNameAccepted, "PROTO-FILES-001"),
    broken_engine("space_in_file_name_refused", SpaceInFileNameRefused, "PROTO-FILES-001"),
    broken_engine(
        "stryker_unwritable_file_left_out", StrykerUnwritableFileLeftOut, "PROTO-FILES-501"
    ),
    broken_engine("stryker_staged_files_kept", StrykerStagedFilesKept, "PROTO-FILES-502"),
    broken_engine("grade_bound_loose", GradeBoundLoose, "ALG-ARGS-001"),
    broken_engine("session_ids_repeat", SessionIdsRepeat, "PROTO-SESSION-001"),
    broken_engine("message_spans_lines", MessageSpansLines, "PROTO-ERROR-001"),
    broken_engine("empty_structural_message", EmptyStructuralMessage, "PROTO-ERROR-301"),
    broken_engine("unknown_session_as_bad_args", UnknownSessionAsBadArgs, "PROTO-SESSION-001"),
    broken_engine(
        "overrides_not_object_without_field", OverridesNotObjectWithoutField, "PROTO-ARGS-001"
    ),
    broken_engine("bounds_exclusive", BoundsExclusive, "ALG-ARGS-001"),
    broken_engine("sandwich_reversed", SandwichReversed, "ALG-APPLY-001"),
    broken_engine("sandwich_keeps_grade_of_x", SandwichKeepsGradeOfX, "ALG-APPLY-001"),
    broken_engine("single_plane_elliptic", SinglePlaneElliptic, "ALG-ROTOR-002"),
    broken_engine("session_before_text", SessionBeforeText, "PROTO-ORDER-001"),
    broken_engine("session_before_missing_text", SessionBeforeMissingText, "PROTO-ORDER-001"),
    broken_engine("session_ids_by_count", SessionIdsByCount, "PROTO-SESSION-002"),
    broken_engine("turn_index_from_window", TurnIndexFromWindow, "PROTO-TURNS-001"),
    broken_engine("store_without_life", StoreWithoutLife, "STATE-LIFE-101"),
    broken_engine("files_without_load", FilesWithoutLoad, "LOAD-GATE-101"),
    broken_engine("runtime_per_register", RuntimePerRegister, "PROTO-SESSION-002"),
    broken_engine("batch_stops_at_failure", BatchStopsAtFailure, "PROTO-BATCH-003"),
    broken_engine("non_object_element_internal", NonObjectElementInternal, "PROTO-BATCH-003"),
    broken_engine("missing_before_unknown", MissingBeforeUnknown, "PROTO-ORDER-001"),
    broken_engine("register_before_files", RegisterBeforeFiles, "PROTO-ORDER-002"),
    broken_engine("store_before_proposal", StoreBeforeProposal, "PROTO-ORDER-003"),
    broken_engine("soak_opens_first", SoakOpensFirst, "PROTO-ORDER-004"),
    broken_engine("missing_fields_sorted", MissingFieldsSorted, "LOAD-ORDER-001"),
    broken_engine("seal_type_last", SealTypeLast, "LOAD-ORDER-001"),
    broken_engine("missing_args_last_first", MissingArgsLastFirst, "PROTO-ORDER-005"),
    broken_engine("rotor_bivector_first", RotorBivectorFirst, "ALG-ORDER-001"),
    broken_engine("mutations_before_store", MutationsBeforeStore, "STATE-MUTORDER-001"),
    broken_engine("last_bad_mutation_named", LastBadMutationNamed, "STATE-MUTORDER-001"),
    broken_engine("shapes_before_records", ShapesBeforeRecords, "STATE-MUTORDER-002"),
    broken_engine("deletes_before_puts", DeletesBeforePuts, "STATE-MUTORDER-002"),
    broken_engine("seal_before_structure", SealBeforeStructure, "LOAD-ORDER-002"),
    broken_engine("null_rule_first", NullRuleFirst, "LOAD-ORDER-002"),
    broken_engine("condition_from_scalar_part", ConditionFromScalarPart, "ALG-COND-001"),
    broken_engine("condition_even_grades_only", ConditionEvenGradesOnly, "ALG-COND-001"),
    broken_engine("tiny_products_flushed", TinyProductsFlushed, "ALG-PROD-002"),
    broken_engine("absolute_simplicity_tolerance", AbsoluteSimplicityTolerance, "ALG-ROTOR-002"),
    broken_engine("simplicity_by_largest_part", SimplicityByLargestPart, "ALG-ROTOR-002"),
    broken_engine("stray_part_tolerated", StrayPartTolerated, "ALG-ROTOR-002"),
    broken_engine("even_product_fast_path", EvenProductFastPath, "ALG-LAW-001"),
    broken_engine("bom_stripped", BomStripped, "PROTO-FRAME-001"),
    broken_engine("invalid_utf8_replaced", InvalidUtf8Replaced, "PROTO-FRAME-001"),
    broken_engine("space_as_isspace", SpaceAsIsspace, "PROTO-JSON-003"),
    broken_engine("empty_field_left_out", EmptyFieldLeftOut, "PROTO-QUOTE-002"),
    broken_engine("falsy_opening_dropped", FalsyOpeningDropped, "VAR-DECOR-001", "VAR-CHAT-002"),
    broken_engine("numeric_ids_equal", NumericIdsEqual, "LOAD-ID-002"),
    broken_engine("falsy_id_refused", FalsyIdRefused, "PROTO-ID-001"),
    broken_engine("nan_accepted", NanAccepted, "PROTO-JSON-001"),
    broken_engine("first_duplicate_wins", FirstDuplicateWins, "PROTO-JSON-001"),
    broken_engine("minus_counted_as_digit", MinusCountedAsDigit, "PROTO-JSON-001"),
    broken_engine("objects_not_nested", ObjectsNotNested, "PROTO-JSON-001"),
    broken_engine("request_not_a_level", RequestNotALevel, "PROTO-JSON-001"),
    broken_engine("deep_line_internal", DeepLineInternal, "PROTO-JSON-001"),
    broken_engine("brackets_counted_as_levels", BracketsCountedAsLevels, "PROTO-JSON-001"),
    broken_engine("double_bound_at_1e308", DoubleBoundAt1e308, "PROTO-JSON-001"),
    broken_engine("double_bound_exact", DoubleBoundExact, "PROTO-JSON-001"),
    broken_engine("id_digits_unchecked", IdDigitsUnchecked, "PROTO-JSON-001"),
    broken_engine("depth_per_batch_element", DepthPerBatchElement, "PROTO-JSON-001"),
    broken_engine("decorate_turn_index_unsigned", DecorateTurnIndexUnsigned, "PROTO-ARGS-001"),
    broken_engine("pack_read_unguarded", PackReadUnguarded, "LOAD-READ-001"),
    broken_engine("pack_bytes_replaced", PackBytesReplaced, "LOAD-READ-301"),
    broken_engine("pack_encoding_detected", PackEncodingDetected, "LOAD-READ-301"),
    broken_engine("report_not_object_unratified", ReportNotObjectUnratified, "LOAD-SEAL-301"),
    broken_engine("pack_minus_counted", PackMinusCounted, "LOAD-READ-001"),
    broken_engine("one_sided_algebra_bounds", OneSidedAlgebraBounds, "ALG-ARGS-001"),
    broken_engine("letters_in_utf16_units", LettersInUtf16Units, "COG-RULE-001"),
    broken_engine("letters_in_utf8_bytes", LettersInUtf8Bytes, "COG-RULE-001"),
    broken_engine("two_letter_words_mended", TwoLetterWordsMended, "COG-RULE-001"),
    broken_engine("loose_simplicity_bound", LooseSimplicityBound, "ALG-ROTOR-002"),
    broken_engine("wide_null_band", WideNullBand, "ALG-ROTOR-002"),
    broken_engine("narrow_null_band", NarrowNullBand, "ALG-ROTOR-002"),
    broken_engine("hyperbolic_band_absolute", HyperbolicBandAbsolute, "ALG-ROTOR-002"),
    broken_engine("lone_surrogates_repaired", LoneSurrogatesRepaired, "PROTO-JSON-002"),
    broken_engine("unclaimed_ops_served", UnclaimedOpsServed, "PROTO-CAPS-001"),
    broken_engine("open_always_answers_turn_idx", OpenAlwaysAnswersTurnIdx, "PROTO-COND-481"),
    broken_engine("says_without_answers_claim", SaysWithoutAnswersClaim, "PROTO-COND-481"),
    broken_engine("shutdown_fails", ShutdownFails, "PROTO-EOF-001"),
    broken_engine("fork_in_parents_group", ForkInParentsGroup, "PROTO-FORK-001", "STATE-KILL-001"),
    broken_engine("fork_refusal_without_field", ForkRefusalWithoutField, "PROTO-FORK-001"),
    broken_engine("fork_keeps_parent_stdio", ForkKeepsParentStdio, "PROTO-FORK-001"),
    broken_engine("fork_child_reads_text", ForkChildReadsText, "PROTO-FORK-001"),
    broken_engine("fork_abstract_socket_accepted", ForkAbstractSocketAccepted, "PROTO-FORK-001"),
    broken_engine("fork_nul_leading_only", ForkNulLeadingOnly, "PROTO-FORK-001"),
    broken_engine("fork_nul_at_ends_only", ForkNulAtEndsOnly, "PROTO-FORK-001"),
    broken_engine("state_dir_nul_leading_only", StateDirNulLeadingOnly, "PROTO-PATH-001"),
    broken_engine("state_dir_nul_padding_stripped", StateDirNulPaddingStripped, "PROTO-PATH-001"),
    broken_engine("shipped_packs_first", ShippedPacksFirst, "LOAD-SEARCH-001"),
    broken_engine("session_shipped_packs_first", SessionShippedPacksFirst, "LOAD-SEARCH-002"),
    broken_engine("report_form_trimmed", ReportFormTrimmed, "LOAD-FORM-481"),
    broken_engine("report_form_by_value", ReportFormByValue, "LOAD-FORM-481"),
    broken_engine("pack_form_line_ends", PackFormLineEnds, "LOAD-FORM-481"),
    broken_engine("pack_form_bom_dropped", PackFormBomDropped, "LOAD-FORM-481"),
    broken_engine("renamed_pack_not_named", RenamedPackNotNamed, "LOAD-ID-004"),
    broken_engine("whitespace_edit_malformed", WhitespaceEditMalformed, "LOAD-TAMPER-001"),
    broken_engine("broken_user_pack_falls_back", BrokenUserPackFallsBack, "LOAD-SEARCH-001"),
    broken_engine("case_folded_id", CaseFoldedId, "LOAD-ID-001"),
    broken_engine("semver_schema_version", SemverSchemaVersion, "LOAD-SCHEMA-001"),
    broken_engine("intent_names_folded", IntentNamesFolded, "OVR-GATE-001"),
    broken_engine("version_must_be_semver", VersionMustBeSemver, "LOAD-VALID-002"),
    broken_engine(
        "depth_narrowed_to_byte", DepthNarrowedToByte, "LOAD-BOUND-003", "OVR-RESOLVE-002"
    ),
    broken_engine("turn_index_as_double", TurnIndexAsDouble, "VAR-SELECT-001"),
    broken_engine("seed_in_cesu8", SeedInCesu8, "VAR-SELECT-001"),
    broken_engine(
        "unknown_names_sorted_utf16", UnknownNamesSortedUtf16, "LOAD-FIELD-002", "LOAD-SHAPE-001"
    ),
    broken_engine("args_sorted_utf16", ArgsSortedUtf16, "PROTO-ARGS-001"),
    broken_engine("lenient_base64", LenientBase64, "PROTO-ARGS-001"),
    broken_engine("exponent_integers", ExponentIntegers, "PROTO-NUMBER-001"),
    broken_engine("loose_number_literals", LooseNumberLiterals, "PROTO-NUMBER-001"),
    broken_engine("upper_hex_digests", UpperHexDigests, "PROTO-CHAT-001"),
    broken_engine("upper_hex_variant_id", UpperHexVariantId, "PROTO-CHAT-001"),
    broken_engine("upper_case_escapes", UpperCaseEscapes, "PROTO-WIRE-001"),
    broken_engine("line_buffer_64k", LineBuffer64K, "PROTO-FRAME-001"),
    broken_engine("chat_turns_from_one", ChatTurnsFromOne, "PROTO-CHAT-001", "PROTO-SESSION-001"),
    broken_engine("terse_depth_two", TerseDepthTwo, "REG-SHIP-001", "REG-SHIP-002"),
    broken_engine("convivial_transitions", ConvivialTransitions, "REG-SHIP-001"),
    broken_engine("convivial_shallow", ConvivialShallow, "REG-SHIP-001", "REG-SHIP-002"),
    broken_engine("neutral_labelled_terse", NeutralLabelledTerse, "REG-SHIP-001"),
    broken_engine(
        "decorate_index_coerced", DecorateIndexCoerced, "PROTO-ARGS-001", "PROTO-NUMBER-001"
    ),
    broken_engine("falsy_expected_id_skipped", FalsyExpectedIdSkipped, "LOAD-ID-002"),
    broken_engine("empty_register_unregistered", EmptyRegisterUnregistered, "LOAD-ID-003"),
    broken_engine("id_echoed_as_double", IdEchoedAsDouble, "PROTO-ID-001"),
    broken_engine("string_id_trimmed", StringIdTrimmed, "PROTO-ID-001"),
    broken_engine("solidus_escape_dropped", SolidusEscapeDropped, "PROTO-ID-001"),
    broken_engine("control_characters_in_strings", ControlCharactersInStrings, "PROTO-JSON-003"),
    broken_engine("marker_length_utf16", MarkerLengthUtf16, "LOAD-VALID-002", "LOAD-BOUND-001"),
    broken_engine("unknown_intent_forgotten", UnknownIntentForgotten, "LOAD-VALID-001"),
    broken_engine("convivial_hyphen", ConvivialHyphen, "VAR-CHAT-001"),
    broken_engine("convivial_closings_reordered", ConvivialClosingsReordered, "VAR-CHAT-001"),
    broken_engine("seal_ascii_escaped", SealAsciiEscaped, "LOAD-RATIFY-002"),
    broken_engine("seal_separators_escaped", SealSeparatorsEscaped, "LOAD-RATIFY-002"),
    broken_engine("now_is_correction", NowIsCorrection, "COG-INTENT-001"),
    broken_engine("recall_never_from_vault", RecallNeverFromVault, "COG-GROUND-001"),
    broken_engine("subject_from_last_slot", SubjectFromLastSlot, "COG-SUBJECT-001"),
    broken_engine("compatibility_normalised", CompatibilityNormalised, "COG-RULE-001"),
    broken_engine("verdict_before_register_id", VerdictBeforeRegisterId, "LOAD-ORDER-003"),
    broken_engine("register_id_before_report_form", RegisterIdBeforeReportForm, "LOAD-ORDER-003"),
    broken_engine("verdict_dropped", VerdictDropped, "COG-VERDICT-001"),
    broken_engine("depth_only_in_pack_surface", DepthOnlyInPackSurface, "COG-ANSWER-006"),
    broken_engine("verdict_about_second_subject", VerdictAboutSecondSubject, "COG-ANSWER-006"),
    broken_engine("gloss_verdict_without_gloss", GlossVerdictWithoutGloss, "COG-ANSWER-006"),
    broken_engine("gloss_joined_to_next_word", GlossJoinedToNextWord, "COG-ANSWER-006"),
    broken_engine("gloss_flag_always_set", GlossFlagAlwaysSet, "LEX-ROWS-001"),
    broken_engine(
        "narrative_steps_without_domains", NarrativeStepsWithoutDomains, "COG-ANSWER-006"
    ),
    broken_engine("procedure_verb_not_named", ProcedureVerbNotNamed, "COG-ANSWER-006"),
    broken_engine("oov_worded_as_refusal", OovWordedAsRefusal, "COG-ANSWER-005"),
    broken_engine("teaching_verdict_without_step", TeachingVerdictWithoutStep, "COG-ANSWER-005"),
    broken_engine("recall_tells_every_domain", RecallTellsEveryDomain, "COG-ANSWER-006"),
    broken_engine("recall_says_latest_claim_only", RecallSaysLatestClaimOnly, "COG-ANSWER-005"),
    broken_engine("first_claim_kept", FirstClaimKept, "COG-RULE-001"),
    broken_engine("teaching_one_way", TeachingOneWay, "COG-RULE-001"),
    broken_engine(
        "recall_of_any_known_lemma_from_vault", RecallOfAnyKnownLemmaFromVault, "COG-RULE-001"
    ),
    broken_engine("function_word_missing", FunctionWordMissingWhom, "COG-RULE-002"),
    broken_engine(
        "function_word_never_missing", FunctionWordMissingNever, "COG-RULE-002", "COG-ANSWER-001"
    ),
    broken_engine("semicolon_ends_no_sentence", SemicolonEndsNoSentence, "COG-RULE-001"),
    broken_engine("abbreviation_eg_dropped", AbbreviationEgDropped, "COG-RULE-001"),
    broken_engine("belief_reckon_dropped", BeliefReckonDropped, "COG-RULE-001"),
    broken_engine("typo_between_dropped", TypoBetweenDropped, "COG-RULE-001"),
    broken_engine("contraction_wont_dropped", ContractionWontDropped, "COG-RULE-001"),
    broken_engine("wrapper_kindly_dropped", WrapperKindlyDropped, "COG-RULE-001"),
    broken_engine("cue_analogy_dropped", CueAnalogyDropped, "COG-RULE-001"),
    broken_engine("glued_full_stop_ends_sentence", GluedFullStopEndsSentence, "COG-RULE-001"),
    broken_engine("typographic_apostrophe_kept", TypographicApostropheKept, "COG-META-001"),
    broken_engine("crashes_without_known_word", CrashesWithoutKnownWord, "PROTO-CHAT-001"),
    broken_engine("terse_hash_slip", TerseHashSlip, "REG-INV-003"),
    broken_engine(
        "crash_and_surface_seeded", CrashAndSurfaceSeeded, "PROTO-CHAT-001", "VAR-CHAT-001"
    ),
    broken_engine(
        "four_defects",
        FourDefects,
        "PROTO-CHAT-001",
        "VAR-CHAT-001",
        "REG-INV-003",
        "OVR-RESOLVE-001",
        "OVR-CHAT-001",
    ),
    *(broken_engine(name, factory, "COG-EDGE-001") for name, factory in EDGE_MUTANTS),
    *(broken_engine(name, factory, "COG-EDGE-002") for name, factory in SAYS_MUTANTS),
    *(broken_engine(name, factory, req) for name, factory, req in REFERRING_MUTANTS),
    *(broken_engine(name, factory, req) for name, factory, req in PRIMED_MUTANTS),
    *(
        broken_engine(name, factory, *catches)
        for name, factory, *catches in SESSION_CONTEXT_MUTANTS
    ),
    broken_engine("earlier_count_in_eight_bits", EarlierCountInEightBits, "COG-ANSWER-003"),
    *(broken_engine(name, factory, req) for name, factory, req in WRITTEN_SUBJECT_MUTANTS),
    *(broken_engine(name, factory, req) for name, factory, req in UNKNOWN_NAMED_MUTANTS),
    *(broken_engine(name, factory, req) for name, factory, req in CLAUSE_MUTANTS),
    *(broken_engine(name, factory, *catches) for name, factory, *catches in STAGE_MUTANTS),
    *(broken_engine(name, factory, req) for name, factory, req in CONDITION_MUTANTS),
    *(
        broken_engine(name, factory, *catches)
        for name, factory, *catches in (
            ("answer_no_is_no_negation", NoIsNoNegation, "COG-ANSWER-001", "COG-ANSWER-002"),
            (
                "answer_negation_from_first_word",
                NegationFromFirstWord,
                "COG-ANSWER-001",
                "COG-ANSWER-002",
            ),
            (
                "answer_negation_ignored_by_gloss",
                NegationIgnoredByGloss,
                "COG-ANSWER-001",
                "COG-ANSWER-002",
            ),
            ("answer_question_bang", QuestionBangNotQuestion, "COG-ANSWER-001"),
            ("step_kind_both_ways", StepKindBothWays, "COG-STEP-701"),
            ("step_form_of_read_into", FormOfReadInto, "COG-STEP-701"),
            ("answer_claim_last_copula", ClaimSplitAtLastCopula, "COG-ANSWER-001"),
            ("answer_checked_slot_a_only", CheckedSlotAOnly, "COG-ANSWER-001"),
            ("answer_tag_in_checked", TagInCheckedStatement, "COG-ANSWER-001"),
            ("answer_claim_keeps_not_c", ClaimKeepsNotC, "COG-ANSWER-001"),
            ("answer_steps_file_order", TeachingStepsInFileOrder, "COG-ANSWER-001"),
            ("answer_narrative_kinds_first", NarrativeTellsKindsFirst, "COG-ANSWER-001"),
            ("answer_cause_step_last", CauseStepSortedLast, "COG-ANSWER-001"),
            ("answer_way_reversed", TransitiveWayReversed, "COG-ANSWER-001"),
            ("answer_recall_from_zero", RecallTurnsFromZero, "COG-ANSWER-001", "COG-ANSWER-003"),
            ("answer_recall_oldest_first", RecallOldestFirst, "COG-ANSWER-001", "COG-ANSWER-003"),
            (
                "answer_earlier_counts_quoted",
                EarlierCountsQuoted,
                "COG-ANSWER-001",
                "COG-ANSWER-003",
            ),
            ("answer_steps_cut_by_register", StepsCutByRegister, "COG-ANSWER-004"),
            ("answer_said_utf16_cut", SaidCutInUtf16Units, "COG-ANSWER-001"),
            ("answer_recall_lemmas_by_oldest_said", RecallLemmasByOldestSaid, "COG-ANSWER-001"),
            (
                "answer_recall_cut_before_claim_first",
                RecallCutBeforeClaimFirst,
                "COG-ANSWER-001",
            ),
            ("answer_cause_step_over_path", CauseStepOverPath, "COG-ANSWER-001"),
            ("answer_compared_all_domains", ComparedOverAllDomains, "COG-ANSWER-001"),
            ("answer_spans_to_depth", SpansToDisclosureDepth, "COG-ANSWER-001"),
            ("surface_turns_from_zero", SurfaceTurnsFromZero, "COG-ANSWER-005"),
            ("surface_steps_swapped", SurfaceStepsSwapped, "COG-ANSWER-005"),
            ("surface_step_letter_doubled", SurfaceStepLetterDoubled, "COG-ANSWER-005"),
            ("surface_unknown_unnamed", SurfaceUnknownUnnamed, "COG-ANSWER-005"),
            ("surface_lists_run_together", ListsRunTogether, "COG-ANSWER-005"),
            ("surface_yes_when_decided", SurfaceYesWhenDecided, "COG-ANSWER-005"),
            ("surface_whole_recall_latest_only", WholeRecallLatestTurnsOnly, "COG-ANSWER-005"),
            ("surface_names_first_unknown_only", SurfaceNamesFirstUnknownOnly, "COG-ANSWER-001"),
            ("recall_of_nothing_refused", NothingSaidRefused, "COG-RECALL-002"),
            ("recall_of_unsaid_subject_defined", UnsaidSubjectDefined, "COG-RECALL-001"),
            ("recall_nothing_said_swapped", RecallNothingSaidSwapped, "COG-RECALL-002"),
            ("recall_pack_first", RecallPackFirst, "COG-RECALL-001"),
            (
                "answer_recall_claim_in_turn_order",
                RecallClaimInTurnOrder,
                "COG-ANSWER-001",
                "COG-ANSWER-003",
            ),
        )
    ),
    broken_engine("bool_as_integer", BoolAsInteger, "PROTO-TYPE-001"),
    broken_engine("whole_float_as_integer", WholeFloatAsInteger, "PROTO-TYPE-001"),
    broken_engine("numeric_string_coerced", NumericStringCoerced, "PROTO-TYPE-001"),
    broken_engine("null_as_absent", NullAsAbsent, "PROTO-TYPE-001"),
    broken_engine("disk_folded_journal_name", FoldedJournalName, "PROTO-TYPE-001"),
    broken_engine("disk_folded_mutation_op", FoldedMutationOp, "STATE-TYPE-002"),
    broken_engine("pack_null_as_absent", PackNullAsAbsent, "LOAD-TYPE-002"),
    broken_engine("pack_whole_float_count", PackWholeFloatCount, "LOAD-TYPE-002"),
    broken_engine("truthy_verdict", TruthyVerdict, "LOAD-TYPE-003"),
    broken_engine("report_version_from_schema", ReportVersionFromSchema, "LOAD-REPORT-201"),
    broken_engine("bucket_sizes_swapped", BucketSizesSwapped, "LOAD-REPORT-201"),
    broken_engine("override_keys_from_per_intent", OverrideKeysFromPerIntent, "LOAD-REPORT-201"),
    broken_engine("display_name_from_id", DisplayNameFromId, "LOAD-REPORT-201"),
    broken_engine("order2_exists_before_suffix", Order2ExistsBeforeSuffix, "LOAD-ORDER-701"),
    broken_engine("order2_content_before_stem", Order2ContentBeforeStem, "LOAD-ORDER-701"),
    broken_engine("order2_file_before_id", Order2FileBeforeId, "LOAD-ORDER-002"),
    broken_engine("order2_unknown_names_as_sent", Order2UnknownNamesAsSent, "PROTO-ORDER-005"),
    broken_engine("subchecks_one_pass_overrides", OnePassOverrides, "LOAD-ORDER-801"),
    broken_engine("subchecks_one_pass_intents", OnePassIntents, "LOAD-ORDER-801"),
    broken_engine("subchecks_one_pass_intent_keys", OnePassIntentKeys, "LOAD-ORDER-801"),
    broken_engine("subchecks_across_intents", SubchecksAcrossIntents, "LOAD-ORDER-801"),
    broken_engine("intent_keys_as_given", IntentKeysAsGiven, "LOAD-ORDER-001"),
    broken_engine("subchecks_one_pass_buckets", OnePassBuckets, "LOAD-ORDER-801"),
    broken_engine("subchecks_across_buckets", SubchecksAcrossBuckets, "LOAD-ORDER-801"),
    broken_engine("subchecks_one_pass_fields", OnePassFields, "LOAD-ORDER-801"),
    broken_engine("subchecks_one_pass_required", OnePassRequiredFields, "LOAD-ORDER-801"),
    broken_engine("subchecks_one_pass_arg_names", OnePassArgNames, "PROTO-ORDER-001"),
    broken_engine("subchecks_one_pass_args_in_order", OnePassArgsInOrder, "PROTO-ORDER-001"),
    broken_engine("mut41_last_two_known_subjects", LastTwoKnownSubjects, "COG-ANSWER-001"),
    broken_engine("mut41_start_from_any_known_lemma", StartFromAnyKnownLemma, "COG-ANSWER-001"),
    broken_engine("mut41_kind_out_ignored", KindOutIgnored, "COG-ANSWER-001"),
    broken_engine("mut41_negation_from_third_word", NegationFromThirdWord, "COG-ANSWER-001"),
    broken_engine("mut41_path_search_stops_at_visited", PathSearchStopsAtVisited, "COG-ANSWER-001"),
    broken_engine(
        "mut41_unknown_named_whatever_grounds", UnknownNamedWhateverGrounds, "COG-ANSWER-001"
    ),
    broken_engine(
        "lists42_recall_ordered_by_last_named",
        RecallOrderedByLastNamed,
        "COG-META-702",
        "COG-ANSWER-001",
    ),
    broken_engine("lists42_every_claim_first", EveryClaimFirst, "COG-ANSWER-003"),
    broken_engine("lists42_path_tried_backward_first", PathTriedBackwardFirst, "COG-STEP-703"),
    broken_engine("shorter_way_wins", ShorterWayWins, "COG-STEP-704"),
    broken_engine("example_kind_of_something_else", ExampleKindOfSomethingElse, "COG-STEP-705"),
    broken_engine("shared_beyond_seconds_third", SharedBeyondSecondsThird, "COG-ANSWER-001"),
    broken_engine("mut42_abbreviation_stop_ends_scan", AbbreviationStopEndsScan, "COG-EDGE-001"),
    broken_engine(
        "mut42_abbreviation_after_any_separator", AbbreviationAfterAnySeparator, "COG-EDGE-001"
    ),
    broken_engine("node42_ascii_word_boundaries", AsciiWordBoundaries, "COG-EDGE-001"),
    broken_engine("node42_slot_noise_joins", SlotNoiseJoins, "COG-EDGE-001"),
    broken_engine("audit46_html_escaped_wire", HtmlEscapedWire, "PROTO-WIRE-001"),
    broken_engine("audit46_seal_html_escaped", SealHtmlEscaped, "LOAD-RATIFY-002"),
    broken_engine("audit46_prefix_keys_unordered", PrefixKeysUnordered, "PROTO-WIRE-461"),
    broken_engine("audit46_keys_sorted_ignoring_case", KeysSortedIgnoringCase, "PROTO-WIRE-461"),
    broken_engine(
        "audit46_decoration_joins_non_empty_parts", DecorationJoinsNonEmptyParts, "VAR-DECOR-001"
    ),
    broken_engine("audit46_decoration_trimmed", DecorationTrimmed, "VAR-DECOR-001"),
    broken_engine(
        "audit46_proposal_exponent_as_integer", ProposalExponentAsInteger, "STATE-PROPOSE-001"
    ),
    broken_engine(
        "audit46_ships_path_from_memory_to_light",
        ShipsPathFromMemoryToLight,
        "COG-COND-252",
    ),
    broken_engine(
        "audit46_signed_seed_integer", SignedSeedInteger, "VAR-SELECT-001", "VAR-SELECT-002"
    ),
    broken_engine(
        "audit46_struct_ordered_results",
        StructOrderedResults,
        "PROTO-WIRE-001",
        "PROTO-WIRE-461",
        "PROTO-WIRE-462",
    ),
    broken_engine("audit47_marker_length_in_clusters", MarkerLengthInClusters, "LOAD-BOUND-471"),
    broken_engine("audit47_marker_length_after_nfc", MarkerLengthAfterNfc, "LOAD-BOUND-471"),
    broken_engine(
        "audit47_bucket_counts_non_empty_markers", BucketCountsNonEmptyMarkers, "LOAD-BOUND-472"
    ),
    broken_engine("audit47_source_hash_of_file_object", SourceHashOfFileObject, "LOAD-TAMPER-471"),
    broken_engine(
        "audit47_tampered_only_beside_readable_report",
        TamperedOnlyBesideReadableReport,
        "LOAD-BESIDE-471",
    ),
    broken_engine(
        "audit47_gate_malformed_beside_report_tampered",
        GateMalformedBesideReportTampered,
        "LOAD-RATIFY-471",
    ),
    broken_engine(
        "audit47_pack_member_first_occurrence", PackMemberFirstOccurrence, "LOAD-READ-471"
    ),
    broken_engine("audit47_pack_member_twice_refused", PackMemberTwiceRefused, "LOAD-READ-471"),
    broken_engine(
        "audit47_digests_compared_as_hex_values", DigestsComparedAsHexValues, "LOAD-SEAL-471"
    ),
    broken_engine(
        "audit47_exponent_literals_are_integers",
        ExponentLiteralsAreIntegers,
        "LOAD-BOUND-473",
        "OVR-RESOLVE-471",
    ),
    broken_engine("python_space_stripped", PythonSpaceStripped, "COG-EDGE-001", "COG-EDGE-002"),
    broken_engine("javascript_trimmed", JavaScriptTrimmed, "COG-EDGE-001", "COG-EDGE-002"),
)

SEMANTIC_CHAT = ("LEX-", "OVR-CHAT-", "REG-", "VAR-CHAT-")
"""Prefixes of the requirements that chat answerable prompts only (never arbitrary text)."""
UNANSWERABLE_ON_PURPOSE = ("LEX-FOLD-001",)
"""Requirements under those prefixes that send words no lexicon holds on purpose (the near
misses of word folding must ground as oov)."""

COMBINED = ("crash_and_surface_seeded", "four_defects")
"""Engines with several independent defects, each caught in one certify run."""

BROKEN: dict[str, BrokenEngine] = {engine.name: engine for engine in _TABLE}
