"""Regenerate conformance/data/state_fixtures/ deterministically from the tables below.

Each fixture is a state directory as docs/state.md describes it (no LOCK, no journals);
``expected.json`` maps its name to what loading it gives: the identity, generation, turn
count, schema version and whether the loader fell back, or the error code. Run
``python -m tools.make_state_fixtures`` to rewrite them, ``--check`` to compare only.
"""

from __future__ import annotations

import filecmp
import json
import os
import shutil
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

from reference.canonical import canonical_bytes, digest, pretty_json, sha256_hex
from reference.state.core import encode_core, identity
from reference.state.layout import CORE, CURRENT, MANIFEST, gen_name, pointer_text
from reference.state.records import validate_record
from reference.truth.vault import lemma_address

ROOT = Path(__file__).resolve().parents[1]

OUT = ROOT / "conformance" / "data" / "state_fixtures"
ABSENT = object()

BASE = [
    {"kind": "candidate", "key": "c-alpha", "lemma": "alpha", "score": 12, "status": "coherent"},
    {"kind": "candidate", "key": "c-beta", "lemma": "beta", "score": -3, "status": "speculative"},
    {"kind": "candidate", "key": "c-gamma", "lemma": "gamma", "score": 0, "status": "rejected"},
    {"kind": "recognizer", "key": "r-greet", "pattern": "hello|hi", "weight": 7},
    {"kind": "recognizer", "key": "r-bye", "pattern": "bye", "weight": 2},
    {"kind": "session", "key": "session", "register_id": None},
]
V2_EXTRA = [
    {"kind": "recognizer", "key": "r-label", "pattern": "thanks", "weight": 1, "label": "polite"},
    {"kind": "session", "key": "session", "register_id": "plain"},
]
V3_EXTRA = [
    {"kind": "candidate", "key": "c-ñandú", "lemma": "ñandú", "score": 5, "status": "coherent"},
    {
        "kind": "candidate",
        "key": "c-delta",
        "lemma": "delta",
        "score": 9,
        "status": "speculative",
        "evidence": 4,
    },
]

V4_EXTRA = [
    {
        "kind": "life",
        "key": "life",
        "turns": 13,
        "context": "ñandú",
        "rotor": ["3ff0000000000000", "8000000000000000", "3fb999999999999a"] + ["0" * 16] * 29,
    },
    {
        "kind": "vault",
        "key": lemma_address("parent"),
        "lemma": "parent",
        "count": 2,
        "first_turn": 3,
        "last_turn": 9,
        "latest_claim": "guide",
        "said": [
            {"claim": "guide", "text": "no, a parent is a guide.", "turn_idx": 9},
            {"claim": None, "text": "parent is a kind of relative.", "turn_idx": 3},
        ],
    },
    {
        "kind": "vault",
        "key": lemma_address("ñandú"),
        "lemma": "ñandú",
        "count": 1,
        "first_turn": 12,
        "last_turn": 12,
        "latest_claim": None,
        "said": [],
    },
]


def records_for(version: int) -> list[dict]:
    """The records of the schema *version* fixture (later puts replace earlier ones)."""
    chosen = (
        BASE
        + (V2_EXTRA if version >= 2 else [])
        + (V3_EXTRA if version >= 3 else [])
        + (V4_EXTRA if version >= 4 else [])
    )
    by_key = {(r["kind"], r["key"]): validate_record(r, version) for r in chosen}
    return list(by_key.values())


