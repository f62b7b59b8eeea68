"""Differential fuzzing: two engines, one stream of requests, every answer compared.

``python -m tools.differential --seed N --requests K [--area AREA ...] [--engine-a CMD]
[--engine-b CMD] [--json]``

Contract:

* Starts both engines (default: ``python -m reference serve`` and
  ``node ports/node/engine.js``) as programs speaking core-engine/1 over stdio and
  sends both the same generated requests, one line at a time. The stream is a
  function of ``--seed`` alone (a ``random.Random``), cut into independent *cases*
  (a chat session, one algebra call, a batch, ...) of about ``--requests`` requests
  in all, spread over the areas. Handles (FREE-007) are never compared: a case
  names "the k-th handle this case opened", and each engine gets its own handle.
* Each pair of responses is compared after :func:`normalise` removes exactly what
  docs/spec.md § Freedoms grants (every dropped member names its FREE row there);
  algebra results are compared within the ULP bounds of docs/spec.md § Algebra.
  Nothing else is forgiven: any other difference is a disagreement.
* Prompts hold no code point unassigned in Unicode 14.0 (FREE-023).
* A disagreeing case is shrunk (requests dropped while it still disagrees, replayed
  on the same engines: cases share no state) and reported once per (op, member):
  the op of the first disagreeing response and the path of its first differing
  member, with the shortest stream found and both answers.
* Exit status 0 when the engines agree on every request, 1 when some disagreement
  was found, 2 on a usage error or an engine that stops answering.

Only what both engines claim in ``hello`` is generated (the reference's ``fork`` and
``registers.ratify_file`` are not the Node port's), and ``hello`` itself is not
compared: its ``engine`` names each engine (FREE-010 for ``language``).
"""

from __future__ import annotations

import argparse
import base64
import copy
import dataclasses
import functools
import json
import math
import os
import random
import re
import select
import shlex
import shutil
import subprocess
import sys
import tempfile
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from conformance.protocol.validate import WireValidator, load_schemas

ROOT = Path(__file__).resolve().parent.parent
REFERENCE = f"{shlex.quote(sys.executable)} -m reference serve"
NODE = "node ports/node/engine.js"
TIMEOUT = 30.0
REGISTERS = (None, "default_neutral_v1", "terse_v1", "convivial_v1")
INTENTS = (
    "DEFINITION CAUSE PROCEDURE COMPARISON CORRECTION RECALL VERIFICATION "
    "TRANSITIVE_QUERY FRAME_TRANSFER NARRATIVE EXAMPLE UNKNOWN"
).split()

Json = Any


# --- engines -----------------------------------------------------------------------


class EngineStopped(Exception):
    """An engine died or did not answer a line within TIMEOUT seconds."""


class Engine:
    """One engine program: write a line, read its response line (event lines skipped)."""

    def __init__(self, command: str) -> None:
        self.command = command
        self.proc = subprocess.Popen(
            shlex.split(command),
            cwd=ROOT,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )
        self._buffer = b""

    def _readline(self) -> bytes:
        assert self.proc.stdout is not None
        fd = self.proc.stdout.fileno()
        while b"\n" not in self._buffer:
            ready, _, _ = select.select([fd], [], [], TIMEOUT)
            chunk = os.read(fd, 1 << 16) if ready else b""
            if not chunk:
                raise EngineStopped(f"{self.command}: no answer")
            self._buffer += chunk
        line, _, self._buffer = self._buffer.partition(b"\n")
        return line

    def send(self, line: bytes) -> Json:
        assert self.proc.stdin is not None
        try:
            self.proc.stdin.write(line + b"\n")
            self.proc.stdin.flush()
        except BrokenPipeError:
            raise EngineStopped(f"{self.command}: stdin closed") from None
        while True:
            message = json.loads(self._readline())
            if "ok" in message:  # event lines (state.soak) carry no "ok"
                return message

    def close(self) -> None:
        if self.proc.stdin:
            self.proc.stdin.close()
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


# --- requests of a case --------------------------------------------------------------
# A request is a dict (sent as JSON) or bytes (sent as the raw line). Inside args,
# {"$handle": k} stands for the k-th handle this case's session.open/state.open gave.


def _edit_files(files: dict[str, str], edit: str) -> dict[str, str]:
    """*files* (a ratify's result) with one *edit*: what a client might do to them."""
    files = dict(files)
    pack = next((n for n in files if not n.endswith(".mastery_report.json")), None)
    report = next((n for n in files if n.endswith(".mastery_report.json")), None)
    if edit == "drop_report" and report:
        del files[report]
    elif edit in (
        "pack_space",
        "report_space",
        "pack_crlf",
        "pack_bom",
        "report_field",
        "pack_field",
        "report_seal",
    ):
        name = report if edit.startswith("report") else pack
        if name is None:
            return files
        raw = base64.b64decode(files[name])
        if edit.endswith("space"):
            raw = raw.rstrip(b"\n") + b" \n"
        elif edit == "pack_crlf":
            raw = raw.replace(b"\n", b"\r\n")
        elif edit == "pack_bom":
            raw = b"\xef\xbb\xbf" + raw
        else:
            data = json.loads(raw)
            if edit == "report_field":
                data["verdict"] = "rejected"
            elif edit == "report_seal":
                data["seal"] = 1
            else:
                data["description"] = data.get("description", "") + "!"
            raw = (json.dumps(data, ensure_ascii=False, sort_keys=True, indent=2) + "\n").encode()
        files[name] = base64.b64encode(raw).decode()
    elif edit == "rename" and pack:
        files["other_v1.json"] = files.pop(pack)
    return files


def _bind(value: Json, handles: list[str], ratified: list[dict[str, str]]) -> Json:
    if isinstance(value, dict):
        if set(value) == {"$handle"}:
            k = value["$handle"]
            return handles[k] if k < len(handles) else f"missing-{k}"
        if "$files" in value:
            k = value["$files"]
            return _edit_files(ratified[k], value.get("edit", "")) if k < len(ratified) else {}
        return {key: _bind(item, handles, ratified) for key, item in value.items()}
    if isinstance(value, list):
        return [_bind(item, handles, ratified) for item in value]
    return value


def _collect(
    request: Json, response: Json, handles: list[str], ratified: list[dict[str, str]]
) -> None:
    """Record the handles *response* opened and the files a ratify returned, in order
    (batches included)."""
    if not isinstance(request, dict) or not isinstance(response, dict) or not response.get("ok"):
        return
    op, result = request.get("op"), response.get("result", {})
    if op == "session.open" and isinstance(result.get("session"), str):
        handles.append(result["session"])
    elif op == "state.open" and isinstance(result.get("store"), str):
        handles.append(result["store"])
    elif op == "register.ratify" and isinstance(result.get("files"), dict):
        ratified.append(result["files"])
    elif op == "batch":
        for inner, answer in zip(
            request["args"]["requests"], result.get("responses", []), strict=False
        ):
            _collect(inner, answer, handles, ratified)


def run_case(engine: Engine, case: list[Json]) -> list[Json]:
    handles: list[str] = []
    ratified: list[dict[str, str]] = []
    answers = []
    for request in case:
        if isinstance(request, bytes):
            answers.append(engine.send(request))
            continue
        bound = _bind(request, handles, ratified)
        answers.append(engine.send(json.dumps(bound, ensure_ascii=False).encode()))
        _collect(bound, answers[-1], handles, ratified)
    return answers


