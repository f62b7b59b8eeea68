"""Client text quoted in error messages: every entry of :mod:`conformance.quoted_texts`, with
every line-break kind at the start, inside and at the end of the text, other hazardous
characters and long texts; and a NUL in a file-system path argument.

Each case is sent with its *twin*: the same request with a plain marker where the break (or
character) stood. Where the twin is refused alike, the case's message must be the twin's
with the marker written as one space (a line break quoted verbatim) or as backslash escapes
(an escaped quote), at every place the twin quotes it (docs/protocol.md § Responses, quoted
text); a message that does not quote the text at all is the twin's unchanged. All the cases
of a requirement go to one engine as raw lines, a few at a time.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import os
import re
import shutil
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from conformance import cases
from conformance import quoted_texts as table
from conformance.engines.base import EngineClient, EngineRefused
from conformance.requirements.registry import requirement
from conformance.state.driver import scratch

SEED = "docs/protocol.md § Responses (quoted text in a message)"
BREAKS = {
    "\\n": "\n",
    "\\r": "\r",
    "\\r\\n": "\r\n",
    "VT": "\x0b",
    "FF": "\x0c",
    "FS": "\x1c",
    "GS": "\x1d",
    "RS": "\x1e",
    "NEL": "\x85",
    "LS": "\u2028",
    "PS": "\u2029",
}
"""Every line break docs/protocol.md § Responses defines (``\\r\\n`` is one)."""
POSITIONS = {"start": ("", "zQb"), "inside": ("zQa", "zQb"), "end": ("zQa", "")}
OTHERS = {
    "NUL": "\x00",
    "SOH": "\x01",
    "ESC": "\x1b",
    "tab": "\t",
    "DEL": "\x7f",
    "C1 U+0080": "\x80",
    "BOM": "\ufeff",
    "astral U+1F600": "\U0001f600",
}
"""Characters other than line breaks a port may mishandle in quoted text."""
MARKER = "zQm"
LONG = "zQa" + "\U0001f600" * 300 + "\r\n" * 3 + "x" * 300 + "zQb"
"""A long text: astral characters (a cut in UTF-16 units may split one), breaks, plain text."""
LONGS = {"a long text": LONG, "a long text, shifted by one": "zQaa" + LONG[3:]}
"""The long text at both parities: a cut in UTF-16 units splits a pair in one of them."""
CHUNK = 16
"""Lines written at once: no more than an engine client reads ahead of the suite (a program's
stdout pipe must not fill while the suite is still writing its stdin)."""
MIN_CUT = 200
REPLACEMENT = "\ufffd"
"""What a lossy encoder writes for half a character: a cut message never holds one the text
did not."""
"""A message is not cut before this many characters (code points)."""

LINE_BREAK = re.compile("[\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]")
CONTROL = re.compile("[\x00-\x1f\x7f-\x9f]")
ESCAPE = (
    r"(?:\\(?:[nrtvfab0e]|x[0-9A-Fa-f]{2}|u[0-9A-Fa-f]{4}|U[0-9A-Fa-f]{8}"
    r"|u\{[0-9A-Fa-f]{1,6}\}))+"
)


@dataclass(frozen=True)
class Case:
    """One request (or raw line) of an entry with a text, its twin, and what must hold."""

    label: str
    entry: dict[str, Any]
    text: str
    twin: str
    verbatim: str
    """How a verbatim quote writes the character under test (a space for a line break)."""

    def rendered(self, template: Any, text: str, where: dict[str, str]) -> Any:
        """*template* with the placeholders replaced (*text* for ``@T@``)."""
        if isinstance(template, str):
            out = template.replace(table.T, text)
            for key, value in where.items():
                out = out.replace(key, value)
            return out
        if isinstance(template, list):
            return [self.rendered(item, text, where) for item in template]
        if isinstance(template, dict):
            return {
                self.rendered(k, text, where): self.rendered(v, text, where)
                for k, v in template.items()
            }
        return template


def _line(case: Case, text: str, request_id: str, where: dict[str, str]) -> bytes:
    request = case.entry["request"]
    if "line" in request:
        raw: str = case.rendered(request["line"], text, where)
        return raw.encode("utf-8", "surrogatepass") + b"\n"
    whole = {"id": request_id, **case.rendered(request, text, where)}
    ascii_only = any(0xD800 <= ord(c) <= 0xDFFF for c in text)
    return json.dumps(whole, ensure_ascii=ascii_only).encode("utf-8") + b"\n"


def _refusal(response: Any, inner: bool) -> tuple[Any, Any]:
    """The error object of *response* (of its first inner response when *inner*) and the id
    it carries."""
    if not isinstance(response, dict):
        return None, None
    if inner:
        result = response.get("result")
        items = result.get("responses") if isinstance(result, dict) else None
        response = items[0] if isinstance(items, list) and items else None
        if not isinstance(response, dict):
            return None, None
    return (response.get("error") if response.get("ok") is False else None), response.get("id")


def folded(text: str, verbatim: str = " ") -> str:
    """*text* quoted verbatim: each line break as *verbatim* (``\\r\\n`` is one)."""
    return LINE_BREAK.sub(verbatim, text.replace("\r\n", "\n"))


def _escaped_pattern(text: str) -> str:
    """A pattern of *text* quoted verbatim or escaped: each line break or control character
    as one space or escapes, each other non-ASCII character as itself or escapes."""
    out = []
    for part in re.split("(\r\n|[^ -~])", text):
        if len(part) == 1 and not " " <= part <= "~" or part == "\r\n":
            spaced = LINE_BREAK.match(part) or CONTROL.match(part)
            out.append(f"(?: |{ESCAPE})" if spaced else f"(?:{re.escape(part)}|{ESCAPE})")
        else:
            out.append(re.escape(part))
    return "".join(out)


def names(message: str, text: str) -> bool:
    """Whether *message* names *text*: whole, verbatim with its breaks folded, or escaped."""
    return folded(text) in message or re.search(_escaped_pattern(text), message) is not None


def _clean(message: str) -> str | None:
    """What makes *message* not one line of clean text, or None."""
    found = LINE_BREAK.search(message)
    if found:
        return f"a line break {found.group()!r} at {found.start()}"
    found = CONTROL.search(message)
    if found:
        return f"a control character {found.group()!r} at {found.start()}"
    try:
        message.encode("utf-8")
    except UnicodeEncodeError as exc:
        return f"not Unicode text: a lone surrogate at {exc.start}"
    return None


def _matches_twin(case: Case, message: str, twin: str) -> bool:
    """*message* is *twin* with every marker written verbatim (*case.verbatim*) or escaped."""
    pieces = [re.escape(piece) for piece in twin.split(MARKER)]
    allowed = f"(?:{re.escape(case.verbatim)}|{ESCAPE})"
    return re.fullmatch(allowed.join(pieces), message) is not None


def _judge(case: Case, response: Any, twin: Any, where: dict[str, str]) -> list[str]:
    entry = case.entry
    surrogate = any(0xD800 <= ord(c) <= 0xDFFF for c in case.text)
    error, echoed = _refusal(response, bool(entry.get("inner")) and not surrogate)
    if error is None:
        return [f"{case.label}: not refused: {str(response)[:160]}"]
    problems = []
    code = "PROTOCOL_BAD_JSON" if surrogate else entry["code"]
    field = None if surrogate else case.rendered(entry["field"], case.text, where)
    if error.get("code") != code:
        problems.append(f"{case.label}: code {error.get('code')!r}, not {code}")
    elif field != table.ANY and error.get("field") != field:
        problems.append(f"{case.label}: field {error.get('field')!r}, not {field!r}")
    if surrogate and echoed is not None:
        problems.append(f"{case.label}: id {echoed!r}, not null")
    message = error.get("message")
    if not isinstance(message, str):
        return [*problems, f"{case.label}: message {message!r} is not a string"]
    unclean = _clean(message)
    if unclean:
        problems.append(f"{case.label}: the message holds {unclean}: {message[:160]!r}")
    if REPLACEMENT in message and REPLACEMENT not in case.text:
        at = message.index(REPLACEMENT)
        problems.append(
            f"{case.label}: the message holds U+FFFD at {at}, a character the text never held "
            f"(a character cut in half and replaced): {message[max(0, at - 40) : at + 8]!r}"
        )
    named = entry.get("names")
    if named and not surrogate:
        text = case.rendered(named, case.text, where)
        cut = case.text in LONGS.values() and len(message) >= MIN_CUT
        if not names(message, text) and not cut:
            problems.append(f"{case.label}: the message does not name {text!r}: {message!r}")
    os_error = entry.get("os_error")
    if (
        os_error
        and not surrogate
        and not any(spelling.lower() in message.lower() for spelling in os_error)
    ):
        problems.append(f"{case.label}: the message names no OS error {os_error}: {message!r}")
    long = case.text in LONGS.values()
    if long and "zQa" in message and len(message) < MIN_CUT and not names(message, case.text):
        problems.append(f"{case.label}: the message is cut before {MIN_CUT} characters")
    twin_error, _ = _refusal(twin, bool(entry.get("inner")))
    twin_message = twin_error.get("message") if isinstance(twin_error, dict) else None
    twin_field = case.rendered(entry["field"], case.twin, where)
    if (
        not surrogate
        and isinstance(twin_message, str)
        and twin_error.get("code") == code
        and twin_field in (table.ANY, twin_error.get("field"))
        and max(len(message), len(twin_message)) < MIN_CUT
        and not _matches_twin(case, message, twin_message)
    ):
        problems.append(
            f"{case.label}: the quote is not verbatim (each break one space) nor escaped: "
            f"{message!r}, where the text {case.twin!r} gives {twin_message!r}"
        )
    return problems


def _claimed(engine: EngineClient) -> list[dict[str, Any]]:
    caps = engine.capabilities()
    return [e for e in table.entries() if e["capability"] is None or e["capability"] in caps]


def _prepare(case: Case, root: Path, where: dict[str, str]) -> None:
    made = case.entry.get("file")
    if made:
        for text in (case.text, case.twin):
            if any(0xD800 <= ord(c) <= 0xDFFF for c in text):
                continue
            path = Path(case.rendered(made, text, where))
            if not path.exists():
                path.write_bytes(b"a regular file")


def _run(engine: EngineClient, chosen: list[Case]) -> list[str]:
    """Send every case and its twin (each distinct request once) as raw lines; the problems
    found."""
    with scratch() as root:
        where = {table.DIR: str(root)}
        needs_store = any(table.STORE in json.dumps(c.entry["request"]) for c in chosen)
        store = None
        if needs_store:
            store = engine.call("state.open", {"dir": str(root / "store")})["store"]
            where[table.STORE] = store
        for case in chosen:
            _prepare(case, root, where)
        sent: dict[tuple[str, str], int] = {}
        lines: list[bytes] = []
        for case in chosen:
            for text in (case.text, case.twin):
                if (case.entry["name"], text) not in sent:
                    sent[case.entry["name"], text] = len(lines)
                    lines.append(_line(case, text, f"q{len(lines)}", where))
        responses = []
        for start in range(0, len(lines), CHUNK):
            responses.extend(engine.raw_lines(b"".join(lines[start : start + CHUNK])))
        if store is not None:
            with contextlib.suppress(EngineRefused):
                engine.call("state.close", {"store": store})
        problems: list[str] = []
        for case in chosen:
            case_response = responses[sent[case.entry["name"], case.text]]
            twin = responses[sent[case.entry["name"], case.twin]]
            problems.extend(_judge(case, case_response, twin, where))
    return problems


def _break_cases(entries: list[dict[str, Any]]) -> Iterator[Case]:
    for entry in entries:
        for number, (kind, brk) in enumerate(BREAKS.items()):
            if "line" in entry["request"] and "\n" in brk:
                continue
            for place, (where, (before, after)) in enumerate(POSITIONS.items()):
                rotate = entry.get("rotate")
                if rotate is not None and (number + rotate) % len(POSITIONS) != place:
                    continue
                yield Case(
                    f"{entry['name']}, {kind} {where}",
                    entry,
                    before + brk + after,
                    before + MARKER + after,
                    " ",
                )


def _other_cases(entries: list[dict[str, Any]]) -> Iterator[Case]:
    for entry in entries:
        is_line = "line" in entry["request"]
        for kind, char in OTHERS.items():
            if char == "\x00" and entry.get("path"):
                continue
            verbatim = " " if CONTROL.fullmatch(char) else char
            yield Case(f"{entry['name']}, {kind}", entry, f"zQa{char}zQb", "zQazQmzQb", verbatim)
        if not is_line:
            yield Case(f"{entry['name']}, a lone surrogate", entry, "zQa\ud800zQb", "zQa", " ")
        if not entry.get("path") and not is_line:
            for kind, text in LONGS.items():
                yield Case(f"{entry['name']}, {kind}", entry, text, text, " ")
        if _is_name(entry["field"]):
            yield Case(f"{entry['name']}, the empty name", entry, "", "", " ")


def _is_name(field: str | None) -> bool:
    """Whether the refusal's field is the text itself, or ends in it: the text is a name."""
    return field == table.T or (isinstance(field, str) and field.endswith("." + table.T))


