"""The suite CLI's one guarded reader of input files (docs/conformance.md § Input files).

Every file the suite reads because a user named it (``--xfail``, ``--durations-from``,
``replay FILE``, ``diff A B``, a shard's ``report.json``, a campaign directory's
``campaign.json`` and ``tasks/*.json``) goes through :func:`read_input`. It either
returns a JSON value of the expected top-level type or raises :class:`InputFileError`
whose message is one line naming the option and the file. It refuses a file larger
than :data:`MAX_INPUT_BYTES`, bytes that are not UTF-8, and everything
:func:`conformance.canonical.read_json` refuses (nesting deeper than 64 levels,
NaN, huge integers, lone surrogates). The engine CLI keeps its own copy of this
contract in ``reference/jsonio.py`` (the suite never imports the engine).
"""

from __future__ import annotations

import os
from typing import Any

from conformance.canonical import RefusedJSON, read_json

MAX_INPUT_BYTES = 64 * 1024 * 1024
"""Largest input file accepted, in bytes."""

TOP_LEVEL: dict[type, str] = {dict: "an object", list: "an array"}


class InputFileError(ValueError):
    """An input file that cannot be used; the message is one line naming option and file."""


def one_line(message: str) -> str:
    """*message* as one printable line: control characters and undecodable bytes escaped."""
    text = message.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
    return "".join(ch if ch.isprintable() else repr(ch)[1:-1] for ch in text)


def display(path: str | os.PathLike[str]) -> str:
    """*path* as one printable line (see :func:`one_line`)."""
    return one_line(os.fsdecode(path))


def where(option: str | None, path: str | os.PathLike[str]) -> str:
    """``--option PATH`` (or ``PATH`` alone) for the start of a message."""
    shown = display(path)
    return f"{option} {shown}" if option else shown


def read_bytes(path: str | os.PathLike[str], option: str | None, what: str) -> bytes:
    """The bytes of *path*, at most MAX_INPUT_BYTES, or InputFileError."""
    head = where(option, path)
    try:
        with open(path, "rb") as handle:
            data = handle.read(MAX_INPUT_BYTES + 1)
    except OSError as exc:
        raise InputFileError(f"{head}: cannot read {what}: {exc.strerror or exc}") from None
    except ValueError:
        raise InputFileError(f"{head}: cannot read {what}: the path holds a NUL byte") from None
    if len(data) > MAX_INPUT_BYTES:
        raise InputFileError(f"{head}: not {what}: larger than {MAX_INPUT_BYTES} bytes")
    return data


def read_input(
    path: str | os.PathLike[str],
    option: str | None,
    what: str,
    expect: type[dict[str, Any]] | type[list[Any]] = dict,
) -> Any:
    """The JSON value in *path*, of top-level type *expect*, or InputFileError.

    *option* names the command-line option (``--durations-from``) or None for a
    positional argument; *what* says what the file should be (``a report.json``).
    """
    data = read_bytes(path, option, what)
    head = where(option, path)
    try:
        value = read_json(data)
    except RefusedJSON as exc:
        raise InputFileError(f"{head}: not {what}: {exc}") from None
    if not isinstance(value, expect):
        found = TOP_LEVEL.get(type(value), "a scalar")
        raise InputFileError(f"{head}: not {what}: {TOP_LEVEL[expect]} expected, {found} found")
    return value
