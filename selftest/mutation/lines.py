"""Which statement of a function a mutant changes, as an offset from the function's ``def`` line.

mutmut writes each function of ``mutants/`` three ways: the original
(``x_name__mutmut_orig``), one copy per mutant (``x_name__mutmut_N``) and a trampoline.
A mutant changes a few lines of its copy; the same lines of the original are where the
change would act. :func:`changed_statements` gives, for each changed line, the offset (from
the ``def`` line) of the innermost statement of the original holding it: the line a line
tracer reports when that statement runs. It gives ``None`` when a change is outside every
statement of the body (the signature, a decorator) or the copies do not line up, and the
caller then falls back to the whole function.
"""

from __future__ import annotations

import ast
import difflib
from collections.abc import Iterator

SUFFIX = "__mutmut_"


def definitions(tree: ast.Module) -> dict[str, ast.FunctionDef | ast.AsyncFunctionDef]:
    """Every function of a mutants/ file by name (top level and class bodies)."""
    found: dict[str, ast.FunctionDef | ast.AsyncFunctionDef] = {}
    for node in tree.body:
        items = node.body if isinstance(node, ast.ClassDef) else [node]
        for item in items:
            if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)) and SUFFIX in item.name:
                found[item.name] = item
    return found


def _statements(node: ast.AST) -> Iterator[ast.stmt]:
    for child in ast.walk(node):
        if isinstance(child, ast.stmt) and child is not node:
            yield child


def statement_of(function: ast.FunctionDef | ast.AsyncFunctionDef, line: int) -> int | None:
    """The first line of the innermost statement of *function*'s body holding *line*."""
    best: ast.stmt | None = None
    for stmt in _statements(function):
        end = stmt.end_lineno or stmt.lineno
        if stmt.lineno <= line <= end and (best is None or stmt.lineno >= best.lineno):
            best = stmt
    return None if best is None else best.lineno


def changed_statements(
    lines: list[str],
    orig: ast.FunctionDef | ast.AsyncFunctionDef,
    mutant: ast.FunctionDef | ast.AsyncFunctionDef,
) -> list[int] | None:
    """Offsets from ``orig``'s ``def`` line of the statements the mutant changes, or None."""
    before = lines[orig.lineno - 1 : orig.end_lineno]
    after = lines[mutant.lineno - 1 : mutant.end_lineno]
    if len(before) != len(after):
        return None
    before[0] = after[0] = ""
    changed = [
        index
        for tag, i1, i2, _, _ in difflib.SequenceMatcher(a=before, b=after).get_opcodes()
        if tag != "equal"
        for index in range(i1, max(i2, i1 + 1))
    ]
    offsets = set()
    for index in changed:
        start = statement_of(orig, orig.lineno + index)
        if start is None:
            return None
        offsets.add(start - orig.lineno)
    return sorted(offsets) or None
