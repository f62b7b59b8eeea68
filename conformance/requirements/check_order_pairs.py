"""Two faults of one file path at once, where the docs order the checks of one step.

docs/registers.md § The ratification gate, step 1, lists three conditions of the path in
order: it ends in ``.json`` (``REGISTER_MALFORMED``), it exists (``REGISTER_NOT_FOUND``),
its stem is a valid id (``REGISTER_INVALID_ID``); step 2 then reads the file with the stem
as the expected id, and step 3 applies the null rule. A port that tests existence before
the suffix, or reads the file before it validates the stem, passes every one-fault case
and fails here.
"""

from __future__ import annotations

import json

from hypothesis import strategies as st

from conformance import coverage
from conformance import strategies as gen
from conformance.engines.base import EngineClient, EngineRefused
from conformance.requirements.registry import requirement
from conformance.state.driver import scratch

GATE_ORDER = (
    "docs/registers.md § The ratification gate (step 1's conditions in the order written, "
    "then steps 2 and 3)"
)

VALID = (json.dumps(gen.pack("tutor"), indent=2) + "\n").encode()
NULL_TERSE = (json.dumps(gen.pack("other", depth_preference="terse"), indent=2) + "\n").encode()

GATE_PAIRS: dict[str, tuple[str, bytes | None, str, str | None]] = {
    "a path not ending in .json that does not exist (suffix before existence)": (
        "absent_tutor.txt",
        None,
        "REGISTER_MALFORMED",
        "path",
    ),
    "a path ending in .JSON that does not exist (suffix before existence)": (
        "absent_tutor.JSON",
        None,
        "REGISTER_MALFORMED",
        "path",
    ),
    "an existing file with an invalid stem not ending in .json (suffix before the stem)": (
        "tu tor.txt",
        VALID,
        "REGISTER_MALFORMED",
        "path",
    ),
    "a path not ending in .json holding bytes that are not JSON (suffix before reading)": (
        "tutor.txt",
        b"not json\n",
        "REGISTER_MALFORMED",
        "path",
    ),
    "a path not ending in .json holding a pack missing every field (suffix before step 2)": (
        "tutor.txt",
        b"{}\n",
        "REGISTER_MALFORMED",
        "path",
    ),
    "a path not ending in .json holding a null pack claiming terse (suffix before step 3)": (
        "other.txt",
        NULL_TERSE,
        "REGISTER_MALFORMED",
        "path",
    ),
    "an invalid stem holding a null pack claiming terse (the stem before step 3)": (
        "o ther.json",
        NULL_TERSE,
        "REGISTER_INVALID_ID",
        None,
    ),
    "a .json path with an invalid stem that does not exist (existence before the stem)": (
        "tu tor.json",
        None,
        "REGISTER_NOT_FOUND",
        "path",
    ),
    "a .json path with a 65-character stem that does not exist (existence before the stem)": (
        "t" * 65 + ".json",
        None,
        "REGISTER_NOT_FOUND",
        "path",
    ),
    "an invalid stem holding bytes that are not JSON (step 1 before step 2)": (
        "tu tor.json",
        b"not json\n",
        "REGISTER_INVALID_ID",
        None,
    ),
    "an invalid stem holding a pack missing every field (step 1 before step 2)": (
        "tu tor.json",
        b"{}\n",
        "REGISTER_INVALID_ID",
        None,
    ),
    "a stem other than the pack's register_id, the pack null and terse (step 2 before 3)": (
        "tutor.json",
        NULL_TERSE,
        "REGISTER_ID_MISMATCH",
        "register_id",
    ),
}
"""The file name, its bytes (None: no file), the code of the first failing check, and the
field docs/protocol.md § register.ratify_file fixes for it (None: not checked here)."""


@requirement(
    "LOAD-ORDER-701",
    "register.ratify_file of a path with two faults answers the first check of the gate's "
    "order: the .json suffix before existence, existence before the stem's id rules, the "
    "stem before reading the file, the structural checks before the null rule; the refused "
    "file is left untouched",
    family="loader",
    capabilities=("registers.ratify_file",),
    seed=GATE_ORDER,
    strategy=lambda ctx: st.sampled_from(sorted(GATE_PAIRS)),
    cover=coverage.each("two-fault ratified paths", sorted(GATE_PAIRS)),
)
def gate_path_order(engine: EngineClient, name: str) -> None:
    filename, data, code, field = GATE_PAIRS[name]
    with scratch() as directory:
        path = directory / filename
        if data is not None:
            path.write_bytes(data)
        try:
            engine.call("register.ratify_file", {"path": str(path)})
        except EngineRefused as refusal:
            got = refusal.code if field is None else (refusal.code, refusal.field)
            want = code if field is None else (code, field)
            assert got == want, (
                f"{name} ({filename!r}): register.ratify_file answered {refusal.code} naming "
                f"{refusal.field!r}; the first check in the documented order gives {code}"
                + (f" naming {field!r}" if field else "")
            )
        else:
            raise AssertionError(f"{name} ({filename!r}): ratified, the docs say {code}")
        if data is not None:
            assert path.read_bytes() == data, f"{name}: the refused file was rewritten"
