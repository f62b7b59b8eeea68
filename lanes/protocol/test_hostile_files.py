"""Hostile files given to every path argument of both CLIs end in one error line, exit 2.

The path arguments are enumerated from the argparse parsers (an argument naming a file
or directory is typed ``PathArg(kind)``; a new one is covered as soon as it exists, and
an untyped argument that looks like a path fails :func:`test_every_path_argument_is_typed`).
Each gets deeply nested JSON, a file over the size limit, bytes that are not UTF-8, NUL
bytes and the wrong top-level type (or, for a directory the command writes, a regular
file in its place), and must answer with one line on stderr that names the option or
the file, exit status 2, and no traceback (docs/conformance.md § Input files). Every
free-text option gets a value that is not UTF-8, the same way.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import re
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from unittest import mock

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conformance import cli as conformance_cli
from conformance import cli_args
from conformance import inputs as suite_inputs
from conformance.campaign.cli import spec_from_args
from reference import cli as reference_cli
from reference import cli_args as reference_cli_args
from reference import inputs as engine_inputs
from reference import jsonio

LIMIT = 4096
"""The size limit both readers get in this lane, so "too large" costs 4 KiB, not 64 MiB."""
ONE_ID = "VAR-SELECT-001"
PATH_WORDS = {"file", "files", "dir", "path", "paths", "report", "shards"}
"""Words in an argument's name, metavar or flag that say it names a path."""
FUZZ = settings(
    max_examples=12,
    deadline=None,
    database=None,
    derandomize=True,
    suppress_health_check=list(HealthCheck),
)

CLIS: dict[str, tuple[Callable[[], argparse.ArgumentParser], Callable[[list[str]], int]]] = {
    "conformance": (conformance_cli.build_parser, conformance_cli.main),
    "reference": (reference_cli_args.build_parser, reference_cli.main),
}
BASE = {
    ("conformance", "certify"): ["--report", "{tmp}/out", "--id", ONE_ID, "-n", "1"],
    ("conformance", "merge"): ["--report", "{tmp}/merged"],
    ("conformance", "campaign"): ["--id", ONE_ID, "--workers", "1", "--dir", "{tmp}/campaign"],
    ("conformance", "compare"): ["--report", "{tmp}/compared", "--id", ONE_ID, "-n", "1"],
    ("conformance", "report"): ["--html", "{tmp}/page.html"],
    ("reference", "chat"): ["--once", "hi"],
}
"""Arguments each subcommand gets besides the one under test, so nothing runs for real."""
POSITIONALS = {
    ("conformance", "merge"): ["{tmp}/no-such-shard"],
    ("conformance", "report"): ["{tmp}/no-such-report"],
}
"""Positional arguments a subcommand needs when an option is under test."""


@dataclass(frozen=True)
class Argument:
    """One path argument: which CLI and subcommand, its flag (None: positional), its kind."""

    cli: str
    command: str
    flag: str | None
    kind: str
    dest: str
    metavar: str = ""

    @property
    def name(self) -> str:
        return f"{self.cli} {self.command} {self.flag or self.dest}"


def _actions(cli: str):
    """(subcommand, action) of every argument of *cli*, subcommands included."""
    for each in cli_args.parsers(CLIS[cli][0]()):
        command = each.prog.split()[-1]
        for action in each._actions:
            if not isinstance(action, argparse._SubParsersAction | argparse._HelpAction):
                yield command, action


def path_arguments() -> list[Argument]:
    found = []
    for cli in CLIS:
        for command, action in _actions(cli):
            kind = getattr(action.type, "kind", None)
            if kind is not None:
                flag = max(action.option_strings, key=len) if action.option_strings else None
                metavar = str(action.metavar or "")
                found.append(Argument(cli, command, flag, kind, action.dest, metavar))
    return found


PATH_ARGUMENTS = path_arguments()


def test_every_path_argument_is_typed() -> None:
    """An argument whose name says it is a path must be a PathArg, so it is fuzzed here."""
    for cli in CLIS:
        for command, action in _actions(cli):
            names = [action.dest, str(action.metavar or ""), *action.option_strings]
            words = {w for n in names for w in re.split(r"[^a-z]+", n.lower())}
            if action.nargs != 0 and words & PATH_WORDS:
                assert getattr(action.type, "kind", None), f"{cli} {command} {names}: untyped path"
    kinds = {a.kind for a in PATH_ARGUMENTS}
    assert kinds == {*cli_args.PATH_KINDS, *engine_inputs.PATH_KINDS}


