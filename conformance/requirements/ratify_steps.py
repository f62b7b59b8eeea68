"""The order of a ratify's file operations: every pair of events the steps of
docs/registers.md § Atomic commit of the pair order, on one ``register.ratify_file`` run
under strace with a killed ratify's staging directory left beside the pack."""

from __future__ import annotations

import json
from pathlib import Path

from conformance import cases, details
from conformance import strategies as gen
from conformance.engines.base import EngineClient
from conformance.jsontypes import EncodableObject
from conformance.model import NotCheckable
from conformance.requirements.registry import requirement
from conformance.state import inject, strace
from conformance.state.driver import scratch
from conformance.state.step_pairs import Op, Protocol, broken_pairs, first_after

STEM = "steps_pack"
PACK, REPORT = f"{STEM}.json", f"{STEM}.mastery_report.json"
STAGING, PENDING = f".{STEM}.ratify.tmp", f".{STEM}.ratify"
DATA_OPS = ("write", "append", "pwrite", "truncate")

EVENTS = {
    "debris": "step 1: the removal of the staging directory a killed ratify left",
    "mkdir": "step 2: the creation of the staging directory",
    "pack": "step 2: the write of the staged pack",
    "pack_sync": "step 2: the fsync of the staged pack after its write",
    "report": "step 2: the write of the staged report",
    "report_sync": "step 2: the fsync of the staged report after its write",
    "staging_sync": "step 2: the fsync of the staging directory after its files'",
    "commit": "step 3: the rename of the staging directory to the pending one (the commit)",
    "commit_sync": "step 3: the fsync of the pack's directory after that rename",
    "report_out": "step 4: the rename of the report to its final name",
    "pack_out": "step 4: the rename of the pack to its final name",
    "out_sync": "step 4: the fsync of the pack's directory after those renames",
    "pending_gone": "step 4: the removal of the empty pending directory",
    "final_sync": "step 4: the fsync of the pack's directory after that removal",
}
PAIRS = (
    ("debris", "mkdir", "steps 1 and 2: what a killed ratify left is finished first"),
    ("mkdir", "pack", "step 2: creates the staging directory and writes into it"),
    ("mkdir", "report", "step 2"),
    ("pack", "pack_sync", "step 2: each file fsynced"),
    ("report", "report_sync", "step 2: each file fsynced"),
    ("pack_sync", "staging_sync", "step 2: each file fsynced, then the directory"),
    ("report_sync", "staging_sync", "step 2: each file fsynced, then the directory"),
    ("staging_sync", "commit", "steps 2 and 3: the staged pair is durable before its rename"),
    ("commit", "commit_sync", "step 3: renames, then fsyncs the pack's directory"),
    ("commit_sync", "report_out", "steps 3 and 4: the commit is durable before the roll"),
    ("report_out", "pack_out", "step 4: renames the report, then the pack"),
    ("pack_out", "out_sync", "step 4: then fsyncs the pack's directory"),
    ("out_sync", "pending_gone", "step 4: then removes the empty pending directory"),
    ("pending_gone", "final_sync", "step 4: and fsyncs again"),
)
PROTOCOL = Protocol("docs/registers.md § Atomic commit of the pair", EVENTS, PAIRS)


def events(ops: list[Op]) -> dict[str, list[int]]:
    """The indices of *ops* (a ratify's operations in the pack's directory) of each event."""
    found: dict[str, list[int]] = {name: [] for name in EVENTS}
    staged = {f"{STAGING}/{PACK}": "pack", f"{STAGING}/{REPORT}": "report"}
    for index, op in enumerate(ops):
        kind, path = op["op"], op.get("path", "")
        if kind in ("unlink", "rmdir") and path.split("/", 1)[0] == STAGING:
            found["debris"].append(index)
        elif kind == "rmdir" and path == PENDING:
            found["pending_gone"].append(index)
        elif kind == "mkdir" and path == STAGING and not found["mkdir"]:
            found["mkdir"].append(index)
        elif path in staged and kind in DATA_OPS:
            found[staged[path]].append(index)
        elif kind == "rename" and (op["src"], op["dst"]) == (STAGING, PENDING):
            found["commit"].append(index)
        elif kind == "rename" and (op["src"], op["dst"]) == (f"{PENDING}/{REPORT}", REPORT):
            found["report_out"].append(index)
        elif kind == "rename" and (op["src"], op["dst"]) == (f"{PENDING}/{PACK}", PACK):
            found["pack_out"].append(index)
    for path, event in staged.items():
        found[f"{event}_sync"] = first_after(ops, found[event], "fsync", path)
    synced = found["pack_sync"] + found["report_sync"]
    found["staging_sync"] = first_after(ops, synced, "fsync_dir", STAGING)
    found["commit_sync"] = first_after(ops, found["commit"], "fsync_dir", ".")
    found["out_sync"] = first_after(ops, found["report_out"] + found["pack_out"], "fsync_dir", ".")
    found["final_sync"] = first_after(ops, found["pending_gone"], "fsync_dir", ".")
    return found


@requirement(
    "LOAD-STEPS-001",
    "an in-place ratify (register.ratify_file) keeps every order the steps of the pair's "
    "atomic commit state: a killed ratify's staging directory removed first; each staged "
    "file written, then fsynced, then the staging directory; the commit rename, then the "
    "directory fsynced; the report renamed out, then the pack, the directory fsynced, the "
    "pending directory removed and the directory fsynced again",
    family="loader",
    capabilities=("registers.ratify", "registers.ratify_file"),
    seed="docs/registers.md § Atomic commit of the pair (steps 1 to 4, in order)",
    max_examples=1,
)
def ratify_steps_in_order(engine: EngineClient, _: object) -> None:
    command = engine.spawn_command()
    if not command:
        raise NotCheckable("the engine cannot be started as a separate process to trace")
    if not strace.available():
        raise NotCheckable(f"strace is not available ({strace.INSTALL_HINT})")
    launcher = inject.Launcher(command, "fork" in engine.capabilities())
    with scratch() as root:
        directory = root / "packs"
        (directory / STAGING).mkdir(parents=True)
        (directory / STAGING / PACK).write_bytes(b'{"torn": ')
        (directory / PACK).write_bytes(json.dumps(gen.pack(STEM), indent=1).encode())
        session = [inject.Request("register.ratify_file", {"path": str(Path(directory, PACK))})]
        run = inject.run_session(launcher, directory, session, None)
    answer = run.answers[0]
    request: EncodableObject = {"op": session[0].op, "args": session[0].bound(None)}
    engine.transcript.record(
        {**request, "strace": "traced"}, None if answer is None else vars(answer)
    )
    assert answer is not None and answer.ok, f"the ratify failed: {run.fault or answer}"
    details.count(traced_ops=len(run.ops), ordered_pairs=len(PAIRS))
    problems = broken_pairs(PROTOCOL, run.ops, events(run.ops), set(EVENTS))
    assert not problems, cases.lines(problems, "the ratify breaks the atomic commit's order:")
