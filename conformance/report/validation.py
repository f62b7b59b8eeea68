"""The JSON Schemas of report.json and counterexample files, and validation against them."""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

import jsonschema

SCHEMAS = ("report", "counterexample", "compare", "list", "certify", "diff")


@cache
def schema(name: str) -> dict[str, Any]:
    """The schema *name* (one of SCHEMAS), as shipped in ``conformance/report/schemas``."""
    path = resources.files("conformance.report").joinpath("schemas", f"{name}.schema.json")
    document: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return document


def validate(name: str, document: Any) -> None:
    """Raise ``jsonschema.ValidationError`` unless *document* matches the schema *name*."""
    jsonschema.Draft202012Validator(schema(name)).validate(document)


def problem(name: str, document: Any) -> str | None:
    """None if *document* matches the schema *name*, else the first mismatch in one line."""
    error = jsonschema.exceptions.best_match(
        jsonschema.Draft202012Validator(schema(name)).iter_errors(document)
    )
    if error is None:
        return None
    where = "/".join(str(part) for part in error.absolute_path) or "top level"
    return " ".join(f"{where}: {error.message}"[:300].split())
