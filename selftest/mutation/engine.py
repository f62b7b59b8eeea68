"""The (mutated) reference engine as a program: ``python -m selftest.mutation.engine``.

The same as ``python -m reference serve``, with the functions it reaches recorded for
mutmut (:mod:`selftest.mutation.hits`).
"""

from __future__ import annotations

from selftest.mutation.hits import install_recorder

if __name__ == "__main__":
    install_recorder()
    from reference.cli import main

    raise SystemExit(main(["serve"]))
