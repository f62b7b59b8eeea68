"""The seam: truth-path modules import nothing from the realizer or register side."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import reference

ROOT = Path(reference.__file__).parent
TRUTH_PACKAGES = ("algebra", "lexicon", "truth")
TRUTH_MAY_IMPORT = (
    "reference.algebra",
    "reference.lexicon",
    "reference.truth",
    "reference.canonical",
    "reference.errors",
    "reference.jsonio",
)
REALIZER_SIDE = ("reference.realize", "reference.registers", "reference.runtime")


def _imports(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.append(node.module)
    return names


def _truth_modules() -> list[Path]:
    return sorted(p for pkg in TRUTH_PACKAGES for p in (ROOT / pkg).rglob("*.py"))


def test_truth_modules_exist():
    assert len(_truth_modules()) >= 10


def test_truth_path_imports_only_truth_side():
    leaks = [
        f"{path.relative_to(ROOT)} imports {name}"
        for path in _truth_modules()
        for name in _imports(path)
        if name.startswith("reference") and not name.startswith(TRUTH_MAY_IMPORT)
    ]
    assert leaks == []


def test_importing_the_truth_pipeline_loads_no_realizer_module():
    code = (
        "import sys, reference.truth.pipeline as p; p.TruthPipeline().run('What is light?');"
        "print('\\n'.join(m for m in sys.modules if m.startswith('reference')))"
    )
    loaded = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.split()
    assert [m for m in loaded if m.startswith(REALIZER_SIDE)] == []


def test_seam_check_catches_a_leak(tmp_path):
    leaky = tmp_path / "leaky.py"
    leaky.write_text("from reference.registers.model import UNREGISTERED\n", encoding="utf-8")
    assert any(n.startswith(REALIZER_SIDE) for n in _imports(leaky))
