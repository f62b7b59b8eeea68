"""The CORE reference engine: a small, readable, deterministic cognition engine."""

__version__ = "0.1.0"
ENGINE_NAME = "core-reference"
