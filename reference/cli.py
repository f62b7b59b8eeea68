"""``python -m reference``: chat, lexicon, ratify, demo and serve.

Every error is one line on stderr and a non-zero exit; never a traceback. SIGTERM and
SIGINT end ``chat`` and ``serve`` cleanly, with status 128 + the signal (docs/state.md
§ Shutdown).
"""

from __future__ import annotations

import contextlib
import io
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, TextIO

import reference
from reference.canonical import wire_json
from reference.errors import EngineError, RegisterError, UsageError
from reference.shutdown import Guard, Stop, guarded

if TYPE_CHECKING:
    import argparse

    from reference.registers.ratify import EvidenceProbe
    from reference.runtime import ChatResponse, ChatRuntime

EXIT_OK, EXIT_USAGE = 0, 2
HISTORY_NAME = ".core_reference_history"
BANNER = "CORE reference engine {version}: ask about a word (What is light?); /help, /quit."
HELP = """\
Ask in plain English, one question per line, for example:
  What is light?
  Tell me about parent.
  How is light connected to memory?
  No, a parent is a guide.        (a correction the session remembers)
  What did I say about parent?
Commands: /help shows this; /quit (or Ctrl-D) leaves."""


def _chat_runtime(args: argparse.Namespace) -> ChatRuntime:
    from reference.runtime import ChatRuntime, RuntimeConfig

    config = RuntimeConfig(
        register_id=args.register,
        register_search_path=tuple(Path(p) for p in args.register_path),
        audit_path=Path(args.audit) if args.audit else None,
        audit_content=args.audit_content,
        state_dir=Path(args.state) if args.state else None,
    )
    return ChatRuntime(config)


def _emit(response: ChatResponse, as_json: bool, out: TextIO) -> None:
    out.write((wire_json(response.as_json()) if as_json else response.surface) + "\n")
    out.flush()


def cmd_chat(args: argparse.Namespace) -> int:
    with guarded() as guard, _chat_runtime(args) as runtime:
        if runtime.persisted is not None and runtime.persisted.recovered:
            print(f"warning: STATE_RECOVERED: {runtime.persisted.recovered}", file=sys.stderr)
        return _converse(runtime, args, guard)


def utf8_stdout() -> TextIO:
    """stdout, set to write UTF-8 whatever the locale says."""
    if isinstance(sys.stdout, io.TextIOWrapper):
        sys.stdout.reconfigure(encoding="utf-8", newline="\n")
    return sys.stdout


def utf8_lines(stream: TextIO) -> Iterator[str]:
    """Lines of *stream* decoded as UTF-8 (whatever the locale); undecodable is USAGE."""
    source = getattr(stream, "buffer", None)
    if source is None:
        yield from stream
        return
    for number, raw in enumerate(source, start=1):
        try:
            yield raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            message = f"input line {number} is not valid UTF-8 (byte {exc.start})"
            raise UsageError(message, field="stdin") from None


def _converse(runtime: ChatRuntime, args: argparse.Namespace, guard: Guard) -> int:
    """Answer ``--once``, the REPL or each stdin line; a turn is committed and answered
    before a SIGTERM or SIGINT that came during it ends the process."""
    out = utf8_stdout()
    if args.once is not None:
        _emit(runtime.chat(args.once), args.json, out)
        guard.check()
        return EXIT_OK
    if sys.stdin.isatty() and sys.stdout.isatty() and not args.json:
        return _repl(runtime, out, guard)
    lines = utf8_lines(sys.stdin)
    while True:
        with guard.waiting():
            line = next(lines, None)
        if line is None:
            return EXIT_OK
        _emit(runtime.chat(line.rstrip("\n")), args.json, out)


def _line_editing() -> None:
    """Line editing and a history file for the REPL, where readline is available."""
    try:
        import readline
    except ImportError:
        return
    import atexit

    try:
        history = Path.home() / HISTORY_NAME
    except RuntimeError:
        return
    with contextlib.suppress(OSError):
        readline.read_history_file(history)
    readline.set_history_length(1000)
    atexit.register(_save_history, readline, history)


def _save_history(readline: ModuleType, history: Path) -> None:
    with contextlib.suppress(OSError):
        readline.write_history_file(history)


def _repl(runtime: ChatRuntime, out: TextIO, guard: Guard) -> int:
    """The interactive loop: a one-line banner, then prompts until /quit or end of input."""
    if isinstance(sys.stdin, io.TextIOWrapper):
        sys.stdin.reconfigure(encoding="utf-8", errors="strict")
    _line_editing()
    out.write(BANNER.format(version=reference.__version__) + "\n")
    while True:
        try:
            with guard.waiting():
                prompt = input("you> ").strip()
        except EOFError:
            out.write("\n")
            return EXIT_OK
        except UnicodeDecodeError:
            out.write("error: that line is not valid UTF-8\n")
            continue
        if prompt in {"/quit", "/exit"}:
            return EXIT_OK
        if prompt in {"/help", "/?"}:
            out.write(HELP + "\n")
        elif prompt.startswith("/"):
            out.write(f"unknown command {prompt.split()[0]}; /help lists them\n")
        elif prompt:
            _emit(runtime.chat(prompt), False, out)


