"""The suite's self-test: deliberately broken engines, and proof that the suite catches each one.

``engines.BROKEN`` (protocol, variation, overrides, registers, loader) and
``state_mutants.BROKEN_STATE`` (persisted state) name every broken engine and the
requirement ids that must fail on it. Each is the reference handler with one public
hook replaced: an op, an engine hook, a chat-turn step, or the ratifier, pack loader
or state store it uses, itself the reference's with one step replaced.
``programs/`` holds engine programs that crash, hang or break the wire protocol, for
the subprocess harness, and a correct but slow one for budgeted runs.
"""
