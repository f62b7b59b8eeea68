"""The measured figures of docs/benchmarks.md, rendered from ``docs/figures/*.json``.

Each function renders one marked block (``<!-- figure:bench-... -->``) from the files the
bench scripts record (:mod:`tools.benchrecord`); nothing here measures. Targets are
compared here, so a block says "met" or "missed" from the recorded number, never from a
hand-typed word.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tools.benchrecord import load, provenance, short
from tools.soak_figures import table

TURN_TARGET_MS = 0.2
LONG_TURN_TARGET = 1.1
RSS_TARGET_MIB = 5 / 1.048576
CERTIFY_TARGET_S = 5.0
TESTS_TARGET_S = 60.0
HELLO_TARGET_MS = 60.0
CHAT_START_TARGET_MS = 120.0


def _figures(name: str) -> dict[str, Any]:
    figures: dict[str, Any] = load(name)["figures"]
    return figures


def _verdict(value: float, target: float) -> str:
    return "**met**" if value <= target else "**missed**"


def _start_ratios(anchors: dict[str, Any], start: str) -> str:
    """A cold start's ratio to the bare start of the same run, in wall time and in CPU."""
    wall = anchors[f"{start}_ms"] / anchors["bare_ms"]
    cpu = anchors[f"{start}_cpu_ms"] / anchors["bare_cpu_ms"]
    return f"{wall:.2f}x wall, {cpu:.2f}x CPU"


def _from(name: str) -> str:
    document = load(name)
    return ("Figures " if "transcribed" in document else "From ") + provenance(document)


def _rows_table(name: str) -> str:
    rows = ["| measure | value |", "|---|---|"]
    rows += [f"| {measure} | {value} |" for measure, value in _figures(name)["rows"]]
    return "\n".join([*rows, "", _from(name)])


