"""The chat REPL on a terminal: a one-line banner, /help, /quit, and a readline history."""

from __future__ import annotations

import os
import pty
import select
import subprocess
import sys

import pytest

import reference

CEILING = 120.0


def _talk(home, typed: bytes) -> str:
    """Run ``python -m reference chat`` on a pseudo-terminal, type *typed*, read it all."""
    leader, follower = pty.openpty()
    env = {**os.environ, "HOME": str(home), "TERM": "dumb"}
    process = subprocess.Popen(
        [sys.executable, "-m", "reference", "chat"],
        stdin=follower,
        stdout=follower,
        stderr=follower,
        env=env,
    )
    os.close(follower)
    os.write(leader, typed)
    output = b""
    while True:
        ready, _, _ = select.select([leader], [], [], CEILING)
        assert ready, "the REPL hung"
        try:
            chunk = os.read(leader, 4096)
        except OSError:
            break
        if not chunk:
            break
        output += chunk
    os.close(leader)
    assert process.wait(timeout=CEILING) == 0
    return output.decode("utf-8").replace("\r\n", "\n")


@pytest.mark.skipif(sys.platform == "win32", reason="needs a pseudo-terminal")
def test_repl_banner_help_quit_and_history(tmp_path) -> None:
    output = _talk(tmp_path, b"/help\nWhat is light?\n/quit\n")
    banner = next(line for line in output.splitlines() if line.startswith("CORE reference"))
    assert reference.__version__ in banner and "/help" in banner and "/quit" in banner
    assert "Commands: /help" in output
    assert "pack-grounded" in output
    history = (tmp_path / ".core_reference_history").read_text(encoding="utf-8")
    assert "What is light?" in history.splitlines()
