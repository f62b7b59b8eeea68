"""The ``conformance`` console script and ``python -m conformance``.

``smoke`` is answered without importing the rest of the suite, so an engine author's
first verdict comes in about a second; every other command (and shell completion)
goes to :func:`conformance.cli.main`.
"""

from __future__ import annotations

import os
import sys


def main(argv: list[str] | None = None) -> int:
    """Run the command line; return the process exit status."""
    words = list(sys.argv[1:] if argv is None else argv)
    if words[:1] == ["smoke"] and "_ARGCOMPLETE" not in os.environ:
        from conformance import smoke_cli

        try:
            return smoke_cli.main(words[1:])
        except BrokenPipeError:
            from conformance.cli import quiet_broken_pipe

            return quiet_broken_pipe()
    from conformance.cli import main as run

    return run(words)
