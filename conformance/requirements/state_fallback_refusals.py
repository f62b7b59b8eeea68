"""A load that falls back and meets a generation whose schema version is refused, or whose
records are malformed while its checksums hold, is refused with that code: it never skips
past that generation to an older valid one (docs/state.md § Schema versions: neither
refusal triggers a fall back to an older generation; § Recovery rules (load) 6).

``gen-00000001`` is valid; ``gen-00000002`` is checksummed but has a schema version too
new, a schema version that is a string, or a record with a float for an integer;
``gen-00000003`` is torn. ``CURRENT`` names ``gen-00000003`` (proven invalid), or is
missing: either way the load falls back, meets ``gen-00000002`` first and must refuse.
A port that treats every generation it cannot use while falling back as invalid loads
``gen-00000001``: a silent downgrade.
"""

from __future__ import annotations

from pathlib import Path

from conformance import cases
from conformance.engines.base import EngineClient, EngineRefused
from conformance.requirements.registry import requirement
from conformance.state import oracle
from conformance.state.crashstates import snapshot
from conformance.state.driver import scratch

RECORD = {"kind": "recognizer", "key": "k", "pattern": "p", "weight": 1}
NEWER = {**RECORD, "key": "later"}
REFUSED = {
    "a schema version too new": (99, "STATE_SCHEMA_TOO_NEW"),
    'a schema version "5", a string': ("5", "STATE_SCHEMA_MALFORMED"),
    "a record whose int is 1.0": (None, "STATE_RECORD_MALFORMED"),
}
POINTERS = ("CURRENT names the torn gen-00000003", "CURRENT missing")


def _plant(directory: Path, damage: str, pointer: str, version: int) -> None:
    oracle.write_generation(directory, 1, oracle.encode_core([RECORD]), version, turn_count=1)
    schema, _ = REFUSED[damage]
    core = oracle.encode_core([RECORD, NEWER])
    if schema is None:
        core = core.replace(b'"weight":1}', b'"weight":1.0}', 1)
        schema = version
    oracle.write_generation(directory, 2, core, schema, turn_count=2, point=False)
    oracle.write_generation(directory, 3, oracle.encode_core([NEWER]), version, turn_count=3)
    (directory / "gen-00000003" / "core.jsonl").write_bytes(b"torn")
    if pointer == "CURRENT missing":
        (directory / "CURRENT").unlink()


@requirement(
    "STATE-RECOVER-461",
    "a load or an open falling back (CURRENT naming a torn generation, or missing) whose "
    "newest other generation has a schema version too new or malformed, or a malformed "
    "record under checksums that hold, is refused with that code (STATE_SCHEMA_TOO_NEW, "
    "STATE_SCHEMA_MALFORMED, STATE_RECORD_MALFORMED), never loads the older valid "
    "generation, and the open changes nothing",
    family="state",
    capabilities=("state",),
    seed="docs/state.md § Schema versions (neither refusal triggers a fall back to an older "
    "generation); § Recovery rules (load) 6",
    max_examples=1,
)
def fallback_stops_at_refusal(engine: EngineClient, _: object) -> None:
    version = oracle.schema_of(engine.capabilities())
    problems: list[str] = []
    with scratch() as root:
        for number, (damage, (_, code)) in enumerate(REFUSED.items()):
            for place, pointer in enumerate(POINTERS):
                directory = root / f"{number}-{place}"
                _plant(directory, damage, pointer, version)
                before = snapshot(directory)
                for op in ("state.load", "state.open"):
                    what = f"{op}, gen-00000002 with {damage}, {pointer}"
                    try:
                        got = engine.call(op, {"dir": str(directory)})
                    except EngineRefused as refusal:
                        if refusal.code != code:
                            problems.append(f"{what}: refused {refusal.code}, not {code}")
                        continue
                    problems.append(
                        f"{what}: loaded generation {got.get('generation')!r}, not refused {code}"
                    )
                    if op == "state.open":
                        engine.call("state.close", {"store": got.get("store")})
                after = snapshot(directory)
                changed = sorted(
                    k
                    for k in set(before) | set(after)
                    if k != "LOCK" and before.get(k) != after.get(k)
                )
                if changed:
                    problems.append(f"gen-00000002 with {damage}, {pointer}: changed {changed}")
    assert not problems, cases.lines(problems, f"{len(problems)} problems:")
