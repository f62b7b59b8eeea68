"""A campaign's spec and its tasks: (engine, requirement, seed, example window).

Tasks are plain JSON. A requirement scaled by kills is cut into windows of its
example sequence; every window draws the same sequence (same seed, same total), so
together the windows run exactly the kills of the unsplit requirement.
"""

from __future__ import annotations

import hashlib
from dataclasses import asdict, dataclass, replace
from typing import Any

from conformance.canonical import digest
from conformance.requirements import REGISTRY, Requirement
from conformance.requirements.state_crash import KILLS_PER_EXAMPLE
from conformance.runner import PROFILES, Profile

CRASH_STATE_PREFIX = "STATE-CRASH-"


class CampaignError(ValueError):
    """A campaign spec that cannot run: bad numbers, unknown ids, no engines."""


@dataclass(frozen=True)
class CampaignSpec:
    """What a campaign runs: engines, requirement ids, and how hard to search.

    ``engines`` are ``{"command": CMD}`` or ``{"python": MODULE:FACTORY}``; ``seed`` None
    keeps the profile derandomized (each requirement seeded by its id, as ``certify``
    does); ``seeds`` runs every generated requirement under that many derived seeds.
    """

    engines: tuple[dict[str, str], ...]
    requirements: tuple[str, ...]
    profile: str = "ci"
    examples: int | None = None
    kills: int | None = None
    kills_per_task: int = 200
    crash_examples: int | None = None
    seed: int | None = None
    seeds: int = 1
    timeout: float = 10.0

    def __post_init__(self) -> None:
        if not self.engines:
            raise CampaignError("a campaign needs at least one engine")
        if self.profile not in PROFILES:
            raise CampaignError(f"--profile: unknown profile {self.profile!r}")
        unknown = [i for i in self.requirements if i not in REGISTRY]
        if unknown:
            raise CampaignError(f"unknown requirement ids: {unknown}")
        for name in ("examples", "kills", "crash_examples"):
            value = getattr(self, name)
            if value is not None and value < 1:
                raise CampaignError(f"--{name.replace('_', '-')}: {value} is not positive")
        if self.kills_per_task < KILLS_PER_EXAMPLE:
            raise CampaignError(f"--kills-per-task: at least {KILLS_PER_EXAMPLE}")
        if self.seeds < 1 or (self.seeds > 1 and self.seed is None):
            raise CampaignError("--seeds: a positive count, and more than 1 needs --seed")

    def as_dict(self) -> dict[str, Any]:
        return {
            **asdict(self),
            "engines": list(self.engines),
            "requirements": list(self.requirements),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> CampaignSpec:
        fields = {**data, "engines": tuple(dict(e) for e in data["engines"])}
        return cls(**{**fields, "requirements": tuple(data["requirements"])})

    @property
    def digest(self) -> str:
        return digest(self.as_dict())

    def base_profile(self) -> Profile:
        profile = PROFILES[self.profile]
        return profile if self.kills is None else replace(profile, kills=self.kills)


def derive_seed(campaign_seed: int, requirement: str, index: int) -> int:
    """The Hypothesis seed of a requirement's *index*-th seed in a campaign."""
    text = f"{campaign_seed}:{requirement}:{index}".encode()
    return int.from_bytes(hashlib.sha256(text).digest()[:8], "big")


def engine_label(engine: dict[str, str]) -> str:
    return engine.get("command") or f"python:{engine['python']}"


def examples_for(spec: CampaignSpec, req: Requirement) -> int | None:
    if req.id.startswith(CRASH_STATE_PREFIX) and spec.crash_examples:
        return spec.crash_examples
    return spec.examples


def _runs(spec: CampaignSpec, req: Requirement) -> list[tuple[int, int | None, Any, Any]]:
    """(seed index, seed, example window, kills) of each task of *req*.

    A kill-scaled requirement is cut into tasks of ``kills_per_task`` kills: windows of
    the one derandomized sequence (the kills ``certify`` would run), or, in a seeded
    campaign, chunks with seeds of their own, which draw only their own examples.
    """
    if req.scale is not None:
        total, size = req.scale.asked(spec.base_profile()), spec.kills_per_task
        if spec.seed is None:
            examples, step = req.scale.examples(total), size // req.scale.per_example
            return [
                (0, None, [start, min(start + step, examples)], None)
                for start in range(0, examples, step)
            ]
        return [
            (k, derive_seed(spec.seed, req.id, k), None, min(size, total - start))
            for k, start in enumerate(range(0, total, size))
        ]
    seeds = range(spec.seeds) if req.generated else range(1)
    return [
        (k, None if spec.seed is None else derive_seed(spec.seed, req.id, k), None, None)
        for k in seeds
    ]


def tasks(spec: CampaignSpec) -> list[dict[str, Any]]:
    """Every task of *spec*, kill tasks first, each with a stable ``key``."""
    found = [
        _task(spec, engine_index, REGISTRY[req_id], *run)
        for engine_index, _ in enumerate(spec.engines)
        for req_id in spec.requirements
        for run in _runs(spec, REGISTRY[req_id])
    ]
    return sorted(found, key=_task_order)


def _task(
    spec: CampaignSpec,
    engine_index: int,
    req: Requirement,
    seed_index: int,
    seed: int | None,
    window: list[int] | None,
    kills: int | None,
) -> dict[str, Any]:
    span = "all" if window is None else f"{window[0]}-{window[1]}"
    return {
        "key": f"e{engine_index}-{req.id}-s{seed_index}-{span}",
        "engine": engine_index,
        "requirement": req.id,
        "seed_index": seed_index,
        "seed": seed,
        "window": window,
        "kills": kills,
        "examples": examples_for(spec, req),
    }


def _task_order(task: dict[str, Any]) -> tuple[bool, int, str, int, int]:
    window = task["window"] or [0]
    scaled = task["window"] is not None or task["kills"] is not None
    return not scaled, task["engine"], task["requirement"], task["seed_index"], window[0]


def task_profile(spec: CampaignSpec, task: dict[str, Any]) -> Profile:
    """The profile a task runs under: the campaign's, with the task's seed, window, kills."""
    profile = spec.base_profile()
    if task["kills"] is not None:
        profile = replace(profile, kills=task["kills"])
    window = tuple(task["window"]) if task["window"] is not None else None
    return replace(profile, seed=task["seed"], example_range=window)