# --- what the Freedoms grant -----------------------------------------------------------

FREE_FIELD_CODES = {
    # FREE-008: no table of docs/ states a field for these refusals.
    "STATE_SYMLINK",
    "STATE_UNREADABLE",
    "STATE_IO",
    "STATE_LOCKED",
    "STATE_CORRUPT",
    "STATE_RECORD_MALFORMED",
}
CHAT_FIELDS = {
    "surface",
    "pre_decoration_surface",
    "trace_hash",
    "grounding_source",
    "intent",
    "subject",
    "turn_idx",
    "versor_condition",
    "register_id",
    "register_variant_id",
    "says",
}


def _chat(result: Json, context: dict[str, Json]) -> Json:
    out = {k: v for k, v in result.items() if k in CHAT_FIELDS}  # FREE-201: extra fields
    out.pop("surface", None)  # FREE-002: the words of an answer (its decoration: below)
    out.pop("pre_decoration_surface", None)  # FREE-002
    out.pop("trace_hash", None)  # FREE-003: two engines' trace hashes may differ
    # FREE-005: the field's evolution is free beyond versor_condition < 1e-6 (REG-CLOSE-001)
    condition = out.pop("versor_condition", None)
    out["versor_condition<1e-6"] = isinstance(condition, (int, float)) and 0 <= condition < 1e-6
    # register_variant_id derives from the markers variation.select draws with the trace
    # hash (FREE-003), so only whether it is "" is engine-independent, and only when
    # every draw gives the same answer to "are both markers empty" (context "rvid").
    variant = out.pop("register_variant_id", None)
    if context.get("rvid") is not None:
        out["register_variant_id=''"] = variant == ""
    return out


def _error(error: Json, request: Json) -> Json:
    out = dict(error)
    out.pop("message", None)  # FREE-001: the text of error.message
    if out.get("code") in FREE_FIELD_CODES:
        out.pop("field", None)  # FREE-008
    if out.get("code") == "STATE_BAD_MUTATION" and isinstance(out.get("field"), str):
        # FREE-019: which member of the first bad mutation is named is free
        out["field"] = re.sub(r"^(mutations\[\d+\]).*", r"\1", out["field"])
    if out.get("code") == "PROTOCOL_BAD_ARGS" and len(_mistyped(request)) > 1:
        out["field"] = "<one of the mistyped arguments>"  # FREE-018
    return out


@functools.cache
def _arg_schemas() -> dict[str, Json]:
    return {
        name.removeprefix("args."): schema
        for name, schema in load_schemas().items()
        if name.startswith("args.")
    }


def _mistyped(request: Json) -> list[str]:
    """The arguments of *request* its op's schema does not type (FREE-018 lets a refusal
    name any one of them when there are several)."""
    if not isinstance(request, dict) or not isinstance(request.get("args"), dict):
        return []
    schema = _arg_schemas().get(str(request.get("op")))
    if schema is None:
        return []
    properties = schema.get("properties", {})
    return [
        name
        for name, value in request["args"].items()
        if name in properties and not WireValidator(properties[name]).is_valid(value)
    ]


def _identities(value: Json) -> Json:
    """FREE-022: once a session lived turns on a store, its life record's rotor is the
    engine's own field (FREE-005), and so is every identity hashed over that core."""
    if isinstance(value, dict):
        return {
            k: "<identity>"
            if k in ("identity", "parent") and isinstance(v, str)
            else _identities(v)
            for k, v in value.items()
        }
    if isinstance(value, list):
        return [_identities(v) for v in value]
    return value


def _raw_op(line: Json) -> Json:
    try:
        request = json.loads(line)
    except (ValueError, TypeError):
        return None
    return request.get("op") if isinstance(request, dict) else None


def normalise(request: Json, response: Json, context: dict[str, Json]) -> Json:
    """*response* with every member a FREE row grants replaced or dropped."""
    if not isinstance(response, dict):
        return response
    out = dict(response)
    if out.get("ok") is False and isinstance(out.get("error"), dict):
        out["error"] = _error(out["error"], request)
        return out
    op = request.get("op") if isinstance(request, dict) else _raw_op(request)
    result = out.get("result")
    if not isinstance(result, dict):
        return out
    result = dict(result)
    if op == "hello":
        # each engine names itself and claims its own capabilities (FREE-010 for
        # engine.language); only what both claim is generated
        result = {"protocol": result.get("protocol")}
    elif op == "session.open":
        result["session"] = "<handle>"  # FREE-007
    elif op == "state.open":
        result["store"] = "<handle>"  # FREE-007
        if result.get("recovered") is not None:
            result["recovered"] = "<reason>"  # FREE-009
    elif op == "session.chat":
        result = _chat(result, context)
    if str(op).startswith("state.") and context.get("lived"):
        result = _identities(result)
    elif op == "batch":
        inner = request["args"]["requests"]
        result["responses"] = [
            normalise(req, res, context)
            for req, res in zip(inner, result.get("responses", []), strict=False)
        ] + result.get("responses", [])[len(inner) :]
    out["result"] = result
    return out


# --- algebra within the ULP bounds of docs/spec.md § Algebra --------------------------


def _abs_product(a: list[float], b: list[float]) -> list[float]:
    out = [0.0] * 32
    for i, x in enumerate(a):
        if x:
            for j, y in enumerate(b):
                out[i ^ j] += abs(x * y)
    return out


def _ulp(x: float) -> float:
    return math.ulp(abs(x)) if x else math.ulp(0.0)


def algebra_agrees(request: Json, a: Json, b: Json) -> bool:
    """Both algebra results lie within twice the spec's bound of each other (each engine
    may be off the exact value by the bound, in either direction)."""
    op, args = request["op"], request["args"]
    if op == "algebra.versor_condition":
        v = [float(x) for x in args["versor"]]
        s = _abs_product([abs(x) for x in v], [abs(x) for x in v])
        s[0] += 1.0
        bound = 2.0**-46 * (math.sqrt(sum(x * x for x in s)) + max(a["condition"], b["condition"]))
        return abs(a["condition"] - b["condition"]) <= 2 * bound
    ma, mb = a["multivector"], b["multivector"]
    if op in ("algebra.reverse", "algebra.grade"):
        sizes, ulps = [0.0] * 32, 0  # exact (FREE-015: -0.0 == 0.0)
    elif op == "algebra.product":
        sizes = _abs_product([abs(float(x)) for x in args["a"]], [abs(float(x)) for x in args["b"]])
        ulps = 64
    elif op == "algebra.versor_apply":
        v = [abs(float(x)) for x in args["versor"]]
        sizes = _abs_product(_abs_product(v, [abs(float(x)) for x in args["x"]]), v)
        ulps = 128
    else:  # algebra.rotor: 8 ULPs of max(1, |exact|)
        sizes = [max(1.0, abs(x), abs(y)) for x, y in zip(ma, mb, strict=False)]
        ulps = 8
    return all(
        abs(x - y) <= 2 * ulps * _ulp(size) * (1 + 2**-20)
        for x, y, size in zip(ma, mb, sizes, strict=False)
    )


def _is_algebra(request: Json, a: Json, b: Json) -> bool:
    return (
        isinstance(request, dict)
        and str(request.get("op", "")).startswith("algebra.")
        and a.get("ok") is True
        and b.get("ok") is True
    )


