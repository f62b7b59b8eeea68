"""A staged file that cannot be written is refused, never left out (PROTO-FILES-501), and no
staged file outlives the op (PROTO-FILES-502).

docs/protocol.md § register.load: the files are written into a fresh temporary directory,
and a file that cannot be written is refused with ``PROTOCOL_BAD_ARGS``, field ``files``;
§ File names: a plain name longer than the system's limit on a path is such a file. An
engine that skips it would load the shipped pack of the same id instead.
"""

from __future__ import annotations

import base64
import secrets
import tempfile
from pathlib import Path

from conformance.engines.base import EngineClient, EngineRefused
from conformance.requirements.registry import requirement

SHIPPED = "default_neutral_v1"
TOO_LONG = "a" * 4100 + ".json"
"""A plain ``*.json`` name longer than any system's limit on a path (4,096 bytes on Linux)."""


@requirement(
    "PROTO-FILES-501",
    "register.load refuses a plain *.json file name longer than the system's limit on a "
    "path (a file that cannot be written) with PROTOCOL_BAD_ARGS, field files, and does not "
    "load the shipped pack of the same id instead",
    family="protocol",
    capabilities=("registers.load",),
    seed="docs/protocol.md § register.load (a file that cannot be written; File names)",
)
def unwritable_file_refused(engine: EngineClient, _: object) -> None:
    files = {TOO_LONG: base64.b64encode(b"{}").decode("ascii")}
    try:
        engine.call("register.load", {"register_id": SHIPPED, "files": files}, checked=False)
    except EngineRefused as refusal:
        assert refusal.code == "PROTOCOL_BAD_ARGS", (
            f"a file name of {len(TOO_LONG)} bytes: refused with {refusal.code}"
        )
        assert refusal.field == "files", (
            f"a file name of {len(TOO_LONG)} bytes: field {refusal.field!r}, expected 'files'"
        )
    else:
        raise AssertionError(
            f"a file name of {len(TOO_LONG)} bytes, which cannot be written, was left out: "
            "register.load answered ok"
        )
    engine.call("hello")


def staged_left(name: str) -> list[str]:
    """Files called *name* in the working directory the engine inherits, or in a directory of
    its temporary directory (``TMPDIR``) or of the memory file system (``/dev/shm``)."""
    found = [str(Path.cwd() / name)] if (Path.cwd() / name).exists() else []
    for root in (Path(tempfile.gettempdir()), Path("/dev/shm")):
        if root.is_dir():
            found += [str(path) for path in root.glob(f"*/{name}")]
    return sorted(found)


@requirement(
    "PROTO-FILES-502",
    "register.load deletes the directory its files were staged in before it answers: no "
    "staged file (named at run time) is left in the engine's working directory or in a "
    "directory of its temporary directory or of /dev/shm",
    family="protocol",
    capabilities=("registers.load",),
    seed="docs/protocol.md § register.load (the engine deletes the directory before it answers)",
    max_examples=3,
)
def staged_files_deleted(engine: EngineClient, _: object) -> None:
    name = f"staged-{secrets.token_hex(12)}.json"
    assert not staged_left(name), f"{name} exists before the op"
    files = {name: base64.b64encode(b"{}").decode("ascii")}
    engine.call("register.load", {"register_id": SHIPPED, "files": files})
    left = staged_left(name)
    assert not left, f"register.load left a staged file behind: {left}"
