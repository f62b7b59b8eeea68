"""What earlier runs teach a budgeted run: which coverage cases found defects, and what a
case or example costs in requests.

The data is ``conformance/data/case_history.json``, generated (never hand-written) by
``python -m tools.case_history`` from the self-test's broken engines and the reference.
Per requirement id it holds:

* ``found``: case key (:func:`case_key`) -> the broken engines whose defect that coverage
  case exposed;
* ``example_found``: the broken engines whose defect the requirement's first generated
  example (or its one fixed check) exposed;
* ``cost``: requests per unit of case weight (:func:`conformance.case_value.weight`)
  of its coverage cases (``chat`` turns, ``other`` requests, ``ms`` of suite and
  reference time), and the same for its first example (``example``), measured on the
  reference.

A requirement or case the file does not name has no history and the default cost
(:data:`DEFAULT_CASE`, :data:`DEFAULT_EXAMPLE`). Only the order and the estimates of a
budgeted run read it: no verdict depends on it.
"""

from __future__ import annotations

import functools
import hashlib
import json
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

KEY_CHARS = 16


def case_key(scenario: Any) -> str:
    """A short digest naming a coverage case by its scenario (canonical JSON)."""
    text = json.dumps(scenario, sort_keys=True, ensure_ascii=False, default=repr)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:KEY_CHARS]


@dataclass(frozen=True)
class Cost:
    """Requests (and reference-side milliseconds) of a unit of work."""

    chat: float = 0.0
    other: float = 1.0
    ms: float = 1.0

    def times(self, factor: float) -> Cost:
        return Cost(self.chat * factor, self.other * factor, self.ms * factor)

    @classmethod
    def read(cls, data: dict[str, Any] | None, default: Cost) -> Cost:
        if not isinstance(data, dict):
            return default
        return cls(
            float(data.get("chat", default.chat)),
            float(data.get("other", default.other)),
            float(data.get("ms", default.ms)),
        )


DEFAULT_CASE = Cost(chat=0.0, other=2.0, ms=2.0)
"""Per weight unit of a coverage case of a requirement the history does not name."""
DEFAULT_EXAMPLE = Cost(chat=1.0, other=4.0, ms=5.0)
"""One generated example of a requirement the history does not name."""


@dataclass(frozen=True)
class CaseHistory:
    """The history of every requirement (see the module docstring)."""

    requirements: dict[str, dict[str, Any]] = field(default_factory=dict)

    def hits(self, req_id: str, scenario: Any) -> int:
        """How many recorded defects the coverage case *scenario* of *req_id* exposed."""
        found = self.requirements.get(req_id, {}).get("found", {})
        return len(found.get(case_key(scenario), ()))

    def example_hits(self, req_id: str) -> int:
        """How many recorded defects *req_id*'s first example (or fixed check) exposed."""
        return len(self.requirements.get(req_id, {}).get("example_found", ()))

    def case_cost(self, req_id: str) -> Cost:
        """Requests per unit of weight of *req_id*'s coverage cases."""
        cost = self.requirements.get(req_id, {}).get("cost", {})
        return Cost.read(cost.get("case"), DEFAULT_CASE)

    def example_cost(self, req_id: str, default: Cost = DEFAULT_EXAMPLE) -> Cost:
        """Requests of one generated example (or the fixed check) of *req_id*; *default*
        when the history has no figure."""
        cost = self.requirements.get(req_id, {}).get("cost", {})
        return Cost.read(cost.get("example"), default)


HISTORY_FILE = "case_history.json"


@functools.cache
def load() -> CaseHistory:
    """The committed history (empty if the file is missing or unreadable)."""
    try:
        text = resources.files("conformance.data").joinpath(HISTORY_FILE).read_text("utf-8")
        document = json.loads(text)
    except (OSError, ValueError):
        return CaseHistory()
    requirements = document.get("requirements") if isinstance(document, dict) else None
    return CaseHistory(requirements if isinstance(requirements, dict) else {})
