"""The parser of ``python -m reference``: its subcommands, their options, and shell completion.

:func:`reference.cli.main` imports this module only when a command line needs parsing, so
a bare ``serve`` loads neither argparse nor the help machinery it brings (gettext, locale,
shutil). Each subcommand is named by ``command`` in the parsed arguments.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import NoReturn

import reference
from reference.errors import UsageError
from reference.inputs import PathArg, require_utf8

DESCRIPTION = "``python -m reference``: chat, lexicon, ratify, demo and serve."


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{self.prog}: {message}")


class _Version(argparse.Action):
    """``--version``: the program and its version; the version is looked up only here."""

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: object,
        option_string: str | None = None,
    ) -> None:
        sys.stdout.write(f"{parser.prog} {reference.__version__}\n")
        parser.exit()


def build_parser() -> argparse.ArgumentParser:
    """The command line's parser; every free-text option is checked to be UTF-8."""
    parser = _Parser(prog="python -m reference", description=DESCRIPTION)
    parser.add_argument("--version", action=_Version, nargs=0, help="show the version and exit")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    chat = commands.add_parser("chat", help="chat with the reference engine")
    chat.add_argument("--once", metavar="TEXT", help="answer one prompt and exit")
    chat.add_argument("--json", action="store_true", help="one JSON object per turn")
    chat.add_argument("--register", metavar="ID", default=None, help="register pack id")
    chat.add_argument(
        "--register-path",
        metavar="DIR",
        type=PathArg("pack-dir"),
        action="append",
        default=[],
        help="directory searched for register packs before the shipped ones (repeatable)",
    )
    chat.add_argument(
        "--audit", metavar="FILE", type=PathArg("out-file"), help="append one JSON line per turn"
    )
    chat.add_argument("--audit-content", action="store_true", help="include text in the audit")
    chat.add_argument(
        "--state",
        metavar="DIR",
        type=PathArg("state-dir"),
        help="persisted engine state, checkpointed every turn",
    )

    lexicon = commands.add_parser("lexicon", help="list every lemma")
    lexicon.add_argument("--json", action="store_true")

    ratify = commands.add_parser("ratify", help="ratify register pack files")
    ratify.add_argument("paths", nargs="+", metavar="PATH", type=PathArg("pack-file"))

    demo = commands.add_parser("demo", help="scripted demos")
    demo.add_argument("name", nargs="?", default="chat", choices=("chat", "register-tour"))

    commands.add_parser("serve", help="speak the engine protocol on stdio")
    return require_utf8(parser)


def offer_completion(parser: argparse.ArgumentParser) -> None:
    """Answer a shell's completion request through argcomplete (the optional
    ``completion`` extra) and exit, if one is being made; otherwise do nothing."""
    if "_ARGCOMPLETE" not in os.environ:
        return
    try:
        import argcomplete
    except ImportError:
        return
    argcomplete.autocomplete(parser)