def _check(engine: EngineClient, chosen: list[Case]) -> None:
    problems = _run(engine, chosen)
    assert not problems, cases.lines(problems, f"{len(problems)} of {len(chosen)} cases:")


@requirement(
    "PROTO-QUOTE-001",
    "every client text an error can quote (each op's argument values and names, the op, a "
    "bad member's path, a state directory, a line that is not JSON), holding each line break "
    "(\\n, \\r, \\r\\n, VT, FF, FS, GS, RS, NEL, LS, PS) at its start, inside and at its end, "
    "is refused with its code and field, a message of one line that names what the docs say "
    "it names, and quotes the text verbatim with each break one space or escaped, never "
    "dropped or doubled (fixed sample)",
    family="protocol",
    capabilities=(),
    seed=f"{SEED}; docs/state.md § Refusals; docs/registers.md § Structural check order",
)
def quoted_line_breaks(engine: EngineClient, _: object) -> None:
    _check(engine, list(_break_cases(_claimed(engine))))


@requirement(
    "PROTO-QUOTE-002",
    "every client text an error can quote, holding NUL, another C0 control, tab, DEL, a C1 "
    "control, a BOM or an astral character, or 600 characters, or a name that is empty (its "
    "field then the empty name, never left out), gets a message with no "
    "control character, valid Unicode (never cut inside a character, nor before its 200th; "
    "no U+FFFD the text did not hold), "
    "quoting the text verbatim or escaped; a lone surrogate escape is PROTOCOL_BAD_JSON with "
    "id null (fixed sample)",
    family="protocol",
    capabilities=(),
    seed=f"{SEED}; § Requests (a lone surrogate is PROTOCOL_BAD_JSON)",
)
def quoted_other_characters(engine: EngineClient, _: object) -> None:
    chosen = list(_other_cases(_claimed(engine)))
    _check(engine, chosen)


