"""Persisted-state certification: the format oracle, crash states and the SIGKILL harness."""
