"""Record the file operations an engine process really makes, with ``strace``.

``traced(command, output)`` wraps an engine command so that strace writes every file
system call of the process (and its children) to *output*, failing one call when asked
(``inject``); ``file_ops`` turns that log into the logical operations of
:mod:`conformance.state.crashstates`, keeping only paths inside one state directory (the
``LOCK`` file excepted: it holds no state), and marks each complete answer line the
engine wrote on its stdout with an ``answer`` operation; ``state_calls`` lists the
calls on a state directory, each with its invocation number (strace's ``when=``).
strace is a Debian package (``apt-get install -y strace``); the suite installs nothing.
"""

from __future__ import annotations

import base64
import functools
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

INSTALL_HINT = "apt-get install -y strace, and allow ptrace"
SYSCALLS = (
    "?open,openat,?creat,write,writev,pwrite64,fsync,fdatasync,?rename,renameat,?renameat2,"
    "?mkdir,mkdirat,?unlink,unlinkat,?rmdir,truncate,ftruncate,close,"
    "?link,linkat,?symlink,symlinkat,fallocate,copy_file_range,sendfile,"
    "?lstat,?newfstatat,statx"
)
"""Traced calls; ``?`` marks those an architecture may lack (arm64 has no ``open``)."""
STATS = ("lstat", "newfstatat", "statx")
"""The traced calls that examine an entry by its name (an ``lstat``; docs/state.md
§ Confinement: an entry to remove is checked with it); one that names no path (an
``fstat`` as ``AT_EMPTY_PATH``) touches no entry of the state directory."""
IGNORED_NAMES = ("LOCK",)
UNMODELLED = ("link", "linkat", "symlink", "symlinkat", "fallocate", "copy_file_range", "sendfile")
"""Calls the crash model does not cover: one on the state directory is reported as such."""

_LINE = re.compile(r"^(\d+) +(\w+)\((.*)\) += (.*)$")
_UNFINISHED = re.compile(r"^(\d+) +(.*) <unfinished \.\.\.>$")
_RESUMED = re.compile(r"^(\d+) +<\.\.\. \w+ resumed>(.*)$")
_STRING = re.compile(r'^"((?:\\x[0-9a-f]{2})*)"$')
_FD = re.compile(r"^(-?\d+|AT_FDCWD)<((?:\\x[0-9a-f]{2})*)>$")
_IOV = re.compile(r'iov_base="((?:\\x[0-9a-f]{2})*)"')
_PROC_FD = re.compile(r"^/proc/(?:self|thread-self|\d+(?:/task/\d+)?)/fd/(\d+)(?=/|$)(.*)$")
"""A path through a descriptor's magic link (``/proc/self/fd/N/name``): how a runtime without
``openat`` (Node.js) resolves an entry relative to a directory it holds open."""


@functools.cache
def available() -> str | None:
    """The strace executable, or None when it is not installed or cannot trace here."""
    found = shutil.which("strace")
    if found is None:
        return None
    done = subprocess.run(_probe(found, ()), capture_output=True, check=False)
    return found if done.returncode == 0 else None


def _probe(strace: str, flags: tuple[str, ...]) -> list[str]:
    quiet = [strace, "-f", *flags, "-qq", "-e", "trace=openat", "-o", os.devnull]
    return [*quiet, "--", sys.executable, "-c", "pass"]


@functools.cache
def filter_flags() -> tuple[str, ...]:
    """``--seccomp-bpf`` where this strace and kernel run it cleanly: the engine then
    stops only at the traced calls, not at every call of its interpreter's start."""
    found = available()
    if found is None:
        return ()
    flags = ("--seccomp-bpf",)
    done = subprocess.run(_probe(found, flags), capture_output=True, check=False)
    return flags if done.returncode == 0 and not done.stderr else ()


