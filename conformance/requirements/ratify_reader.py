"""The guarded reader through the ops defined by reference to the loader.

docs/registers.md § The ratification gate, step 2: "Read and parse it exactly as the loader
does"; docs/protocol.md § session.open: the register is "loaded like `register.load`".
docs/registers.md § Loading, step 4 reads a pack file as UTF-8 JSON with the guarded reader
(digits and levels counted as for a request line; of a member named twice the last counts).
LOAD-READ-001 (the bounds), LOAD-READ-301 (the bytes) and LOAD-READ-471 (a member named
twice) run those cases through ``register.load`` only; here the same cases go through
``register.ratify_file`` (LOAD-READ-101: the file on disk, read by the gate) and
``session.open`` (LOAD-READ-102: the file given in ``files``). Past a bound, bytes that are
not UTF-8 or a byte order mark: ``REGISTER_MALFORMED``, field null; at the bound the pack's
own check names the field that holds the value (``REGISTER_OVERRIDE_OUT_OF_BOUNDS``); a
member named twice is read as its last occurrence. A gate or an open that parses the file
with a plain JSON reader (one that reads a BOM, an encoded surrogate, NaN or 65 levels), or
counts the minus sign as a digit, or keeps the first occurrence, answers otherwise. The gate
leaves a refused file as it was and writes no report; a pack the loader would parse it
ratifies.
"""

from __future__ import annotations

import base64
from collections.abc import Callable
from typing import Any

from hypothesis import strategies as st

from conformance import coverage
from conformance import strategies as gen
from conformance.engines.base import EngineClient, EngineRefused
from conformance.requirements.loader_duplicates import MARKERS, UNSEALED, _with_twice
from conformance.requirements.loader_encoding import BAD_BYTES, pack_file
from conformance.requirements.loader_reader import OUT_OF_BOUNDS, VALUES, _pack_file
from conformance.requirements.registry import requirement
from conformance.state.driver import scratch

PARSED = ("REGISTER_NOT_RATIFIED", "mastery_report_sha256")
"""register.load's answer to an unratified pack that parses: the gate ratifies it."""

Case = tuple[Callable[[str], bytes], tuple[str, str | None]]


def _bounds(name: str) -> Case:
    overrides, literal, field = VALUES[name]
    want = ("REGISTER_MALFORMED", None) if field is None else (OUT_OF_BOUNDS, field)
    return (lambda rid: base64.b64decode(_pack_file(rid, overrides, literal))), want


def _bytes(name: str) -> Case:
    return (lambda rid: base64.b64decode(pack_file(rid, name))), ("REGISTER_MALFORMED", None)


def _twice(name: str) -> Case:
    path, first, last, want = UNSEALED[name]
    return (lambda rid: _with_twice(gen.pack(rid, markers=MARKERS), path, first, last)), want


CASES: dict[str, Case] = {
    **{f"bound: {name}": _bounds(name) for name in VALUES},
    **{f"bytes: {name}": _bytes(name) for name in BAD_BYTES},
    **{f"twice: {name}": _twice(name) for name in UNSEALED},
}
"""``name: (the pack file's bytes for an id, register.load's code and field)``."""


def _refusal(engine: EngineClient, op: str, args: dict[str, Any]) -> tuple[str, str | None]:
    try:
        engine.call(op, args)
    except EngineRefused as refusal:
        return refusal.code, refusal.field
    return "ok", None


@requirement(
    "LOAD-READ-101",
    "register.ratify_file reads a pack file with the loader's guarded reader, as "
    "register.load does: past a bound (an integer of more than 1,000 digits, the sign not "
    "counted; a number too large for a double; NaN; nesting deeper than 64 levels, arrays "
    "and objects alike), bytes that are not UTF-8 or a byte order mark: REGISTER_MALFORMED, "
    "field null, the file left as it was, no report written; at the bound the pack's own "
    "check names the field; a member named twice counts as its last occurrence",
    family="loader",
    capabilities=("registers.ratify_file",),
    seed="docs/registers.md § The ratification gate (step 2: read and parse it exactly as the "
    "loader does); § Loading (step 4: the guarded reader)",
    strategy=lambda ctx: st.tuples(gen.register_ids, st.sampled_from(sorted(CASES))).map(list),
    cover=coverage.each("pack files", [["r", name] for name in sorted(CASES)]),
    max_examples=6,
)
def gate_reads_as_the_loader(engine: EngineClient, scenario: list[Any]) -> None:
    register_id, name = scenario
    make, want = CASES[name]
    data = make(register_id)
    with scratch() as directory:
        pack = directory / f"{register_id}.json"
        report = directory / f"{register_id}.mastery_report.json"
        pack.write_bytes(data)
        got = _refusal(engine, "register.ratify_file", {"path": str(pack)})
        names = sorted(p.name for p in directory.iterdir())
        if want == PARSED:
            assert got == ("ok", None), (
                f"{name}: register.ratify_file refused it with {got}, and register.load "
                f"parses it ({want[0]}): the gate reads the pack as the loader does"
            )
            assert names == sorted([pack.name, report.name]), (
                f"{name}: after the ratify the directory holds {names}"
            )
            return
        assert got == want, (
            f"{name}: register.ratify_file answered {got}, and register.load {want}: the "
            "gate reads the pack as the loader does"
        )
        assert pack.read_bytes() == data, f"{name}: the refused pack file was rewritten"
        assert names == [pack.name], f"{name}: after the refused ratify the directory holds {names}"


@requirement(
    "LOAD-READ-102",
    "session.open reads a pack given in files with the loader's guarded reader, as "
    "register.load does: past a bound (an integer of more than 1,000 digits, the sign not "
    "counted; a number too large for a double; NaN; nesting deeper than 64 levels, arrays "
    "and objects alike), bytes that are not UTF-8 or a byte order mark: REGISTER_MALFORMED, "
    "field null; at the bound the pack's own check names the field; a member named twice "
    "counts as its last occurrence",
    family="loader",
    capabilities=("sessions", "registers.load"),
    seed="docs/protocol.md § session.open (loaded like register.load); docs/registers.md "
    "§ Loading (step 4: the guarded reader)",
    strategy=lambda ctx: st.tuples(gen.register_ids, st.sampled_from(sorted(CASES))).map(list),
    cover=coverage.each("pack files", [["r", name] for name in sorted(CASES)]),
    max_examples=6,
)
def open_reads_as_the_loader(engine: EngineClient, scenario: list[Any]) -> None:
    register_id, name = scenario
    make, want = CASES[name]
    encoded = base64.b64encode(make(register_id)).decode("ascii")
    files = {f"{register_id}.json": encoded}
    got = _refusal(engine, "session.open", {"register_id": register_id, "files": files})
    assert got == want, (
        f"{name}: session.open answered {got}, and register.load {want}: session.open loads "
        "as register.load does"
    )
