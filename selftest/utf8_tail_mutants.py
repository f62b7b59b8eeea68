"""A broken engine whose UTF-8 decoding holds back an unfinished sequence at the end of its
input, as a streaming decoder does, and never reads what it held back: a request line, a
pack file, a manifest, a core record, a journal payload or a delta entry that ends in a cut
sequence is read as if the sequence were not there. Every other byte is decoded strictly.
"""

from __future__ import annotations

import codecs
import contextlib
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from unittest import mock

from reference import jsonio
from reference.protocol import envelope
from reference.serve import ProtocolHandler
from reference.state import delta, journal, loader, manifest
from reference.state.fsops import FileOps
from reference.state.journal import checked_payload

_strict_loads = jsonio.loads_untrusted
_strict_core = loader.decode_core
_strict_delta = delta.apply_delta
_strict_generation = loader.check_generation


def held_back(data: bytes) -> bytes:
    """*data* without an unfinished UTF-8 sequence at its end; other bytes as they are."""
    with contextlib.suppress(UnicodeDecodeError):
        return codecs.getincrementaldecoder("utf-8")().decode(data, final=False).encode()
    return data


def _loads(data: bytes | str) -> Any:
    return _strict_loads(held_back(data) if isinstance(data, bytes) else data)


def _decode_core(data: bytes, schema_version: int) -> Any:
    """A core read line by line, each line's unfinished last sequence held back."""
    if data.endswith(b"\n"):
        data = b"".join(held_back(line) + b"\n" for line in data[:-1].split(b"\n"))
    return _strict_core(data, schema_version)


def _reframed(line: bytes) -> bytes:
    """A delta frame holding its payload as decoded (checks on the text, not the bytes)."""
    payload = checked_payload(line)
    if payload is None:
        return line + b"\n"
    text = held_back(payload)
    return b"%08x %08x " % (len(text), zlib.crc32(text)) + text + b"\n"


def _apply_delta(base: Any, data: bytes, schema_version: int) -> Any:
    if data.endswith(b"\n"):
        data = b"".join(_reframed(line) for line in data.split(b"\n")[:-1])
    return _strict_delta(base, data, schema_version)


class _HeldBackFiles:
    """*fs*, but a file is read with its unfinished last sequence held back."""

    def __init__(self, fs: FileOps) -> None:
        self._fs = fs

    def __getattr__(self, name: str) -> Any:
        return getattr(self._fs, name)

    def read_file(self, path: Path) -> bytes | None:
        data = self._fs.read_file(path)
        return None if data is None else held_back(data)


def _check_generation(directory: Path, fs: FileOps | None = None) -> Any:
    files = _HeldBackFiles(fs or FileOps(directory))
    return _strict_generation(directory, files)  # type: ignore[arg-type]


@contextlib.contextmanager
def _streaming_decoder() -> Iterator[None]:
    with contextlib.ExitStack() as stack:
        for module in (jsonio, envelope, delta, journal):
            stack.enter_context(mock.patch.object(module, "loads_untrusted", _loads))
        stack.enter_context(mock.patch.object(loader, "decode_core", _decode_core))
        stack.enter_context(mock.patch.object(manifest, "apply_delta", _apply_delta))
        stack.enter_context(mock.patch.object(loader, "check_generation", _check_generation))
        yield


class Utf8TailHeldBack(ProtocolHandler):
    """Bytes that end in a cut UTF-8 sequence are read without it, wherever they arrive."""

    def handle(self, request: object) -> dict[str, Any]:
        with _streaming_decoder():
            return super().handle(request)

    def handle_line(self, line: str | bytes) -> str:
        with _streaming_decoder():
            return super().handle_line(line)
