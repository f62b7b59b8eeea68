"""The suite's self-test: deliberately broken engines, and proof that the suite catches each one.

``engines.BROKEN`` (protocol, variation, overrides, registers, loader) and
``state_mutants.BROKEN_STATE`` (persisted state) name every broken engine and the
requirement ids that must fail on it. Most are one-method subclasses of the reference
handler; the rest change one step of ``composed.ComposedHandler`` or
``state_handler.StateHandler``, conformant recompositions of the reference.
``programs/`` holds engine programs that crash, hang or break the wire protocol, for
the subprocess harness, and a correct but slow one for budgeted runs.
"""
