"""A store one engine wrote resumes in the other (docs/state.md § The life; docs/trace-hash.md
§ Vault addresses): what the user said before the restart is recalled from the vault, and
both engines key a lemma's vault record by the same address."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from conformance.engines import InProcessEngine
from conformance.engines.base import EngineClient
from conformance.engines.subprocess import SubprocessEngine
from conformance.state.format import live_core, vault_address

ROOT = Path(__file__).resolve().parents[2]
NODE_ENGINE = ROOT / "ports" / "node" / "engine.js"
TAUGHT = ["No, light is a wave.", "Parent is a kind of relative."]
RECALLS = ["What did I say about light?", "What did I say about parent?"]


def _engines() -> dict[str, EngineClient]:
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    return {
        "python": InProcessEngine("reference.serve:factory"),
        "node": SubprocessEngine(f"{node} {NODE_ENGINE}", timeout=30),
    }


def _live(engine: EngineClient, directory: Path, prompts: list[str]) -> list[dict]:
    store = engine.call("state.open", {"dir": str(directory)})["store"]
    session = engine.call("session.open", {"register_id": None, "store": store})["session"]
    try:
        return [engine.call("session.chat", {"session": session, "text": t}) for t in prompts]
    finally:
        engine.call("session.close", {"session": session})
        engine.call("state.close", {"store": store})


@pytest.mark.parametrize(("writer", "reader"), [("node", "python"), ("python", "node")])
def test_a_store_resumes_in_the_other_engine(tmp_path: Path, writer: str, reader: str) -> None:
    engines = _engines()
    directory = tmp_path / "life"
    _live(engines[writer], directory, TAUGHT)
    core = live_core(directory).decode("utf-8").splitlines()
    keys = {r["lemma"]: r["key"] for r in map(json.loads, core) if r["kind"] == "vault"}
    assert keys == {lemma: vault_address(lemma) for lemma in ("light", "parent")}
    recalled = _live(engines[reader], directory, RECALLS)
    assert [r["grounding_source"] for r in recalled] == ["vault", "vault"]
    assert [r["turn_idx"] for r in recalled] == [2, 3]
    if all("says" in r for r in recalled):
        assert recalled[0]["says"]["claim"] == "is a wave"
        assert recalled[1]["says"]["said"][0]["text"] == "parent is a kind of relative."


def _put(key: str, weight: int) -> dict:
    record = {"kind": "recognizer", "key": key, "pattern": "p" * 40, "weight": weight}
    return {"op": "put", "record": record}


def test_a_delta_generation_the_reference_wrote_loads_in_the_node_port(tmp_path: Path) -> None:
    """docs/state.md § Delta generations: every engine claiming ``state.delta`` loads them,
    and its next checkpoint keeps the base the delta names."""
    engines = _engines()
    python, node = engines["python"], engines["node"]
    directory = tmp_path / "store"
    store = python.call("state.open", {"dir": str(directory)})["store"]
    python.call(
        "state.apply", {"store": store, "mutations": [_put(f"k{i:02d}", i) for i in range(20)]}
    )
    python.call("state.checkpoint", {"store": store})
    python.call("state.apply", {"store": store, "mutations": [_put("k03", 99)]})
    python.call("state.close", {"store": store})
    assert (directory / "gen-00000002" / "delta.jsonl").exists(), sorted(directory.iterdir())
    loaded = {name: e.call("state.load", {"dir": str(directory)}) for name, e in engines.items()}
    assert loaded["node"] == loaded["python"]
    store = node.call("state.open", {"dir": str(directory)})["store"]
    node.call("state.apply", {"store": store, "mutations": [{"op": "turn"}]})
    node.call("state.close", {"store": store})
    assert sorted(p.name for p in directory.glob("gen-*")) == [
        "gen-00000001",
        "gen-00000002",
        "gen-00000003",
    ]
    again = python.call("state.load", {"dir": str(directory)})
    assert (again["identity"], again["generation"]) == (loaded["python"]["identity"], 3)
