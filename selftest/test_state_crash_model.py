"""The crash model, the strace reader and the figures channel the state requirements use."""

from __future__ import annotations

import base64
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conformance import details
from conformance.engines import InProcessEngine, SubprocessEngine
from conformance.report.certificate import render_certificate
from conformance.report.expected import ExpectedFailures
from conformance.report.model import build_report
from conformance.requirements import REGISTRY, SuiteContext
from conformance.runner import PROFILES, run_requirement
from conformance.state import strace
from conformance.state.crashstates import (
    CrashState,
    build,
    crash_states,
    expand,
    fate_menu,
    image_digest,
    prefix_images,
    settled_prefixes,
)
from conformance.state.judge import allowed_at, distinct_states
from conformance.state.traces import Trace
from selftest.reference_engine import REFERENCE_FACTORY


def _data(text: bytes) -> str:
    return base64.b64encode(text).decode("ascii")


COMMIT = [
    {"op": "mkdir", "path": "s"},
    {"op": "write", "path": "s/f", "data": _data(b"new data")},
    {"op": "fsync", "path": "s/f"},
    {"op": "fsync_dir", "path": "s"},
    {"op": "rename", "src": "s", "dst": "g"},
    {"op": "append", "path": "j", "data": _data(b"tail")},
]


def test_a_synced_operation_has_one_fate():
    assert fate_menu(COMMIT, 1, 4) == ()
    assert "lost" in fate_menu(COMMIT, 0, 3)


def test_unsynced_writes_may_tear_or_land_as_zeros_or_garbage():
    assert set(fate_menu(COMMIT, 1, 2)) >= {"empty", "torn", "torn1", "zeros", "garbage"}
    prefixes = prefix_images({}, COMMIT)
    zeros = build(prefixes, COMMIT, CrashState(2, ((1, "zeros"),)))
    garbage = build(prefixes, COMMIT, CrashState(2, ((1, "garbage"),)))
    assert zeros["s/f"] == bytes(8)
    assert len(garbage["s/f"]) == 8 and garbage["s/f"] != b"new data"


def test_a_rename_may_leave_neither_name_or_both():
    prefixes = prefix_images({}, COMMIT)
    neither = build(prefixes, COMMIT, CrashState(5, ((4, "neither"),)))
    both = build(prefixes, COMMIT, CrashState(5, ((4, "both"),)))
    assert "s" not in neither and "g" not in neither
    assert both["s/f"] == both["g/f"] == b"new data"


def test_an_append_may_extend_its_file_with_zeros():
    image = {"j": b"head"}
    state = CrashState(6, ((5, "zeros"),))
    assert build(prefix_images(image, COMMIT), COMMIT, state)["j"] == b"head" + bytes(4)


def test_sampling_is_seeded_and_several_losses_are_tried_together():
    first = list(crash_states(COMMIT, seed=7, samples=4))
    assert first == list(crash_states(COMMIT, seed=7, samples=4))
    assert any(len(state.fates) > 1 for state in first)


def test_a_state_leaves_the_image_of_its_settled_prefix_with_the_same_fates():
    ops = [*COMMIT, {"op": "ack", "generation": 2, "identity": "b"}, {"op": "fsync", "path": "j"}]
    prefixes, settled = prefix_images({}, ops), settled_prefixes(ops)
    assert settled == [0, 1, 2, 2, 2, 5, 6, 6, 6]
    for state in crash_states(ops, seed=3, samples=4):
        same = CrashState(settled[state.prefix], state.fates)
        assert image_digest(build(prefixes, ops, state)) == image_digest(build(prefixes, ops, same))


def test_equal_states_are_built_once_and_still_narrow_what_their_image_may_load():
    ops = [
        {"op": "write", "path": "x", "data": _data(b"1")},
        {"op": "fsync", "path": "x"},
        {"op": "ack", "generation": 2, "identity": "b"},
    ]
    states, _, generated = distinct_states(Trace({}, ops, (1, "a"), "test"), seed=0, samples=2)
    assert generated > len(states)
    after_ack = next(d for d in states if d.state == CrashState(1))
    assert after_ack.allowed == {(2, "b")}
    assert after_ack.narrowed_by == CrashState(3)


