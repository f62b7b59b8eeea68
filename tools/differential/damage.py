"""Damage done to a state directory between two requests, the same on both engines' copies.

A case step ``{"$damage": NAME, "pick": k}`` is not sent: :func:`damage` applies NAME to
the engine's directory (its live generation: the one ``CURRENT`` names, else the newest;
*k* picks among several targets) and answers ``{"ok": true, "result": {"damage", "did",
"layout"}}``, where ``layout`` lists the directory's entries (generation directories with
their files) as they were before the damage. Both engines' answers are compared like any
response: two directories that the same requests left with other entries disagree there
(unless a delta generation is among them: writing deltas is free, FREE-024). The edits
are the damage docs/state.md names (recovery rules, § Journals, § Delta generations):
nothing here repairs, only breaks. Before it (except when it removes a delta's base),
every delta generation is rewritten as the full one of the same records and a base only it
needed removed (:func:`full_generations`), as an engine writing only full generations
would have left the directory, so the damage meets the same entries in both.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import zlib
from collections.abc import Callable
from pathlib import Path

from tools.differential.shared import Json

GEN = re.compile(r"gen-\d{8}")
JOURNALS = ("lineage.journal", "proposals.journal", "overflow.journal")


def canonical(value: Json) -> bytes:
    """Canonical JSON (sorted keys, no spaces, UTF-8)."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def frame(payload: bytes) -> bytes:
    """A framed journal line holding *payload*."""
    return b"%08x %08x " % (len(payload), zlib.crc32(payload)) + payload + b"\n"


def layout(root: Path) -> list[str]:
    """The entries of *root*, a generation's files as ``gen-N/file``; ``staging-*``
    entries as ``staging-*`` (their suffix is free, FREE-011)."""
    if not root.is_dir():
        return []
    out = set()
    for entry in os.listdir(root):
        path = root / entry
        if entry.startswith("staging-"):
            out.add("staging-*")
        elif GEN.fullmatch(entry) and path.is_dir() and not path.is_symlink():
            files = os.listdir(path)
            out.update(f"{entry}/{f}" for f in files) if files else out.add(f"{entry}/")
        else:
            out.add(entry)
    return sorted(out)


def _generations(root: Path) -> list[str]:
    return sorted(e for e in os.listdir(root) if GEN.fullmatch(e) and (root / e).is_dir())


def _live(root: Path) -> str | None:
    """The generation ``CURRENT`` names when it exists, else the newest."""
    try:
        named = (root / "CURRENT").read_text("ascii").strip()
    except (OSError, UnicodeDecodeError):
        named = ""
    gens = _generations(root)
    return named if named in gens else (gens[-1] if gens else None)


def _data(gen: Path) -> Path:
    return gen / ("delta.jsonl" if (gen / "delta.jsonl").exists() else "core.jsonl")


def _flip(path: Path, pick: int) -> str:
    raw = bytearray(path.read_bytes())
    if not raw:
        path.write_bytes(b"x")
        return "filled"
    i = pick % len(raw)
    raw[i] ^= 0x01
    path.write_bytes(bytes(raw))
    return f"flipped byte {i}"


def _manifest(gen: Path) -> dict[str, Json]:
    return json.loads((gen / "manifest.json").read_bytes())


def _write_manifest(gen: Path, manifest: dict[str, Json]) -> None:
    body = {k: v for k, v in manifest.items() if k != "checksum"}
    manifest["checksum"] = hashlib.sha256(canonical(body)).hexdigest()
    (gen / "manifest.json").write_bytes(canonical(manifest) + b"\n")


def _on_live(act: Callable[[Path, int], str]) -> Callable[[Path, int], str]:
    def run(root: Path, pick: int) -> str:
        live = _live(root) if root.is_dir() else None
        if live is None:
            return "no generation"
        return f"{live}: {act(root / live, pick)}"

    return run


def _truncate_manifest(gen: Path, pick: int) -> str:
    raw = (gen / "manifest.json").read_bytes()
    (gen / "manifest.json").write_bytes(raw[: pick % max(len(raw), 1)])
    return "manifest truncated"


