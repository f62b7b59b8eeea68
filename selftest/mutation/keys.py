"""Stable keys of mutants: a mutated function and what the mutation changes, not mutmut's number.

mutmut numbers the mutants of a function in the order it generates them
(``reference.truth.text.x_normalize__mutmut_3``), so an edit of the function can give a
number to another mutation. A review, a sampled mutant or a cached verdict therefore names
a mutant by its **key**: ``<function>#<12 hex digits>``, the SHA-256 of the function's name
and of the lines the mutation removes and adds (stripped of indentation). The key stays
while the mutated lines stay, whatever else changes in the function or the file; when
those lines change the key names no mutant any more and the line that used it is stale.

Two mutations of one function that change the same text the same way (the same
expression on two lines) get the key of the first followed by ``-2``, ``-3``, ... in the
order mutmut generates them.
"""

from __future__ import annotations

import ast
import difflib
import hashlib
import json
from dataclasses import dataclass
from pathlib import Path

SUFFIX = "__mutmut_"


@dataclass(frozen=True)
class Mutant:
    name: str
    """mutmut's name, valid for this generation of mutants only."""
    function: str
    """The mutated function: the name without ``__mutmut_N``."""
    key: str
    """``<function>#<digest>``: stable while the mutated lines are unchanged."""
    description: str
    """The lines the mutation removes (``-``) and adds (``+``), one per line."""
    function_hash: str
    """mutmut's hash of the function's source (changes with any edit of the function)."""


def function_of(name: str) -> str:
    """The mutated function a mutant name or key belongs to."""
    return name.split("#", 1)[0].rsplit(SUFFIX, 1)[0]


def module_name(meta: Path, root: Path) -> str:
    relative = meta.relative_to(root).with_suffix("").with_suffix("")
    return ".".join(relative.parts)


def describe(original: str, mutated: str) -> str:
    """The removed and added lines between two function sources, stripped."""
    before = [line.strip() for line in original.splitlines()]
    after = [line.strip() for line in mutated.splitlines()]
    diff = difflib.unified_diff(before, after, n=0, lineterm="")
    return "\n".join(
        line for line in diff if line[:1] in "+-" and not line.startswith(("+++", "---"))
    )


def _definitions(tree: ast.Module) -> dict[str, ast.AST]:
    found: dict[str, ast.AST] = {}
    for node in tree.body:
        bodies = [node] if not isinstance(node, ast.ClassDef) else node.body
        for item in bodies:
            if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)) and SUFFIX in item.name:
                found[item.name] = item
    return found


def mutants_of_file(source: Path, meta: Path, module: str) -> list[Mutant]:
    """Every mutant mutmut generated into *source* (a file under ``mutants/``)."""
    data = json.loads(meta.read_text("utf-8"))
    hashes: dict[str, str] = data.get("hash_by_function_name", {})
    text = source.read_text("utf-8")
    lines = text.splitlines()
    definitions = _definitions(ast.parse(text))

    def segment(node: ast.AST) -> str:
        return "\n".join(lines[node.lineno - 1 : node.end_lineno])  # type: ignore[attr-defined]

    seen: dict[str, int] = {}
    out = []
    for name in data["exit_code_by_key"]:
        local = name[len(module) + 1 :]
        base = local.rsplit(SUFFIX, 1)[0]
        node, orig = definitions.get(local), definitions.get(base + SUFFIX + "orig")
        found = node is not None and orig is not None
        description = (
            describe(
                segment(orig).replace(orig.name, base),  # type: ignore[union-attr]
                segment(node).replace(node.name, base),  # type: ignore[union-attr]
            )
            if found
            else ""
        )
        function = f"{module}.{base}"
        digest = hashlib.sha256(f"{function}\n{description}".encode()).hexdigest()[:12]
        key = f"{function}#{digest}"
        seen[key] = seen.get(key, 0) + 1
        if seen[key] > 1:
            key = f"{key}-{seen[key]}"
        out.append(Mutant(name, function, key, description, hashes.get(base, "")))
    return out


def mutant_table(root: Path = Path("mutants")) -> dict[str, Mutant]:
    """Every generated mutant of ``reference/`` by mutmut name."""
    table: dict[str, Mutant] = {}
    for meta in sorted(root.glob("reference/**/*.py.meta")):
        source = meta.with_suffix("")
        if not source.is_file():
            continue
        module = module_name(meta, root)
        if module.endswith(".__init__"):
            continue
        for mutant in mutants_of_file(source, meta, module):
            table[mutant.name] = mutant
    return table
