"""Driver SIGKILLs at seeded random points: the job's process (Python driver and its JVM) is
killed again and again, before, during and between micro-batches, then run to the end.

Exactly-once is checked on a parquet file sink read through its metadata log and on a
``foreachBatch`` sink keyed by batch id, in both trigger modes (batches at the buffer timeout,
and one per checkpoint interval); under ``AT_LEAST_ONCE`` nothing may be lost. The
figures (kills, records, lost, duplicated) are printed (``pytest -s`` shows them).
"""

from __future__ import annotations

import collections
import os
import random
import time

import pytest

from tests._helpers.files import log_ids, read_batch_files, tree, write_json_files
from tests.integration.drivers.killable import JOB, KillableDriver

SEED = int(os.environ.get("PYFLINK_COMPAT_FAULT_SEED", "20261123"))
N_FILES = 20
#: Kills per trigger mode in the exactly-once test (six in all).
KILLS_PER_MODE = 3
ROWS_PER_FILE = 3


def _kill_randomly(base, kills, rng, *extra):
    """Kill the driver ``kills`` times at seeded random points, then run it to the end.

    Two kills in five land at a random moment of start-up (before the run's first batch); the
    others at a random moment after the run committed a new batch (during or between batches).

    :return: Per kill, the newest committed and the newest logged batch of the foreachBatch
             sink's checkpoint after it (logged past committed: killed inside a batch).
    """
    checkpoint = base / "cp" / JOB / "batches"
    points = []
    for run in range(kills):
        before = max(log_ids(checkpoint, "commits"), default=-1)
        driver = KillableDriver(base, run, "stateless", *extra)
        driver.wait_started()
        if rng.random() >= 0.4:
            deadline = time.monotonic() + 120
            while max(log_ids(checkpoint, "commits"), default=-1) <= before:
                if not driver.alive() or time.monotonic() > deadline:
                    pytest.fail("no new commit before the kill:\n" + driver.output())
                time.sleep(0.02)
            time.sleep(rng.uniform(0.0, 1.0))
        else:
            time.sleep(rng.uniform(0.0, 1.5))
        if not driver.alive():  # it finished all the input before the kill
            break
        driver.kill_group()
        points.append((max(log_ids(checkpoint, "commits"), default=-1),
                       max(log_ids(checkpoint, "offsets"), default=-1)))
    KillableDriver(base, kills, "stateless", *extra).finish()
    return points


def _figures(label, expected, found, kills, points):
    counts = collections.Counter(found)
    lost = sorted(set(expected) - set(counts))
    duplicated = sum(n - 1 for n in counts.values() if n > 1)
    print("\n{}: kills={} records={} lost={} duplicated={} (committed/logged batch at each kill: {})".format(
        label, kills, len(expected), len(lost), duplicated, points))
    return lost, duplicated


@pytest.mark.slow
@pytest.mark.parametrize("trigger_mode", ["latency", "interval_mode"])
def test_exactly_once_across_random_driver_kills(spark, tmp_path, trigger_mode):
    rng = random.Random(SEED)
    records = write_json_files(tmp_path / "in", N_FILES, ROWS_PER_FILE)
    expected = sorted(r["id"] for r in records)
    inputs = tree(tmp_path / "in")
    points = _kill_randomly(tmp_path, KILLS_PER_MODE, rng,
                            *(["interval_mode"] if trigger_mode == "interval_mode" else []))
    assert len(points) == KILLS_PER_MODE, points

    parquet = [row["id"] for row in spark.read.parquet(str(tmp_path / "out" / "parquet")).select("id").collect()]
    lost, duplicated = _figures("exactly-once parquet (metadata log)", expected, parquet, len(points), points)
    assert (lost, duplicated) == ([], 0)
    batches = read_batch_files(tmp_path / "out" / "batches")
    by_batch = [r["id"] for rows in batches.values() for r in rows]
    lost, duplicated = _figures("exactly-once foreachBatch (by batch id)", expected, by_batch, len(points), points)
    assert (lost, duplicated) == ([], 0)
    # A kill between the file source's own log and the offset log makes the next run put two
    # files in one batch: batch ids stay contiguous, each record in exactly one batch.
    assert sorted(batches) == list(range(len(batches)))
    # Nothing was deleted: the input, and the retained checkpoints with every batch committed.
    assert tree(tmp_path / "in") == inputs
    assert max(log_ids(tmp_path / "cp" / JOB / "batches", "commits")) == len(batches) - 1
    assert log_ids(tmp_path / "cp" / JOB / "parquet", "commits")


@pytest.mark.slow
def test_nothing_is_lost_under_at_least_once_across_random_driver_kills(spark, tmp_path):
    rng = random.Random(SEED + 1)
    records = write_json_files(tmp_path / "in", N_FILES, ROWS_PER_FILE)
    expected = sorted(r["id"] for r in records)
    inputs = tree(tmp_path / "in")
    points = _kill_randomly(tmp_path, 2, rng, "at_least_once")
    assert len(points) == 2, points
    calls = [c for c in (tmp_path / "out" / "calls.log").read_text().split("\n") if c]
    batches = read_batch_files(tmp_path / "out" / "batches")
    replayed = len(calls) - len(batches)  # calls of a batch id beyond its first
    found = [r["id"] for rows in batches.values() for r in rows]
    lost, _ = _figures("at-least-once foreachBatch", expected, found, len(points), points)
    print("at-least-once: batches run again after a kill: {}".format(replayed))
    assert lost == []
    parquet = [row["id"] for row in spark.read.parquet(str(tmp_path / "out" / "parquet")).select("id").collect()]
    assert not set(expected) - set(parquet)
    assert tree(tmp_path / "in") == inputs