NUL_PATHS = {
    "state.open": ("state", {"dir": "@DIR@/a\x00b"}, "dir"),
    "state.load": ("state", {"dir": "@DIR@/a\x00b"}, "dir"),
    "state.journal": ("state", {"dir": "@DIR@/a\x00b", "name": "proposals"}, "dir"),
    "state.soak": ("state.soak", {"dir": "@DIR@/a\x00b", "iterations": 1, "seed": 1}, "dir"),
    "register.ratify_file": ("registers.ratify_file", {"path": "@DIR@/a\x00b.json"}, "path"),
    "register.load": (
        "registers.load",
        {"register_id": "q_v1", "files": {"a\x00b.json": ""}},
        "files",
    ),
    "engine.fork": ("fork", {"socket": "@DIR@/a\x00b"}, "socket"),
}
"""Every argument naming a file-system path, holding a NUL: no file has such a name."""

NUL_POSITIONS = ("first", "inside", "last", "alone")
"""Where the NUL stands: docs say "holds a NUL", so a port that checks only the first
character (``startswith``, ``[0]``) or the last passes the path on at another position,
and the kernel (or a C string) ends it at the NUL, naming the path before it."""


def _nul_at(value: str, position: str) -> str:
    """*value* (a template with one NUL inside) with its NUL moved to *position*."""
    before, after = value.split("\x00")
    return {
        "first": "\x00" + before + after,
        "inside": value,
        "last": before + after + "\x00",
        "alone": "\x00",
    }[position]