def traced(command: list[str], output: Path, inject: str | None = None) -> list[str]:
    """*command* run under strace, the log of its file system calls going to *output*;
    *inject* (``fsync:error=EIO:when=3``) fails the calls it names (several such specs,
    separated by spaces, each fail their own call)."""
    return [
        available() or "strace",
        "-f",
        *filter_flags(),
        "-qq",
        "-y",
        "-xx",
        "-s",
        "16777216",
        "-e",
        f"trace={SYSCALLS}",
        *[arg for spec in (inject or "").split() for arg in ("-e", f"inject={spec}")],
        "-o",
        str(output),
        "--",
        *command,
    ]


def _hex(text: str) -> bytes:
    return bytes.fromhex(text.replace("\\x", ""))


DECODED_ARGS = 4096
"""Argument texts whose decoding is kept: a log names the same descriptors and paths in
call after call, so each distinct text is decoded once."""


@functools.lru_cache(maxsize=DECODED_ARGS)
def _string_arg(text: str) -> str:
    """The path a ``-xx`` string argument spells, or ``""`` when *text* is not one."""
    match = _STRING.match(text)
    return _hex(match.group(1)).decode("utf-8", "surrogateescape") if match else ""


@functools.lru_cache(maxsize=DECODED_ARGS)
def _fd_arg(text: str) -> tuple[int | None, str]:
    """The descriptor (None for ``AT_FDCWD``) and the path ``-y`` shows for it in *text*;
    ``(None, "")`` when *text* is not a descriptor."""
    match = _FD.match(text)
    if not match:
        return None, ""
    number = None if match.group(1) == "AT_FDCWD" else int(match.group(1))
    return number, _hex(match.group(2)).decode("utf-8", "surrogateescape")


@dataclass
class _Call:
    name: str
    args: list[str]
    result: str

    def string(self, index: int) -> str:
        return _string_arg(self.args[index])

    def fd(self, index: int) -> tuple[int | None, str]:
        return _fd_arg(self.args[index])

    def returned_fd(self) -> tuple[int | None, str]:
        return _fd_arg(self.result.split(" ", 1)[0])

    @property
    def failed(self) -> bool:
        return self.result.startswith("-1") or self.result.startswith("?")

    @property
    def injected(self) -> bool:
        """Whether strace failed this call on purpose."""
        return self.result.endswith("(INJECTED)")

    @property
    def errno(self) -> str | None:
        """The symbolic error of a failed call (``EIO``), or None."""
        parts = self.result.split(" ")
        return parts[1] if self.failed and len(parts) > 1 else None

    def paths(self) -> list[str]:
        """The absolute paths the call acts on: the file a descriptor is open on, or a
        named path (resolved against its directory descriptor)."""
        if self.name in _ON_DESCRIPTOR:
            return [self.fd(0)[1]]
        return [self.at(d, n) for d, n in _NAMED.get(self.name, ())]

    def at(self, dir_index: int | None, name_index: int) -> str:
        """The path named by argument *name_index*, relative to the directory descriptor
        at *dir_index* (None: relative to nothing)."""
        name = self.string(name_index)
        if dir_index is not None and not name.startswith("/"):
            name = os.path.join(self.fd(dir_index)[1], name)
        return os.path.normpath(name) if name else ""


_ON_DESCRIPTOR = ("write", "writev", "pwrite64", "fsync", "fdatasync", "ftruncate", "close")
_NAMED: dict[str, tuple[tuple[int | None, int], ...]] = {
    "openat": ((0, 1),),
    "open": ((None, 0),),
    "creat": ((None, 0),),
    "renameat": ((0, 1), (2, 3)),
    "renameat2": ((0, 1), (2, 3)),
    "rename": ((None, 0), (None, 1)),
    "mkdirat": ((0, 1),),
    "unlinkat": ((0, 1),),
    "mkdir": ((None, 0),),
    "unlink": ((None, 0),),
    "rmdir": ((None, 0),),
    "truncate": ((None, 0),),
    "lstat": ((None, 0),),
    "newfstatat": ((0, 1),),
    "statx": ((0, 1),),
}