def cmd_lexicon(args: argparse.Namespace) -> int:
    from reference.lexicon import default_lexicon

    out = utf8_stdout()
    for entry in default_lexicon().lemmas:
        row = {"has_gloss": entry.has_gloss, "lemma": entry.lemma, "pack": entry.pack_id}
        row["pos"] = entry.pos
        if args.json:
            out.write(wire_json(row) + "\n")
        else:
            gloss = "gloss" if entry.has_gloss else "no gloss"
            out.write(f"{entry.lemma:<14} {entry.pos:<9} {entry.pack_id:<13} {gloss}\n")
    out.flush()
    return EXIT_OK


def cmd_ratify(args: argparse.Namespace) -> int:
    from reference.runtime.probe import register_probe

    return main_ratify(args.paths, evidence_probe=register_probe)


def main_ratify(
    paths: Sequence[str],
    *,
    evidence_probe: EvidenceProbe | None = None,
    out: TextIO | None = None,
    err: TextIO | None = None,
) -> int:
    """Ratify each path, one line per pack; returns 2 if any pack was refused, else 0.

    *out* and *err* default to the current ``sys.stdout`` and ``sys.stderr``.
    Refusals print ``error: <CODE>: <path>: <message>`` on one line, never a traceback.
    """
    from reference.inputs import one_line
    from reference.registers.ratify import ratify_pack_file

    out = sys.stdout if out is None else out
    err = sys.stderr if err is None else err
    if not paths:
        print("error: USAGE: ratify needs at least one register pack path", file=err)
        return 2
    status = 0
    for raw_path in paths:
        try:
            report = ratify_pack_file(Path(raw_path), evidence_probe=evidence_probe)
        except RegisterError as exc:
            message = exc.message
            if str(Path(raw_path)) not in message:
                message = f"{raw_path}: {message}"
            print(f"error: {exc.code}: {one_line(message)}", file=err)
            status = 2
            continue
        methods = ",".join(report["methods"])
        print(
            f"ratified {report['register_id']} seal={report['seal'][:12]} methods={methods}",
            file=out,
        )
    return status


def cmd_demo(args: argparse.Namespace) -> int:
    from reference.demo import register_tour, scripted_chat

    if args.name == "register-tour":
        return register_tour(sys.stdout)
    return scripted_chat(sys.stdout)


def cmd_serve(args: argparse.Namespace | None) -> int:
    from reference.serve import serve

    return serve(sys.stdin, sys.stdout)


COMMANDS: dict[str, Callable[[argparse.Namespace], int]] = {
    "chat": cmd_chat,
    "lexicon": cmd_lexicon,
    "ratify": cmd_ratify,
    "demo": cmd_demo,
    "serve": cmd_serve,
}
"""Each subcommand's function, by the ``command`` the parser names."""


def run(argv: list[str] | None = None) -> int:
    """Parse the command line and run its subcommand; return its exit status.

    A bare ``serve`` (how every engine process of a certification starts) needs no parsing,
    so it runs without loading the parser (:mod:`reference.cli_args`); with any other word,
    or when a shell asks for completions, the parser reads the line.
    """
    words = sys.argv[1:] if argv is None else argv
    if words == ["serve"] and "_ARGCOMPLETE" not in os.environ:
        return cmd_serve(None)
    from reference.cli_args import build_parser, offer_completion

    parser = build_parser()
    offer_completion(parser)
    args = parser.parse_args(words)
    return COMMANDS[args.command](args)


def main(argv: list[str] | None = None) -> int:
    """Run the command line; return the process exit code."""
    try:
        status = run(argv)
        sys.stdout.flush()
        return status
    except BrokenPipeError:
        return quiet_broken_pipe()
    except EngineError as exc:
        return error_line(str(exc))
    except OSError as exc:
        where = os.fsdecode(exc.filename) if exc.filename is not None else ""
        return error_line(f"IO: {exc.strerror or exc}: {where}")
    except Stop as stop:
        return stop.status
    except KeyboardInterrupt:
        return 130


def error_line(message: str) -> int:
    """Print ``error: <message>`` as one line on stderr; return the usage exit status."""
    from reference.inputs import one_line

    sys.stderr.write(f"error: {one_line(message)}\n")
    return EXIT_USAGE


def quiet_broken_pipe() -> int:
    """A reader closed our stdout early (``| head``): end quietly with status 0.

    stdout is pointed at /dev/null so the interpreter's final flush cannot fail again.
    """
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)
    return EXIT_OK
