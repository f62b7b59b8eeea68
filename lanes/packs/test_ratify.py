"""The ratification gate: method labels, evidence, probes, sealing and atomic idempotent writes."""

from __future__ import annotations

import io
import itertools
import json
import os
import shutil
import stat
import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reference.canonical import pretty_json
from reference.cli import main_ratify
from reference.errors import RegisterError
from reference.registers.loader import SHIPPED_DATA_DIR, SHIPPED_REGISTER_IDS, load_register_pack
from reference.registers.ratify import ratify_pack_file
from reference.registers.seal import (
    pack_source_sha256,
    report_path_for,
    seal_report,
    verify_report_seal,
)

NULL = "byte_identity_null_lift"
OVERRIDES = "known_key_overrides_invariant_grounding"
MARKERS = "seeded_variation_replay_equivalence"


def pack(
    register_id: str = "user_v1",
    *,
    depth: str = "standard",
    overrides: dict | None = None,
    **buckets: list[str],
) -> dict:
    return {
        "register_id": register_id,
        "version": "1.0.0",
        "description": "A test register.",
        "schema_version": "1.0.0",
        "display_name": "User",
        "depth_preference": depth,
        "realizer_overrides": overrides or {},
        "discourse_markers": {"openings": [], "transitions": [], "closings": [], **buckets},
    }


def write(directory: Path, data: object, name: str = "user_v1") -> Path:
    path = directory / f"{name}.json"
    path.write_text(pretty_json(data), encoding="utf-8")
    return path


def refused(path: Path, **kwargs) -> RegisterError:
    with pytest.raises(RegisterError) as info:
        ratify_pack_file(path, **kwargs)
    return info.value


# The gate and its method labels -----------------------------------------------------

KINDS = [
    ("null", pack(), [NULL]),
    ("transitions-only", pack(transitions=["and then"]), [NULL]),
    ("overrides", pack(depth="terse", overrides={"disclosure_domain_count": 1}), [OVERRIDES]),
    ("openings", pack(openings=["So,"]), [MARKERS]),
    ("closings", pack(depth="pedagogical", closings=[" — ok?"]), [MARKERS]),
    (
        "both",
        pack(overrides={"per_intent": {}}, openings=["So,"], closings=[""]),
        [OVERRIDES, MARKERS],
    ),
]


@pytest.mark.parametrize(("data", "methods"), [k[1:] for k in KINDS], ids=[k[0] for k in KINDS])
def test_methods_per_pack_kind(tmp_path: Path, data: dict, methods: list[str]) -> None:
    report = ratify_pack_file(write(tmp_path, data))
    assert report["methods"] == sorted(methods)
    assert report["evidence"]["null_register"] is (methods == [NULL])
    assert load_register_pack("user_v1", search_path=[tmp_path]).register_id == "user_v1"


@pytest.mark.parametrize("depth", ["terse", "pedagogical"])
@pytest.mark.parametrize("transitions", [[], ["meanwhile"]])
def test_null_pack_claiming_a_depth_is_refused(
    tmp_path: Path, depth: str, transitions: list[str]
) -> None:
    path = write(tmp_path, pack(depth=depth, transitions=transitions))
    before = path.read_bytes()
    error = refused(path)
    assert (error.code, error.field) == ("REGISTER_EMPTY_NON_NULL", "depth_preference")
    assert depth in error.message and "non-null" in error.message
    assert path.read_bytes() == before
    assert not report_path_for(path).exists()


# Evidence ------------------------------------------------------------------------------


def test_evidence_for_a_full_pack(tmp_path: Path) -> None:
    overrides = {
        "disclosure_domain_count": 2,
        "per_intent": {"RECALL": {}, "DEFINITION": {"disclosure_domain_count": 1}},
    }
    data = pack(overrides=overrides, openings=["a", "b"], transitions=["t"], closings=["c"])
    evidence = ratify_pack_file(write(tmp_path, data))["evidence"]
    assert evidence == {
        "marker_bucket_sizes": {"openings": 2, "transitions": 1, "closings": 1},
        "per_intent_keys": ["DEFINITION", "RECALL"],
        "transitions_reserved": True,
        "realizer_overrides_keys": ["disclosure_domain_count", "per_intent"],
        "null_register": False,
    }


def test_transitions_are_reported_reserved(tmp_path: Path) -> None:
    evidence = ratify_pack_file(write(tmp_path, pack(transitions=["then"])))["evidence"]
    assert evidence["transitions_reserved"] is True
    evidence = ratify_pack_file(write(tmp_path, pack(openings=["So,"])))["evidence"]
    assert evidence["transitions_reserved"] is False