@functools.lru_cache(maxsize=16)
def calls(log: str) -> tuple[tuple[int, _Call], ...]:
    """Every completed system call in a strace log, with its pid, in order; parsed once for
    the several readers of one log (kept for the latest few logs; nothing here mutates)."""
    pending: dict[str, str] = {}
    found = []
    for line in log.splitlines():
        if match := _UNFINISHED.match(line):
            pending[match.group(1)] = match.group(2)
            continue
        if match := _RESUMED.match(line):
            line = f"{match.group(1)} {pending.pop(match.group(1), '')}{match.group(2)}"
        if match := _LINE.match(line):
            pid, name, args, result = match.groups()
            found.append((int(pid), _Call(name, args.split(", "), result)))
    return tuple(found)


ANSWER_CALLS = ("write", "writev", "sendto", "sendmsg")
"""Calls an engine may write its answers with (on a socket, when it was forked)."""
SOCKET_CALLS = "sendto,sendmsg"
"""Traced besides :data:`SYSCALLS` where an engine answers on a socket."""

OPENS = ("open", "openat", "creat")
WRITES = ("write", "writev", "pwrite64")
CHANGES = (
    *WRITES,
    "fsync",
    "fdatasync",
    "ftruncate",
    "truncate",
    "creat",
    "rename",
    "renameat",
    "renameat2",
    "mkdir",
    "mkdirat",
    "unlink",
    "unlinkat",
    "rmdir",
)
"""Calls that change the directory or make a change durable."""
WRITE_FLAGS = ("O_WRONLY", "O_RDWR", "O_CREAT", "O_TRUNC", "O_APPEND")
"""Open flags that make an open one for writing."""

INJECTABLE = tuple(
    name.lstrip("?") for name in SYSCALLS.split(",") if name.lstrip("?") not in UNMODELLED
)
"""The traced calls a state session's failure may be injected into."""


@dataclass(frozen=True)
class StateCall:
    """One call on a state directory: its invocation number among its process's calls of
    that name (strace's ``when=``), the paths it touches relative to the directory, the
    flags it was opened with (a ``close``: those its descriptor was opened with), the
    answer lines written before it, and its failure."""

    pid: int
    name: str
    number: int
    paths: tuple[str, ...]
    flags: str
    answers: int
    errno: str | None
    injected: bool
    changed: bool = False
    """For a ``close``: whether a call that changes the directory (:data:`CHANGES`, an open
    for writing) was made through the descriptor it closes, or named an entry relative to it
    (``flags`` are those the descriptor was opened with)."""


def through_descriptor(text: str, opened: Callable[[int], str | None]) -> str:
    """*text* with a leading ``/proc/*/fd/N`` replaced by the path descriptor N is open on
    (*opened* gives it, or None when N is not known: *text* is then kept)."""
    match = _PROC_FD.match(text)
    if match is None:
        return text
    base = opened(int(match.group(1)))
    return text if base is None else base + match.group(2)


def state_calls(log: str, root: Path, answer_pipe: str | None) -> list[StateCall]:
    """Every traced call of *log* that touches the state directory *root* (LOCK included:
    failing it is an I/O error too), with the answers written before each. A path through
    ``/proc/*/fd/N`` counts as the path descriptor N was opened on."""
    base = os.path.realpath(root)
    counts: dict[tuple[int, str], int] = {}
    answers, pending = 0, b""
    found = []
    held: dict[int, str] = {}
    descriptors: dict[int, _Held] = {}
    for pid, call in calls(log):
        fd, path = call.fd(0)
        closed = descriptors.get(fd) if call.name == "close" and fd is not None else None
        _track(call, held)
        _track_use(call, descriptors)
        key = (pid, call.name)
        counts[key] = counts.get(key, 0) + 1
        answering = path == answer_pipe or (answer_pipe is None and fd == 1)
        if call.name in ANSWER_CALLS and not call.failed and answering:
            pending += _written(call)
            answers += pending.count(b"\n")
            pending = pending.rsplit(b"\n", 1)[-1]
            continue
        named = (os.path.normpath(through_descriptor(p, held.get)) for p in call.paths())
        inside = [_relative(path, base) for path in named]
        paths = tuple(path for path in inside if path is not None)
        if paths and call.name in INJECTABLE:
            flags = call.args[2] if call.name == "openat" and len(call.args) > 2 else ""
            found.append(
                StateCall(
                    pid,
                    call.name,
                    counts[key],
                    paths,
                    closed.flags if closed else flags,
                    answers,
                    call.errno,
                    call.injected,
                    closed.changed if closed else False,
                )
            )
    return found