# --- comparing ------------------------------------------------------------------------


def first_difference(a: Json, b: Json, path: str = "") -> str | None:
    """The path of the first member where *a* and *b* differ, or None."""
    if isinstance(a, dict) and isinstance(b, dict):
        for key in sorted(set(a) | set(b)):
            if key not in a or key not in b:
                return f"{path}.{key}"
            found = first_difference(a[key], b[key], f"{path}.{key}")
            if found is not None:
                return found
        return None
    if isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            return f"{path}[len]"
        for i, (x, y) in enumerate(zip(a, b, strict=False)):
            found = first_difference(x, y, f"{path}[{i}]")
            if found is not None:
                return found
        return None
    same = (
        a == b
        and type(a) is type(b)
        or (
            isinstance(a, (int, float))
            and isinstance(b, (int, float))
            and not isinstance(a, bool)
            and not isinstance(b, bool)
            and a == b
        )
    )
    return None if same else path or "$"


@dataclass
class Disagreement:
    op: str
    member: str
    stream: list[Json]
    answers: tuple[Json, Json]
    area: str
    count: int = 1


def _lived(request: Json, a: Json, b: Json) -> bool:
    """Whether *request* was a turn both engines answered (on a store: see FREE-022)."""
    return (
        isinstance(request, dict)
        and request.get("op") == "session.chat"
        and bool(a.get("ok") or b.get("ok"))
    )


def compare_case(
    case: list[Json], ra: list[Json], rb: list[Json], context: dict[str, Json]
) -> tuple[int, str, str] | None:
    """The index, op and member of the first response pair that disagrees, or None."""
    on_store = any(
        isinstance(r, dict) and r.get("op") == "session.open" and "store" in r.get("args", {})
        for r in case
    )
    context = dict(context, lived=False)
    for i, (request, a, b) in enumerate(zip(case, ra, rb, strict=False)):
        if on_store and _lived(request, a, b):
            context["lived"] = True
        if _is_algebra(request, a, b):
            if a.get("id") != b.get("id") or not algebra_agrees(request, a["result"], b["result"]):
                member = "result.condition" if "condition" in a["result"] else "result.multivector"
                return i, str(request.get("op")), member
            continue
        na, nb = normalise(request, a, context), normalise(request, b, context)
        where = first_difference(na, nb)
        if where is not None:
            op = request.get("op") if isinstance(request, dict) else "<raw line>"
            if op == "batch" and where.startswith(".result.responses["):
                k = int(where.split("[", 1)[1].split("]", 1)[0])
                inner = request["args"]["requests"]
                inner_op = (
                    inner[k].get("op") if k < len(inner) and isinstance(inner[k], dict) else "?"
                )
                op = f"batch>{inner_op}"
                where = re.sub(r"^\.result\.responses\[\d+\]", "", where)
            return i, str(op), where
    return None


# --- generators -------------------------------------------------------------------------


def _code_spans(text: str) -> list[str]:
    return re.findall(r"`([^`]+)`", text)


@dataclass
class Material:
    """What prompts are built from: the lexicon (as the engine lists it), the examples
    of docs/intents.md § The table of forms, its cue words and the teaching chains."""

    lemmas: list[str]
    examples: list[tuple[str, str]]
    cues: list[str]
    chains: list[list[str]]
    packs: dict[str, Json] = field(default_factory=dict)
    spans: list[str] = field(default_factory=list)
    """Every code span of docs/intents.md § How a prompt is read and § Subjects: the
    fixed words (leads, wrappers, interjections, contractions, typo targets, ...) and
    the examples the steps give."""

    @classmethod
    def load(cls, lexicon: Json) -> Material:
        lemmas = sorted(row["lemma"] for row in lexicon["result"]["lemmas"])
        intents = (ROOT / "docs" / "intents.md").read_text(encoding="utf-8")
        forms = intents.split("## The table of forms", 1)[1].split("\n## ", 1)[0]
        examples = []
        for line in forms.splitlines():
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if len(cells) == 4 and cells[0].isupper():
                for span in _code_spans(cells[2]):
                    examples.append((span, cells[3]))
        cue_table = intents.split("## Cue words", 1)[1].split("\n## ", 1)[0]
        cues = []
        for line in cue_table.splitlines():
            if line.startswith("| ") and not line.startswith("| Intent"):
                for span in _code_spans(line.split("|")[2]):
                    cues.extend(part.strip() for part in span.split("/") if part.strip())
        teaching = json.loads((ROOT / "reference/lexicon/data/teaching.json").read_text())
        chains = [
            [chain["steps"][0]["from"]] + [s["to"] for s in chain["steps"]]
            for chain in teaching["chains"]
        ]
        packs = {
            path.stem: json.loads(path.read_text(encoding="utf-8"))
            for path in sorted((ROOT / "reference/registers/data").glob("*_v1.json"))
        }
        reading = intents.split("## How a prompt is read", 1)[1].split("## The table of forms", 1)[
            0
        ]
        spans = sorted({span for span in _code_spans(reading) if len(span) < 80})
        return cls(lemmas, examples, cues, chains, packs, spans)


def _typo(rng: random.Random, text: str) -> str:
    words = text.split(" ")
    long = [i for i, w in enumerate(words) if len(w) >= 4 and w.isalpha()]
    if not long:
        return text
    i = rng.choice(long)
    w = words[i]
    j = rng.randrange(1, len(w) - 2)
    swapped = w[:j] + w[j + 1] + w[j] + w[j + 2 :]
    dropped = w[:j] + w[j + 1 :]
    w = swapped if rng.random() < 0.5 else dropped
    words[i] = w
    return " ".join(words)


def _unicode(rng: random.Random, text: str) -> str:
    choice = rng.randrange(8)
    if choice == 0:
        return text.replace("'", "\u2019")
    if choice == 1:
        return unicodedata.normalize("NFD", text.replace("e", "\u00e9", 1))
    if choice == 2:
        return text.upper()
    if choice == 3:
        return text.replace(" ", rng.choice(["  ", "\t", "\u00a0", " \u3000 "]), 2)
    if choice == 4:
        return "\u201c" + text + "\u201d"
    if choice == 5:
        return text + rng.choice([" \U0001f600", "!!", "?!", "...", " \u2014 ok"])
    if choice == 6:
        return text.replace("a", "\uff41", 1)
    return " " + text.title() + " "