@pytest.mark.parametrize("register_id", SHIPPED_REGISTER_IDS)
def test_shipped_reports_match_the_adrs(register_id: str) -> None:
    path = SHIPPED_DATA_DIR / f"{register_id}.mastery_report.json"
    report = json.loads(path.read_text(encoding="utf-8"))
    expected = {
        "default_neutral_v1": [NULL],
        "terse_v1": [OVERRIDES],
        "convivial_v1": [MARKERS],
    }[register_id]
    assert report["methods"] == expected
    assert report["verdict"] == "ratified" and verify_report_seal(report)
    shipped = load_register_pack(register_id)
    assert report["pack_source_sha256"] == pack_source_sha256(shipped.as_json())
    assert report["seal"] == shipped.mastery_report_sha256


@pytest.mark.parametrize("register_id", SHIPPED_REGISTER_IDS)
def test_shipped_files_are_what_ratify_writes(tmp_path: Path, register_id: str) -> None:
    shipped_report = json.loads(
        (SHIPPED_DATA_DIR / f"{register_id}.mastery_report.json").read_text(encoding="utf-8")
    )
    probe = shipped_report["evidence"].get("probe")
    names = (f"{register_id}.json", f"{register_id}.mastery_report.json")
    for name in names:
        shutil.copyfile(SHIPPED_DATA_DIR / name, tmp_path / name)
    replay = None if probe is None else (lambda _: probe)
    report = ratify_pack_file(tmp_path / names[0], evidence_probe=replay)
    assert report == shipped_report
    for name in names:
        assert (tmp_path / name).read_bytes() == (SHIPPED_DATA_DIR / name).read_bytes()


# The evidence probe ---------------------------------------------------------------------


def test_probe_result_is_recorded(tmp_path: Path) -> None:
    seen = []

    def probe(register):
        seen.append(register.register_id)
        return {"ok": True, "cases": 3}

    report = ratify_pack_file(write(tmp_path, pack(openings=["So,"])), evidence_probe=probe)
    assert report["evidence"]["probe"] == {"ok": True, "cases": 3}
    assert seen == ["user_v1"]
    assert load_register_pack("user_v1", search_path=[tmp_path])


PROBE_FAILURES = [
    ("refused", lambda _: {"ok": False, "reason": "surfaces diverged"}, "surfaces diverged"),
    ("no-reason", lambda _: {"ok": False}, "no reason given"),
    ("raises", lambda _: 1 / 0, "ZeroDivisionError"),
    ("not-a-dict", lambda _: ["ok"], "JSON object"),
    ("float", lambda _: {"ok": True, "rate": 0.5}, "float"),
]


@pytest.mark.parametrize(
    ("probe", "words"), [f[1:] for f in PROBE_FAILURES], ids=[f[0] for f in PROBE_FAILURES]
)
def test_failing_probe_refuses(tmp_path: Path, probe, words: str) -> None:
    path = write(tmp_path, pack(openings=["So,"]))
    error = refused(path, evidence_probe=probe)
    assert (error.code, error.field) == ("REGISTER_PROBE_FAILED", "probe")
    assert words in error.message
    assert not report_path_for(path).exists()


# Reading: same codes as the loader ------------------------------------------------------

READ_FAILURES = [
    ("malformed", b"{", "REGISTER_MALFORMED"),
    ("missing", pretty_json({"register_id": "user_v1"}).encode(), "REGISTER_MISSING_FIELD"),
    ("mismatch", pretty_json(pack("other_v1")).encode(), "REGISTER_ID_MISMATCH"),
    (
        "override",
        pretty_json(pack(overrides={"exec_python": "rm"})).encode(),
        "REGISTER_UNKNOWN_OVERRIDE",
    ),
    (
        "intent",
        pretty_json(pack(overrides={"per_intent": {"SMALLTALK": {}}})).encode(),
        "REGISTER_UNKNOWN_INTENT",
    ),
]


@pytest.mark.parametrize(
    ("content", "code"), [f[1:] for f in READ_FAILURES], ids=[f[0] for f in READ_FAILURES]
)
def test_ratify_refuses_malformed_packs(tmp_path: Path, content: bytes, code: str) -> None:
    path = tmp_path / "user_v1.json"
    path.write_bytes(content)
    assert refused(path).code == code
    assert path.read_bytes() == content
    assert sorted(p.name for p in tmp_path.iterdir()) == ["user_v1.json"]


def test_ratify_refuses_a_missing_file(tmp_path: Path) -> None:
    assert refused(tmp_path / "user_v1.json").code == "REGISTER_NOT_FOUND"


def test_ratify_refuses_a_non_json_name(tmp_path: Path) -> None:
    path = tmp_path / "user_v1.txt"
    path.write_text(pretty_json(pack()), encoding="utf-8")
    assert refused(path).code == "REGISTER_MALFORMED"


