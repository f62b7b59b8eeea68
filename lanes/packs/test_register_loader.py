"""The register loader: shipped packs, structural refusals, seals and tamper evidence."""

from __future__ import annotations

import json
import shutil
import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reference.canonical import pretty_json
from reference.errors import RegisterError
from reference.registers.loader import (
    SHIPPED_DATA_DIR,
    SHIPPED_REGISTER_IDS,
    list_register_ids,
    load_register_pack,
)
from reference.registers.model import (
    DEPTH_PREFERENCES,
    REQUIRED_FIELDS,
    UNREGISTERED,
    DiscourseMarkers,
    is_unregistered,
)
from reference.registers.ratify import ratify_pack_file
from reference.registers.seal import report_path_for, seal_report
from reference.registers.validate import parse_pack, validate_register_id


def base_pack(register_id: str = "user_v1") -> dict:
    return {
        "register_id": register_id,
        "version": "1.0.0",
        "description": "A test register.",
        "schema_version": "1.0.0",
        "display_name": "User",
        "depth_preference": "standard",
        "realizer_overrides": {"disclosure_domain_count": 2},
        "discourse_markers": {"openings": ["Well,"], "transitions": [], "closings": []},
    }


def ratified_copy(directory: Path, data: dict) -> Path:
    path = directory / f"{data['register_id']}.json"
    path.write_text(pretty_json(data), encoding="utf-8")
    ratify_pack_file(path)
    return path


def refusal(register_id: str | None, directory: Path) -> RegisterError:
    with pytest.raises(RegisterError) as info:
        load_register_pack(register_id, search_path=[directory])
    return info.value


def parse_refusal(data: object, expected_id: str | None = "user_v1") -> RegisterError:
    with pytest.raises(RegisterError) as info:
        parse_pack(data, expected_id=expected_id)
    return info.value


def with_changes(**changes: object) -> dict:
    data = base_pack()
    for key, value in changes.items():
        if value is ...:
            del data[key]
        else:
            data[key] = value
    return data


def markers(**buckets: object) -> dict:
    return {"openings": [], "transitions": [], "closings": [], **buckets}


# Shipped packs ---------------------------------------------------------------


def test_shipped_ids_are_listed() -> None:
    assert SHIPPED_REGISTER_IDS == ("default_neutral_v1", "terse_v1", "convivial_v1")
    assert set(SHIPPED_REGISTER_IDS) <= set(list_register_ids())
    assert list_register_ids() == tuple(sorted(list_register_ids()))


def test_default_neutral_is_the_null_register() -> None:
    pack = load_register_pack("default_neutral_v1")
    assert pack.depth_preference == "standard"
    assert dict(pack.realizer_overrides) == {}
    assert pack.discourse_markers == DiscourseMarkers()
    assert (pack.version, pack.schema_version) == ("1.0.0", "1.0.0")


def test_terse_overrides_one_domain() -> None:
    pack = load_register_pack("terse_v1")
    assert pack.depth_preference == "terse"
    assert dict(pack.realizer_overrides) == {"disclosure_domain_count": 1}
    assert pack.discourse_markers == DiscourseMarkers()
    assert pack.display_name == "Terse"


def test_convivial_markers_match_the_adr() -> None:
    pack = load_register_pack("convivial_v1")
    assert pack.depth_preference == "standard"
    assert dict(pack.realizer_overrides) == {}
    assert pack.discourse_markers.openings == ("So,", "Right \u2014", "OK,")
    assert pack.discourse_markers.transitions == ()
    assert pack.discourse_markers.closings == ("", " \u2014 does that help?", " \u2014 make sense?")
    assert pack.display_name == "Convivial"


@pytest.mark.parametrize("register_id", SHIPPED_REGISTER_IDS)
def test_shipped_pack_file_is_its_normal_form(register_id: str) -> None:
    pack = load_register_pack(register_id)
    raw = (SHIPPED_DATA_DIR / f"{register_id}.json").read_text(encoding="utf-8")
    assert raw == pretty_json(pack.as_json())
    assert len(pack.mastery_report_sha256) == 64


