"""Restart porting mistakes: each engine rebuilds one persisted field of the life (docs/state.md
§ The life) from the others, or cuts it to a window, when a session resumes a store (or writes
it so when it checkpoints). The uninterrupted session is the reference's, so only a restart
shows the mistake."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable
from typing import Any

import numpy as np

from reference.runtime import ChatRuntime
from reference.runtime.persistence import PersistedSession
from reference.serve import ProtocolHandler
from reference.state import StateStore
from reference.truth.pipeline import Life
from reference.truth.vault import Vault, VaultHit

HitRebuild = Callable[[VaultHit], VaultHit]


def _resumed(runtime: ChatRuntime, change: Callable[[Life], Life]) -> None:
    """Resume *runtime* on the life it resumed, changed by *change* (nothing when fresh)."""
    persisted = runtime.persisted
    if persisted is not None and persisted.life is not None:
        runtime.resume(change(runtime.truth.life()))


def _each_hit(rebuild: HitRebuild) -> Callable[[Life], Life]:
    return lambda life: dataclasses.replace(life, hits=tuple(map(rebuild, life.hits)))


class _ResumeRebuilds(ProtocolHandler):
    """A session on a store resumes its life with one field rebuilt (see :meth:`rebuild`)."""

    def rebuild(self, life: Life) -> Life:
        """The life as resumed (the base rebuilds nothing)."""
        return life

    def resume_life(self, runtime: ChatRuntime, store: StateStore) -> None:
        super().resume_life(runtime, store)
        _resumed(runtime, self.rebuild)


def _latest_kept_claim(hit: VaultHit) -> str | None:
    return next((s.claim for s in hit.said if s.claim is not None), None)


class ClaimFromKeptSaid(_ResumeRebuilds):
    """A resumed vault record's latest claim is the latest claim among its kept things said."""

    def rebuild(self, life: Life) -> Life:
        return _each_hit(lambda h: dataclasses.replace(h, latest_claim=_latest_kept_claim(h)))(life)


class ClaimFromLatestSaid(_ResumeRebuilds):
    """A resumed vault record's latest claim is the claim of its latest thing said."""

    def rebuild(self, life: Life) -> Life:
        return _each_hit(
            lambda h: dataclasses.replace(h, latest_claim=h.said[0].claim if h.said else None)
        )(life)


class CountFromSaid(_ResumeRebuilds):
    """A resumed vault record's count is the number of its kept things said."""

    def rebuild(self, life: Life) -> Life:
        return _each_hit(lambda h: dataclasses.replace(h, count=max(1, len(h.said))))(life)


class FirstTurnFromLastTurn(_ResumeRebuilds):
    """A resumed vault record's first turn is its last turn."""

    def rebuild(self, life: Life) -> Life:
        return _each_hit(lambda h: dataclasses.replace(h, first_turn=h.last_turn))(life)


class FirstTurnFromSaid(_ResumeRebuilds):
    """A resumed vault record's first turn is the turn of its earliest kept thing said."""

    def rebuild(self, life: Life) -> Life:
        return _each_hit(
            lambda h: dataclasses.replace(h, first_turn=h.said[-1].turn_idx) if h.said else h
        )(life)


class LastTurnFromSaid(_ResumeRebuilds):
    """A resumed vault record's last turn is the turn of its latest thing said."""

    def rebuild(self, life: Life) -> Life:
        return _each_hit(
            lambda h: dataclasses.replace(h, last_turn=h.said[0].turn_idx) if h.said else h
        )(life)


class SaidCutToTwo(_ResumeRebuilds):
    """A resumed vault record keeps two things said, not three."""

    def rebuild(self, life: Life) -> Life:
        return _each_hit(lambda h: dataclasses.replace(h, said=h.said[:2]))(life)


class SaidTextCutAt128(_ResumeRebuilds):
    """A resumed thing said is cut at 128 code points, not 160."""

    def rebuild(self, life: Life) -> Life:
        return _each_hit(
            lambda h: dataclasses.replace(
                h, said=tuple(dataclasses.replace(s, text=s.text[:128]) for s in h.said)
            )
        )(life)


class SaidClaimsDropped(_ResumeRebuilds):
    """A resumed thing said loses its claim (each read back as null)."""

    def rebuild(self, life: Life) -> Life:
        return _each_hit(
            lambda h: dataclasses.replace(
                h, said=tuple(dataclasses.replace(s, claim=None) for s in h.said)
            )
        )(life)