def test_ratify_refuses_an_invalid_file_stem(tmp_path: Path) -> None:
    path = write(tmp_path, pack(), name="x..y")
    assert refused(path).code == "REGISTER_INVALID_ID"


# Sealing and writing ----------------------------------------------------------------------


def test_ratify_writes_sealed_normal_form_files(tmp_path: Path) -> None:
    path = write(tmp_path, pack(openings=["So,"]))
    report = ratify_pack_file(path)
    report_file = report_path_for(path)
    assert report_file.name == "user_v1.mastery_report.json"
    assert report_file.read_text(encoding="utf-8") == pretty_json(report)
    assert report == seal_report(report) and verify_report_seal(report)
    assert set(report) == {
        "register_id",
        "pack_version",
        "pack_source_sha256",
        "schema_version",
        "verdict",
        "methods",
        "evidence",
        "seal",
    }
    written = json.loads(path.read_text(encoding="utf-8"))
    assert path.read_text(encoding="utf-8") == pretty_json(written)
    assert written["mastery_report_sha256"] == report["seal"]
    assert report["pack_source_sha256"] == pack_source_sha256(written)


@pytest.mark.parametrize("seal", [None, "", "f" * 64])
def test_absent_empty_or_stale_seal_is_recomputed(tmp_path: Path, seal: str | None) -> None:
    data = pack(openings=["So,"])
    if seal is not None:
        data["mastery_report_sha256"] = seal
    report = ratify_pack_file(write(tmp_path, data))
    assert (
        load_register_pack("user_v1", search_path=[tmp_path]).mastery_report_sha256
        == (report["seal"])
    )


def test_ratify_is_idempotent(tmp_path: Path) -> None:
    path = write(tmp_path, pack(overrides={"disclosure_domain_count": 3}, closings=["!"]))
    first = ratify_pack_file(path)
    files = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    assert ratify_pack_file(path) == first
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == files


def test_ratify_normalises_a_hand_written_pack(tmp_path: Path) -> None:
    data = pack(closings=["!"])
    data["discourse_markers"] = {"closings": ["!"]}
    path = tmp_path / "user_v1.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    ratify_pack_file(path)
    assert json.loads(path.read_text(encoding="utf-8"))["discourse_markers"] == {
        "openings": [],
        "transitions": [],
        "closings": ["!"],
    }
    assert load_register_pack("user_v1", search_path=[tmp_path])


def test_ratify_leaves_no_temp_files_and_keeps_permissions(tmp_path: Path) -> None:
    path = write(tmp_path, pack(openings=["So,"]))
    path.chmod(0o640)
    ratify_pack_file(path)
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "user_v1.json",
        "user_v1.mastery_report.json",
    ]
    assert stat.S_IMODE(path.stat().st_mode) == 0o640


class Killed(BaseException):
    """The process died: nothing after this point runs, not even cleanup."""


NAMESPACE_CHANGES = ("mkdir", "rename", "replace", "rmdir", "unlink")


def _dying(real, calls, step: int):
    def call(*args, **kwargs):
        if next(calls) >= step:
            raise Killed
        return real(*args, **kwargs)

    return call


def _ratify_killed_before(step: int, path: Path, **kwargs) -> bool:
    """Ratify *path*, dying before its *step*-th directory change; True if it finished first."""
    calls = itertools.count(1)
    with pytest.MonkeyPatch.context() as patch:
        for name in NAMESPACE_CHANGES:
            patch.setattr(os, name, _dying(getattr(os, name), calls, step))
        try:
            ratify_pack_file(path, **kwargs)
        except Killed:
            return False
    return True


def _seal_loaded(directory: Path) -> str:
    return load_register_pack("user_v1", search_path=[directory]).mastery_report_sha256


def test_a_ratify_killed_at_any_step_leaves_the_old_pair_or_the_new(tmp_path: Path) -> None:
    base = tmp_path / "base"
    base.mkdir()
    ratify_pack_file(write(base, pack(openings=["So,"])))
    old = _seal_loaded(base)
    probe = lambda p: {"ok": True, "note": "second opinion"}  # noqa: E731
    unloadable, debris, seals = [], [], set()
    for step in itertools.count(1):
        run = tmp_path / f"killed-before-{step}"
        shutil.copytree(base, run)
        finished = _ratify_killed_before(step, run / "user_v1.json", evidence_probe=probe)
        try:
            seals.add(_seal_loaded(run))
        except RegisterError:
            unloadable.append(step)
        ratify_pack_file(run / "user_v1.json", evidence_probe=probe)
        if sorted(p.name for p in run.iterdir()) != ["user_v1.json", "user_v1.mastery_report.json"]:
            debris.append(step)
        if finished:
            break
    new = _seal_loaded(run)
    assert unloadable == [], "killed before these steps, neither the old nor the new pair loads"
    assert seals == {old, new} and new != old and step > 2
    assert debris == [], "killed before these steps, the next ratify left debris"


