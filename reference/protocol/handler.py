"""``ProtocolHandler``: answers parsed ``core-engine/1`` requests, one method per op."""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import reference
from reference.canonical import pretty_json
from reference.errors import EngineError
from reference.protocol.algebra_ops import ALGEBRA_CAPABILITIES, ALGEBRA_OPS, AlgebraOps
from reference.protocol.args import (
    decoration_seed_arg,
    encode_file,
    files_arg,
    intent_arg,
    markers_arg,
    nullable_string_arg,
    object_arg,
    op_directory,
    staged_files,
    string_arg,
    string_list,
)
from reference.protocol.envelope import (
    PROTOCOL,
    SESSION_UNKNOWN,
    UNKNOWN_OP,
    OpSpec,
    bad_arg,
    check_arg_names,
    echo_id,
    encode_response,
    engine_error_response,
    internal_error_response,
    ok_response,
    parse_line,
    read_envelope,
    refuse,
)
from reference.protocol.fork_ops import FORK_CAPABILITIES, FORK_OPS, ForkOps
from reference.protocol.state_ops import STATE_CAPABILITIES, STATE_OPS, StateOps
from reference.realize.steps import TurnSteps

if TYPE_CHECKING:
    from reference.registers.loader import PackLoader
    from reference.registers.model import RegisterPack
    from reference.registers.ratify import Ratifier
    from reference.runtime import ChatRuntime
    from reference.state import StateStore

CAPABILITIES = (
    "batch",
    "lexicon",
    "overrides",
    "registers.load",
    "registers.ratify",
    "registers.ratify_file",
    "registers.validate",
    "sessions",
    "variation",
    "answers",
    *STATE_CAPABILITIES,
    "state.life",
    "state.delta",
    *ALGEBRA_CAPABILITIES,
    *FORK_CAPABILITIES,
)

OPS: Mapping[str, OpSpec] = {
    "hello": OpSpec("op_hello"),
    "lexicon.list": OpSpec("op_lexicon_list"),
    "register.validate": OpSpec("op_register_validate", ("pack",), ("expected_id",)),
    "register.ratify": OpSpec("op_register_ratify", ("pack",)),
    "register.ratify_file": OpSpec("op_register_ratify_file", ("path",)),
    "register.load": OpSpec("op_register_load", ("register_id", "files")),
    "variation.select": OpSpec(
        "op_variation_select", ("bucket", "trace_hash", "register_id", "turn_idx", "bucket_name")
    ),
    "variation.decorate": OpSpec(
        "op_variation_decorate",
        ("surface", "discourse_markers", "register_id", "trace_hash", "turn_idx"),
    ),
    "overrides.resolve": OpSpec("op_overrides_resolve", ("realizer_overrides", "intent")),
    "session.open": OpSpec("op_session_open", ("register_id",), ("files", "store")),
    "session.chat": OpSpec("op_session_chat", ("session", "text")),
    "session.close": OpSpec("op_session_close", ("session",)),
    "batch": OpSpec("op_batch", ("requests",)),
    **STATE_OPS,
    **ALGEBRA_OPS,
    **FORK_OPS,
}


