"""``python -m reference``: chat, lexicon, ratify, demo and serve.

Every error is one line on stderr and a non-zero exit; never a traceback.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from reference.canonical import wire_json
from reference.errors import EngineError, UsageError

EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:
        raise UsageError(f"{self.prog}: {message}")


def _chat_runtime(args: argparse.Namespace):
    from reference.runtime import ChatRuntime, RuntimeConfig

    config = RuntimeConfig(
        register_pack_id=args.register,
        register_search_path=tuple(Path(p) for p in args.register_path),
        audit_path=Path(args.audit) if args.audit else None,
        audit_content=args.audit_content,
        state_dir=Path(args.state) if args.state else None,
    )
    return ChatRuntime(config)


def _emit(response, as_json: bool, out) -> None:
    out.write((wire_json(response.as_json()) if as_json else response.surface) + "\n")
    out.flush()


def cmd_chat(args: argparse.Namespace) -> int:
    with _chat_runtime(args) as runtime:
        if runtime.persisted is not None and runtime.persisted.recovered:
            print(f"warning: STATE_RECOVERED: {runtime.persisted.recovered}", file=sys.stderr)
        return _converse(runtime, args)


def _converse(runtime, args: argparse.Namespace) -> int:
    out = sys.stdout
    if args.once is not None:
        _emit(runtime.chat(args.once), args.json, out)
        return EXIT_OK
    interactive = sys.stdin.isatty() and not args.json
    while True:
        if interactive:
            out.write("you> ")
            out.flush()
        line = sys.stdin.readline()
        if not line:
            return EXIT_OK
        prompt = line.rstrip("\n")
        if interactive and prompt.strip() in {"/quit", "/exit"}:
            return EXIT_OK
        if not prompt.strip() and interactive:
            continue
        _emit(runtime.chat(prompt), args.json, out)


def cmd_lexicon(args: argparse.Namespace) -> int:
    from reference.lexicon import default_lexicon

    for entry in default_lexicon().lemmas:
        row = {"has_gloss": entry.has_gloss, "lemma": entry.lemma, "pack": entry.pack_id}
        row["pos"] = entry.pos
        if args.json:
            sys.stdout.write(wire_json(row) + "\n")
        else:
            gloss = "gloss" if entry.has_gloss else "no gloss"
            sys.stdout.write(f"{entry.lemma:<14} {entry.pos:<9} {entry.pack_id:<13} {gloss}\n")
    return EXIT_OK


def cmd_ratify(args: argparse.Namespace) -> int:
    from reference.registers.ratify import main_ratify
    from reference.runtime.probe import register_probe

    return main_ratify(args.paths, evidence_probe=register_probe)


def cmd_demo(args: argparse.Namespace) -> int:
    from reference.demo import register_tour, scripted_chat

    if args.name == "register-tour":
        return register_tour(sys.stdout)
    return scripted_chat(sys.stdout)


def cmd_serve(args: argparse.Namespace) -> int:
    from reference.serve import serve

    return serve(sys.stdin, sys.stdout)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="python -m reference", description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    chat = commands.add_parser("chat", help="chat with the reference engine")
    chat.add_argument("--once", metavar="TEXT", help="answer one prompt and exit")
    chat.add_argument("--json", action="store_true", help="one JSON object per turn")
    chat.add_argument("--register", metavar="ID", default=None, help="register pack id")
    chat.add_argument(
        "--register-path",
        metavar="DIR",
        action="append",
        default=[],
        help="directory searched for register packs before the shipped ones (repeatable)",
    )
    chat.add_argument("--audit", metavar="FILE", help="append one JSON line per turn")
    chat.add_argument("--audit-content", action="store_true", help="include text in the audit")
    chat.add_argument(
        "--state", metavar="DIR", help="persisted engine state, checkpointed every turn"
    )
    chat.set_defaults(run=cmd_chat)

    lexicon = commands.add_parser("lexicon", help="list every lemma")
    lexicon.add_argument("--json", action="store_true")
    lexicon.set_defaults(run=cmd_lexicon)

    ratify = commands.add_parser("ratify", help="ratify register pack files")
    ratify.add_argument("paths", nargs="+", metavar="PATH")
    ratify.set_defaults(run=cmd_ratify)

    demo = commands.add_parser("demo", help="scripted demos")
    demo.add_argument("name", nargs="?", default="chat", choices=("chat", "register-tour"))
    demo.set_defaults(run=cmd_demo)

    serve = commands.add_parser("serve", help="speak the engine protocol on stdio")
    serve.set_defaults(run=cmd_serve)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run the command line; return the process exit code."""
    try:
        args = build_parser().parse_args(argv)
        return args.run(args)
    except EngineError as exc:
        sys.stderr.write(f"error: {exc}\n")
        return EXIT_USAGE
    except OSError as exc:
        sys.stderr.write(f"error: IO: {exc.strerror or exc}: {exc.filename or ''}\n")
        return EXIT_USAGE
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return EXIT_OK
