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