def prompt(rng: random.Random, m: Material) -> str:
    a, b = rng.choice(m.lemmas), rng.choice(m.lemmas)
    kind = rng.randrange(16)
    if kind == 0:
        text, subject = rng.choice(m.examples)
        if subject not in ("-", "") and subject in text and rng.random() < 0.7:
            text = text.replace(subject, a, 1)
    elif kind == 1:
        text = rng.choice(
            ["What is {a}?", "Define {a}.", "What does {a} mean?", "Who is {a}?", "What are {a}s?"]
        ).format(a=a)
    elif kind == 2:
        cue = rng.choice(m.cues)
        text = rng.choice(
            [
                "{a} and {b}, {c}?",
                "{c} {a} {b}",
                "What is the {c} of {a}?",
                "{A} {c} {b}.",
                "Tell me {c} {a}.",
            ]
        ).format(a=a, b=b, c=cue, A=a.capitalize())
    elif kind == 3:
        text = rng.choice(
            [
                "{A} is {b}.",
                "No, {a} is {b}.",
                "{A} is not {b}.",
                "Actually, the {a} is a {b}.",
                "Wrong. {A} comes from {b}.",
            ]
        ).format(a=a, b=b, A=a.capitalize())
    elif kind == 4:
        text = rng.choice(
            [
                "What did I say about {a}?",
                "What have I told you so far?",
                "Remind me what I said about the {a}.",
                "What were we talking about?",
                "Do you remember {a}?",
            ]
        ).format(a=a)
    elif kind == 5:
        chain = rng.choice(m.chains)
        x, y = chain[0], chain[-1]
        if rng.random() < 0.3:
            x, y = y, x
        text = rng.choice(
            [
                "How does {x} connect to {y}?",
                "Is {x} related to {y}?",
                "Does {x} lead to {y}?",
                "Tell me a story about {x}.",
                "Why does {y} happen?",
                "Give me an example of {x}.",
                "Is it true that {x} {r} {y}?",
            ]
        ).format(x=x, y=y, r=rng.choice(["reveals", "feeds", "warms", "is"]))
    elif kind == 6:
        text = rng.choice(
            [
                "What about it?",
                "Why is that?",
                "Is that true?",
                "Tell me more about them.",
                "And this one?",
                "Really?",
                "How so?",
                "What is it?",
            ]
        )
    elif kind == 7:
        text = rng.choice(
            [
                "Is {a} a {b}?",
                "Is it true that {a} is {b}?",
                "Are {a}s {b}?",
                "{A} is {b}, right?",
                "Is the {a} not {b}?",
            ]
        ).format(a=a, b=b, A=a.capitalize())
    elif kind == 8:
        text = rng.choice(
            [
                "Compare {a} and {b}.",
                "How is {a} different from {b}?",
                "Use {a} to explain {b}, like a metaphor.",
                "How to {a}?",
                "Steps to find {a}.",
                "Why is {a} {b}?",
            ]
        ).format(a=a, b=b)
    elif kind == 9:
        text = rng.choice(
            [
                "Hello!",
                "Thanks.",
                "What's up?",
                "I have a question.",
                "Hi there. What is {a}?",
                "Blorptastic zingwort?",
                "",
                " ",
                "?",
                "{a}",
            ]
        ).format(a=a)
    elif kind == 10:
        text = " ".join(prompt(rng, m) for _ in range(rng.randint(2, 3)))
    elif kind == 11:
        text = f"{a} {b} {rng.choice(m.cues)} {rng.choice(m.lemmas)}?"
    elif kind <= 13:
        # fixed words of the reading steps around lemmas, in a random order
        parts = (
            [rng.choice(m.spans) for _ in range(rng.randint(1, 3))]
            + [a] * rng.randint(0, 2)
            + [b] * rng.randint(0, 1)
        )
        rng.shuffle(parts)
        text = " ".join(parts) + rng.choice(["", "?", ".", "!", " ?", "?!", "…"])
        if rng.random() < 0.5:
            text = text[:1].upper() + text[1:]
    elif kind == 14:
        span = rng.choice([s for s in m.spans if " " in s] or m.spans)
        words = span.split(" ")
        if rng.random() < 0.6:
            words[rng.randrange(len(words))] = a
        text = " ".join(words)
    else:
        odd = [
            "\u0130",
            "\u03a3",
            "\u00df",
            "\u200b",
            "\ufeff",
            "\u001c",
            "\u2028",
            "\u0085",
            "\n",
            "\r\n",
            "\t",
            "\u00a0",
            "\u3000",
            "\u202f",
            "\u180e",
            "\U0001d400",
            "\u0301",
            "\u02bc",
            "\u2018",
            "\u00e9",
            "e\u0301",
            "_",
            "1",
            "\u2013",
            "\u2014",
            " - ",
            ":",
            ";",
            "'",
            '"',
            "`",
            "\u201c",
            "\u0000",
            "\x7f",
        ]
        # every White_Space character, and characters of the categories the reading names
        odd += [chr(c) for c in (*range(0x9, 0xE), 0x1680, *range(0x2000, 0x200B), 0x2029, 0x205F)]
        odd += ["\u001d", "\u001e", "\u001f", "\u200c", "\u200d", "\u2060", "\u00ad", "\u0663"]
        odd += ["\u02b0", "\u01c5", "\u216b", "\u00b2", "\u0e01", "\u0903", "\u20dd", "\u00bd"]
        odd += ["\u2026", "\u3002", "\uff1f", "\u00bf", "\u00ab", "\u00bb", "\u2019", "?", "!", "."]
        odd += ["\u1e9e", "\u0131", "\u03c3", "\u1f88", "\ufb01", "\u0149", "\U0001f600", "\u00c5"]
        text = prompt(rng, m)
        for _ in range(rng.randint(1, 3)):
            if rng.random() < 0.5:  # next to a space, where words and sentences meet
                spaces = [i for i, c in enumerate(text) if c == " "] or [0]
                i = rng.choice(spaces) + rng.choice([0, 1])
            else:
                i = rng.randrange(len(text) + 1)
            text = text[:i] + rng.choice(odd) + text[i:]
    roll = rng.random()
    if roll < 0.15:
        text = _typo(rng, text)
    elif roll < 0.3:
        text = _unicode(rng, text)
    # FREE-023: a code point unassigned in Unicode 14.0 (this Python's database) may be
    # read by a later version's properties, so none is sent
    return "".join(c for c in text if unicodedata.category(c) != "Cn")


def _rvid(pack: Json | None) -> Json:
    """Whether register_variant_id is "" whatever the draw (True/False), else None."""
    if pack is None:
        return True
    markers = pack.get("discourse_markers")
    if not isinstance(markers, dict):
        return None
    opens, closes = markers.get("openings", []), markers.get("closings", [])
    if not isinstance(opens, list) or not isinstance(closes, list):
        return None
    if not opens and not closes:
        return True
    if (opens and "" not in opens) or (closes and "" not in closes):
        return False
    return None


def _long_claim(rng: random.Random, m: Material) -> str:
    """A claim past the 160 code points a vault keeps of a text, astral letters inside."""
    a = rng.choice(m.lemmas)
    filler = rng.choice(
        ["\U0001d400\U0001d401 ", "\u00e9t\u00e9 ", "word ", "\U0001f600 ", "e\u0301 "]
    )
    return f"No, {a} is {filler * rng.randint(25, 45)}".rstrip() + rng.choice([".", "", "!"])


def gen_chat(rng: random.Random, m: Material) -> tuple[list[Json], dict[str, Json]]:
    if rng.random() < 0.6:  # a few lemmas per session, so turns refer to each other
        m = dataclasses.replace(m, lemmas=rng.sample(m.lemmas, 3))
    register = rng.choice(REGISTERS)
    case: list[Json] = [{"id": 0, "op": "session.open", "args": {"register_id": register}}]
    for i in range(rng.randint(1, 8)):
        text = _long_claim(rng, m) if rng.random() < 0.08 else prompt(rng, m)
        case.append(
            {
                "id": i + 1,
                "op": "session.chat",
                "args": {"session": {"$handle": 0}, "text": text},
            }
        )
    if rng.random() < 0.3:
        case.append({"id": "close", "op": "session.close", "args": {"session": {"$handle": 0}}})
        case.append(
            {"id": "after", "op": "session.chat", "args": {"session": {"$handle": 0}, "text": "hi"}}
        )
    return case, {"rvid": _rvid(m.packs.get(register) if register else None)}


