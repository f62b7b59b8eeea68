"""Known-answer vectors of the canonical JSON encoding (docs/spec.md § Canonical JSON).

Each vector is checked three ways: the reference encoder gives its bytes and SHA-256;
the hashed structure it stands for (trace record, pack seal, state records, identity)
is taken by the reference code that hashes it; and where RFC 8785 (JCS) applies, the
``rfc8785`` package gives the same bytes (or, where the spec says the two differ, not).
"""

from __future__ import annotations

import hashlib
import json
import pathlib
import shutil
import subprocess
from importlib import resources

import pytest
import rfc8785

from reference.canonical import FloatInHashError, canonical_json
from reference.registers.seal import pack_source_sha256, seal_report
from reference.state.core import encode_core, encode_record, identity

VECTORS = [
    json.loads(line)
    for line in resources.files("conformance.data.vectors")
    .joinpath("canonical.jsonl")
    .read_text("ascii")
    .splitlines()
    if line.strip()
]
IDS = [v["name"] for v in VECTORS]
STRUCTURES = {
    "value",
    "trace_record",
    "pack_source",
    "report_seal",
    "state_record",
    "state_identity",
    "state_manifest",
}


def test_vectors_cover_every_hashed_structure():
    assert {v["structure"] for v in VECTORS} == STRUCTURES
    names = " ".join(IDS)
    for topic in ("astral-keys", "escapes", "integers-at-bounds", "float-refused"):
        assert topic in names


@pytest.mark.parametrize("vector", VECTORS, ids=IDS)
def test_reference_encoder(vector):
    if vector["structure"] == "state_identity":
        pytest.skip("an identity is not one JSON text; see test_state_structures")
    if vector["canonical"] is None:
        with pytest.raises(FloatInHashError):
            canonical_json(vector["value"])
        return
    text = canonical_json(vector["value"])
    assert text == vector["canonical"]
    assert hashlib.sha256(text.encode("utf-8")).hexdigest() == vector["sha256"]


@pytest.mark.parametrize(
    "vector", [v for v in VECTORS if v["jcs"] is not None], ids=lambda v: v["name"]
)
def test_rfc8785_where_jcs_applies(vector):
    if vector["structure"] == "state_identity":
        assert vector["jcs"] is False
        return
    jcs = rfc8785.dumps(vector["value"])
    if vector["jcs"]:
        assert jcs == vector["canonical"].encode("utf-8")
    else:
        assert jcs != vector["canonical"].encode("utf-8")
        assert json.loads(jcs) == vector["value"], "JCS differs only in key order"


def _one(structure):
    return [v for v in VECTORS if v["structure"] == structure]


@pytest.mark.parametrize(
    "vector", _one("pack_source") + _one("report_seal"), ids=lambda v: v["name"]
)
def test_pack_seal_structures(vector):
    if vector["structure"] == "pack_source":
        assert pack_source_sha256(vector["value"]) == vector["sha256"]
    else:
        assert seal_report(vector["value"])["seal"] == vector["sha256"]


@pytest.mark.parametrize(
    "vector", _one("state_record") + _one("state_identity"), ids=lambda v: v["name"]
)
def test_state_structures(vector):
    if vector["structure"] == "state_record":
        assert encode_record(vector["value"]) == vector["canonical"].encode("utf-8") + b"\n"
        return
    value = vector["value"]
    core = encode_core(value["records"])
    prefix = f"core-state/{value['schema_version']}\n".encode("ascii")
    assert prefix + core == vector["canonical"].encode("utf-8")
    assert identity(value["schema_version"], core) == vector["sha256"]


TRACE_SCRIPT = (
    "What is light?",
    "What is light?",
    "Why does darkness hide things?",
    "Tell me about 😀 zyx",
    "  WHAT   is   Ångström \u00e9?  ",
)


def test_trace_records_are_what_the_reference_seals():
    from reference.truth.pipeline import TruthPipeline

    pipeline = TruthPipeline()
    hashes = [pipeline.run(text).trace_hash for text in TRACE_SCRIPT]
    assert hashes == [v["sha256"] for v in _one("trace_record")]


def test_node_port_encoder():
    """The Node port's encoder passes the same vectors (skipped where Node is not installed)."""
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    tests = pathlib.Path(__file__).resolve().parents[2] / "ports" / "node" / "test"
    done = subprocess.run([node, "--test", str(tests)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
