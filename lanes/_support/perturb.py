"""An engine whose answers are perturbed: the reference in-process, with one member of
chosen responses dropped, renamed, retyped, replaced or joined by an extra member.

A :class:`Perturbation` names the response it changes by its place in the current
example (``at``: the first, second... answer after :meth:`begin_example`; ``hello`` is
never changed, so what the engine claims stays put), the member by ``selector`` (modulo
the number of members of the response's ``result`` or ``error``, in document order) and
what is done to it by ``kind``. :func:`plans` draws lists of them with Hypothesis.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any

from hypothesis import strategies as st

from conformance.engines import InProcessEngine
from conformance.jsontypes import EncodableObject

KINDS = ("drop", "rename", "retype", "same-type", "extra", "null")
"""``drop`` a member or item; ``rename`` a key (as ``methods`` to ``method``); ``retype``
to a value of another JSON type; ``same-type``: another value of the same type (often
still schema-valid); ``extra``: a new member beside it; ``null`` in its place."""

JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 5) | st.text(max_size=4),
    lambda inner: (
        st.lists(inner, max_size=2) | st.dictionaries(st.text(max_size=3), inner, max_size=2)
    ),
    max_leaves=4,
)


@dataclass(frozen=True)
class Perturbation:
    at: int
    kind: str
    selector: int
    value: Any


def plans(max_at: int = 6) -> st.SearchStrategy[list[Perturbation]]:
    """Lists of one to three perturbations of the first *max_at* answers of an example."""
    one = st.builds(
        Perturbation,
        at=st.integers(0, max_at - 1),
        kind=st.sampled_from(KINDS),
        selector=st.integers(0, 2**16),
        value=JSON,
    )
    return st.lists(one, min_size=1, max_size=3)


def _places(value: Any) -> list[tuple[Any, Any]]:
    """Every (container, key or index) inside *value*, parents before children."""
    found: list[tuple[Any, Any]] = []
    stack = [value]
    while stack:
        node = stack.pop(0)
        children = node.items() if isinstance(node, dict) else enumerate(node)
        for key, child in children:
            found.append((node, key))
            if isinstance(child, dict | list):
                stack.append(child)
    return found


def _other_type(old: Any, value: Any) -> Any:
    """*value*, or a stand-in of another JSON type than *old* when it has the same one."""
    if type(value) is not type(old):
        return value
    for stand_in in ("x", 1, [], {}, True):
        if type(stand_in) is not type(old):
            return stand_in
    return None


def _same_type(old: Any) -> Any:
    if isinstance(old, bool):
        return not old
    if isinstance(old, int | float):
        return old + 1
    if isinstance(old, str):
        return old[:-1] if old else "x"
    if isinstance(old, list):
        return old[:-1] if old else [None]
    if isinstance(old, dict):
        return dict(list(old.items())[:-1])
    return old


def perturb(response: Any, change: Perturbation) -> Any:
    """A copy of *response* with *change* made inside its ``result`` or ``error``."""
    if not isinstance(response, dict):
        return response
    changed = copy.deepcopy(response)
    body = changed.get("result") if "result" in changed else changed.get("error")
    if not isinstance(body, dict | list):
        return changed
    places = _places(body)
    if not places:
        if isinstance(body, dict) and change.kind == "extra":
            body["extra"] = change.value
        return changed
    node, key = places[change.selector % len(places)]
    old = node[key]
    if change.kind == "drop":
        del node[key]
    elif change.kind == "rename" and isinstance(node, dict):
        renamed = key[:-1] if len(key) > 1 else key + "_"
        node[renamed if renamed not in node else key + "_"] = node.pop(key)
    elif change.kind == "retype":
        node[key] = _other_type(old, change.value)
    elif change.kind == "same-type":
        node[key] = _same_type(old)
    elif change.kind == "extra" and isinstance(old, dict):
        old["extra_member"] = change.value
    elif change.kind == "extra" and isinstance(node, dict):
        node[f"{key}_extra"] = change.value
    elif change.kind == "extra":
        node.append(change.value)
    else:
        node[key] = None
    return changed


class PerturbingEngine(InProcessEngine):
    """The in-process engine of *spec*, its answers changed as *plan* says."""

    def __init__(self, spec: str, plan: list[Perturbation]) -> None:
        super().__init__(spec)
        self.plan = plan
        self.answered = 0
        self.perturbed = 0

    def begin_example(self) -> None:
        super().begin_example()
        self.answered = 0

    def _exchange(self, request: EncodableObject) -> object:
        response = super()._exchange(request)
        if request.get("op") == "hello":
            return response
        return self._perturbed(response)

    def _exchange_lines(self, data: bytes, count: int) -> list[Any]:
        return [self._perturbed(r) for r in super()._exchange_lines(data, count)]

    def _perturbed(self, response: Any) -> Any:
        index, self.answered = self.answered, self.answered + 1
        for change in self.plan:
            if change.at == index:
                response = perturb(response, change)
                self.perturbed += 1
        return response

    def spawn_command(self) -> None:  # type: ignore[override]
        """No process of this engine: its perturbations live in this process."""
        return None
