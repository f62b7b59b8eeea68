"""A case played on two engines, its placeholders bound to what each engine answered.

A request is a dict (sent as JSON) or bytes (sent as the raw line). Inside args,
``{"$handle": k}`` stands for the k-th handle this case's session.open/state.open gave,
``{"$files": k, "edit": E}`` for the k-th ratify's files with edit E, and ``"$dir"`` for
a fresh temporary directory per engine. A step ``{"$damage": NAME, "pick": k}`` is not
sent: it damages that directory (:mod:`tools.differential.damage`). The event lines a
request streamed (``state.soak``) are its answer's ``"$events"``.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile

from tools.differential.damage import damage
from tools.differential.engines import Engine
from tools.differential.file_edits import edit_files
from tools.differential.shared import Json


def _bind(value: Json, handles: list[str], ratified: list[dict[str, str]]) -> Json:
    """*value* with its ``$handle`` and ``$files`` placeholders replaced."""
    if isinstance(value, dict):
        if set(value) == {"$handle"}:
            k = value["$handle"]
            return handles[k] if k < len(handles) else f"missing-{k}"
        if "$files" in value:
            k = value["$files"]
            return edit_files(ratified[k], value.get("edit", "")) if k < len(ratified) else {}
        return {key: _bind(item, handles, ratified) for key, item in value.items()}
    if isinstance(value, list):
        return [_bind(item, handles, ratified) for item in value]
    return value


def _collect(
    request: Json, response: Json, handles: list[str], ratified: list[dict[str, str]]
) -> None:
    """Record the handles *response* opened and the files a ratify returned, in order
    (batches included)."""
    if not isinstance(request, dict) or not isinstance(response, dict) or not response.get("ok"):
        return
    op, result = request.get("op"), response.get("result", {})
    if op == "session.open" and isinstance(result.get("session"), str):
        handles.append(result["session"])
    elif op == "state.open" and isinstance(result.get("store"), str):
        handles.append(result["store"])
    elif op == "register.ratify" and isinstance(result.get("files"), dict):
        ratified.append(result["files"])
    elif op == "batch":
        for inner, answer in zip(
            request["args"]["requests"], result.get("responses", []), strict=False
        ):
            _collect(inner, answer, handles, ratified)


def run_case(engine: Engine, case: list[Json], directory: str = "") -> list[Json]:
    """*engine*'s answers to *case*, each request bound to the answers before it; damage
    steps act on *directory*."""
    handles: list[str] = []
    ratified: list[dict[str, str]] = []
    answers = []
    for request in case:
        if isinstance(request, bytes):
            answers.append(engine.send(request))
            continue
        if isinstance(request, dict) and "$damage" in request:
            answers.append(damage(directory, request["$damage"], request.get("pick", 0)))
            continue
        bound = _bind(request, handles, ratified)
        answers.append(engine.send(json.dumps(bound, ensure_ascii=False).encode()))
        if engine.events:
            answers[-1] = dict(answers[-1], **{"$events": engine.events})
        _collect(bound, answers[-1], handles, ratified)
    return answers


def _with_dir(request: Json, directory: str) -> Json:
    """*request* with every ``"$dir"`` value replaced by *directory*."""
    if isinstance(request, dict):
        return {
            k: (directory if v == "$dir" else _with_dir(v, directory)) for k, v in request.items()
        }
    if isinstance(request, list):
        return [_with_dir(v, directory) for v in request]
    return request


class Pair:
    """Two engines and what they answer to a case; state cases get a fresh directory
    per engine ("$dir" in an argument)."""

    def __init__(self, command_a: str, command_b: str) -> None:
        self.commands = (command_a, command_b)
        self.engines = (Engine(command_a), Engine(command_b))

    def answers(self, case: list[Json]) -> tuple[list[Json], list[Json]]:
        """Both engines' answers to *case*, each on its own temporary directory."""
        out = []
        for engine in self.engines:
            tmp = tempfile.mkdtemp(prefix="i47d-")
            directory = os.path.join(tmp, "state")
            try:
                out.append(run_case(engine, [_with_dir(r, directory) for r in case], directory))
            finally:
                shutil.rmtree(tmp, ignore_errors=True)
        return out[0], out[1]

    def close(self) -> None:
        """Close both engines."""
        for engine in self.engines:
            engine.close()