def test_a_pointer_renamed_before_its_fsync_may_persist_without_its_bytes():
    """The reordering a missing fsync allows: the rename over CURRENT reaches the disk, the
    bytes it publishes do not (commit step 5 fsyncs CURRENT.tmp first, STATE-STEPS-001). In
    the right order a crash leaves the old pointer, the new one, or (a rename that left
    neither name) none, never a pointer with other bytes."""
    pointer = b"gen-00000002\n"
    image = {"CURRENT": b"gen-00000001\n"}
    ops = [
        {"op": "write", "path": "CURRENT.tmp", "data": _data(pointer)},
        {"op": "rename", "src": "CURRENT.tmp", "dst": "CURRENT"},
        {"op": "fsync", "path": "CURRENT"},
        {"op": "fsync_dir", "path": "."},
    ]
    prefixes = prefix_images(image, ops)
    images = [build(prefixes, ops, state) for state in crash_states(ops, seed=0, samples=8)]
    published = [i["CURRENT"] for i in images if "CURRENT.tmp" not in i and "CURRENT" in i]
    assert any(data not in (pointer, image["CURRENT"]) for data in published)
    synced_first = [ops[0], {"op": "fsync", "path": "CURRENT.tmp"}, ops[1], ops[3]]
    prefixes = prefix_images(image, synced_first)
    for state in crash_states(synced_first, seed=0, samples=8):
        built = build(prefixes, synced_first, state)
        assert built.get("CURRENT") in (pointer, image["CURRENT"], None), state


def test_remove_tree_expands_into_removals_deepest_first():
    image = {"g": None, "g/a": b"1", "g/b": b"2"}
    ops = expand(image, [{"op": "remove_tree", "path": "g"}])
    assert [op["op"] for op in ops] == ["unlink", "unlink", "rmdir"]


def test_a_crash_may_load_the_last_acknowledged_or_the_one_in_flight():
    ops = [
        {"op": "write", "path": "x", "data": ""},
        {"op": "ack", "generation": 2, "identity": "b"},
    ]
    allowed = allowed_at(ops, (1, "a"))
    assert allowed[0] == allowed[1] == {(1, "a"), (2, "b")}
    assert allowed[2] == {(2, "b")}


def _hex(text: str) -> str:
    return "".join(f"\\x{byte:02x}" for byte in text.encode())


def _open(path: str, flags: str, fd: int) -> str:
    return f'7 openat(AT_FDCWD<{_hex("/")}>, "{_hex(path)}", {flags}, 0644) = {fd}<{_hex(path)}>'


def test_strace_log_becomes_logical_operations():
    root = "/s"
    log = "\n".join(
        [
            f'7 mkdir("{_hex("/s/st")}", 0777) = 0',
            _open("/s/st/f", "O_WRONLY|O_CREAT|O_TRUNC|O_CLOEXEC", 3),
            f'7 write(3<{_hex("/s/st/f")}>, "{_hex("ab")}", 2 <unfinished ...>',
            "7 <... write resumed>) = 2",
            f'7 write(3<{_hex("/s/st/f")}>, "{_hex("cd")}", 2) = 2',
            f"7 fsync(3<{_hex('/s/st/f')}>) = 0",
            _open("/s", "O_RDONLY|O_DIRECTORY", 4),
            f"7 fsync(4<{_hex('/s')}>) = 0",
            _open("/s/LOCK", "O_RDWR|O_CREAT", 5),
            f'7 write(5<{_hex("/s/LOCK")}>, "{_hex("12")}", 2) = 2',
            f'7 unlinkat(4<{_hex("/s")}>, "{_hex("old")}", AT_REMOVEDIR) = 0',
            f'7 unlink("{_hex("/s/gone")}") = -1 ENOENT (No such file or directory)',
            f'7 write(1<{_hex("pipe:[1]")}>, "{_hex("{}")}", 2) = 2',
            f'7 write(1<{_hex("pipe:[1]")}>, "{_hex(chr(10))}", 1) = 1',
        ]
    )
    ops = strace.file_ops(log, root, set())
    assert ops == [
        {"op": "mkdir", "path": "st"},
        {"op": "write", "path": "st/f", "data": _data(b"abcd")},
        {"op": "fsync", "path": "st/f"},
        {"op": "fsync_dir", "path": "."},
        {"op": "rmdir", "path": "old"},
        {"op": "answer"},
    ]