def _deep(n: int) -> bytes:
    return b"[" * n + b"]" * n


CONTENTS = st.one_of(
    st.integers(65, 3000).map(_deep),
    st.just(_deep(100_000)),
    st.just(b"[" + b"1," * LIMIT + b"1]"),
    st.binary(max_size=40).map(lambda b: b'{"a": "' + b + b'\xff"}'),
    st.sampled_from([b"\xff\xfe{}", b"\xc3\x28", b'{"id": "caf\xe9"}']),
    st.integers(0, 64).map(lambda n: b"\x00" * n + b'{"a": 1}'),
    st.sampled_from([b"\x00", b'{"a":\x00 1}', b"[1]", b"1", b'"text"', b"null", b"true"]),
    st.sampled_from([b'{"x": 1}', b'{"results": 3}', b'{"results": [{"id": 1}]}']),
)
"""Bytes no path argument may accept: too deep, too large, not UTF-8, NUL, wrong type."""


def _run(cli: str, argv: list[str]) -> tuple[int, str]:
    err = io.StringIO()
    with (
        contextlib.redirect_stdout(io.StringIO()),
        contextlib.redirect_stderr(err),
        mock.patch.object(suite_inputs, "MAX_INPUT_BYTES", LIMIT),
        mock.patch.object(jsonio, "MAX_FILE_BYTES", LIMIT),
    ):
        status = CLIS[cli][1](argv)
    return status, err.getvalue()


def _argv(arg: Argument, value: str, tmp: Path) -> list[str]:
    base = [word.format(tmp=tmp) for word in BASE.get((arg.cli, arg.command), [])]
    if arg.flag == "--dir":
        base = base[: base.index("--dir")]
    if arg.kind == "pack-dir":
        base += ["--register", "user_v1"]
    if arg.flag is not None:
        rest = [w.format(tmp=tmp) for w in POSITIONALS.get((arg.cli, arg.command), [])]
        return [arg.command, *base, arg.flag, value, *rest]
    positionals = 2 if (arg.cli, arg.command) == ("conformance", "diff") else 1
    return [arg.command, *base, *([value] * positionals)]


def _campaign_spec(tmp: Path) -> dict:
    """The spec the campaign command under test describes (so a task file is read)."""
    words = [w.format(tmp=tmp) for w in BASE[("conformance", "campaign")]]
    args = conformance_cli.build_parser().parse_args(["campaign", *words])
    return spec_from_args(args).as_dict()


def _place(arg: Argument, data: bytes, where: int, tmp: Path) -> tuple[Path, Path]:
    """Put *data* where *arg* reads it; returns (the value to pass, the file holding data)."""
    if arg.kind in ("json-file", "pack-file"):
        path = tmp / "user_v1.json"
        path.write_bytes(data)
        return path, path
    directory = tmp / "given"
    directory.mkdir()
    if arg.kind == "report-dir":
        target = directory / "report.json"
    elif arg.kind == "pack-dir":
        target = directory / "user_v1.json"
    elif arg.kind == "campaign-dir" and where % 2:
        (directory / "tasks").mkdir()
        spec = _campaign_spec(tmp)
        (directory / "campaign.json").write_text(json.dumps(spec, indent=2) + "\n")
        target = directory / "tasks" / "e0-task.json"
    elif arg.kind == "campaign-dir":
        target = directory / "campaign.json"
    else:  # a path the command writes or keeps state in: a regular file in its way
        directory.rmdir()
        if arg.kind == "out-file":
            directory.mkdir()
            return directory, directory
        directory.write_bytes(data)
        return (directory / "below" if where % 2 else directory), directory
    target.write_bytes(data)
    return directory, target


def assert_one_line_naming(status: int, err: str, arg: Argument, path: Path) -> None:
    assert "Traceback" not in err
    lines = err.splitlines()
    assert status == 2 and len(lines) == 1 and lines[0].startswith("error: "), (arg.name, err)
    named = [arg.flag] if arg.flag else []
    named += [suite_inputs.display(path), suite_inputs.display(path.parent)]
    assert any(n in lines[0] for n in named), (arg.name, lines[0])


@pytest.mark.parametrize("arg", PATH_ARGUMENTS, ids=[a.name for a in PATH_ARGUMENTS])
@given(data=CONTENTS, where=st.integers(0, 1))
@FUZZ
def test_hostile_files_end_in_one_line(tmp_path_factory, arg: Argument, data: bytes, where: int):
    tmp = tmp_path_factory.mktemp("hostile")
    value, holder = _place(arg, data, where, tmp)
    status, err = _run(arg.cli, _argv(arg, str(value), tmp))
    assert_one_line_naming(status, err, arg, holder)


