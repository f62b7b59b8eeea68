"""What the shipped language packs say of each lemma, as suite data.

The cognition requirements certify engines built on the shipped language packs
(docs/protocol.md § ``lexicon.list``); a requirement that checks an answer says what the
pack says of a subject needs each lemma's gloss and domains. The suite never imports the
engine, so this tool writes them from ``reference/lexicon/data/*.json`` into
``conformance/data/cognition/packs.json``, and ``lanes/docs/test_pack_digest.py`` fails when
the two differ.

    python -m tools.pack_digest          # write the digest
    python -m tools.pack_digest --check  # exit 1 when it is out of date
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
PACKS = ROOT / "reference" / "lexicon" / "data"
DIGEST = ROOT / "conformance" / "data" / "cognition" / "packs.json"


def digest(packs: Path = PACKS) -> dict[str, Any]:
    """Per lemma (sorted): its pack, part of speech, gloss (or null) and domains, in pack
    order."""
    lemmas: dict[str, Any] = {}
    for path in sorted(packs.glob("*.json")):
        data = json.loads(path.read_text("utf-8"))
        if "pack_id" not in data or "lemmas" not in data:
            continue
        for entry in data["lemmas"]:
            lemmas[entry["lemma"]] = {
                "pack": data["pack_id"],
                "pos": entry["pos"],
                "gloss": entry.get("gloss"),
                "domains": list(entry["domains"]),
            }
    return {
        "source": "reference/lexicon/data/*.json, written by python -m tools.pack_digest",
        "lemmas": dict(sorted(lemmas.items())),
    }


def rendered(packs: Path = PACKS) -> str:
    return json.dumps(digest(packs), indent=1, ensure_ascii=False, sort_keys=True) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 when out of date")
    args = parser.parse_args(argv)
    text = rendered()
    if args.check:
        current = DIGEST.read_text("utf-8") if DIGEST.exists() else ""
        if current != text:
            print(f"{DIGEST.relative_to(ROOT)} is out of date: python -m tools.pack_digest")
            return 1
        return 0
    DIGEST.write_text(text, "utf-8")
    print(f"wrote {DIGEST.relative_to(ROOT)} ({len(digest()['lemmas'])} lemmas)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
