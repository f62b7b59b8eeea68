"""A small no-drift soak (tools/soak_life.py): a life of generated conversation on a state
store, SIGKILLed and resumed along the way, stays the uninterrupted life with its versor
condition below 1e-6 on every turn. Times are not checked here (``nox -s soak`` does)."""

from __future__ import annotations

from tools.soak_life import main


def test_a_small_soak_with_kills_is_the_uninterrupted_life(capsys) -> None:
    assert main(["--turns", "40", "--kills", "3", "--seed", "7", "--no-time-check"]) == 0
    table = capsys.readouterr().out
    assert "| records unlike the uninterrupted life | 0 |" in table
