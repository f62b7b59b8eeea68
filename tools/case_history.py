"""Regenerate ``conformance/data/case_history.json``: the cases that found defects in the
self-test, and what each requirement's cases cost in requests.

``python -m tools.case_history [--check]``:

* **found**: every broken engine of ``selftest/engines.py`` runs, in process, every
  coverage case of every requirement it must fail; the cases it fails (an assertion, a
  refusal, a fault) are recorded under their key (:func:`conformance.case_history.case_key`)
  with the engine's name. The first generated example (or the one fixed check) of each
  such requirement runs too (``example_found``).
* **cost**: on the reference, every coverage case and the first example of every
  requirement runs, counting the chat turns (batch elements included) and the other
  requests it sends; the figures are per unit of case weight.

``--check`` rewrites nothing and exits 1 when the file differs from what the self-test
gives in anything but its milliseconds (a lane may run it).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

from conformance.case_history import HISTORY_FILE, case_key
from conformance.case_value import weight
from conformance.engines import InProcessEngine
from conformance.engines.base import EngineFault
from conformance.requirements import REGISTRY, Requirement, SuiteContext
from conformance.runner import PROFILES, Limits, check_once, run_requirement
from reference.serve import ProtocolHandler
from selftest.engines import BROKEN

ROOT = Path(__file__).resolve().parents[1]
TARGET = ROOT / "conformance" / "data" / HISTORY_FILE
CASE_TIMEOUT_S = 30.0
OUT_OF_PROCESS = frozenset({"fork", "state.soak", "state.trace"})
"""Capabilities whose requirements need engine processes (forks, kills, traces): an
in-process run cannot measure them, so the file leaves them to the defaults."""


def _measurable(req: Requirement, claimed: frozenset[str]) -> bool:
    return not (set(req.capabilities) - claimed) and not (set(req.capabilities) & OUT_OF_PROCESS)


def _progress(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def _exposes(req: Requirement, engine: InProcessEngine, scenario: Any) -> bool:
    """Whether running *scenario* on *engine* fails *req* (the engine restarted after a fault)."""
    engine.begin_example()
    try:
        check_once(req, engine, scenario)
    except EngineFault:
        engine.restart()
        return True
    except Exception:  # an assertion, a refusal, or output the check could not read
        return True
    return False


def _first_example_fails(req: Requirement, engine: InProcessEngine, ctx: SuiteContext) -> bool:
    limits = Limits(cover_take=0)
    outcome = run_requirement(req, engine, ctx, PROFILES["ci"], 1, limits)
    return outcome.verdict in ("fail", "error")


def found(names: list[str] | None = None) -> dict[str, dict[str, Any]]:
    """Per requirement id: case key -> broken engines, and the engines its first example
    caught."""
    result: dict[str, dict[str, Any]] = defaultdict(lambda: {"found": defaultdict(list)})
    for name, broken in sorted(BROKEN.items()):
        if names and name not in names:
            continue
        engine = InProcessEngine(broken.spec, factory=broken.factory, timeout=CASE_TIMEOUT_S)
        try:
            ctx = SuiteContext.from_engine(engine)
            claimed = engine.capabilities()
        except EngineFault:
            continue
        for req_id in sorted(set(broken.catches)):
            _progress(f"found {name} {req_id}")
            req = REGISTRY[req_id]
            if not _measurable(req, claimed):
                continue
            row = result[req_id]
            if req.cover is not None:
                for case in req.cover(ctx).cases:
                    if _exposes(req, engine, case.scenario):
                        row["found"][case_key(case.scenario)].append(name)
            if (req.strategy is not None or req.cover is None) and _first_example_fails(
                req, engine, ctx
            ):
                row.setdefault("example_found", []).append(name)
        engine.close()
    return result


class _Counting(ProtocolHandler):
    """The reference, counting chat turns and requests."""

    chats = 0
    requests = 0

    def chat(self, runtime: Any, text: str) -> dict[str, Any]:
        _Counting.chats += 1
        return super().chat(runtime, text)

    def handle(self, request: Any) -> Any:
        _Counting.requests += 1
        return super().handle(request)


def _measure(run: Any) -> tuple[int, int, float]:
    _Counting.chats = _Counting.requests = 0
    started = time.perf_counter()
    run()
    return _Counting.chats, _Counting.requests, (time.perf_counter() - started) * 1000


def _figures(chats: float, requests: float, ms: float, per: float) -> dict[str, float]:
    return {
        "chat": round(chats / per, 3),
        "other": round(max(0.0, requests - chats) / per, 3),
        "ms": round(ms / per, 2),
    }


def costs() -> dict[str, dict[str, Any]]:
    """Per requirement id: requests per weight unit of its coverage cases and of its first
    example, on the reference."""
    engine = InProcessEngine("reference:counting", factory=_Counting)
    ctx = SuiteContext.from_engine(engine)
    claimed = engine.capabilities()
    result: dict[str, dict[str, Any]] = {}
    for req_id, req in sorted(REGISTRY.items()):
        if not _measurable(req, claimed):
            continue
        _progress(f"cost {req_id}")
        cost: dict[str, Any] = {}
        if req.cover is not None:
            cases = req.cover(ctx).cases
            units = sum(weight(case.scenario) for case in cases)
            totals = [0, 0, 0.0]
            for case in cases:
                figures = _measure(lambda c=case, r=req: _exposes(r, engine, c.scenario))
                totals = [a + b for a, b in zip(totals, figures, strict=True)]
            if units:
                cost["case"] = _figures(*totals, per=units)
        if req.strategy is not None or req.cover is None:
            figures = _measure(lambda req=req: _first_example_fails(req, engine, ctx))
            cost["example"] = _figures(*figures, per=1)
        result[req_id] = {"cost": cost}
    return result


def document(names: list[str] | None = None) -> dict[str, Any]:
    """The whole file: costs and found cases per requirement id."""
    requirements = costs()
    for req_id, row in found(names).items():
        entry = requirements.setdefault(req_id, {})
        entry["found"] = {key: sorted(engines) for key, engines in sorted(row["found"].items())}
        if row.get("example_found"):
            entry["example_found"] = sorted(row["example_found"])
    return {
        "about": "generated by python -m tools.case_history from selftest/engines.py "
        "and the reference; never edit by hand",
        "requirements": {req_id: requirements[req_id] for req_id in sorted(requirements)},
    }


def _without_ms(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _without_ms(v) for k, v in value.items() if k != "ms"}
    return value


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.case_history")
    parser.add_argument("--check", action="store_true", help="exit 1 if the file is stale")
    args = parser.parse_args(argv)
    fresh = document()
    if args.check:
        current = json.loads(TARGET.read_text("utf-8")) if TARGET.is_file() else {}
        if _without_ms(current) != _without_ms(fresh):
            print(f"{TARGET.relative_to(ROOT)} is stale: run python -m tools.case_history")
            return 1
        return 0
    TARGET.write_text(json.dumps(fresh, indent=1, ensure_ascii=False) + "\n", "utf-8")
    print(f"wrote {TARGET.relative_to(ROOT)}: {len(fresh['requirements'])} requirements")
    return 0


if __name__ == "__main__":
    sys.exit(main())
