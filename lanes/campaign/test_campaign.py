"""Campaigns on a local Dask cluster: the plain run's verdicts, kept counterexamples, resume."""

from __future__ import annotations

import json
import os
import queue
import shlex
import signal
import subprocess
import sys
import threading
from dataclasses import replace
from pathlib import Path

import pytest
from campaign_helpers import FAST, conformance, id_args, read_report

from conformance.campaign.plan import CampaignError, CampaignSpec, derive_seed, tasks
from conformance.campaign.run import connect
from conformance.requirements.state_crash import KILLS_PER_EXAMPLE, kill_examples
from selftest.engines import BROKEN
from selftest.reference_engine import REFERENCE_FACTORY

pytest.importorskip("dask.distributed")

SLOW_ENGINE = Path(__file__).resolve().parents[2] / "selftest/programs/slow_engine.py"
BROKEN_ENGINE = BROKEN["per_intent_ignored"]


def test_a_campaign_on_two_workers_gives_the_plain_runs_report(plain_run, tmp_path):
    root = tmp_path / "campaign"
    done = conformance(
        "campaign",
        "--quiet",
        "--dir",
        str(root),
        "--workers",
        "2",
        "--kills",
        "24",
        "--kills-per-task",
        "8",
        "--in-flight",
        "2",
        "--engine-python",
        REFERENCE_FACTORY,
        "--engine-python",
        BROKEN_ENGINE.spec,
        *id_args((*FAST, "STATE-KILL-001")),
    )
    assert done.returncode == 1, done.stdout[-2000:] + done.stderr[-2000:]
    plain, reference = read_report(plain_run), read_report(root / "reports/engine-1")
    assert reference["verdict_digest"] == plain["verdict_digest"]
    assert reference["summary"] == plain["summary"]
    soak = reference["campaign"]["soak"]
    assert soak == [{**soak[0], "kills": 24, "tasks": 3, "verdict": "pass"}]
    broken = read_report(root / "reports/engine-2")
    failed = [r for r in broken["results"] if r["outcome"] == "fail"]
    assert [r["id"] for r in failed] == ["OVR-RESOLVE-001"]
    case = root / "reports/engine-2" / failed[0]["counterexample"]
    replay = conformance("replay", str(case), "--engine-python", BROKEN_ENGINE.spec)
    assert replay.returncode == 1 and "FAIL" in replay.stdout.splitlines()[-1]


def test_kill_windows_cut_the_kill_sequence_without_gaps_or_overlaps():
    spec = CampaignSpec(
        engines=({"python": REFERENCE_FACTORY},),
        requirements=("STATE-KILL-001", "PROTO-HELLO-001"),
        kills=2000,
        kills_per_task=300,
    )
    windows = [t["window"] for t in tasks(spec) if t["requirement"] == "STATE-KILL-001"]
    step = 300 // KILLS_PER_EXAMPLE
    assert windows[0] == [0, step] and windows[-1][1] == kill_examples(2000)
    assert all(a[1] == b[0] for a, b in zip(windows, windows[1:], strict=False))
    assert tasks(spec) == tasks(CampaignSpec.from_dict(spec.as_dict()))
    seeded = [t for t in tasks(replace(spec, seed=7)) if t["requirement"] == "STATE-KILL-001"]
    assert [t["kills"] for t in seeded] == [300] * 6 + [200]
    assert len({t["seed"] for t in seeded}) == 7 and all(t["window"] is None for t in seeded)
    assert derive_seed(7, "VAR-CHAT-001", 0) == derive_seed(7, "VAR-CHAT-001", 0)
    assert derive_seed(7, "VAR-CHAT-001", 0) != derive_seed(7, "VAR-CHAT-001", 1)


@pytest.mark.parametrize(
    "changes, message",
    [
        ({"engines": ()}, "at least one engine"),
        ({"requirements": ("NOPE-NOPE-001",)}, "unknown requirement"),
        ({"kills": 0}, "--kills"),
        ({"kills_per_task": 2}, "--kills-per-task"),
        ({"seeds": 3}, "--seed"),
    ],
)
def test_bad_campaigns_are_refused(changes, message):
    fields = {"engines": ({"python": REFERENCE_FACTORY},), "requirements": ("PROTO-HELLO-001",)}
    with pytest.raises(CampaignError, match=message):
        CampaignSpec(**{**fields, **changes})


def _lines(process: subprocess.Popen) -> queue.Queue:
    lines: queue.Queue = queue.Queue()

    def pump() -> None:
        for line in process.stdout:
            lines.put(line)
        lines.put(None)

    threading.Thread(target=pump, daemon=True).start()
    return lines


def test_a_campaign_killed_halfway_resumes_without_redoing_finished_tasks(tmp_path):
    root = tmp_path / "campaign"
    engine = shlex.join([sys.executable, str(SLOW_ENGINE), "0.05"])
    args = [
        sys.executable,
        "-m",
        "conformance",
        "campaign",
        "--dir",
        str(root),
        "--workers",
        "2",
        "--engine",
        engine,
        *id_args(FAST),
    ]
    first = subprocess.Popen(args, stdout=subprocess.PIPE, text=True, start_new_session=True)
    lines = _lines(first)
    finished = [lines.get(timeout=300) for _ in range(2)]
    os.killpg(first.pid, signal.SIGKILL)
    first.wait(timeout=120)
    assert all(line and line.startswith("[") for line in finished), finished
    before = {p.name: p.read_bytes() for p in (root / "tasks").glob("*.json")}
    assert 2 <= len(before) < len(FAST)
    second = subprocess.run(args, capture_output=True, text=True, timeout=600, check=False)
    assert second.returncode == 3, second.stdout[-2000:] + second.stderr[-2000:]
    sessions = [json.loads(line) for line in (root / "sessions.jsonl").read_text().splitlines()]
    resumed = sessions[-1]
    assert {f"{key}.json" for key in resumed["skipped"]} == set(before)
    assert not set(before) & {f"{key}.json" for key in resumed["to_run"]}
    for name, data in before.items():
        assert (root / "tasks" / name).read_bytes() == data
    report = read_report(root / "reports/engine-1")
    assert [r["id"] for r in report["results"]] == list(FAST)
    assert report["summary"]["verdict"] == "partial"  # a subset of the suite


def test_the_embedded_cluster_samples_no_stacks():
    """No worker runs Dask's profiler, whose ``sys._current_frames`` can deadlock 3.11."""
    with connect(None, 2) as client:
        profiling = client.run(lambda dask_worker: "profile" in dask_worker.periodic_callbacks)
    assert len(profiling) == 2 and not any(profiling.values()), profiling
