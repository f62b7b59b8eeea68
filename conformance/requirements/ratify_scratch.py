"""register.ratify works in a fresh temporary directory it deletes, and writes nothing
anywhere else (docs/protocol.md § register.ratify). Each example ratifies under an id drawn
at run time, so no file a run (or a broken engine) left behind can pose as this one's."""

from __future__ import annotations

import secrets
import tempfile
from pathlib import Path
from typing import Any

from conformance import strategies as gen
from conformance.engines.base import EngineClient
from conformance.requirements.registry import requirement

RATIFY = "docs/protocol.md § register.ratify (nothing is written anywhere else)"


def _left_behind(register_id: str) -> list[str]:
    """Files of *register_id*'s pair in the working directory the engine inherits, or in a
    directory of the temporary directory it inherits (``TMPDIR``)."""
    names = (f"{register_id}.json", f"{register_id}.mastery_report.json")
    found = [str(Path.cwd() / name) for name in names if (Path.cwd() / name).exists()]
    temporary = Path(tempfile.gettempdir())
    for name in names:
        found += [str(path) for path in temporary.glob(f"*/{name}")]
    return sorted(found)


@requirement(
    "LOAD-SCRATCH-401",
    "register.ratify leaves nothing behind: after it answers, no file of the pack's pair is "
    "in the engine's working directory or in a directory of its temporary directory",
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