def test_none_is_unregistered() -> None:
    pack = load_register_pack(None)
    assert pack is UNREGISTERED
    assert is_unregistered(pack)
    assert not is_unregistered(load_register_pack("default_neutral_v1"))
    assert pack.register_id == "unregistered" and pack.depth_preference == "standard"
    assert dict(pack.realizer_overrides) == {} and pack.mastery_report_sha256 == ""


def test_overrides_are_read_only_at_every_depth() -> None:
    data = with_changes(
        realizer_overrides={"per_intent": {"DEFINITION": {"disclosure_domain_count": 1}}}
    )
    pack = parse_pack(data, expected_id="user_v1")
    with pytest.raises(TypeError):
        pack.realizer_overrides["disclosure_domain_count"] = 3  # type: ignore[index]
    with pytest.raises(TypeError):
        pack.realizer_overrides["per_intent"]["DEFINITION"]["x"] = 1  # type: ignore[index]
    assert pack.as_json()["realizer_overrides"] == data["realizer_overrides"]
    assert hash(pack) == hash(parse_pack(data, expected_id="user_v1"))


def test_as_json_round_trips_through_parse() -> None:
    pack = load_register_pack("convivial_v1")
    assert parse_pack(pack.as_json(), expected_id="convivial_v1") == pack
    assert sorted(pack.as_json()) == sorted([*REQUIRED_FIELDS, "mastery_report_sha256"])


# Structural refusals: one minimal malformed pack per code --------------------

STRUCTURAL_CASES = [
    ("not-object", ["not", "an", "object"], "REGISTER_MALFORMED", None),
    ("unknown-field", with_changes(colour="blue"), "REGISTER_MALFORMED", "colour"),
    ("version-type", with_changes(version=1), "REGISTER_MALFORMED", "version"),
    (
        "seal-type",
        with_changes(mastery_report_sha256=None),
        "REGISTER_MALFORMED",
        "mastery_report_sha256",
    ),
    (
        "overrides-type",
        with_changes(realizer_overrides=[]),
        "REGISTER_MALFORMED",
        "realizer_overrides",
    ),
    ("markers-type", with_changes(discourse_markers=[]), "REGISTER_MALFORMED", "discourse_markers"),
    (
        "bucket-type",
        with_changes(discourse_markers=markers(openings="So,")),
        "REGISTER_MALFORMED",
        "discourse_markers.openings",
    ),
    (
        "marker-type",
        with_changes(discourse_markers=markers(closings=["ok", 7])),
        "REGISTER_MALFORMED",
        "discourse_markers.closings[1]",
    ),
    ("missing", with_changes(display_name=...), "REGISTER_MISSING_FIELD", "display_name"),
    ("schema", with_changes(schema_version="2.0.0"), "REGISTER_SCHEMA_VERSION", "schema_version"),
    ("bad-id", with_changes(register_id="a/b"), "REGISTER_INVALID_ID", "register_id"),
    ("mismatch", with_changes(register_id="other_v1"), "REGISTER_ID_MISMATCH", "register_id"),
    (
        "depth",
        with_changes(depth_preference="verbose"),
        "REGISTER_BAD_DEPTH_PREFERENCE",
        "depth_preference",
    ),
    (
        "bucket",
        with_changes(discourse_markers=markers(asides=[])),
        "REGISTER_UNKNOWN_BUCKET",
        "discourse_markers.asides",
    ),
    (
        "marker-long",
        with_changes(discourse_markers=markers(openings=["x" * 129])),
        "REGISTER_MARKER_TOO_LONG",
        "discourse_markers.openings[0]",
    ),
    (
        "bucket-large",
        with_changes(discourse_markers=markers(closings=["c"] * 33)),
        "REGISTER_BUCKET_TOO_LARGE",
        "discourse_markers.closings",
    ),
    (
        "override-key",
        with_changes(realizer_overrides={"exec_python": "1"}),
        "REGISTER_UNKNOWN_OVERRIDE",
        "realizer_overrides.exec_python",
    ),
    (
        "per-intent-key",
        with_changes(realizer_overrides={"per_intent": {"DEFINITION": {"foo": 1}}}),
        "REGISTER_UNKNOWN_OVERRIDE",
        "realizer_overrides.per_intent.DEFINITION.foo",
    ),
    (
        "nested-per-intent",
        with_changes(realizer_overrides={"per_intent": {"CAUSE": {"per_intent": {}}}}),
        "REGISTER_UNKNOWN_OVERRIDE",
        "realizer_overrides.per_intent.CAUSE.per_intent",
    ),
    (
        "override-bound",
        with_changes(realizer_overrides={"disclosure_domain_count": 4}),
        "REGISTER_OVERRIDE_OUT_OF_BOUNDS",
        "realizer_overrides.disclosure_domain_count",
    ),
    (
        "override-bool",
        with_changes(realizer_overrides={"disclosure_domain_count": True}),
        "REGISTER_OVERRIDE_OUT_OF_BOUNDS",
        "realizer_overrides.disclosure_domain_count",
    ),
    (
        "override-string",
        with_changes(realizer_overrides={"disclosure_domain_count": "2"}),
        "REGISTER_OVERRIDE_OUT_OF_BOUNDS",
        "realizer_overrides.disclosure_domain_count",
    ),
    (
        "per-intent-type",
        with_changes(realizer_overrides={"per_intent": ["DEFINITION"]}),
        "REGISTER_OVERRIDE_OUT_OF_BOUNDS",
        "realizer_overrides.per_intent",
    ),
    (
        "per-intent-value",
        with_changes(realizer_overrides={"per_intent": {"DEFINITION": 1}}),
        "REGISTER_OVERRIDE_OUT_OF_BOUNDS",
        "realizer_overrides.per_intent.DEFINITION",
    ),
    (
        "per-intent-bound",
        with_changes(realizer_overrides={"per_intent": {"RECALL": {"disclosure_domain_count": 0}}}),
        "REGISTER_OVERRIDE_OUT_OF_BOUNDS",
        "realizer_overrides.per_intent.RECALL.disclosure_domain_count",
    ),
    (
        "intent",
        with_changes(realizer_overrides={"per_intent": {"definition": {}}}),
        "REGISTER_UNKNOWN_INTENT",
        "realizer_overrides.per_intent.definition",
    ),
]


