"""Hostile state directories: unreadable generations, symlinks, an unlinked lock, bad paths.

Each test builds the damage for real (no mocks). "Unreadable" is a mode-000 file read by
an unprivileged user: when the lane runs as root, the engine runs in a child process as
uid 65534, for which the permission bits hold.
"""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
import tempfile
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest
from state_helpers import ROOT, put, recognizer, snapshot

from reference.protocol.handler import ProtocolHandler
from reference.state import StateError, StateStore, load_state

NOBODY = 65534
OPEN = textwrap.dedent(
    """
    import sys
    from reference.state import StateError, StateStore
    try:
        StateStore.open(sys.argv[1]).close()
        print("opened")
    except StateError as exc:
        print(exc.code, exc.message)
    """
)
HOLD = textwrap.dedent(
    """
    import sys, time
    from reference.state import StateStore
    store = StateStore.open(sys.argv[1])
    print("ready", flush=True)
    time.sleep(120)
    """
)


def _content(entry: Path, info: os.stat_result) -> object:
    if stat.S_ISLNK(info.st_mode):
        return os.readlink(entry)
    if not stat.S_ISREG(info.st_mode):
        return None
    try:
        return entry.read_bytes()
    except PermissionError:
        return ("unreadable here", info.st_size, info.st_mtime_ns, info.st_ino)


def _everything(path: Path) -> dict[str, tuple]:
    """Every entry under *path*, journals and LOCK included: relative path -> (mode, content)."""
    out = {}
    for entry in sorted(path.rglob("*")):
        info = entry.lstat()
        out[entry.relative_to(path).as_posix()] = (info.st_mode, _content(entry, info))
    return out


def _as_other_user() -> list[str]:
    """A command prefix that runs a child as a user the permission bits apply to."""
    if os.geteuid() != 0:
        return []
    return ["setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups"]


@pytest.fixture
def shared_dir() -> Iterator[Path]:
    """A scratch directory every user can traverse (pytest's tmp_path is private to root)."""
    path = Path(tempfile.mkdtemp(prefix="state-hostile-"))
    path.chmod(0o755)
    try:
        yield path
    finally:
        for entry in [path, *path.rglob("*")]:
            if not entry.is_symlink():
                entry.chmod(0o755 if entry.is_dir() else 0o644)
        shutil.rmtree(path)


def _give_away(path: Path) -> None:
    """Hand *path* and everything in it to the user children run as."""
    if os.geteuid() == 0:
        for entry in [path, *path.rglob("*")]:
            os.chown(entry, NOBODY, NOBODY, follow_symlinks=False)


def _two_generations(path: Path) -> Path:
    store = StateStore.open(path)
    store.apply([put(recognizer("a")), {"op": "turn"}])
    store.checkpoint()
    store.apply([put(recognizer("b")), {"op": "turn"}])
    store.checkpoint()
    store.close()
    return path


def _run(args: list[str]) -> subprocess.CompletedProcess:
    return subprocess.run(args, cwd=ROOT, capture_output=True, text=True, timeout=120, check=False)


def _open_in_child(path: Path, prefix: tuple[str, ...] = ()) -> str:
    return _run([*prefix, sys.executable, "-c", OPEN, str(path)]).stdout.strip()


def test_an_unreadable_live_generation_is_refused_and_nothing_is_touched(shared_dir):
    state = _two_generations(shared_dir / "life")
    _give_away(state)
    (state / "gen-00000002" / "core.jsonl").chmod(0)
    before = _everything(state)
    answer = _open_in_child(state, _as_other_user())
    assert answer.startswith("STATE_UNREADABLE"), answer
    assert "gen-00000002" in answer
    assert _everything(state) == before


