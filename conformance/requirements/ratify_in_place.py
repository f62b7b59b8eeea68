"""What register.ratify_file writes: the pack rewritten in normal form with its seal, and the
report the seal scheme fixes.

docs/registers.md § The ratification gate: "Seal the report and commit it together with the
pack rewritten in normal form (`mastery_report_sha256` set to the seal)"; docs/protocol.md §
register.ratify_file: the engine ratifies the file in place "as `python -m reference ratify
PATH` does", and its result is the sealed report "as in register.ratify". LOAD-RATIFY-002
and LOAD-REPORT-201 check the files of ``register.ratify``; the requirements of
``register.ratify_file`` (LOAD-COMMIT-001, LOAD-STEPS-001, LOAD-HIDDEN-101) check the order,
atomicity and clean-up of its writes, never what they hold. So an in-place ratify that
writes the report beside the pack but leaves the pack as it was given (no seal, not in
normal form), or writes a report of its own, passes them. Here the pack file is written out
of normal form (one-space indent, keys unsorted, non-ASCII escaped, buckets left out, a
stale or no seal), then, once ratified, written out of normal form again with its seal, the
report beside it (a second ratify has as much to rewrite as the first); after each
``register.ratify_file`` the report file is the normal form of the report docs/registers.md
defines, the pack file is the normal form of the pack with all three buckets and the report's
seal, and the answered report is the written one.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from conformance import strategies as gen
from conformance.engines.base import EngineClient
from conformance.oracle import BUCKET_NAMES, SEAL_FIELD
from conformance.requirements.loader import expected_report
from conformance.requirements.registry import requirement
from conformance.state.driver import scratch


def _pretty(value: object) -> bytes:
    """docs/registers.md § Normal form: sorted keys, two-space indent, UTF-8 without ASCII
    escaping, one trailing newline."""
    return (json.dumps(value, sort_keys=True, indent=2, ensure_ascii=False) + "\n").encode()


def _out_of_normal_form(document: dict[str, Any]) -> bytes:
    """*document* as a hand-written file: one-space indent, keys in reverse order, non-ASCII
    escaped, no trailing newline."""
    reordered = dict(reversed(list(document.items())))
    return json.dumps(reordered, indent=1, ensure_ascii=True).encode()


@requirement(
    "LOAD-INPLACE-001",
    "register.ratify_file rewrites the pack in normal form with all three buckets and "
    "mastery_report_sha256 set to the seal, writes the report the seal scheme fixes in "
    "normal form beside it, and answers that report: of a pack never ratified, and again of "
    "that pack once sealed, its report beside it, written out of normal form",
    family="loader",
    capabilities=("registers.ratify_file",),
    seed="docs/registers.md § The ratification gate (seal the report and commit it together "
    "with the pack rewritten in normal form); docs/protocol.md § register.ratify_file",
    strategy=lambda ctx: gen.pack_variants(),
    max_examples=10,
)
def ratify_file_writes_the_sealed_pair(engine: EngineClient, document: dict[str, Any]) -> None:
    document = {**document, "description": f"{document['description']} \u00e9t\u00e9"}
    stem = document["register_id"]
    want = expected_report(document)
    markers = {name: document["discourse_markers"].get(name, []) for name in BUCKET_NAMES}
    body = {k: v for k, v in document.items() if k != SEAL_FIELD}
    sealed = {**body, "discourse_markers": markers, SEAL_FIELD: want["seal"]}
    with scratch() as directory:
        pack = directory / f"{stem}.json"
        pack.write_bytes(_out_of_normal_form(document))
        _ratified(engine, pack, want, sealed, "a pack never ratified")
        pack.write_bytes(_out_of_normal_form(sealed))
        _ratified(engine, pack, want, sealed, "the sealed pack written out of normal form")


def _ratified(
    engine: EngineClient, pack: Path, want: dict[str, Any], sealed: dict[str, Any], what: str
) -> None:
    """Ratify *pack* in place and check the pair written and the report answered."""
    report = pack.with_name(f"{pack.stem}.mastery_report.json")
    answer = engine.call("register.ratify_file", {"path": str(pack)})
    assert report.is_file(), f"{what}: ratifying {pack.name} in place wrote no {report.name}"
    assert report.read_bytes() == _pretty(want), (
        f"{what}: {report.name} is not the normal form of the report docs/registers.md § Seal "
        f"scheme fixes: {report.read_bytes()[:300]!r}"
    )
    assert pack.read_bytes() == _pretty(sealed), (
        f"{what}: {pack.name} is not the pack rewritten in normal form with all three buckets "
        f"and {SEAL_FIELD} the report's seal: {pack.read_bytes()[:300]!r}"
    )
    got = answer.get("report")
    assert got == want, f"{what}: the answered report {got!r} is not the report written"
