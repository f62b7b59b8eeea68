"""Protocol lane: ``python -m reference serve`` leaves the algebra (and numpy) unloaded
until an algebra op needs it, and the state store, ``importlib.metadata``, hashlib, base64
and the modules only some ops use (dataclasses, socket, tempfile) unloaded for a ``hello``;
started as ``python -m reference serve``, it builds no command-line parser (argparse and
the gettext, locale and shutil its help brings); the wire size of a multivector is the
algebra's."""

from __future__ import annotations

import json
import subprocess
import sys

import reference
from reference.algebra import SIZE
from reference.protocol import algebra_ops

TIMEOUT = 60.0
PROBE = """
import io, json, sys
from reference.serve import serve
before = "numpy" in sys.modules
request = sys.argv[1] + "\\n"
serve(io.StringIO(request), io.StringIO())
print(json.dumps([before, "numpy" in sys.modules]))
"""
HELLO_UNLOADED = (
    "importlib.metadata",
    "reference.state",
    "numpy",
    "dataclasses",
    "socket",
    "tempfile",
    "hashlib",
    "base64",
)
CLI_UNLOADED = (
    *HELLO_UNLOADED,
    "argparse",
    "gettext",
    "locale",
    "shutil",
    "reference.cli_args",
    "reference.inputs",
)
HELLO_PROBE = """
import io, json, sys
from reference.serve import serve
serve(io.StringIO('{"id": 1, "op": "hello"}\\n'), io.StringIO())
print(json.dumps(sorted(m for m in sys.argv[1:] if m in sys.modules)))
"""
CLI_PROBE = """
import io, json, runpy, sys
out, names = sys.stdout, sys.argv[1:]
sys.argv = ["reference", "serve"]
sys.stdin = io.TextIOWrapper(io.BytesIO(b'{"id": 1, "op": "hello"}\\n'), encoding="utf-8")
sys.stdout = io.TextIOWrapper(io.BytesIO(), encoding="utf-8")
try:
    runpy.run_module("reference", run_name="__main__", alter_sys=True)
except SystemExit as exit:
    answered = sys.stdout.buffer.getvalue()
    assert exit.code == 0 and b'"ok":true' in answered, (exit.code, answered)
out.write(json.dumps(sorted(m for m in names if m in sys.modules)))
"""


def _numpy_loaded(request: dict[str, object]) -> list[bool]:
    done = subprocess.run(
        [sys.executable, "-c", PROBE, json.dumps(request)],
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        check=True,
    )
    loaded: list[bool] = json.loads(done.stdout)
    return loaded


def test_serving_imports_numpy_only_for_an_algebra_op() -> None:
    assert _numpy_loaded({"id": 1, "op": "hello", "args": {}}) == [False, False]
    reverse = {"id": 1, "op": "algebra.reverse", "args": {"a": [0.0] * SIZE}}
    assert _numpy_loaded(reverse) == [False, True]


def test_the_wire_size_is_the_algebra_size() -> None:
    assert algebra_ops.SIZE == SIZE


def test_a_hello_loads_no_state_store_and_no_metadata_machinery() -> None:
    done = subprocess.run(
        [sys.executable, "-c", HELLO_PROBE, *HELLO_UNLOADED],
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        check=True,
    )
    assert json.loads(done.stdout) == []


def test_serve_from_the_command_line_builds_no_parser_for_a_hello() -> None:
    done = subprocess.run(
        [sys.executable, "-c", CLI_PROBE, *CLI_UNLOADED],
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        check=True,
    )
    assert json.loads(done.stdout) == []


def test_any_other_command_line_is_parsed() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "reference", "serve", "--help"],
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        check=True,
    )
    assert done.stdout.startswith("usage: python -m reference serve [-h]")


def test_the_version_read_from_metadata_files_is_importlib_metadatas() -> None:
    from importlib import metadata

    assert reference._installed_version() == metadata.version(reference.DISTRIBUTION)
