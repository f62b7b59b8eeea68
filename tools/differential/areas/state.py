"""State cases: a store on a fresh directory, mutations, checkpoints, proposals, sessions
living on it, reopenings, and its journals read at the end."""

from __future__ import annotations

import random

from tools.differential.areas.chat import chat_turn
from tools.differential.areas.variation import hex_digits
from tools.differential.material import REGISTERS, Material
from tools.differential.prompts import prompt
from tools.differential.shared import Json

RECORD_KEYS = ["a", "b", "\u00e9", "e\u0301", "K", "k" * 128, "k" * 129, "", "\U0001f600"]
RECORD_KEYS += ["\ue000", "\uffef", "\U0001f600" * 128, "\U0001f600" * 129, "a\u0000", "\u2028"]


def _candidate(rng: random.Random, key: str) -> Json:
    record: Json = {
        "kind": "candidate",
        "key": key,
        "lemma": "light",
        "score": rng.choice([1, -3, 2**53 - 1, 2**53]),
        "status": rng.choice(["speculative", "coherent", "rejected", "Coherent"]),
    }
    if rng.random() < 0.4:
        record["evidence"] = rng.choice([0, 2, None, "1", 1.0])
    return record


def _recognizer(rng: random.Random, key: str) -> Json:
    record: Json = {
        "kind": "recognizer",
        "key": key,
        "pattern": "x+",
        "weight": rng.choice([1, 0, True]),
    }
    if rng.random() < 0.4:
        record["label"] = rng.choice(["", "l", None])
    return record


def _session(rng: random.Random, key: str) -> Json:
    return {
        "kind": "session",
        "key": rng.choice(["session", key]),
        "register_id": rng.choice([None, "convivial_v1", 3]),
    }


def _life(rng: random.Random, key: str) -> Json:
    return {
        "kind": "life",
        "key": "life",
        "turns": rng.choice([0, 3, -1]),
        "context": rng.choice([None, "light"]),
        "rotor": ["3ff0000000000000"] + ["0000000000000000"] * rng.choice([31, 30]),
    }


def _vault(rng: random.Random, key: str) -> Json:
    return {
        "kind": "vault",
        "key": hex_digits(rng),
        "lemma": "light",
        "count": 1,
        "first_turn": 0,
        "last_turn": rng.choice([0, 1]),
        "latest_claim": None,
        "said": rng.choice([[], [{"claim": None, "text": "x", "turn_idx": 0}], [{}] * 4]),
    }


def _unknown_kind(rng: random.Random, key: str) -> Json:
    return {"kind": rng.choice(["note", "Vault", ""]), "key": key}


def _not_a_record(rng: random.Random, key: str) -> Json:
    return rng.choice([3, [], {"key": key}, {"kind": "candidate", "key": key}])


RECORDS = [_candidate, _recognizer, _session, _life, _vault, _unknown_kind, _not_a_record]


def _record(rng: random.Random) -> Json:
    """A record to put: of each kind, well formed or not, rarely with an extra member."""
    key = rng.choice(RECORD_KEYS)
    record = RECORDS[rng.randrange(7)](rng, key)
    if isinstance(record, dict) and rng.random() < 0.1:
        record["extra"] = 1
    return record


def _mutation(rng: random.Random) -> Json:
    roll = rng.randrange(6)
    if roll <= 2:
        return {"op": "put", "record": _record(rng)}
    if roll == 3:
        return {
            "op": "delete",
            "kind": rng.choice(["candidate", "vault", "session", "note"]),
            "key": rng.choice(["a", "b", "", "session"]),
        }
    if roll == 4:
        return {"op": "turn"}
    return rng.choice(
        [
            {"op": "put"},
            {"op": "nope"},
            3,
            {"op": "turn", "x": 1},
            {"op": "delete", "kind": "candidate"},
        ]
    )


def _living_session(
    rng: random.Random, m: Material, i: int, store: Json, handle: int
) -> list[Json]:
    """A session living on *store* (state.life) as the case's *handle*-th handle: a few
    turns, then closed."""
    register = rng.choice(REGISTERS)
    opened = {"register_id": register, "store": store}
    requests: list[Json] = [{"id": f"o{i}", "op": "session.open", "args": opened}]
    for t in range(rng.randint(1, 3)):
        requests.append(chat_turn(f"c{i}.{t}", handle, prompt(rng, m)))
    closed = {"session": {"$handle": handle}}
    requests.append({"id": f"x{i}", "op": "session.close", "args": closed})
    return requests


def _store_request(rng: random.Random, roll: int, rid: int, store: Json) -> Json:
    """The request of a step that opens no handle (*roll* 0 to 6)."""
    if roll <= 2:
        muts = [_mutation(rng) for _ in range(rng.randint(0, 3))]
        return {"id": rid, "op": "state.apply", "args": {"store": store, "mutations": muts}}
    if roll == 3:
        return {"id": rid, "op": "state.checkpoint", "args": {"store": store}}
    if roll == 4:
        return {"id": rid, "op": "state.digest", "args": {"store": store}}
    if roll == 5:
        proposal = rng.choice([{"x": 1}, {}, {"k": "\u00e9"}, {"f": 1.5}, {"n": 10**30}])
        return {"id": rid, "op": "state.propose", "args": {"store": store, "proposal": proposal}}
    return {"id": rid, "op": "state.load", "args": {"dir": "$dir"}}


def _step(rng: random.Random, m: Material, i: int, stores: int) -> tuple[list[Json], int]:
    """The requests of step *i* on the latest store, and the handles opened so far."""
    roll = rng.randrange(9)
    store = {"$handle": stores - 1}
    if roll <= 6:
        return [_store_request(rng, roll, i + 2, store)], stores
    if roll == 7:
        return _living_session(rng, m, i, store, stores), stores + 1
    # close and reopen: the store resumes from its directory
    reopened = [
        {"id": f"close{i}", "op": "state.close", "args": {"store": store}},
        {"id": f"open{i}", "op": "state.open", "args": {"dir": "$dir"}},
    ]
    return reopened, stores + 1


def gen_state(rng: random.Random, m: Material) -> tuple[list[Json], dict[str, Json]]:
    """A state case on ``"$dir"`` (a fresh temporary directory per engine, bound by
    :class:`tools.differential.replay.Pair`); ``rvid`` unknown."""
    case: list[Json] = [{"id": 1, "op": "state.open", "args": {"dir": "$dir"}}]
    stores = 1
    for i in range(rng.randint(1, 7)):
        requests, stores = _step(rng, m, i, stores)
        case.extend(requests)
    case.append({"id": "close", "op": "state.close", "args": {"store": {"$handle": stores - 1}}})
    case.append({"id": "load", "op": "state.load", "args": {"dir": "$dir"}})
    journal = {"dir": "$dir", "name": rng.choice(["proposals", "lineage", "overflow"])}
    case.append({"id": "j", "op": "state.journal", "args": journal})
    return case, {"rvid": None}