@pytest.mark.parametrize(
    ("data", "code", "field"),
    [case[1:] for case in STRUCTURAL_CASES],
    ids=[case[0] for case in STRUCTURAL_CASES],
)
def test_structural_refusal(data: object, code: str, field: str | None) -> None:
    error = parse_refusal(data)
    assert error.code == code
    if field is not None:
        assert error.field == field
        assert field.split(".")[-1].split("[")[0] in error.message


@pytest.mark.parametrize(
    ("data", "code", "field"),
    [case[1:] for case in STRUCTURAL_CASES],
    ids=[case[0] for case in STRUCTURAL_CASES],
)
def test_loader_reports_the_same_structural_code(
    tmp_path: Path, data: object, code: str, field: str | None
) -> None:
    (tmp_path / "user_v1.json").write_text(pretty_json(data), encoding="utf-8")
    assert refusal("user_v1", tmp_path).code == code


def test_check_order_is_fixed() -> None:
    data = with_changes(
        schema_version="9",
        register_id="a/b",
        depth_preference="loud",
        discourse_markers=markers(asides=[]),
        realizer_overrides={"nope": 1},
    )
    assert parse_refusal(data).code == "REGISTER_SCHEMA_VERSION"
    data["schema_version"] = "1.0.0"
    assert parse_refusal(data).code == "REGISTER_INVALID_ID"
    data["register_id"] = "other"
    assert parse_refusal(data).code == "REGISTER_ID_MISMATCH"
    data["register_id"] = "user_v1"
    assert parse_refusal(data).code == "REGISTER_BAD_DEPTH_PREFERENCE"
    data["depth_preference"] = "terse"
    assert parse_refusal(data).code == "REGISTER_UNKNOWN_BUCKET"
    data["discourse_markers"] = markers()
    assert parse_refusal(data).code == "REGISTER_UNKNOWN_OVERRIDE"


def test_missing_field_names_the_first_absent_field() -> None:
    error = parse_refusal({"register_id": "user_v1"})
    assert (error.code, error.field) == ("REGISTER_MISSING_FIELD", "version")
    assert "'version'" in error.message


