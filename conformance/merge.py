"""Join shard reports into the report of the whole run.

A shard's report.json carries ``shard: {index, count, selection, requirements,
windows}``: the whole run's requirement ids, the ones this shard ran, and for a
requirement every shard ran a slice of, that slice of its examples. Merging checks
that the shards are one run (same suite, engine, profile, selection and shard
count), that each requirement was run by exactly one shard or in windows that tile
its examples exactly, and rebuilds the summary and digests from the joined results,
so the verdict digest is the unsharded run's.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from conformance import details
from conformance.canonical import digest
from conformance.certify import _write, describe_scope, pretty
from conformance.inputs import InputFileError, display, read_input
from conformance.report.badge import render_badge
from conformance.report.certificate import render_certificate
from conformance.report.junit import render_junit
from conformance.report.model import summarize, with_unchecked
from conformance.report.plain import to_plain
from conformance.report.validation import problem as schema_problem

SAME_ACROSS_SHARDS = ("format", "suite", "engine", "profile")


class MergeError(ValueError):
    """Shard reports that are not the complete, consistent shards of one run."""


def with_digest(report: dict[str, Any]) -> dict[str, Any]:
    """*report* with ``digest`` recomputed over everything else."""
    body = {k: v for k, v in report.items() if k != "digest"}
    return {**body, "digest": digest(body)}


def verdict_digest(results: list[dict[str, Any]]) -> str:
    return digest([[r["id"], r["outcome"], r["examples"]] for r in results])


def mark_shard(
    report: dict[str, Any],
    index: int,
    count: int,
    selection: list[str],
    windows: dict[str, tuple[int, int, int]] | None = None,
) -> dict[str, Any]:
    """*report* (of one shard's requirements) labelled as shard *index* of *count*.

    *windows* maps a requirement this shard ran only in part to (start, stop, total):
    the slice of its example sequence the shard ran.
    """
    shard = {
        "index": index,
        "count": count,
        "selection": list(selection),
        "requirements": [r["id"] for r in report["results"]],
        "windows": {i: list(w) for i, w in sorted((windows or {}).items())},
    }
    return with_digest({**report, "shard": shard})


def _check_same(reports: list[dict[str, Any]]) -> None:
    first = reports[0]
    for report in reports[1:]:
        for key in (*SAME_ACROSS_SHARDS, "shard.count", "shard.selection"):
            head, _, tail = key.partition(".")
            a, b = first.get(head), report.get(head)
            if tail:
                a, b = (a or {}).get(tail), (b or {}).get(tail)
            if a != b:
                raise MergeError(f"shards disagree on {key}: not shards of one run")


def _check_complete(reports: list[dict[str, Any]]) -> list[str]:
    count = reports[0]["shard"]["count"]
    indexes = sorted(r["shard"]["index"] for r in reports)
    if indexes != list(range(1, count + 1)):
        raise MergeError(f"need shards 1..{count} exactly once; got {indexes}")
    selection: list[str] = reports[0]["shard"]["selection"]
    seen: dict[str, int] = {}
    for report in reports:
        shard = report["shard"]
        ran = [r["id"] for r in report["results"]]
        if ran != shard["requirements"]:
            raise MergeError(f"shard {shard['index']} did not run all of its requirements")
        for req_id in ran:
            if req_id in seen and req_id not in shard["windows"]:
                raise MergeError(f"{req_id} ran in shards {seen[req_id]} and {shard['index']}")
            seen[req_id] = shard["index"]
    missing = [i for i in selection if i not in seen]
    extra = sorted(set(seen) - set(selection))
    if missing or extra:
        raise MergeError(f"shards do not cover the run: missing {missing}, extra {extra}")
    return selection


def _windowed(
    reports: list[dict[str, Any]], req_id: str
) -> list[tuple[list[int], dict[str, Any], int]]:
    """Each shard's (window, result, shard index) of a requirement run in windows, in order.

    The windows must tile the requirement's whole example sequence exactly.
    """
    parts = []
    for report in reports:
        window = report["shard"]["windows"].get(req_id)
        if window is None:
            raise MergeError(
                f"{req_id} ran whole in shard {report['shard']['index']}, in part elsewhere"
            )
        row = next(r for r in report["results"] if r["id"] == req_id)
        parts.append((window, row, report["shard"]["index"]))
    parts.sort(key=lambda part: part[0][0])
    edges = [0, *(w[1] for w, _, _ in parts)]
    if [w[0] for w, _, _ in parts] != edges[:-1] or edges[-1] != parts[0][0][2]:
        raise MergeError(f"the windows of {req_id} do not cover its examples exactly once")
    return parts


def _join(parts: list[tuple[list[int], dict[str, Any], int]]) -> tuple[dict[str, Any], int]:
    """One result from a requirement's windows: the first one that did not pass decides."""
    _, base, origin = next((part for part in parts if part[1]["verdict"] != "pass"), parts[0])
    joined = {
        **base,
        "examples": sum(row["examples"] for _, row, _ in parts),
        "duration_ms": sum(row["duration_ms"] for _, row, _ in parts),
    }
    figures = details.combined([row.get("details") for _, row, _ in parts])
    if figures:
        joined["details"] = figures
    return joined, origin


def _results(
    reports: list[dict[str, Any]], selection: list[str]
) -> tuple[list[dict[str, Any]], dict[str, int]]:
    """The whole run's results in selection order, and the shard each result came from."""
    results, origins = [], {}
    for req_id in selection:
        holders = [r for r in reports if req_id in r["shard"]["requirements"]]
        if any(req_id in r["shard"]["windows"] for r in holders):
            row, origins[req_id] = _join(_windowed(reports, req_id))
        else:
            row = next(r for r in holders[0]["results"] if r["id"] == req_id)
            origins[req_id] = holders[0]["shard"]["index"]
        results.append(row)
    return results, origins


def merge_reports(reports: list[dict[str, Any]]) -> dict[str, Any]:
    """The report of the whole run from the reports of all its shards."""
    return _merge(reports)[0]


def _merge(reports: list[dict[str, Any]]) -> tuple[dict[str, Any], dict[str, int]]:
    if not reports:
        raise MergeError("no shard reports to merge")
    if any("shard" not in r for r in reports):
        raise MergeError("a report without a shard field is not a shard")
    if any(r.get("budget") for r in reports):
        raise MergeError("budgeted shards cannot be merged: their example counts differ by run")
    _check_same(reports)
    selection = _check_complete(reports)
    results, origins = _results(reports, selection)
    stale = sorted(set.intersection(*(set(r["stale_expected_failures"]) for r in reports)))
    first = reports[0]
    scope = with_unchecked(_scope(reports, selection, [r["id"] for r in results]), results)
    merged = {key: first[key] for key in SAME_ACROSS_SHARDS}
    merged.update(
        {
            "options": first.get("options", {}),
            "scope": scope,
            "engine_fault": None,
            "results": results,
            "stale_expected_failures": stale,
            "summary": summarize(results, stale, scope),
            "verdict_digest": verdict_digest(results),
            "merged_from": {"shards": first["shard"]["count"]},
        }
    )
    return with_digest(merged), origins


def _scope(reports: list[dict[str, Any]], selection: list[str], run: list[str]) -> dict[str, Any]:
    """The whole run's scope: its selection, and what any shard ran short or left unrun."""
    thin = sorted(set().union(*(r.get("scope", {}).get("thin", ()) for r in reports)))
    stopped = sum(r.get("scope", {}).get("stopped", 0) for r in reports)
    return describe_scope(len(selection), stopped, thin, run)


def read_report(directory: Path) -> dict[str, Any]:
    """A shard directory's report.json, read by the guarded reader and checked against
    the report schema; MergeError names the file."""
    path = directory / "report.json"
    try:
        report: dict[str, Any] = read_input(path, None, "a shard's report.json")
    except InputFileError as exc:
        raise MergeError(str(exc)) from None
    problem = schema_problem("report", report) or _shard_problem(report.get("shard"))
    if problem:
        raise MergeError(f"{display(path)}: not a shard's report.json: {problem}")
    return report


def _shard_problem(shard: Any) -> str | None:
    """None if *shard* (a report's ``shard`` field, or None) has the shape merge reads."""
    if shard is None:
        return None
    strings = ("selection", "requirements")
    good = (
        isinstance(shard, dict)
        and all(type(shard.get(k)) is int for k in ("index", "count"))
        and all(isinstance(shard.get(k), list) for k in strings)
        and all(isinstance(i, str) for k in strings for i in shard[k])
        and isinstance(shard.get("windows"), dict)
        and all(
            isinstance(w, list) and len(w) == 3 and all(type(n) is int for n in w)
            for w in shard["windows"].values()
        )
    )
    return None if good else "shard: not {index, count, selection, requirements, windows}"


def write_merged(
    report: dict[str, Any], sources: dict[int, Path], origins: dict[str, int], directory: Path
) -> None:
    """Write the merged report files; copy each failing result's counterexample from the
    shard directory (by shard index in *sources*) its result came from."""
    directory.mkdir(parents=True, exist_ok=True)
    for result in report["results"]:
        name = result["counterexample"]
        source = sources[origins[result["id"]]] / name if name else None
        if source is not None and source.is_file():
            (directory / "counterexamples").mkdir(exist_ok=True)
            _write(directory / name, source.read_text(encoding="utf-8"))
    _write(directory / "report.json", pretty(to_plain(report)))
    _write(directory / "badge.json", pretty(render_badge(report)))
    _write(directory / "certificate.md", render_certificate(report, str(directory)))
    _write(directory / "junit.xml", render_junit(report))


def merge_directories(sources: list[Path], target: Path) -> dict[str, Any]:
    """Merge the shard reports in *sources* into *target*; return the merged report."""
    reports = [read_report(s) for s in sources]
    report, origins = _merge(reports)
    by_index = {r["shard"]["index"]: source for r, source in zip(reports, sources, strict=True)}
    write_merged(report, by_index, origins, target)
    return report
