"""``ChatRuntime``: seal the truth of a turn, then realize and decorate its surface."""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from reference.lexicon import Lexicon
from reference.realize.steps import TurnSteps
from reference.registers.loader import load_register_pack
from reference.registers.model import RegisterPack, is_unregistered
from reference.runtime.audit import AuditLog
from reference.runtime.config import RuntimeConfig
from reference.runtime.turn_log import TurnLog
from reference.truth.pipeline import Life, TruthPipeline
from reference.truth.says import says

if TYPE_CHECKING:
    from reference.runtime.persistence import PersistedSession


@dataclass(frozen=True)
class ChatResponse:
    """What one turn returns. ``register_id`` is None under the UNREGISTERED sentinel."""

    surface: str
    pre_decoration_surface: str
    trace_hash: str
    grounding_source: str
    intent: str
    subject: str | None
    turn_idx: int
    versor_condition: float
    register_id: str | None
    register_variant_id: str
    says: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)
    """What the answer says, as data (docs/intents.md § What an answer says, as data)."""

    def as_json(self) -> dict[str, object]:
        """Every field by name; ``says`` is copied deep (it holds lists and objects)."""
        return {**vars(self), "says": copy.deepcopy(self.says)}


@dataclass(frozen=True)
class TurnEvent:
    """The turn log's record of one turn: identifiers, not content."""

    turn_idx: int
    intent: str
    grounding_source: str
    trace_hash: str
    register_id: str | None
    register_variant_id: str

    def as_json(self) -> dict[str, object]:
        """Every field by name (all are JSON scalars, so no deep copy is needed)."""
        return dict(vars(self))


class ChatRuntime:
    """One chat session under one register; *steps* realizes and decorates each turn."""

    def __init__(
        self,
        config: RuntimeConfig | None = None,
        *,
        register_pack: RegisterPack | None = None,
        lexicon: Lexicon | None = None,
        steps: TurnSteps | None = None,
    ) -> None:
        self.steps = steps if steps is not None else TurnSteps()
        self.config = config if config is not None else RuntimeConfig()
        self.register = register_pack or load_register_pack(
            self.config.register_id, search_path=self.config.register_search_path
        )
        self.register_id = None if is_unregistered(self.register) else self.register.register_id
        self.truth = TruthPipeline(lexicon)
        self.turn_log: TurnLog[TurnEvent] = TurnLog()
        self.audit = AuditLog(self.config.audit_path, with_content=self.config.audit_content)
        self.persisted = self._open_state()
        if self.persisted is not None and self.persisted.life is not None:
            self.resume(self.persisted.life)

    def resume(self, life: Life) -> None:
        """Live on from *life* (what a persisted session held): turn indices, the field, the
        vault and the latest subject continue as if the process had never stopped."""
        self.truth.resume(life)
        self.turn_log = TurnLog(start=life.turns)

    def _open_state(self) -> PersistedSession | None:
        """The persisted session when a state directory is configured (imported only then)."""
        if self.config.state_dir is None:
            return None
        from reference.runtime.persistence import PersistedSession

        return PersistedSession.open(self.config.state_dir, self.register_id)

    def chat(self, text: str) -> ChatResponse:
        """Run one turn: the trace hash is sealed before any surface exists."""
        record = self.truth.run(text)
        turn_idx = len(self.turn_log)
        pre = self.steps.realize_turn(self, record)
        markers = self.register.discourse_markers.as_json()
        seed = self.steps.decoration_seed(self, record, pre, turn_idx)
        decoration = self.steps.decorate(pre, markers, seed)
        response = ChatResponse(
            surface=decoration.surface,
            pre_decoration_surface=pre,
            trace_hash=record.trace_hash,
            grounding_source=record.grounding.source,
            intent=record.intent.name,
            subject=record.subject,
            turn_idx=turn_idx,
            versor_condition=record.versor_condition,
            register_id=self.register_id,
            register_variant_id=decoration.variant_id,
            says=says(record.content()),
        )
        event = TurnEvent(
            turn_idx,
            response.intent,
            response.grounding_source,
            response.trace_hash,
            response.register_id,
            response.register_variant_id,
        )
        self.turn_log.append(event)
        self.audit.write(event, text=text, surface=response.surface)
        if self.persisted is not None:
            self.persisted.record_turn(self.truth.life())
        return response

    def close(self) -> None:
        """Clean shutdown: the persisted state (if any) commits only what changed."""
        if self.persisted is not None:
            self.persisted.close()
            self.persisted = None

    def __enter__(self) -> ChatRuntime:
        return self

    def __exit__(self, kind: type[BaseException] | None, *exc: object) -> None:
        """Leaving the block: a clean close, or, when an error or a stop is on its way out,
        the state released with nothing committed (a turn whose checkpoint failed was not
        answered, so it is not committed on the way out; the first failure is reported)."""
        if kind is None:
            self.close()
        elif self.persisted is not None:
            persisted, self.persisted = self.persisted, None
            persisted.release()
