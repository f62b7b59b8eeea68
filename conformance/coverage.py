"""Coverage-directed samples: deterministic cases that exercise every class the spec names.

A requirement with a coverage plan runs the plan's cases before any random example.
Each case is tagged with the equivalence classes it exercises (a gloss-less lemma, an
intent template, a register, a bucket size ...); the plan knows how many classes each
dimension has, so the report can say "gloss-less lemmas 16/16".
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from conformance import oracle
from conformance import strategies as gen
from conformance.loose_values import FALSY_TEXTS
from conformance.model import SuiteContext
from conformance.oracle import FOUR_REGISTERS, MAX_BUCKET, MAX_ID_LEN, MAX_MARKER_LEN

GLOSSED_SPREAD = 16
"""How many glossed lemmas, evenly spread over the sorted lexicon, a chat plan asks about."""
TURNS_PER_SCRIPT = 12
"""Prompts per coverage script: opening a session costs far more than one turn."""

Classes = tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class Case:
    """One deterministic scenario and the classes it exercises."""

    scenario: Any
    classes: Classes


@dataclass(frozen=True)
class Plan:
    """The cases to run first and the number of classes in each dimension."""

    cases: tuple[Case, ...]
    universe: tuple[tuple[str, int], ...]

    def coverage(self, ran: int) -> dict[str, dict[str, int]]:
        """Per dimension, how many classes the first *ran* cases exercised, of how many."""
        seen: dict[str, set[str]] = {dimension: set() for dimension, _ in self.universe}
        for case in self.cases[:ran]:
            for dimension, value in case.classes:
                seen.setdefault(dimension, set()).add(value)
        return {
            dimension: {"exercised": len(seen[dimension]), "total": total}
            for dimension, total in self.universe
        }


def joined(*factories: Callable[[SuiteContext], Plan]) -> Callable[[SuiteContext], Plan]:
    """One plan running each factory's cases in turn, their dimensions side by side."""

    def plan(ctx: SuiteContext) -> Plan:
        plans = [factory(ctx) for factory in factories]
        cases = tuple(case for p in plans for case in p.cases)
        return Plan(cases, tuple(dimension for p in plans for dimension in p.universe))

    return plan


