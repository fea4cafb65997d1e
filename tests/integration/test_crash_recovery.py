"""Exactly-once across driver crashes: the job's process (Python driver and its JVM) is killed
with SIGKILL mid-stream several times, then re-run from its checkpoints until it finishes."""

from __future__ import annotations

import collections
import time

import pytest

from tests._helpers.files import log_ids, read_batch_files, write_json_files
from .drivers.killable import JOB, KillableDriver

N_FILES = 14
ROWS_PER_FILE = 5
N_KEYS = 4
KILLS = 2


def _batch_calls(base):
    """``(pid, batch id)`` of every foreachBatch call, in order."""
    path = base / "out" / "calls.log"
    if not path.exists():
        return []
    return [tuple(int(x) for x in line.split()) for line in path.read_text().splitlines() if line]


def _run_with_crashes(base, mode, progress_sink):
    """Kill the driver ``KILLS`` times, each after new commits appeared, then run it to the end.

    :return: Per killed run, the newest committed and logged batch ids found after the kill,
             and the pids of all runs in order.
    """
    checkpoint = base / "cp" / JOB / progress_sink
    seen = -1
    kills = []
    pids = []
    for run in range(KILLS):
        driver = KillableDriver(base, run, mode)
        pids.append(driver.proc.pid)
        try:
            deadline = time.monotonic() + 120
            while max(log_ids(checkpoint, "commits"), default=-1) <= seen:
                if not driver.alive():
                    pytest.fail("driver ended before it was killed:\n" + driver.output())
                if time.monotonic() > deadline:
                    pytest.fail("no new commit within 120 s:\n" + driver.output())
                time.sleep(0.05)
            if run % 2 == 1:
                # Kill inside a batch: its offsets are logged, its commit is not yet.
                inner = time.monotonic() + 5
                while time.monotonic() < inner and \
                        max(log_ids(checkpoint, "offsets")) <= max(log_ids(checkpoint, "commits")):
                    time.sleep(0.01)
        finally:
            if driver.alive():
                driver.kill_group()
        seen = max(log_ids(checkpoint, "commits"))
        kills.append((seen, max(log_ids(checkpoint, "offsets"))))
    # The kills really happened mid-stream: input was left over each time.
    assert len(kills) == KILLS
    assert max(c for c, _ in kills) < N_FILES - 1, kills
    final = KillableDriver(base, KILLS, mode)
    pids.append(final.proc.pid)
    code = final.wait(240)
    output = final.output()
    assert code == 0, output
    assert "FINISHED" in output
    return kills, pids


def _assert_each_run_resumed_from_its_checkpoint(base, kills, pids):
    """Every re-run started at the batch after the last one committed before the kill (a batch
    in flight at the kill is run again, with the same input), not from the beginning."""
    calls = _batch_calls(base)
    by_run = [[b for pid, b in calls if pid == run_pid] for run_pid in pids]
    assert by_run[0][0] == 0
    for (committed, _), batches in zip(kills, by_run[1:]):
        assert batches, by_run
        assert batches[0] == committed + 1, (kills, by_run)
    assert any(logged > committed for committed, logged in kills), kills  # one kill was mid-batch
    assert len(calls) <= N_FILES + KILLS  # at most one replayed batch per kill


def _assert_batches_contiguous(batch_ids):
    """Batches 0, 1, ... with no gap. Usually one per input file, but a kill between the file
    source's own log and the offsets log makes the replayed batch take two files, so fewer
    batches than files is correct (the records are still checked one by one)."""
    assert batch_ids == list(range(len(batch_ids)))
    assert N_FILES - KILLS <= len(batch_ids) <= N_FILES


@pytest.mark.slow
def test_stateless_sinks_get_every_record_exactly_once_across_driver_kills(spark, tmp_path):
    records = write_json_files(tmp_path / "in", N_FILES, ROWS_PER_FILE, n_keys=N_KEYS)
    expected = sorted(r["id"] for r in records)
    kills, pids = _run_with_crashes(tmp_path, "stateless", "batches")
    _assert_each_run_resumed_from_its_checkpoint(tmp_path, kills, pids)

    # File sink: read through its _spark_metadata log, which lists committed files only.
    assert (tmp_path / "out" / "parquet" / "_spark_metadata").is_dir()
    parquet_ids = sorted(row["id"] for row in spark.read.parquet(str(tmp_path / "out" / "parquet"))
                         .select("id").collect())
    assert parquet_ids == expected

    batches = read_batch_files(tmp_path / "out" / "batches")
    batch_ids = sorted(r["id"] for rows in batches.values() for r in rows)
    assert batch_ids == expected
    _assert_batches_contiguous(sorted(batches))
    for sink in ("parquet", "batches"):
        assert max(log_ids(tmp_path / "cp" / JOB / sink, "commits")) == max(batches)


@pytest.mark.slow
def test_stateful_counts_are_exact_across_driver_kills(tmp_path):
    records = write_json_files(tmp_path / "in", N_FILES, ROWS_PER_FILE, n_keys=N_KEYS)
    expected = collections.Counter(r["key"] for r in records)
    kills, pids = _run_with_crashes(tmp_path, "stateful", "counts")
    _assert_each_run_resumed_from_its_checkpoint(tmp_path, kills, pids)

    batches = read_batch_files(tmp_path / "out" / "counts")
    latest = {}
    for batch_id in sorted(batches):
        for row in batches[batch_id]:
            latest[row["key"]] = row["count"]
    assert latest == dict(expected)
    _assert_batches_contiguous(sorted(batches))
    assert max(log_ids(tmp_path / "cp" / JOB / "counts", "commits")) == max(batches)
