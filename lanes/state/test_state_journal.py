"""Framed journals: exact framing, torn tails cut, corrupt lines skipped, later lines kept."""

from __future__ import annotations

import zlib
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from reference.state import RecordingFileOps, append, frame, recover
from reference.state.journal import scan

PAYLOADS = [{"n": n, "text": "ünï" * n} for n in range(5)]


def _write(path: Path, payloads: list[dict]) -> bytes:
    data = b"".join(frame(p) for p in payloads)
    path.write_bytes(data)
    return data


def test_frame_is_length_crc_payload_newline() -> None:
    payload = b'{"a":"\xc3\xa9"}'
    expected = b"%08x %08x " % (len(payload), zlib.crc32(payload)) + payload + b"\n"
    assert frame({"a": "é"}) == expected
    assert frame({"a": "é"}).startswith(b"0000000a ")


def test_append_then_recover(tmp_path: Path) -> None:
    path = tmp_path / "j.journal"
    for payload in PAYLOADS:
        append(path, payload)
    assert recover(path, repair=False).entries == tuple(PAYLOADS)
    assert recover(tmp_path / "missing", repair=True).entries == ()


def test_append_is_fsynced_and_a_new_file_fsyncs_its_directory(tmp_path: Path) -> None:
    fs = RecordingFileOps(tmp_path)
    append(tmp_path / "j", {"a": 1}, fs)
    append(tmp_path / "j", {"a": 2}, fs)
    assert [op["op"] for op in fs.ops] == ["append", "fsync", "fsync_dir", "append", "fsync"]


def test_torn_tail_without_newline_is_cut(tmp_path: Path) -> None:
    path = tmp_path / "j"
    good = _write(path, PAYLOADS[:3])
    path.write_bytes(good + frame(PAYLOADS[3])[:-5])
    found = recover(path, repair=False)
    assert found.entries == tuple(PAYLOADS[:3])
    assert found.cut_bytes == len(frame(PAYLOADS[3])) - 5
    assert path.read_bytes() != good
    fs = RecordingFileOps(tmp_path)
    assert recover(path, repair=True, fs=fs).cut_bytes == found.cut_bytes
    assert path.read_bytes() == good
    assert [op["op"] for op in fs.ops] == ["truncate", "fsync"]
    append(path, PAYLOADS[4])
    assert recover(path, repair=False).entries == (*PAYLOADS[:3], PAYLOADS[4])


def test_a_last_line_shorter_than_its_length_is_torn(tmp_path: Path) -> None:
    path = tmp_path / "j"
    good = _write(path, PAYLOADS[:2])
    short = frame(PAYLOADS[2])[:-4] + b"\n"
    path.write_bytes(good + short)
    found = recover(path, repair=True)
    assert found.entries == tuple(PAYLOADS[:2])
    assert found.skipped == ()
    assert found.cut_bytes == len(short)
    assert path.read_bytes() == good


def test_corrupt_middle_lines_are_skipped_and_later_lines_kept(tmp_path: Path) -> None:
    path = tmp_path / "j"
    lines = [frame(p) for p in PAYLOADS]
    lines[1] = lines[1].replace(b'"n":1', b'"n":7')
    lines[3] = lines[3][:-3] + b"}\n"
    path.write_bytes(b"".join(lines))
    found = recover(path, repair=True)
    assert found.entries == (PAYLOADS[0], PAYLOADS[2], PAYLOADS[4])
    assert found.skipped == (2, 4)
    assert found.cut_bytes == 0
    assert path.read_bytes() == b"".join(lines)


def test_garbage_complete_lines_are_corrupt() -> None:
    data = b"hello\n" + frame({"a": 1}) + b"\x00" * 30 + b"\n" + frame({"b": 2})
    found = scan(data)
    assert found.entries == ({"a": 1}, {"b": 2})
    assert found.skipped == (1, 3)


@given(st.integers(min_value=0, max_value=len(b"".join(frame(p) for p in PAYLOADS))))
def test_any_truncation_recovers_a_prefix(size: int) -> None:
    data = b"".join(frame(p) for p in PAYLOADS)
    found = scan(data[:size])
    assert found.entries == tuple(PAYLOADS[: len(found.entries)])
    assert found.skipped == ()
    kept = size - found.cut_bytes
    assert data[:kept] == b"".join(frame(p) for p in found.entries)