@dataclass
class _Held:
    """How a descriptor was opened, and whether a change was made through it."""

    flags: str
    changed: bool = False


def open_flags(call: _Call) -> str:
    """The flags an ``open``, ``openat`` or ``creat`` call names (``""`` for another)."""
    if call.name == "openat" and len(call.args) > 2:
        return call.args[2]
    if call.name == "open" and len(call.args) > 1:
        return call.args[1]
    return "O_WRONLY|O_CREAT|O_TRUNC" if call.name == "creat" else ""


def changes(name: str, flags: str = "") -> bool:
    """Whether a call *name* (an open: with *flags*) changes the directory or makes a change
    durable."""
    return name in CHANGES or (name in OPENS and any(f in flags for f in WRITE_FLAGS))


def _track_use(call: _Call, descriptors: dict[int, _Held]) -> None:
    """Keep *descriptors* (descriptor -> how it was opened, whether it changed something) up
    to date with *call*: a change made through a descriptor, or naming an entry relative to
    a directory descriptor (its ``dirfd``, or ``/proc/*/fd/N``), marks that descriptor."""
    if call.failed:
        return
    if call.name in OPENS:
        fd, _ = call.returned_fd()
        if fd is not None:
            descriptors[fd] = _Held(open_flags(call))
    elif call.name == "close" and (fd := call.fd(0)[0]) is not None:
        descriptors.pop(fd, None)
    if not changes(call.name, open_flags(call)):
        return
    used = [call.fd(0)[0]] if call.name in _ON_DESCRIPTOR else []
    for dir_index, name_index in _NAMED.get(call.name, ()):
        used += [call.fd(dir_index)[0]] if dir_index is not None else []
        through = _PROC_FD.match(call.string(name_index))
        used += [int(through.group(1))] if through else []
    for fd in used:
        if fd is not None and fd in descriptors:
            descriptors[fd].changed = True


def _track(call: _Call, held: dict[int, str]) -> None:
    """Keep *held* (descriptor -> the path strace's ``-y`` shows) up to date with *call*."""
    if call.failed:
        return
    if call.name in OPENS:
        fd, path = call.returned_fd()
        if fd is not None:
            held[fd] = path
    elif call.name == "close" and (fd := call.fd(0)[0]) is not None:
        held.pop(fd, None)


def _written(call: _Call) -> bytes:
    if call.name in ("writev", "sendmsg"):
        return b"".join(_hex(part) for part in _IOV.findall(", ".join(call.args[1:])))
    match = _STRING.match(call.args[1])
    return _hex(match.group(1)) if match else b""


def _relative(path: str, base: str) -> str | None:
    if path == base:
        return "."
    return path[len(base) + 1 :] if path.startswith(base + "/") else None


@dataclass
class _Open:
    path: str
    directory: bool
    op: int | None = None
    append: bool = False
    offset: int = 0


