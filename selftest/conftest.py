"""The self-test's collection: ``mutation/`` runs only when named (mutmut names it).

``selftest/mutation/`` certifies the reference once per requirement for mutmut; it is a
measurement of the suite, not a test of it, so ``pytest selftest/`` leaves it out and
``pytest selftest/mutation/`` runs it.
"""

collect_ignore = ["mutation"]