def test_missing_buckets_default_to_empty() -> None:
    pack = parse_pack(with_changes(discourse_markers={}), expected_id="user_v1")
    assert pack.discourse_markers == DiscourseMarkers()


def test_expected_id_none_skips_the_mismatch_check() -> None:
    assert parse_pack(base_pack("anything"), expected_id=None).register_id == "anything"


@pytest.mark.parametrize("depth", DEPTH_PREFERENCES)
def test_every_depth_preference_is_accepted(depth: str) -> None:
    assert parse_pack(with_changes(depth_preference=depth), expected_id="user_v1")


def test_every_intent_name_is_accepted() -> None:
    from reference.truth.intent import IntentTag

    per_intent = {tag.name: {"disclosure_domain_count": 2} for tag in IntentTag}
    data = with_changes(realizer_overrides={"per_intent": per_intent})
    pack = parse_pack(data, expected_id="user_v1")
    assert set(pack.realizer_overrides["per_intent"]) == {tag.name for tag in IntentTag}


# Bounds: exactly at the limit passes, one past fails --------------------------


@pytest.mark.parametrize(("length", "ok"), [(0, True), (128, True), (129, False)])
def test_marker_length_bound(length: int, ok: bool) -> None:
    data = with_changes(discourse_markers=markers(transitions=["\u2014" * length]))
    if ok:
        assert (
            len(parse_pack(data, expected_id="user_v1").discourse_markers.transitions[0]) == length
        )
    else:
        assert parse_refusal(data).code == "REGISTER_MARKER_TOO_LONG"


@pytest.mark.parametrize(("size", "ok"), [(32, True), (33, False)])
def test_bucket_size_bound(size: int, ok: bool) -> None:
    data = with_changes(discourse_markers=markers(openings=[f"m{i}" for i in range(size)]))
    if ok:
        assert len(parse_pack(data, expected_id="user_v1").discourse_markers.openings) == size
    else:
        assert parse_refusal(data).code == "REGISTER_BUCKET_TOO_LARGE"


@pytest.mark.parametrize(("count", "ok"), [(0, False), (1, True), (2, True), (3, True), (4, False)])
def test_disclosure_domain_count_bound(count: int, ok: bool) -> None:
    for overrides in (
        {"disclosure_domain_count": count},
        {"per_intent": {"COMPARISON": {"disclosure_domain_count": count}}},
    ):
        data = with_changes(realizer_overrides=overrides)
        if ok:
            assert parse_pack(data, expected_id="user_v1").realizer_overrides
        else:
            assert parse_refusal(data).code == "REGISTER_OVERRIDE_OUT_OF_BOUNDS"


@pytest.mark.parametrize(("length", "ok"), [(1, True), (64, True), (65, False)])
def test_register_id_length_bound(length: int, ok: bool) -> None:
    register_id = "r" * length
    if ok:
        assert validate_register_id(register_id) == register_id
    else:
        with pytest.raises(RegisterError, match="longer than 64"):
            validate_register_id(register_id)


# Register ids -------------------------------------------------------------------

INVALID_IDS = [
    ("", "empty"),
    ("a/b", "path separator"),
    ("a\\b", "path separator"),
    ("..", "'..'"),
    ("x..y", "'..'"),
    ("\x00a", "control character"),
    ("a\x7f", "control character"),
    ("a\n", "control character"),
    ("r" * 65, "longer than 64"),
    ("-lead", "does not match"),
    (".hidden", "does not match"),
    ("caf\u00e9", "does not match"),
    ("sp ace", "does not match"),
]


@pytest.mark.parametrize(("register_id", "rule"), INVALID_IDS)
def test_invalid_ids_are_refused(tmp_path: Path, register_id: str, rule: str) -> None:
    with pytest.raises(RegisterError) as info:
        validate_register_id(register_id)
    assert (info.value.code, info.value.field) == ("REGISTER_INVALID_ID", "register_id")
    assert rule in info.value.message
    assert refusal(register_id, tmp_path).code == "REGISTER_INVALID_ID"


@pytest.mark.parametrize("register_id", [7, None, b"terse_v1", ["terse_v1"]])
def test_non_string_ids_are_refused(register_id: object) -> None:
    with pytest.raises(RegisterError, match="must be a string") as info:
        validate_register_id(register_id)
    assert info.value.code == "REGISTER_INVALID_ID"