def _override_value(rng: random.Random) -> Json:
    return rng.choice([1, 2, 3, 0, 4, -1, 2.0, "2", None, True, [2], {"x": 1}, 10**30, 1.5])


def gen_overrides(rng: random.Random, m: Material) -> tuple[list[Json], dict[str, Json]]:
    overrides: dict[str, Json] = {}
    if rng.random() < 0.7:
        overrides["disclosure_domain_count"] = _override_value(rng)
    if rng.random() < 0.6:
        per: Json = {}
        for intent in rng.sample(INTENTS, rng.randint(0, 3)):
            per[intent if rng.random() < 0.85 else intent.lower()] = rng.choice(
                [
                    {"disclosure_domain_count": _override_value(rng)},
                    {},
                    _override_value(rng),
                    {"other": 2},
                ]
            )
        overrides["per_intent"] = per if rng.random() < 0.9 else rng.choice([[], "x", None, 3])
    if rng.random() < 0.1:
        overrides["unrelated"] = 1
    intent = (
        rng.choice(INTENTS)
        if rng.random() < 0.9
        else rng.choice(["definition", "CAUSE ", "", 3, None, "UNREGISTERED"])
    )
    args: dict[str, Json] = {"realizer_overrides": overrides, "intent": intent}
    if rng.random() < 0.05:
        args["realizer_overrides"] = rng.choice([[], "x", None])
    return [{"id": 1, "op": "overrides.resolve", "args": args}], {}


def _hex(rng: random.Random, n: int = 64) -> str:
    return "".join(rng.choice("0123456789abcdef") for _ in range(n))


def _bucket(rng: random.Random) -> Json:
    pool = ["So,", "Right \u2014", "OK,", "", " So, ", "e\u0301", "\U0001f600", "a\nb", "x" * 40]
    return [rng.choice(pool) for _ in range(rng.randint(0, 4))]


def gen_variation(rng: random.Random, m: Material) -> tuple[list[Json], dict[str, Json]]:
    turn = rng.choice([0, 1, 7, 2**53 + 1, 10**25, rng.randrange(1000)])
    register = rng.choice(["convivial_v1", "terse_v1", "x", "", "\u00e9t\u00e9", "a|b"])
    if rng.random() < 0.5:
        args: dict[str, Json] = {
            "bucket": _bucket(rng),
            "trace_hash": _hex(rng),
            "register_id": register,
            "turn_idx": turn,
            "bucket_name": rng.choice(["openings", "closings", "transitions", "x"]),
        }
        op = "variation.select"
    else:
        markers: Json = {"openings": _bucket(rng), "closings": _bucket(rng)}
        if rng.random() < 0.3:
            markers["transitions"] = _bucket(rng)
        if rng.random() < 0.1:
            del markers[rng.choice(["openings", "closings"])]
        if rng.random() < 0.05:
            markers["extra"] = []
        args = {
            "surface": rng.choice(["Light is.", "", "a\u00a0b", "\U0001f600 x"]),
            "discourse_markers": markers,
            "register_id": register,
            "trace_hash": _hex(rng),
            "turn_idx": turn,
        }
        op = "variation.decorate"
    if rng.random() < 0.1:
        key = rng.choice(sorted(args))
        args[key] = rng.choice([None, 1.0, "1", -1, True, [], {}])
    return [{"id": 1, "op": op, "args": args}], {}


def _mutate_pack(rng: random.Random, m: Material) -> Json:
    pack = copy.deepcopy(m.packs[rng.choice(sorted(m.packs))])
    ids = ["mine_v1", "x", "Bad Id", "", "a.b", "unregistered", "UNREGISTERED", "a" * 64, "a" * 65]
    ids += ["\u00e9_v1", "x.", "-x", "_x", "x-y_z.1"]
    if rng.random() < 0.4:
        pack["register_id"] = rng.choice(ids)
    for _ in range(rng.choice([0, 0, 1, 1, 2, 3])):
        key = rng.choice(sorted(pack) + ["extra"])
        roll = rng.randrange(7)
        if roll == 0:
            pack.pop(key, None)
        elif roll == 1:
            pack[key] = rng.choice([None, 1, "", "x", [], {}, True])
        elif roll == 2:
            pack["discourse_markers"] = {
                "openings": _bucket(rng),
                "closings": _bucket(rng),
                "transitions": _bucket(rng),
            }
            if rng.random() < 0.2:
                pack["discourse_markers"].pop(rng.choice(["openings", "closings", "transitions"]))
        elif roll == 3:
            pack["realizer_overrides"] = rng.choice(
                [
                    {},
                    {"disclosure_domain_count": rng.choice([1, 2, 3, 4, "2"])},
                    {"per_intent": {rng.choice(INTENTS): {"disclosure_domain_count": 2}}},
                    {"per_intent": {"nope": {}}},
                    {"other": 1},
                ]
            )
        elif roll == 4:
            pack["depth_preference"] = rng.choice(["standard", "terse", "deep", "Terse", "", 3])
        elif roll == 5:
            pack["version"] = rng.choice(["1.0.0", "1.0", "v1", "", "1.0.0-rc.1", "01.0.0"])
        else:
            pack["schema_version"] = rng.choice(["1.0.0", "2.0.0", "1.0", 1])
    return pack


def gen_registers(rng: random.Random, m: Material) -> tuple[list[Json], dict[str, Json]]:
    pack = _mutate_pack(rng, m)
    roll = rng.randrange(3)
    if roll == 0:
        args: dict[str, Json] = {"pack": pack}
        if rng.random() < 0.5:
            args["expected_id"] = rng.choice([pack.get("register_id"), "other", None, 3])
        return [{"id": 1, "op": "register.validate", "args": args}], {}
    if roll == 1:
        return [{"id": 1, "op": "register.ratify", "args": {"pack": pack}}], {}
    # ratify, then load the files this engine returned (maybe edited), and open a
    # session on them
    rid = pack.get("register_id")
    rid = rid if isinstance(rid, str) else "x"
    edit = rng.choice(
        [
            "",
            "",
            "drop_report",
            "pack_space",
            "report_space",
            "pack_crlf",
            "pack_bom",
            "report_field",
            "report_seal",
            "pack_field",
            "rename",
        ]
    )
    files = {"$files": 0, "edit": edit}
    case: list[Json] = [{"id": 1, "op": "register.ratify", "args": {"pack": pack}}]
    case.append({"id": 2, "op": "register.load", "args": {"register_id": rid, "files": files}})
    case.append({"id": 3, "op": "session.open", "args": {"register_id": rid, "files": files}})
    for t in range(rng.randint(0, 3)):
        case.append(
            {
                "id": 4 + t,
                "op": "session.chat",
                "args": {"session": {"$handle": 0}, "text": prompt(rng, m)},
            }
        )
    if rng.random() < 0.3:
        case.append(
            {
                "id": 9,
                "op": "register.load",
                "args": {
                    "register_id": rng.choice(
                        ["convivial_v1", "terse_v1", "nope_v1", "Convivial_v1", "", "unregistered"]
                    ),
                    "files": {},
                },
            }
        )
    context = {"rvid": _rvid(pack) if isinstance(pack.get("discourse_markers"), dict) else None}
    return case, context


