"""What register.ratify_file does with what a client put at its hidden names, which no
killed ratify leaves (docs/registers.md § Atomic commit of the pair, step 1).

Whatever is at ``.<stem>.ratify.tmp`` (a directory with all it holds, a file or a symbolic
link) is removed, and no link is followed: the ratify succeeds and what a link points to is
untouched. Step 1 does both of its parts: debris at ``.<stem>.ratify.tmp`` beside a committed
pair at ``.<stem>.ratify/`` is removed and the pair rolled forward (a step 1 that does one or
the other leaves the pair in the way of the commit rename). A pending pair that cannot be
rolled forward (at ``.<stem>.ratify``, anything but a directory holding nothing but regular
files at the names of the pack and its report) is refused with REGISTER_WRITE_FAILED, field
``path`` (a link or a directory at either name of the pair is tried alone), and nothing is
changed: every case sets a killed ratify's staging directory beside it, which must be left
too.

Each case is laid out in a scratch directory: ``packs/`` holds the pack and the hidden
names, ``elsewhere/`` what the links point to.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path

from hypothesis import strategies as st

from conformance import coverage
from conformance import strategies as gen
from conformance.engines.base import EngineClient, EngineRefused
from conformance.requirements.registry import requirement
from conformance.state.driver import scratch

STEM = "tutor"
PACK, REPORT = f"{STEM}.json", f"{STEM}.mastery_report.json"
STAGING, PENDING = f".{STEM}.ratify.tmp", f".{STEM}.ratify"
SEED = "docs/registers.md § Atomic commit of the pair, step 1 (what is at the hidden names)"

Layout = Callable[[Path, Path], None]
"""Lays a case out: ``(packs, elsewhere)``."""
Tree = dict[str, tuple[str, bytes | str | None]]


def _pack_bytes(description: str = "") -> bytes:
    pack = gen.pack(STEM)
    if description:
        pack = {**pack, "description": description}
    return (json.dumps(pack, indent=2) + "\n").encode()


def _file(path: Path, data: bytes = b"a client's file\n") -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)


def _target_dir(elsewhere: Path) -> Path:
    place = elsewhere / "place"
    _file(place / "keep.txt")
    return place


def _target_file(elsewhere: Path) -> Path:
    target = elsewhere / "target.json"
    _file(target, _pack_bytes("a link's target"))
    return target


def _staging_file(packs: Path, elsewhere: Path) -> None:
    _file(packs / STAGING)


def _staging_link_to_file(packs: Path, elsewhere: Path) -> None:
    (packs / STAGING).symlink_to(_target_file(elsewhere))


def _staging_link_to_directory(packs: Path, elsewhere: Path) -> None:
    (packs / STAGING).symlink_to(_target_dir(elsewhere), target_is_directory=True)


def _staging_dangling_link(packs: Path, elsewhere: Path) -> None:
    (packs / STAGING).symlink_to(elsewhere / "absent")


def _staging_holding_links(packs: Path, elsewhere: Path) -> None:
    _file(packs / STAGING / "nested" / PACK)
    (packs / STAGING / PACK).symlink_to(_target_file(elsewhere))
    (packs / STAGING / "place").symlink_to(_target_dir(elsewhere), target_is_directory=True)


def _staging_beside_pending(packs: Path, elsewhere: Path) -> None:
    _file(packs / STAGING / PACK, _pack_bytes("a killed ratify's staged pack"))
    _file(packs / PENDING / PACK, (packs / PACK).read_bytes())
    _file(packs / PENDING / REPORT, b'{"seal": "a committed report"}\n')


STAGING_CASES: dict[str, Layout] = {
    "a directory at .<stem>.ratify.tmp beside a committed pair at .<stem>.ratify/ (step 1 "
    "removes the one and rolls the other forward)": _staging_beside_pending,
    "a file at .<stem>.ratify.tmp": _staging_file,
    "a symbolic link at .<stem>.ratify.tmp to a file": _staging_link_to_file,
    "a symbolic link at .<stem>.ratify.tmp to a directory": _staging_link_to_directory,
    "a dangling symbolic link at .<stem>.ratify.tmp": _staging_dangling_link,
    "a directory at .<stem>.ratify.tmp holding links and a directory": _staging_holding_links,
}
"""What a client put at the staging name: each is removed and the ratify succeeds."""


def _pending_pair(packs: Path, *, pack: bool = True, report: bool = True) -> Path:
    pending = packs / PENDING
    pending.mkdir()
    if pack:
        _file(pending / PACK, _pack_bytes("a pending pack"))
    if report:
        _file(pending / REPORT, b'{"seal": "a pending report"}\n')
    return pending


def _pending_report_directory(packs: Path, elsewhere: Path) -> None:
    (_pending_pair(packs, report=False) / REPORT).mkdir()


def _pending_pack_directory(packs: Path, elsewhere: Path) -> None:
    (_pending_pair(packs, pack=False) / PACK).mkdir()


def _pending_pack_link(packs: Path, elsewhere: Path) -> None:
    (_pending_pair(packs, pack=False) / PACK).symlink_to(_target_file(elsewhere))


def _pending_report_link(packs: Path, elsewhere: Path) -> None:
    target = elsewhere / "report.json"
    _file(target, b'{"seal": "a report a link points to"}\n')
    (_pending_pair(packs, report=False) / REPORT).symlink_to(target)


def _pending_other_file(packs: Path, elsewhere: Path) -> None:
    _file(_pending_pair(packs) / "notes.txt")


def _pending_file(packs: Path, elsewhere: Path) -> None:
    _file(packs / PENDING)


def _pending_link(packs: Path, elsewhere: Path) -> None:
    pair = elsewhere / "pair"
    _file(pair / PACK, _pack_bytes("a pack a link points to"))
    _file(pair / REPORT, b'{"seal": "a report a link points to"}\n')
    (packs / PENDING).symlink_to(pair, target_is_directory=True)


PENDING_CASES: dict[str, Layout] = {
    "a directory at the report's name inside .<stem>.ratify/": _pending_report_directory,
    "a directory at the pack's name inside .<stem>.ratify/": _pending_pack_directory,
    "a symbolic link at the pack's name inside .<stem>.ratify/": _pending_pack_link,
    "a symbolic link at the report's name inside .<stem>.ratify/": _pending_report_link,
    "a file of another name inside .<stem>.ratify/": _pending_other_file,
    "a file at .<stem>.ratify": _pending_file,
    "a symbolic link at .<stem>.ratify to a directory holding a pair": _pending_link,
}
"""A pending pair that cannot be rolled forward: each is refused and nothing changes."""


def _tree(root: Path) -> Tree:
    """Every entry under *root* by its relative path: its kind and its bytes or link target
    (links are read, never followed)."""
    found: Tree = {}
    for directory, dirs, files in os.walk(root):
        for name in dirs + files:
            path = Path(directory) / name
            key = str(path.relative_to(root))
            if path.is_symlink():
                found[key] = ("link", os.readlink(path))
            elif path.is_dir():
                found[key] = ("directory", None)
            else:
                found[key] = ("file", path.read_bytes())
    return found


def _changes(before: Tree, after: Tree) -> list[str]:
    names = sorted(set(before) | set(after))
    return [
        f"{name}: {'absent' if name not in before else before[name][0]} -> "
        f"{'absent' if name not in after else after[name][0]}"
        + (" (other content)" if name in before and name in after else "")
        for name in names
        if before.get(name) != after.get(name)
    ]


def _laid_out(root: Path, layout: Layout) -> Path:
    packs, elsewhere = root / "packs", root / "elsewhere"
    packs.mkdir()
    elsewhere.mkdir()
    _file(packs / PACK, _pack_bytes())
    layout(packs, elsewhere)
    return packs / PACK


@requirement(
    "LOAD-HIDDEN-101",
    "register.ratify_file removes whatever a client put at .<stem>.ratify.tmp (a file, a "
    "symbolic link to a file, to a directory or to nothing, a directory holding links, a "
    "directory beside a committed pair at .<stem>.ratify/, which it rolls forward too) "
    "without following a link: the ratify succeeds, only the pair is left beside the pack's "
    "name, and what a link points to is untouched",
    family="loader",
    capabilities=("registers.ratify_file",),
    seed=SEED,
    strategy=lambda ctx: st.sampled_from(sorted(STAGING_CASES)),
    cover=coverage.each("what is at the staging name", sorted(STAGING_CASES)),
)
def ratify_removes_the_staging_name(engine: EngineClient, name: str) -> None:
    with scratch() as root:
        path = _laid_out(root, STAGING_CASES[name])
        elsewhere = _tree(root / "elsewhere")
        try:
            answer = engine.call("register.ratify_file", {"path": str(path)})
        except EngineRefused as refusal:
            raise AssertionError(
                f"{name}: register.ratify_file refused ({refusal.code}: {refusal.message}); "
                "the docs say step 1 removes whatever is at the staging name and rolls a "
                "committed pair forward"
            ) from None
        left = sorted(p.name for p in path.parent.iterdir())
        assert left == sorted([PACK, REPORT]), f"{name}: the ratify left {left} in the directory"
        report = json.loads((path.parent / REPORT).read_bytes())
        assert report.get("seal") == answer["report"].get("seal"), (
            f"{name}: the report written is not the report answered"
        )
        changed = _changes(elsewhere, _tree(root / "elsewhere"))
        assert not changed, f"{name}: the ratify followed a link and changed {changed}"


@requirement(
    "LOAD-HIDDEN-102",
    "register.ratify_file refuses a pending pair that cannot be rolled forward (at "
    ".<stem>.ratify, a file, a symbolic link, or a directory holding anything but regular "
    "files at the names of the pack and its report: a directory or a link at either name, "
    "another file) with REGISTER_WRITE_FAILED, field path, "
    "and changes nothing: not the pair, not the hidden names, not what a link points to",
    family="loader",
    capabilities=("registers.ratify_file",),
    seed=SEED,
    strategy=lambda ctx: st.sampled_from(sorted(PENDING_CASES)),
    cover=coverage.each("what is at the pending name", sorted(PENDING_CASES)),
)
def ratify_refuses_a_pending_pair_it_cannot_roll(engine: EngineClient, name: str) -> None:
    def layout(packs: Path, elsewhere: Path) -> None:
        _file(packs / STAGING / PACK, _pack_bytes("a killed ratify's staged pack"))
        PENDING_CASES[name](packs, elsewhere)

    with scratch() as root:
        path = _laid_out(root, layout)
        before = _tree(root)
        try:
            engine.call("register.ratify_file", {"path": str(path)})
        except EngineRefused as refusal:
            assert (refusal.code, refusal.field) == ("REGISTER_WRITE_FAILED", "path"), (
                f"{name}: register.ratify_file answered {refusal.code} (field "
                f"{refusal.field!r}); the docs say REGISTER_WRITE_FAILED, field path"
            )
        else:
            raise AssertionError(
                f"{name}: ratified; the docs say a pending pair that cannot be rolled forward "
                "is refused with REGISTER_WRITE_FAILED"
            )
        changed = _changes(before, _tree(root))
        assert not changed, f"{name}: the refused ratify changed {changed}"


PENDING_HOLDS = {
    "the pack and its report (killed before the roll forward)": True,
    "the pack only (killed after the report was renamed out)": False,
}
"""What a committed ``.<stem>.ratify/`` holds when register.ratify_file is asked again."""


@requirement(
    "LOAD-HIDDEN-103",
    "register.ratify_file of a pack whose committed ratify was killed before its roll "
    "forward (.<stem>.ratify/ holding the new pack and its report, or the pack only), the "
    "file at the pack's name another pack: the gate reads the pack as the loader does (the "
    "pending copy), so the pair left is the pending pack's, ratified again byte for byte",
    family="loader",
    capabilities=("registers.ratify_file",),
    seed="docs/registers.md § The ratification gate, step 2 (read and parse it exactly as "
    "the loader does); § Loading, step 4 (a committed pending pair's copy is read instead of "
    "the file at its final name); § Atomic commit of the pair (ratifying twice writes "
    "byte-identical files)",
    strategy=lambda ctx: st.sampled_from(sorted(PENDING_HOLDS)),
    cover=coverage.each("what the pending pair holds", sorted(PENDING_HOLDS)),
)
def ratify_reads_the_pending_pack(engine: EngineClient, name: str) -> None:
    with scratch() as root:
        first = root / "first"
        first.mkdir()
        _file(first / PACK, _pack_bytes("the pack a killed ratify committed"))
        engine.call("register.ratify_file", {"path": str(first / PACK)})
        pack, report = (first / PACK).read_bytes(), (first / REPORT).read_bytes()
        packs = root / "packs"
        _file(packs / PACK, _pack_bytes("the file at the pack's name"))
        holds_report = PENDING_HOLDS[name]
        _file(packs / PENDING / PACK, pack)
        _file(packs / PENDING / REPORT if holds_report else packs / REPORT, report)
        try:
            engine.call("register.ratify_file", {"path": str(packs / PACK)})
        except EngineRefused as refusal:
            raise AssertionError(
                f"{name}: register.ratify_file refused ({refusal.code}: {refusal.message}); "
                "a committed pending pair is rolled forward and its pack ratified"
            ) from None
        got = {n: (packs / n).read_bytes() for n in (PACK, REPORT) if (packs / n).is_file()}
        left = sorted(p.name for p in packs.iterdir())
    assert left == sorted([PACK, REPORT]), f"{name}: the ratify left {left} in the directory"
    assert got == {PACK: pack, REPORT: report}, (
        f"{name}: the pair left is not the pending pack ratified again (the pack at its name "
        f"{'is' if got.get(PACK) == pack else 'is not'} the pending pack's bytes, the report "
        f"{'is' if got.get(REPORT) == report else 'is not'}): the gate reads the pack as the "
        f"loader does, and the loader reads the committed pending copy"
    )