def _nul_args(args: dict[str, Any], position: str) -> dict[str, Any]:
    moved: dict[str, Any] = {}
    for key, value in args.items():
        if isinstance(value, str) and "\x00" in value:
            value = _nul_at(value, position)
        elif isinstance(value, dict):
            value = {_nul_at(k, position) if "\x00" in k else k: v for k, v in value.items()}
        moved[key] = value
    return moved


@requirement(
    "PROTO-PATH-001",
    "a file-system path argument holding a NUL (a state directory, register.ratify_file's "
    "path, a register.load file name, engine.fork's socket), first, inside, last or alone, "
    "is refused with "
    "PROTOCOL_BAD_ARGS naming the argument, a message of one line with no control "
    "character, and nothing is created",
    family="protocol",
    capabilities=(),
    seed="docs/protocol.md § register.ratify_file; § register.load (file names); "
    "§ Persisted-state ops; § Forking",
)
def nul_paths(engine: EngineClient, _: object) -> None:
    caps = engine.capabilities()
    problems = []
    with scratch() as root:
        for (op, (capability, args, field)), position in itertools.product(
            NUL_PATHS.items(), NUL_POSITIONS
        ):
            if capability not in caps:
                continue
            rendered = json.loads(json.dumps(args).replace("@DIR@", str(root)))
            rendered = _nul_args(rendered, position)
            where = f"{op} (the NUL {position})"
            try:
                engine.call(op, rendered, checked=False)
            except EngineRefused as refusal:
                if (refusal.code, refusal.field) != ("PROTOCOL_BAD_ARGS", field):
                    problems.append(
                        f"{where}: refused with {refusal.code} field {refusal.field!r}, not "
                        f"PROTOCOL_BAD_ARGS field {field!r}"
                    )
                unclean = _clean(refusal.message)
                if unclean:
                    problems.append(f"{where}: the message holds {unclean}")
            else:
                problems.append(f"{where}: a path holding a NUL was accepted")
        left = sorted(os.listdir(root))
        if left:
            problems.append(f"entries were created: {left}")
    assert not problems, cases.lines(problems)


