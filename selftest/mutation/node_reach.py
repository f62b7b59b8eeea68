"""Which requirements certify a mutant of each file of ``ports/node`` (StrykerJS runs).

``REACH`` maps a file of the port (relative to ``ports/node``) to the requirement id
prefixes whose requests reach it: the families of the ops the file serves, read from the
port's ``require`` graph and from which op each family sends (docs/mutation.md § Node
engine). A mutant is certified by those requirements only, cheapest first
(``DURATIONS``: the milliseconds each took on the unmutated port, ``node_durations.json``),
stopping at the first that fails.

A narrower selection can never kill a mutant the whole suite would not kill (a failing
requirement fails in either run), so a kill under the map is a kill; it can only leave
survivors the whole suite would kill. Every survivor is therefore run again with the whole
suite (``CORE_NODE_MUTATION_K=*``) before it is reviewed. A file not in the map, or
``$CORE_NODE_MUTATION_K`` set, selects by keyword instead (``*``: every requirement).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from pathlib import Path

DURATIONS_FILE = Path(__file__).with_name("node_durations.json")

PROTOCOL: tuple[str, ...] = ("PROTO-",)
STATE_OPS: tuple[str, ...] = (
    "STATE-",
    "PROTO-ARGS-002",
    "PROTO-ARGS-003",
    "PROTO-ORDER-003",
    "PROTO-ORDER-004",
    "PROTO-PATH-",
    "PROTO-INTERNAL-",
    "PROTO-WIRE-002",
    "PROTO-CAPS-",
)
REGISTER_OPS: tuple[str, ...] = (
    "LOAD-",
    "REG-SHIP-001",
    "REG-TRANS-",
    "REG-INV-001",
    "OVR-GATE-",
    "OVR-RESOLVE-",
    "PROTO-FILES-",
    "PROTO-ORDER-002",
    "PROTO-ARGS-",
    "PROTO-CAPS-",
    "PROTO-QUOTE-",
    "PROTO-ERROR-301",
)
SLOW_STATE: tuple[str, ...] = tuple(
    f"!STATE-{name}"
    for name in ("EIO-", "KILL-", "LIFE-001", "CRASH-", "SOAK-001", "TRACE-", "UNREADABLE-001")
)
"""The state requirements of more than 5 s each (SIGKILL, EIO, strace and soak runs, 90 s of
the 115 s of ``STATE-*``), left out of a file whose mutants cheaper ones reach as well: a
survivor of such a file is run again with every requirement before it counts."""
CHAT = ("COG-", "LEX-", "VAR-CHAT-", "OVR-CHAT-", "REG-", "PROTO-CHAT-", "PROTO-SESSION-")

REACH: dict[str, tuple[str, ...]] = {
    "engine.js": PROTOCOL + ("STATE-SHUTDOWN-", "STATE-LOCK-", "STATE-HANDLE-"),
    "lib/json.js": PROTOCOL + ("LOAD-",) + STATE_OPS + SLOW_STATE,
    "lib/protocol.js": ("PROTO-", "LOAD-", "STATE-", "ALG-", "VAR-", "LEX-"),
    "lib/args.js": ("PROTO-", "ALG-", "LOAD-", "VAR-SELECT-", "OVR-"),
    "lib/algebra.js": ("ALG-", "COG-", "REG-CLOSE-"),
    "lib/variation.js": ("VAR-", "REG-", "OVR-"),
    "lib/registers.js": REGISTER_OPS,
    "lib/lexicon.js": ("LEX-", "COG-", "PROTO-CHAT-"),
    **{f"lib/{name}.js": CHAT for name in ("chat", "truth", "intent", "says", "text")},
    "lib/state/errors.js": STATE_OPS + ("LOAD-",),
    **{
        f"lib/state/{name}.js": STATE_OPS + SLOW_STATE
        for name in (
            "appender",
            "commit",
            "delta",
            "dir",
            "journal",
            "layout",
            "life",
            "lineage",
            "lived",
            "loader",
            "lock",
            "manifest",
            "mutations",
            "ops",
            "records",
            "soak",
            "store",
        )
    },
}

_ACTIVE = re.compile(r'stryMutAct_9fa48\("(\d+)"\)')


def file_of(mutant: str, sandbox: Path) -> str | None:
    """The file (relative to *sandbox*) whose instrumented code holds mutant *mutant*."""
    for path in [sandbox / "engine.js", *sorted((sandbox / "lib").rglob("*.js"))]:
        if mutant in _ACTIVE.findall(path.read_text("utf-8")):
            return path.relative_to(sandbox).as_posix()
    return None


def durations() -> dict[str, int]:
    """Milliseconds per requirement id on the unmutated port (empty when not measured)."""
    if not DURATIONS_FILE.is_file():
        return {}
    return {str(k): int(v) for k, v in json.loads(DURATIONS_FILE.read_text("utf-8")).items()}


def select(
    ids: Iterable[str], prefixes: Iterable[str], cost: Mapping[str, int] | None = None
) -> list[str]:
    """The *ids* starting with one of *prefixes* and with none of those written ``!PREFIX``,
    cheapest first (unmeasured ones last), except that the selected ids written ``^ID``
    (requirements that killed other mutants of the file) come first, cheapest first among
    them too (as ``fastrun.order`` does): a catalogue that kills every mutant of a file but
    costs ten times a cheaper killer never runs ahead of it."""
    given = tuple(prefixes)
    wanted = tuple(p for p in given if not p.startswith(("!", "^")))
    unwanted = tuple(p[1:] for p in given if p.startswith("!"))
    first = [p[1:] for p in given if p.startswith("^")]
    cost = durations() if cost is None else cost
    chosen = [i for i in ids if i.startswith(wanted) and not (unwanted and i.startswith(unwanted))]
    ranked = sorted(chosen, key=lambda i: (i not in cost, cost.get(i, 0), i))
    lead = [i for i in ranked if i in set(first)]
    return lead + [i for i in ranked if i not in lead]


MARK = "--reach"
"""In a certify command line of ``selftest.mutation.node``: the words after it are prefixes."""


def expand(argv: list[str]) -> list[str]:
    """*argv* with ``--reach PREFIX...`` (always last) replaced by ``--id``s, cheapest first."""
    if MARK not in argv:
        return argv
    at = argv.index(MARK)
    from conformance.requirements import REGISTRY

    ids = select(REGISTRY, argv[at + 1 :])
    return [*argv[:at], *(word for i in ids for word in ("--id", i))]


def killers_file() -> Path:
    """Which requirements killed mutants of each file in this checkout's runs (a cache:
    it orders a selection, never changes it)."""
    import hashlib
    import os
    import tempfile

    tag = hashlib.sha256(str(DURATIONS_FILE).encode()).hexdigest()[:12]
    return Path(tempfile.gettempdir()) / f"core-node-killers-{os.getuid()}-{tag}.json"


def killers(where: str) -> list[str]:
    """The requirements that killed mutants of *where*, the most recent first."""
    try:
        found = json.loads(killers_file().read_text("utf-8")).get(where, [])
    except (OSError, ValueError):
        return []
    return [str(i) for i in found]


def remember_killer(where: str, requirement: str) -> None:
    """Put *requirement* first among *where*'s killers."""
    try:
        known = json.loads(killers_file().read_text("utf-8"))
    except (OSError, ValueError):
        known = {}
    known[where] = [requirement, *(i for i in known.get(where, []) if i != requirement)][:8]
    temporary = killers_file().with_suffix(".tmp")
    temporary.write_text(json.dumps(known), "utf-8")
    temporary.replace(killers_file())