def test_paths_through_a_held_directorys_proc_link_are_inside_the_state_directory():
    """A runtime without openat (Node.js) names entries /proc/self/fd/N/<name>."""
    log = "\n".join(
        [
            _open("/s", "O_RDONLY|O_DIRECTORY", 18),
            _open("/elsewhere", "O_RDONLY|O_DIRECTORY", 21),
            f'7 mkdir("{_hex("/proc/self/fd/18/st")}", 0777) = 0',
            f'7 openat(AT_FDCWD<{_hex("/")}>, "{_hex("/proc/self/fd/18/st")}", '
            f"O_RDONLY|O_NOFOLLOW|O_DIRECTORY) = 19<{_hex('/s/st')}>",
            f'7 openat(AT_FDCWD<{_hex("/")}>, "{_hex("/proc/thread-self/fd/19/f")}", '
            f"O_WRONLY|O_CREAT|O_TRUNC|O_NOFOLLOW, 0644) = 20<{_hex('/s/st/f')}>",
            f'7 write(20<{_hex("/s/st/f")}>, "{_hex("ab")}", 2) = 2',
            f'7 rename("{_hex("/proc/self/fd/18/st")}", "{_hex("/proc/7/fd/18/g")}") = 0',
            f'7 unlink("{_hex("/proc/7/task/7/fd/18/CURRENT.tmp")}") = 0',
            f'7 mkdir("{_hex("/proc/self/fd/21/outside")}", 0777) = 0',
            f'7 mkdir("{_hex("/proc/self/fd/180/unknown")}", 0777) = 0',
        ]
    )
    assert strace.file_ops(log, "/s", set()) == [
        {"op": "mkdir", "path": "st"},
        {"op": "write", "path": "st/f", "data": _data(b"ab")},
        {"op": "rename", "src": "st", "dst": "g"},
        {"op": "unlink", "path": "CURRENT.tmp"},
    ]


def test_the_calls_of_every_thread_share_one_descriptor_table():
    """A runtime's worker threads (libuv's pool) open, write and sync on each other's
    descriptors, their calls interleaved: each call counts where it completes."""
    log = "\n".join(
        [
            _open("/s", "O_RDONLY|O_DIRECTORY", 4),
            f'8 openat(AT_FDCWD<{_hex("/")}>, "{_hex("/s/f")}", '
            "O_WRONLY|O_CREAT|O_TRUNC <unfinished ...>",
            f'7 write(1<{_hex("pipe:[1]")}>, "{_hex("{}")}", 2) = 2',
            f"8 <... openat resumed>, 0644) = 5<{_hex('/s/f')}>",
            f'9 write(5<{_hex("/s/f")}>, "{_hex("ab")}", 2 <unfinished ...>',
            f"8 fsync(4<{_hex('/s')}>) = 0",
            "9 <... write resumed>) = 2",
            f"7 fsync(5<{_hex('/s/f')}>) = 0",
            f'7 write(1<{_hex("pipe:[1]")}>, "{_hex(chr(10))}", 1) = 1',
        ]
    )
    assert strace.file_ops(log, "/s", set(), answer_pipe="pipe:[1]") == [
        {"op": "write", "path": "f", "data": ""},
        {"op": "fsync_dir", "path": "."},
        {"op": "pwrite", "path": "f", "data": _data(b"ab"), "offset": 0},
        {"op": "fsync", "path": "f"},
        {"op": "answer"},
    ]


WORKER_COMMIT = """
const { Worker, isMainThread, workerData } = require('node:worker_threads');
const fs = require('node:fs');
const C = fs.constants;
if (isMainThread) {
  const dir = fs.openSync(process.argv[2], C.O_RDONLY | C.O_DIRECTORY);
  const done = new Int32Array(new SharedArrayBuffer(4));
  new Worker(__filename, { workerData: { dir, done } }).unref();
  Atomics.wait(done, 0, 0);
  process.stdout.write('{}\\n');
} else {
  const at = (name) => `/proc/self/fd/${workerData.dir}/${name}`;
  const fd = fs.openSync(at('f'), C.O_WRONLY | C.O_CREAT | C.O_TRUNC | C.O_NOFOLLOW, 0o644);
  fs.writeSync(fd, 'ab');
  fs.fsyncSync(fd);
  fs.closeSync(fd);
  fs.renameSync(at('f'), at('g'));
  fs.fsyncSync(workerData.dir);
  Atomics.store(workerData.done, 0, 1);
  Atomics.notify(workerData.done, 0);
}
"""


