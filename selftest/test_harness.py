"""The subprocess harness and the command line, against engine programs that misbehave.

Hangs, crashes, garbage lines and wrong ids become typed ``error`` outcomes and the
run goes on; an engine that cannot answer hello ends the run with one engine-level
verdict; reads are bounded; the reference passes over stdio and in strict mode; a
counterexample written by ``certify`` replays (pasted through a shell) as FAIL on the
broken engine and PASS on the reference; ``diff`` reports the regression.

No test races the clock: engines get a generous ceiling (:data:`CEILING`) that only
catches hangs; the one short timeout is given to a request that never gets an answer.
"""

from __future__ import annotations

import json
import os
import shlex
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from conformance.canonical import read_json, wire_form
from conformance.certify import certify, select
from conformance.engines import InProcessEngine, SubprocessEngine
from conformance.engines.base import EngineFault
from conformance.engines.subprocess import MAX_LINE_BYTES, QUEUE_LINES, _Pump
from conformance.report.expected import ExpectedFailures
from conformance.report.validation import validate
from conformance.requirements import REGISTRY, SuiteContext
from conformance.runner import PROFILES, failure_message, run_requirement
from reference.serve import ProtocolHandler
from selftest.engines import BROKEN
from selftest.reference_engine import REFERENCE_FACTORY

CI = PROFILES["ci"]
CEILING = 120.0
"""Seconds an engine may take to answer: only a hang ever reaches it."""
NEVER_ANSWERED = 1.0
"""The timeout given to a request that is never answered (the hang under test)."""
PROGRAMS = Path(__file__).resolve().parent / "programs"
HANDFUL = (
    "PROTO-HELLO-001",
    "PROTO-ERROR-001",
    "VAR-SELECT-002",
    "VAR-DECOR-002",
    "OVR-RESOLVE-001",
)


def program(name: str) -> str:
    """The command line that runs one of the engine programs."""
    return shlex.join([sys.executable, str(PROGRAMS / name)])


@pytest.fixture
def open_program():
    """Open engine programs with a generous timeout; every one is closed after the test."""
    engines = []

    def open_engine(command: str, **options) -> SubprocessEngine:
        engine = SubprocessEngine(command, timeout=CEILING, **options)
        engines.append(engine)
        return engine

    yield open_engine
    for engine in engines:
        engine.close()


def certify_ids(engine, *ids: str):
    """Certify *ids* in order; return the outcomes."""
    _, pairs = certify(engine, [REGISTRY[i] for i in ids], CI, expected=ExpectedFailures.none())
    return [outcome for _, outcome in pairs]


def test_hang_is_a_timeout_and_the_next_requirement_runs(open_program) -> None:
    engine = open_program(program("hang_on_select.py"))
    ctx = SuiteContext.from_engine(engine)
    engine.timeout = NEVER_ANSWERED  # VAR-SELECT-001's first request is the one that hangs
    hung = run_requirement(REGISTRY["VAR-SELECT-001"], engine, ctx, CI)
    engine.timeout = CEILING
    hello = run_requirement(REGISTRY["PROTO-HELLO-001"], engine, ctx, CI)
    assert (hung.verdict, hung.fault) == ("error", "timeout"), hung.message
    assert hung.counterexample["transcript"][0]["request"]["op"] == "variation.select"
    assert hung.counterexample["transcript"][-1]["response"] is None
    assert hello.verdict == "pass", hello.message


def test_crash_is_an_error_and_the_run_goes_on(open_program) -> None:
    engine = open_program(program("crash_on_chat.py"))
    crashed, hello = certify_ids(engine, "PROTO-CHAT-001", "PROTO-HELLO-001")
    assert (crashed.verdict, crashed.fault) == ("error", "crash"), crashed.message
    assert crashed.counterexample["scenario"] is not None
    assert hello.verdict == "pass", hello.message


@pytest.mark.parametrize(
    ("name", "req_id"),
    [("garbage_on_decorate.py", "VAR-DECOR-001"), ("wrong_id.py", "OVR-RESOLVE-001")],
)
def test_broken_wire_is_a_protocol_fault(open_program, name: str, req_id: str) -> None:
    engine = open_program(program(name))
    (outcome,) = certify_ids(engine, req_id)
    assert (outcome.verdict, outcome.fault) == ("error", "protocol"), outcome.message


