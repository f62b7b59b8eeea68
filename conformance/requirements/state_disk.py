"""Every field an engine reads back from disk, and every name it reads a number or an entry
from, spelled the ways a port misreads (conformance/disk_variants.py, from the table
conformance/data/disk_fields.json): each must get what docs/state.md says."""

from __future__ import annotations

import copy
import hashlib
import zlib
from pathlib import Path
from typing import Any

from conformance import bad_utf8, cases
from conformance.canonical import canonical_json
from conformance.disk_variants import (
    DUPLICATE,
    GENERATION_NAMES,
    LOOKALIKE_ENTRIES,
    PLACEHOLDER,
    POINTER_TEXTS,
    Spelling,
    expected,
    rows_of,
    spelled,
    spellings,
)
from conformance.engines.base import EngineClient, EngineRefused
from conformance.requirements.registry import requirement
from conformance.requirements.type_matrix import RECORDS
from conformance.state import oracle
from conformance.state.driver import Stores, load_many, scratch

RECORD = {"kind": "recognizer", "key": "k", "pattern": "p", "weight": 1}
LIFE_ONLY = ("life", "vault")


def _loaded(result: dict[str, Any]) -> str:
    return f"a load of generation {result.get('generation')!r}"


def _spelled_manifest(directory: Path, field: str, text: str, version: int) -> None:
    """gen-00000001 (named by CURRENT) whose manifest holds *text* as *field*, its checksum
    the SHA-256 of the text without it (for a member named twice, of the canonical JSON a
    reader that keeps the last would parse, so only the repeat makes it invalid), beside a
    valid, newer gen-00000002."""
    core = oracle.encode_core([RECORD])
    oracle.write_generation(directory, 2, oracle.encode_core([]), version, point=False)
    oracle.write_generation(directory, 1, core, version, turn_count=1)
    body: dict[str, Any] = {
        "files": {"core.jsonl": hashlib.sha256(core).hexdigest()},
        "generation": 1,
        "identity": oracle.identity(version, core),
        "schema_version": version,
        "turn_count": 1,
    }
    good = str(version) if field == "schema_version" else "1"
    if field == "checksum":
        checksum = hashlib.sha256(canonical_json(body).encode("utf-8")).hexdigest()
        text_body = spelled({**body, "checksum": PLACEHOLDER}, "checksum", text, f'"{checksum}"')
    else:
        name = "core.jsonl" if field == "files.core.jsonl" else field
        if field == "files.core.jsonl":
            body["files"] = {"core.jsonl": PLACEHOLDER}
        else:
            body[field] = PLACEHOLDER
        good = json_good(field, body, good, core)
        without = spelled(body, name, text, good)
        parsed = spelled(body, name, good, good) if text == DUPLICATE else without
        checksum = hashlib.sha256(parsed.encode("utf-8")).hexdigest()
        text_body = '{"checksum":"' + checksum + '",' + without[1:]
    (directory / "gen-00000001" / "manifest.json").write_bytes(text_body.encode("utf-8") + b"\n")


def json_good(field: str, body: dict[str, Any], good: str, core: bytes) -> str:
    """The valid JSON text of *field* (what a member named twice holds both times)."""
    if field == "files.core.jsonl":
        return f'"{hashlib.sha256(core).hexdigest()}"'
    if field == "identity":
        return f'"{oracle.identity(int(body["schema_version"]), core)}"'
    return good


