"""The partial order docs/state.md § Commit protocol sets on a checkpoint's file operations.

A checkpoint's operations (as strace shows them, or as ``state.trace_checkpoint`` reports
them, ``remove_tree`` expanded) are sorted into the **events** the protocol's steps name
(:data:`EVENTS`); :data:`PAIRS` lists, for every two events the steps order, which comes
first and the sentence that says so. :func:`violations` names each pair that does not
hold: an event of a pair that never happens, or an operation of the later event before
one of the earlier. Both tables are plain data, read by ``STATE-STEPS-001`` and cited by
the orderings table of docs/traceability.md.
"""

from __future__ import annotations

from conformance.state.step_pairs import Op, Protocol, broken_pairs, first_after, top

DATA_OPS = ("write", "append", "pwrite", "truncate")
REMOVALS = ("unlink", "rmdir")
POINTER, POINTER_TMP, CORE, MANIFEST = "CURRENT", "CURRENT.tmp", "core.jsonl", "manifest.json"
DELTA = "delta.jsonl"
"""A delta generation's file in the place of ``core.jsonl`` (docs/state.md § Delta
generations): its write, fsync and removal are the core's events."""

EVENTS: dict[str, str] = {
    "debris": "step 1: the removal of every staging-* entry and CURRENT.tmp",
    "mkdir": "step 2: the creation of the staging directory",
    "core": "step 2: the write of core.jsonl",
    "core_sync": "step 2: the fsync of core.jsonl after its write",
    "manifest": "step 2: the write of manifest.json",
    "manifest_sync": "step 2: the fsync of manifest.json after its write",
    "staging_sync": "step 3: the fsync of the staging directory after its files'",
    "publish": "step 4: the rename of the staging directory to gen-N",
    "publish_sync": "step 4: the fsync of the state directory after that rename",
    "pointer": "step 5: the write of CURRENT.tmp",
    "pointer_sync": "step 5: the fsync of CURRENT.tmp after its write",
    "swap": "step 5: the rename of CURRENT.tmp over CURRENT",
    "swap_sync": "step 5: the fsync of the state directory after that rename",
    "prune": "step 6: the removal of a generation other than N and L",
    "prune_core": "step 6: the removal of a pruned generation's core.jsonl",
    "prune_rest": "step 6: the removal of the rest of that generation",
}

PAIRS: tuple[tuple[str, str, str], ...] = (
    ("debris", "mkdir", "steps 1 and 2: debris is removed before anything is staged"),
    ("mkdir", "core", "step 2: create a staging directory; write core.jsonl"),
    ("core", "core_sync", "step 2: write core.jsonl, fsync it"),
    ("core_sync", "manifest", "step 2: fsync it; write manifest.json"),
    ("manifest", "manifest_sync", "step 2: write manifest.json, fsync it"),
    ("core_sync", "staging_sync", "steps 2 and 3: the files are durable before their directory"),
    ("manifest_sync", "staging_sync", "steps 2 and 3"),
    ("staging_sync", "publish", "steps 3 and 4: the staging directory is durable, then renamed"),
    ("publish", "publish_sync", "step 4: rename the staging directory; fsync the state directory"),
    ("publish_sync", "pointer", "steps 4 and 5: gen-N is durable before the pointer names it"),
    ("pointer", "pointer_sync", "step 5: write CURRENT.tmp, fsync it"),
    ("pointer_sync", "swap", "step 5: fsync it, rename it over CURRENT"),
    ("swap", "swap_sync", "step 5: rename it over CURRENT, fsync the state directory"),
    ("swap_sync", "prune", "steps 5 and 6: a generation is removed only once N is durable"),
    ("prune_core", "prune_rest", "step 6: a generation is removed core.jsonl first"),
)
"""Every ordered pair of events; an event named here must happen (``prune`` and its parts
only when the trace removes a generation, ``debris`` only when debris was there)."""

