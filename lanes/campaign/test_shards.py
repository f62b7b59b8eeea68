"""Requirement-parallel runs and shards give the verdicts and verdict digest of one run."""

from __future__ import annotations

import json

import pytest
from campaign_helpers import FAST, conformance, id_args, read_report

from conformance.merge import MergeError, mark_shard, merge_reports
from conformance.shard import Shard, ShardError, partition, shard_ids

IDS = [*FAST, "STATE-KILL-001"]


def test_two_engine_processes_give_the_one_engine_verdict_digest(plain_run, tmp_path):
    out = tmp_path / "n2"
    done = conformance(
        "certify", "--quiet", "-n", "2", "--kills", "24", "--report", str(out), *id_args(IDS)
    )
    assert done.returncode == 3, done.stdout[-2000:] + done.stderr[-2000:]
    one, two = read_report(plain_run), read_report(out)
    assert [r["id"] for r in two["results"]] == [r["id"] for r in one["results"]]
    assert two["verdict_digest"] == one["verdict_digest"]


def test_three_shards_merge_into_the_unsharded_report(plain_run, tmp_path):
    durations = str(plain_run / "report.json")
    shards = []
    for index in (1, 2, 3):
        shards.append(tmp_path / f"shard{index}")
        done = conformance(
            "certify",
            "--quiet",
            "-n",
            "1",
            "--kills",
            "24",
            "--shard",
            f"{index}/3",
            "--durations-from",
            durations,
            "--report",
            str(shards[-1]),
            *id_args(IDS),
        )
        assert done.returncode in (1, 3), done.stderr[-2000:]
    labels = [read_report(s)["shard"] for s in shards]
    whole = [i for label in labels for i in label["requirements"] if i not in label["windows"]]
    assert sorted(whole) == sorted(set(IDS) - {"STATE-KILL-001"})
    assert [label["windows"]["STATE-KILL-001"] for label in labels] == [
        [0, 1, 3],
        [1, 2, 3],
        [2, 3, 3],
    ]
    merged = conformance("merge", *map(str, shards), "--report", str(tmp_path / "merged"))
    assert merged.returncode == 3, merged.stdout[-2000:] + merged.stderr[-2000:]
    unsharded, joined = read_report(plain_run), read_report(tmp_path / "merged")
    assert joined["verdict_digest"] == unsharded["verdict_digest"]
    assert joined["summary"] == unsharded["summary"]
    assert (tmp_path / "merged" / "junit.xml").is_file()
    missing = conformance("merge", str(shards[0]), str(shards[2]), "--report", str(tmp_path / "x"))
    assert missing.returncode == 2 and "shards 1..3" in missing.stderr


def test_partition_is_deterministic_complete_and_balanced():
    ids = [f"A-B-{i:03d}" for i in range(10)]
    durations = {i: 100 * (n + 1) for n, i in enumerate(ids)}
    parts = partition(ids, 3, durations)
    assert parts == partition(list(ids), 3, dict(durations))
    assert sorted(i for part in parts for i in part) == ids
    loads = [sum(durations[i] for i in part) for part in parts]
    assert max(loads) - min(loads) <= max(durations.values())
    assert shard_ids(ids, Shard(2, 3), durations) == parts[1]
    assert partition(ids[:1], 3, {}) == [ids[:1], [], []]


@pytest.mark.parametrize("text", ["0/3", "4/3", "1/0", "a/b", "1-3", ""])
def test_bad_shard_specs_are_refused(text):
    with pytest.raises(ShardError, match="K/N"):
        Shard.parse(text)


def _shard_reports():
    results = [
        {"id": i, "outcome": "pass", "examples": 1, "duration_ms": 1, "verdict": "pass"}
        for i in ("A-A-001", "A-A-002")
    ]
    base = {
        "format": "f",
        "suite": {},
        "engine": {"command": "e"},
        "profile": {"name": "ci"},
        "stale_expected_failures": [],
    }
    selection = ["A-A-001", "A-A-002"]
    return [mark_shard({**base, "results": [results[k]]}, k + 1, 2, selection) for k in range(2)]


def test_merge_refuses_shards_of_different_runs_or_overlapping_shards():
    first, second = _shard_reports()
    assert merge_reports([second, first])["summary"]["total"] == 2
    other = json.loads(json.dumps(second))
    other["engine"]["command"] = "another"
    with pytest.raises(MergeError, match="engine"):
        merge_reports([first, other])
    twice = json.loads(json.dumps(second))
    twice["results"] = first["results"] + twice["results"]
    twice["shard"]["requirements"] = ["A-A-001", "A-A-002"]
    with pytest.raises(MergeError, match="ran in shards"):
        merge_reports([first, twice])
    with pytest.raises(MergeError, match="not a shard"):
        merge_reports([first, {k: v for k, v in second.items() if k != "shard"}])


@pytest.mark.parametrize(
    "args, message",
    [
        (["-n", "0"], "-n"),
        (["--shard", "4/3"], "--shard"),
        (["--budget", "soon"], "--budget"),
        (["--durations-from", "/nonexistent/report.json"], "--durations"),
    ],
)
def test_bad_scaling_options_exit_2_with_one_line(args, message, tmp_path):
    done = conformance("certify", "--quiet", "--report", str(tmp_path), "--id", FAST[0], *args)
    assert done.returncode == 2 and message in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


def _windowed_reports(windows, verdicts):
    base = {
        "format": "f",
        "suite": {},
        "engine": {"command": "e"},
        "profile": {"name": "ci"},
        "stale_expected_failures": [],
    }
    reports = []
    for index, (window, verdict) in enumerate(zip(windows, verdicts, strict=True), start=1):
        row = {
            "id": "K-K-001",
            "verdict": verdict,
            "outcome": verdict,
            "examples": window[1] - window[0],
            "duration_ms": 1,
            "message": f"window {index}",
            "counterexample": None,
        }
        report = {**base, "results": [row]}
        reports.append(mark_shard(report, index, len(windows), ["K-K-001"], {"K-K-001": window}))
    return reports


def test_windows_join_into_one_result_and_must_tile_the_examples():
    joined = merge_reports(_windowed_reports([(0, 2, 5), (2, 5, 5)], ["pass", "pass"]))
    assert [(r["outcome"], r["examples"]) for r in joined["results"]] == [("pass", 5)]
    failed = merge_reports(_windowed_reports([(0, 2, 5), (2, 5, 5)], ["pass", "fail"]))
    assert failed["results"][0]["message"] == "window 2" and not failed["summary"]["certified"]
    for gap in ([(0, 2, 5), (3, 5, 5)], [(0, 3, 5), (2, 5, 5)], [(0, 2, 5), (2, 4, 5)]):
        with pytest.raises(MergeError, match="windows of K-K-001"):
            merge_reports(_windowed_reports(gap, ["pass", "pass"]))