@requirement(
    "STATE-DISK-801",
    "a manifest member spelled as a port misreads it (true/false, 1.0, 1e0, -0, -1, 2^53+1, "
    "2^64, a string of ASCII, Arabic-Indic, fullwidth or superscript digits, null, an array, "
    "an object, missing, named twice; a digest in upper case, 63 digits, fullwidth or with a "
    "newline), its checksum over the text as written, makes its generation proven invalid "
    "(a fall back), and a schema_version so spelled (but named twice) is "
    "STATE_SCHEMA_MALFORMED",
    family="state",
    capabilities=("state",),
    seed="docs/state.md § The manifest (member types; each member once); § Schema versions; "
    "§ Recovery rules (load) 4; conformance/data/disk_fields.json",
    max_examples=1,
)
def manifest_spellings(engine: EngineClient, _: object) -> None:
    version = oracle.schema_of(engine.capabilities())
    pairs = [(row, s) for row in rows_of("manifest.json") for s in spellings(row)]
    pairs = [(row, s) for row, s in pairs if row["field"] != "files"]
    with scratch() as root:
        directories = []
        for number, (row, spelling) in enumerate(pairs):
            directory = root / str(number)
            if row["field"] == "schema_version":
                spelling = _versioned(spelling, version)
            _spelled_manifest(directory, row["field"], spelling.text, version)
            directories.append(directory)
        answers = load_many(engine, directories)
    problems = []
    for (row, spelling), answer in zip(pairs, answers, strict=True):
        what = f"manifest {row['field']} spelled {spelling.label}"
        want = expected(row, spelling)
        got = answer.get("error")
        if want == "invalid":
            result = answer.get("result") or {}
            if got or result.get("generation") != 2 or not result.get("recovered"):
                problems.append(
                    f"{what}: {got or _loaded(result)}, not a fall back to generation 2"
                )
        elif want == "ok":
            if got or answer["result"].get("generation") != 1:
                problems.append(f"{what}: {got or 'a fall back'}, not a load of generation 1")
        elif got != want:
            problems.append(f"{what}: {got or 'a load'}, expected {want}")
    assert not problems, cases.lines(problems, f"{len(problems)} misread manifest(s):")


def _versioned(spelling: Spelling, version: int) -> Spelling:
    """*spelling* of schema version 3 respelled for *version* (its digits replaced)."""
    if version == 3 or spelling.number is not None:
        return spelling
    return spelling._replace(text=spelling.text.replace("3", str(version)))


def _record_of(row: dict[str, Any]) -> tuple[dict[str, Any], str]:
    """A valid record of *row*'s kind with the placeholder where *row*'s field goes, and the
    member name holding it."""
    record = copy.deepcopy(RECORDS[row["kind"]])
    field = row["field"]
    if field.startswith("said[]."):
        name = field.removeprefix("said[].")
        record["said"][0][name] = PLACEHOLDER
        return record, name
    if field == "rotor":
        record["rotor"] = PLACEHOLDER
        return record, "rotor"
    record[field] = PLACEHOLDER
    return record, field


@requirement(
    "STATE-DISK-802",
    "a core.jsonl record (checksums holding) whose field is spelled as a port misreads it "
    "(an integer as true/false, 1.0, 1e0, -0, a string of ASCII, Arabic-Indic, fullwidth or "
    "superscript digits, null, an array or object, past the canonical range, negative for a "
    "count, missing or named twice; a key, status, vault address or bit pattern by a "
    "look-alike; a key holding bytes that are not UTF-8) is STATE_RECORD_MALFORMED; a missing "
    "additive-optional field loads",
    family="state",
    capabilities=("state",),
    seed="docs/state.md § The persistent core (canonical lines; the kinds table; the canonical "
    "range); § Recovery rules (load) 6; conformance/data/disk_fields.json",
    max_examples=1,
)
def core_spellings(engine: EngineClient, _: object) -> None:
    life = "state.life" in engine.capabilities()
    pairs = [
        (row, s)
        for row in rows_of("core.jsonl")
        if life or row["kind"] not in LIFE_ONLY
        for s in spellings(row)
    ]
    with scratch() as root:
        directories = []
        for number, (row, spelling) in enumerate(pairs):
            record, name = _record_of(row)
            good = "1" if row["type"] != "bits" else canonical_json(RECORDS["life"]["rotor"])
            line = spelled(record, name, spelling.text, good)
            core = line.encode("utf-8") + b"\n"
            version = (
                oracle.LIFE_SCHEMA_VERSION
                if row["kind"] in LIFE_ONLY
                else oracle.BASE_SCHEMA_VERSION
            )
            directory = root / str(number)
            oracle.write_generation(directory, 2, oracle.encode_core([]), point=False)
            oracle.write_generation(directory, 3, core, schema_version=version)
            directories.append(directory)
        answers = load_many(engine, directories)
    problems = []
    for (row, spelling), answer in zip(pairs, answers, strict=True):
        what = f"a {row['kind']} record with {row['field']} spelled {spelling.label}"
        want = "STATE_RECORD_MALFORMED" if spelling.label == "-0" else expected(row, spelling)
        got = answer.get("error")
        if want == "ok":
            result = answer.get("result") or {}
            if got or result.get("generation") != 3:
                problems.append(f"{what}: {got or 'a fall back'}, not a load of generation 3")
        elif got != want:
            problems.append(
                f"{what}: {got or _loaded(answer.get('result') or {})}, expected {want}"
            )
    problems += _not_utf8_records(engine)
    assert not problems, cases.lines(problems, f"{len(problems)} misread record(s):")


