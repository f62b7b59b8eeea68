"""Drive a campaign on Dask: submit the tasks not yet done, persist each result as it lands.

The default cluster is an embedded ``LocalCluster`` of worker processes on the
loopback interface; ``scheduler`` names an existing one (``tcp://HOST:8786``). Each
worker opens its own engine processes. A task is submitted under its key, so the
scheduler holds one small JSON description per task and gets back one result.
"""

from __future__ import annotations

import contextlib
import itertools
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from conformance.campaign.assemble import write_engine_reports
from conformance.campaign.plan import CampaignError, CampaignSpec, tasks
from conformance.campaign.store import CampaignStore
from conformance.campaign.worker import run_task

if TYPE_CHECKING:
    from dask.distributed import Client, LocalCluster, as_completed

IN_FLIGHT = 1_000
"""Tasks submitted to the cluster at once; the rest wait on the client."""
LOCAL_WORKER_CONFIG = {"distributed.worker.profile.enabled": False}
"""Settings of the embedded cluster's workers. Dask's statistical profiler is off: it
samples every thread with ``sys._current_frames`` every 10 ms, and on Python 3.11 a
garbage collection that starts inside that call deadlocks the whole worker process
(CPython gh-106883); a kill soak's many threads make that likely."""
Listener = Callable[[dict[str, Any], int, int], None]


def _dask() -> tuple[type[Client], type[LocalCluster], type[as_completed]]:
    try:
        from dask.distributed import Client, LocalCluster, as_completed
    except ImportError:
        raise CampaignError(
            "campaigns need dask.distributed; from a checkout: pip install -e '.[campaign]'"
        ) from None
    return Client, LocalCluster, as_completed


@contextlib.contextmanager
def connect(scheduler: str | None, workers: int) -> Iterator[Client]:
    """A Dask client: on *scheduler*, or on an embedded local cluster of *workers* processes."""
    Client, LocalCluster, _ = _dask()
    if scheduler:
        try:
            client = Client(scheduler, timeout=60)
        except OSError as exc:
            raise CampaignError(f"--scheduler {scheduler}: cannot connect ({exc})") from None
        with client:
            yield client
        return
    import dask

    with dask.config.set(LOCAL_WORKER_CONFIG):
        cluster = LocalCluster(
            n_workers=workers,
            threads_per_worker=1,
            processes=True,
            host="127.0.0.1",
            dashboard_address=None,
            silence_logs=40,
        )
        with cluster, Client(cluster) as client:
            yield client


def _stream(
    client: Client, spec: CampaignSpec, todo: list[dict[str, Any]], in_flight: int
) -> Iterator[dict[str, Any]]:
    """Results of *todo* as they finish, with at most *in_flight* tasks on the cluster.

    The spec is sent to every worker once; each future is released once its result is
    read, so neither the scheduler nor the workers hold more than *in_flight* tasks and
    results at a time.
    """
    _, _, as_completed = _dask()
    # distributed leaves Client.scatter unannotated.
    spec_data = client.scatter(spec.as_dict(), broadcast=True)  # type: ignore[no-untyped-call]
    queued = iter(todo)

    def submit(task: dict[str, Any]) -> Any:
        key = f"{spec.digest[:12]}-{task['key']}"
        return client.submit(run_task, spec_data, task, key=key, pure=False)

    running = as_completed([submit(t) for t in itertools.islice(queued, in_flight)])
    for future in running:
        result = future.result()
        future.release()
        following = next(queued, None)
        if following is not None:
            # distributed leaves as_completed.add unannotated.
            running.add(submit(following))  # type: ignore[no-untyped-call]
        yield result


def run_campaign(
    spec: CampaignSpec,
    root: Path,
    *,
    scheduler: str | None = None,
    workers: int = 2,
    on_result: Listener = lambda result, finished, total: None,
    in_flight: int = IN_FLIGHT,
) -> tuple[dict[str, dict[str, Any]], list[Path]]:
    """Run (or resume) *spec* in *root*; return every task result and the report directories.

    The campaign directory and its finished tasks are read (and refused when damaged) before
    Dask is looked for; a campaign this call created is removed again when it cannot start."""
    store = CampaignStore(root)
    created = store.open(spec)
    try:
        return _resume(spec, store, scheduler, workers, on_result, in_flight)
    except BaseException:
        if created:
            store.discard_if_unstarted()
        raise


def _resume(
    spec: CampaignSpec,
    store: CampaignStore,
    scheduler: str | None,
    workers: int,
    on_result: Listener,
    in_flight: int,
) -> tuple[dict[str, dict[str, Any]], list[Path]]:
    planned = tasks(spec)
    done = store.done()
    _dask()
    todo = [t for t in planned if t["key"] not in done]
    session = len(store.sessions()) + 1
    store.log_session(
        {"session": session, "skipped": sorted(done), "to_run": [t["key"] for t in todo]}
    )
    if todo:
        with connect(scheduler, workers) as client:
            for result in _stream(client, spec, todo, in_flight):
                result = {**result, "session": session}
                store.save(result)
                done[result["key"]] = result
                on_result(result, len(done), len(planned))
    return done, write_engine_reports(spec, store.root, done)