def test_reference_passes_over_stdio(open_program) -> None:
    engine = open_program(shlex.join([sys.executable, "-m", "reference", "serve"]))
    outcomes = certify_ids(engine, *HANDFUL, "PROTO-BATCH-001", "VAR-CHAT-001")
    assert [o.verdict for o in outcomes] == ["pass"] * len(outcomes), [o.message for o in outcomes]


def test_strict_mode_passes_the_reference(open_program) -> None:
    engine = open_program(shlex.join([sys.executable, "-m", "reference", "serve"]), strict=True)
    outcomes = certify_ids(engine, *HANDFUL, "PROTO-CHAT-001")
    assert [o.verdict for o in outcomes] == ["pass"] * len(outcomes), [o.message for o in outcomes]


def test_strict_mode_catches_an_off_schema_result() -> None:
    broken = BROKEN["chat_shape_wrong"]
    engine = InProcessEngine(broken.spec, factory=broken.factory, strict=True)
    ctx = SuiteContext.from_engine(engine)
    outcome = run_requirement(REGISTRY["REG-INV-001"], engine, ctx, CI)
    assert (outcome.verdict, outcome.fault) == ("error", "protocol"), outcome.message
    assert "grounding_source" in outcome.message


def _host(spec: str) -> str:
    return shlex.join([sys.executable, "-m", "conformance.engines.host", spec])


def test_a_line_out_of_canonical_form_fails_any_requirement(open_program) -> None:
    """Every response line over stdio is read as it is written: a result whose members are
    not sorted fails a requirement that checks only what the answers say."""
    engine = open_program(_host("selftest.mutants.audit46:StructOrderedResults"))
    (outcome,) = certify_ids(engine, "VAR-CHAT-001")
    assert (outcome.verdict, outcome.fault) == ("fail", None), outcome.message
    assert "not canonical JSON" in outcome.message


def test_strict_mode_faults_a_line_out_of_canonical_form() -> None:
    engine = InProcessEngine(REFERENCE_FACTORY, strict=True)
    engine.check_wire(b'{"a":1,"b":0.50}\n', {"a": 1, "b": 0.5})
    with pytest.raises(EngineFault, match="not canonical JSON"):
        engine.check_wire(b'{"b":1,"a":2}\n', {"a": 2, "b": 1})


@pytest.mark.parametrize(
    ("line", "canonical"),
    [
        ('{"a":1e-7,"b":[0.5,2.50,1E+3,-0.0]}', True),
        ('{"a":1}', True),
        ('{"b":1,"a":2}', False),
        ('{"a":-0}', False),
        ('{"a":"<\\u003c"}', False),
        ('{"a": 1}', False),
        ('{"a":"\\u00e9"}', False),
        ('{"a":"\\u001F"}', False),
        ('{"a":"\\u001f","b":0.10}', True),
    ],
)
def test_wire_form_keeps_only_the_spelling_of_non_integer_numbers(
    line: str, canonical: bool
) -> None:
    assert (wire_form(line, read_json(line)) == line) is canonical


def conformance(*args: str) -> subprocess.CompletedProcess:
    """Run ``python -m conformance`` with *args*; capture its output."""
    command = [sys.executable, "-m", "conformance", *args]
    return subprocess.run(command, capture_output=True, text=True, timeout=600, check=False)


@pytest.fixture(scope="module")
def reports(tmp_path_factory) -> dict[str, Path]:
    """Report directories of one requirement, certified on a broken engine and the reference."""
    root = tmp_path_factory.mktemp("reports")
    engines = {"broken": BROKEN["no_clamp"].spec, "reference": REFERENCE_FACTORY}
    for name, spec in engines.items():
        args = ("--engine-python", spec, "--id", "OVR-RESOLVE-002", "--quiet")
        conformance("certify", *args, "--report", str(root / name))
    return {name: root / name for name in engines}


def test_certify_writes_a_replayable_counterexample(reports) -> None:
    report = json.loads((reports["broken"] / "report.json").read_text(encoding="utf-8"))
    assert not report["summary"]["certified"]
    case = json.loads((reports["broken"] / "counterexamples" / "OVR-RESOLVE-002.json").read_text())
    assert case["requirement"] == "OVR-RESOLVE-002" and case["scenario"] and case["transcript"]


