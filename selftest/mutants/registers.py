"""Broken chat under registers: each class lets the register leak into one thing it must not."""

from __future__ import annotations

import dataclasses
import hashlib
from pathlib import Path
from typing import Any

from reference.realize import realize
from reference.registers.model import DiscourseMarkers
from reference.runtime import ChatRuntime, TurnRuntime
from reference.serve import ProtocolHandler
from reference.truth.record import TruthRecord

NEUTRAL = "default_neutral_v1"
TERSE = "terse_v1"


def with_markers(runtime: ChatRuntime, **buckets: tuple[str, ...]) -> ChatRuntime:
    """*runtime* with its register's discourse markers replaced by *buckets*."""
    markers = DiscourseMarkers(**buckets)
    runtime.register = dataclasses.replace(runtime.register, discourse_markers=markers)
    return runtime


class UnregisteredDecorates(ProtocolHandler):
    """The UNREGISTERED sentinel (register None) adds the opening "Well,"."""

    def new_runtime(self, register_id: str | None, search_path: tuple[Path, ...]) -> ChatRuntime:
        runtime = super().new_runtime(register_id, search_path)
        return with_markers(runtime, openings=("Well,",)) if register_id is None else runtime


class NeutralDecorates(ProtocolHandler):
    """default_neutral_v1 appends the closing "."."""

    def new_runtime(self, register_id: str | None, search_path: tuple[Path, ...]) -> ChatRuntime:
        runtime = super().new_runtime(register_id, search_path)
        return with_markers(runtime, closings=(".",)) if register_id == NEUTRAL else runtime


class UserPacksUndecorated(ProtocolHandler):
    """A register loaded from user files keeps its overrides but loses its markers."""

    def new_runtime(self, register_id: str | None, search_path: tuple[Path, ...]) -> ChatRuntime:
        runtime = super().new_runtime(register_id, search_path)
        return with_markers(runtime) if search_path else runtime


class RegisterInTraceHash(ProtocolHandler):
    """The reported trace_hash mixes in the register id."""

    def chat(self, runtime: ChatRuntime, text: str) -> dict[str, Any]:
        response = super().chat(runtime, text)
        mixed = f"{response['trace_hash']}|{response['register_id']}".encode()
        return {**response, "trace_hash": hashlib.sha256(mixed).hexdigest()}


class TerseChangesGrounding(ProtocolHandler):
    """Under terse_v1 a pack-grounded turn reports grounding_source "partial"."""

    def chat(self, runtime: ChatRuntime, text: str) -> dict[str, Any]:
        response = super().chat(runtime, text)
        if response["register_id"] == TERSE and response["grounding_source"] == "pack":
            return {**response, "grounding_source": "partial"}
        return response


class RegisterPerturbsCondition(ProtocolHandler):
    """Under any register the reported versor_condition is raised by 1e-9."""

    def chat(self, runtime: ChatRuntime, text: str) -> dict[str, Any]:
        response = super().chat(runtime, text)
        if response["register_id"] is None:
            return response
        return {**response, "versor_condition": response["versor_condition"] + 1e-9}


class DriftingField(ProtocolHandler):
    """The reported versor_condition grows by 1e-7 * 2**turn_idx each turn."""

    def chat(self, runtime: ChatRuntime, text: str) -> dict[str, Any]:
        response = super().chat(runtime, text)
        drift = 1e-7 * 2 ** response["turn_idx"]
        return {**response, "versor_condition": response["versor_condition"] + drift}


class ReplayLeak(ProtocolHandler):
    """Every surface ends with the count of sessions the engine has opened so far."""

    def chat(self, runtime: ChatRuntime, text: str) -> dict[str, Any]:
        response = super().chat(runtime, text)
        return {**response, "surface": f"{response['surface']} [{self.sessions_opened}]"}


class TerseNotShorter(ProtocolHandler):
    """terse_v1 ignores its disclosure_domain_count and realizes at the default depth."""

    def realize_turn(self, runtime: TurnRuntime, record: TruthRecord) -> str:
        if runtime.register.register_id == TERSE:
            return realize(record, {})
        return super().realize_turn(runtime, record)


class DepthIgnoredInChat(ProtocolHandler):
    """Chat realizes every turn at the default depth, whatever the register's overrides."""

    def realize_turn(self, runtime: TurnRuntime, record: TruthRecord) -> str:
        return realize(record, {})
