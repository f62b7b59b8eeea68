"""The ledger audit's broken engines each fail a requirement their sentence's entry cites.

``tools/normative_probes.py`` names, for every sentence the audit samples from
docs/normative.json, the broken engines that violate it; a probe that stops failing the
ids its sentence cites (an entry edited, a requirement weakened) fails here, as does a
sample that no longer matches the table (the ledger changed under the seed).
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


def test_the_table_covers_the_sample() -> None:
    drawn = normative_audit.sample(normative.load())
    assert drawn["checked"] == list(PROBES)
    assert drawn["informative"] == list(INFORMATIVE_JUDGED)


@pytest.mark.parametrize(("key", "probe"), CASES)
def test_a_cited_requirement_catches_the_probe(key: str, probe: str) -> None:
    cited = normative.load()["sentences"][key]["checked_by"]
    assert normative_audit.first_failing(probe, cited), f"{probe} passes every id {key} cites"
