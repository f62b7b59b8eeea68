"""What a client might do to the files a ``register.ratify`` returned before loading them."""

from __future__ import annotations

import base64
import json
from collections.abc import Callable

from tools.differential.shared import Json

REPORT_SUFFIX = ".mastery_report.json"


def _trailing_space(raw: bytes) -> bytes:
    return raw.rstrip(b"\n") + b" \n"


def _crlf(raw: bytes) -> bytes:
    return raw.replace(b"\n", b"\r\n")


def _bom(raw: bytes) -> bytes:
    return b"\xef\xbb\xbf" + raw


def _reserialised(raw: bytes, change: Callable[[Json], None]) -> bytes:
    """*raw* (a JSON file) with *change* made, written back as the engines write it."""
    data = json.loads(raw)
    change(data)
    return (json.dumps(data, ensure_ascii=False, sort_keys=True, indent=2) + "\n").encode()


def _rejected(raw: bytes) -> bytes:
    return _reserialised(raw, lambda data: data.update(verdict="rejected"))


def _sealed(raw: bytes) -> bytes:
    return _reserialised(raw, lambda data: data.update(seal=1))


def _described(raw: bytes) -> bytes:
    return _reserialised(
        raw, lambda data: data.update(description=data.get("description", "") + "!")
    )


BYTE_EDITS: dict[str, Callable[[bytes], bytes]] = {
    "pack_space": _trailing_space,
    "report_space": _trailing_space,
    "pack_crlf": _crlf,
    "pack_bom": _bom,
    "report_field": _rejected,
    "pack_field": _described,
    "report_seal": _sealed,
}
"""The edits of one file's bytes; those named ``report_*`` edit the report, the others the
pack."""


def edit_files(files: dict[str, str], edit: str) -> dict[str, str]:
    """*files* (a ratify's result, base64 by name) with one *edit*; an edit whose file is
    missing changes nothing."""
    files = dict(files)
    pack = next((n for n in files if not n.endswith(REPORT_SUFFIX)), None)
    report = next((n for n in files if n.endswith(REPORT_SUFFIX)), None)
    if edit == "drop_report" and report:
        del files[report]
    elif edit in BYTE_EDITS:
        name = report if edit.startswith("report") else pack
        if name is not None:
            raw = BYTE_EDITS[edit](base64.b64decode(files[name]))
            files[name] = base64.b64encode(raw).decode()
    elif edit == "rename" and pack:
        files["other_v1.json"] = files.pop(pack)
    return files
