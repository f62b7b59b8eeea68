"""The suite as pytest items: ``pytest --pyargs conformance.suite``."""