def _not_utf8_records(engine: EngineClient) -> list[str]:
    """A record with bytes that are not UTF-8, in its key or where no string holds them
    (checksums holding), is malformed."""
    record = canonical_json({"kind": "recognizer", "key": "k@", "pattern": "p", "weight": 1})
    lines = {
        f"its key holding {name}": record.encode("utf-8").replace(b"@", inside)
        for name, inside in bad_utf8.INSIDE.items()
    }
    lines |= bad_utf8.outside(record.encode("utf-8"))
    named = list(lines.items())
    with scratch() as root:
        directories = []
        for number, (_, line) in enumerate(named):
            directory = root / str(number)
            core = line + b"\n"
            oracle.write_generation(directory, 2, oracle.encode_core([]), point=False)
            oracle.write_generation(directory, 3, core, schema_version=oracle.BASE_SCHEMA_VERSION)
            directories.append(directory)
        answers = load_many(engine, directories)
    return [
        f"a recognizer record with {name}: "
        f"{answer.get('error') or _loaded(answer.get('result') or {})}, "
        "expected STATE_RECORD_MALFORMED"
        for (name, _), answer in zip(named, answers, strict=True)
        if answer.get("error") != "STATE_RECORD_MALFORMED"
    ]


def _raw_frame(payload: str) -> bytes:
    data = payload.encode("utf-8")
    return b"%08x %08x " % (len(data), zlib.crc32(data)) + data + b"\n"


@requirement(
    "STATE-DISK-803",
    "a recorded boot event, alone in lineage.journal, whose boot is spelled as a port "
    "misreads it (true/false, 9.0, 9e0, a string of ASCII, Arabic-Indic, fullwidth or "
    "superscript digits, null, an array or object, -0, a negative, 2^53+1, 2^64, missing) "
    "does not count: the next open is boot 1; a boot of 9 counts (boot 10)",
    family="state",
    capabilities=("state",),
    seed="docs/state.md § Identity and lineage (boot numbering); conformance/data/disk_fields.json",
    max_examples=1,
)
def boot_spellings(engine: EngineClient, _: object) -> None:
    (row,) = [row for row in rows_of("lineage.journal") if row["field"] == "boot"]
    cases_sent = [s for s in spellings(row) if s.text != DUPLICATE]
    cases_sent.append(Spelling("9", "9", 9))
    event = {
        "boot": PLACEHOLDER,
        "from_version": None,
        "identity": "0" * 64,
        "parent": None,
        "reason": "fresh",
        "recovered": None,
        "to_version": oracle.BASE_SCHEMA_VERSION,
    }
    problems = []
    with scratch() as root, Stores(engine) as stores:
        for number, spelling in enumerate(cases_sent):
            directory = root / str(number)
            oracle.write_generation(directory, 1, oracle.encode_core([]))
            payload = spelled(event, "boot", spelling.text)
            (directory / "lineage.journal").write_bytes(_raw_frame(payload))
            opened = stores.open(directory)
            stores.close(opened["store"])
            want = 1 if expected(row, spelling) != "ok" else (spelling.number or 0) + 1
            if spelling.label == "-0":
                want = 1
            if opened.get("boot") != want:
                problems.append(
                    f"after one event with boot spelled {spelling.label}, the open was boot "
                    f"{opened.get('boot')!r}, not {want}"
                )
    assert not problems, cases.lines(problems, f"{len(problems)} misread boot(s):")


