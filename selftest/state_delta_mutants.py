"""Broken engines that read delta generations wrong (docs/state.md § Delta generations):
one loads a delta generation's base without its delta, one applies the delta to the newest
full generation below it instead of the base it names, one prunes a base the previous live
generation needs, one trusts a base whose core is not the SHA-256 the manifest names, and one
takes a malformed entry for damage and falls back; one takes a base later than the delta
itself, one hashes each line's hex digest into the identity, and one takes a base it cannot
read for an invalid one and falls back. Others read a delta's entries or base member wrong:
deletes or entry members unchecked, keys bounded in UTF-16 units, a delete of an absent pair
or a put of an unchanged record refused, a base whose checksum fails used, a base member with
further members taken. ``STATE-DELTA-351`` to ``-355`` fail on each.
"""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any
from unittest import mock

from reference.canonical import sha256_hex
from reference.serve import ProtocolHandler
from reference.state import (
    FileOps,
    LoadedState,
    StateError,
    StateStore,
    commit,
    decode_core,
    delta,
    manifest,
)
from reference.state.core import identity
from reference.state.layout import CORE, gen_name, gen_number
from reference.state.records import CURRENT_SCHEMA_VERSION, MAX_KEY_LENGTH, malformed

real_check_base = manifest.check_base
real_read_base = manifest.read_base
real_prune = commit.prune


def _base_records(base: manifest.Generation, data: bytes, version: int) -> Mapping[Any, Any]:
    """A delta generation's records taken as its base's: the delta is never applied."""
    return base.records if base.records is not None else decode_core(base.core, version)


def _newest_full_below(directory: Path, base: manifest.Base, fs: FileOps) -> manifest.Generation:
    """The newest generation below the delta that holds a core, taken for its base, its
    core's hash unchecked."""
    number = gen_number(directory.name) or 0
    for below in range(number - 1, 0, -1):
        path = directory.parent / gen_name(below)
        if fs.entry_kind(path / CORE, reading=True) == "file":
            return manifest.check_generation(path, fs)
    return real_check_base(directory, base, fs)


def _hash_trusted(directory: Path, base: manifest.Base, fs: FileOps) -> manifest.Generation:
    """The base the manifest names, whatever the SHA-256 of its core."""
    data = fs.read_file(directory.parent / gen_name(base.generation) / CORE)
    core = base.core if data is None else sha256_hex(data)
    return real_check_base(directory, manifest.Base(base.generation, core), fs)


def _any_schema_base(directory: Path, base: manifest.Base, fs: FileOps) -> manifest.Generation:
    """The base the manifest names, a full generation of any schema version taken."""
    with mock.patch.object(manifest, "DELTA_SINCE", 1):
        return real_check_base(directory, base, fs)


def _malformed_as_damage(base: Mapping[Any, Any], data: bytes, version: int) -> Any:
    """The delta applied, a malformed entry taken for a damaged frame."""
    try:
        return delta.apply_delta(base, data, version)
    except StateError as refusal:
        raise delta.DeltaDamaged(str(refusal)) from refusal


def _loading_with(name: str, replacement: Callable[..., Any]) -> type[StateStore]:
    class Store(StateStore):
        @classmethod
        def load(cls, fs: FileOps) -> LoadedState:
            with mock.patch.object(manifest, name, replacement):
                return super().load(fs)

    return Store


class _BasePrunedStore(StateStore):
    def prune(self, generation: int) -> None:
        def without_bases(fs: FileOps, *, keep: object = (), **rest: Any) -> None:
            real_prune(fs, **rest)

        with mock.patch.object(commit, "prune", without_bases):
            super().prune(generation)


class DeltaIgnored(ProtocolHandler):
    """A delta generation is loaded as its base: its delta is never applied."""

    def store_class(self) -> type[StateStore]:
        return _loading_with("delta_records", _base_records)


class DeltaOnWrongBase(ProtocolHandler):
    """A delta is applied to the newest full generation below it, not the base it names."""

    def store_class(self) -> type[StateStore]:
        return _loading_with("check_base", _newest_full_below)


class DeltaBasePruned(ProtocolHandler):
    """Commit step 6 keeps only the new and the previous live generation, not the base the
    previous live one names."""

    def store_class(self) -> type[StateStore]:
        return _BasePrunedStore


class DeltaBaseHashTrusted(ProtocolHandler):
    """A delta's base is loaded whatever the SHA-256 of its core, not checked against the
    hash the manifest names."""

    def store_class(self) -> type[StateStore]:
        return _loading_with("check_base", _hash_trusted)