RELATIVE_DIR_OPS: tuple[tuple[str, str, dict[str, Any]], ...] = (
    ("state.load", "state", {}),
    ("state.journal", "state", {"name": "proposals"}),
    ("state.open", "state", {}),
    ("state.soak", "state.soak", {"iterations": 1, "seed": 1}),
)
"""The ops taking a state ``dir``, the read-only ones first: an engine that accepts a
relative ``dir`` is then seen before it writes anything."""


DOC_SPELLINGS = ("state", "./state", "../state")
"""The relative spellings docs/protocol.md § Persisted-state ops names, sent only to the ops
that read (they name entries of whatever the working directory is)."""
READING_OPS = frozenset({"state.load", "state.journal"})


BARE = f"core-conformance-relative-{os.getpid()}"
"""A relative ``dir`` that starts with a letter: no ``.``, no ``/``."""


def _relative_spellings(root: Path, op: str) -> list[str]:
    """Relative paths for *op*: ones that name *root*/rel from any working directory less
    than 64 deep (``..`` at ``/`` stays at ``/``), so an engine that accepts them writes
    only there; a bare name of one unique word, which an engine that accepts it makes in
    the working directory (removed after); and, for the ops that read, the docs' own."""
    climb = "../" * 64 + str(root).lstrip("/")
    found = [f"{climb}/rel", f"./{climb}/rel", f"{climb}/./rel", BARE]
    return [*found, *DOC_SPELLINGS] if op in READING_OPS else found


@requirement(
    "PROTO-PATH-002",
    "a state dir that is not absolute (a bare name, ./ or ../ spellings; the docs' own, "
    "state, ./state and ../state, to the ops that read) is refused by every "
    "state op taking one with PROTOCOL_BAD_ARGS field dir, and nothing is created "
    "(fixed sample)",
    family="protocol",
    capabilities=("state",),
    seed="docs/protocol.md § Persisted-state ops (directories are absolute paths)",
)
def relative_dirs(engine: EngineClient, _: object) -> None:
    caps = engine.capabilities()
    problems: list[str] = []
    with scratch() as root:
        for op, capability, extra in RELATIVE_DIR_OPS:
            if capability not in caps or problems:
                continue
            for spelling in _relative_spellings(root, op):
                try:
                    engine.call(op, {"dir": spelling, **extra}, checked=False)
                except EngineRefused as refusal:
                    if (refusal.code, refusal.field) != ("PROTOCOL_BAD_ARGS", "dir"):
                        problems.append(
                            f"{op} dir {spelling[-40:]!r}: refused with {refusal.code} field "
                            f"{refusal.field!r}, not PROTOCOL_BAD_ARGS field 'dir'"
                        )
                else:
                    problems.append(f"{op}: a relative dir ...{spelling[-40:]!r} was accepted")
        left = sorted(os.listdir(root))
        if left:
            problems.append(f"entries were created through a relative dir: {left}")
    if os.path.lexists(BARE):
        shutil.rmtree(BARE, ignore_errors=True)
        problems.append(f"the relative dir {BARE!r} was created in the working directory")
    assert not problems, cases.lines(problems)
