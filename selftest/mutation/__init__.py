"""The conformance suite as the only test of a mutated reference engine (``nox -s mutation``)."""