def _edit_manifest(gen: Path, pick: int) -> str:
    """A manifest member edited, its checksum recomputed (pick even) or not."""
    manifest = _manifest(gen)
    member = ["turn_count", "generation", "identity", "turn_count"][pick // 2 % 4]
    value = manifest.get(member)
    manifest[member] = (value + 1) if isinstance(value, int) else ("0" * 64)
    if pick % 2 == 0:
        _write_manifest(gen, manifest)
    else:
        (gen / "manifest.json").write_bytes(canonical(manifest) + b"\n")
    return f"manifest {member} edited" + (", checksum recomputed" if pick % 2 == 0 else "")


def _schema_manifest(gen: Path, pick: int) -> str:
    manifest = _manifest(gen)
    manifest["schema_version"] = [6, 0, "5", 4][pick % 4]
    _write_manifest(gen, manifest)
    return f"schema_version {manifest['schema_version']!r}"


def _remove(name: str) -> Callable[[Path, int], str]:
    def act(gen: Path, pick: int) -> str:
        path = _data(gen) if name == "data" else gen / name
        if path.exists():
            path.unlink()
        return f"{path.name} removed"

    return act


def _corrupt_data(gen: Path, pick: int) -> str:
    path = _data(gen)
    return f"{path.name} {_flip(path, pick)}" if path.exists() else "no data file"


def _remove_generation(gen: Path, pick: int) -> str:
    shutil.rmtree(gen)
    return "removed"


def _remove_other_generation(root: Path, pick: int) -> str:
    live = _live(root) if root.is_dir() else None
    others = [g for g in (_generations(root) if root.is_dir() else []) if g != live]
    if not others:
        return "no other generation"
    victim = others[pick % len(others)]
    shutil.rmtree(root / victim)
    return f"{victim} removed"


def _current(root: Path, pick: int) -> str:
    if not root.is_dir():
        return "no directory"
    texts = [None, b"", b"gen-7\n", b"gen-00000001", b"gen-99999999\n", b"GEN-00000001\n"]
    text = texts[pick % len(texts)]
    path = root / "CURRENT"
    if text is None:
        if path.exists():
            path.unlink()
        return "CURRENT removed"
    path.write_bytes(text)
    return f"CURRENT {text!r}"


def _stray(root: Path, pick: int) -> str:
    root.mkdir(parents=True, exist_ok=True)
    strays = ["notes.txt", "staging-7", "CURRENT.tmp", "gen-00000000", "GEN-00000009", "gen-1"]
    name = strays[pick % len(strays)]
    if name.startswith("gen") or name.startswith("GEN") or name == "staging-7":
        (root / name).mkdir(exist_ok=True)
        (root / name / "core.jsonl").write_bytes(b"")
    else:
        (root / name).write_bytes(b"gen-00000001\n" if name == "CURRENT.tmp" else b"x\n")
    return f"{name} planted"


def _lock(root: Path, pick: int) -> str:
    root.mkdir(parents=True, exist_ok=True)
    text = [b"12345\n", b"", b"\xff\xfe"][pick % 3]
    (root / "LOCK").write_bytes(text)
    return f"LOCK {text!r} left"


def _journal(root: Path, pick: int) -> Path:
    return root / JOURNALS[pick % 3]


def _torn_journal(root: Path, pick: int) -> str:
    """The last line of a journal torn: cut short, or a frame appended without its end."""
    path = _journal(root, pick)
    if not path.exists() or pick // 3 % 2 == 0:
        root.mkdir(parents=True, exist_ok=True)
        whole = frame(canonical({"torn": pick}))
        with path.open("ab") as f:
            f.write(whole[: 5 + pick % (len(whole) - 6)])
        return f"{path.name}: a torn frame appended"
    raw = path.read_bytes()
    path.write_bytes(raw[: -1 - pick % 5] if len(raw) > 6 else b"0000")
    return f"{path.name}: last line cut"


def _corrupt_journal(root: Path, pick: int) -> str:
    """A corrupt line put in a journal: a flipped byte, a line with no header, an empty
    line, a frame whose payload is not a JSON object, an upper-case header."""
    path = _journal(root, pick)
    root.mkdir(parents=True, exist_ok=True)
    lines = path.read_bytes().splitlines(keepends=True) if path.exists() else []
    kind = pick // 3 % 6
    payloads = [b"[1]", b"NaN", b'"\\ud800"', b"null", b'{"a":1,"a":2}']
    if kind == 0 and lines:
        i = pick % len(lines)
        raw = bytearray(lines[i])
        raw[min(20, len(raw) - 2)] ^= 0x02
        lines[i] = bytes(raw)
        did = f"line {i + 1} flipped"
    elif kind == 1:
        lines.insert(pick % (len(lines) + 1), b"\n")
        did = "an empty line"
    elif kind == 2:
        lines.append(b"{}\n")
        did = "a line without a header"
    elif kind == 3:
        payload = payloads[pick % len(payloads)]
        lines.insert(pick % (len(lines) + 1), frame(payload))
        did = f"a frame holding {payload.decode()}"
    elif kind == 4:
        line = frame(b'{"x":"' + b"\xc3\xa9" * 3 + b'"}')
        lines.append(line.upper().replace(b'{"X":"', b'{"x":"'))
        did = "an upper-case header"
    else:
        good = frame(canonical({"k": "é"}))
        lines.append(
            good[:4] + b"0" + good[5:] if good[4:5] != b"0" else good[:4] + b"1" + good[5:]
        )
        did = "a wrong length"
    path.write_bytes(b"".join(lines))
    return f"{path.name}: {did}"


def _core_records(gen: Path) -> dict[tuple[str, str], bytes]:
    return {
        (rec["kind"], rec["key"]): line
        for line in (gen / "core.jsonl").read_bytes().splitlines(keepends=True)
        for rec in [json.loads(line)]
    }


def _delta_of_live(root: Path, pick: int) -> str:
    """The live full generation rewritten as a delta over an older full generation of
    schema 5 (a valid delta generation: same identity and turn count)."""
    live = _live(root) if root.is_dir() else None
    if live is None or not (root / live / "core.jsonl").exists():
        return "no full live generation"
    bases = [
        g
        for g in _generations(root)
        if g < live and (root / g / "core.jsonl").exists() and (root / g / "manifest.json").exists()
    ]
    if not bases:
        return "no base"
    base, gen = root / bases[pick % len(bases)], root / live
    try:
        manifest, base_manifest = _manifest(gen), _manifest(base)
        new, old = _core_records(gen), _core_records(base)
    except (ValueError, KeyError, TypeError):
        return "unreadable"
    if manifest.get("schema_version") != 5 or base_manifest.get("schema_version") != 5:
        return "not schema 5"
    if "base" in base_manifest:
        return "base is a delta"
    entries = []
    for key in sorted(set(new) | set(old), key=lambda k: (k[0].encode(), k[1].encode())):
        if key in new and new.get(key) != old.get(key):
            entries.append(b'{"op":"put","record":' + new[key].rstrip(b"\n") + b"}")
        elif key not in new:
            entries.append(canonical({"op": "delete", "key": key[1], "kind": key[0]}))
    delta = b"".join(frame(e) for e in entries)
    (gen / "delta.jsonl").write_bytes(delta)
    (gen / "core.jsonl").unlink()
    base_core = hashlib.sha256((base / "core.jsonl").read_bytes()).hexdigest()
    manifest["files"] = {"delta.jsonl": hashlib.sha256(delta).hexdigest()}
    manifest["base"] = {"core": base_core, "generation": int(base.name[4:])}
    _write_manifest(gen, manifest)
    return f"{live} made a delta over {base.name} ({len(entries)} entries)"


def _remove_base(root: Path, pick: int) -> str:
    """The base of a delta generation removed (or its core.jsonl)."""
    for gen in reversed(_generations(root) if root.is_dir() else []):
        try:
            base = _manifest(root / gen).get("base")
        except (OSError, ValueError):
            continue
        if isinstance(base, dict) and isinstance(base.get("generation"), int):
            victim = root / f"gen-{base['generation']:08d}"
            if pick % 2 and (victim / "core.jsonl").exists():
                (victim / "core.jsonl").unlink()
                return f"{victim.name}/core.jsonl removed (base of {gen})"
            shutil.rmtree(victim, ignore_errors=True)
            return f"{victim.name} removed (base of {gen})"
    return "no delta generation"


def _entries(delta: bytes) -> list[Json]:
    """The entries of a ``delta.jsonl`` (its frames checked by the caller's manifest)."""
    return [json.loads(line.split(b" ", 2)[2]) for line in delta.splitlines()]


def _full(root: Path, gen: str) -> int | None:
    """Rewrite delta generation *gen* as the full generation of the same records (same
    state, identity and turn count); the number of its base, or None when it is no valid
    delta this can read."""
    path = root / gen
    try:
        manifest = _manifest(path)
        base = root / f"gen-{manifest['base']['generation']:08d}"
        records = dict(_core_records(base))
        for entry in _entries((path / "delta.jsonl").read_bytes()):
            key = (
                (entry["record"]["kind"], entry["record"]["key"])
                if entry["op"] == "put"
                else (entry["kind"], entry["key"])
            )
            if entry["op"] == "put":
                records[key] = canonical(entry["record"]) + b"\n"
            else:
                records.pop(key, None)
    except (OSError, ValueError, KeyError, TypeError, IndexError):
        return None
    order = sorted(records, key=lambda k: (k[0].encode(), k[1].encode()))
    core = b"".join(records[k] for k in order)
    (path / "core.jsonl").write_bytes(core)
    (path / "delta.jsonl").unlink()
    number = int(manifest.pop("base")["generation"])
    manifest["files"] = {"core.jsonl": hashlib.sha256(core).hexdigest()}
    _write_manifest(path, manifest)
    return number


def full_generations(root: Path) -> None:
    """Every delta generation rewritten as a full one, and each base it needed removed
    unless it is the live generation or the newest one below it: what an engine that
    writes only full generations (FREE-024) would leave, so that damage meets the same
    entries in both engines' directories."""
    if not root.is_dir():
        return
    bases = {
        n
        for gen in _generations(root)
        if (root / gen / "delta.jsonl").exists()
        for n in [_full(root, gen)]
        if n is not None
    }
    live = _live(root)
    below = [g for g in _generations(root) if live is not None and g < live]
    keep = {live, below[-1] if below else None}
    for n in bases:
        if f"gen-{n:08d}" not in keep:
            shutil.rmtree(root / f"gen-{n:08d}", ignore_errors=True)


DAMAGE: dict[str, Callable[[Path, int], str]] = {
    "manifest_truncated": _on_live(_truncate_manifest),
    "manifest_edited": _on_live(_edit_manifest),
    "manifest_schema": _on_live(_schema_manifest),
    "manifest_removed": _on_live(_remove("manifest.json")),
    "data_removed": _on_live(_remove("data")),
    "data_corrupt": _on_live(_corrupt_data),
    "generation_removed": _on_live(_remove_generation),
    "other_generation_removed": _remove_other_generation,
    "current": _current,
    "stray": _stray,
    "lock_left": _lock,
    "journal_torn": _torn_journal,
    "journal_corrupt": _corrupt_journal,
    "delta": _delta_of_live,
    "base_removed": _remove_base,
}


def damage(directory: str, name: str, pick: int) -> Json:
    """Apply damage *name* to *directory*; the pseudo-response of the step."""
    root = Path(directory)
    if name != "base_removed":
        full_generations(root)
    before = layout(root)
    try:
        did = DAMAGE[name](root, pick)
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
        did = f"nothing done: {type(exc).__name__}"
    return {"ok": True, "result": {"damage": name, "did": did, "layout": before}}