def _write(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    os.chmod(path, 0o644)


def manifest_bytes(body: dict) -> bytes:
    """A manifest with a valid checksum over whatever *body* holds."""
    return canonical_bytes({**body, "checksum": digest(body)}) + b"\n"


def write_generation(
    state: Path, generation: int, version: object, turn_count: int, core: bytes
) -> str:
    """Write ``gen-N/`` with *core* and a manifest naming *version*; return its identity."""
    ident = identity(version if isinstance(version, int) else 3, core)
    body = {
        "files": {CORE: sha256_hex(core)},
        "generation": generation,
        "identity": ident,
        "turn_count": turn_count,
    }
    if version is not ABSENT:
        body["schema_version"] = version
    _write(state / gen_name(generation) / CORE, core)
    _write(state / gen_name(generation) / MANIFEST, manifest_bytes(body))
    return ident


def _loaded(ident: str, generation: int, turns: int, version: int, recovered: bool) -> dict:
    return {
        "identity": ident,
        "generation": generation,
        "turn_count": turns,
        "schema_version": version,
        "recovered": recovered,
    }


def version_fixture(version: int, generation: int, turns: int) -> Callable[[Path], dict]:
    """A valid state at schema *version* with the records of that version."""

    def build(state: Path) -> dict:
        ident = write_generation(
            state, generation, version, turns, encode_core(records_for(version))
        )
        _write(state / CURRENT, pointer_text(generation))
        return _loaded(ident, generation, turns, version, False)

    return build


def schema_refusal(version: object, code: str) -> Callable[[Path], dict]:
    """A state whose only generation names schema *version* (checksum valid)."""

    def build(state: Path) -> dict:
        write_generation(state, 2, version, 4, encode_core(records_for(3)))
        _write(state / CURRENT, pointer_text(2))
        return {"error": code}

    return build


def _two_generations(state: Path) -> tuple[str, str]:
    older = write_generation(state, 5, 3, 10, encode_core(records_for(2)))
    newer = write_generation(state, 6, 3, 11, encode_core(records_for(3)))
    return older, newer


def pointer_fixture(pointer: bytes | None) -> Callable[[Path], dict]:
    """Two valid generations (5 and 6) and a bad pointer: falls back to generation 6."""

    def build(state: Path) -> dict:
        _, newer = _two_generations(state)
        if pointer is not None:
            _write(state / CURRENT, pointer)
        return _loaded(newer, 6, 11, 3, True)

    return build


def lone_pointer(pointer: bytes) -> Callable[[Path], dict]:
    """A bad pointer and no generation at all: not a fresh life, STATE_CORRUPT."""

    def build(state: Path) -> dict:
        _write(state / CURRENT, pointer)
        return {"error": "STATE_CORRUPT"}

    return build


def torn_generation(state: Path) -> dict:
    """CURRENT names generation 6, whose core was truncated: falls back to generation 5."""
    older, _ = _two_generations(state)
    core = state / gen_name(6) / CORE
    _write(core, core.read_bytes()[:40])
    _write(state / CURRENT, pointer_text(6))
    return _loaded(older, 5, 10, 3, True)


def uncommitted_newer(state: Path) -> dict:
    """CURRENT names generation 5 while an unacknowledged generation 6 exists: loads 5."""
    older, _ = _two_generations(state)
    _write(state / CURRENT, pointer_text(5))
    return _loaded(older, 5, 10, 3, False)


def all_corrupt(state: Path) -> dict:
    """Generation 5's manifest fails its checksum and generation 6's core is torn."""
    _two_generations(state)
    manifest = state / gen_name(5) / MANIFEST
    _write(manifest, manifest.read_bytes().replace(b'"turn_count":10', b'"turn_count":99'))
    core = state / gen_name(6) / CORE
    _write(core, core.read_bytes()[:-7])
    _write(state / CURRENT, pointer_text(6))
    return {"error": "STATE_CORRUPT"}


def unsorted_core(state: Path) -> dict:
    """A generation with valid checksums whose core lines are out of order."""
    lines = encode_core(records_for(3)).splitlines(keepends=True)
    write_generation(state, 3, 3, 2, b"".join(reversed(lines)))
    _write(state / CURRENT, pointer_text(3))
    return {"error": "STATE_RECORD_MALFORMED"}


def duplicated_record(state: Path) -> dict:
    """A generation with valid checksums whose core holds one (kind, key) on two lines."""
    lines = encode_core(records_for(3)).splitlines(keepends=True)
    twin = encode_core([{**records_for(3)[0], "score": 13}])
    write_generation(state, 3, 3, 2, b"".join([lines[0], twin, *lines[1:]]))
    _write(state / CURRENT, pointer_text(3))
    return {"error": "STATE_RECORD_MALFORMED"}


def constant_in_core(state: Path) -> dict:
    """A generation with valid checksums whose core line holds ``NaN``, which is not JSON."""
    lines = encode_core(records_for(3)).splitlines(keepends=True)
    lines[0] = lines[0].replace(b'"score":12', b'"score":NaN')
    write_generation(state, 3, 3, 2, b"".join(lines))
    _write(state / CURRENT, pointer_text(3))
    return {"error": "STATE_RECORD_MALFORMED"}


def surrogate_in_core(state: Path) -> dict:
    """A generation with valid checksums whose core line escapes a lone surrogate, which
    UTF-8 cannot encode (and so no canonical line holds)."""
    lines = encode_core(records_for(3)).splitlines(keepends=True)
    lines[0] = lines[0].replace(b'"lemma":"alpha"', b'"lemma":"alpha\\ud800"')
    write_generation(state, 3, 3, 2, b"".join(lines))
    _write(state / CURRENT, pointer_text(3))
    return {"error": "STATE_RECORD_MALFORMED"}


def bad_manifest(edit: Callable[[dict, Path], None]) -> Callable[[Path], dict]:
    """CURRENT names generation 6, whose manifest (checksum valid) *edit* broke: falls back
    to generation 5."""

    def build(state: Path) -> dict:
        older, _ = _two_generations(state)
        directory = state / gen_name(6)
        manifest = directory / MANIFEST
        body = json.loads(manifest.read_bytes())
        del body["checksum"]
        edit(body, directory)
        _write(manifest, manifest_bytes(body))
        _write(state / CURRENT, pointer_text(6))
        return _loaded(older, 5, 10, 3, True)

    return build


def _lists(name: str) -> Callable[[dict, Path], None]:
    """Add *name* to the manifest's files, listed with the SHA-256 of core.jsonl."""
    return lambda body, directory: body["files"].update({name: body["files"][CORE]})


def _lists_nested_core(body: dict, directory: Path) -> None:
    """List ``sub/core.jsonl``, a copy of core.jsonl that exists with the listed SHA-256."""
    _write(directory / "sub" / CORE, (directory / CORE).read_bytes())
    body["files"]["sub/" + CORE] = body["files"][CORE]


def v3_life_record(state: Path) -> dict:
    """A schema 3 generation holding a ``life`` record (a kind introduced in 4)."""
    write_generation(state, 3, 3, 2, encode_core(records_for(4)))
    _write(state / CURRENT, pointer_text(3))
    return {"error": "STATE_RECORD_MALFORMED"}


def life_claimed(builder: Callable[[Path], dict]) -> Callable[[Path], dict]:
    """A fixture whose expectation holds for an engine claiming ``state.life``; any other
    engine is at schema 3 and refuses it with STATE_SCHEMA_TOO_NEW."""
    return lambda state: {**builder(state), "capability": "state.life"}


def v1_unknown_field(state: Path) -> dict:
    """A schema 1 generation whose recognizer carries ``label`` (introduced in 2)."""
    write_generation(state, 3, 1, 2, encode_core(records_for(2)))
    _write(state / CURRENT, pointer_text(3))
    return {"error": "STATE_RECORD_MALFORMED"}


FIXTURES: dict[str, Callable[[Path], dict]] = {
    "v1": version_fixture(1, 3, 5),
    "v2": version_fixture(2, 4, 8),
    "v3": version_fixture(3, 7, 13),
    "v4": life_claimed(version_fixture(4, 9, 13)),
    "v6-future": schema_refusal(6, "STATE_SCHEMA_TOO_NEW"),
    "v3-life-record": v3_life_record,
    "missing-version": schema_refusal(ABSENT, "STATE_SCHEMA_MALFORMED"),
    "string-version": schema_refusal("3", "STATE_SCHEMA_MALFORMED"),
    "zero-version": schema_refusal(0, "STATE_SCHEMA_MALFORMED"),
    "pointer-garbage": pointer_fixture(b"\x00\x07not a generation\n"),
    "pointer-dangling": pointer_fixture(pointer_text(9)),
    "pointer-empty": pointer_fixture(b""),
    "pointer-missing": pointer_fixture(None),
    "pointer-without-newline": pointer_fixture(b"gen-00000006"),
    "pointer-digit-for-newline": pointer_fixture(b"gen-000000061"),
    "pointer-trailing-space": pointer_fixture(b"gen-00000006 \n"),
    "pointer-not-ascii": pointer_fixture(b"gen-0000000\xb6\n"),
    "pointer-empty-alone": lone_pointer(b""),
    "pointer-garbage-alone": lone_pointer(b"gen-garbage\n"),
    "torn-generation": torn_generation,
    "uncommitted-newer": uncommitted_newer,
    "all-corrupt": all_corrupt,
    "unsorted-core": unsorted_core,
    "duplicated-record": duplicated_record,
    "nan-in-core": constant_in_core,
    "surrogate-in-core": surrogate_in_core,
    "v1-unknown-field": v1_unknown_field,
    "manifest-lists-dot": bad_manifest(_lists(".")),
    "manifest-lists-dotdot": bad_manifest(_lists("..")),
    "manifest-lists-empty-name": bad_manifest(_lists("")),
    "manifest-lists-nested-file": bad_manifest(_lists_nested_core),
    "manifest-files-not-object": bad_manifest(lambda body, _: body.update(files=[CORE])),
    "manifest-without-core": bad_manifest(lambda body, _: body.update(files={})),
    "manifest-without-turn-count": bad_manifest(lambda body, _: body.pop("turn_count")),
}


def build(out: Path) -> None:
    """Write every fixture and ``expected.json`` into the empty or missing directory *out*."""
    expected = {}
    for name, builder in FIXTURES.items():
        (out / name).mkdir(parents=True)
        expected[name] = builder(out / name)
    _write(out / "expected.json", pretty_json(expected).encode("utf-8"))


def _same_tree(left: Path, right: Path) -> bool:
    compared = filecmp.dircmp(left, right)
    if compared.left_only or compared.right_only or compared.funny_files:
        return False
    _, mismatch, errors = filecmp.cmpfiles(left, right, compared.common_files, shallow=False)
    if mismatch or errors:
        return False
    return all(_same_tree(left / sub, right / sub) for sub in compared.common_dirs)


def check(out: Path = OUT) -> bool:
    """Whether *out* holds exactly what ``build`` writes."""
    with tempfile.TemporaryDirectory() as tmp:
        build(Path(tmp) / "fixtures")
        return _same_tree(Path(tmp) / "fixtures", out)


def main(argv: list[str]) -> int:
    """Rewrite the fixtures, or with ``--check`` report whether they are current."""
    if argv == ["--check"]:
        current = check()
        print("state fixtures are current" if current else "state fixtures are stale")
        return 0 if current else 1
    shutil.rmtree(OUT, ignore_errors=True)
    build(OUT)
    print(f"wrote {len(FIXTURES)} state fixtures to {OUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