@requirement(
    "STATE-NAMES-804",
    "a directory whose name spells a generation number another way than gen- and 8 ASCII "
    "digits from 1 (Arabic-Indic, fullwidth, superscript or mathematical digits, 7 or 9 "
    "digits, a sign, a space, a trailing newline, GEN-, gen_, gen-00000000) is no "
    "generation: a load never falls back to it, a checkpoint never numbers past it, an open "
    "of a directory holding only it is fresh, and nothing removes it",
    family="state",
    capabilities=("state",),
    seed="docs/state.md § Directory layout (generation names); § Recovery rules (load) 3; "
    "§ Commit protocol steps 2 and 6; conformance/disk_variants.py",
    max_examples=1,
)
def generation_names(engine: EngineClient, _: object) -> None:
    problems = []
    with scratch() as root:
        directories = []
        for number, (_label, name, spelled_number) in enumerate(GENERATION_NAMES):
            directory = root / str(number)
            oracle.write_generation(
                directory, 1, oracle.encode_core([RECORD]), turn_count=1, point=False
            )
            _lookalike(directory, name, spelled_number)
            directories.append(directory)
        answers = load_many(engine, directories)
        for (label, name, _n), answer in zip(GENERATION_NAMES, answers, strict=True):
            result = answer.get("result") or {}
            if answer.get("error") or result.get("generation") != 1 or not result.get("recovered"):
                problems.append(
                    f"a load beside {label} ({name!r}): {answer.get('error') or result}, not a "
                    "fall back to generation 1"
                )
        with Stores(engine) as stores:
            for (label, name, _n), directory in zip(GENERATION_NAMES, directories, strict=True):
                (directory / "CURRENT").write_bytes(b"gen-00000001\n")
                before = _files(directory / name)
                store = stores.open(directory)["store"]
                engine.call("state.apply", {"store": store, "mutations": [{"op": "turn"}]})
                committed = engine.call("state.checkpoint", {"store": store})
                engine.call("state.apply", {"store": store, "mutations": [{"op": "turn"}]})
                engine.call("state.checkpoint", {"store": store})
                stores.close(store)
                if committed.get("generation") != 2:
                    problems.append(
                        f"beside {label} ({name!r}), the checkpoint committed generation "
                        f"{committed.get('generation')!r}, not 2"
                    )
                if _files(directory / name) != before:
                    problems.append(f"{label} ({name!r}) was removed or changed by the store")
        problems += _alone(engine, root / "alone")
    assert not problems, cases.lines(problems, f"{len(problems)} misread generation name(s):")


def _lookalike(directory: Path, name: str, spelled_number: int) -> None:
    """A valid generation's files, whose manifest names *spelled_number*, at *directory/name*."""
    fake = directory / "fake"
    oracle.write_generation(
        fake, max(spelled_number, 1), oracle.encode_core([]), turn_count=7, point=False
    )
    inner = next(fake.iterdir())
    _renumber(inner, spelled_number)
    inner.rename(directory / name)
    fake.rmdir()


def _alone(engine: EngineClient, root: Path) -> list[str]:
    """A directory holding one look-alike and nothing else holds no generation: its open is
    fresh, and the look-alike stays as it was."""
    problems = []
    with Stores(engine) as stores:
        for number, (label, name, spelled_number) in enumerate(GENERATION_NAMES):
            directory = root / str(number)
            _lookalike(directory, name, spelled_number)
            before = _files(directory / name)
            try:
                opened = stores.open(directory)
            except EngineRefused as refusal:
                problems.append(f"{label} ({name!r}) alone: the open refused {refusal.code}")
                continue
            stores.close(opened["store"])
            if opened.get("generation") != 0 or opened.get("recovered") is not None:
                problems.append(
                    f"{label} ({name!r}) alone: the open loaded generation "
                    f"{opened.get('generation')!r} (recovered {opened.get('recovered')!r}), "
                    "not a fresh state"
                )
            if _files(directory / name) != before:
                problems.append(f"{label} ({name!r}) alone was removed or changed by the store")
    return problems


