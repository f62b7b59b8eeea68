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
from conformance.driver import FOUR_REGISTERS
from conformance.model import SuiteContext

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


def _spread(items: Sequence[str], count: int) -> list[str]:
    if len(items) <= count:
        return list(items)
    return [items[i * len(items) // count] for i in range(count)]


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
    universe = [("templates", len(gen.PROMPT_TEMPLATES))]
    if ctx.lexicon:
        universe = [("gloss-less lemmas", len(glossless)), ("glossed lemmas", len(glossed))] + (
            universe
        )
    return rows, universe


def chat_scripts(ctx: SuiteContext) -> tuple[list[tuple[list[str], Classes]], list]:
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


BUCKET_SIZES = (0, 1, 2, 31, 32)
MARKER_LENGTHS = (0, 1, 127, 128)
MARKER_CHARS = ("x", "é", "中", "😀")
"""One character per UTF-8 width; the last is outside the BMP (two UTF-16 code units)."""


def _marker_pack(register_id: str, bucket: str, markers: list[str]) -> dict:
    buckets = {name: [] for name in gen.BUCKET_NAMES}
    return gen.pack(register_id, markers={**buckets, bucket: markers})


def pack_variants(ctx: SuiteContext) -> Plan:
    """Valid packs at every bound: bucket sizes, marker lengths and widths, id lengths,
    each bucket left out, the seal field absent or empty."""
    cases = []
    for bucket in gen.BUCKET_NAMES:
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
            document["mastery_report_sha256"] = ""
        cases.append(Case(document, (("optional parts", f"mastery_report_sha256 {seal!r}"),)))
    for register_id in ("a", "Z" * 64, "9" + "x_-" * 21):
        cases.append(Case(gen.pack(register_id), (("id lengths", str(len(register_id))),)))
    universe = (
        ("bucket sizes", 3 * len(BUCKET_SIZES)),
        ("marker lengths", len(MARKER_LENGTHS) * len(MARKER_CHARS)),
        ("optional parts", 5),
        ("id lengths", 2),
    )
    return Plan(tuple(cases), universe)


def marker_widths(ctx: SuiteContext) -> Plan:
    """The 128/129 bound with a marker character of each UTF-8 width, in each bucket."""
    cases = tuple(
        Case(["width", bucket, char], (("characters", char), ("buckets", bucket)))
        for bucket in gen.BUCKET_NAMES
        for char in MARKER_CHARS
    )
    return Plan(cases, (("characters", len(MARKER_CHARS)), ("buckets", len(gen.BUCKET_NAMES))))


def wrong_types(ctx: SuiteContext) -> Plan:
    """Every string-typed place with a bool, an int, null and a list in it."""
    places = (
        *gen.STRING_FIELDS,
        "register_id",
        *(f"discourse_markers.{b}" for b in gen.BUCKET_NAMES),
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
    """The selector on buckets of 0, 1, 2, 31 and 32 entries under each bucket name."""
    cases = tuple(
        Case(
            {**SELECT_SEED, "bucket": [f"e{i}" for i in range(size)], "bucket_name": name},
            (("bucket sizes", str(size)), ("bucket names", name)),
        )
        for size in BUCKET_SIZES
        for name in gen.BUCKET_NAMES
    )
    return Plan(cases, (("bucket sizes", len(BUCKET_SIZES)), ("bucket names", 3)))


BROKEN_IDS = {
    "empty": "",
    "slash": "a/b",
    "backslash": "a\\b",
    "dot-dot": "a..b",
    "control": "a\x01b",
    "DEL": "a\x7fb",
    "65 characters": "a" * 65,
    "leading underscore": "_ab",
    "leading dot": ".ab",
    "leading hyphen": "-ab",
    "space": "a b",
    "non-ASCII letter": "caf\u00e9",
    "non-ASCII digit": "a\u0663",
    "astral": "a\U0001f600",
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
    """Every intent under each layering: nothing, flat only, per_intent only, both, and a
    per_intent entry for another intent."""
    depth = "disclosure_domain_count"
    layerings = {
        "default": lambda intent: {},
        "flat": lambda intent: {depth: 2},
        "per_intent": lambda intent: {"per_intent": {intent: {depth: 1}}},
        "both": lambda intent: {depth: 2, "per_intent": {intent: {depth: 1}}},
        "other intent": lambda intent: {
            depth: 2,
            "per_intent": {_other_intent(intent): {depth: 1}},
        },
    }
    cases = tuple(
        Case([build(intent), intent], (("intents", intent), ("layerings", name)))
        for intent in oracle.INTENT_NAMES
        for name, build in layerings.items()
    )
    return Plan(cases, (("intents", len(oracle.INTENT_NAMES)), ("layerings", len(layerings))))


def malformed_depth_cases(ctx: SuiteContext) -> Plan:
    """Each malformed depth (bools, floats, strings, null, out of range) once."""
    values = gen.MALFORMED_DEPTHS
    cases = tuple(Case([v, 2, "DEFINITION"], (("malformed depths", repr(v)),)) for v in values)
    return Plan(cases, (("malformed depths", len(values)),))


def depth_bounds(ctx: SuiteContext) -> Plan:
    """Every valid and every kind of malformed depth, flat and under per_intent."""
    values = (1, 2, 3, *gen.MALFORMED_DEPTHS)
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
    """Empty and non-empty openings and closings, empty markers, and astral text."""
    shapes = {
        "no markers": ([], []),
        "opening only": (["So,"], []),
        "closing only": ([], [" — ok?"]),
        "both": (["So,"], [" — ok?"]),
        "empty strings": ([""], [""]),
        "astral": (["\U0001f600"], ["\U0001f680"]),
    }
    cases = tuple(
        Case(
            {
                "surface": "A surface \U0001f4d6.",
                "discourse_markers": {"openings": o, "transitions": [], "closings": c},
                "register_id": "cover_v1",
                "trace_hash": "cd" * 32,
                "turn_idx": 3,
            },
            (("marker shapes", name),),
        )
        for name, (o, c) in shapes.items()
    )
    return Plan(cases, (("marker shapes", len(shapes)),))