def test_replay_fails_on_the_broken_engine_and_passes_on_the_reference(reports) -> None:
    case = str(reports["broken"] / "counterexamples" / "OVR-RESOLVE-002.json")
    broken = conformance("replay", case, "--engine-python", BROKEN["no_clamp"].spec)
    assert broken.returncode == 1, broken.stderr
    assert "FAIL" in broken.stdout.splitlines()[-1]
    fixed = conformance("replay", case, "--engine-python", REFERENCE_FACTORY)
    assert fixed.returncode == 0, fixed.stderr
    assert "PASS" in fixed.stdout.splitlines()[-1]


def test_diff_reports_the_regression(reports) -> None:
    a, b = (str(reports[name] / "report.json") for name in ("reference", "broken"))
    diff = conformance("diff", a, b)
    assert diff.returncode == 1, diff.stderr
    assert "regressed" in diff.stdout and "OVR-RESOLVE-002" in diff.stdout
    assert conformance("diff", a, a).returncode == 0


ENGINE_LEVEL = [
    ("true", "crash", "exit status: 0"),
    ("false", "crash", "exit status: 1"),
    ("cat", "protocol", '"op": "hello"'),
    ("echo garbage", "protocol", "garbage"),
    ("yes", "protocol", "offending bytes"),
    ("sleep 1000", "timeout", "no response within"),
    ("no-such-engine-program", "crash", "cannot start"),
]


@pytest.mark.parametrize("workers", ["1", "2"])
@pytest.mark.parametrize(
    ("command", "kind", "shown"), ENGINE_LEVEL, ids=[c for c, *_ in ENGINE_LEVEL]
)
def test_an_engine_that_cannot_say_hello_gets_one_verdict(
    tmp_path, command, kind, shown, workers
) -> None:
    timeout = NEVER_ANSWERED if command.startswith("sleep") else CEILING
    args = ("--engine", command, "--timeout", str(timeout), "--quiet", "-n", workers)
    done = conformance("certify", *args, "--report", str(tmp_path))
    assert done.returncode == 4, done.stdout + done.stderr
    assert done.stdout.count("ENGINE_UNAVAILABLE") == 1 and "ERROR " not in done.stdout
    assert len(done.stdout.splitlines()) < 40, done.stdout
    assert f"ENGINE_UNAVAILABLE, {kind}" in done.stdout and shown in done.stdout, done.stdout
    report = json.loads((tmp_path / "report.json").read_text(encoding="utf-8"))
    validate("report", report)
    assert report["engine_fault"]["kind"] == kind and report["results"] == []


def test_the_engine_stderr_is_shown(tmp_path) -> None:
    engine = shlex.join([sys.executable, "-c", "import sys; sys.exit('engine broke: no config')"])
    done = conformance("certify", "--engine", engine, "--quiet", "--report", str(tmp_path))
    assert done.returncode == 4 and "engine broke: no config" in done.stdout, done.stdout


def test_stdout_reads_are_bounded() -> None:
    """A flood of lines fills the bounded queue and then waits; nothing grows."""
    process = subprocess.Popen(["yes"], stdout=subprocess.PIPE)
    try:
        pump = _Pump(process.stdout)
        deadline = time.monotonic() + CEILING
        while not pump.lines.full():
            assert time.monotonic() < deadline, "the reader never filled its queue"
            time.sleep(0.05)
        assert pump.lines.get(timeout=CEILING) == b"y\n"
        assert pump.lines.qsize() <= QUEUE_LINES and len(pump.tail) <= 10
        assert process.poll() is None, "the reader must wait, not drop or fail"
    finally:
        pump.stopped.set()
        process.kill()
        process.wait()


def test_an_overlong_line_is_a_protocol_fault(open_program) -> None:
    flood = f"import sys; sys.stdout.write('x' * {MAX_LINE_BYTES + 10}); sys.stdout.flush()"
    engine = open_program(shlex.join([sys.executable, "-c", flood + "; input()"]))
    with pytest.raises(Exception, match="longer than") as caught:
        engine.hello()
    assert caught.value.kind == "protocol"


def test_replay_pastes_through_a_shell(tmp_path) -> None:
    report_dir = tmp_path / "re port"
    engine = shlex.join([sys.executable, "-m", "conformance.engines.host", BROKEN["no_clamp"].spec])
    args = ("--engine", engine, "--timeout", str(CEILING), "--strict", "--id", "OVR-RESOLVE-002")
    done = conformance("certify", *args, "--quiet", "--report", str(report_dir))
    assert done.returncode == 1, done.stdout + done.stderr
    (line,) = [x for x in done.stdout.splitlines() if "replay:" in x]
    command = line.split("replay:", 1)[1].strip()
    words = shlex.split(command)
    assert "--strict" in words and words[words.index("--timeout") + 1] == f"{CEILING:g}"
    path = os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")])
    pasted = subprocess.run(
        ["bash", "-c", command],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
        env={**os.environ, "PATH": path},
    )
    assert pasted.returncode == 1, pasted.stdout + pasted.stderr
    # --strict came along: the off-schema result is a protocol error, not a plain FAIL
    assert pasted.stdout.splitlines()[-1].startswith("ERROR: protocol"), pasted.stdout


