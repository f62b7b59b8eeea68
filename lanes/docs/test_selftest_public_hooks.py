"""The self-test's broken engines use only the reference engine's public names.

A broken engine is the reference with one public hook replaced, so no self-test
module may import a private name (``_x``) from ``reference`` or read one as an
attribute (``module._x``) of a name it imported from ``reference``.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SELFTEST_HOMES = (ROOT / "selftest", ROOT / "conformance" / "selftest")


def selftest_dir() -> Path:
    """The self-test package, wherever the repository keeps it."""
    found = [home for home in SELFTEST_HOMES if (home / "__init__.py").is_file()]
    assert found, f"no self-test package among {[str(h) for h in SELFTEST_HOMES]}"
    return found[0]


def is_private(name: str) -> bool:
    """A single-underscore name (dunders such as ``__doc__`` are public)."""
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def is_reference(module: str | None) -> bool:
    """Whether *module* is the reference engine or one of its modules."""
    return module is not None and (module == "reference" or module.startswith("reference."))


def private_uses(tree: ast.Module) -> list[str]:
    """Every private reference name *tree* imports or reads as an attribute, with its line."""
    found: list[str] = []
    bound: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and is_reference(node.module):
            module = node.module or ""
            if any(is_private(part) for part in module.split(".")):
                found.append(f"{node.lineno}: from {module}")
            for alias in node.names:
                if is_private(alias.name):
                    found.append(f"{node.lineno}: from {module} import {alias.name}")
                bound.add(alias.asname or alias.name)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if not is_reference(alias.name):
                    continue
                if any(is_private(part) for part in alias.name.split(".")):
                    found.append(f"{node.lineno}: import {alias.name}")
                bound.add(alias.asname or alias.name.split(".")[0])
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and is_private(node.attr):
            root = node.value
            while isinstance(root, ast.Attribute):
                root = root.value
            if isinstance(root, ast.Name) and root.id in bound:
                found.append(f"{node.lineno}: {ast.unparse(node)}")
    return sorted(found, key=lambda use: int(use.split(":")[0]))


def test_selftest_uses_no_private_reference_name() -> None:
    modules = sorted(selftest_dir().rglob("*.py"))
    assert modules, "the self-test has no modules"
    offences = [
        f"{path.relative_to(ROOT)}:{use}"
        for path in modules
        for use in private_uses(ast.parse(path.read_text(encoding="utf-8"), str(path)))
    ]
    assert not offences, "private reference names used by the self-test:\n" + "\n".join(offences)


def test_the_check_sees_each_kind_of_private_use() -> None:
    source = (
        "from reference.registers import loader, _hidden\n"
        "from reference.state._core import x\n"
        "import reference.registers.ratify as ratify\n"
        "import reference._private\n"
        "loader._check_seal(1, 2)\n"
        "ratify.Ratifier._step\n"
        "ratify.__doc__\n"
        "other._fine\n"
    )
    uses = private_uses(ast.parse(source))
    assert uses == [
        "1: from reference.registers import _hidden",
        "2: from reference.state._core",
        "4: import reference._private",
        "5: loader._check_seal",
        "6: ratify.Ratifier._step",
    ], uses