class DeltaMalformedAsDamage(ProtocolHandler):
    """An entry of a delta whose frame checks but that is malformed is taken for damage: the
    load falls back instead of refusing with ``STATE_RECORD_MALFORMED``."""

    def store_class(self) -> type[StateStore]:
        return _loading_with("apply_delta", _malformed_as_damage)


def _later_base_allowed(manifest_body: dict[str, Any], version: int) -> manifest.Base | None:
    """The base a manifest names, a generation at or past the manifest's own taken too."""
    if "base" not in manifest_body:
        return None
    body = dict(manifest_body)
    body["generation"] = max(body["generation"], body["base"].get("generation", 0) + 1)
    return real_read_base(body, version)


class _HexLineDigestStore(StateStore):
    def _identity(self, core: bytes) -> str:
        lines = core.splitlines(keepends=True)
        digests = b"".join(hashlib.sha256(line).hexdigest().encode("ascii") for line in lines)
        return sha256_hex(b"core-state/%d\n" % CURRENT_SCHEMA_VERSION + digests)


class DeltaLaterBaseAllowed(ProtocolHandler):
    """A delta's base is taken whatever its number, a generation later than the delta's own
    too."""

    def store_class(self) -> type[StateStore]:
        return _loading_with("read_base", _later_base_allowed)


class IdentityOfHexLineDigests(ProtocolHandler):
    """The identity hashes each line's hex digest (64 ASCII bytes), not its 32 raw bytes."""

    def store_class(self) -> type[StateStore]:
        return _HexLineDigestStore


class DeltaBaseAnySchema(ProtocolHandler):
    """A delta's base may be a full generation of schema version 1 to 4."""

    def store_class(self) -> type[StateStore]:
        return _loading_with("check_base", _any_schema_base)


def _unreadable_base_invalid(
    directory: Path, base: manifest.Base, fs: FileOps
) -> manifest.Generation:
    """The base the manifest names; one that cannot be read is taken for an invalid one."""
    try:
        return real_check_base(directory, base, fs)
    except StateError as refusal:
        raise manifest.InvalidGeneration(f"its base cannot be read: {refusal}") from refusal


class DeltaUnreadableBaseInvalid(ProtocolHandler):
    """A delta whose base cannot be read is proven invalid (a fall back), not
    ``STATE_UNREADABLE``."""

    def store_class(self) -> type[StateStore]:
        return _loading_with("check_base", _unreadable_base_invalid)


class _HeldDeltaBasesPrunedStore(StateStore):
    def prune(self, generation: int) -> None:
        def no_floor(*args: Any, **kwargs: Any) -> int:
            return 0

        with mock.patch.object(commit, "max", no_floor, create=True):
            super().prune(generation)


class HeldDeltaBasesPruned(ProtocolHandler):
    """Step 6 keeps a generation holding a delta that it cannot prove valid, but prunes the
    full generations below it, one of which may be its base."""

    def store_class(self) -> type[StateStore]:
        return _HeldDeltaBasesPrunedStore


def _frames(data: bytes) -> list[tuple[bytes, dict[str, Any]]]:
    """Each frame of *data* (with its newline) and its entry."""
    lines = [line + b"\n" for line in data.split(b"\n")[:-1]]
    return [(line, delta.frame_entries(line)[0]) for line in lines]


def _bad_delete(entry: dict[str, Any]) -> bool:
    kind, key = entry.get("kind"), entry.get("key")
    known = kind in ("candidate", "life", "recognizer", "session", "vault")
    return not known or not isinstance(key, str) or not 0 < len(key) <= MAX_KEY_LENGTH


def _deletes_skipped(base: Mapping[Any, Any], data: bytes, version: int) -> Any:
    """The delta applied without the deletes that name an unknown kind or a malformed key."""
    kept = [
        line
        for line, entry in _frames(data)
        if not (entry.get("op") == "delete" and set(entry) == {"op", "kind", "key"})
        or not _bad_delete(entry)
    ]
    return delta.apply_delta(base, b"".join(kept), version)


def _members_by_op(base: Mapping[Any, Any], data: bytes, version: int) -> Any:
    """Each entry's members read by its op alone (a missing one fails inside the engine),
    then the delta applied."""
    for _, entry in _frames(data):
        if entry.get("op") == "put":
            entry["record"]
        elif entry.get("op") == "delete":
            entry["kind"], entry["key"]
    return delta.apply_delta(base, data, version)