def _spread(items: Sequence[str], count: int) -> list[str]:
    if len(items) <= count:
        return list(items)
    return [items[i * len(items) // count] for i in range(count)]


MIXED_TEMPLATES = (*gen.PROMPT_TEMPLATES, "{a} is {b}?")
"""Templates filled with a gloss-less lemma, and (those with two slots) with an unknown word
before one, so every prompt still holds a known word: every intent template and a
statement asked as a question (two subject slots, docs/intents.md § The table of forms)."""


def _prompts(ctx: SuiteContext) -> tuple[list[tuple[str, Classes]], list[tuple[str, int]]]:
    """Every gloss-less lemma and a spread of glossed ones as DEFINITION, then each template."""
    glossless = sorted(e.lemma for e in ctx.lexicon if not e.has_gloss)
    glossed = sorted(e.lemma for e in ctx.lexicon if e.has_gloss)
    definition = gen.PROMPT_TEMPLATES[0]
    rows: list[tuple[str, Classes]] = [
        (definition.format(a=lemma), (("gloss-less lemmas", lemma), ("templates", definition)))
        for lemma in glossless
    ]
    rows += [
        (definition.format(a=lemma), (("glossed lemmas", lemma), ("templates", definition)))
        for lemma in _spread(glossed, GLOSSED_SPREAD)
    ]
    words = gen.template_words(ctx)
    for i, template in enumerate(gen.PROMPT_TEMPLATES):
        a, b = words[(7 * i) % len(words)], words[(7 * i + 3) % len(words)]
        rows.append((template.format(a=a, b=b), (("templates", template),)))
    for i, template in enumerate(MIXED_TEMPLATES if glossless else ()):
        a, b = glossless[i % len(glossless)], words[(7 * i + 5) % len(words)]
        rows.append((template.format(a=a, b=b), (("templates on a gloss-less lemma", template),)))
        if "{b}" in template:
            unknown = gen.MADE_UP_WORDS[i % len(gen.MADE_UP_WORDS)]
            rows.append(
                (template.format(a=unknown, b=a), (("templates on an unknown word", template),))
            )
    universe = [("templates", len(gen.PROMPT_TEMPLATES))]
    if glossless:
        universe.append(("templates on a gloss-less lemma", len(MIXED_TEMPLATES)))
        paired = sum("{b}" in template for template in MIXED_TEMPLATES)
        universe.append(("templates on an unknown word", paired))
    if ctx.lexicon:
        universe = [("gloss-less lemmas", len(glossless)), ("glossed lemmas", len(glossed))] + (
            universe
        )
    return rows, universe


def chat_scripts(
    ctx: SuiteContext,
) -> tuple[list[tuple[list[str], Classes]], list[tuple[str, int]]]:
    """The chat prompts of :func:`_prompts` cut into short multi-turn scripts."""
    rows, universe = _prompts(ctx)
    scripts = []
    for start in range(0, len(rows), TURNS_PER_SCRIPT):
        chunk = rows[start : start + TURNS_PER_SCRIPT]
        scripts.append(([p for p, _ in chunk], tuple(c for _, cs in chunk for c in cs)))
    return scripts, universe


def _registers(registers: Sequence[str | None]) -> Classes:
    return tuple(("registers", str(r)) for r in registers)


def scripts_under(registers: Sequence[str | None] = FOUR_REGISTERS) -> Callable[..., Plan]:
    """A plan whose scenario is a script, run under every register in *registers*."""

    def plan(ctx: SuiteContext) -> Plan:
        scripts, universe = chat_scripts(ctx)
        tags = _registers(registers)
        cases = tuple(Case(script, classes + tags) for script, classes in scripts)
        return Plan(cases, (*universe, ("registers", len(registers))))

    return plan


def register_and_script(ctx: SuiteContext) -> Plan:
    """A plan whose scenario is ``[register, script]``, each script under each register."""
    scripts, universe = chat_scripts(ctx)
    cases = tuple(
        Case([register, script], classes + _registers([register]))
        for script, classes in scripts
        for register in FOUR_REGISTERS
    )
    return Plan(cases, (*universe, ("registers", len(FOUR_REGISTERS))))


def template_prompts(ctx: SuiteContext) -> Plan:
    """A plan whose scenario is one prompt: each intent template once."""
    rows, _ = _prompts(ctx)
    cases = tuple(Case(p, c) for p, c in rows if not any(d.endswith("lemmas") for d, _ in c))
    return Plan(cases, (("templates", len(gen.PROMPT_TEMPLATES)),))


BUCKET_SIZES = (0, 1, 2, MAX_BUCKET - 1, MAX_BUCKET)
MARKER_LENGTHS = (0, 1, MAX_MARKER_LEN - 1, MAX_MARKER_LEN)
MARKER_CHARS = ("x", "é", "中", "😀")
"""One character per UTF-8 width; the last is outside the BMP (two UTF-16 code units)."""


def _marker_pack(register_id: str, bucket: str, markers: list[str]) -> dict[str, Any]:
    buckets: dict[str, list[str]] = {name: [] for name in oracle.BUCKET_NAMES}
    return gen.pack(register_id, markers={**buckets, bucket: markers})


def canonical_strings(ctx: SuiteContext) -> Plan:
    """A pack holding each string whose canonical form fixes an escaping rule, in its
    description and as a marker: every hash taken over the pack meets every rule."""
    cases = []
    for i, (rule, text) in enumerate(sorted(oracle.CANONICAL_STRINGS.items())):
        document = _marker_pack(f"canonical_{i}_v1", "openings", [text])
        document["description"] = text
        cases.append(Case(document, (("canonical escaping rules", rule),)))
    return Plan(tuple(cases), (("canonical escaping rules", len(cases)),))


def pack_variants(ctx: SuiteContext) -> Plan:
    """Valid packs at every bound: bucket sizes, marker lengths and widths, id lengths,
    each bucket left out, the seal field absent or empty."""
    cases = []
    for bucket in oracle.BUCKET_NAMES:
        for size in BUCKET_SIZES:
            document = _marker_pack("sizes", bucket, ["m"] * size)
            cases.append(Case(document, (("bucket sizes", f"{bucket}:{size}"),)))
        for length in MARKER_LENGTHS:
            for char in MARKER_CHARS:
                document = _marker_pack("lengths", bucket, [char * length])
                cases.append(Case(document, (("marker lengths", f"{length}x{char}"),)))
        omitted = gen.pack("omitted")
        del omitted["discourse_markers"][bucket]
        cases.append(Case(omitted, (("optional parts", f"no {bucket}"),)))
    for seal in ("absent", ""):
        document = gen.pack("sealed")
        if seal == "":
            document[oracle.SEAL_FIELD] = ""
        cases.append(Case(document, (("optional parts", f"{oracle.SEAL_FIELD} {seal!r}"),)))
    for register_id in ("a", "Z" * MAX_ID_LEN, "9" + "x_-" * 21):
        cases.append(Case(gen.pack(register_id), (("id lengths", str(len(register_id))),)))
    universe = (
        ("bucket sizes", 3 * len(BUCKET_SIZES)),
        ("marker lengths", len(MARKER_LENGTHS) * len(MARKER_CHARS)),
        ("optional parts", 5),
        ("id lengths", 2),
    )
    return Plan(tuple(cases), universe)


def override_packs(ctx: SuiteContext) -> Plan:
    """Valid packs whose overrides hold each intent under ``per_intent`` (with a depth and
    without), each flat depth, and an empty ``per_intent``."""
    depth, scoped = oracle.DEPTH_KEY, oracle.PER_INTENT_KEY
    shapes: dict[str, Callable[[str], dict[str, Any]]] = {
        "with a depth": lambda intent: {scoped: {intent: {depth: 1}}},
        "empty entry": lambda intent: {scoped: {intent: {}}},
    }
    cases = [
        Case(
            gen.pack("scoped", overrides=build(intent), depth_preference="terse"),
            (("per_intent intents", intent), ("per_intent entries", name)),
        )
        for intent in oracle.INTENT_NAMES
        for name, build in shapes.items()
    ]
    for value in oracle.DEPTHS:
        document = gen.pack("flat", overrides={depth: value}, depth_preference="pedagogical")
        cases.append(Case(document, (("flat depths", str(value)),)))
    cases.append(Case(gen.pack("none", overrides={scoped: {}}), (("per_intent entries", "none"),)))
    universe = (
        ("per_intent intents", len(oracle.INTENT_NAMES)),
        ("per_intent entries", len(shapes) + 1),
        ("flat depths", len(oracle.DEPTHS)),
    )
    return Plan(tuple(cases), universe)


def marker_widths(ctx: SuiteContext) -> Plan:
    """The marker length bound with a marker character of each UTF-8 width, in each bucket."""
    cases = tuple(
        Case(["width", bucket, char], (("characters", char), ("buckets", bucket)))
        for bucket in oracle.BUCKET_NAMES
        for char in MARKER_CHARS
    )
    return Plan(cases, (("characters", len(MARKER_CHARS)), ("buckets", len(oracle.BUCKET_NAMES))))


def wrong_types(ctx: SuiteContext) -> Plan:
    """Every string-typed place with a bool, an int, null and a list in it."""
    places = (
        *oracle.STRING_FIELDS,
        "register_id",
        *(f"discourse_markers.{b}" for b in oracle.BUCKET_NAMES),
    )
    values = (True, 1, None, ["x"])
    cases = tuple(
        Case([gen.pack("typed"), place, value, 0], (("places", place), ("values", repr(value))))
        for place in places
        for value in values
    )
    return Plan(cases, (("places", len(places)), ("values", len(values))))


SELECT_SEED = {"trace_hash": "ab" * 32, "register_id": "cover_v1", "turn_idx": 5}


def select_sizes(ctx: SuiteContext) -> Plan:
    """The selector on buckets of every size in :data:`BUCKET_SIZES` under each bucket name."""
    cases = tuple(
        Case(
            {**SELECT_SEED, "bucket": [f"e{i}" for i in range(size)], "bucket_name": name},
            (("bucket sizes", str(size)), ("bucket names", name)),
        )
        for size in BUCKET_SIZES
        for name in oracle.BUCKET_NAMES
    )
    return Plan(
        cases, (("bucket sizes", len(BUCKET_SIZES)), ("bucket names", len(oracle.BUCKET_NAMES)))
    )


BROKEN_IDS = {
    "empty": "",
    "slash": "a/b",
    "backslash": "a\\b",
    "slash first": "/ab",
    "backslash last": "ab\\",
    "dot-dot": "a..b",
    "dot-dot last": "ab..",
    "dot-dot alone": "..",
    "control": "a\x01b",
    "control first": "\x01ab",
    "a trailing newline (Python's $ matches before it)": "ab\n",
    "control alone": "\x01",
    "DEL": "a\x7fb",
    "65 characters": "a" * 65,
    "leading underscore": "_ab",
    "leading dot": ".ab",
    "leading hyphen": "-ab",
    "space": "a b",
    "space first": " ab",
    "space last": "ab ",
    "non-ASCII first": "\u00e9t\u00e9",
    "non-ASCII inside": "a\u00e9b",
    "non-ASCII alone": "\u00e9",
    "non-ASCII letter": "caf\u00e9",
    "non-ASCII digit": "a\u0663",
    "astral": "a\U0001f600",
    "Kelvin sign (folds to k)": "\u212aelvin",
    "long s (folds to s)": "\u017fix",
    "fullwidth letter": "\uff41bc",
    "superscript digit": "a\u00b2",
}


def broken_ids(ctx: SuiteContext) -> Plan:
    """One id for each rule an id can break."""
    cases = tuple(Case(rid, (("id rules", rule),)) for rule, rid in BROKEN_IDS.items())
    return Plan(cases, (("id rules", len(BROKEN_IDS)),))


def each(dimension: str, scenarios: Sequence[Any]) -> Callable[[SuiteContext], Plan]:
    """A plan that runs every scenario of a fixed table once, one class each."""

    def plan(ctx: SuiteContext) -> Plan:
        cases = tuple(Case(s, ((dimension, str(s)),)) for s in scenarios)
        return Plan(cases, ((dimension, len(scenarios)),))

    return plan


def singletons(dimension: str, names: Sequence[str]) -> Callable[[SuiteContext], Plan]:
    """A plan for a requirement whose scenario is a list of names: each name alone once."""

    def plan(ctx: SuiteContext) -> Plan:
        cases = tuple(Case([name], ((dimension, name),)) for name in names)
        return Plan(cases, ((dimension, len(names)),))

    return plan


def _other_intent(intent: str) -> str:
    return next(i for i in oracle.INTENT_NAMES if i != intent)


def precedence_cases(ctx: SuiteContext) -> Plan:
    """Every intent under every layering: each way ``per_intent`` can be present or not
    (absent, not an object, no entry for the intent, an entry that is not an object, an
    entry without the depth key, with a good or a malformed depth) beside each way the flat
    depth can be (absent, good, malformed)."""
    depth, scoped = oracle.DEPTH_KEY, oracle.PER_INTENT_KEY
    per_intent: dict[str, Callable[[str], dict[str, Any]]] = {
        "no per_intent": lambda intent: {},
        "per_intent not an object": lambda intent: {scoped: [{depth: 1}]},
        "no entry for the intent": lambda intent: {scoped: {_other_intent(intent): {depth: 1}}},
        "entry not an object": lambda intent: {scoped: {intent: 1}},
        "entry without the depth": lambda intent: {scoped: {intent: {}}},
        "entry with a depth": lambda intent: {scoped: {intent: {depth: 1}}},
        "entry with a malformed depth": lambda intent: {scoped: {intent: {depth: 0}}},
    }
    flat: dict[str, dict[str, Any]] = {
        "no flat depth": {},
        "flat depth": {depth: 2},
        "malformed flat depth": {depth: 9},
    }
    cases = tuple(
        Case(
            [{**flat_value, **build(intent)}, intent],
            (("intents", intent), ("per_intent forms", name), ("flat forms", flat_name)),
        )
        for intent in oracle.INTENT_NAMES
        for name, build in per_intent.items()
        for flat_name, flat_value in flat.items()
    )
    classes = (
        ("intents", len(oracle.INTENT_NAMES)),
        ("per_intent forms", len(per_intent)),
        ("flat forms", len(flat)),
    )
    return Plan(cases, classes)


def malformed_depth_cases(ctx: SuiteContext) -> Plan:
    """Each malformed depth (bools, floats, strings, null, out of range) once."""
    values = gen.MALFORMED_DEPTHS
    cases = tuple(Case([v, 2, "DEFINITION"], (("malformed depths", repr(v)),)) for v in values)
    return Plan(cases, (("malformed depths", len(values)),))


def depth_bounds(ctx: SuiteContext) -> Plan:
    """Every valid and every kind of malformed depth, flat and under per_intent."""
    values = (*oracle.DEPTHS, *gen.MALFORMED_DEPTHS)
    cases = tuple(
        Case(
            ["conf_bound_v1", value, "CAUSE", scoped],
            (("depths", repr(value)), ("placements", "per_intent" if scoped else "flat")),
        )
        for value in values
        for scoped in (False, True)
    )
    return Plan(cases, (("depths", len(values)), ("placements", 2)))


def decoration_shapes(ctx: SuiteContext) -> Plan:
    """Empty and non-empty openings and closings, empty markers, astral text, surfaces that
    are empty or padded with spaces (the formula adds the space whatever the surface), and
    markers at their edges: padded with white space of several kinds, white space alone,
    decomposed and compatibility forms (used and hashed as they are, never trimmed or
    normalised), and markers and surfaces another language reads as false
    (:data:`~conformance.loose_values.FALSY_TEXTS`)."""
    surface = "A surface \U0001f4d6."
    shapes = {
        "no markers": ([], [], surface),
        "opening only": (["So,"], [], surface),
        "closing only": ([], [" — ok?"], surface),
        "both": (["So,"], [" — ok?"], surface),
        "empty strings": ([""], [""], surface),
        "astral": (["\U0001f600"], ["\U0001f680"], surface),
        "both, empty surface": (["So,"], [" — ok?"], ""),
        "opening only, empty surface": (["So,"], [], ""),
        "both, surface padded with spaces": (["So,"], [" — ok? "], "  padded  "),
        "opening ending in a space": (["So, "], [], surface),
        "markers padded with other white space": (["\tSo,\u00a0"], ["\u3000ok\u2029"], surface),
        "markers of white space alone": ([" "], ["  "], surface),
        "decomposed markers (not NFC)": (["Cafe\u0301,"], [" \u212b"], surface),
        "compatibility forms (not NFKC)": (["\uff33o,"], [" \ufb01ne"], surface),
        **{f"falsy opening {t!r}": ([t], [], surface) for t in FALSY_TEXTS},
        **{f"falsy closing {t!r}": ([], [t], surface) for t in FALSY_TEXTS},
        **{f"falsy surface {t!r}": (["So,"], ["!"], t) for t in FALSY_TEXTS},
    }
    cases = tuple(
        Case(
            {
                "surface": text,
                "discourse_markers": {"openings": o, "transitions": [], "closings": c},
                "register_id": "cover_v1",
                "trace_hash": "cd" * 32,
                "turn_idx": 3,
            },
            (("marker shapes", name),),
        )
        for name, (o, c, text) in shapes.items()
    )
    return Plan(cases, (("marker shapes", len(shapes)),))


WIDE_MARKERS = ("", *(char * n for n in MARKER_LENGTHS if n for char in MARKER_CHARS))
"""The empty marker and one of each other length bound in each UTF-8 width (astral too)."""
EXTREME_IDS = ("a", "Z" * 64)
"""The shortest and the longest register ids."""
PACK_KINDS = ("null", "overrides", "markers", "both")


def _bucket(size: int) -> list[str]:
    """*size* markers, texts another language reads as false first (``"0"``, ``"0.0"``, ...:
    :data:`~conformance.loose_values.FALSY_TEXTS`); a bucket with room for every length and
    width of :data:`WIDE_MARKERS` holds those first."""
    fillers = [*FALSY_TEXTS, *(f"m{i}," for i in range(size))]
    if size < len(WIDE_MARKERS):
        return fillers[:size]
    return [*WIDE_MARKERS, *fillers[: size - len(WIDE_MARKERS)]]


def _width_classes(*buckets: list[str]) -> Classes:
    present = {m for bucket in buckets for m in bucket}
    return tuple(
        ("marker lengths", f"{len(m)}x{m[:1] or '-'}") for m in WIDE_MARKERS if m in present
    )


def _kind_pack(register_id: str, kind: str) -> dict[str, Any]:
    """A valid pack of *kind*: no overrides or markers, overrides only, markers only, both."""
    overrides: dict[str, Any] = {}
    markers = None
    if kind in ("overrides", "both"):
        overrides = {
            "disclosure_domain_count": 2,
            "per_intent": {"CAUSE": {"disclosure_domain_count": 1}},
        }
    if kind in ("markers", "both"):
        markers = {"openings": ["So,"], "transitions": ["Then,"], "closings": [" \U0001f4d6"]}
    depth = "terse" if overrides else "standard"
    return gen.pack(register_id, overrides=overrides, markers=markers, depth_preference=depth)


def _short_scripts(ctx: SuiteContext, count: int, turns: int = 3) -> list[list[str]]:
    """*count* scripts of *turns* answerable prompts, gloss-less lemmas first, then the rest."""
    rows = [prompt for prompt, _ in _prompts(ctx)[0]] or ["What is light?"]
    return [[rows[(i * turns + t) % len(rows)] for t in range(turns)] for i in range(count)]


TRANSITION_SIZES = (1, 2, 31, 32)


def transition_buckets(ctx: SuiteContext) -> Plan:
    """Transitions of 1, 2, 31 and 32 markers of every length and width, with openings and
    closings present or empty."""
    cases = []
    for i, (size, script) in enumerate(
        zip(TRANSITION_SIZES, _short_scripts(ctx, len(TRANSITION_SIZES)), strict=True)
    ):
        framed = i % 2 == 1
        markers = {
            "openings": ["So,"] if framed else [],
            "transitions": [],
            "closings": [" \u2014 ok?"] if framed else [],
        }
        transitions = _bucket(size)
        classes = (
            ("transition bucket sizes", str(size)),
            ("openings and closings", "present" if framed else "empty"),
            *_width_classes(transitions),
        )
        cases.append(Case([markers, transitions, script], classes))
    universe = (
        ("transition bucket sizes", len(TRANSITION_SIZES)),
        ("marker lengths", len(WIDE_MARKERS)),
        ("openings and closings", 2),
    )
    return Plan(tuple(cases), universe)


USER_BUCKETS = ((0, 2), (1, 0), (2, 31), (31, 32), (32, 1))
"""(openings, closings) sizes: each of 0, 1, 2, 31 and 32 once per bucket, never both empty."""


def user_registers(ctx: SuiteContext) -> Plan:
    """User packs with each bucket size per bucket, every marker length and width, the
    shortest and longest ids, and the transitions bucket present or left out."""
    cases = []
    scripts = _short_scripts(ctx, len(USER_BUCKETS))
    for i, ((openings, closings), script) in enumerate(zip(USER_BUCKETS, scripts, strict=True)):
        register_id = EXTREME_IDS[i] if i < len(EXTREME_IDS) else f"conf_user{i}_v1"
        markers: dict[str, list[str]] = {
            "openings": _bucket(openings),
            "closings": _bucket(closings),
        }
        if i % 2:
            markers["transitions"] = ["Then,"]
        classes = (
            ("bucket sizes", f"openings:{openings}"),
            ("bucket sizes", f"closings:{closings}"),
            ("optional parts", "transitions" if i % 2 else "no transitions"),
            *_width_classes(markers["openings"], markers["closings"]),
        )
        if register_id in EXTREME_IDS:
            classes += (("id lengths", str(len(register_id))),)
        cases.append(Case([register_id, markers, script], classes))
    universe = (
        ("bucket sizes", 2 * len(BUCKET_SIZES)),
        ("marker lengths", len(WIDE_MARKERS)),
        ("optional parts", 2),
        ("id lengths", len(EXTREME_IDS)),
    )
    return Plan(tuple(cases), universe)


DEPTH_PAIRS = ((1, 2), (1, 3), (2, 3), (2, 1), (3, 1))
"""(per_intent depth, flat depth): every pair of distinct depths the requirement compares."""


def glossless_depths(ctx: SuiteContext) -> Plan:
    """Every gloss-less lemma, spread over every pair of scoped and flat depths."""
    glossless = sorted(e.lemma for e in ctx.lexicon if not e.has_gloss)
    cases = []
    for i, pair in enumerate(DEPTH_PAIRS):
        lemmas = glossless[i :: len(DEPTH_PAIRS)]
        if not lemmas:
            continue
        classes = (("depth pairs", f"{pair[0]} over {pair[1]}"),)
        cases.append(
            Case([lemmas, list(pair)], classes + tuple(("gloss-less lemmas", w) for w in lemmas))
        )
    universe = (("gloss-less lemmas", len(glossless)), ("depth pairs", len(DEPTH_PAIRS)))
    return Plan(tuple(cases), universe)


UNKNOWN_INTENTS = {
    "lower case": "definition",
    "title case": "Definition",
    "plural": "DEFINITIONS",
    "empty": "",
    "leading space": " CAUSE",
    "trailing space": "CAUSE ",
    "prefixed": "INTENT_RECALL",
    "astral": "\U0001f600",
    "NUL inside": "RE\x00CALL",
}


def unknown_intents(ctx: SuiteContext) -> Plan:
    """Each way a key can miss the IntentTag names, under the shortest and longest ids."""
    cases = tuple(
        Case(
            [EXTREME_IDS[i % len(EXTREME_IDS)], key],
            (("unknown keys", name), ("id lengths", str(len(EXTREME_IDS[i % 2])))),
        )
        for i, (name, key) in enumerate(UNKNOWN_INTENTS.items())
    )
    return Plan(cases, (("unknown keys", len(UNKNOWN_INTENTS)), ("id lengths", len(EXTREME_IDS))))


SEALS = {"absent": None, "empty": "", "a seal without its report": "ab" * 32}


def unratified_packs(ctx: SuiteContext) -> Plan:
    """Every pack kind with the seal absent, empty, or naming a report that is not there."""
    cases = []
    for i, kind in enumerate(PACK_KINDS):
        seal_name = list(SEALS)[i % len(SEALS)]
        register_id = EXTREME_IDS[i % len(EXTREME_IDS)]
        document = _kind_pack(register_id, kind)
        if SEALS[seal_name] is not None:
            document["mastery_report_sha256"] = SEALS[seal_name]
        classes = (
            ("pack kinds", kind),
            ("seals", seal_name),
            ("id lengths", str(len(register_id))),
        )
        cases.append(Case(document, classes))
    universe = (("pack kinds", len(PACK_KINDS)), ("seals", len(SEALS)), ("id lengths", 2))
    return Plan(tuple(cases), universe)


def unsealed_beside_report(ctx: SuiteContext) -> Plan:
    """Every pack kind with its seal left out and emptied, at the shortest and longest ids."""
    cases = tuple(
        Case(
            [_kind_pack(EXTREME_IDS[i % 2], kind), how],
            (("pack kinds", kind), ("seals", how), ("id lengths", str(len(EXTREME_IDS[i % 2])))),
        )
        for i, kind in enumerate(PACK_KINDS)
        for how in ("absent", "empty")
    )
    universe = (("pack kinds", len(PACK_KINDS)), ("seals", 2), ("id lengths", 2))
    return Plan(cases, universe)


def pack_pairs(ctx: SuiteContext) -> Plan:
    """Every pack kind as the first pack and as the second, at the shortest and longest ids."""
    n = len(PACK_KINDS)
    cases = tuple(
        Case(
            [
                _kind_pack(EXTREME_IDS[i % 2], first),
                _kind_pack("conf_other_v1", PACK_KINDS[(i + 1) % n]),
            ],
            (
                ("first pack kinds", first),
                ("second pack kinds", PACK_KINDS[(i + 1) % n]),
                ("id lengths", str(len(EXTREME_IDS[i % 2]))),
            ),
        )
        for i, first in enumerate(PACK_KINDS)
    )
    universe = (("first pack kinds", n), ("second pack kinds", n), ("id lengths", 2))
    return Plan(cases, universe)


def sealed_packs(ctx: SuiteContext) -> Plan:
    """Every pack kind at the shortest and longest ids, with an astral label."""
    cases = tuple(
        Case(
            [_kind_pack(EXTREME_IDS[i % 2], kind), "\U0001f4d6 label"],
            (("pack kinds", kind), ("id lengths", str(len(EXTREME_IDS[i % 2])))),
        )
        for i, kind in enumerate(PACK_KINDS)
    )
    return Plan(cases, (("pack kinds", len(PACK_KINDS)), ("id lengths", 2)))


TAMPER_DELTAS = (1, 128, 255)


def tampered_packs(ctx: SuiteContext) -> Plan:
    """Every pack kind at the shortest and longest ids, bytes changed by +1, +128 and -1,
    descriptions edited to empty and to astral text."""
    cases = tuple(
        Case(
            [
                _kind_pack(EXTREME_IDS[i % 2], kind),
                i,
                TAMPER_DELTAS[i % len(TAMPER_DELTAS)],
                "" if i % 2 else "\U0001f600",
            ],
            (
                ("pack kinds", kind),
                ("id lengths", str(len(EXTREME_IDS[i % 2]))),
                ("byte deltas", str(TAMPER_DELTAS[i % len(TAMPER_DELTAS)])),
            ),
        )
        for i, kind in enumerate(PACK_KINDS)
    )
    universe = (
        ("pack kinds", len(PACK_KINDS)),
        ("id lengths", 2),
        ("byte deltas", len(TAMPER_DELTAS)),
    )
    return Plan(cases, universe)
