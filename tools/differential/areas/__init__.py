"""The generated areas: each draws one case (its requests and the context
:func:`tools.differential.normalise.normalise` needs) from a ``random.Random``."""

from __future__ import annotations

import random
from collections.abc import Callable

from tools.differential.areas.algebra import gen_algebra
from tools.differential.areas.batch import gen_batch
from tools.differential.areas.chat import gen_chat
from tools.differential.areas.damage import gen_damage
from tools.differential.areas.journals import gen_journals
from tools.differential.areas.lines import gen_lines
from tools.differential.areas.overrides import gen_overrides
from tools.differential.areas.registers import gen_registers
from tools.differential.areas.soak import gen_soak
from tools.differential.areas.state import gen_state
from tools.differential.areas.trace import gen_trace
from tools.differential.areas.variation import gen_variation
from tools.differential.material import Material
from tools.differential.shared import Json

Generator = Callable[[random.Random, Material], tuple[list[Json], dict[str, Json]]]

AREAS: dict[str, Generator] = {
    "chat": gen_chat,
    "overrides": gen_overrides,
    "variation": gen_variation,
    "registers": gen_registers,
    "batch": gen_batch,
    "lines": gen_lines,
    "algebra": gen_algebra,
    "state": gen_state,
    "soak": gen_soak,
    "trace": gen_trace,
    "journals": gen_journals,
    "damage": gen_damage,
}
CAPABILITY = {
    "chat": "sessions",
    "overrides": "overrides",
    "variation": "variation",
    "registers": "registers.ratify",
    "batch": "batch",
    "algebra": "algebra",
    "state": "state",
    "soak": "state.soak",
    "trace": "state.trace",
    "journals": "state",
    "damage": "state",
}
"""The ``hello`` capability both engines must claim for an area to be generated (raw
lines need none)."""