def test_an_unreadable_manifest_is_refused_by_a_read_only_load(shared_dir):
    state = _two_generations(shared_dir / "life")
    _give_away(state)
    (state / "gen-00000002" / "manifest.json").chmod(0)
    script = "import sys\nfrom reference.state import load_state, StateError\n"
    script += "try:\n    print(load_state(sys.argv[1]).generation)\n"
    script += "except StateError as exc:\n    print(exc.code)\n"
    done = _run([*_as_other_user(), sys.executable, "-c", script, str(state)])
    assert done.stdout.strip() == "STATE_UNREADABLE"


@pytest.mark.parametrize("what", ["directory", "files"])
def test_chat_refuses_a_mode_000_live_generation_in_one_line(shared_dir, what):
    state = shared_dir / "life"
    chat = [sys.executable, "-m", "reference", "chat", "--state", str(state), "--once"]
    assert _run([*chat, "What is light?"]).returncode == 0
    assert _run([*chat, "hello"]).returncode == 0
    _give_away(state)
    live = state / "gen-00000002"
    for entry in [live] if what == "directory" else sorted(live.iterdir()):
        entry.chmod(0)
    before = _everything(state)
    done = _run([*_as_other_user(), *chat, "hello"])
    assert done.returncode != 0
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert "STATE_UNREADABLE" in done.stderr
    assert done.stdout == ""
    assert _everything(state) == before


def test_chat_reports_a_fall_back_in_one_line_on_stderr(tmp_path):
    state = tmp_path / "life"
    chat = [sys.executable, "-m", "reference", "chat", "--state", str(state), "--once"]
    assert _run([*chat, "What is light?"]).stderr == ""
    assert _run([*chat, "hello"]).returncode == 0
    (state / "CURRENT").write_bytes(b"garbage")
    done = _run([*chat, "hello"])
    assert done.returncode == 0
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "STATE_RECOVERED" in lines[0] and "CURRENT garbage" in lines[0]
    assert load_state(state).turn_count == 3


def test_a_current_symlinked_outside_is_refused(tmp_path):
    state = _two_generations(tmp_path / "life")
    outside = tmp_path / "outside-CURRENT"
    outside.write_bytes(b"gen-00000001\n")
    (state / "CURRENT").unlink()
    (state / "CURRENT").symlink_to(outside)
    before = _everything(state)
    for attempt in (load_state, StateStore.open):
        with pytest.raises(StateError) as refused:
            attempt(state)
        assert refused.value.code == "STATE_SYMLINK"
        assert "CURRENT" in refused.value.message
    assert _everything(state) == before
    assert outside.read_bytes() == b"gen-00000001\n"


ENTRIES = ["LOCK", "lineage.journal", "proposals.journal", "overflow.journal", "CURRENT.tmp"]


@pytest.mark.parametrize("name", [*ENTRIES, "staging-3"])
def test_no_write_follows_a_symlinked_entry_out_of_the_directory(tmp_path, name):
    state = _two_generations(tmp_path / "life")
    outside = tmp_path / "outside"
    precious = b"00000002 00000000 {}\n" + b"precious, no trailing newline"
    outside.write_bytes(precious)
    (state / name).unlink(missing_ok=True)
    (state / name).symlink_to(outside)
    (state / "staging-7").mkdir()
    before = snapshot(state)
    with pytest.raises(StateError) as refused:
        StateStore.open(state)
    assert refused.value.code == "STATE_SYMLINK"
    assert name in refused.value.message
    assert outside.read_bytes() == precious
    assert snapshot(state) == before, "a refused open removed or changed state entries"


def test_an_unreadable_older_generation_stops_a_fall_back(shared_dir):
    state = _two_generations(shared_dir / "life")
    store = StateStore.open(state)
    store.apply([{"op": "turn"}])
    store.checkpoint()
    store.close()
    (state / "CURRENT").write_bytes(b"gen-00000009\n")
    _give_away(state)
    (state / "gen-00000003" / "manifest.json").chmod(0)
    before = _everything(state)
    assert _open_in_child(state, _as_other_user()).startswith("STATE_UNREADABLE")
    assert _everything(state) == before