PER_GENERATION = frozenset({"prune_core"})
"""The events whose order holds within each pruned generation, not across them."""
OPTIONAL = frozenset({"debris", "prune", "prune_core", "prune_rest"})


def _is_generation(name: str) -> bool:
    return name.startswith("gen-") and name[4:].isdigit()


def events(ops: list[Op], generation: str) -> dict[str, list[int]]:
    """The indices of *ops* that make each event of a checkpoint committing *generation*."""
    renames = [i for i, op in enumerate(ops) if op["op"] == "rename" and op["dst"] == generation]
    staging = ops[renames[0]]["src"] if renames else None
    found: dict[str, list[int]] = {name: [] for name in EVENTS}

    for index, op in enumerate(ops):
        kind, path = op["op"], op.get("path", "")
        if kind in REMOVALS:
            entry = top(path)
            if entry == POINTER_TMP or (entry.startswith("staging-") and entry != staging):
                found["debris"].append(index)
            elif _is_generation(entry) and entry != generation:
                found["prune"].append(index)
                core = path in (f"{entry}/{CORE}", f"{entry}/{DELTA}")
                found["prune_core" if core else "prune_rest"].append(index)
        elif kind == "mkdir" and staging is not None and path == staging:
            found["mkdir"].append(index)
        elif kind == "rename":
            if op["dst"] == generation:
                found["publish"].append(index)
            elif op["src"] == POINTER_TMP and op["dst"] == POINTER:
                found["swap"].append(index)
        elif path == POINTER_TMP and kind in DATA_OPS:
            found["pointer"].append(index)
        elif staging is not None and kind in DATA_OPS:
            for name, event in ((CORE, "core"), (DELTA, "core"), (MANIFEST, "manifest")):
                if path == f"{staging}/{name}":
                    found[event].append(index)
    if staging is not None:
        data = (
            DELTA
            if any(ops[i].get("path") == f"{staging}/{DELTA}" for i in found["core"])
            else CORE
        )
        for name, event in ((data, "core"), (MANIFEST, "manifest")):
            found[f"{event}_sync"] = first_after(ops, found[event], "fsync", f"{staging}/{name}")
        synced = found["core_sync"] + found["manifest_sync"]
        found["staging_sync"] = first_after(ops, synced, "fsync_dir", staging)
    found["pointer_sync"] = first_after(ops, found["pointer"], "fsync", POINTER_TMP)
    found["publish_sync"] = first_after(ops, found["publish"], "fsync_dir", ".")
    found["swap_sync"] = first_after(ops, found["swap"], "fsync_dir", ".")
    return found


PROTOCOL = Protocol("docs/state.md § Commit protocol", EVENTS, PAIRS, PER_GENERATION)


def violations(ops: list[Op], generation: str, *, debris: bool) -> list[str]:
    """Each pair of :data:`PAIRS` that *ops*, a checkpoint committing *generation* (a
    directory name, ``gen-00000003``), break, and pruned generations not removed newest
    first; *debris* says step 1 had debris to remove."""
    needed = set(EVENTS) - OPTIONAL | ({"debris"} if debris else set())
    return broken_pairs(PROTOCOL, ops, events(ops, generation), needed) + _oldest_before_newer(
        ops, generation
    )


def _oldest_before_newer(ops: list[Op], generation: str) -> list[str]:
    """Step 6 removes generations newest first: every removal of a pruned generation comes
    before any removal of an older one."""
    spans: dict[str, list[int]] = {}
    for index, op in enumerate(ops):
        entry = top(op.get("path", ""))
        if op["op"] in REMOVALS and _is_generation(entry) and entry != generation:
            spans.setdefault(entry, []).append(index)
    names = sorted(spans, reverse=True)
    return [
        f"step 6: {older} is removed (op {spans[older][0]}) before {newer} is gone "
        f"(op {spans[newer][-1]}): generations are removed newest first"
        for newer, older in zip(names, names[1:], strict=False)
        if spans[older][0] < spans[newer][-1]
    ]