def test_a_staging_directory_is_never_read_and_is_removed(tmp_path: Path) -> None:
    path = write(tmp_path, pack(openings=["So,"]))
    ratify_pack_file(path)
    seal = _seal_loaded(tmp_path)
    staging = tmp_path / ".user_v1.ratify.tmp"
    staging.mkdir()
    (staging / "user_v1.json").write_bytes(b"junk")
    assert _seal_loaded(tmp_path) == seal
    ratify_pack_file(path)
    assert not staging.exists()
    assert _seal_loaded(tmp_path) == seal


def test_re_ratifying_an_edited_pack_makes_it_loadable_again(tmp_path: Path) -> None:
    path = write(tmp_path, pack(openings=["So,"]))
    ratify_pack_file(path)
    path.write_bytes(path.read_bytes().replace(b"So,", b"Well,"))
    with pytest.raises(RegisterError):
        load_register_pack("user_v1", search_path=[tmp_path])
    ratify_pack_file(path)
    loaded = load_register_pack("user_v1", search_path=[tmp_path])
    assert loaded.discourse_markers.openings == ("Well,",)


marker_text = st.text(max_size=128)
bucket = st.lists(marker_text, max_size=4)


@settings(max_examples=40, deadline=None)
@given(
    openings=bucket,
    transitions=bucket,
    closings=bucket,
    count=st.sampled_from([None, 1, 2, 3]),
    depth=st.sampled_from(["terse", "standard", "pedagogical"]),
)
def test_ratified_packs_round_trip_through_the_loader(
    openings: list[str], transitions: list[str], closings: list[str], count, depth: str
) -> None:
    overrides = {} if count is None else {"disclosure_domain_count": count}
    data = pack(
        depth=depth,
        overrides=overrides,
        openings=openings,
        transitions=transitions,
        closings=closings,
    )
    with tempfile.TemporaryDirectory() as scratch:
        directory = Path(scratch)
        path = write(directory, data)
        try:
            first = ratify_pack_file(path)
        except RegisterError as error:
            assert error.code == "REGISTER_EMPTY_NON_NULL"
            assert not (overrides or openings or closings) and depth != "standard"
            return
        files = {p.name: p.read_bytes() for p in directory.iterdir()}
        assert ratify_pack_file(path) == first
        assert {p.name: p.read_bytes() for p in directory.iterdir()} == files
        loaded = load_register_pack("user_v1", search_path=[directory])
    assert loaded.discourse_markers.openings == tuple(openings)
    assert loaded.discourse_markers.closings == tuple(closings)
    assert dict(loaded.realizer_overrides) == overrides


# The command-line entry ----------------------------------------------------------------------


def test_main_ratify_reports_each_pack(tmp_path: Path) -> None:
    good = write(tmp_path, pack(openings=["So,"]))
    out, err = io.StringIO(), io.StringIO()
    assert main_ratify([str(good)], out=out, err=err) == 0
    seal = json.loads(report_path_for(good).read_text(encoding="utf-8"))["seal"]
    assert out.getvalue() == f"ratified user_v1 seal={seal[:12]} methods={MARKERS}\n"
    assert err.getvalue() == ""


def test_main_ratify_continues_past_a_bad_pack(tmp_path: Path) -> None:
    bad = write(tmp_path, pack(depth="terse"), name="user_v1")
    good = write(tmp_path, pack("other_v1", closings=["!"]), name="other_v1")
    out, err = io.StringIO(), io.StringIO()
    assert main_ratify([str(bad), str(good)], out=out, err=err) == 2
    assert out.getvalue().startswith("ratified other_v1 seal=")
    lines = err.getvalue().splitlines()
    assert len(lines) == 1
    assert lines[0].startswith("error: REGISTER_EMPTY_NON_NULL: ")
    assert str(bad) in lines[0] and "Traceback" not in err.getvalue()


def test_main_ratify_error_line_for_unreadable_json(tmp_path: Path, capsys) -> None:
    path = tmp_path / "user_v1.json"
    path.write_text("{\n\n", encoding="utf-8")
    assert main_ratify([str(path)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.count("\n") == 1
    assert captured.err.startswith("error: REGISTER_MALFORMED: ")


def test_main_ratify_without_paths_is_a_usage_error() -> None:
    err = io.StringIO()
    assert main_ratify([], out=io.StringIO(), err=err) == 2
    assert err.getvalue().startswith("error: USAGE: ")