@pytest.mark.parametrize("register_id", ["a", "A9", "terse_v1", "x.y-z_1", "9" * 64])
def test_valid_ids_are_accepted(register_id: str) -> None:
    assert validate_register_id(register_id) == register_id


def reference_id_rule(text: str) -> bool:
    allowed = set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-")
    return (
        0 < len(text) <= 64
        and text[0].isascii()
        and text[0].isalnum()
        and set(text) <= allowed
        and ".." not in text
    )


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from("aZ9_.-/\\\x00\x7f \u00e9\n"), max_size=70))
def test_id_validation_matches_the_rules(text: str) -> None:
    try:
        validate_register_id(text)
        accepted = True
    except RegisterError as error:
        assert error.code == "REGISTER_INVALID_ID"
        accepted = False
    assert accepted == reference_id_rule(text)


# Finding, ratification status, seals ---------------------------------------------


def test_not_found_lists_the_searched_dirs(tmp_path: Path) -> None:
    error = refusal("no_such_pack", tmp_path)
    assert (error.code, error.field) == ("REGISTER_NOT_FOUND", "register_id")
    assert str(tmp_path) in error.message and str(SHIPPED_DATA_DIR) in error.message


def test_not_utf8_is_malformed(tmp_path: Path) -> None:
    (tmp_path / "user_v1.json").write_bytes(b'{"register_id": "\xff"}')
    assert refusal("user_v1", tmp_path).code == "REGISTER_MALFORMED"


def test_not_json_is_malformed(tmp_path: Path) -> None:
    (tmp_path / "user_v1.json").write_text("{not json", encoding="utf-8")
    error = refusal("user_v1", tmp_path)
    assert error.code == "REGISTER_MALFORMED" and "not valid JSON" in error.message


def test_unratified_pack_without_seal_field(tmp_path: Path) -> None:
    (tmp_path / "user_v1.json").write_text(pretty_json(base_pack()), encoding="utf-8")
    error = refusal("user_v1", tmp_path)
    assert (error.code, error.field) == ("REGISTER_NOT_RATIFIED", "mastery_report_sha256")
    assert "python -m reference ratify" in error.message


def test_unratified_pack_with_empty_seal(tmp_path: Path) -> None:
    path = ratified_copy(tmp_path, base_pack())
    data = json.loads(path.read_text(encoding="utf-8"))
    path.write_text(pretty_json({**data, "mastery_report_sha256": ""}), encoding="utf-8")
    assert refusal("user_v1", tmp_path).code == "REGISTER_NOT_RATIFIED"


def test_unratified_pack_without_report(tmp_path: Path) -> None:
    path = ratified_copy(tmp_path, base_pack())
    report_path_for(path).unlink()
    error = refusal("user_v1", tmp_path)
    assert error.code == "REGISTER_NOT_RATIFIED" and "no mastery report" in error.message


def test_ratified_user_pack_loads(tmp_path: Path) -> None:
    ratified_copy(tmp_path, base_pack())
    pack = load_register_pack("user_v1", search_path=[tmp_path])
    assert pack.discourse_markers.openings == ("Well,",)
    assert "user_v1" in list_register_ids([tmp_path])


def rewrite_report(path: Path, edit) -> None:
    report_file = report_path_for(path)
    report = json.loads(report_file.read_text(encoding="utf-8"))
    report_file.write_text(pretty_json(edit(report)), encoding="utf-8")


def test_edited_report_evidence_breaks_the_seal(tmp_path: Path) -> None:
    path = ratified_copy(tmp_path, base_pack())
    rewrite_report(path, lambda r: {**r, "evidence": {**r["evidence"], "null_register": True}})
    error = refusal("user_v1", tmp_path)
    assert error.code == "REGISTER_SEAL_MISMATCH" and "seal" in error.message


def test_edited_pack_seal_field_mismatches(tmp_path: Path) -> None:
    path = ratified_copy(tmp_path, base_pack())
    data = json.loads(path.read_text(encoding="utf-8"))
    path.write_text(pretty_json({**data, "mastery_report_sha256": "0" * 64}), encoding="utf-8")
    error = refusal("user_v1", tmp_path)
    assert (error.code, error.field) == ("REGISTER_SEAL_MISMATCH", "mastery_report_sha256")


