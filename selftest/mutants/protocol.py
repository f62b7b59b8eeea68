"""Broken wire behaviour: hello, unknown ops, batch order, chat shape, lexicon, raw lines."""

from __future__ import annotations

import base64
import json
import math
import re
import socket
import tempfile
import zlib
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from reference.protocol.envelope import (
    BAD_ARGS,
    BAD_REQUEST,
    ProtocolError,
    bad_arg,
    encode_response,
    error_response,
    refuse,
)
from reference.runtime import ChatRuntime
from reference.serve import ProtocolHandler, read_envelope
from reference.state.journal import JournalRecovery


class BadHello(ProtocolHandler):
    """hello names the protocol "core-engine/0"."""

    def op_hello(self, args: dict[str, Any]) -> dict[str, Any]:
        return {**super().op_hello(args), "protocol": "core-engine/0"}


class LanguageKeyRenamed(ProtocolHandler):
    """hello names the engine's language under "lang" instead of "language"."""

    def engine_info(self) -> dict[str, str]:
        info = dict(super().engine_info())
        info["lang"] = info.pop("language")
        return info


class UnknownOpOk(ProtocolHandler):
    """An unknown op is answered with ok and an empty result."""

    def dispatch(self, request: object) -> dict[str, Any]:
        op, _ = read_envelope(request)
        return {} if op not in self.ops else super().dispatch(request)


class BatchReordered(ProtocolHandler):
    """A batch answers its requests in reverse order."""

    def op_batch(self, args: dict[str, Any]) -> dict[str, Any]:
        return {"responses": super().op_batch(args)["responses"][::-1]}


class ChatShapeWrong(ProtocolHandler):
    """session.chat reports grounding_source "pack-ish"."""

    def chat(self, runtime: ChatRuntime, text: str) -> dict[str, Any]:
        return {**super().chat(runtime, text), "grounding_source": "pack-ish"}


class UnreachableLemma(ProtocolHandler):
    """lexicon.list also lists "zzzunknown", a lemma the engine cannot ground."""

    def lexicon_rows(self) -> list[dict[str, Any]]:
        extra = {"lemma": "zzzunknown", "pack": "core", "pos": "noun", "has_gloss": False}
        return [*super().lexicon_rows(), extra]


class EnvelopeFieldOmitted(ProtocolHandler):
    """PROTOCOL_BAD_REQUEST refusals carry no ``field``."""

    def handle(self, request: object) -> dict[str, Any]:
        response = super().handle(request)
        error = response.get("error")
        if isinstance(error, dict) and error.get("code") == "PROTOCOL_BAD_REQUEST":
            return {**response, "error": {k: v for k, v in error.items() if k != "field"}}
        return response


class BoolTurnIndexAccepted(ProtocolHandler):
    """A turn_idx of true or false is read as the integer 1 or 0 (Python's bool is an int)."""

    def handle(self, request: object) -> dict[str, Any]:
        args = request.get("args") if isinstance(request, dict) else None
        if isinstance(args, dict) and isinstance(args.get("turn_idx"), bool):
            request = {**request, "args": {**args, "turn_idx": int(args["turn_idx"])}}
        return super().handle(request)


class NestedBatchSkipped(ProtocolHandler):
    """A nested batch element is answered with an error, and the other elements run."""

    def op_batch(self, args: dict[str, Any]) -> dict[str, Any]:
        requests = args.get("requests")
        if isinstance(requests, list):
            stand_in = {"op": "no.such.op", "args": {}}
            requests = [
                {**r, **stand_in} if isinstance(r, dict) and r.get("op") == "batch" else r
                for r in requests
            ]
            args = {**args, "requests": requests}
        return super().op_batch(args)


def _valid_envelope(request: dict[str, Any]) -> bool:
    rid = request.get("id")
    valid_id = isinstance(rid, int | str) and not isinstance(rid, bool)
    return valid_id and isinstance(request.get("args", {}), dict)


