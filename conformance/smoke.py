"""``conformance smoke``: an engine author's first minute (docs/conformance.md § Smoke).

Hello, then one small, well-formed exchange per claimed capability, each response
validated against the protocol schemas (strict). Not a certification: a smoke pass
says the engine speaks core-engine/1 and answers each claimed op, nothing about
whether the answers are right. Capabilities whose only ops need a kill harness or a
socket (``state.soak``, ``state.trace``, ``fork``) are listed as not probed.
"""

from __future__ import annotations

import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from conformance.engines import EngineClient, EngineFault, EngineRefused
from conformance.jsontypes import EncodableObject

IDENTITY = [1.0] + [0.0] * 31
"""The scalar 1 in Cl(4,1): its product with itself is itself."""
NOT_PROBED = ("fork", "state.soak", "state.trace")


@dataclass(frozen=True)
class Probe:
    """One capability's exchange: its verdict (``pass``, ``fail``, ``not-probed``) and why."""

    capability: str
    verdict: str
    message: str


def _lexicon(engine: EngineClient, _: Path) -> None:
    lemmas = engine.call("lexicon.list")["lemmas"]
    assert isinstance(lemmas, list), "lexicon.list: lemmas is not a list"


def _variation(engine: EngineClient, _: Path) -> None:
    bucket = ["a", "b"]
    args: EncodableObject = {
        "bucket": bucket,
        "trace_hash": "0" * 64,
        "register_id": "smoke_v1",
        "turn_idx": 0,
        "bucket_name": "openings",
    }
    result = engine.call("variation.select", args)
    assert result["entry"] in bucket, f"variation.select: {result}"


def _overrides(engine: EngineClient, _: Path) -> None:
    args: EncodableObject = {"realizer_overrides": {}, "intent": "DEFINITION"}
    result = engine.call("overrides.resolve", args)
    assert result == {"disclosure_domain_count": 3}, f"overrides.resolve: {result}"


def _refused_with_register_code(engine: EngineClient, op: str, args: EncodableObject) -> None:
    try:
        result = engine.call(op, args)
    except EngineRefused as refusal:
        assert refusal.code.startswith("REGISTER_"), f"{op}: refused with {refusal.code}"
        return
    raise AssertionError(f"{op}: accepted a pack that is not one: {str(result)[:200]}")


def _sessions(engine: EngineClient, _: Path) -> None:
    session = engine.call("session.open", {"register_id": None})["session"]
    turn = engine.call("session.chat", {"session": session, "text": "What is light?"})
    assert isinstance(turn.get("surface"), str), f"session.chat: {str(turn)[:200]}"
    engine.call("session.close", {"session": session})


def _batch(engine: EngineClient, _: Path) -> None:
    engine.call("batch", {"requests": [{"id": 1, "op": "hello"}]})


def _state(engine: EngineClient, scratch: Path) -> None:
    result = engine.call("state.load", {"dir": str(scratch / "state")})
    assert result.get("fresh") is True, f"state.load of an empty directory: {result}"


def _algebra(engine: EngineClient, _: Path) -> None:
    result = engine.call("algebra.product", {"a": IDENTITY, "b": IDENTITY})
    assert result["multivector"] == IDENTITY, "algebra.product: 1 * 1 is not 1"


PROBES: dict[str, Callable[[EngineClient, Path], None]] = {
    "lexicon": _lexicon,
    "variation": _variation,
    "overrides": _overrides,
    "registers.validate": lambda e, _: _refused_with_register_code(
        e, "register.validate", {"pack": {}}
    ),
    "registers.ratify": lambda e, _: _refused_with_register_code(
        e, "register.ratify", {"pack": {}}
    ),
    "registers.load": lambda e, _: _refused_with_register_code(
        e, "register.load", {"register_id": "no_such_pack_v1", "files": {}}
    ),
    "sessions": _sessions,
    "batch": _batch,
    "state": _state,
    "algebra": _algebra,
}


@dataclass(frozen=True)
class SmokeResult:
    """What smoke found: the hello (or the fault that stopped it) and each probe."""

    hello: dict[str, Any]
    probes: list[Probe]
    fault: str | None
    duration_ms: int

    @property
    def verdict(self) -> str:
        if self.fault is not None:
            return "engine-unavailable"
        return "fail" if any(p.verdict == "fail" for p in self.probes) else "pass"


def smoke(engine: EngineClient) -> SmokeResult:
    """Run hello and one probe per claimed capability on *engine* (closed by the caller)."""
    started = time.perf_counter()
    probes: list[Probe] = []
    try:
        hello = dict(engine.hello())
        claimed = sorted(engine.capabilities())
    except (EngineFault, EngineRefused) as exc:
        elapsed = int((time.perf_counter() - started) * 1000)
        return SmokeResult({}, [], engine.explain_unavailable(str(exc)), elapsed)
    with tempfile.TemporaryDirectory(prefix="conformance-smoke-") as scratch:
        for capability in claimed:
            probes.append(_probe(engine, capability, Path(scratch)))
    elapsed = int((time.perf_counter() - started) * 1000)
    return SmokeResult(hello, probes, None, elapsed)


def _probe(engine: EngineClient, capability: str, scratch: Path) -> Probe:
    check = PROBES.get(capability)
    if check is None:
        why = "needs certify's harness" if capability in NOT_PROBED else "no smoke probe: certify"
        return Probe(capability, "not-probed", why)
    try:
        check(engine, scratch)
    except AssertionError as exc:
        return Probe(capability, "fail", str(exc))
    except (EngineFault, EngineRefused, KeyError, TypeError) as exc:
        return Probe(capability, "fail", f"{type(exc).__name__}: {exc}"[:300])
    return Probe(capability, "pass", "answered")


def render(result: SmokeResult, label: str) -> list[str]:
    """The smoke verdict as lines of text: one per probe, then the verdict."""
    if result.fault is not None:
        return [f"SMOKE ENGINE UNAVAILABLE: {label}: {result.fault}"]
    name = result.hello.get("engine", {})
    lines = [f"hello: {name.get('name', '?')} {name.get('version', '')} ({label})".rstrip()]
    lines += [f"{p.verdict.upper():<11} {p.capability:<20} {p.message}" for p in result.probes]
    passed = sum(p.verdict == "pass" for p in result.probes)
    probed = sum(p.verdict != "not-probed" for p in result.probes)
    verdict = "SMOKE PASS" if result.verdict == "pass" else "SMOKE FAIL"
    lines.append(
        f"{verdict}: {passed} of {probed} probed capabilities answered in "
        f"{result.duration_ms} ms; {len(result.probes) - probed} more claimed need certify "
        "(a smoke pass is not a certification)"
    )
    return lines
