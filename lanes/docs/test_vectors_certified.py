"""Every known-answer vector file the suite ships is certified against the engine.

``conformance/data/vectors/`` holds the known answers docs/spec.md points engine authors
to. A file that only the reference's own lanes read certifies nothing about another
engine, so each must be read by a requirement module (named there by its file name).
"""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
VECTORS = ROOT / "conformance" / "data" / "vectors"
REQUIREMENTS = ROOT / "conformance" / "requirements"


def test_every_vector_file_is_read_by_a_requirement() -> None:
    sources = [p.read_text("utf-8") for p in sorted(REQUIREMENTS.glob("*.py"))]
    files = [p.name for p in sorted(VECTORS.iterdir()) if p.suffix in (".json", ".jsonl")]
    assert files, "no vector files found"
    unread = [name for name in files if not any(name in source for source in sources)]
    assert unread == [], f"vector files no requirement reads: {unread}"
