"""Checks run in another order than the docs state: each engine is right on one fault alone
and answers for the wrong one of two."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from reference.canonical import canonical_json
from reference.protocol.args import index_arg, object_arg, string_arg
from reference.protocol.envelope import OpSpec, bad_arg, check_arg_names, refuse
from reference.registers.model import REQUIRED_FIELDS, SEAL_FIELD, RegisterPack
from reference.registers.validate import fail
from reference.serve import ProtocolHandler


class SessionBeforeText(ProtocolHandler):
    """session.chat looks the session up before it checks that text is a string."""

    def op_session_chat(self, args: dict[str, Any]) -> dict[str, Any]:
        runtime = self.session(string_arg(args, "session"))
        return self.chat(runtime, string_arg(args, "text"))


class SessionBeforeMissingText(ProtocolHandler):
    """session.chat checks its arguments in its own order: the session (looked up) before
    whether text is there at all."""

    def dispatch(self, request: object) -> dict[str, Any]:
        if isinstance(request, dict) and request.get("op") == "session.chat":
            args = request.get("args")
            if isinstance(args, dict) and "text" not in args:
                self.session(string_arg(args, "session"))
        return super().dispatch(request)


class MissingBeforeUnknown(ProtocolHandler):
    """Missing argument names are reported before unknown ones."""

    def dispatch(self, request: object) -> dict[str, Any]:
        if isinstance(request, dict) and isinstance(request.get("args"), dict):
            spec = self.ops.get(request.get("op"))  # type: ignore[arg-type]
            if isinstance(spec, OpSpec):
                for name in spec.required:
                    if name not in request["args"]:
                        bad_arg(name, f"missing argument {name!r}")
                check_arg_names(spec, request["args"])
        return super().dispatch(request)


class RegisterBeforeFiles(ProtocolHandler):
    """session.open loads the register before it checks its files argument."""

    def op_session_open(self, args: dict[str, Any]) -> dict[str, Any]:
        register_id = args.get("register_id")
        if isinstance(register_id, str) and "files" in args:
            self.new_runtime(register_id, ())
        return super().op_session_open(args)


class InUseBeforeFiles(ProtocolHandler):
    """session.open refuses a store a session lives on (STATE_IN_USE) before it checks its
    files argument."""

    def op_session_open(self, args: dict[str, Any]) -> dict[str, Any]:
        store = args.get("store")
        if isinstance(store, str) and store in self.lives:
            refuse("STATE_IN_USE", f"store {store!r} carries a life", "store")
        return super().op_session_open(args)


class StoreBeforeProposal(ProtocolHandler):
    """state.propose looks the store up before it checks that the proposal is an object."""

    def op_state_propose(self, args: dict[str, Any]) -> dict[str, Any]:
        return self._store_for(args).propose(object_arg(args, "proposal"))

    def _store_for(self, args: dict[str, Any]) -> Any:
        return self.store(string_arg(args, "store"))


class SoakOpensFirst(ProtocolHandler):
    """state.soak opens its store (lock, lineage) before it checks iterations and seed."""

    def op_state_soak(self, args: dict[str, Any]) -> dict[str, Any]:
        directory = args.get("dir")
        if isinstance(directory, str) and directory:
            opened = self.store_class().open(Path(directory))
            try:
                index_arg(args, "iterations")
                index_arg(args, "seed")
            finally:
                opened.close()
        return super().op_state_soak(args)


class MissingFieldsSorted(ProtocolHandler):
    """Missing pack fields are reported in sorted order, not in REQUIRED_FIELDS order."""

    def validate_pack(self, pack: dict[str, Any], expected_id: str | None) -> RegisterPack:
        for name in sorted(REQUIRED_FIELDS):
            if name not in pack:
                fail("REGISTER_MISSING_FIELD", f"required field {name!r} is missing", name)
        return super().validate_pack(pack, expected_id)


class SealTypeLast(ProtocolHandler):
    """mastery_report_sha256 is checked to be a string after the rest of the structure, not
    at step 4 with the other string members."""

    def validate_pack(self, pack: dict[str, Any], expected_id: str | None) -> RegisterPack:
        seal = pack.get(SEAL_FIELD, "") if isinstance(pack, dict) else ""
        if isinstance(seal, str):
            return super().validate_pack(pack, expected_id)
        super().validate_pack({**pack, SEAL_FIELD: ""}, expected_id)
        fail("REGISTER_MALFORMED", f"field {SEAL_FIELD!r} must be a string", SEAL_FIELD)


class SealBeforeStructure(ProtocolHandler):
    """register.load checks that a pack is ratified before it checks the pack's structure."""

    def load_pack(self, register_id: str, search_path: tuple[Path, ...]) -> RegisterPack:
        for directory in search_path:
            path = directory / f"{register_id}.json"
            if path.is_file():
                try:
                    document = json.loads(path.read_text(encoding="utf-8"))
                except ValueError:
                    break
                if isinstance(document, dict) and not document.get(SEAL_FIELD):
                    fail("REGISTER_NOT_RATIFIED", "the pack was never ratified", SEAL_FIELD)
                break
        return super().load_pack(register_id, search_path)