@dataclass
class _Converter:
    root: str
    dirs: set[str]
    ops: list[dict[str, Any]] = field(default_factory=list)
    fds: dict[int | None, _Open] = field(default_factory=dict)
    stdout: bytes = b""
    answer_pipe: str | None = None
    """The pipe the engine answers on (``pipe:[inode]``); without it, fd 1 is taken."""
    failed_syncs: bool = False
    """Whether a failed fsync is kept (``fsync_failed``, ``fsync_dir_failed``): what it
    was to make durable may have been dropped, and no later fsync makes it so."""

    def path(self, text: str) -> str:
        """The normalized absolute path a call's path argument names, through ``/proc/*/fd/N``
        links of descriptors open inside the state directory (strace's ``-y`` annotates
        descriptors, not paths)."""
        return os.path.normpath(through_descriptor(text, self._opened_path))

    def _opened_path(self, fd: int) -> str | None:
        opened = self.fds.get(fd)
        return None if opened is None else os.path.join(self.root, opened.path)

    def rel(self, path: str) -> str | None:
        if path != self.root and not path.startswith(self.root + "/"):
            return None
        rel = path[len(self.root) + 1 :] or "."
        return None if rel.split("/")[-1] in IGNORED_NAMES else rel

    def at(self, call: _Call, dir_index: int, name_index: int) -> str | None:
        name = call.string(name_index)
        if not name.startswith("/"):
            name = os.path.join(call.fd(dir_index)[1], name)
        return self.rel(self.path(name))

    def emit(self, op: dict[str, Any]) -> int:
        self.ops.append(op)
        return len(self.ops) - 1

    def handle(self, call: _Call) -> None:
        if call.failed:
            if self.failed_syncs and call.name in ("fsync", "fdatasync"):
                self._failed_sync(call)
            return
        if call.name in UNMODELLED and self._touches_root(call):
            self.emit({"op": "unmodelled", "call": call.name})
            return
        handler = getattr(self, f"on_{call.name}", None)
        if handler is not None:
            handler(call)

    def _touches_root(self, call: _Call) -> bool:
        paths = [call.string(i) for i in range(len(call.args))]
        paths += [call.fd(i)[1] for i in range(len(call.args))]
        return any(self.rel(self.path(p)) is not None for p in paths if p.startswith("/"))

    def on_openat(self, call: _Call) -> None:
        self._opened(call, call.args[2])

    def on_open(self, call: _Call) -> None:
        self._opened(call, call.args[1])

    def on_creat(self, call: _Call) -> None:
        self._opened(call, "O_WRONLY|O_CREAT|O_TRUNC")

    def _opened(self, call: _Call, flags: str) -> None:
        fd, path = call.returned_fd()
        rel = self.rel(path)
        if fd is None:
            return
        if rel is None:
            self.fds.pop(fd, None)
            return
        opened = _Open(rel, "O_DIRECTORY" in flags or rel in self.dirs, append="O_APPEND" in flags)
        if "O_TRUNC" in flags and ("O_WRONLY" in flags or "O_RDWR" in flags):
            opened.op = self.emit({"op": "write", "path": rel, "data": ""})
        self.fds[fd] = opened

    def on_close(self, call: _Call) -> None:
        fd, _ = call.fd(0)
        self.fds.pop(fd, None)

    def _answers_on(self, fd: int | None, path: str) -> bool:
        """Whether a write to *fd* (*path*, as strace names it) is an answer line.

        Only the engine's own stdout pipe counts when it is known, so a wrapper's
        subshells (a shim, a launcher script) writing to their own pipes never do.
        """
        return path == self.answer_pipe if self.answer_pipe is not None else fd == 1

    def _data(self, target: tuple[int | None, str], data: bytes, offset: int | None = None) -> None:
        fd, path = target
        if offset is None and self._answers_on(fd, path):
            self._answer(data)
            return
        opened = self.fds.get(fd)
        if opened is None:
            return
        if offset is None and opened.op == len(self.ops) - 1 and opened.op is not None:
            op = self.ops[opened.op]
            op["data"] = base64.b64encode(base64.b64decode(op["data"]) + data).decode("ascii")
        elif offset is None and opened.append:
            opened.op = self.emit(_data_op("append", opened.path, data))
        else:
            at = opened.offset if offset is None else offset
            self.emit({**_data_op("pwrite", opened.path, data), "offset": at})
        if offset is None:
            opened.offset += len(data)

    def _answer(self, data: bytes) -> None:
        self.stdout += data
        while b"\n" in self.stdout:
            _, self.stdout = self.stdout.split(b"\n", 1)
            self.emit({"op": "answer"})

    def on_write(self, call: _Call) -> None:
        match = _STRING.match(call.args[1])
        assert match is not None, f"not a strace string: {call.args[1][:40]}"
        self._data(call.fd(0), _hex(match.group(1)))

    def on_writev(self, call: _Call) -> None:
        data = b"".join(_hex(part) for part in _IOV.findall(", ".join(call.args[1:])))
        self._data(call.fd(0), data)

    def on_sendto(self, call: _Call) -> None:
        if self._answers_on(*call.fd(0)):
            self._answer(_written(call))

    def on_sendmsg(self, call: _Call) -> None:
        if self._answers_on(*call.fd(0)):
            self._answer(_written(call))

    def on_pwrite64(self, call: _Call) -> None:
        match = _STRING.match(call.args[1])
        assert match is not None, f"not a strace string: {call.args[1][:40]}"
        self._data(call.fd(0), _hex(match.group(1)), int(call.args[3]))

    def on_fsync(self, call: _Call) -> None:
        opened = self.fds.get(call.fd(0)[0])
        if opened is not None:
            self.emit({"op": "fsync_dir" if opened.directory else "fsync", "path": opened.path})

    on_fdatasync = on_fsync

    def _failed_sync(self, call: _Call) -> None:
        opened = self.fds.get(call.fd(0)[0])
        if opened is not None:
            kind = "fsync_dir" if opened.directory else "fsync"
            self.emit({"op": f"{kind}_failed", "path": opened.path})

    def on_ftruncate(self, call: _Call) -> None:
        opened = self.fds.get(call.fd(0)[0])
        if opened is not None:
            self.emit({"op": "truncate", "path": opened.path, "size": int(call.args[1])})

    def on_truncate(self, call: _Call) -> None:
        rel = self.rel(self.path(call.string(0)))
        if rel is not None:
            self.emit({"op": "truncate", "path": rel, "size": int(call.args[1])})

    def on_mkdir(self, call: _Call) -> None:
        self._mkdir(self.rel(self.path(call.string(0))))

    def on_mkdirat(self, call: _Call) -> None:
        self._mkdir(self.at(call, 0, 1))

    def _mkdir(self, rel: str | None) -> None:
        if rel is not None:
            self.dirs.add(rel)
            self.emit({"op": "mkdir", "path": rel})

    def on_rename(self, call: _Call) -> None:
        src, dst = (self.rel(self.path(call.string(i))) for i in (0, 1))
        self._rename(src, dst)

    def on_renameat(self, call: _Call) -> None:
        self._rename(self.at(call, 0, 1), self.at(call, 2, 3))

    on_renameat2 = on_renameat

    def _rename(self, src: str | None, dst: str | None) -> None:
        if src is None or dst is None:
            return
        if src in self.dirs:
            self.dirs.add(dst)
        self.emit({"op": "rename", "src": src, "dst": dst})

    def on_unlink(self, call: _Call) -> None:
        self._remove(self.rel(self.path(call.string(0))), "unlink")

    def on_rmdir(self, call: _Call) -> None:
        self._remove(self.rel(self.path(call.string(0))), "rmdir")

    def on_unlinkat(self, call: _Call) -> None:
        kind = "rmdir" if "AT_REMOVEDIR" in call.args[2] else "unlink"
        self._remove(self.at(call, 0, 1), kind)

    def _remove(self, rel: str | None, kind: str) -> None:
        if rel is not None:
            self.dirs.discard(rel)
            self.emit({"op": kind, "path": rel})


def _data_op(kind: str, path: str, data: bytes) -> dict[str, Any]:
    return {"op": kind, "path": path, "data": base64.b64encode(data).decode("ascii")}


def file_ops(
    log: str,
    root: Path,
    dirs: set[str],
    answer_pipe: str | None = None,
    *,
    failed_syncs: bool = False,
) -> list[dict[str, Any]]:
    """The logical operations a strace log shows on paths inside *root*, with answers marked.

    *dirs* names the directories (relative to *root*) that existed before the trace;
    *answer_pipe* (``pipe:[inode]``) is the engine's stdout, where answers are written;
    with *failed_syncs*, a failed fsync is an ``fsync_failed`` (``fsync_dir_failed``) op.
    """
    converter = _Converter(
        os.path.realpath(root), set(dirs), answer_pipe=answer_pipe, failed_syncs=failed_syncs
    )
    for _, call in calls(log):
        converter.handle(call)
    return converter.ops