def test_a_node_worker_threads_file_calls_are_traced_as_the_process(tmp_path: Path) -> None:
    """strace -f follows the thread a runtime does file I/O on (here a Node.js worker)."""
    node = shutil.which("node")
    if strace.available() is None or node is None:
        pytest.skip("strace or node is not installed")
    script = tmp_path / "worker.js"
    script.write_text(WORKER_COMMIT, encoding="utf-8")
    root = tmp_path / "state"
    root.mkdir()
    log = tmp_path / "strace.log"
    command = strace.traced([node, str(script), str(root)], log)
    done = subprocess.run(command, capture_output=True, timeout=120, check=True)
    assert done.stdout == b"{}\n"
    text = log.read_text(encoding="utf-8")
    tids = {pid for pid, call in strace.calls(text) if call.name in ("rename", "fsync")}
    main_tid = strace.calls(text)[0][0]
    assert tids and main_tid not in tids, "the file calls were not made on a worker thread"
    assert strace.file_ops(text, root, set()) == [
        {"op": "write", "path": "f", "data": _data(b"ab")},
        {"op": "fsync", "path": "f"},
        {"op": "rename", "src": "f", "dst": "g"},
        {"op": "fsync_dir", "path": "."},
        {"op": "answer"},
    ]


def test_only_the_engines_own_stdout_pipe_carries_answers():
    log = "\n".join(
        [
            f'6 write(1<{_hex("pipe:[9]")}>, "{_hex("shim" + chr(10))}", 5) = 5',
            f'7 write(1<{_hex("pipe:[1]")}>, "{_hex("{}" + chr(10))}", 3) = 3',
        ]
    )
    assert strace.file_ops(log, "/s", set(), answer_pipe="pipe:[1]") == [{"op": "answer"}]
    assert strace.file_ops(log, "/s", set()) == [{"op": "answer"}, {"op": "answer"}]


def test_an_engine_behind_a_wrapper_script_is_traced_as_itself():
    """A launcher whose subshells write to pipes of their own (a pyenv shim, say)."""
    if strace.available() is None:
        pytest.skip("strace is not installed")
    python = shlex.quote(sys.executable)
    command = f"sh -c 'x=$(echo wrapper); exec {python} -m reference serve'"
    engine = SubprocessEngine(command, timeout=120.0)
    try:
        for req_id in ("STATE-TRACE-001", "STATE-CRASH-001"):
            ctx = SuiteContext.from_engine(engine)
            outcome = run_requirement(REGISTRY[req_id], engine, ctx, PROFILES["ci"], 2)
            assert outcome.verdict == "pass", outcome.message
    finally:
        engine.close()


def test_a_requirement_reports_its_figures_in_the_report_and_certificate():
    engine = InProcessEngine(REFERENCE_FACTORY)
    req = REGISTRY["STATE-TRACE-001"]
    token = details.start()
    details.count(kills=2)
    details.count(kills=1)
    details.note(trace="strace")
    assert details.finish(token) == {"kills": 3, "trace": "strace"}
    outcome = run_requirement(req, engine, SuiteContext(()), PROFILES["ci"], max_examples=1)
    assert outcome.details and outcome.details["traced_ops"] > 0
    report = build_report(
        [(req, outcome)],
        hello={},
        engine="e",
        profile=PROFILES["ci"],
        expected=ExpectedFailures({}),
    )
    assert report["results"][0]["details"] == outcome.details
    assert f"- STATE-TRACE-001: traced_ops {outcome.details['traced_ops']}" in (
        render_certificate(report)
    )


def test_a_call_the_model_does_not_cover_is_named():
    cwd = f"AT_FDCWD<{_hex('/')}>"
    log = f'7 linkat({cwd}, "{_hex("/s/a")}", {cwd}, "{_hex("/s/b")}", 0) = 0'
    ops = strace.file_ops(log, "/s", set())
    assert ops == [{"op": "unmodelled", "call": "linkat"}]
    with pytest.raises(AssertionError, match="linkat"):
        distinct_states(Trace({}, ops, (0, ""), "strace"), seed=0, samples=0)