def _element(rng: random.Random, m: Material) -> Json:
    roll = rng.randrange(8)
    if roll == 0:
        return rng.choice([1, "x", None, [], True, 2.5])
    if roll == 1:
        return {"id": rng.choice([1, None, 1.5, True, "e"]), "op": rng.choice(["hello", "nope", 3])}
    if roll == 2:
        return {"id": "o", "op": "session.open", "args": {"register_id": rng.choice(REGISTERS)}}
    if roll == 3:
        return {
            "id": "c",
            "op": "session.chat",
            "args": {"session": {"$handle": 0}, "text": prompt(rng, m)},
        }
    if roll == 4:
        return {"id": "b", "op": "batch", "args": {"requests": []}}
    if roll == 5:
        return gen_overrides(rng, m)[0][0]
    if roll == 6:
        return {"id": "x", "op": "session.close", "args": {"session": {"$handle": 0}}}
    return {"id": "l", "op": "lexicon.list", "args": rng.choice([{}, {"x": 1}, []])}


def gen_batch(rng: random.Random, m: Material) -> tuple[list[Json], dict[str, Json]]:
    inner = [_element(rng, m) for _ in range(rng.randint(0, 5))]
    args: Json = {"requests": inner}
    if rng.random() < 0.05:
        args = rng.choice([{"requests": "x"}, {}, {"requests": inner, "more": 1}])
    return [{"id": 1, "op": "batch", "args": args}], {"rvid": None}


def gen_lines(rng: random.Random, m: Material) -> tuple[list[Json], dict[str, Json]]:
    pool: list[bytes] = [
        b"",
        b"   ",
        b"hello?",
        b"[]",
        b"null",
        b"1",
        b'"x"',
        b"\xef\xbb\xbf{}",
        b"{",
        b"\xff\xfe",
        b'{"id":1}',
        b'{"op":"hello"}',
        b'{"id":null,"op":"hello"}',
        b'{"id":1.0,"op":"hello"}',
        b'{"id":true,"op":"hello"}',
        b'{"id":1,"op":3}',
        b'{"id":1,"op":"hello","args":[]}',
        b'{"id":1,"op":"Hello"}',
        b'{"id":1,"op":"hello ","args":{}}',
        b'{"id":01,"op":"hello"}',
        b'{"id":1,"op":"hello","args":{"x":1}}',
        b'{"id":"\\ud800","op":"hello"}',
        b'{"id":1,"op":"hello","pad":NaN}',
        b'{"id":1,"op":"hello","pad":1e400}',
        b'{"id":1,"op":"hello","pad":1e-400}',
        b'{"id":-0,"op":"lexicon.list"}',
        b'{"id":1,"op":"hello","op":"lexicon.list"}',
        b'{"id":1,"op":"state.export"}',
        b'{"id":123456789012345678901234567890,"op":"nope"}',
        b'{"id":1,"op":"hello"}\r',
        b'{"id":1,"op":"hello","pad":' + b"[" * 63 + b"]" * 63 + b"}",
        b'{"id":1,"op":"hello","pad":' + b"[" * 64 + b"]" * 64 + b"}",
        b'{"id":1,"op":"hello","pad":1' + b"0" * 1000 + b"}",
        b'{"id":1,"op":"session.chat","args":{"session":"s999","text":"x"}}',
        b'{"id":1,"op":"session.chat","args":{"session":1,"text":"x"}}',
        b'{"id":1,"op":"session.chat","args":{}}',
        b'{"id":1,"op":"session.open","args":{"register_id":""}}',
        b'{"id":1,"op":"session.open","args":{"register_id":"unregistered"}}',
        b'{"id":1,"op":"session.open","args":{}}',
        b'{"id":1,"op":"session.open","args":{"register_id":null,"files":{"a/b.json":""}}}',
        b'{"id":1,"op":"session.open","args":{"register_id":null,"files":{"a.json":"@@"}}}',
        b'{"id":1,"op":"lexicon.list","args":{"b":1,"a":2}}',
        b'{"id":"\xc3\xa9\xe2\x80\xa8","op":"nope"}',
        b'{"id":-0,"op":"nope"}',
        b'{"id":1e2,"op":"hello"}',
        b'{"id":-12345678901234567890123456789,"op":"nope"}',
        b'{"id":"1","op":"nope","args":null}',
        b'{"id":2,"op":"overrides.resolve","args":{"intent":"CAUSE","realizer_overrides":{"disclosure_domain_count":2,"disclosure_domain_count":1}}}',
        b'{"id":3,"op":"variation.select","args":{"bucket":["a"],"trace_hash":"x","register_id":"r","turn_idx":1.0,"bucket_name":"openings"}}',
        b'{"id":3,"op":"variation.select","args":{"bucket":["a"],"trace_hash":"x","register_id":"r","turn_idx":-0,"bucket_name":"openings"}}',
        b'{"id":3,"op":"variation.select","args":{"bucket":["a","b"],"trace_hash":"x","register_id":"r","turn_idx":123456789012345678901234567890,"bucket_name":"o"}}',
        b'{"id":4,"op":"batch","args":{"requests":[{"id":1,"op":"batch","args":{"requests":[]}},"x"]}}',
        b'{"id":5,"op":"register.validate","args":{"pack":{},"expected_id":null}}',
        b'{"id":6,"op":"session.open","args":{"register_id":"terse_v1","store":"x"}}',
        b'{"id":7,"op":"state.open","args":{"dir":"relative"}}',
        b'{"id":7,"op":"state.open","args":{"dir":""}}',
        b'{"id":7,"op":"state.load","args":{"dir":"/nonexistent-i47/\\u0000x"}}',
        b'{"id":8,"op":"algebra.grade","args":{"a":[0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0],"grade":5.0}}',
        b'{"id":9,"op":"state.journal","args":{"dir":"/nonexistent-i47","name":"Lineage"}}',
        b'{"id":9,"op":"state.journal","args":{"dir":"/nonexistent-i47","name":"lineage","repair":1}}',
    ]
    case: list[Json] = []
    for _ in range(rng.randint(1, 4)):
        line = rng.choice(pool)
        if rng.random() < 0.2 and len(line) > 2:
            cut = rng.randrange(1, len(line))
            line = line[:cut]
        case.append(line)
    return case, {}


def _mv(rng: random.Random, kind: str | None = None) -> list[Json]:
    kind = kind or rng.choice(["dense", "sparse", "int", "scaled", "vector", "bivector"])
    mv: list[Json] = [0] * 32
    if kind == "dense":
        mv = [rng.uniform(-2, 2) for _ in range(32)]
    elif kind == "sparse":
        for _ in range(rng.randint(1, 4)):
            mv[rng.randrange(32)] = rng.uniform(-3, 3)
    elif kind == "int":
        mv = [rng.randint(-3, 3) for _ in range(32)]
    elif kind == "scaled":
        mv = [rng.uniform(-1, 1) * 2.0 ** rng.randint(-60, 60) for _ in range(32)]
    elif kind == "vector":
        for m in (1, 2, 4, 8, 16):
            mv[m] = rng.uniform(-2, 2)
    else:
        plane = rng.choice([3, 5, 6, 9, 10, 12, 17, 18, 20, 24])
        mv[plane] = rng.choice([rng.uniform(-3, 3), 1, 2.0**-50, 2.0**40])
    return mv


