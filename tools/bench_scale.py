"""Record the scaling figures of docs/campaigns.md: ``certify -n 1`` and ``-n 2`` of the
reference engine over stdio (ci profile, every requirement), their wall times, verdicts
and verdict digests, into ``docs/figures/scale.json``; then ``python -m tools.docfigures``
puts them in the docs.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from conformance import SUITE_VERSION
from conformance.requirements import REGISTRY
from tools.bench import ROOT, certify_once

TARGET = ROOT / "docs" / "figures" / "scale.json"


def main() -> int:
    load = list(os.getloadavg())
    commit = subprocess.run(
        ["git", "rev-parse", "HEAD"], capture_output=True, text=True, cwd=ROOT, check=False
    ).stdout.strip()
    runs = []
    for workers in (1, 2):
        wall, cpu, report = certify_once(workers)
        runs.append(
            {
                "workers": workers,
                "wall_s": round(wall, 1),
                "cpu_s": round(cpu, 1),
                "verdict": report["summary"]["verdict"],
                "verdict_digest": report["verdict_digest"],
            }
        )
        print(f"certify -n {workers}: {wall:.1f} s, {report['verdict_digest'][:12]}")
    figures = {
        "suite_version": SUITE_VERSION,
        "requirements": len(REGISTRY),
        "commit": commit or "unknown",
        "load_average": [round(x, 1) for x in load],
        "runs": runs,
    }
    TARGET.parent.mkdir(parents=True, exist_ok=True)
    TARGET.write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")
    print(f"recorded {Path(TARGET).relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
