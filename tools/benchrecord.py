"""Measured figures on disk: what a bench script writes and ``tools.docfigures`` renders.

A bench script ends with :func:`record` (or :class:`Recording` around its run), which
writes ``docs/figures/NAME.json``::

    {"name": ..., "command": "python -m tools.bench_anchors", "date": "2026-12-03 08:50 UTC",
     "commit": "<sha>", "machine": {"cpus": 2, "python": "3.11.7", "numpy": "2.4.6",
     "load_average_start": [..], "load_average_end": [..]}, "figures": {...}}

``figures`` holds plain numbers and strings from ONE run (each time a median over
interleaved samples, each ratio two medians of that run); ``note`` says under what
conditions it was taken, when that matters. A file whose figures were copied from an
earlier hand-written page, not measured by its script, says so in ``transcribed``
(the commit and date of the run it came from); running its command replaces it.

Times cannot be measured again in a lane, so a lane checks only that every marked block of
the docs renders from these files as committed (``python -m tools.docfigures --check``).
"""

from __future__ import annotations

import json
import os
import platform
import shlex
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
RECORDED = ROOT / "docs" / "figures"
REQUIRED = ("name", "command", "date", "commit", "machine", "figures")


def _commit() -> str:
    """HEAD, with ``+changes`` when tracked files differ from it (the run measured those)."""
    done = subprocess.run(
        ["git", "rev-parse", "HEAD"], capture_output=True, text=True, cwd=ROOT, check=False
    )
    changed = subprocess.run(
        ["git", "status", "--porcelain", "--untracked-files=no", "--", ".", ":!docs/figures"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    ).stdout.strip()
    return (done.stdout.strip() or "unknown") + ("+changes" if changed else "")


def _numpy_version() -> str:
    try:
        import numpy
    except ImportError:
        return "none"
    return str(numpy.__version__)


def _load() -> list[float]:
    return [round(x, 1) for x in os.getloadavg()]


class Recording:
    """One bench run: the machine's load when it starts and when it is recorded."""

    def __init__(self, name: str, argv: list[str] | None = None) -> None:
        self.name = name
        words = sys.argv[1:] if argv is None else argv
        self.command = shlex.join(["python", "-m", f"tools.{_module()}", *words])
        self.started = time.gmtime()
        self.load_start = _load()

    def write(self, figures: dict[str, Any], note: str = "", target: Path | None = None) -> Path:
        """Write ``docs/figures/NAME.json`` (or *target*) with *figures*; return its path."""
        document: dict[str, Any] = {
            "name": self.name,
            "command": self.command,
            "date": time.strftime("%Y-%m-%d %H:%M UTC", self.started),
            "commit": _commit(),
            "machine": {
                "cpus": os.cpu_count(),
                "python": platform.python_version(),
                "numpy": _numpy_version(),
                "load_average_start": self.load_start,
                "load_average_end": _load(),
            },
            "figures": figures,
        }
        if note:
            document["note"] = note
        path = target or RECORDED / f"{self.name}.json"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(document, indent=2, sort_keys=True) + "\n", encoding="utf-8")
        print(f"recorded {path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}")
        return path


def _module() -> str:
    main = sys.modules.get("__main__")
    spec = getattr(main, "__spec__", None)
    name = getattr(spec, "name", "") or Path(sys.argv[0]).stem
    return str(name).removeprefix("tools.")


def short(commit: str) -> str:
    """A recorded commit shortened to 7 hex digits, keeping its ``+changes`` mark."""
    sha, mark, rest = commit.partition("+")
    return sha[:7] + mark + rest


def load(name: str, root: Path = RECORDED) -> dict[str, Any]:
    """``docs/figures/NAME.json``, checked to carry every member of :data:`REQUIRED`."""
    document: dict[str, Any] = json.loads((root / f"{name}.json").read_text(encoding="utf-8"))
    missing = [key for key in REQUIRED if key not in document]
    if missing:
        raise ValueError(f"docs/figures/{name}.json lacks {', '.join(missing)}")
    return document


def provenance(document: dict[str, Any]) -> str:
    """One sentence naming the command, date, commit and load of a recorded run."""
    machine = document["machine"]
    start = ", ".join(f"{x:.1f}" for x in machine.get("load_average_start", []))
    end = ", ".join(f"{x:.1f}" for x in machine.get("load_average_end", []))
    where = (
        f"{machine.get('cpus')} CPUs, Python {machine.get('python')}, numpy {machine.get('numpy')}"
    )
    load_words = f"load average {start} at the start, {end} at the end" if start else ""
    source = document.get("transcribed")
    taken = (
        f"copied by hand from {source}, not yet re-measured by `{document['command']}`"
        if source
        else f"`{document['command']}` on {document['date']} at commit "
        f"`{short(document['commit'])}`"
    )
    parts = [taken, where] + ([load_words] if load_words and not source else [])
    note = document.get("note")
    return "; ".join(parts) + "." + (f" {note}" if note else "")