def gen_algebra(rng: random.Random, m: Material) -> tuple[list[Json], dict[str, Json]]:
    op = rng.choice(["product", "reverse", "grade", "rotor", "versor_apply", "versor_condition"])
    args: dict[str, Json]
    if op == "product":
        args = {"a": _mv(rng), "b": _mv(rng)}
    elif op == "reverse":
        args = {"a": _mv(rng)}
    elif op == "grade":
        args = {"a": _mv(rng), "grade": rng.choice([0, 1, 2, 3, 4, 5, 6, -1])}
    elif op == "rotor":
        bivector = _mv(rng, "bivector")
        if rng.random() < 0.3:
            bivector[rng.choice([3, 5, 6, 9, 10, 12, 17, 18, 20, 24])] = rng.uniform(-1, 1)
        if rng.random() < 0.3:  # a hyperbolic or null plane: e_i e5 with e_i squared
            bivector = [0] * 32
            bivector[16 | rng.choice([1, 2, 4, 8])] = rng.uniform(-1, 1)
            if rng.random() < 0.5:
                bivector[rng.choice([3, 5, 6, 9, 10, 12])] = bivector[16 | 1] or 0.5
        if rng.random() < 0.3:  # sigma near the null band, or <B B>_4 near the simplicity bound
            a = rng.uniform(0.1, 4) * 2.0 ** rng.randint(-20, 20)
            bivector = [0] * 32
            if rng.random() < 0.5:
                bivector[9], bivector[17] = a, a * (1 + rng.choice([-1, 1]) * rng.uniform(0, 2e-12))
            else:
                bivector[3], bivector[12] = a, a * rng.uniform(0, 1e-10)
        args = {
            "bivector": bivector,
            "angle": rng.choice([rng.uniform(-3.2, 3.2), rng.uniform(-64, 64), 0, 64, 64.5]),
        }
    elif op == "versor_apply":
        args = {"versor": _mv(rng, rng.choice(["vector", "sparse", "int"])), "x": _mv(rng)}
    else:
        args = {"versor": _mv(rng)}
    if rng.random() < 0.05:
        key = rng.choice(sorted(args))
        args[key] = rng.choice([[0] * 31, [None] * 32, "x", [1e51] + [0] * 31, [True] + [0] * 31])
    return [{"id": 1, "op": f"algebra.{op}", "args": args}], {}


def _record(rng: random.Random) -> Json:
    keys = ["a", "b", "\u00e9", "e\u0301", "K", "k" * 128, "k" * 129, "", "\U0001f600"]
    keys += ["\ue000", "\uffef", "\U0001f600" * 128, "\U0001f600" * 129, "a\u0000", "\u2028"]
    key = rng.choice(keys)
    kind = rng.randrange(7)
    if kind == 0:
        record: Json = {
            "kind": "candidate",
            "key": key,
            "lemma": "light",
            "score": rng.choice([1, -3, 2**53 - 1, 2**53]),
            "status": rng.choice(["speculative", "coherent", "rejected", "Coherent"]),
        }
        if rng.random() < 0.4:
            record["evidence"] = rng.choice([0, 2, None, "1", 1.0])
    elif kind == 1:
        record = {
            "kind": "recognizer",
            "key": key,
            "pattern": "x+",
            "weight": rng.choice([1, 0, True]),
        }
        if rng.random() < 0.4:
            record["label"] = rng.choice(["", "l", None])
    elif kind == 2:
        record = {
            "kind": "session",
            "key": rng.choice(["session", key]),
            "register_id": rng.choice([None, "convivial_v1", 3]),
        }
    elif kind == 3:
        record = {
            "kind": "life",
            "key": "life",
            "turns": rng.choice([0, 3, -1]),
            "context": rng.choice([None, "light"]),
            "rotor": ["3ff0000000000000"] + ["0000000000000000"] * rng.choice([31, 30]),
        }
    elif kind == 4:
        record = {
            "kind": "vault",
            "key": _hex(rng),
            "lemma": "light",
            "count": 1,
            "first_turn": 0,
            "last_turn": rng.choice([0, 1]),
            "latest_claim": None,
            "said": rng.choice([[], [{"claim": None, "text": "x", "turn_idx": 0}], [{}] * 4]),
        }
    elif kind == 5:
        record = {"kind": rng.choice(["note", "Vault", ""]), "key": key}
    else:
        record = rng.choice([3, [], {"key": key}, {"kind": "candidate", "key": key}])
    if isinstance(record, dict) and rng.random() < 0.1:
        record["extra"] = 1
    return record


def _mutation(rng: random.Random) -> Json:
    roll = rng.randrange(6)
    if roll <= 2:
        return {"op": "put", "record": _record(rng)}
    if roll == 3:
        return {
            "op": "delete",
            "kind": rng.choice(["candidate", "vault", "session", "note"]),
            "key": rng.choice(["a", "b", "", "session"]),
        }
    if roll == 4:
        return {"op": "turn"}
    return rng.choice(
        [
            {"op": "put"},
            {"op": "nope"},
            3,
            {"op": "turn", "x": 1},
            {"op": "delete", "kind": "candidate"},
        ]
    )


def gen_state(rng: random.Random, m: Material) -> tuple[list[Json], dict[str, Json]]:
    # "$dir" is replaced per engine with a fresh temporary directory (Pair.answers)
    case: list[Json] = [{"id": 1, "op": "state.open", "args": {"dir": "$dir"}}]
    stores = 1
    for i in range(rng.randint(1, 7)):
        roll = rng.randrange(9)
        store = {"$handle": stores - 1}
        if roll <= 2:
            muts = [_mutation(rng) for _ in range(rng.randint(0, 3))]
            case.append(
                {"id": i + 2, "op": "state.apply", "args": {"store": store, "mutations": muts}}
            )
        elif roll == 3:
            case.append({"id": i + 2, "op": "state.checkpoint", "args": {"store": store}})
        elif roll == 4:
            case.append({"id": i + 2, "op": "state.digest", "args": {"store": store}})
        elif roll == 5:
            proposal = rng.choice([{"x": 1}, {}, {"k": "\u00e9"}, {"f": 1.5}, {"n": 10**30}])
            case.append(
                {"id": i + 2, "op": "state.propose", "args": {"store": store, "proposal": proposal}}
            )
        elif roll == 6:
            case.append({"id": i + 2, "op": "state.load", "args": {"dir": "$dir"}})
        elif roll == 7:
            # a session living on the store (state.life), a few turns, then closed
            register = rng.choice(REGISTERS)
            case.append(
                {
                    "id": f"o{i}",
                    "op": "session.open",
                    "args": {"register_id": register, "store": store},
                }
            )
            stores += 1
            for t in range(rng.randint(1, 3)):
                case.append(
                    {
                        "id": f"c{i}.{t}",
                        "op": "session.chat",
                        "args": {"session": {"$handle": stores - 1}, "text": prompt(rng, m)},
                    }
                )
            case.append(
                {"id": f"x{i}", "op": "session.close", "args": {"session": {"$handle": stores - 1}}}
            )
        else:
            # close and reopen: the store resumes from its directory
            case.append({"id": f"close{i}", "op": "state.close", "args": {"store": store}})
            case.append({"id": f"open{i}", "op": "state.open", "args": {"dir": "$dir"}})
            stores += 1
    case.append({"id": "close", "op": "state.close", "args": {"store": {"$handle": stores - 1}}})
    case.append({"id": "load", "op": "state.load", "args": {"dir": "$dir"}})
    case.append(
        {
            "id": "j",
            "op": "state.journal",
            "args": {"dir": "$dir", "name": rng.choice(["proposals", "lineage", "overflow"])},
        }
    )
    return case, {"rvid": None}


