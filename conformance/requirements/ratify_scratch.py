"""register.ratify works in a fresh temporary directory it deletes, and writes nothing
anywhere else (docs/protocol.md § register.ratify). Each example ratifies under an id drawn
at run time, so no file a run (or a broken engine) left behind can pose as this one's."""

from __future__ import annotations

import secrets
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import strategies as st

from conformance import coverage
from conformance import strategies as gen
from conformance.engines.base import EngineClient, EngineRefused
from conformance.requirements.registry import requirement

RATIFY = "docs/protocol.md § register.ratify (nothing is written anywhere else)"


def _left_behind(register_id: str) -> list[str]:
    """Files of *register_id*'s pair in the working directory the engine inherits, or in a
    directory of the temporary directory it inherits (``TMPDIR``) or of the memory file
    system (``/dev/shm``, where an engine may keep a directory that lives for one op)."""
    names = (f"{register_id}.json", f"{register_id}.mastery_report.json")
    found = [str(Path.cwd() / name) for name in names if (Path.cwd() / name).exists()]
    for root in (Path(tempfile.gettempdir()), Path("/dev/shm")):
        if root.is_dir():
            for name in names:
                found += [str(path) for path in root.glob(f"*/{name}")]
    return sorted(found)


@requirement(
    "LOAD-SCRATCH-401",
    "register.ratify leaves nothing behind: after it answers, no file of the pack's pair is "
    "in the engine's working directory or in a directory of its temporary directory or of "
    "/dev/shm",
    family="loader",
    capabilities=("registers.ratify",),
    seed=RATIFY,
    strategy=lambda ctx: gen.valid_packs(),
    max_examples=5,
)
def ratify_leaves_nothing(engine: EngineClient, document: dict[str, Any]) -> None:
    register_id = f"scratch-{secrets.token_hex(12)}"
    assert not _left_behind(register_id), f"files of {register_id} exist before the op"
    engine.call("register.ratify", {"pack": {**document, "register_id": register_id}})
    left = _left_behind(register_id)
    assert not left, f"register.ratify left its pair behind: {left}"


REFUSED: dict[str, tuple[dict[str, Any], str]] = {
    "a null pack claiming terse (refused by the null rule, after the copy is written)": (
        gen.pack("x", depth_preference="terse"),
        "REGISTER_EMPTY_NON_NULL",
    ),
    "a null pack claiming pedagogical (refused by the null rule)": (
        gen.pack("x", depth_preference="pedagogical"),
        "REGISTER_EMPTY_NON_NULL",
    ),
}


@requirement(
    "LOAD-SCRATCH-402",
    "a refused register.ratify leaves nothing behind either: after the gate refuses the copy "
    "it wrote (the null rule), no file of the pack's pair is in the engine's working "
    "directory or in a directory of its temporary directory or of /dev/shm",
    family="loader",
    capabilities=("registers.ratify",),
    seed=RATIFY + "; § register.ratify (a fresh temporary directory, deleted)",
    strategy=lambda ctx: st.sampled_from(sorted(REFUSED)),
    cover=coverage.each("refused ratifies", sorted(REFUSED)),
)
def refused_ratify_leaves_nothing(engine: EngineClient, name: str) -> None:
    document, code = REFUSED[name]
    register_id = f"scratch-{secrets.token_hex(12)}"
    assert not _left_behind(register_id), f"files of {register_id} exist before the op"
    try:
        engine.call("register.ratify", {"pack": {**document, "register_id": register_id}})
    except EngineRefused as refusal:
        assert refusal.code == code, f"{name}: refused with {refusal.code}, expected {code}"
    else:
        raise AssertionError(f"{name}: ratified, the docs say {code}")
    left = _left_behind(register_id)
    assert not left, f"{name}: the refused register.ratify left files behind: {left}"
