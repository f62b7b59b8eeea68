"""The I/O-error machinery of STATE-EIO-*: a failed fsync in the crash model, the durable
image, the calls strace shows on a state directory, the injection plan, and how a refusal
must name the failed call."""

from __future__ import annotations

import base64
from pathlib import Path

from conformance.requirements.state_eio import names_errno, names_path
from conformance.state import strace
from conformance.state.crashstates import fate_menu
from conformance.state.inject import ERRNOS, Request, durable_image, errnos_for, plan, plan_every


def _data(text: bytes) -> str:
    return base64.b64encode(text).decode("ascii")


def _hex(text: str) -> str:
    return "".join(f"\\x{byte:02x}" for byte in text.encode())


APPENDED = [
    {"op": "append", "path": "j", "data": _data(b"one\n")},
    {"op": "fsync_failed", "path": "j"},
    {"op": "append", "path": "j", "data": _data(b"two\n")},
    {"op": "fsync", "path": "j"},
]


def test_a_failed_fsync_makes_nothing_durable_whatever_a_later_fsync_says():
    assert "lost" in fate_menu(APPENDED, 0, len(APPENDED))
    assert fate_menu(APPENDED, 2, len(APPENDED)) == ()
    image = durable_image({"j": b""}, APPENDED)
    assert image == {"j": b"two\n"}


def test_a_failed_directory_fsync_leaves_the_new_entry_floating():
    ops = [
        {"op": "write", "path": "j", "data": _data(b"line\n")},
        {"op": "fsync", "path": "j"},
        {"op": "fsync_dir_failed", "path": "."},
        {"op": "fsync_dir", "path": "."},
    ]
    assert fate_menu(ops, 0, len(ops)) == ("lost",)
    assert durable_image({}, ops) == {}
    synced = [*ops[:2], {"op": "fsync_dir", "path": "."}]
    assert durable_image({}, synced) == {"j": b"line\n"}


def test_the_durable_image_drops_what_no_barrier_covered():
    ops = [
        {"op": "write", "path": "a", "data": _data(b"a")},
        {"op": "answer"},
        {"op": "rename", "src": "a", "dst": "b"},
    ]
    assert durable_image({}, ops) == {}


LOG = "\n".join(
    [
        f'7 openat(AT_FDCWD<{_hex("/")}>, "{_hex("/s/j")}", O_WRONLY|O_CREAT|O_APPEND, 0644)'
        f" = 3<{_hex('/s/j')}>",
        f'7 write(3<{_hex("/s/j")}>, "{_hex("ab")}", 2) = 2',
        f"7 fsync(3<{_hex('/s/j')}>) = -1 EIO (Input/output error) (INJECTED)",
        f"7 close(3<{_hex('/s/j')}>) = 0",
        f'7 write(1<{_hex("pipe:[1]")}>, "{_hex("{}" + chr(10))}", 3) = 3',
        f'7 write(4<{_hex("/elsewhere")}>, "{_hex("x")}", 1) = 1',
        f'7 renameat(AT_FDCWD<{_hex("/")}>, "{_hex("/s/t")}", AT_FDCWD<{_hex("/")}>, '
        f'"{_hex("/s/j")}") = 0',
        f'7 write(3<{_hex("/s/j")}>, "{_hex("cd")}", 2) = 2',
    ]
)


def test_state_calls_are_numbered_per_call_and_placed_between_answers():
    calls = strace.state_calls(LOG, Path("/s"), "pipe:[1]")
    assert [(c.name, c.number, c.paths, c.answers) for c in calls] == [
        ("openat", 1, ("j",), 0),
        ("write", 1, ("j",), 0),
        ("fsync", 1, ("j",), 0),
        ("close", 1, ("j",), 0),
        ("renameat", 1, ("t", "j"), 1),
        ("write", 4, ("j",), 1),
    ]
    (failed,) = [c for c in calls if c.injected]
    assert (failed.name, failed.errno) == ("fsync", "EIO")


def test_a_call_through_a_held_directorys_proc_link_is_a_state_call():
    """A runtime without openat (Node.js) names entries /proc/self/fd/N/<name>."""
    cwd = f"AT_FDCWD<{_hex('/')}>"
    log = "\n".join(
        [
            f'7 openat({cwd}, "{_hex("/s")}", O_RDONLY|O_DIRECTORY) = 18<{_hex("/s")}>',
            f'7 openat({cwd}, "{_hex("/x")}", O_RDONLY|O_DIRECTORY) = 19<{_hex("/x")}>',
            f'7 mkdir("{_hex("/proc/self/fd/18/st")}", 0755) = 0',
            f'7 rename("{_hex("/proc/self/fd/18/st")}", "{_hex("/proc/7/fd/18/g")}") = 0',
            f'7 unlink("{_hex("/proc/self/fd/19/elsewhere")}") = 0',
            f"7 close(18<{_hex('/s')}>) = 0",
            f'7 unlink("{_hex("/proc/self/fd/18/closed")}") = 0',
        ]
    )
    calls = strace.state_calls(log, Path("/s"), "pipe:[1]")
    assert [(c.name, c.paths) for c in calls] == [
        ("openat", (".",)),
        ("mkdir", ("st",)),
        ("rename", ("st", "g")),
        ("close", (".",)),
    ]


def test_a_failed_fsync_becomes_fsync_failed_when_asked():
    ops = strace.file_ops(LOG, "/s", set(), "pipe:[1]", failed_syncs=True)
    assert [op["op"] for op in ops] == ["append", "fsync_failed", "answer", "rename"]
    assert "fsync_failed" not in [op["op"] for op in strace.file_ops(LOG, "/s", set())]


SESSION = [Request("state.open", {}), Request("state.propose", {})]


def test_the_plan_fails_each_kind_of_call_once_and_every_write_of_a_request():
    calls = strace.state_calls(LOG, Path("/s"), "pipe:[1]")
    chosen = plan(calls, SESSION)
    assert errnos_for(calls[0]) == ERRNOS and errnos_for(calls[3]) == ("EIO",)
    kinds = {(i.call, i.number, i.times) for i in chosen}
    assert kinds == {
        ("openat", 1, 1),
        ("write", 1, 1),
        ("fsync", 1, 1),
        ("fsync", 1, 2),
        ("close", 1, 1),
        ("renameat", 1, 1),
        ("write", 4, 1),
    }
    assert [i.spec for i in chosen if i.times == 2] == ["fsync:error=EIO:when=1..2"]
    assert len(plan_every(calls, SESSION)) == 3 * len(calls) + 1


def test_a_refusal_names_the_failed_path_as_a_whole_path_and_its_error():
    directory = Path("/tmp/run3")
    said = "cannot write /tmp/run3/staging-proposals.journal: Input/output error (EIO)"
    assert not names_path(said, "proposals.journal", directory)
    assert names_path(said, "staging-proposals.journal", directory)
    assert names_path(
        "EIO: i/o error, fsync '/tmp/run3/proposals.journal'", "proposals.journal", directory
    )
    assert names_path("cannot sync /tmp/run3: EIO", ".", directory)
    assert not names_path("cannot sync /tmp/run31: EIO", ".", directory)
    assert names_path("gen-00000002/core.jsonl: EIO", "gen-00000002/core.jsonl", directory)
    assert not names_path("gen-00000002/core.jsonl.tmp: x", "gen-00000002/core.jsonl", directory)
    assert names_errno(said, "EIO") and names_errno("No space left on device", "ENOSPC")
    assert not names_errno(said, "EROFS")