def test_state_bytes_counterexample_is_written_and_replays(tmp_path) -> None:
    spec = "selftest.state_mutants:LeftoversReused"
    args = ("--engine-python", spec, "--id", "STATE-LEFTOVER-001", "--quiet")
    done = conformance("certify", *args, "--report", str(tmp_path))
    assert done.returncode == 1, done.stdout + done.stderr
    report = json.loads((tmp_path / "report.json").read_text(encoding="utf-8"))
    validate("report", report)
    assert report["results"][0]["outcome"] == "fail"
    path = tmp_path / "counterexamples" / "STATE-LEFTOVER-001.json"
    case = json.loads(path.read_text(encoding="utf-8"))
    validate("counterexample", case)
    assert "$bytes" in json.dumps(case["scenario"]), case["scenario"]
    replayed = conformance("replay", str(path), "--engine-python", spec)
    assert replayed.returncode == 1 and "FAIL" in replayed.stdout.splitlines()[-1], replayed.stdout


USAGE = [
    ("--engine", ""),
    ("--engine", "   "),
    ("--engine-python", ""),
    ("--examples", "0"),
    ("--examples", "-5"),
    ("--timeout", "0"),
    ("--timeout", "nan"),
    ("--kills", "0"),
    ("-k", "zzzz"),
    ("--report", "README.md"),
    ("--xfail", "no-such-file.json"),
]


@pytest.mark.parametrize(("flag", "value"), USAGE, ids=[f"{f}={v!r}" for f, v in USAGE])
def test_bad_arguments_are_refused_before_any_work(tmp_path, flag: str, value: str) -> None:
    root = Path(__file__).resolve().parents[1]
    value = str(root / value) if flag == "--report" else value
    args = ("--report", str(tmp_path / "out")) if flag != "--report" else ()
    done = conformance("certify", *args, flag, value)
    assert done.returncode == 2, done.stdout + done.stderr
    assert done.stdout == "" and len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert not (tmp_path / "out" / "report.json").exists()


def test_pytest_plugin_turns_a_bad_engine_into_one_usage_error(tmp_path) -> None:
    command = [sys.executable, "-m", "pytest", "-p", "no:xdist", "-p", "no:cacheprovider"]
    command += ["--pyargs", "conformance.suite", "--engine", "no-such-engine-program"]
    done = subprocess.run(
        command, capture_output=True, text=True, timeout=600, check=False, cwd=tmp_path
    )
    output = (done.stdout + done.stderr).strip().splitlines()
    assert done.returncode == 4, output
    assert len(output) <= 3 and "cannot answer hello" in output[0], output


def test_version_is_the_package_version() -> None:
    from conformance import SUITE_VERSION

    done = conformance("--version")
    assert done.returncode == 0 and done.stdout.split()[-1] == SUITE_VERSION


def test_an_engine_past_its_restart_budget_is_reported_at_once(open_program) -> None:
    engine = open_program(program("crash_on_chat.py"), max_restarts=0)
    crashed, after = certify_ids(engine, "PROTO-CHAT-001", "PROTO-HELLO-001")
    assert (crashed.verdict, crashed.fault) == ("error", "crash"), crashed.message
    assert (after.verdict, after.fault) == ("error", "crash"), after.message
    assert "not running" in after.message


def test_a_hung_engine_and_its_children_are_killed(tmp_path) -> None:
    marker = f"{os.getpid()}{len(str(tmp_path))}"
    engine = f"sh -c 'sleep 9{marker} & sleep 8{marker}'"
    args = ("--engine", engine, "--timeout", str(NEVER_ANSWERED), "--quiet")
    done = conformance("certify", *args, "--report", str(tmp_path))
    assert done.returncode == 4, done.stdout + done.stderr
    survivors = subprocess.run(
        ["pgrep", "-f", f"sleep [89]{marker}"], capture_output=True, text=True, check=False
    )
    assert survivors.stdout == "", f"left running: {survivors.stdout}"


