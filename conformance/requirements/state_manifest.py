"""A manifest whose checksum verifies but whose content is inconsistent (docs/state.md
§ The manifest; § Recovery rules (load) 4): its generation another directory's, or a count
that is not an integer of at least 0. Such a generation is proven invalid, so a load falls
back from it."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from conformance import bad_utf8, cases
from conformance.canonical import canonical_json
from conformance.engines.base import EngineClient, EngineRefused
from conformance.requirements.registry import requirement
from conformance.state import oracle
from conformance.state.driver import load, scratch

RECORD = {"kind": "recognizer", "key": "k", "pattern": "p", "weight": 1}
INCONSISTENT: dict[str, dict[str, Any]] = {
    "generation names another directory": {"generation": 3},
    "generation true (in gen-00000001)": {"generation": True},
    "generation a string": {"generation": "1"},
    "generation negative": {"generation": -1},
    "turn_count negative": {"turn_count": -1},
    "turn_count true": {"turn_count": True},
    "turn_count false": {"turn_count": False},
    "turn_count a fraction": {"turn_count": 1.5},
}
"""Each case's manifest members, written into ``gen-00000001`` with its checksum recomputed."""

SHA, GEN = "@SHA@", "@GEN@"
"""Placeholders of NOT_PLAIN: the SHA-256 of the generation's ``core.jsonl`` and the
generation directory's absolute path."""
NOT_PLAIN: dict[str, dict[str, Any]] = {
    f"files lists a name with {where}": {"files": {"core.jsonl": SHA, name: SHA}}
    for where, name in (
        ("a slash first (the core's absolute path)", f"{GEN}/core.jsonl"),
        ("a slash inside (./core.jsonl)", "./core.jsonl"),
        ("a slash inside (sub/../core.jsonl)", "sub/../core.jsonl"),
        ("a slash last (core.jsonl/)", "core.jsonl/"),
        ("a slash alone", "/"),
    )
}
"""A name that is not a plain file name because it holds a ``/``, at each position, naming
the generation's own ``core.jsonl`` with its SHA-256: an engine that normalises the name,
counts its path components or only keeps it inside the directory reads a file that exists
and verifies, where docs/state.md makes the generation invalid."""


OTHER = "notes.txt"
"""A second file a manifest lists beside ``core.jsonl``."""
LISTED: dict[str, tuple[dict[str, Any], bytes | None]] = {
    "files lists a second file that is missing (core.jsonl whole)": (
        {"files": {"core.jsonl": SHA, OTHER: SHA}},
        None,
    ),
    "files lists a second file whose SHA-256 is not the one listed (core.jsonl whole)": (
        {"files": {"core.jsonl": SHA, OTHER: SHA}},
        b"notes\n",
    ),
}
"""A manifest listing a file beside the core, each alone proven invalid ("every listed
file exists with the listed SHA-256"): missing, or on disk with other bytes than the SHA-256
listed; the core listed beside it matches. A port that checks only the core it reads keeps
such a generation."""


NOT_OBJECT: dict[str, bytes] = {
    "manifest.json null": b"null\n",
    "manifest.json an array": b"[]\n",
    "manifest.json a number": b"7\n",
    "manifest.json a string": b'"gen-00000001"\n',
}
"""A manifest that is JSON but no object (docs/state.md § Recovery rules (load) 4: a manifest
that lacks its fields proves its generation invalid), so no member can be read from it."""


def _not_utf8(name: str) -> Callable[[bytes], bytes]:
    """The manifest's bytes in the encoding of case *name* of :func:`bad_utf8.reencoded`."""
    return lambda data: bad_utf8.reencoded(data.decode("utf-8"))[name]


def _placed(name: str) -> Callable[[bytes], bytes]:
    """The manifest's bytes with case *name* of :func:`bad_utf8.outside`."""
    return lambda data: bad_utf8.outside(data)[name]


NOT_UTF8: dict[str, Callable[[bytes], bytes]] = {
    **{f"manifest.json as {name}": _not_utf8(name) for name in bad_utf8.reencoded("")},
    "manifest.json with an overlong space (C0 A0) after its opening brace": (
        lambda data: data[:1] + b"\xc0\xa0" + data[1:]
    ),
    **{f"manifest.json with {name}": _placed(name) for name in bad_utf8.outside(b"{}")},
}
"""A manifest whose members and checksum are right but whose bytes are not plain UTF-8
(docs/state.md § The manifest: read as UTF-8 JSON, as a request line is): a reader that
decodes leniently, or detects the encoding, reads each one as a valid manifest."""


