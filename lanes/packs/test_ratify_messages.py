"""``python -m reference ratify`` refusals name the pack's path once, on one line."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from reference.cli import main_ratify


@pytest.mark.parametrize(
    "name,content",
    [
        ("user_v1.json", b"{"),
        ("user_v1.json", b"[" * 200 + b"]" * 200),
        ("user_v1.json", b'{"register_id": "user_v1"}'),
        ("user_v1.txt", b"{}"),
        ("missing_v1.json", None),
    ],
    ids=["not-json", "deep", "missing-fields", "suffix", "missing"],
)
def test_a_refusal_prints_the_path_once(tmp_path: Path, name: str, content: bytes | None):
    path = tmp_path / name
    if content is not None:
        path.write_bytes(content)
    err = io.StringIO()
    status = main_ratify([str(path)], out=io.StringIO(), err=err)
    lines = err.getvalue().splitlines()
    assert status == 2 and len(lines) == 1 and lines[0].startswith("error: REGISTER_")
    assert lines[0].count(str(path)) == 1, lines[0]


def test_a_refusal_does_not_stop_the_paths_after_it(tmp_path: Path) -> None:
    refused, good = tmp_path / "bad_v1.json", tmp_path / "good_v1.json"
    refused.write_bytes(b"{}")
    good.write_text(
        '{"register_id": "good_v1", "version": "1", "description": "d", '
        '"schema_version": "1.0.0", "display_name": "Good", "depth_preference": "standard", '
        '"discourse_markers": {"openings": ["So,"]}, "realizer_overrides": {}}',
        encoding="utf-8",
    )
    out, err = io.StringIO(), io.StringIO()
    status = main_ratify([str(refused), str(good)], out=out, err=err)
    assert status == 2
    assert err.getvalue().startswith("error: REGISTER_") and len(err.getvalue().splitlines()) == 1
    assert out.getvalue().startswith("ratified good_v1 ")
    assert (tmp_path / "good_v1.mastery_report.json").is_file()