def _renumber(generation: Path, number: int) -> None:
    """Rewrite *generation*'s manifest to name *number* (its checksum recomputed)."""
    core = (generation / "core.jsonl").read_bytes()
    (generation / "manifest.json").write_bytes(
        oracle.manifest(oracle.CURRENT_SCHEMA_VERSION, number, 7, core)
    )


def _files(path: Path) -> dict[str, bytes] | None:
    """The files under *path* and their bytes (None when *path* is gone)."""
    if not path.exists():
        return None
    if path.is_file():
        return {"": path.read_bytes()}
    return {
        str(p.relative_to(path)): p.read_bytes() for p in sorted(path.rglob("*")) if p.is_file()
    }


@requirement(
    "STATE-NAMES-805",
    "a pointer spelling gen-00000001 another way (Arabic-Indic, fullwidth or superscript "
    "digits, a carriage return, two newlines, a space or tab, 9 digits, a sign, a NUL, "
    "GEN-, gen-00000000) is garbage: the load falls back to the newest valid generation and "
    "says so",
    family="state",
    capabilities=("state",),
    seed="docs/state.md § Recovery rules (load) 3; § Directory layout; "
    "conformance/disk_variants.py",
    max_examples=1,
)
def pointer_spellings(engine: EngineClient, _: object) -> None:
    with scratch() as root:
        directories = []
        for number, (_label, text) in enumerate(POINTER_TEXTS):
            directory = root / str(number)
            oracle.write_generation(directory, 2, oracle.encode_core([]), turn_count=2)
            oracle.write_generation(directory, 1, oracle.encode_core([RECORD]), turn_count=1)
            (directory / "CURRENT").write_bytes(text)
            directories.append(directory)
        answers = load_many(engine, directories)
    problems = []
    for (label, text), answer in zip(POINTER_TEXTS, answers, strict=True):
        result = answer.get("result") or {}
        if answer.get("error") or result.get("generation") != 2 or not result.get("recovered"):
            problems.append(
                f"a pointer {text!r} ({label}): {answer.get('error') or result}, not a fall "
                "back to generation 2"
            )
    assert not problems, cases.lines(problems, f"{len(problems)} misread pointer(s):")


@requirement(
    "STATE-NAMES-806",
    "entries whose names only look like the store's (ſtaging-, Staging-, STAGING-, a "
    "fullwidth s, CURRENT.TMP, current.tmp, CURRENT.tmp and a newline, LOCK with a Kelvin "
    "sign, lineage with a dotless i) are not the store's: an open, two checkpoints and a "
    "close leave each as it was",
    family="state",
    capabilities=("state",),
    seed="docs/state.md § Directory layout; § Confinement (the store reads and writes only "
    "the entries above); § Leftover removal at open; conformance/disk_variants.py",
    max_examples=1,
)
def lookalike_entries(engine: EngineClient, _: object) -> None:
    problems = []
    with scratch() as root, Stores(engine) as stores:
        directory = root / "store"
        oracle.write_generation(directory, 1, oracle.encode_core([RECORD]), turn_count=1)
        for _label, name, is_directory in LOOKALIKE_ENTRIES:
            if is_directory:
                (directory / name).mkdir()
                (directory / name / "core.jsonl").write_bytes(b"kept\n")
            else:
                (directory / name).write_bytes(b"kept\n")
        before = {name: _files(directory / name) for _l, name, _d in LOOKALIKE_ENTRIES}
        store = stores.open(directory)["store"]
        for _ in range(2):
            engine.call("state.apply", {"store": store, "mutations": [{"op": "turn"}]})
            engine.call("state.checkpoint", {"store": store})
        stores.close(store)
        for label, name, _d in LOOKALIKE_ENTRIES:
            if _files(directory / name) != before[name]:
                problems.append(f"{label} ({name!r}) was removed or changed by the store")
    assert not problems, cases.lines(problems, f"{len(problems)} look-alike entr(ies) touched:")