class DiesOnAlgebra(ProtocolHandler):
    """Kills its own process on any algebra op: an in-process engine that crashes hard."""

    def dispatch(self, request: object) -> dict[str, object]:
        if isinstance(request, dict) and str(request.get("op")).startswith("algebra."):
            os.kill(os.getpid(), signal.SIGKILL)
        return super().dispatch(request)


def test_several_keywords_select_every_requirement_that_holds_any_of_them() -> None:
    both = select(keyword=("ALG-ROTOR", "VAR-SELECT"))
    alg, var = select(keyword="ALG-ROTOR"), select(keyword="VAR-SELECT")
    assert alg and var
    assert [r.id for r in both] == sorted(r.id for r in alg + var)


def test_keywords_repeat_on_the_command_line(tmp_path) -> None:
    args = ("-k", "PROTO-HELLO-001", "-k", "VAR-SELECT-001", "--quiet")
    done = conformance("certify", *args, "--report", str(tmp_path))
    assert done.returncode == 3, done.stdout + done.stderr  # a selection is partial
    report = json.loads((tmp_path / "report.json").read_text(encoding="utf-8"))
    verdicts = {result["id"]: result["verdict"] for result in report["results"]}
    assert verdicts == {"PROTO-HELLO-001": "pass", "VAR-SELECT-001": "pass"}


def test_a_dead_worker_is_an_error_not_a_traceback(tmp_path) -> None:
    args = ("--engine-python", "selftest.test_harness:DiesOnAlgebra", "-n", "2", "-k", "ALG-")
    done = conformance("certify", *args, "--quiet", "--report", str(tmp_path))
    assert "Traceback" not in done.stdout + done.stderr, done.stderr
    assert done.returncode not in (0, 3), done.stdout
    report = json.loads((tmp_path / "report.json").read_text(encoding="utf-8"))
    verdicts = {result["id"]: result["verdict"] for result in report["results"]}
    assert verdicts and set(verdicts.values()) == {"error"}, verdicts


class _HangsOnSelect(ProtocolHandler):
    """variation.select never answers."""

    def op_variation_select(self, args: dict[str, Any]) -> dict[str, Any]:
        while True:
            time.sleep(1)


def test_a_hung_in_process_engine_is_a_timeout_and_is_started_afresh() -> None:
    engine = InProcessEngine("hang", factory=_HangsOnSelect, timeout=4)
    outcome = run_requirement(REGISTRY["VAR-SELECT-002"], engine, SuiteContext(()), PROFILES["ci"])
    assert (outcome.verdict, outcome.fault) == ("error", "timeout"), outcome
    assert engine.call("hello")["protocol"] == "core-engine/1", "the engine was not restarted"


def _fails_without_words() -> None:
    raise AssertionError()


def test_a_failure_without_a_message_is_told_by_its_source() -> None:
    with pytest.raises(AssertionError) as caught:
        _fails_without_words()
    message = failure_message(caught.value)
    assert message.startswith("failed: raise AssertionError()"), message
    assert "(test_harness.py:" in message, message
    assert failure_message(AssertionError("said so")) == "said so"


def test_a_long_op_name_is_quoted_cut_with_its_length() -> None:
    from conformance.engines.base import SHOWN_CHARACTERS, shown

    assert shown("state.open") == "state.open"
    long = shown("x" * 100_000)
    assert len(long) <= SHOWN_CHARACTERS + 30 and "(100,000 characters)" in long, long


BLOCKING_ECHO = (
    "import sys\n"
    "for line in sys.stdin.buffer:\n"
    '    sys.stdout.buffer.write(b\'{"id":null,"ok":true,"result":{}}\\n\')\n'
    "    sys.stdout.buffer.flush()\n"
)
"""An engine that answers each line, flushed, before it reads the next (a write to a full
stdout pipe blocks it)."""


def test_many_raw_lines_reach_an_engine_that_answers_as_it_reads(open_program) -> None:
    """Far more request bytes than a pipe holds: written while the answers are read, never
    all before (which would leave engine and harness each waiting on a full pipe)."""
    engine = open_program(shlex.join([sys.executable, "-c", BLOCKING_ECHO]))
    lines = 20_000
    data = b'{"id":1,"op":"hello","args":{"padding":"' + b"x" * 40 + b'"}}\n'
    responses = engine.raw_lines(data * lines)
    assert len(responses) == lines
