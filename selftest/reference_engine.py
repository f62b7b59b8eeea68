"""The reference engine as an in-process factory, for tests that certify it without a process.

The shipped suite never names the reference: its default engine is the command
``python -m reference serve``. The self-test, the mutation test and the lanes plug the
reference in-process through this factory instead.
"""

from __future__ import annotations

REFERENCE_FACTORY = "reference.serve:factory"
"""``module:factory`` of the reference engine's protocol handler."""
