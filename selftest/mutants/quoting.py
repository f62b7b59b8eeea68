"""Broken engines that mishandle client text quoted in an error message (PROTO-QUOTE-001,
PROTO-QUOTE-002) or a NUL in a path argument (PROTO-PATH-001)."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

from reference.protocol.args import string_arg
from reference.serve import ProtocolHandler


def _error(response: dict[str, Any]) -> dict[str, Any] | None:
    error = response.get("error")
    return error if isinstance(error, dict) else None


def _dir(request: object) -> str | None:
    args = request.get("args") if isinstance(request, dict) else None
    value = args.get("dir") if isinstance(args, dict) else None
    return value if isinstance(value, str) else None


class _StateIoQuotesDir(ProtocolHandler):
    """Base: a STATE_IO message quotes the state directory as :meth:`quote` writes it."""

    reason = "not a directory"

    def quote(self, directory: str) -> str:
        return directory

    def handle(self, request: object) -> dict[str, Any]:
        response = super().handle(request)
        error = _error(response)
        directory = _dir(request)
        if error is not None and error.get("code") == "STATE_IO" and directory is not None:
            message = f"cannot use {self.quote(directory)}: {self.reason}"
            response = {**response, "error": {**error, "message": message}}
        return response


class FoldsOnlyNewline(_StateIoQuotesDir):
    """A STATE_IO message folds only \\n into a space: a \\r of the quoted path stays."""

    def quote(self, directory: str) -> str:
        return directory.replace("\n", " ")


class CrLfTwoSpaces(_StateIoQuotesDir):
    """A STATE_IO message folds \\r and \\n one by one: a \\r\\n of the path is two spaces."""

    def quote(self, directory: str) -> str:
        return re.sub("[\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]", " ", directory)


class DropsQuotedPath(_StateIoQuotesDir):
    """A STATE_IO message leaves out a path that holds a line break."""

    def quote(self, directory: str) -> str:
        broken = re.search("[\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]", directory)
        return "the state directory" if broken else directory


class OsErrorDropped(_StateIoQuotesDir):
    """A STATE_IO message names the path (breaks folded) but not the OS error."""

    reason = "unusable"

    def quote(self, directory: str) -> str:
        return re.sub("\r\n|[\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]", " ", directory)


class BreaksDropped(ProtocolHandler):
    """An unknown op's message quotes the op with its line breaks dropped, not folded."""

    def handle(self, request: object) -> dict[str, Any]:
        response = super().handle(request)
        error = _error(response)
        op = request.get("op") if isinstance(request, dict) else None
        if error is not None and error.get("code") == "PROTOCOL_UNKNOWN_OP" and isinstance(op, str):
            flat = re.sub("\r\n|[\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]", "", op)
            response = {**response, "error": {**error, "message": f"unknown op {flat}"}}
        return response


class FieldFolded(ProtocolHandler):
    """The field of an unknown argument's refusal has its line breaks folded, like the message."""

    def handle(self, request: object) -> dict[str, Any]:
        response = super().handle(request)
        error = _error(response)
        field = error.get("field") if error is not None else None
        if error is not None and error.get("code") == "PROTOCOL_BAD_ARGS" and field:
            folded = re.sub("\r\n|[\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]", " ", field)
            response = {**response, "error": {**error, "field": folded}}
        return response


class ControlsKeptRaw(ProtocolHandler):
    """An unknown op's message quotes the op verbatim with its breaks folded but a NUL, an ESC
    or a DEL kept raw."""

    def handle(self, request: object) -> dict[str, Any]:
        response = super().handle(request)
        error = _error(response)
        op = request.get("op") if isinstance(request, dict) else None
        if error is not None and error.get("code") == "PROTOCOL_UNKNOWN_OP" and isinstance(op, str):
            flat = re.sub("\r\n|[\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]", " ", op)
            response = {**response, "error": {**error, "message": f"unknown op {flat}"}}
        return response


class CutInUtf16Units(ProtocolHandler):
    """A long message is cut at 300 UTF-16 code units, which may split a surrogate pair."""

    half = "surrogatepass"
    """How the split pair's half is decoded: kept as a lone surrogate."""

    def handle(self, request: object) -> dict[str, Any]:
        response = super().handle(request)
        error = _error(response)
        op = request.get("op") if isinstance(request, dict) else None
        if error is not None and error.get("code") == "PROTOCOL_UNKNOWN_OP" and isinstance(op, str):
            units = f"unknown op {op!r}".encode("utf-16-le", "surrogatepass")[:600]
            message = units.decode("utf-16-le", self.half)
            response = {**response, "error": {**error, "message": message}}
        return response


class CutHalfReplaced(CutInUtf16Units):
    """As :class:`CutInUtf16Units`, the split pair's half written as U+FFFD (a string
    library's lossy encoding): valid Unicode, but a character the request never held."""

    half = "replace"


class CutEarly(ProtocolHandler):
    """A message is cut after 100 characters, before the 200 the docs keep."""

    def handle(self, request: object) -> dict[str, Any]:
        response = super().handle(request)
        error = _error(response)
        if error is not None and isinstance(error.get("message"), str):
            response = {**response, "error": {**error, "message": error["message"][:100]}}
        return response


class NulPathNotFound(ProtocolHandler):
    """register.ratify_file reads a path holding a NUL as a missing file (REGISTER_NOT_FOUND)."""

    def op_register_ratify_file(self, args: dict[str, Any]) -> dict[str, Any]:
        return {"report": self.ratify_pack(Path(string_arg(args, "path")))}


class RelativeDirAccepted(ProtocolHandler):
    """A state dir that is not absolute is resolved against the working directory."""

    def op_state_load(self, args: dict[str, Any]) -> dict[str, Any]:
        return super().op_state_load(_absolute(args))

    def op_state_open(self, args: dict[str, Any]) -> dict[str, Any]:
        return super().op_state_open(_absolute(args))


class BareRelativeDirAccepted(ProtocolHandler):
    """Only a dir that starts with ``.`` is refused as relative: a bare name (``state``) is
    resolved against the working directory."""

    def op_state_load(self, args: dict[str, Any]) -> dict[str, Any]:
        return super().op_state_load(_bare_absolute(args))

    def op_state_open(self, args: dict[str, Any]) -> dict[str, Any]:
        return super().op_state_open(_bare_absolute(args))


def _bare_absolute(args: dict[str, Any]) -> dict[str, Any]:
    value = args.get("dir")
    return _absolute(args) if isinstance(value, str) and not value.startswith(".") else args


def _absolute(args: dict[str, Any]) -> dict[str, Any]:
    value = args.get("dir")
    if isinstance(value, str) and value and "\x00" not in value:
        return {**args, "dir": os.path.abspath(value)}
    return args
