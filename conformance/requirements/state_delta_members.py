"""A delta generation's manifest read as JSON (docs/state.md § Delta generations: ``base``
is an object with exactly the members ``core`` and ``generation``; § The manifest: the
checksum is the SHA-256 of the canonical JSON of the manifest without ``checksum``).

STATE-DELTA-359: a manifest whose ``base`` member writes ``generation`` before ``core``, or
whose own members are written in another order than canonical JSON's, its checksum that of
the canonical JSON of its members, names its base all the same: an object's members have no
order, and recovery rule 4 lists what proves a generation invalid, which is not among them.
A port that compares the base's member names in the order they were written (or the
manifest's bytes with its canonical form) falls back from a valid generation.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from conformance import cases
from conformance.canonical import canonical_json
from conformance.engines.base import EngineClient, EngineRefused
from conformance.requirements.registry import requirement
from conformance.requirements.state_delta import DELTA, VERSION, delta_bytes, write_delta
from conformance.state import oracle
from conformance.state.driver import load, scratch

BASE = [{"kind": "recognizer", "key": "a", "pattern": "p", "weight": 1}]
TARGET = [*BASE, {"kind": "recognizer", "key": "b", "pattern": "q", "weight": 2}]


def _base_reversed(body: dict[str, Any]) -> dict[str, Any]:
    base = body["base"]
    return {**body, "base": {"generation": base["generation"], "core": base["core"]}}


def _members_reversed(body: dict[str, Any]) -> dict[str, Any]:
    return dict(reversed(list(_base_reversed(body).items())))


ORDERS = {
    "base written generation before core": _base_reversed,
    "every member (the base's too) written in reverse order": _members_reversed,
}
"""How each case writes the delta generation's manifest: the same members, in another
order than canonical JSON's."""


def _rewrite(manifest: Path, order: Any) -> None:
    """Write *manifest* again with its members in *order*; the checksum stays the SHA-256 of
    the canonical JSON of its members without it."""
    body = {k: v for k, v in json.loads(manifest.read_bytes()).items() if k != "checksum"}
    checksum = hashlib.sha256(canonical_json(body).encode("utf-8")).hexdigest()
    written = order({**body, "checksum": checksum})
    manifest.write_bytes(json.dumps(written, separators=(",", ":")).encode("utf-8") + b"\n")


def _case(engine: EngineClient, directory: Path, order: Any) -> str | None:
    """A full generation 1 and a delta 2 on it (CURRENT), its manifest's members in *order*:
    what went wrong, or None when the delta loaded."""
    oracle.write_generation(directory, 1, oracle.encode_core(BASE), VERSION, 1)
    identity = oracle.identity(VERSION, oracle.encode_core(TARGET))
    write_delta(directory, 2, 1, delta_bytes(BASE, TARGET), identity, 2)
    (directory / "CURRENT").write_bytes(b"gen-00000002\n")
    _rewrite(directory / "gen-00000002" / "manifest.json", order)
    try:
        got = load(engine, directory)
    except EngineRefused as refusal:
        return f"refused {refusal.code}, not loaded"
    seen = {k: got.get(k) for k in ("generation", "identity", "records")}
    want = {"generation": 2, "identity": identity, "records": len(TARGET)}
    if seen != want or got.get("recovered"):
        return f"loaded {seen} (recovered {got.get('recovered')!r}), not {want}"
    return None


@requirement(
    "STATE-DELTA-359",
    "a delta generation whose manifest writes its base member's generation before core, or "
    "every member in reverse order, its checksum the SHA-256 of the canonical JSON of its "
    "members, is valid: the load loads it (generation, identity, records), neither a fall "
    "back nor a refusal",
    family="state",
    capabilities=DELTA,
    seed="docs/state.md § Delta generations: base is an object with exactly the members core "
    "and generation; § The manifest: checksum is the SHA-256 of the canonical JSON of the "
    "manifest without checksum; § Recovery rules (load) 4 lists what proves it invalid",
    max_examples=1,
)
def delta_members_in_any_order(engine: EngineClient, _: object) -> None:
    problems = []
    with scratch() as root:
        for number, (name, order) in enumerate(ORDERS.items()):
            problem = _case(engine, root / str(number), order)
            if problem:
                problems.append(f"{name}: {problem}")
    assert not problems, cases.lines(problems, "a delta generation's manifest, members reordered:")