def summary() -> str:
    turns, session, anchors = _figures("turns"), _figures("session"), _figures("anchors")
    algebra, certify, kills = _figures("algebra"), _figures("certify"), _figures("kills")
    tests, instructions = _figures("tests"), load("instructions")
    medians = [r["median_ms"] for r in turns["registers"]]
    none = turns["registers"][0]["median_ms"]
    millions = list(instructions["figures"]["millions"].values())
    earlier = instructions["figures"].get("earlier", [])
    long_ratio = session["long_median_ms"] / session["fresh_median_ms"]
    by_workers = {row["workers"]: row for row in certify["workers"]}
    two, one = by_workers[2], by_workers[1]
    calls = {c["call"]: c["median_us"] for c in algebra["calls"]}
    anchor_us = calls["np.add (anchor)"]
    suite, engine = certify["suite_cpu_s"], certify["engine_cpu_s"]
    rows = [
        "| figure | this run | anchor (same run) | ratio | target |",
        "|---|---:|---|---:|---|",
        f"| chat turn, every register | {min(medians):.3f}-{max(medians):.3f} ms "
        f"| none register, {none:.3f} ms | {min(medians) / none:.2f}-{max(medians) / none:.2f} "
        f"| <= {TURN_TARGET_MS} ms: {_verdict(max(medians), TURN_TARGET_MS)} |",
    ]
    if earlier:
        before = list(earlier[0]["millions"].values())
        rows.append(
            f"| instructions per chat turn, every register | {min(millions):.3f}-"
            f"{max(millions):.3f} M | commit `{short(earlier[0]['commit'])}`, {min(before):.3f}-"
            f"{max(before):.3f} M | {min(millions) / min(before):.2f} | |"
        )
    rows += [
        f"| turn {session['turns']:,} of one repeated prompt | {session['long_median_ms']:.3f} "
        f"ms | a fresh session, {session['fresh_median_ms']:.3f} ms | {long_ratio:.2f}x "
        f"| <= {LONG_TURN_TARGET}x: {_verdict(long_ratio, LONG_TURN_TARGET)} |",
        f"| RSS growth over {session['turns']:,} turns | {session['rss_growth_mib']:.2f} MiB "
        f"| RSS after turn 1, {session['rss_first_mib']:.1f} MiB | | <= 5 MB: "
        f"{_verdict(session['rss_growth_mib'], RSS_TARGET_MIB)} |",
        f"| variation selector | {anchors['selector_us']:.3f} us | one bare SHA-256 of the "
        f"seed, {anchors['sha256_us']:.3f} us "
        f"| {anchors['selector_us'] / anchors['sha256_us']:.2f}x | |",
        f"| protocol round trip (`hello`) | {anchors['hello_round_trip_us']:.1f} us | a Python "
        f"echo process, {anchors['echo_round_trip_us']:.1f} us "
        f"| {anchors['hello_round_trip_us'] / anchors['echo_round_trip_us']:.2f}x | |",
        f"| cold start to `hello` | {anchors['hello_ms']:.1f} ms ({anchors['hello_cpu_ms']:.1f}"
        f" ms CPU) | a bare `python -c pass`, {anchors['bare_ms']:.1f} ms "
        f"({anchors['bare_cpu_ms']:.1f} ms CPU) | {_start_ratios(anchors, 'hello')} "
        f"| <= {HELLO_TARGET_MS:.0f} ms: {_verdict(anchors['hello_ms'], HELLO_TARGET_MS)} |",
        f"| cold start, `chat --once` | {anchors['chat_ms']:.1f} ms ({anchors['chat_cpu_ms']:.1f}"
        f" ms CPU) | a bare `python -c pass`, {anchors['bare_ms']:.1f} ms "
        f"({anchors['bare_cpu_ms']:.1f} ms CPU) | {_start_ratios(anchors, 'chat')} "
        f"| <= {CHAT_START_TARGET_MS:.0f} ms: "
        f"{_verdict(anchors['chat_ms'], CHAT_START_TARGET_MS)} |",
        f"| geometric product | {calls['geometric_product']:.2f} us | one `np.add` of two "
        f"multivectors, {anchor_us:.2f} us | {calls['geometric_product'] / anchor_us:.2f}x | |",
        f"| certification, `certify -n 2` ({certify['requirements']} requirements) "
        f"| {two['wall_s']:.1f} s wall, {two['cpu_s']:.1f} s CPU | `-n 1`, {one['wall_s']:.1f} s "
        f"wall, {one['cpu_s']:.1f} s CPU | {one['wall_s'] / two['wall_s']:.2f}x faster, "
        f"{'same' if certify['digests_identical'] else 'DIFFERENT'} verdict digest "
        f"| <= {CERTIFY_TARGET_S:.0f} s on a quiet machine: "
        f"{_verdict(two['wall_s'], CERTIFY_TARGET_S)} |",
        f"| CPU of the suite, `certify -n 1` | {suite:.1f} s | the engines' CPU, {engine:.1f} s "
        f"| {suite / engine:.2f} | <= the engines': {_verdict(suite, engine)} |",
        f"| kill soak, {kills['kills']} SIGKILLs, {kills['workers']} at once "
        f"| {kills['forked_per_s']:.1f} kills/s forked from a zygote | "
        f"{kills['started_per_s']:.1f} kills/s, each engine started "
        f"| {kills['forked_per_s'] / kills['started_per_s']:.2f}x | |",
        f"| `pytest -n auto` ({tests['cores']} cores) | {tests['parallel_s']:.1f} s "
        f"| `-n 0`, {tests['serial_s']:.1f} s | {tests['serial_s'] / tests['parallel_s']:.2f}x "
        f"faster | <= {TESTS_TARGET_S:.0f} s: {_verdict(tests['parallel_s'], TESTS_TARGET_S)} |",
    ]
    sources = ["turns", "session", "anchors", "algebra", "certify", "kills", "tests"]
    lines = [f"* `{name}.json`: {provenance(load(name))}" for name in sources]
    lines.append(f"* `instructions.json`: {provenance(instructions)}")
    return "\n".join([*rows, "", "Each row's source (`docs/figures/`):", "", *lines])