AREAS: dict[str, Callable[[random.Random, Material], tuple[list[Json], dict[str, Json]]]] = {
    "chat": gen_chat,
    "overrides": gen_overrides,
    "variation": gen_variation,
    "registers": gen_registers,
    "batch": gen_batch,
    "lines": gen_lines,
    "algebra": gen_algebra,
    "state": gen_state,
}
CAPABILITY = {
    "chat": "sessions",
    "overrides": "overrides",
    "variation": "variation",
    "registers": "registers.ratify",
    "batch": "batch",
    "algebra": "algebra",
    "state": "state",
}


# --- running ---------------------------------------------------------------------------


class Pair:
    """Two engines and what they answer to a case; state cases get a fresh directory
    per engine ("$dir" in an argument)."""

    def __init__(self, command_a: str, command_b: str) -> None:
        self.commands = (command_a, command_b)
        self.engines = (Engine(command_a), Engine(command_b))

    def answers(self, case: list[Json]) -> tuple[list[Json], list[Json]]:
        out = []
        for engine in self.engines:
            tmp = tempfile.mkdtemp(prefix="i47d-")
            try:
                out.append(
                    run_case(engine, [_with_dir(r, os.path.join(tmp, "state")) for r in case])
                )
            finally:
                shutil.rmtree(tmp, ignore_errors=True)
        return out[0], out[1]

    def close(self) -> None:
        for engine in self.engines:
            engine.close()


def _with_dir(request: Json, directory: str) -> Json:
    if isinstance(request, dict):
        return {
            k: (directory if v == "$dir" else _with_dir(v, directory)) for k, v in request.items()
        }
    if isinstance(request, list):
        return [_with_dir(v, directory) for v in request]
    return request


def shrink(
    pair: Pair, case: list[Json], context: dict[str, Json], key: tuple[str, str]
) -> list[Json]:
    """Drop requests (and batch elements) while the case still disagrees on *key*."""

    def still(candidate: list[Json]) -> bool:
        ra, rb = pair.answers(candidate)
        found = compare_case(candidate, ra, rb, context)
        return found is not None and found[1:] == key

    changed = True
    while changed:
        changed = False
        for i in range(len(case)):
            candidate = case[:i] + case[i + 1 :]
            if candidate and still(candidate):
                case, changed = candidate, True
                break
        else:
            for i, request in enumerate(case):
                if isinstance(request, dict) and request.get("op") == "batch":
                    inner = request.get("args", {}).get("requests")
                    if isinstance(inner, list):
                        for j in range(len(inner)):
                            smaller = copy.deepcopy(request)
                            del smaller["args"]["requests"][j]
                            candidate = case[:i] + [smaller] + case[i + 1 :]
                            if still(candidate):
                                case, changed = candidate, True
                                break
                if changed:
                    break
    return case


def run(
    seed: int,
    requests: int,
    areas: list[str],
    command_a: str,
    command_b: str,
    log: Callable[[str], None] = lambda s: None,
) -> tuple[dict[tuple[str, str], Disagreement], int]:
    """Run the areas' cases until about *requests* requests were sent; returns the
    disagreements by (op, member) and the number of requests sent."""
    pair = Pair(command_a, command_b)
    try:
        hellos = [e.send(b'{"id":0,"op":"hello"}') for e in pair.engines]
        claimed = set(hellos[0]["result"]["capabilities"]) & set(
            hellos[1]["result"]["capabilities"]
        )
        areas = [a for a in areas if CAPABILITY.get(a, "") in claimed or a not in CAPABILITY]
        lexicons = [e.send(b'{"id":0,"op":"lexicon.list"}') for e in pair.engines]
        found: dict[tuple[str, str], Disagreement] = {}
        if first_difference(lexicons[0], lexicons[1]) is not None:
            found[("lexicon.list", first_difference(lexicons[0], lexicons[1]) or "")] = (
                Disagreement(
                    "lexicon.list",
                    "",
                    [{"id": 0, "op": "lexicon.list"}],
                    (lexicons[0], lexicons[1]),
                    "lexicon",
                )
            )
        material = Material.load(lexicons[0])
        rng = random.Random(seed)
        sent = 0
        while sent < requests:
            area = areas[sent * len(areas) // requests] if areas else "lines"
            case, context = AREAS[area](rng, material)
            ra, rb = pair.answers(case)
            sent += len(case)
            hit = compare_case(case, ra, rb, context)
            if hit is None:
                continue
            key = hit[1:]
            if key in found:
                found[key].count += 1
                if len(case) >= len(found[key].stream):
                    continue
            small = shrink(pair, case, context, key)
            ra, rb = pair.answers(small)
            at = compare_case(small, ra, rb, context)
            index = at[0] if at else len(small) - 1
            count = found[key].count if key in found else 1
            found[key] = Disagreement(key[0], key[1], small, (ra[index], rb[index]), area, count)
            log(f"[{area}] {key[0]} {key[1]}: {len(small)} request(s)")
        return found, sent
    finally:
        pair.close()


def _show(request: Json) -> str:
    if isinstance(request, bytes):
        return "raw " + repr(request)
    return json.dumps(request, ensure_ascii=False)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tools.differential", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--requests", type=int, default=1000)
    parser.add_argument(
        "--area", action="append", choices=sorted(AREAS), help="an area to generate (default: all)"
    )
    parser.add_argument("--engine-a", default=REFERENCE)
    parser.add_argument("--engine-b", default=NODE)
    parser.add_argument("--json", action="store_true", help="print the disagreements as JSON")
    parser.add_argument("--quiet", action="store_true")
    options = parser.parse_args(argv)
    log = (lambda s: None) if options.quiet else (lambda s: print(s, file=sys.stderr, flush=True))
    try:
        found, sent = run(
            options.seed,
            options.requests,
            options.area or list(AREAS),
            options.engine_a,
            options.engine_b,
            log,
        )
    except EngineStopped as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if options.json:
        print(
            json.dumps(
                [
                    {
                        "op": d.op,
                        "member": d.member,
                        "area": d.area,
                        "count": d.count,
                        "stream": [_show(r) for r in d.stream],
                        "answers": list(d.answers),
                    }
                    for d in found.values()
                ],
                ensure_ascii=False,
                indent=1,
            )
        )
    else:
        print(f"{sent} requests, {len(found)} disagreement(s) by (op, member)")
        for d in found.values():
            print(f"\n== {d.op} {d.member} ({d.area}, {d.count} case(s))")
            for request in d.stream:
                print("  > " + _show(request))
            print("  A " + json.dumps(d.answers[0], ensure_ascii=False))
            print("  B " + json.dumps(d.answers[1], ensure_ascii=False))
    return 1 if found else 0


if __name__ == "__main__":
    raise SystemExit(main())