def _constant(data: bytes) -> Callable[[bytes], bytes]:
    """Manifest bytes that are *data*, whatever the manifest held."""
    return lambda _: data


def _resealed(path: Path, members: dict[str, Any]) -> None:
    """Rewrite the manifest at *path* with *members* and a checksum that verifies."""
    body = {k: v for k, v in json.loads(path.read_bytes()).items() if k != "checksum"}
    body.update(members)
    checksum = hashlib.sha256(canonical_json(body).encode("utf-8")).hexdigest()
    path.write_bytes(canonical_json({**body, "checksum": checksum}).encode("utf-8") + b"\n")


def _case(
    engine: EngineClient,
    directory: Path,
    members: dict[str, Any],
    other: bytes | None = None,
    manifest: Callable[[bytes], bytes] | None = None,
) -> str | None:
    """Load gen-1 (named by CURRENT, its manifest inconsistent) beside a valid gen-2; the
    problem, or None when the load fell back to gen-2 and said so."""
    oracle.write_generation(directory, 1, oracle.encode_core([RECORD]), turn_count=1)
    oracle.write_generation(directory, 2, oracle.encode_core([]), point=False)
    generation = directory / "gen-00000001"
    sha = hashlib.sha256((generation / "core.jsonl").read_bytes()).hexdigest()
    rendered = json.dumps(members).replace(GEN, str(generation)).replace(SHA, sha)
    _resealed(generation / "manifest.json", json.loads(rendered))
    if other is not None:
        (generation / OTHER).write_bytes(other)
    if manifest is not None:
        path = generation / "manifest.json"
        path.write_bytes(manifest(path.read_bytes()))
    try:
        got = load(engine, directory)
    except EngineRefused as refusal:
        return f"refused {refusal.code}, not a fall back to gen-00000002"
    if got["generation"] != 2:
        return f"loaded generation {got['generation']}, not a fall back to 2"
    if not got.get("recovered"):
        return "fell back to generation 2 without saying so (recovered)"
    return None


@requirement(
    "STATE-MANIFEST-001",
    "a generation whose manifest checksum verifies but whose generation is not its "
    "directory's number, or whose generation or turn_count is not an integer of at least 0 "
    "(true, false, a string, a fraction, negative), or whose files list a name holding a "
    "slash (first, inside, last or alone) that names its own core.jsonl, or list beside a "
    "core that matches a second file missing or not matching its SHA-256, or whose manifest is "
    "JSON but no object (null, an array, a number, a string), is proven invalid: "
    "the load falls back from it and says so",
    family="state",
    capabilities=("state",),
    seed="docs/state.md § The manifest (generation and turn_count are integers >= 0); "
    "§ Generations (a valid generation's files lists only plain file names, no /, and every "
    "listed file exists with the listed SHA-256); "
    "§ Recovery rules (load) 4",
    max_examples=1,
)
def inconsistent_manifest(engine: EngineClient, _: object) -> None:
    problems = []
    with scratch() as root:
        for number, (name, members) in enumerate({**INCONSISTENT, **NOT_PLAIN}.items()):
            problem = _case(engine, root / str(number), members)
            if problem:
                problems.append(f"{name}: {problem}")
        for number, (name, (members, other)) in enumerate(LISTED.items()):
            problem = _case(engine, root / f"listed{number}", members, other)
            if problem:
                problems.append(f"{name}: {problem}")
        for number, (name, data) in enumerate(NOT_OBJECT.items()):
            problem = _case(engine, root / f"json{number}", {}, manifest=_constant(data))
            if problem:
                problems.append(f"{name}: {problem}")
    assert not problems, cases.lines(problems, "a checksummed but inconsistent manifest:")


@requirement(
    "STATE-MANIFEST-002",
    "a generation whose manifest's members and checksum are right but whose bytes are not "
    "plain UTF-8 (a byte order mark first, UTF-16 or UTF-32 with or without their byte order "
    "mark, an overlong space between tokens) is proven invalid: the load falls back from it "
    "and says so",
    family="state",
    capabilities=("state",),
    seed="docs/state.md § The manifest (a reader parses a manifest as UTF-8 JSON); "
    "§ Recovery rules (load) 4 (the manifest is not JSON)",
    max_examples=1,
)
def manifest_is_utf8(engine: EngineClient, _: object) -> None:
    problems = []
    with scratch() as root:
        for number, (name, bytes_of) in enumerate(NOT_UTF8.items()):
            problem = _case(engine, root / str(number), {}, manifest=bytes_of)
            if problem:
                problems.append(f"{name}: {problem}")
    assert not problems, cases.lines(problems, "a manifest that is not plain UTF-8:")
