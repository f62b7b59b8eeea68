"""The suite CLI's argument checks (docs/conformance.md § Input files), and completion.

A path argument is typed :class:`PathArg` with its kind, refused at parse time when
empty or holding a NUL byte (its file is read later by :mod:`conformance.inputs`);
every free-text argument must be valid UTF-8 (:func:`utf8_text`, given to all of them
by :func:`require_utf8`). The engine CLI keeps the same contract in
``reference/inputs.py``. :func:`offer` answers shell completion through argcomplete
when it is installed (``pip install -e '.[completion]'``; in bash:
``eval "$(register-python-argcomplete conformance)"``).
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Iterator

PATH_KINDS = ("json-file", "report-dir", "campaign-dir", "out-dir", "out-file")
"""What a path argument names: a JSON input file, a directory holding a report.json, a
campaign directory (read and written), a directory the command writes, a file the
command writes."""


class PathArg:
    """An argparse type for an argument naming a path; ``kind`` is one of PATH_KINDS.

    Refuses the empty path and a path holding a NUL byte (no file can have one) at
    parse time; everything else about the file is checked where it is read.
    """

    def __init__(self, kind: str) -> None:
        if kind not in PATH_KINDS:
            raise ValueError(f"unknown path kind {kind!r}")
        self.kind = kind
        self.__name__ = kind

    def __call__(self, text: str) -> str:
        if not text:
            raise argparse.ArgumentTypeError("the path is empty")
        if "\0" in text:
            raise argparse.ArgumentTypeError("the path holds a NUL byte")
        return text


def utf8_text(text: str) -> str:
    """An argparse type: text that is valid UTF-8 (argv bytes that were not arrive as
    lone surrogates, which no report or engine request can carry)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        at = len(text[: exc.start].encode("utf-8", "surrogateescape"))
        raise argparse.ArgumentTypeError(f"not valid UTF-8 (byte {at})") from None
    return text


def parsers(parser: argparse.ArgumentParser) -> Iterator[argparse.ArgumentParser]:
    """*parser* and every subcommand parser below it."""
    yield parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in dict.fromkeys(action.choices.values()):
                yield from parsers(sub)


def require_utf8(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """Give every option of *parser* (and its subcommands) that takes free text the
    :func:`utf8_text` type; returns *parser*."""
    for each in parsers(parser):
        for action in each._actions:
            takes_text = action.nargs != 0 and not action.choices and action.type is None
            if takes_text and not isinstance(action, argparse._SubParsersAction):
                action.type = utf8_text
    return parser


def offer(parser: argparse.ArgumentParser) -> None:
    """Answer a shell's completion request for *parser* and exit, if one is being made.

    Costs nothing on an ordinary run: argcomplete is imported only when the shell's
    completion hook set ``_ARGCOMPLETE`` in the environment.
    """
    if "_ARGCOMPLETE" not in os.environ:
        return
    try:
        import argcomplete
    except ImportError:
        return
    argcomplete.autocomplete(parser)