def turns_table() -> str:
    turns = _figures("turns")
    none = turns["registers"][0]["median_ms"]
    rows = ["| register | median | p95 | ratio to none |", "|---|---:|---:|---:|"]
    rows += [
        f"| {r['register']} | {r['median_ms']:.3f} ms | {r['p95_ms']:.3f} ms "
        f"| {r['median_ms'] / none:.2f} |"
        for r in turns["registers"]
    ]
    rows.append(
        f"| none, every reading cold | {turns['cold_median_ms']:.3f} ms | "
        f"| {turns['cold_median_ms'] / none:.2f} |"
    )
    return "\n".join(
        [
            f"{turns['turns_per_register']:,} turns per register in alternating batches of "
            f"{turns['batch']}:",
            "",
            *rows,
            "",
            _from("turns"),
        ]
    )


def instructions_table() -> str:
    document = load("instructions")
    figures = document["figures"]
    runs = [*reversed(figures.get("earlier", [])), {**document, **figures}]
    registers = list(figures["millions"])
    head = (
        "| register | " + " | ".join(f"`{short(r['commit'])}` ({r['date']})" for r in runs) + " |"
    )
    rows = [head, "|---|" + "---:|" * len(runs)]
    rows += [
        f"| {register} | " + " | ".join(f"{r['millions'][register]:.3f} M" for r in runs) + " |"
        for register in registers
    ]
    return "\n".join(
        [*rows, "", f"{figures['turns']} counted turns per register. {_from('instructions')}"]
    )


def session_figures() -> str:
    s = _figures("session")
    ratio = s["long_median_ms"] / s["fresh_median_ms"]
    return (
        f"Turn {s['turns']:,} costs **{ratio:.2f}x** a fresh session's turn "
        f"({s['long_median_ms']:.3f} ms against {s['fresh_median_ms']:.3f} ms, "
        f"{s['samples']:,} turns each), and the resident set grew **{s['rss_growth_mib']:.2f} "
        f"MiB** between turn 1 and turn {s['turns']:,}. {_from('session')}"
    )


def anchors_list() -> str:
    a = _figures("anchors")
    chat_over = a["chat_ms"] - a["bare_ms"]
    return "\n".join(
        [
            f"* **Selector**: {a['selector_us']:.3f} us against {a['sha256_us']:.3f} us, "
            f"**{a['selector_us'] / a['sha256_us']:.2f}x**.",
            f"* **Protocol round trip**: {a['hello_round_trip_us']:.1f} us against "
            f"{a['echo_round_trip_us']:.1f} us, "
            f"**{a['hello_round_trip_us'] / a['echo_round_trip_us']:.2f}x**.",
            f"* **Cold start to `hello`**: {a['hello_ms']:.1f} ms wall, {a['hello_cpu_ms']:.1f} "
            f"ms CPU, against {a['bare_ms']:.1f} ms wall and {a['bare_cpu_ms']:.1f} ms CPU for "
            f"`python -c pass` ({a['runs']} interleaved runs each): "
            f"**{_start_ratios(a, 'hello')}**.",
            f"* **Cold start, `chat --once`**: {a['chat_ms']:.1f} ms wall, {a['chat_cpu_ms']:.1f}"
            f" ms CPU (**{_start_ratios(a, 'chat')}** the bare start); importing numpy "
            f'({a["numpy_ms"]:.1f} ms for `python -c "import numpy"`) is '
            f"**{a['numpy_share']:.0%}** of the {chat_over:.1f} ms over the bare start.",
            "",
            _from("anchors"),
        ]
    )


def algebra_table() -> str:
    a = _figures("algebra")
    anchor = a["calls"][0]["median_us"]
    rows = ["| call | median | ratio to `np.add` |", "|---|---:|---:|"]
    rows += [
        f"| `{c['call']}` | {c['median_us']:.2f} us | {c['median_us'] / anchor:.2f} |"
        for c in a["calls"]
    ]
    per_turn = ", ".join(f"`{name}` {count:.2f}" for name, count in a["per_turn"].items())
    return "\n".join(
        [
            f"{a['repeats']} alternating batches of {a['calls_per_batch']:,} calls:",
            "",
            *rows,
            "",
            f"Calls per chat turn over the lexicon script: {per_turn}.",
            "",
            _from("algebra"),
        ]
    )


