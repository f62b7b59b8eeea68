"""The ledger audit's broken engines each fail a requirement their sentence's entry cites.

``tools/normative_probes.py`` names, for every sentence the audit samples from
docs/normative.json, the broken engines that violate it; a probe that stops failing the
ids its sentence cites (an entry edited, a requirement weakened) fails here, as does a
sampled sentence that left the ledger or changed its kind of entry.
"""

from __future__ import annotations

import pytest

from tools import normative, normative_audit
from tools.normative_probes import INFORMATIVE_JUDGED, PROBES

SLOW = {"state:no_dir_fsync", "state:field_without_vault"}
"""Probes whose requirement kills and restarts engines (STATE-CRASH-001, STATE-LIFE-001)."""

CASES = [
    pytest.param(key, probe, marks=[pytest.mark.long] if probe in SLOW else [], id=probe)
    for key, probes in PROBES.items()
    for probe in probes
]


def test_the_frozen_sample_is_still_in_the_ledger() -> None:
    """Each audited sentence keeps its entry's kind; an edited one needs a new probe."""
    entries = normative.load()["sentences"]
    for key in PROBES:
        assert key in entries, f"{key} is gone: audit its successor"
        assert normative.status(entries[key]["checked_by"]) == "checked", key
    for key, (verdict, _) in INFORMATIVE_JUDGED.items():
        assert key in entries, f"{key} is gone: judge its successor"
        kind = normative.status(entries[key]["checked_by"])
        assert kind == ("informative" if verdict == "informative" else "checked"), key


@pytest.mark.parametrize(("key", "probe"), CASES)
def test_a_cited_requirement_catches_the_probe(key: str, probe: str) -> None:
    cited = normative.load()["sentences"][key]["checked_by"]
    assert normative_audit.first_failing(probe, cited), f"{probe} passes every id {key} cites"
