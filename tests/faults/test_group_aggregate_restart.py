"""An updating group aggregation printed with its row kinds, its driver SIGKILLed after a
checkpoint and started again from it: a key seen before the kill changes with ``-U`` (its row
before) and ``+U`` (its new row), as in an uninterrupted Flink run, since the row kinds come
from the aggregation's state and not from the memory of the killed process."""

from __future__ import annotations

import glob
import os
import time
from typing import Any, List

import pytest

from tests._helpers import group_aggregate_job
from tests._helpers.files import log_ids
from tests.integration.drivers.killable import KillableDriver

DRIVER = group_aggregate_job.__file__

#: What PyFlink 1.20.5 prints for the rows of both files read in one run (recorded).
FLINK = ["+I[a, 1, 1]", "+I[b, 1, 2]", "-U[a, 1, 1]", "+U[a, 2, 4]",
         "-U[a, 2, 4]", "+U[a, 3, 14]", "+I[c, 1, 5]"]


def _printed(driver: KillableDriver) -> List[str]:
    return [line for line in driver.log.read_text().splitlines() if line[:3] in ("+I[", "-U[", "+U[")]


def _of_key(changes: List[str], key: str) -> List[str]:
    return [c for c in changes if c[3:].startswith(key + ",")]


def _run_until(base: Any, run: int, lines: int) -> List[str]:
    """Start the driver, wait until it printed ``lines`` changes and committed the batch that
    holds them, then SIGKILL it; the changes it printed."""
    driver = KillableDriver(base, run, "group", driver=DRIVER)
    driver.wait_started()
    deadline = time.monotonic() + 240
    while True:
        commits = [i for d in glob.glob(str(base / "cp" / "**" / "commits"), recursive=True)
                   for i in log_ids(os.path.dirname(d), "commits")]
        if len(_printed(driver)) >= lines and commits:
            committed = max(commits)
            # the commit of the printed batch: a batch commits after its sink returned
            if run == 0 or committed >= 1:
                break
        if not driver.alive() or time.monotonic() > deadline:
            pytest.fail("the driver did not print {} changes:\n{}".format(lines, driver.output()))
        time.sleep(0.05)
    driver.kill_group()
    return _printed(driver)


@pytest.mark.slow
def test_a_key_seen_before_a_driver_kill_changes_with_minus_u_and_plus_u_after_the_restart(tmp_path: Any) -> None:
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "part-0.csv").write_text("a,1\nb,2\na,3\n")
    before = _run_until(tmp_path, 0, 4)
    (tmp_path / "in" / "part-1.csv").write_text("a,10\nc,5\n")
    after = _run_until(tmp_path, 1, 3)
    assert sorted(before + after) == sorted(FLINK)
    # each key's changes in Flink's order (Spark's micro-batch groups the keys in its own order)
    for key in "abc":
        assert _of_key(before + after, key) == _of_key(FLINK, key)
    assert _of_key(after, "a") == ["-U[a, 2, 4]", "+U[a, 3, 14]"]