def tests_figures() -> str:
    t = _figures("tests")
    selection = " and ".join(f"`{s}`" for s in t["selection"])
    extra = (
        f" `nox -s tests` itself, its venv already built, took {t['nox_tests_s']:.1f} s "
        f"({t['nox_pytest_s']:.1f} s of pytest) right after."
        if "nox_tests_s" in t
        else ""
    )
    return (
        f"The selection {selection}, `-n 0` then `-n auto --dist worksteal` ({t['cores']} "
        f"cores): {t['serial_s']:.1f} s against **{t['parallel_s']:.1f} s, "
        f"{t['serial_s'] / t['parallel_s']:.2f}x**.{extra} {_from('tests')}"
    )


def certify_figures() -> str:
    c = _figures("certify")
    by_workers = {row["workers"]: row for row in c["workers"]}
    two, one = by_workers[2], by_workers[1]
    rows = ["| requirement | time under `-n 1` |", "|---|---:|"]
    rows += [f"| {r['id']} | {r['ms'] / 1000:.1f} s |" for r in c["longest"]]
    return "\n".join(
        [
            f"* `-n 2`: **{two['wall_s']:.1f} s** wall, {two['cpu_s']:.1f} s CPU;",
            f"* `-n 1`: {one['wall_s']:.1f} s wall, {one['cpu_s']:.1f} s CPU;",
            f"* **{one['wall_s'] / two['wall_s']:.2f}x**, "
            f"{'with identical verdict digests' if c['digests_identical'] else 'DIFFERENT digests'}"
            f" (`{c['verdict_digest'][:12]}…`, {c['verdict']}, {c['requirements']} "
            "requirements);",
            f"* the suite's own CPU in a `-n 1` run: **{c['suite_cpu_s']:.1f} s**, the engines' "
            f"(every engine process, strace and soak engines included) {c['engine_cpu_s']:.1f} s;",
            f"* the kill soak ran at {two['kills_per_s']:.1f} kills per second under `-n 2` and "
            f"{one['kills_per_s']:.1f} under `-n 1`.",
            "",
            "The longest requirements of the `-n 1` run:",
            "",
            *rows,
            "",
            _from("certify"),
        ]
    )


def crash_figures() -> str:
    c = _figures("certify")
    crash = c.get("crash", {})
    return (
        f"{crash.get('crash_states_generated', 0):,} crash states generated, "
        f"**{crash.get('crash_states', 0):,} distinct states loaded**, from "
        f"{crash.get('traced_ops', 0)} traced operations ({crash.get('trace', '?')}), in the "
        f"`-n 1` run of `certify.json`."
    )


def kills_figures() -> str:
    k = _figures("kills")
    return "\n".join(
        [
            f"* engines forked from a zygote: **{k['forked_per_s']:.1f} kills per second**;",
            f"* engines started as processes: {k['started_per_s']:.1f} kills per second;",
            f"* **{k['forked_per_s'] / k['started_per_s']:.2f}x**. Forked one at a time, "
            f"{k['serial_forked_per_s']:.1f} kills per second.",
            "",
            _from("kills"),
        ]
    )


def kill_soak_figures() -> str:
    k = _figures("kill-soak-10000")
    return (
        f"**{k['kills']:,} SIGKILLs, {k['invalid']} invalid loads, {k['lost']} lost acknowledged "
        f"checkpoints** ({k['examples']:,} examples of {k['parallel']} parallel kills) in "
        f"{k['seconds']:,} s, {k['kills'] / k['seconds']:.1f} kills per second. In a separate "
        f"sample of {k['sample_kills']} kills, {k['sample_acknowledged']} restarts loaded the "
        f"last acknowledged checkpoint and {k['sample_in_flight']} the one in flight. "
        f"{_from('kill-soak-10000')}"
    )


def kill_soak_short() -> str:
    k = _figures("kill-soak-10000")
    return (
        f"{k['kills']:,} SIGKILLs gave {k['invalid']} invalid loads and {k['lost']} lost "
        f"acknowledged checkpoints, at {k['kills'] / k['seconds']:.1f} kills per second"
    )


