"""The ratification gate's first step: the path (docs/registers.md § The ratification gate)."""

from __future__ import annotations

import json

from hypothesis import strategies as st

from conformance import coverage
from conformance import strategies as gen
from conformance.engines.base import EngineClient, EngineRefused
from conformance.requirements.registry import requirement
from conformance.state.driver import scratch

PATHS: dict[str, tuple[str, str | None, str]] = {
    "a pack file not ending in .json": ("tutor.txt", "tutor", "REGISTER_MALFORMED"),
    "a pack file ending in .JSON": ("tutor.JSON", "tutor", "REGISTER_MALFORMED"),
    "a .json path that does not exist": ("absent_tutor.json", None, "REGISTER_NOT_FOUND"),
    "a stem that is not a valid id": ("tu tor.json", "tutor", "REGISTER_INVALID_ID"),
    "a stem of 65 characters": ("t" * 65 + ".json", "tutor", "REGISTER_INVALID_ID"),
}
"""The file name ratified, the register_id of the valid pack it holds (None: no file), and
the refusal docs/registers.md gives."""


@requirement(
    "LOAD-RATIFY-101",
    "register.ratify_file refuses a path that does not end in .json (REGISTER_MALFORMED), "
    "one that does not exist (REGISTER_NOT_FOUND) and one whose stem is not a valid id "
    "(REGISTER_INVALID_ID), and leaves the file it refused untouched",
    family="loader",
    capabilities=("registers.ratify_file",),
    seed="docs/registers.md § The ratification gate, step 1: `path` must end in `.json` "
    "(REGISTER_MALFORMED) and exist (REGISTER_NOT_FOUND); its stem must be a valid id "
    "(REGISTER_INVALID_ID)",
    strategy=lambda ctx: st.sampled_from(sorted(PATHS)),
    cover=coverage.each("ratified paths", sorted(PATHS)),
)
def ratify_path_refused(engine: EngineClient, name: str) -> None:
    filename, register_id, code = PATHS[name]
    with scratch() as directory:
        path = directory / filename
        data = None
        if register_id is not None:
            data = (json.dumps(gen.pack(register_id), indent=2) + "\n").encode()
            path.write_bytes(data)
        try:
            engine.call("register.ratify_file", {"path": str(path)})
        except EngineRefused as refusal:
            assert refusal.code == code, (
                f"{name} ({filename}): register.ratify_file answered {refusal.code}, the "
                f"docs say {code}"
            )
        else:
            raise AssertionError(f"{name} ({filename}): ratified, the docs say {code}")
        if data is not None:
            assert path.read_bytes() == data, f"{name}: the refused file was rewritten"
        left = sorted(p.name for p in directory.iterdir() if p.name != filename)
        assert not left, f"{name}: the refused ratify left {left} beside the pack"


@requirement(
    "LOAD-WRITE-101",
    "register.ratify_file whose report cannot be written (a directory holds the report's name "
    "<stem>.mastery_report.json) is refused with REGISTER_WRITE_FAILED, field path, and the "
    "pack file is left as it was",
    family="loader",
    capabilities=("registers.ratify_file",),
    seed="docs/registers.md § Error codes (REGISTER_WRITE_FAILED: the report or the pack "
    "could not be written); docs/protocol.md § register.ratify_file (field `path` where the "
    "file is named)",
    max_examples=1,
)
def ratify_write_failed(engine: EngineClient, _: object) -> None:
    with scratch() as directory:
        path = directory / "tutor.json"
        data = (json.dumps(gen.pack("tutor"), indent=2) + "\n").encode()
        path.write_bytes(data)
        (directory / "tutor.mastery_report.json").mkdir()
        try:
            engine.call("register.ratify_file", {"path": str(path)})
        except EngineRefused as refusal:
            assert refusal.code == "REGISTER_WRITE_FAILED", (
                f"the report's name is a directory: register.ratify_file answered "
                f"{refusal.code}, the docs say REGISTER_WRITE_FAILED"
            )
            assert refusal.field == "path", (
                f"the report's name is a directory: REGISTER_WRITE_FAILED names "
                f"{refusal.field!r}, the docs say field path (the file ratified)"
            )
        else:
            raise AssertionError(
                "the report's name is a directory, yet register.ratify_file answered a report "
                "(the docs say REGISTER_WRITE_FAILED)"
            )
        assert path.read_bytes() == data, "the ratify that could not write changed the pack"
