"""A complete last journal line that does not check is corrupt, not a torn tail: it is
reported and skipped, and stays in the file (docs/state.md § Journals: a torn tail is a
last line that is incomplete, no newline or shorter than its length; a complete line whose
length or checksum does not match, or without the header, or whose payload is not a JSON
object, is corrupt).

Each journal ends in one such line after two good ones: its CRC-32 does not match (one
payload byte changed), it holds bytes past its length, it has no header, it is empty, or
its payload is a JSON array. ``state.journal`` with ``repair`` reports it skipped, cuts
nothing and leaves the file as it was; a writer's open on the same journal cuts nothing
either, and a proposal then reads back whole after the kept line, counted with the good
ones. A port that cuts any last line that does not check as a torn tail loses it (and
tells an operator nothing about it), and fails.
"""

from __future__ import annotations

import zlib
from pathlib import Path

from conformance import cases
from conformance.engines.base import EngineClient
from conformance.jsontypes import EncodableObject
from conformance.requirements.registry import requirement
from conformance.state import oracle
from conformance.state.driver import scratch

GOOD = [{"lemma": "first", "claim": "one"}, {"lemma": "second", "claim": "two"}]
LAST = {"lemma": "last", "claim": "three"}
LATER = {"lemma": "later", "claim": "four"}


def _framed(data: bytes, declared: int | None = None) -> bytes:
    length = len(data) if declared is None else declared
    return b"%08x %08x " % (length, zlib.crc32(data)) + data + b"\n"


def _flipped() -> bytes:
    line = bytearray(oracle.frame(LAST))
    line[-3] = ord("#") if line[-3] != ord("#") else ord("%")
    return bytes(line)


def _longer() -> bytes:
    line = oracle.frame(LAST)
    return b"%08x" % (len(line) - 19 - 2) + line[8:]


LAST_LINES = {
    "a CRC-32 that does not match": _flipped(),
    "bytes past its length": _longer(),
    "no header": b"not a framed line\n",
    "an empty line": b"\n",
    "a payload that is a JSON array": _framed(b'["last"]'),
}


def _plant(path: Path, last: bytes) -> bytes:
    data = b"".join(oracle.frame(p) for p in GOOD) + last
    path.write_bytes(data)
    return data


@requirement(
    "STATE-JOURNAL-462",
    "a journal whose complete last line does not check (its CRC-32, bytes past its length, "
    "no header, an empty line, a JSON array) reports it skipped and cuts nothing, by "
    "state.journal with repair and by a writer's open, and a proposal reads back whole "
    "after the kept line",
    family="state",
    capabilities=("state",),
    seed="docs/state.md § Journals (a torn tail is a last line that is incomplete; a "
    "complete line that does not check is corrupt: reported, skipped, kept)",
    max_examples=1,
)
def corrupt_last_line_kept(engine: EngineClient, _: object) -> None:
    version = oracle.schema_of(engine.capabilities())
    problems: list[str] = []
    with scratch() as root:
        for number, (what, last) in enumerate(LAST_LINES.items()):
            directory = root / str(number)
            directory.mkdir()
            path = directory / "proposals.journal"
            data = _plant(path, last)
            args: EncodableObject = {"dir": str(directory), "name": "proposals", "repair": True}
            got = engine.call("state.journal", args)
            seen = (got.get("entries"), got.get("skipped"), got.get("cut_bytes"))
            if seen != (GOOD, [3], 0):
                problems.append(f"{what}: state.journal answered {seen}, not {(GOOD, [3], 0)}")
            if path.read_bytes() != data:
                problems.append(f"{what}: the repair changed the file")
            oracle.write_generation(directory, 1, oracle.encode_core([]), version)
            store = engine.call("state.open", {"dir": str(directory)})["store"]
            queued = engine.call("state.propose", {"store": store, "proposal": LATER})
            engine.call("state.close", {"store": store})
            if queued.get("pending") != len(GOOD) + 1:
                problems.append(
                    f"{what}: pending {queued.get('pending')!r} after the open and a proposal, "
                    f"not {len(GOOD) + 1}"
                )
            if path.read_bytes() != data + oracle.frame(LATER):
                problems.append(
                    f"{what}: after an open and a proposal the journal is "
                    f"{path.read_bytes()[len(data) - len(last) :]!r} past the good lines, not "
                    f"the kept line and the proposal"
                )
    assert not problems, cases.lines(problems, f"{len(problems)} problems:")