def smoke_wall() -> str:
    document = load("smoke")
    s = document["figures"]
    source = "copied by hand, not re-measured" if "transcribed" in document else document["date"]
    return (
        f"{s['wall_s_low']}-{s['wall_s_high']} s wall here, on two cores at load average "
        f"{s['load']}: `docs/figures/smoke.json`, {source}"
    )


def soak_life(name: str) -> str:
    """A no-drift soak of one life (``python -m tools.soak_life --record``)."""
    figures = _figures(name)
    verdict = "passed" if figures["passed"] else "**failed** (exit status 1)"
    return f"{table(figures)}\n\nThe run {verdict}. {_from(name)}"


def _mutation_rows(tallies: dict[str, dict[str, int]]) -> list[str]:
    rows = [
        "| module | killed | survived | no tests | reviewed | unchecked "
        "| score: killed / (killed + survived + no tests) |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for module, c in sorted(tallies.items()):
        checked = c["killed"] + c["survived"] + c["no tests"]
        score = f"{100 * c['killed'] / checked:.1f}%" if checked else "-"
        rows.append(
            f"| {module} | {c['killed']} | {c['survived']} | {c['no tests']} "
            f"| {c['reviewed']} | {c['unchecked']} | {score} |"
        )
    return rows


def mutation_packages() -> str:
    """Per package of reference/ (docs/figures/mutation.json, ``score figures``)."""
    by_file: dict[str, dict[str, int]] = _figures("mutation")["by_file"]
    packages: dict[str, dict[str, int]] = {}
    for module, counts in by_file.items():
        package = ".".join(module.split(".")[:2])
        total = packages.setdefault(package, dict.fromkeys(counts, 0))
        for kind, count in counts.items():
            total[kind] += count
    return "\n".join(_mutation_rows(packages))


def mutation_files() -> str:
    """Per file, for the files with at least one mutant checked (not reviewed)."""
    by_file: dict[str, dict[str, int]] = _figures("mutation")["by_file"]
    checked = {
        module: c for module, c in by_file.items() if c["killed"] + c["survived"] + c["no tests"]
    }
    return "\n".join(_mutation_rows(checked))


def mutation_cost() -> str:
    run = _figures("mutation")["fastrun"]
    return (
        f"{run['median_seconds']} s, mean {run['mean_seconds']} s "
        f"({run['mutants']} mutants run; a survivor runs every test selected for it)"
    )


def normative_audit() -> str:
    """The ledger audit by sentence mutation (docs/traceability.md § Normative sentences)."""
    from tools.normative_audit import figure

    return figure()


FIGURES: dict[str, Callable[[], str]] = {
    "normative-audit": normative_audit,
    "mutation-packages": mutation_packages,
    "mutation-files": mutation_files,
    "mutation-cost": mutation_cost,
    "bench-summary": summary,
    "bench-soak-life-100000": lambda: soak_life("soak-life-100000"),
    "bench-soak-life-5000-settle-3000": lambda: soak_life("soak-life-5000-settle-3000"),
    "bench-soak-life-20000": lambda: soak_life("soak-life-20000"),
    "bench-soak-life-20000-settle-2000": lambda: soak_life("soak-life-20000-settle-2000"),
    "bench-turns": turns_table,
    "bench-instructions": instructions_table,
    "bench-session": session_figures,
    "bench-anchors": anchors_list,
    "bench-algebra": algebra_table,
    "bench-tests": tests_figures,
    "bench-certify": certify_figures,
    "bench-crash": crash_figures,
    "bench-kills": kills_figures,
    "bench-kill-soak": kill_soak_figures,
    "bench-life": lambda: _rows_table("life"),
    "bench-costs": lambda: _rows_table("costs"),
    "bench-soak-10000": lambda: _rows_table("soak-10000"),
    "bench-soak-20000": lambda: _rows_table("soak-20000"),
    "campaign-c4c9373": lambda: _rows_table("campaign-c4c9373"),
    "kill-soak-short": kill_soak_short,
    "smoke-wall": smoke_wall,
}