def test_resealed_report_for_another_id_mismatches(tmp_path: Path) -> None:
    path = ratified_copy(tmp_path, base_pack())
    rewrite_report(path, lambda r: seal_report({**r, "register_id": "other_v1"}))
    error = refusal("user_v1", tmp_path)
    assert (error.code, error.field) == ("REGISTER_SEAL_MISMATCH", "mastery_report.register_id")


def test_resealed_report_that_is_not_ratified_mismatches(tmp_path: Path) -> None:
    path = ratified_copy(tmp_path, base_pack())
    rewrite_report(path, lambda r: seal_report({**r, "verdict": "refused"}))
    assert refusal("user_v1", tmp_path).code == "REGISTER_SEAL_MISMATCH"


def test_resealed_report_with_new_seal_mismatches_the_pack(tmp_path: Path) -> None:
    path = ratified_copy(tmp_path, base_pack())
    rewrite_report(path, lambda r: seal_report({**r, "methods": []}))
    error = refusal("user_v1", tmp_path)
    assert (error.code, error.field) == ("REGISTER_SEAL_MISMATCH", "mastery_report_sha256")


@pytest.mark.parametrize("content", [b"", b"[1, 2]", b'{"seal": 1.5}', b"\xff\xfe"])
def test_unparsable_report_mismatches(tmp_path: Path, content: bytes) -> None:
    path = ratified_copy(tmp_path, base_pack())
    report_path_for(path).write_bytes(content)
    assert refusal("user_v1", tmp_path).code == "REGISTER_SEAL_MISMATCH"


def test_report_not_in_normal_form_mismatches(tmp_path: Path) -> None:
    path = ratified_copy(tmp_path, base_pack())
    report_file = report_path_for(path)
    report_file.write_text(json.dumps(json.loads(report_file.read_text("utf-8"))), "utf-8")
    error = refusal("user_v1", tmp_path)
    assert error.code == "REGISTER_SEAL_MISMATCH" and "normal form" in error.message


# Tamper evidence ---------------------------------------------------------------------


def test_edited_content_is_tampered(tmp_path: Path) -> None:
    path = ratified_copy(tmp_path, base_pack())
    data = json.loads(path.read_text(encoding="utf-8"))
    path.write_text(pretty_json({**data, "description": "Changed."}), encoding="utf-8")
    error = refusal("user_v1", tmp_path)
    assert (error.code, error.field) == ("REGISTER_TAMPERED", "pack_source_sha256")


def test_reformatted_pack_is_tampered(tmp_path: Path) -> None:
    path = ratified_copy(tmp_path, base_pack())
    path.write_text(json.dumps(json.loads(path.read_text(encoding="utf-8"))), encoding="utf-8")
    error = refusal("user_v1", tmp_path)
    assert error.code == "REGISTER_TAMPERED" and "normal form" in error.message


def test_tamper_is_detected_on_every_load(tmp_path: Path) -> None:
    path = ratified_copy(tmp_path, base_pack())
    assert load_register_pack("user_v1", search_path=[tmp_path])
    path.write_bytes(path.read_bytes().replace(b"Well,", b"Hey,"))
    assert refusal("user_v1", tmp_path).code == "REGISTER_TAMPERED"


def mutations(raw: bytes):
    for index, byte in enumerate(raw):
        yield raw[:index] + bytes([byte ^ 0x01]) + raw[index + 1 :]
        yield raw[:index] + (b"x" if byte == 0x20 else b" ") + raw[index + 1 :]


def assert_every_mutation_refused(register_id: str, name: str) -> int:
    with tempfile.TemporaryDirectory() as scratch:
        directory = Path(scratch)
        for shipped in (f"{register_id}.json", f"{register_id}.mastery_report.json"):
            shutil.copyfile(SHIPPED_DATA_DIR / shipped, directory / shipped)
        target = directory / name
        assert load_register_pack(register_id, search_path=[directory])
        count = 0
        for mutated in mutations(target.read_bytes()):
            target.write_bytes(mutated)
            with pytest.raises(RegisterError) as info:
                load_register_pack(register_id, search_path=[directory])
            assert info.value.code.startswith("REGISTER_")
            count += 1
        return count