def test_an_unreadable_generation_past_current_is_refused_not_removed(shared_dir):
    state = _two_generations(shared_dir / "life")
    (state / "CURRENT").write_bytes(b"gen-00000001\n")
    _give_away(state)
    (state / "gen-00000002" / "manifest.json").chmod(0)
    before = _everything(state)
    assert _open_in_child(state, _as_other_user()).startswith("STATE_UNREADABLE")
    assert _everything(state) == before


def test_generation_numbers_never_overflow_their_eight_digits(tmp_path):
    state = _two_generations(tmp_path / "life")
    (state / "CURRENT").write_bytes(b"garbage")
    (state / "gen-99999999").mkdir()
    store = StateStore.open(state)
    store.apply([{"op": "turn"}])
    with pytest.raises(StateError) as refused:
        store.checkpoint()
    assert refused.value.code == "STATE_IO"
    assert load_state(state).generation == 2


def test_an_unreadable_journal_is_refused(shared_dir):
    state = _two_generations(shared_dir / "life")
    store = StateStore.open(state)
    store.propose({"p": 1})
    store.close()
    _give_away(state)
    (state / "proposals.journal").chmod(0)
    before = _everything(state)
    assert _open_in_child(state, _as_other_user()).startswith("STATE_UNREADABLE")
    assert _everything(state) == before


def test_a_symlinked_generation_directory_is_refused(tmp_path):
    state = _two_generations(tmp_path / "life")
    elsewhere = tmp_path / "elsewhere"
    (state / "gen-00000002").rename(elsewhere)
    (state / "gen-00000002").symlink_to(elsewhere)
    with pytest.raises(StateError) as refused:
        load_state(state)
    assert refused.value.code == "STATE_SYMLINK"


def test_unlinking_lock_does_not_let_a_second_writer_in(tmp_path):
    state = tmp_path / "life"
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLD, str(state)], cwd=ROOT, stdout=subprocess.PIPE, text=True
    )
    try:
        assert holder.stdout.readline().strip() == "ready"
        (state / "LOCK").unlink()
        assert _open_in_child(state).startswith("STATE_LOCKED")
        with pytest.raises(StateError) as refused:
            StateStore.open(state)
        assert refused.value.code == "STATE_LOCKED"
    finally:
        holder.kill()
        holder.wait()


def _ask(op: str, args: dict) -> dict:
    return ProtocolHandler().handle({"id": 1, "op": op, "args": args})


@pytest.mark.parametrize("op", ["state.open", "state.load", "state.soak"])
def test_state_ops_on_a_regular_file_answer_state_io(tmp_path, op):
    target = tmp_path / "a-file"
    target.write_bytes(b"not a directory")
    args = {"dir": str(target)} | ({"iterations": 1, "seed": 0} if op == "state.soak" else {})
    answer = _ask(op, args)
    assert answer["error"]["code"] == "STATE_IO", answer
    assert str(target) in answer["error"]["message"]
    assert target.read_bytes() == b"not a directory"


@pytest.mark.parametrize("op", ["state.open", "state.soak"])
def test_state_ops_on_an_over_long_name_answer_state_io(tmp_path, op):
    target = tmp_path / ("n" * 300)
    args = {"dir": str(target)} | ({"iterations": 1, "seed": 0} if op == "state.soak" else {})
    answer = _ask(op, args)
    assert answer["error"]["code"] == "STATE_IO", answer


def test_state_journal_of_a_regular_file_answers_a_state_code(tmp_path):
    target = tmp_path / "a-file"
    target.write_bytes(b"x")
    answer = _ask("state.journal", {"dir": str(target), "name": "lineage"})
    assert answer["error"]["code"] == "STATE_IO", answer


def test_a_read_only_directory_answers_state_io(shared_dir):
    state = _two_generations(shared_dir / "life")
    if os.geteuid() != 0:
        state.chmod(0o555)
    before = _everything(state)
    answer = _open_in_child(state, _as_other_user())
    assert answer.startswith("STATE_IO"), answer
    assert _everything(state) == before
