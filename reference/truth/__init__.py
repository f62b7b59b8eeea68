"""The truth path: everything that decides what is true about a turn.

Nothing in this package imports the realizer, the register packs or the
runtime; ``lanes/runtime/test_seam.py`` proves it.
"""