class NullRuleFirst(ProtocolHandler):
    """register.ratify applies the null rule before the pack's structural checks."""

    def op_register_ratify(self, args: dict[str, Any]) -> dict[str, Any]:
        pack = args.get("pack")
        if isinstance(pack, dict) and not pack.get("realizer_overrides"):
            markers = pack.get("discourse_markers")
            buckets = markers if isinstance(markers, dict) else {}
            empty = not buckets.get("openings") and not buckets.get("closings")
            if empty and pack.get("depth_preference") != "standard":
                fail("REGISTER_EMPTY_NON_NULL", "a null pack must be standard", "depth_preference")
        return super().op_register_ratify(args)


class ChecksumBeforeSchema(ProtocolHandler):
    """state.load verifies each manifest's checksum before it reads the schema version."""

    def op_state_load(self, args: dict[str, Any]) -> dict[str, Any]:
        directory = args.get("dir")
        if isinstance(directory, str) and directory:
            for manifest in sorted(Path(directory).glob("gen-*/manifest.json")):
                try:
                    document = json.loads(manifest.read_text("utf-8"))
                    body = {k: v for k, v in document.items() if k != "checksum"}
                    seal = hashlib.sha256(canonical_json(body).encode()).hexdigest()
                except (OSError, ValueError, AttributeError):
                    continue
                if document.get("checksum") != seal:
                    refuse("STATE_CORRUPT", f"{manifest}: checksum does not match", None)
        return super().op_state_load(args)


class MissingArgsLastFirst(ProtocolHandler):
    """Of several missing arguments, the last the op lists is named, not the first."""

    def dispatch(self, request: object) -> dict[str, Any]:
        if isinstance(request, dict) and isinstance(request.get("args"), dict):
            spec = self.ops.get(request.get("op"))  # type: ignore[arg-type]
            if isinstance(spec, OpSpec) and all(n in spec.required for n in request["args"]):
                for name in reversed(spec.required):
                    if name not in request["args"]:
                        bad_arg(name, f"missing argument {name!r}")
        return super().dispatch(request)


class RotorBivectorFirst(ProtocolHandler):
    """algebra.rotor refuses a bivector it cannot use before it checks the angle."""

    def op_algebra_rotor(self, args: dict[str, Any]) -> dict[str, Any]:
        from reference.algebra import rotor
        from reference.protocol.algebra_ops import multivector_arg

        try:
            rotor(multivector_arg(args, "bivector"), 1.0)
        except ValueError as exc:
            bad_arg("bivector", str(exc))
        return super().op_algebra_rotor(args)


class MutationsBeforeStore(ProtocolHandler):
    """state.apply checks the batch's mutations before it looks the store up."""

    def op_state_apply(self, args: dict[str, Any]) -> dict[str, Any]:
        from reference.state.mutations import apply_mutations

        if isinstance(args.get("mutations"), list):
            apply_mutations({}, 0, args["mutations"])
        return super().op_state_apply(args)


class LastBadMutationNamed(ProtocolHandler):
    """Of several bad mutations, the last is named."""

    def op_state_apply(self, args: dict[str, Any]) -> dict[str, Any]:
        from reference.state.mutations import check_mutation

        mutations = args.get("mutations")
        if isinstance(mutations, list) and isinstance(args.get("store"), str):
            self.store(args["store"])
            for index in reversed(range(len(mutations))):
                check_mutation(mutations[index], index)
        return super().op_state_apply(args)


_GOOD_RECORD = {"kind": "recognizer", "key": "k", "pattern": "p", "weight": 1}
"""A well-formed record, standing in for a put's own while its shape alone is checked."""


class ShapesBeforeRecords(ProtocolHandler):
    """Every mutation's op and members are checked before any put's record, so a later
    mutation's bad op is named before an earlier put's malformed record."""

    def op_state_apply(self, args: dict[str, Any]) -> dict[str, Any]:
        from reference.state.mutations import check_mutation

        mutations = args.get("mutations")
        if isinstance(mutations, list) and isinstance(args.get("store"), str):
            self.store(args["store"])
            for index, mutation in enumerate(mutations):
                if isinstance(mutation, dict) and "record" in mutation:
                    mutation = {**mutation, "record": _GOOD_RECORD}
                check_mutation(mutation, index)
        return super().op_state_apply(args)


class DeletesBeforePuts(ProtocolHandler):
    """The deletes of a batch are checked before its puts."""

    def op_state_apply(self, args: dict[str, Any]) -> dict[str, Any]:
        from reference.state.mutations import check_mutation

        mutations = args.get("mutations")
        if isinstance(mutations, list) and isinstance(args.get("store"), str):
            self.store(args["store"])
            for index, mutation in enumerate(mutations):
                if isinstance(mutation, dict) and mutation.get("op") == "delete":
                    check_mutation(mutation, index)
        return super().op_state_apply(args)