@pytest.mark.parametrize("arg", PATH_ARGUMENTS, ids=[a.name for a in PATH_ARGUMENTS])
@pytest.mark.parametrize("value", ["", "a\x00b.json"], ids=["empty", "NUL"])
def test_impossible_paths_are_refused_at_parse(tmp_path, arg: Argument, value: str) -> None:
    status, err = _run(arg.cli, _argv(arg, value, tmp_path))
    assert status == 2 and len(err.splitlines()) == 1, err
    names = [arg.flag] if arg.flag else [a.metavar or a.dest for a in _positionals(arg)]
    assert any(f"argument {n}:" in err for n in names) and "Traceback" not in err


def _positionals(arg: Argument) -> list[Argument]:
    """The positional path arguments of *arg*'s subcommand (they all get the same value)."""
    return [
        a for a in PATH_ARGUMENTS if (a.cli, a.command) == (arg.cli, arg.command) and not a.flag
    ]


def text_options() -> list[tuple[str, str, str]]:
    found = []
    for cli in CLIS:
        for command, action in _actions(cli):
            takes_value = action.nargs != 0 and action.option_strings and not action.choices
            if takes_value and getattr(action.type, "kind", None) is None:
                found.append((cli, command, max(action.option_strings, key=len)))
    return found


TEXT_OPTIONS = text_options()


@pytest.mark.parametrize("cli,command,flag", TEXT_OPTIONS, ids=[" ".join(t) for t in TEXT_OPTIONS])
def test_text_that_is_not_utf8_is_refused(tmp_path, cli: str, command: str, flag: str) -> None:
    status, err = _run(cli, [command, flag, "caf\udce9"])
    assert status == 2 and len(err.splitlines()) == 1 and flag in err, err
    assert "Traceback" not in err


def _deep_file(path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(_deep(100_000))
    return path


ISSUE_CASES = {
    "chat --once": lambda tmp: [
        "-m", "reference", "chat", "--once", "What is \udcff light?"
    ],
    "certify --durations-from": lambda tmp: [
        "-m", "conformance", "certify", "--report", str(tmp / "out"),
        "--durations-from", str(_deep_file(tmp / "deep.json")),
    ],
    "merge": lambda tmp: [
        "-m", "conformance", "merge", str(_deep_file(tmp / "s1" / "report.json").parent),
        "--report", str(tmp / "merged"),
    ],
    "campaign.json": lambda tmp: [
        "-m", "conformance", "campaign", "--id", ONE_ID,
        "--dir", str(_deep_file(tmp / "c" / "campaign.json").parent),
    ],
}  # fmt: skip


@pytest.mark.parametrize("case", sorted(ISSUE_CASES))
def test_the_issue_tracebacks_are_one_line_errors(tmp_path, case: str) -> None:
    argv = [sys.executable, *ISSUE_CASES[case](tmp_path)]
    done = subprocess.run(argv, capture_output=True, timeout=600, cwd=tmp_path)
    err = done.stderr.decode("utf-8", "replace")
    assert done.returncode == 2 and len(err.splitlines()) == 1, err
    assert err.startswith("error: ") and "Traceback" not in err


@pytest.mark.parametrize(
    "cli,argv",
    [
        ("conformance", ["certify", "--report", "{tmp}/out", "--xfail", "{file}"]),
        ("reference", ["ratify", "{file}"]),
    ],
    ids=["suite --xfail", "engine ratify"],
)
def test_a_file_over_the_real_limit_is_refused_unread(tmp_path, cli: str, argv: list[str]):
    """At the shipped limits (64 MiB), with a sparse file: the size is the reason given."""
    assert suite_inputs.MAX_INPUT_BYTES == jsonio.MAX_FILE_BYTES == 64 * 1024 * 1024
    big = tmp_path / "user_v1.json"
    with open(big, "wb") as handle:
        handle.truncate(jsonio.MAX_FILE_BYTES + 1)
    words = [w.format(tmp=tmp_path, file=big) for w in argv]
    err = io.StringIO()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
        status = CLIS[cli][1](words)
    lines = err.getvalue().splitlines()
    assert status == 2 and len(lines) == 1 and str(big) in lines[0], lines
    assert f"larger than {jsonio.MAX_FILE_BYTES} bytes" in lines[0]
