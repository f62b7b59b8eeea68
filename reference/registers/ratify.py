"""The ratification gate: check a pack file, seal its mastery report, commit both atomically.

Ratifying is idempotent: the report holds no timestamps, so running it twice
over the same pack writes byte-identical files.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from reference.canonical import canonical_json, pretty_json
from reference.registers.loader import read_pack_file
from reference.registers.model import PER_INTENT_KEY, SEAL_FIELD, RegisterPack
from reference.registers.pending import commit_pair, recover
from reference.registers.seal import build_report, seal_report
from reference.registers.validate import fail, validate_register_id

EvidenceProbe = Callable[[RegisterPack], dict[str, Any]]

METHOD_NULL = "byte_identity_null_lift"
METHOD_OVERRIDES = "known_key_overrides_invariant_grounding"
METHOD_MARKERS = "seeded_variation_replay_equivalence"


def is_null_pack(pack: RegisterPack) -> bool:
    """True when the pack has no overrides, no openings and no closings."""
    markers = pack.discourse_markers
    return not pack.realizer_overrides and not markers.openings and not markers.closings


def check_gate(pack: RegisterPack) -> None:
    """Refuse a null pack that claims a non-standard depth (REGISTER_EMPTY_NON_NULL)."""
    if is_null_pack(pack) and pack.depth_preference != "standard":
        message = (
            f"register {pack.register_id!r} claims depth_preference "
            f"{pack.depth_preference!r} but has no realizer_overrides, openings or closings; "
            "a non-null register needs at least one of them"
        )
        fail("REGISTER_EMPTY_NON_NULL", message, "depth_preference")


def ratification_methods(pack: RegisterPack) -> list[str]:
    """The sorted method labels that ratify this kind of pack."""
    if is_null_pack(pack):
        return [METHOD_NULL]
    markers = pack.discourse_markers
    methods = []
    if pack.realizer_overrides:
        methods.append(METHOD_OVERRIDES)
    if markers.openings or markers.closings:
        methods.append(METHOD_MARKERS)
    return sorted(methods)


def static_evidence(pack: RegisterPack) -> dict[str, Any]:
    """Evidence read off the pack itself: bucket sizes, override keys, null status."""
    markers = pack.discourse_markers
    per_intent = pack.realizer_overrides.get(PER_INTENT_KEY, {})
    return {
        "marker_bucket_sizes": {
            "openings": len(markers.openings),
            "transitions": len(markers.transitions),
            "closings": len(markers.closings),
        },
        "per_intent_keys": sorted(per_intent),
        "transitions_reserved": bool(markers.transitions),
        "realizer_overrides_keys": sorted(pack.realizer_overrides),
        "null_register": is_null_pack(pack),
    }


def run_probe(probe: EvidenceProbe, pack: RegisterPack) -> dict[str, Any]:
    """Run *probe* on *pack*; refuse with REGISTER_PROBE_FAILED unless it vouches for it."""
    try:
        result = probe(pack)
        canonical_json(result)
    except Exception as exc:
        fail("REGISTER_PROBE_FAILED", f"evidence probe raised {type(exc).__name__}: {exc}", "probe")
    if not isinstance(result, dict):
        fail("REGISTER_PROBE_FAILED", "evidence probe did not return a JSON object", "probe")
    if result.get("ok") is False:
        reason = result.get("reason", "no reason given")
        fail("REGISTER_PROBE_FAILED", f"evidence probe refused: {reason}", "probe")
    return result


def _finish_earlier_ratify(path: Path) -> None:
    try:
        recover(path)
    except OSError as exc:
        message = f"{path}: cannot finish an interrupted ratify: {exc.strerror or exc}"
        fail("REGISTER_WRITE_FAILED", message, "path")


class Ratifier:
    """Ratifies a pack file in overridable steps, each one part of the ratification contract.

    :meth:`ratify` reads the pack (``read``), applies the gate (``check_gate``), gathers
    the evidence (``evidence``), builds the unsealed report (``unsealed_report``), seals
    it and writes both files (``write_sealed``). A subclass that replaces one step
    changes only it.
    """

    def __init__(self, evidence_probe: EvidenceProbe | None = None) -> None:
        self.evidence_probe = evidence_probe

    def ratify(self, path: Path) -> dict[str, Any]:
        """Ratify the pack at *path* and return its sealed mastery report."""
        path = Path(path)
        pack = self.read(path)
        self.check_gate(pack)
        report = seal_report(self.unsealed_report(pack, self.evidence(pack)))
        self.write_sealed(path, pack, report)
        return report

    def read(self, path: Path) -> RegisterPack:
        """The pack at *path*, after finishing an interrupted ratify of it."""
        if path.suffix != ".json":
            fail("REGISTER_MALFORMED", f"{path}: a register pack file must end in .json", "path")
        if not path.is_file():
            fail("REGISTER_NOT_FOUND", f"{path}: no such register pack file", "path")
        validate_register_id(path.stem)
        _finish_earlier_ratify(path)
        pack, _ = read_pack_file(path, expected_id=path.stem)
        return pack

    def check_gate(self, pack: RegisterPack) -> None:
        """Refuse a null pack that claims a non-standard depth (:func:`check_gate`)."""
        check_gate(pack)

    def evidence(self, pack: RegisterPack) -> dict[str, Any]:
        """The static evidence, plus the probe's verdict when a probe is given."""
        evidence = static_evidence(pack)
        if self.evidence_probe is not None:
            evidence["probe"] = run_probe(self.evidence_probe, pack)
        return evidence

    def unsealed_report(self, pack: RegisterPack, evidence: dict[str, Any]) -> dict[str, Any]:
        """The mastery report of *pack* before its seal is added."""
        return build_report(pack, ratification_methods(pack), evidence)

    def write_sealed(self, path: Path, pack: RegisterPack, report: dict[str, Any]) -> None:
        """Write the pack sealed by *report*, and the report, as one atomic pair."""
        sealed_pack = {**pack.as_json(), SEAL_FIELD: report["seal"]}
        pack_bytes = pretty_json(sealed_pack).encode("utf-8")
        try:
            commit_pair(path, pack_bytes, pretty_json(report).encode("utf-8"))
        except OSError as exc:
            fail("REGISTER_WRITE_FAILED", f"{path}: cannot write: {exc.strerror or exc}", "path")


def ratify_pack_file(path: Path, *, evidence_probe: EvidenceProbe | None = None) -> dict[str, Any]:
    """Ratify the pack at *path* with :class:`Ratifier` and return its sealed mastery report.

    Writes ``<stem>.mastery_report.json`` beside the pack and rewrites the pack
    in normal form with ``mastery_report_sha256`` set to the report's seal.
    """
    return Ratifier(evidence_probe).ratify(Path(path))
