"""Savepoints of a job whose input arrives faster than its checkpoints, with Flink's defaults.

Flink retains one checkpoint by default (``execution.checkpointing.num-retained``), which Spark
is given as keeping two batches (one for the batch that runs): older offset log entries are
gone as soon as later batches are planned. Triggered savepoints and stop-with-savepoint must succeed at
once all the same, and every stop-with-savepoint must restore exactly once.
"""

from __future__ import annotations

import os
import time
from typing import Any, List

import pytest

from pyflink_compat.common import JobStatus
from pyflink_compat.checkpoints import verify

from tests._helpers.files import Arrivals, log_ids
from tests._helpers.waiting import wait_until
from tests.savepoints._counting_jobs import add_counts, expected, restore_options, write_files

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.mark.parametrize("retained", [1, 2, 5])
def test_triggered_savepoints_of_a_busy_job_all_succeed_and_each_stop_restores_exactly_once(
        jobs: Any, tmp_path: Any, retained: int) -> None:
    source = tmp_path / "in"
    rows = write_files(source, 0, 2)
    triggers = 20 if retained == 1 else 5
    stops = 5 if retained == 1 else 1
    options = {"execution.checkpointing.num-retained": str(retained),
               "execution.checkpointing.savepoint-dir": str(tmp_path / "sp")}
    taken: List[float] = []
    savepoint = None
    with Arrivals(lambda n: write_files(source, n, 1), 0.1, first=2) as arrivals:
        for stop in range(stops):
            run_options = dict(options, **(restore_options(savepoint) if savepoint else {}))
            env = jobs(run_options)
            add_counts(env, source, tmp_path / "storage{}".format(stop))
            client = env.execute_async("busy")
            checkpoint = tmp_path / "storage{}".format(stop) / "busy" / "counts"
            wait_until(lambda path=checkpoint: log_ids(path, "commits") and os.path.exists(path / "offsets"),
                       what="a commit")
            for _ in range(triggers if stop == 0 else 2):
                started = time.monotonic()
                path = client.trigger_savepoint(str(tmp_path / "triggered")).result(60)
                taken.append(time.monotonic() - started)
                assert verify(path)["ok"]
            assert client.get_job_status().result() is JobStatus.RUNNING
            started = time.monotonic()
            savepoint = client.stop_with_savepoint(False).result(60)
            taken.append(time.monotonic() - started)
            client.get_job_execution_result().result(60)
            assert client.get_job_status().result() is JobStatus.FINISHED
            assert verify(savepoint)["ok"]
    rows += [row for rows_of_file in arrivals.written for row in rows_of_file]  # all written by now
    env = jobs(dict(options, **restore_options(savepoint)))
    counts = add_counts(env, source, tmp_path / "final", bounded=True, files_per_batch=10000)
    client = env.execute_async("busy")
    client.get_job_execution_result().result(120)
    assert counts.latest() == expected(rows)  # five stops and restores: every row counted once
    assert max(taken) < 10, taken
    print("savepoint times (s): median {:.3f}, max {:.3f} over {}".format(
        sorted(taken)[len(taken) // 2], max(taken), len(taken)))