@pytest.mark.parametrize("register_id", SHIPPED_REGISTER_IDS)
def test_editing_any_byte_of_a_shipped_pack_refuses(register_id: str) -> None:
    size = (SHIPPED_DATA_DIR / f"{register_id}.json").stat().st_size
    assert assert_every_mutation_refused(register_id, f"{register_id}.json") == 2 * size


@pytest.mark.parametrize("register_id", SHIPPED_REGISTER_IDS)
def test_editing_any_byte_of_a_shipped_report_refuses(register_id: str) -> None:
    name = f"{register_id}.mastery_report.json"
    size = (SHIPPED_DATA_DIR / name).stat().st_size
    assert assert_every_mutation_refused(register_id, name) == 2 * size


@settings(max_examples=60, deadline=None)
@given(
    register_id=st.sampled_from(SHIPPED_REGISTER_IDS),
    position=st.integers(min_value=0, max_value=10_000),
    deleted=st.integers(min_value=0, max_value=3),
    inserted=st.binary(max_size=3),
)
def test_splicing_a_shipped_pack_refuses(
    register_id: str, position: int, deleted: int, inserted: bytes
) -> None:
    raw = (SHIPPED_DATA_DIR / f"{register_id}.json").read_bytes()
    position %= len(raw) + 1
    mutated = raw[:position] + inserted + raw[position + deleted :]
    if mutated == raw:
        return
    with tempfile.TemporaryDirectory() as scratch:
        directory = Path(scratch)
        shutil.copyfile(
            SHIPPED_DATA_DIR / f"{register_id}.mastery_report.json",
            directory / (f"{register_id}.mastery_report.json"),
        )
        (directory / f"{register_id}.json").write_bytes(mutated)
        with pytest.raises(RegisterError):
            load_register_pack(register_id, search_path=[directory])


# Search path --------------------------------------------------------------------------


def test_user_dir_is_searched_before_shipped_data(tmp_path: Path) -> None:
    ratified_copy(tmp_path, {**base_pack("terse_v1"), "description": "User terse."})
    assert load_register_pack("terse_v1", search_path=[tmp_path]).description == "User terse."
    assert load_register_pack("terse_v1").description != "User terse."
    assert load_register_pack("convivial_v1", search_path=[tmp_path]).display_name == "Convivial"


def test_earlier_search_dirs_win(tmp_path: Path) -> None:
    first, second = tmp_path / "first", tmp_path / "second"
    first.mkdir()
    second.mkdir()
    ratified_copy(first, {**base_pack(), "description": "First."})
    ratified_copy(second, {**base_pack(), "description": "Second."})
    assert load_register_pack("user_v1", search_path=[first, second]).description == "First."
    assert load_register_pack("user_v1", search_path=[second, first]).description == "Second."


def test_a_broken_user_pack_is_not_skipped_for_a_shipped_one(tmp_path: Path) -> None:
    (tmp_path / "terse_v1.json").write_text(pretty_json(base_pack("terse_v1")), encoding="utf-8")
    assert refusal("terse_v1", tmp_path).code == "REGISTER_NOT_RATIFIED"


def test_missing_search_dirs_are_skipped(tmp_path: Path) -> None:
    missing = tmp_path / "absent"
    assert load_register_pack("terse_v1", search_path=[missing]).register_id == "terse_v1"
    assert list_register_ids([missing]) == list_register_ids()


def test_listing_ignores_reports_and_invalid_names(tmp_path: Path) -> None:
    ratified_copy(tmp_path, base_pack())
    (tmp_path / "-bad.json").write_text("{}", encoding="utf-8")
    (tmp_path / "notes.txt").write_text("", encoding="utf-8")
    listed = list_register_ids([tmp_path])
    assert "user_v1" in listed
    assert not any(name.endswith("mastery_report") or name == "-bad" for name in listed)


def test_a_lone_directory_is_one_search_dir(tmp_path: Path) -> None:
    ratified_copy(tmp_path, base_pack())
    assert load_register_pack("user_v1", search_path=str(tmp_path)).register_id == "user_v1"
    assert load_register_pack("user_v1", search_path=tmp_path).register_id == "user_v1"