class SaidOldestFirst(_ResumeRebuilds):
    """A resumed vault record's things said are read back oldest first."""

    def rebuild(self, life: Life) -> Life:
        return _each_hit(lambda h: dataclasses.replace(h, said=tuple(reversed(h.said))))(life)


class ContextNotRestored(_ResumeRebuilds):
    """A resumed session has no latest subject: the life record's context is not read."""

    def rebuild(self, life: Life) -> Life:
        return dataclasses.replace(life, context=None)


class ContextFromVault(_ResumeRebuilds):
    """A resumed session's latest subject is the lemma of the vault record with the latest
    last turn."""

    def rebuild(self, life: Life) -> Life:
        latest = max(life.hits, key=lambda h: h.last_turn, default=None)
        return dataclasses.replace(life, context=latest.lemma if latest else None)


class TurnsFromVault(_ResumeRebuilds):
    """A resumed session's turns are one past the latest last turn of its vault."""

    def rebuild(self, life: Life) -> Life:
        latest = max((h.last_turn for h in life.hits), default=-1)
        return dataclasses.replace(life, turns=latest + 1)


class RotorAsFloat32(_ResumeRebuilds):
    """A resumed session's field rotor is read back as 32-bit floats."""

    def rebuild(self, life: Life) -> Life:
        rotor = np.asarray(life.rotor, dtype=np.float32).astype(np.float64)
        return dataclasses.replace(life, rotor=rotor)


class _FirstMentionRecency(Vault):
    """A vault whose order of recency (for a subjectless RECALL) is kept in memory: a
    restored tally ranks by its first turn, a thing said moves its lemma to the front."""

    def __init__(self) -> None:
        super().__init__()
        self._recency: dict[str, int] = {}

    @classmethod
    def restored(cls, hits: Iterable[VaultHit]) -> Vault:
        vault = super().restored(hits)
        assert isinstance(vault, _FirstMentionRecency)
        vault._recency = {hit.address: hit.first_turn for hit in vault.hits()}
        return vault

    def store(
        self, lemma: str, turn_idx: int, claim: str | None = None, text: str | None = None
    ) -> Any:
        entry = super().store(lemma, turn_idx, claim, text)
        if text is not None:
            self._recency[entry.address] = turn_idx
        return entry

    def latest(self, count: int) -> tuple[VaultHit, ...]:
        said = [hit for hit in self.hits() if hit.said]
        said.sort(key=lambda hit: -self._recency.get(hit.address, hit.said[0].turn_idx))
        return tuple(said[:count])


class RecencyFromFirstMention(ProtocolHandler):
    """A resumed session orders the lemmas of a subjectless RECALL by their first mention
    until each is said of again (its recency is not rebuilt from the things said)."""

    def resume_life(self, runtime: ChatRuntime, store: StateStore) -> None:
        super().resume_life(runtime, store)
        if runtime.persisted is not None and runtime.persisted.life is not None:
            runtime.truth.vault = _FirstMentionRecency.restored(runtime.truth.vault.hits())


class _ClaimOfTheTurnSession(PersistedSession):
    """Writes each tally with the claim of its latest turn as its latest claim."""

    def stage_turn(self, life: Life) -> None:
        def written(hit: VaultHit) -> VaultHit:
            latest = hit.said[0] if hit.said and hit.said[0].turn_idx == hit.last_turn else None
            return dataclasses.replace(hit, latest_claim=latest.claim if latest else None)

        super().stage_turn(dataclasses.replace(life, hits=tuple(map(written, life.hits))))


class ClaimForgottenOnPlainTurn(ProtocolHandler):
    """A checkpoint writes a vault record's latest claim as the claim of the turn that
    touched it: null after any turn that is not a correction."""

    def resume_life(self, runtime: ChatRuntime, store: StateStore) -> None:
        super().resume_life(runtime, store)
        persisted = runtime.persisted
        assert persisted is not None
        replaced = _ClaimOfTheTurnSession.__new__(_ClaimOfTheTurnSession)
        replaced.__dict__.update(persisted.__dict__)
        runtime.persisted = replaced


__all__ = [
    "ClaimForgottenOnPlainTurn",
    "ClaimFromKeptSaid",
    "ClaimFromLatestSaid",
    "ContextFromVault",
    "ContextNotRestored",
    "CountFromSaid",
    "FirstTurnFromLastTurn",
    "FirstTurnFromSaid",
    "LastTurnFromSaid",
    "RecencyFromFirstMention",
    "RotorAsFloat32",
    "SaidClaimsDropped",
    "SaidCutToTwo",
    "SaidOldestFirst",
    "SaidTextCutAt128",
    "TurnsFromVault",
]