class NestedBatchNeedsValidEnvelope(ProtocolHandler):
    """Only an element with a valid envelope is checked for a nested batch: one without an id
    runs (and is answered PROTOCOL_BAD_REQUEST) with the other elements."""

    def op_batch(self, args: dict[str, Any]) -> dict[str, Any]:
        requests = args.get("requests")
        if isinstance(requests, list) and not any(
            isinstance(r, dict) and r.get("op") == "batch" and _valid_envelope(r) for r in requests
        ):
            return {"responses": [self.handle(item) for item in requests]}
        return super().op_batch(args)


class FileValuesUnchecked(ProtocolHandler):
    """register.load decodes file values without checking they are strings (an internal error)."""

    def op_register_load(self, args: dict[str, Any]) -> dict[str, Any]:
        files = args.get("files")
        if isinstance(files, dict):
            for value in files.values():
                value.encode("ascii")
        return super().op_register_load(args)


def _lenient_base64(value: object) -> object:
    """A string *value* decoded as a lenient decoder does (the URL-safe alphabet, missing or
    excess padding, white space), encoded again strictly; other characters are left for the
    strict check to refuse."""
    if not isinstance(value, str) or any(
        not (c.isascii() and (c.isalnum() or c in "+/=-_ \t\r\n")) for c in value
    ):
        return value
    kept = "".join(c for c in value if c.isalnum() or c in "+/-_")
    try:
        data = base64.b64decode(kept + "=" * (-len(kept) % 4), altchars=b"-_")
    except ValueError:
        data = b""
    return base64.b64encode(data).decode("ascii")


class SessionFilesLenient(ProtocolHandler):
    """session.open takes URL-safe or unpadded base64 in its files, unlike register.load."""

    def op_session_open(self, args: dict[str, Any]) -> dict[str, Any]:
        files = args.get("files")
        if isinstance(files, dict):
            args = {**args, "files": {k: _lenient_base64(v) for k, v in files.items()}}
        return super().op_session_open(args)


class RepairFlagCoerced(ProtocolHandler):
    """state.journal reads ``repair`` by truthiness, so "yes" and 1 count as true."""

    def handle(self, request: object) -> dict[str, Any]:
        args = request.get("args") if isinstance(request, dict) else None
        if isinstance(args, dict) and "repair" in args and not isinstance(args["repair"], bool):
            request = {**request, "args": {**args, "repair": bool(args["repair"])}}
        return super().handle(request)


class BomStripped(ProtocolHandler):
    """A byte order mark at the start of a line is skipped, so the request after it is read."""

    def handle_line(self, line: str | bytes) -> str:
        bom = b"\xef\xbb\xbf" if isinstance(line, bytes) else "\ufeff"
        return super().handle_line(line.removeprefix(bom))  # type: ignore[arg-type]


class SpaceAsIsspace(ProtocolHandler):
    """A vertical tab or a form feed is read as white space (C's ``isspace``), so a request
    line holding one between tokens is answered."""

    def handle_line(self, line: str | bytes) -> str:
        if isinstance(line, bytes):
            return super().handle_line(line.replace(b"\x0b", b" ").replace(b"\x0c", b" "))
        return super().handle_line(line.replace("\x0b", " ").replace("\x0c", " "))


class InvalidUtf8Replaced(ProtocolHandler):
    """A line that is not UTF-8 is decoded with U+FFFD for each bad byte instead of refused."""

    def handle_line(self, line: str | bytes) -> str:
        text = line.decode("utf-8", "replace") if isinstance(line, bytes) else line
        return super().handle_line(text)


def _non_finite(value: object) -> bool:
    if isinstance(value, float):
        return not math.isfinite(value)
    if isinstance(value, dict):
        return any(_non_finite(v) for v in value.values())
    if isinstance(value, list):
        return any(_non_finite(v) for v in value)
    return False


class NanAccepted(ProtocolHandler):
    """NaN and Infinity in a request line are read as floats (Python's json.loads does)."""

    def handle_line(self, line: str | bytes) -> str:
        try:
            request = json.loads(line)
        except ValueError:
            return super().handle_line(line)
        if _non_finite(request):
            return encode_response(self.handle(request))
        return super().handle_line(line)


