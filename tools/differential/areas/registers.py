"""Register cases: a shipped pack with a few members changed, validated, ratified, or
ratified and then loaded (its files maybe edited) and chatted under."""

from __future__ import annotations

import copy
import random

from tools.differential.areas.chat import chat_turn, rvid
from tools.differential.areas.variation import marker_bucket
from tools.differential.material import INTENTS, Material
from tools.differential.prompts import prompt
from tools.differential.shared import Json

REGISTER_IDS = ["mine_v1", "x", "Bad Id", "", "a.b", "unregistered", "UNREGISTERED"]
REGISTER_IDS += ["a" * 64, "a" * 65, "\u00e9_v1", "x.", "-x", "_x", "x-y_z.1"]
FILE_EDITS = [
    "",
    "",
    "drop_report",
    "pack_space",
    "report_space",
    "pack_crlf",
    "pack_bom",
    "report_field",
    "report_seal",
    "pack_field",
    "rename",
]
"""The edits of :func:`tools.differential.file_edits.edit_files`; no edit ("") twice as
often as any one."""


def _markers(rng: random.Random) -> Json:
    markers = {
        "openings": marker_bucket(rng),
        "closings": marker_bucket(rng),
        "transitions": marker_bucket(rng),
    }
    if rng.random() < 0.2:
        markers.pop(rng.choice(["openings", "closings", "transitions"]))
    return markers


def _realizer_overrides(rng: random.Random) -> Json:
    return rng.choice(
        [
            {},
            {"disclosure_domain_count": rng.choice([1, 2, 3, 4, "2"])},
            {"per_intent": {rng.choice(INTENTS): {"disclosure_domain_count": 2}}},
            {"per_intent": {"nope": {}}},
            {"other": 1},
        ]
    )


def _change_member(rng: random.Random, pack: Json) -> None:
    """Drop a member of *pack*, retype it, or give a known member a new value."""
    key = rng.choice(sorted(pack) + ["extra"])
    roll = rng.randrange(7)
    if roll == 0:
        pack.pop(key, None)
    elif roll == 1:
        pack[key] = rng.choice([None, 1, "", "x", [], {}, True])
    elif roll == 2:
        pack["discourse_markers"] = _markers(rng)
    elif roll == 3:
        pack["realizer_overrides"] = _realizer_overrides(rng)
    elif roll == 4:
        pack["depth_preference"] = rng.choice(["standard", "terse", "deep", "Terse", "", 3])
    elif roll == 5:
        pack["version"] = rng.choice(["1.0.0", "1.0", "v1", "", "1.0.0-rc.1", "01.0.0"])
    else:
        pack["schema_version"] = rng.choice(["1.0.0", "2.0.0", "1.0", 1])


def _mutate_pack(rng: random.Random, m: Material) -> Json:
    """A copy of a shipped pack, maybe renamed, with up to three members changed."""
    pack = copy.deepcopy(m.packs[rng.choice(sorted(m.packs))])
    if rng.random() < 0.4:
        pack["register_id"] = rng.choice(REGISTER_IDS)
    for _ in range(rng.choice([0, 0, 1, 1, 2, 3])):
        _change_member(rng, pack)
    return pack


def _ratified_session(rng: random.Random, m: Material, pack: Json) -> list[Json]:
    """Ratify *pack*, then load the files this engine returned (maybe edited), open a
    session on them, chat, and maybe load another register with no files."""
    rid = pack.get("register_id")
    rid = rid if isinstance(rid, str) else "x"
    files = {"$files": 0, "edit": rng.choice(FILE_EDITS)}
    case: list[Json] = [{"id": 1, "op": "register.ratify", "args": {"pack": pack}}]
    case.append({"id": 2, "op": "register.load", "args": {"register_id": rid, "files": files}})
    case.append({"id": 3, "op": "session.open", "args": {"register_id": rid, "files": files}})
    for t in range(rng.randint(0, 3)):
        case.append(chat_turn(4 + t, 0, prompt(rng, m)))
    if rng.random() < 0.3:
        other = ["convivial_v1", "terse_v1", "nope_v1", "Convivial_v1", "", "unregistered"]
        load = {"register_id": rng.choice(other), "files": {}}
        case.append({"id": 9, "op": "register.load", "args": load})
    return case


def gen_registers(rng: random.Random, m: Material) -> tuple[list[Json], dict[str, Json]]:
    """A register case; its context's ``rvid`` follows the pack's markers."""
    pack = _mutate_pack(rng, m)
    roll = rng.randrange(3)
    if roll == 0:
        args: dict[str, Json] = {"pack": pack}
        if rng.random() < 0.5:
            args["expected_id"] = rng.choice([pack.get("register_id"), "other", None, 3])
        return [{"id": 1, "op": "register.validate", "args": args}], {}
    if roll == 1:
        return [{"id": 1, "op": "register.ratify", "args": {"pack": pack}}], {}
    case = _ratified_session(rng, m, pack)
    context = {"rvid": rvid(pack) if isinstance(pack.get("discourse_markers"), dict) else None}
    return case, context