def _keys_in_utf16_units(base: Mapping[Any, Any], data: bytes, version: int) -> Any:
    """A key longer than 128 UTF-16 units refused, then the delta applied."""
    for number, (_, entry) in enumerate(_frames(data), start=1):
        record = entry.get("record")
        key = record.get("key") if isinstance(record, dict) else entry.get("key")
        if isinstance(key, str) and len(key.encode("utf-16-le")) // 2 > MAX_KEY_LENGTH:
            raise malformed(f"delta.jsonl entry {number}: key past 128 UTF-16 units", "key")
    return delta.apply_delta(base, data, version)


def _only_changes(base: Mapping[Any, Any], data: bytes, version: int, *, deletes: bool) -> Any:
    """The delta applied after refusing, as the writer never writes them, deletes of pairs
    the base lacks (*deletes*) or puts of records the base holds as they are."""
    records = delta.apply_delta(base, data, version)
    for number, (_, entry) in enumerate(_frames(data), start=1):
        if deletes and entry["op"] == "delete" and (entry["kind"], entry["key"]) not in base:
            raise malformed(f"delta.jsonl entry {number} deletes an absent record", "key")
        if not deletes and entry["op"] == "put":
            key = (entry["record"]["kind"], entry["record"]["key"])
            if base.get(key) == records.get(key):
                raise malformed(f"delta.jsonl entry {number} puts an unchanged record", "record")
    return records


class DeltaDeletesUnchecked(ProtocolHandler):
    """A delta's delete naming an unknown kind or a key that is empty, past 128 code points
    or not a string is skipped, not STATE_RECORD_MALFORMED."""

    def store_class(self) -> type[StateStore]:
        return _loading_with("apply_delta", _deletes_skipped)


class DeltaEntryMembersByOp(ProtocolHandler):
    """A delta entry's members are read by its op alone: a put without its record or a
    delete without its kind or key fails inside the engine, not STATE_RECORD_MALFORMED."""

    def store_class(self) -> type[StateStore]:
        return _loading_with("apply_delta", _members_by_op)


class DeltaKeysInUtf16Units(ProtocolHandler):
    """A delta entry's key is bounded at 128 UTF-16 units, not 128 code points."""

    def store_class(self) -> type[StateStore]:
        return _loading_with("apply_delta", _keys_in_utf16_units)


class DeltaAbsentDeleteRefused(ProtocolHandler):
    """A delta's delete of a pair the base does not hold is STATE_RECORD_MALFORMED."""

    def store_class(self) -> type[StateStore]:
        def refusing(base: Mapping[Any, Any], data: bytes, version: int) -> Any:
            return _only_changes(base, data, version, deletes=True)

        return _loading_with("apply_delta", refusing)


class DeltaUnchangedPutRefused(ProtocolHandler):
    """A delta's put of a record the base holds as it is is STATE_RECORD_MALFORMED."""

    def store_class(self) -> type[StateStore]:
        def refusing(base: Mapping[Any, Any], data: bytes, version: int) -> Any:
            return _only_changes(base, data, version, deletes=False)

        return _loading_with("apply_delta", refusing)


def _base_core_only(directory: Path, base: manifest.Base, fs: FileOps) -> manifest.Generation:
    """The base the manifest names; one that is not valid is still used when its
    ``core.jsonl`` has the SHA-256 named (its own manifest never read)."""
    try:
        return real_check_base(directory, base, fs)
    except manifest.InvalidGeneration:
        data = fs.read_file(directory.parent / gen_name(base.generation) / CORE)
        if data is None or sha256_hex(data) != base.core:
            raise
        return manifest.Generation(base.generation, CURRENT_SCHEMA_VERSION, 0, "", data)


def _base_members_loose(body: dict[str, Any], version: int) -> manifest.Base | None:
    """The base a manifest names, members other than core and generation ignored."""
    base = body.get("base")
    if isinstance(base, dict):
        body = {**body, "base": {k: v for k, v in base.items() if k in ("core", "generation")}}
    return real_read_base(body, version)


class DeltaBaseValidityUnchecked(ProtocolHandler):
    """A delta's base that is not valid is used when its core has the hash the delta names."""

    def store_class(self) -> type[StateStore]:
        return _loading_with("check_base", _base_core_only)


