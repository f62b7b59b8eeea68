"""The CORE conformance suite: certify any engine that speaks core-engine/1."""

SUITE_VERSION = "1.0.0"