class ProtocolHandler(ForkOps, StateOps, AlgebraOps, TurnSteps):
    """Answers ``core-engine/1`` requests; each op is one overridable ``op_<name>`` method.

    Sessions live as long as the handler. Subclasses may override an op, one of the
    engine hooks the ops call (``validate_pack``, ``ratify_pack``, ``load_pack``,
    ``new_runtime``, ``chat``, and the ``StateOps`` hooks), or set ``ratifier`` or
    ``pack_loader`` to one with a step replaced. The handler is the steps object of
    every chat runtime it opens, so a :class:`~reference.realize.steps.TurnSteps` hook
    it replaces (``select_index``, ``join``, ``variant_id``, ``decorate``,
    ``resolve_overrides``, ``realize_turn``, ``decoration_seed``) changes its op and the
    chat turn alike.
    """

    ops: Mapping[str, OpSpec] = OPS

    def __init__(self) -> None:
        super().__init__()
        self.sessions: dict[str, ChatRuntime] = {}
        self.sessions_opened = 0
        self.lives: dict[str, str] = {}
        """Per store handle, the session that carries its life."""

    @functools.cached_property
    def ratifier(self) -> Ratifier:
        """Ratifies for ``register.ratify``; a broken engine gives one with a step replaced."""
        from reference.registers.ratify import Ratifier

        return Ratifier()

    @functools.cached_property
    def pack_loader(self) -> PackLoader:
        """Loads for ``register.load``; a broken engine gives one with a step replaced."""
        from reference.registers.loader import PackLoader

        return PackLoader()

    def handle(self, request: object) -> dict[str, Any]:
        """Answer one parsed request with a response dict; never raises."""
        try:
            result = self.dispatch(request)
        except EngineError as exc:
            return engine_error_response(request, exc)
        except Exception as exc:
            return internal_error_response(request, exc)
        return ok_response(echo_id(request), result)

    def handle_line(self, line: str | bytes) -> str:
        """Answer one request line (str, or bytes taken as UTF-8) with a response line."""
        try:
            request = parse_line(line)
        except EngineError as exc:
            return encode_response(engine_error_response(None, exc))
        return encode_response(self.handle(request))

    def dispatch(self, request: object) -> dict[str, Any]:
        """Check the envelope and the argument names, then run the op's method."""
        op, args = read_envelope(request)
        spec = self.ops.get(op)
        if spec is None:
            refuse(UNKNOWN_OP, f"unknown op {op!r}", "op")
        check_arg_names(spec, args)
        self.current_id = echo_id(request)
        answer: Callable[[dict[str, Any]], dict[str, Any]] = getattr(self, spec.method)
        return answer(args)

    # Ops -------------------------------------------------------------------------------------

    def op_hello(self, args: dict[str, Any]) -> dict[str, Any]:
        """The protocol, the engine's name and version, and its sorted capabilities."""
        capabilities = sorted(self.capabilities())
        return {"protocol": PROTOCOL, "engine": self.engine_info(), "capabilities": capabilities}

    def op_lexicon_list(self, args: dict[str, Any]) -> dict[str, Any]:
        """Every lemma, sorted by lemma text."""
        return {"lemmas": sorted(self.lexicon_rows(), key=lambda row: row["lemma"])}

    def op_register_validate(self, args: dict[str, Any]) -> dict[str, Any]:
        """Structural validation of a pack object; the id it declares."""
        pack = object_arg(args, "pack")
        expected_id = nullable_string_arg(args, "expected_id")
        return {"register_id": self.validate_pack(pack, expected_id).register_id}

    def op_register_ratify(self, args: dict[str, Any]) -> dict[str, Any]:
        """Ratify a copy of the pack in a fresh directory; return both files and the report."""
        from reference.registers.seal import report_path_for

        pack = object_arg(args, "pack")
        register_id = self.validate_pack(pack, None).register_id
        with op_directory("core-ratify-") as directory:
            path = directory / f"{register_id}.json"
            path.write_text(pretty_json(pack), encoding="utf-8")
            report = self.ratify_pack(path)
            files = {item.name: encode_file(item) for item in (path, report_path_for(path))}
        return {"files": files, "report": report}

    def op_register_ratify_file(self, args: dict[str, Any]) -> dict[str, Any]:
        """Ratify the pack file at ``path`` in place, committing the pair atomically."""
        path = string_arg(args, "path")
        if "\x00" in path:
            bad_arg("path", "argument 'path' holds a NUL: no file has such a name")
        return {"report": self.ratify_pack(Path(path))}

    def op_register_load(self, args: dict[str, Any]) -> dict[str, Any]:
        """Load a ratified pack from the given files (then the shipped packs)."""
        register_id = string_arg(args, "register_id")
        files = files_arg(args, "files")
        with staged_files(files) as directory:
            pack = self.load_pack(register_id, (directory,))
        return {"pack": pack.as_json()}

    def op_variation_select(self, args: dict[str, Any]) -> dict[str, Any]:
        """The seeded choice from one marker bucket: its entry and index."""
        bucket = string_list(args.get("bucket"), "bucket", "argument 'bucket'")
        seed = decoration_seed_arg(args)
        index = self.select_index(bucket, string_arg(args, "bucket_name"), seed)
        return {"entry": "" if index is None else bucket[index], "index": index}

    def op_variation_decorate(self, args: dict[str, Any]) -> dict[str, Any]:
        """Decorate a surface with seeded opening and closing markers."""
        surface = string_arg(args, "surface")
        markers = markers_arg(args, "discourse_markers")
        decoration = self.decorate(surface, markers, decoration_seed_arg(args))
        return {
            "decorated": decoration.surface,
            "opening": decoration.opening,
            "closing": decoration.closing,
            "register_variant_id": decoration.variant_id,
        }

    def op_overrides_resolve(self, args: dict[str, Any]) -> dict[str, Any]:
        """The disclosure domain count the overrides give an intent (fail-soft)."""
        overrides = object_arg(args, "realizer_overrides")
        count = self.resolve_overrides(overrides, intent_arg(args, "intent"))
        return {"disclosure_domain_count": count}

    def op_session_open(self, args: dict[str, Any]) -> dict[str, Any]:
        """Open a chat session under a register; user packs come as files. With ``store``,
        the session lives the life that store holds and checkpoints it every turn."""
        register_id = nullable_string_arg(args, "register_id")
        store_id = string_arg(args, "store") if "store" in args else None
        files = files_arg(args, "files") if "files" in args else None
        if store_id is not None:
            self.store(store_id)
            if store_id in self.lives:
                refuse(
                    "STATE_IN_USE",
                    f"store {store_id!r} carries the life of session {self.lives[store_id]!r}",
                    "store",
                )
        if files is None:
            runtime = self.new_runtime(register_id, ())
        else:
            with staged_files(files) as directory:
                runtime = self.new_runtime(register_id, (directory,))
        if store_id is None:
            return {"session": self.add_session(runtime)}
        self.resume_life(runtime, self.store(store_id))
        session_id = self.add_session(runtime)
        self.lives[store_id] = session_id
        return {"session": session_id, "turn_idx": len(runtime.turn_log)}

    def op_session_chat(self, args: dict[str, Any]) -> dict[str, Any]:
        """One turn in a session: the chat response as JSON. A session on a store answers
        once the turn's checkpoint is durable; a refused one ends the session."""
        session_id, text = string_arg(args, "session"), string_arg(args, "text")
        runtime = self.session(session_id)
        store_id = next((s for s, owner in self.lives.items() if owner == session_id), None)
        if store_id is None:
            return self.chat(runtime, text)
        try:
            self.store(store_id)
            return self.chat(runtime, text)
        except EngineError:
            self._end_session(session_id)
            raise

    def op_session_close(self, args: dict[str, Any]) -> dict[str, Any]:
        """Forget a session (a store it lived on stays open)."""
        session_id = string_arg(args, "session")
        self.session(session_id)
        self._end_session(session_id)
        return {}

    def _end_session(self, session_id: str) -> None:
        self.sessions.pop(session_id, None)
        self.lives = {s: owner for s, owner in self.lives.items() if owner != session_id}

    def op_batch(self, args: dict[str, Any]) -> dict[str, Any]:
        """Answer each request in order exactly as if sent alone; no batch inside a batch."""
        requests = args.get("requests")
        if not isinstance(requests, list):
            bad_arg("requests", "argument 'requests' must be a list")
        for index, item in enumerate(requests):
            if isinstance(item, dict) and item.get("op") == "batch":
                bad_arg("requests", f"requests[{index}] is a nested batch")
        return {"responses": [self.handle(item) for item in requests]}

    # Engine hooks ----------------------------------------------------------------------------

    def capabilities(self) -> Sequence[str]:
        """The capabilities ``hello`` claims."""
        return CAPABILITIES

    def engine_info(self) -> dict[str, str]:
        """The engine's name, version and implementation language."""
        return {
            "name": reference.ENGINE_NAME,
            "version": reference.__version__,
            "language": "python",
        }

    def lexicon_rows(self) -> list[dict[str, Any]]:
        """One row per lemma: lemma, pack, pos, has_gloss."""
        from reference.lexicon import default_lexicon

        return [
            {"lemma": e.lemma, "pack": e.pack_id, "pos": e.pos, "has_gloss": e.has_gloss}
            for e in default_lexicon().lemmas
        ]

    def validate_pack(self, pack: dict[str, Any], expected_id: str | None) -> RegisterPack:
        """Structurally validate a pack object (REGISTER_* codes)."""
        from reference.registers.validate import parse_pack

        return parse_pack(pack, expected_id=expected_id)

    def ratify_pack(self, path: Path) -> dict[str, Any]:
        """Ratify the pack file at *path* in place, without an evidence probe."""
        return self.ratifier.ratify(path)

    def load_pack(self, register_id: str, search_path: tuple[Path, ...]) -> RegisterPack:
        """Load a ratified pack along *search_path*, then the shipped packs."""
        return self.pack_loader.load(register_id, search_path)

    def new_runtime(self, register_id: str | None, search_path: tuple[Path, ...]) -> ChatRuntime:
        """A fresh chat runtime; the register is loaded now, so *search_path* may vanish after."""
        from reference.runtime import ChatRuntime, RuntimeConfig

        config = RuntimeConfig(register_id=register_id, register_search_path=search_path)
        return ChatRuntime(config, steps=self)

    def resume_life(self, runtime: ChatRuntime, store: StateStore) -> None:
        """Attach *store* to *runtime*: it resumes the life the store holds (none: a fresh
        one) and checkpoints its life after every turn (docs/state.md § The life)."""
        from reference.runtime.persistence import PersistedSession

        runtime.persisted = PersistedSession(store, runtime.register_id)
        if runtime.persisted.life is not None:
            runtime.resume(runtime.persisted.life)

    def chat(self, runtime: ChatRuntime, text: str) -> dict[str, Any]:
        """One turn of *runtime*, as the JSON result of ``session.chat``."""
        return runtime.chat(text).as_json()

    def add_session(self, runtime: ChatRuntime) -> str:
        """Register *runtime* under the next session id (``s1``, ``s2``, ...)."""
        self.sessions_opened += 1
        session_id = f"s{self.sessions_opened}"
        self.sessions[session_id] = runtime
        return session_id

    def session(self, session_id: str) -> ChatRuntime:
        """The runtime of an open session, or SESSION_UNKNOWN."""
        runtime = self.sessions.get(session_id)
        if runtime is None:
            refuse(SESSION_UNKNOWN, f"no open session {session_id!r}", "session")
        return runtime


def factory() -> ProtocolHandler:
    """A fresh handler: the in-process plug-in point ``reference.serve:factory``."""
    return ProtocolHandler()
