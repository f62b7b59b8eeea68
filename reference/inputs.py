"""The engine CLI's checks of what the command line names (docs/conformance.md § Input files).

The same contract as the suite's ``conformance/inputs.py`` (the suite never imports the
engine, so each side keeps its own copy): a path argument is typed :class:`PathArg`
with its kind, refused at parse time when empty or holding a NUL byte; every free-text
argument must be valid UTF-8 (:func:`utf8_text`, given to all of them by
:func:`require_utf8`); files are read by :func:`reference.jsonio.read_untrusted_file`
(size, encoding, depth); and an error is printed as :func:`one_line`.
"""

from __future__ import annotations

import argparse
from collections.abc import Iterator

PATH_KINDS = ("pack-file", "pack-dir", "state-dir", "out-file")
"""What a path argument names: a register pack file, a directory of packs, a persisted
state directory, a file the command appends to."""


class PathArg:
    """An argparse type for an argument naming a path; ``kind`` is one of PATH_KINDS."""

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
    lone surrogates, which no turn can carry)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        at = len(text[: exc.start].encode("utf-8", "surrogateescape"))
        raise argparse.ArgumentTypeError(f"not valid UTF-8 (byte {at})") from None
    return text


def one_line(message: str) -> str:
    """*message* as one printable line: control characters and undecodable bytes escaped."""
    text = message.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
    return "".join(ch if ch.isprintable() else repr(ch)[1:-1] for ch in text)


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