class _DeltaIdentityTrustedStore(StateStore):
    """Each manifest read pushes the identity it names when it is a delta's (None for a full
    generation's); the identity check that follows pops it, and a delta's is taken as it is."""

    @classmethod
    def load(cls, fs: FileOps) -> LoadedState:
        named: list[str | None] = []

        def reading_base(body: dict[str, Any], version: int) -> manifest.Base | None:
            base = real_read_base(body, version)
            named.append(None if base is None else body.get("identity"))
            return base

        def trusted(version: int, data: bytes) -> str:
            found = named.pop() if named else None
            return found if found is not None else identity(version, data)

        with (
            mock.patch.object(manifest, "read_base", reading_base),
            mock.patch.object(manifest, "identity", trusted),
        ):
            return super().load(fs)


class DeltaIdentityTrusted(ProtocolHandler):
    """A delta generation whose entries give another state than its manifest's identity is
    loaded as valid, with the manifest's identity (only a full generation's is checked)."""

    def store_class(self) -> type[StateStore]:
        return _DeltaIdentityTrustedStore


class DeltaBaseMembersLoose(ProtocolHandler):
    """A delta's base member may hold members beside core and generation."""

    def store_class(self) -> type[StateStore]:
        return _loading_with("read_base", _base_members_loose)


def _base_members_in_order(body: dict[str, Any], version: int) -> manifest.Base | None:
    """The base a manifest names, its member names compared in the order they were written
    (the Node port's sort dropped): ``{"generation":1,"core":...}`` is not an object of core
    and generation."""
    base = body.get("base")
    if isinstance(base, dict) and list(base) != ["core", "generation"]:
        raise manifest.InvalidGeneration(
            "manifest.json base is not an object of core and generation"
        )
    return real_read_base(body, version)


class DeltaBaseMembersInOrder(ProtocolHandler):
    """A delta's base member must write core before generation."""

    def store_class(self) -> type[StateStore]:
        return _loading_with("read_base", _base_members_in_order)


def _base_zero_allowed(body: dict[str, Any], version: int) -> manifest.Base | None:
    """The base a manifest names; generation 0 passes the at-least-1 test (the Node port's
    malformed-base test dropped)."""
    base = body.get("base")
    if isinstance(base, dict) and type(base.get("generation")) is int and base["generation"] == 0:
        found = real_read_base({**body, "base": {**base, "generation": 1}}, version)
        return None if found is None else dataclasses.replace(found, generation=0)
    return real_read_base(body, version)


def _number_of_any_name(name: str) -> int | None:
    """The number a generation directory's name holds, ``gen-00000000`` giving 0."""
    return int(name[4:]) if len(name) == 12 and name[:4] == "gen-" and name[4:].isdigit() else None


class DeltaBaseZeroAllowed(ProtocolHandler):
    """A delta's base may be numbered 0: ``gen-00000000`` is read as its base, checked
    against the number the base member gives, not its directory's name."""

    def store_class(self) -> type[StateStore]:
        class Store(StateStore):
            @classmethod
            def load(cls, fs: FileOps) -> LoadedState:
                with (
                    mock.patch.object(manifest, "read_base", _base_zero_allowed),
                    mock.patch.object(manifest, "gen_number", _number_of_any_name),
                ):
                    return super().load(fs)

        return Store


def _linked_base_missing(directory: Path, base: manifest.Base, fs: FileOps) -> manifest.Generation:
    """The base the manifest names; a base directory that is a symbolic link is taken for a
    missing base (the delta is proven invalid, the load falls back)."""
    path = directory.parent / gen_name(base.generation)
    if fs.entry_kind(path, reading=True) == "link":
        raise manifest.InvalidGeneration(f"its base {path.name} does not exist")
    return real_check_base(directory, base, fs)


def _linked_base_invalid(directory: Path, base: manifest.Base, fs: FileOps) -> manifest.Generation:
    """The base the manifest names; a link met reading it (its directory, core or manifest)
    makes the base invalid, so the load falls back instead of refusing."""
    try:
        return real_check_base(directory, base, fs)
    except StateError as refusal:
        if refusal.code != "STATE_SYMLINK":
            raise
        raise manifest.InvalidGeneration(f"its base is a link: {refusal}") from refusal


class DeltaLinkedBaseMissing(ProtocolHandler):
    """A delta's base directory that is a symbolic link is taken for a missing base."""

    def store_class(self) -> type[StateStore]:
        return _loading_with("check_base", _linked_base_missing)


class DeltaLinkedBaseInvalid(ProtocolHandler):
    """A symbolic link met reading a delta's base makes the base invalid (a fall back), not
    STATE_SYMLINK."""

    def store_class(self) -> type[StateStore]:
        return _loading_with("check_base", _linked_base_invalid)
