"""Every member ratify writes, valued from the docs' definition with inputs that tell sources apart.

LOAD-RATIFY-002 compares the report with the one the seal scheme fixes, but over packs whose
``version`` equals their ``schema_version`` and whose ``display_name`` equals their id, so a
member filled from the wrong one of two equal sources passes it. Here the pack's ``version``,
``description`` and ``display_name`` differ from each other, from ``schema_version`` and
from the id, the three marker buckets have three different sizes, and the per-intent keys
differ from the top-level override keys. Each member of the report
(docs/registers.md § Seal scheme, § The ratification gate steps 4 and 5) and of the pack
rewritten in normal form (§ Normal form), its ``mastery_report_sha256`` the seal, is checked
against its definition (conformance/written_members.py lists them).
"""

from __future__ import annotations

import base64
import json
from typing import Any

from hypothesis import strategies as st

from conformance import strategies as gen
from conformance.canonical import digest
from conformance.engines.base import EngineClient
from conformance.engines.view import sealed_json
from conformance.oracle import BUCKET_NAMES, PER_INTENT_KEY, SCHEMA_VERSION, SEAL_FIELD
from conformance.requirements.registry import requirement

VERSIONS = ("2.7.1", "", "0.0.1-rc.1+build", "version ünï")
"""Pack versions that are not the schema version (``version`` may be any string)."""


@st.composite
def distinctive_packs(draw: st.DrawFn) -> dict[str, Any]:
    """A non-null pack whose sources of any two report members differ."""
    rid = draw(gen.register_ids)
    overrides = draw(gen.overrides().filter(lambda o: bool(o.get(PER_INTENT_KEY))))
    opening, transition, closing = draw(st.lists(gen.markers, min_size=3, max_size=3))
    markers = {"openings": [opening], "transitions": [transition] * 2, "closings": [closing] * 3}
    document = gen.pack(rid, overrides=overrides, markers=markers, depth_preference="terse")
    document["version"] = draw(st.sampled_from(VERSIONS))
    document["description"] = f"description of {rid}"
    document["display_name"] = f"Display {rid}"
    return document


def _pretty(value: object) -> bytes:
    return (json.dumps(value, sort_keys=True, indent=2, ensure_ascii=False) + "\n").encode()


@requirement(
    "LOAD-REPORT-201",
    "every member ratify writes holds its definition when its possible sources differ: the "
    "report's pack_version is the pack's version (not its schema_version), register_id, "
    "pack_source_sha256 (the pack without its seal field), schema_version, verdict, the "
    "sorted methods, each evidence member (bucket sizes per bucket, per-intent keys, "
    "top-level override keys, transitions_reserved, null_register) and the self-seal; the "
    "pack file is the pack in normal form with the seal, every field its own",
    family="loader",
    capabilities=("registers.ratify",),
    seed="docs/registers.md § Seal scheme (the report), § The ratification gate (steps 4-5), "
    "§ Normal form",
    strategy=lambda ctx: distinctive_packs(),
    max_examples=12,
)
def written_members_hold(engine: EngineClient, document: dict[str, Any]) -> None:
    result = engine.call("register.ratify", {"pack": document})
    rid = document["register_id"]
    markers = document["discourse_markers"]
    overrides = document["realizer_overrides"]
    normal = {k: v for k, v in document.items() if k != SEAL_FIELD}
    definitions: dict[str, Any] = {
        "register_id": rid,
        "pack_version": document["version"],
        "pack_source_sha256": digest(normal),
        "schema_version": SCHEMA_VERSION,
        "verdict": "ratified",
        "methods": [
            "known_key_overrides_invariant_grounding",
            "seeded_variation_replay_equivalence",
        ],
        "evidence": {
            "marker_bucket_sizes": {name: len(markers[name]) for name in BUCKET_NAMES},
            "per_intent_keys": sorted(overrides[PER_INTENT_KEY]),
            "transitions_reserved": True,
            "realizer_overrides_keys": sorted(overrides),
            "null_register": False,
        },
    }
    seal = digest(definitions)
    written = sealed_json(result["files"], f"{rid}.mastery_report.json")
    for where, report in (("result", result["report"]), ("report file", written)):
        for key, want in definitions.items():
            got = report.get(key) if isinstance(report, dict) else None
            assert got == want, f"{where}: {key} = {got!r}, the docs define {want!r}"
        assert report.get("seal") == seal, f"{where}: seal {report.get('seal')!r}, want {seal}"
        assert set(report) == {*definitions, "seal"}, f"{where}: members {sorted(report)}"
    pack = sealed_json(result["files"], f"{rid}.json")
    for key, want in {**normal, SEAL_FIELD: seal}.items():
        got = pack.get(key)
        assert got == want, f"ratified pack: {key} = {got!r}, the pack gave {want!r}"
    raw = result["files"][f"{rid}.json"]
    assert base64.b64decode(raw) == _pretty({**normal, SEAL_FIELD: seal}), (
        "ratified pack is not pretty_json of the pack with its seal (normal form)"
    )
