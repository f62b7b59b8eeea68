"""The suite's self-test: deliberately broken engines, and proof that the suite catches each one.

``engines.BROKEN`` names every broken engine and the requirement ids that must fail
on it; ``programs/`` holds small engine programs that crash, hang or break the wire
protocol, for the subprocess harness.
"""
