"""A keyed DataStream job (``KeyedProcessFunction`` with ``ValueState``, ``MapState`` and
event-time timers, run in Spark's ``transformWithState``) whose driver is SIGKILLed at seeded
random points, during start-up and after a committed batch, then run to the end: every output
of its sink is there exactly once, each element with its key's running count and each timer
with its bucket, as computed here from the input alone.

The figures (kills, outputs, lost, duplicated) are printed (``pytest -s`` shows them).
"""

from __future__ import annotations

import collections
import os
import random
import time
from typing import Any, List, Tuple

import pytest

from tests._helpers import keyed_job
from tests._helpers.files import log_ids
from tests.integration.drivers.killable import KillableDriver

SEED = int(os.environ.get("PYFLINK_COMPAT_FAULT_SEED", "20261127"))
DRIVER = keyed_job.__file__
N_FILES = 4
ROWS_PER_FILE = 10


def _kill_twice(base: Any, rng: random.Random) -> List[Tuple[int, int]]:
    """Kill the driver once at a random moment of its start-up and once at a random moment
    after it committed a new batch, then run it to the end; per kill, the newest committed and
    the newest logged batch."""
    checkpoint = base / "cp" / keyed_job.JOB_NAME / "datastream"
    points = []
    for run in range(2):
        before = max(log_ids(checkpoint, "commits"), default=-1)
        driver = KillableDriver(base, run, "keyed", driver=DRIVER)
        driver.wait_started()
        if run == 1:
            deadline = time.monotonic() + 120
            while max(log_ids(checkpoint, "commits"), default=-1) <= before:
                if not driver.alive() or time.monotonic() > deadline:
                    pytest.fail("no new commit before the kill:\n" + driver.output())
                time.sleep(0.02)
            time.sleep(rng.uniform(0.0, 1.0))
        else:
            time.sleep(rng.uniform(2.0, 8.0))
        if not driver.alive():
            pytest.fail("the driver ended before it was killed:\n" + driver.output())
        driver.kill_group()
        points.append((max(log_ids(checkpoint, "commits"), default=-1),
                       max(log_ids(checkpoint, "offsets"), default=-1)))
    KillableDriver(base, 2, "keyed", driver=DRIVER).finish()
    return points


@pytest.mark.slow
def test_a_keyed_job_with_state_and_timers_emits_every_output_exactly_once_across_driver_kills(tmp_path: Any) -> None:
    rng = random.Random(SEED)
    ids = keyed_job.write_inputs(tmp_path / "in", N_FILES, ROWS_PER_FILE)
    expected = keyed_job.expected_outputs(ids)
    points = _kill_twice(tmp_path, rng)
    found = keyed_job.read_outputs(tmp_path / "out")
    counts = collections.Counter(found)
    lost = sorted(set(expected) - set(counts))
    duplicated = sum(n - 1 for n in counts.values() if n > 1)
    print("\nkeyed exactly-once: kills={} outputs={} lost={} duplicated={} (committed/logged batch at each "
          "kill: {})".format(len(points), len(expected), len(lost), duplicated, points))
    assert (lost, duplicated) == ([], 0)
    assert found == expected
    # the run was cut: the last kill came after a committed batch that the final run resumed from
    assert points[1][0] >= 0
    assert sorted(int(n) for n in os.listdir(tmp_path / "cp" / keyed_job.JOB_NAME / "datastream" / "commits")
                  if n.isdigit())[-1] >= N_FILES - 1