def _repaired(value: object) -> object:
    """*value* with every lone surrogate replaced by U+FFFD."""
    if isinstance(value, str):
        return "".join("\ufffd" if 0xD800 <= ord(c) <= 0xDFFF else c for c in value)
    if isinstance(value, dict):
        return {_repaired(k): _repaired(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_repaired(v) for v in value]
    return value


class LoneSurrogatesRepaired(ProtocolHandler):
    """A lone surrogate in a request becomes U+FFFD instead of being refused (as a UTF-16
    language's text encoder writes it)."""

    def handle(self, request: object) -> dict[str, Any]:
        return super().handle(_repaired(request))

    def handle_line(self, line: str | bytes) -> str:
        try:
            request = json.loads(line)
        except ValueError:
            return super().handle_line(line)
        return encode_response(self.handle(request))


class UnclaimedOpsServed(ProtocolHandler):
    """hello leaves out the overrides capability, but overrides.resolve is still answered."""

    def capabilities(self) -> Sequence[str]:
        return [c for c in super().capabilities() if c != "overrides"]


class DeltaClaimedWithoutLife(ProtocolHandler):
    """hello claims state.delta but leaves out state.life, which state.delta implies."""

    def capabilities(self) -> Sequence[str]:
        return [c for c in super().capabilities() if c != "state.life"]


class ShutdownFails(ProtocolHandler):
    """At end of input the engine fails while shutting down, so it exits with status 1."""

    def close(self) -> None:
        raise RuntimeError("shutdown failed")


def _first_wins(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        out.setdefault(key, value)
    return out


class FirstDuplicateWins(ProtocolHandler):
    """Of a member named twice in a request line, the first one counts."""

    def handle_line(self, line: str | bytes) -> str:
        try:
            request = json.loads(line, object_pairs_hook=_first_wins)
        except ValueError:
            return super().handle_line(line)
        return super().handle_line(json.dumps(request))


class MarkersRefusedWithoutField(ProtocolHandler):
    """variation.decorate refuses malformed discourse_markers without naming the argument."""

    def op_variation_decorate(self, args: dict[str, Any]) -> dict[str, Any]:
        try:
            return super().op_variation_decorate(args)
        except ProtocolError as exc:
            if exc.field != "discourse_markers":
                raise
            refuse(BAD_ARGS, exc.message)


class BackslashFileNameAccepted(ProtocolHandler):
    """register.load checks file names for "/" only, so a name holding a backslash is taken."""

    def op_register_load(self, args: dict[str, Any]) -> dict[str, Any]:
        files = args.get("files")
        if isinstance(files, dict):
            kept = {name: value for name, value in files.items() if "\\" not in name}
            return super().op_register_load({**args, "files": kept})
        return super().op_register_load(args)


class FirstFileNameOnlyChecked(ProtocolHandler):
    """register.load checks the first file name only; a later name that is not plain is
    written and the load goes on."""

    def op_register_load(self, args: dict[str, Any]) -> dict[str, Any]:
        files = args.get("files")
        if isinstance(files, dict) and len(files) > 1:
            first, *rest = files
            kept = {first: files[first], **{n: files[n] for n in rest if _plain_name(n)}}
            return super().op_register_load({**args, "files": kept})
        return super().op_register_load(args)


class SessionFileNamesUnchecked(ProtocolHandler):
    """session.open writes its files without the file-name rule register.load applies: a
    name that is not plain is left out and the session opens."""

    def op_session_open(self, args: dict[str, Any]) -> dict[str, Any]:
        files = args.get("files")
        if isinstance(files, dict):
            kept = {n: v for n, v in files.items() if _plain_name(n)}
            return super().op_session_open({**args, "files": kept})
        return super().op_session_open(args)


def _plain_name(name: str) -> bool:
    return (
        name.endswith(".json")
        and "/" not in name
        and "\\" not in name
        and not any(c < " " or "\x7f" <= c <= "\x9f" for c in name)
    )


class C1ControlFileNameAccepted(ProtocolHandler):
    """register.load refuses only ASCII control characters in a file name: NEL (U+0085) is taken."""

    def op_register_load(self, args: dict[str, Any]) -> dict[str, Any]:
        files = args.get("files")
        if isinstance(files, dict):
            kept = {n: v for n, v in files.items() if not any("\x80" <= c <= "\x9f" for c in n)}
            return super().op_register_load({**args, "files": kept})
        return super().op_register_load(args)


class ArgsNullAsAbsent(ProtocolHandler):
    """A request whose args is null is read as one without args (JavaScript's `args ?? {}`)."""

    def handle(self, request: object) -> dict[str, Any]:
        if isinstance(request, dict) and "args" in request and request["args"] is None:
            request = {k: v for k, v in request.items() if k != "args"}
        return super().handle(request)


class StrykerUnwritableFileLeftOut(ProtocolHandler):
    """register.load leaves out a file it cannot write (a name too long) instead of refusing."""

    def op_register_load(self, args: dict[str, Any]) -> dict[str, Any]:
        files = args.get("files")
        if isinstance(files, dict):
            kept = {name: value for name, value in files.items() if len(name.encode()) <= 255}
            return super().op_register_load({**args, "files": kept})
        return super().op_register_load(args)


class StrykerStagedFilesKept(ProtocolHandler):
    """register.load stages its files in a temporary directory it never deletes."""

    def op_register_load(self, args: dict[str, Any]) -> dict[str, Any]:
        files = args.get("files")
        if isinstance(files, dict):
            kept = Path(tempfile.mkdtemp(prefix="core-kept-"))
            for name, value in files.items():
                if isinstance(value, str) and "/" not in name:
                    (kept / name).write_bytes(base64.b64decode(value))
        return super().op_register_load(args)


class SpaceInFileNameRefused(ProtocolHandler):
    """register.load counts a space among the control characters a file name may not hold."""

    def op_register_load(self, args: dict[str, Any]) -> dict[str, Any]:
        files = args.get("files")
        if isinstance(files, dict):
            for name in files:
                if " " in name:
                    bad_arg("files", f"file name {name!r} is not a plain *.json name")
        return super().op_register_load(args)


class JournalNameWithoutField(ProtocolHandler):
    """state.journal refuses a journal name it does not list without naming the argument."""

    def op_state_journal(self, args: dict[str, Any]) -> dict[str, Any]:
        try:
            return super().op_state_journal(args)
        except ProtocolError as exc:
            if exc.field != "name":
                raise
            refuse(BAD_ARGS, exc.message)


class RepairByDefault(ProtocolHandler):
    """state.journal without ``repair`` cuts a torn tail, as if the default were true."""

    def op_state_journal(self, args: dict[str, Any]) -> dict[str, Any]:
        return super().op_state_journal({"repair": True, **args})


class JournalTakesNonJson(ProtocolHandler):
    """state.journal reads payloads with a parser that takes NaN and lone surrogates."""

    def recover_journal(self, path: Path, *, repair: bool) -> JournalRecovery:
        found = super().recover_journal(path, repair=repair)
        lines = path.read_bytes().split(b"\n") if path.is_file() else []
        entries, skipped = list(found.entries), []
        for number in found.skipped:
            payload = lines[number - 1][18:]
            header = b"%08x %08x " % (len(payload), zlib.crc32(payload))
            if lines[number - 1].startswith(header):
                entries.append(json.loads(payload))
            else:
                skipped.append(number)
        return JournalRecovery(tuple(entries), tuple(skipped), found.cut_bytes)


class AsciiEscapedWire(ProtocolHandler):
    """Response lines escape every non-ASCII character as \\uXXXX (a default JSON encoder)."""

    def handle_line(self, line: str | bytes) -> str:
        response = json.loads(super().handle_line(line))
        return json.dumps(response, sort_keys=True, separators=(",", ":"))


def _utf16_ordered(value: object) -> str:
    """JSON text of *value* with object keys sorted by UTF-16 code units."""
    if isinstance(value, dict):
        members = sorted(value.items(), key=lambda item: item[0].encode("utf-16-be"))
        inner = ",".join(f"{_utf16_ordered(key)}:{_utf16_ordered(item)}" for key, item in members)
        return "{" + inner + "}"
    if isinstance(value, list):
        return "[" + ",".join(_utf16_ordered(item) for item in value) + "]"
    return json.dumps(value, ensure_ascii=False)


class Utf16KeyOrderWire(ProtocolHandler):
    """Response lines sort object keys by UTF-16 code units (JavaScript's default sort)."""

    def handle_line(self, line: str | bytes) -> str:
        return _utf16_ordered(json.loads(super().handle_line(line)))


class SessionIdsRepeat(ProtocolHandler):
    """Every session.open answers ``s1``: a new session replaces the open one."""

    def add_session(self, runtime: ChatRuntime) -> str:
        self.sessions["s1"] = runtime
        return "s1"


class UnknownSessionAsBadArgs(ProtocolHandler):
    """A session that is not open is refused as PROTOCOL_BAD_ARGS, not SESSION_UNKNOWN."""

    def session(self, session_id: str) -> ChatRuntime:
        if session_id not in self.sessions:
            bad_arg("session", f"no open session {session_id!r}")
        return super().session(session_id)


class OverridesNotObjectWithoutField(ProtocolHandler):
    """``realizer_overrides`` that is not an object is refused with no ``field``."""

    def op_overrides_resolve(self, args: dict[str, Any]) -> dict[str, Any]:
        if not isinstance(args.get("realizer_overrides"), dict):
            refuse(BAD_ARGS, "argument 'realizer_overrides' must be an object", None)
        return super().op_overrides_resolve(args)


class MessageSpansLines(ProtocolHandler):
    """An unknown op's error message quotes the op with its line breaks."""

    def handle(self, request: object) -> dict[str, Any]:
        response = super().handle(request)
        error = response.get("error")
        if isinstance(error, dict) and error.get("code") == "PROTOCOL_UNKNOWN_OP":
            op = request.get("op") if isinstance(request, dict) else None
            response = {**response, "error": {**error, "message": f"unknown op:\n{op}"}}
        return response


def _without_empty_field(response: dict[str, Any]) -> dict[str, Any]:
    error = response.get("error")
    if isinstance(error, dict) and error.get("field") == "":
        error = {key: value for key, value in error.items() if key != "field"}
        return {**response, "error": error}
    return response


class EmptyFieldLeftOut(ProtocolHandler):
    """An error's field is written only when it is not empty (``if (field)``): a refusal
    naming the empty argument name has no field."""

    def handle(self, request: object) -> dict[str, Any]:
        return _without_empty_field(super().handle(request))


class EmptyStructuralMessage(ProtocolHandler):
    """A pack that is not a JSON object is refused with an empty message."""

    def handle(self, request: object) -> dict[str, Any]:
        response = super().handle(request)
        error = response.get("error")
        if isinstance(error, dict) and "JSON object" in str(error.get("message")):
            response = {**response, "error": {**error, "message": ""}}
        return response


class ForkInParentsGroup(ProtocolHandler):
    """A forked engine stays in its parent's session and process group."""

    def lead_session(self) -> None:
        pass


class ForkRefusalWithoutField(ProtocolHandler):
    """engine.fork refuses a socket it cannot use without naming the argument."""

    def op_engine_fork(self, args: dict[str, Any]) -> dict[str, Any]:
        try:
            return super().op_engine_fork(args)
        except ProtocolError as exc:
            raise ProtocolError(exc.message, code=exc.code) from None


class ForkKeepsParentStdio(ProtocolHandler):
    """A forked engine keeps its parent's stdin and stdout open."""

    def release_stdio(self) -> None:
        pass


class ForkAbstractSocketAccepted(ProtocolHandler):
    """engine.fork connects to a NUL-led socket name: Linux's abstract namespace, not a path."""

    def connect_socket(self, path: str) -> socket.socket:
        if not path.startswith("\x00"):
            return super().connect_socket(path)
        conn = socket.socket(socket.AF_UNIX)
        conn.connect(path)
        return conn


class ForkNulLeadingOnly(ProtocolHandler):
    """engine.fork refuses only a NUL-led socket name; a NUL inside or at the end reaches
    connect, which the kernel cuts at the NUL, so it forks onto the path before it."""

    def connect_socket(self, path: str) -> socket.socket:
        if path.startswith("\x00"):
            return super().connect_socket(path)
        return _connect_unchecked(path)


class ForkNulAtEndsOnly(ProtocolHandler):
    """engine.fork refuses a NUL first or last in the socket name, not one inside it."""

    def connect_socket(self, path: str) -> socket.socket:
        if path.startswith("\x00") or path.endswith("\x00"):
            return super().connect_socket(path)
        return _connect_unchecked(path)


def _connect_unchecked(path: str) -> socket.socket:
    conn = socket.socket(socket.AF_UNIX)
    try:
        conn.connect(path)
    except OSError as exc:
        conn.close()
        bad_arg("socket", f"cannot connect to {path!r}: {exc}")
    return conn


class _StateDirNulCut(ProtocolHandler):
    """A state ``dir`` whose NUL the port's check misses reaches the file system as a C
    string would: ended at the NUL, naming the directory before it."""

    def misses(self, value: str) -> bool:
        """Whether the port's check lets this NUL through (the base misses none)."""
        return False

    def handle(self, request: object) -> dict[str, Any]:
        if isinstance(request, dict) and str(request.get("op", "")).startswith("state."):
            args = request.get("args")
            value = args.get("dir") if isinstance(args, dict) else None
            if isinstance(args, dict) and isinstance(value, str) and self.misses(value):
                request = {**request, "args": {**args, "dir": value.split("\x00")[0]}}
        return super().handle(request)


class StateDirNulLeadingOnly(_StateDirNulCut):
    """A state ``dir`` is refused for a leading NUL only; one inside or last is cut there."""

    def misses(self, value: str) -> bool:
        return "\x00" in value and not value.startswith("\x00")


class StateDirNulPaddingStripped(_StateDirNulCut):
    """A state ``dir``'s trailing NULs are stripped as a C buffer's padding before the NUL
    check, so a NUL last is not refused (the directory before it is used)."""

    def misses(self, value: str) -> bool:
        return "\x00" in value and "\x00" not in value.rstrip("\x00")


class LexiconByPack(ProtocolHandler):
    """lexicon.list gives its rows pack by pack, each pack's lemmas sorted, not one sorted list."""

    def op_lexicon_list(self, args: dict[str, Any]) -> dict[str, Any]:
        rows = super().op_lexicon_list(args)["lemmas"]
        return {"lemmas": sorted(rows, key=lambda row: (row["pack"], row["lemma"]))}


class OpenAlwaysAnswersTurnIdx(ProtocolHandler):
    """session.open answers turn_idx (0) without a store too."""

    def op_session_open(self, args: dict[str, Any]) -> dict[str, Any]:
        result = super().op_session_open(args)
        return {"turn_idx": 0, **result}


class SaysWithoutAnswersClaim(ProtocolHandler):
    """hello leaves out the answers capability, but every session.chat still carries says."""

    def capabilities(self) -> Sequence[str]:
        return [c for c in super().capabilities() if c != "answers"]


_ID_LITERAL = re.compile(rb'\A\s*\{\s*"id"\s*:\s*([-+0-9.eE]+|-?Infinity|NaN)\s*[,}]')


class IdNumbersUnguarded(ProtocolHandler):
    """The guarded reader skips the id: a NaN, Infinity or 1e400 id is PROTOCOL_BAD_REQUEST."""

    def handle_line(self, line: str | bytes) -> str:
        raw = line.encode("utf-8", "surrogatepass") if isinstance(line, str) else line
        found = _ID_LITERAL.match(raw)
        if found is not None:
            literal = found.group(1).decode("ascii")
            try:
                value = float(literal)
            except ValueError:
                value = 0.0
            integer = not any(c in literal for c in ".eEIN")
            if not integer and not math.isfinite(value):
                message = "the request id must be an integer or a string"
                return encode_response(error_response(None, BAD_REQUEST, message, "id"))
        return super().handle_line(line)
