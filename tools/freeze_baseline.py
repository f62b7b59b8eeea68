"""Freeze the unregistered realizer's output as the pre-register baseline (invariant A).

Writes ``lanes/registers/data/pre_register_baseline.jsonl``: one canonical JSON line
per turn of the baseline sessions. Run it only when a realizer change is intended,
and commit the result with the change that explains it.
"""

from __future__ import annotations

from pathlib import Path

from lanes._support.scripts import repeat_script
from reference.canonical import canonical_json
from reference.runtime import ChatRuntime
from reference.runtime.probe_script import lexicon_script

ROOT = Path(__file__).resolve().parents[1]

BASELINE = ROOT / "lanes" / "registers" / "data" / "pre_register_baseline.jsonl"


def baseline_sessions() -> dict[str, list[str]]:
    """The sessions the baseline pins: the whole lexicon, and repeated prompts."""
    return {
        "lexicon": lexicon_script(),
        "repeat-parent": repeat_script("parent", 4),
        "repeat-light": repeat_script("light", 3),
    }


def baseline_lines() -> list[str]:
    """Canonical JSON lines: session, turn, prompt, surface under no register."""
    lines = []
    for name, script in baseline_sessions().items():
        runtime = ChatRuntime()
        for prompt in script:
            response = runtime.chat(prompt)
            row = {"prompt": prompt, "session": name, "surface": response.surface}
            lines.append(canonical_json({**row, "turn_idx": response.turn_idx}))
    return lines


def main() -> int:
    BASELINE.write_text("\n".join(baseline_lines()) + "\n", encoding="utf-8")
    print(f"wrote {BASELINE.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
