"""An updating group aggregation printed with its row kinds, its driver SIGKILLed after a
checkpoint and started again from it: a key seen before the kill changes with ``-U`` (its row
before) and ``+U`` (its new row), as in an uninterrupted Flink run, since the row kinds come
from the aggregation's state and not from the memory of the killed process."""

from __future__ import annotations

import glob
import os
import time
from typing import Any, Dict, List, Tuple

import pytest

from tests._helpers import group_aggregate_job
from tests._helpers.files import log_ids
from tests.integration.drivers.killable import KillableDriver

DRIVER = group_aggregate_job.__file__

#: What PyFlink 1.20.5 prints for the rows of both files read in one run (recorded).
FLINK = ["+I[a, 1, 1]", "+I[b, 1, 2]", "-U[a, 1, 1]", "+U[a, 2, 4]",
         "-U[a, 2, 4]", "+U[a, 3, 14]", "+I[c, 1, 5]"]


HAVING = "having> "


def _printed(driver: KillableDriver, prefix: str = "") -> List[str]:
    return [line[len(prefix):] for line in driver.log.read_text().splitlines()
            if line.startswith(prefix) and line[len(prefix):][:3] in ("+I[", "-U[", "+U[")]


def _of_key(changes: List[str], key: str) -> List[str]:
    return [c for c in changes if c[3:].startswith(key + ",")]


def _commits(base: Any) -> Dict[str, int]:
    """The newest committed batch of each sink's query."""
    return {d: max(log_ids(os.path.dirname(d), "commits"), default=-1)
            for d in glob.glob(str(base / "cp" / "**" / "commits"), recursive=True)}


def _run_until_committed(base: Any, run: int) -> Tuple[List[str], List[str]]:
    """Start the driver, wait until both queries committed a new batch (a batch commits after
    its sink printed it), then SIGKILL it; the changes each printed."""
    before = _commits(base)
    driver = KillableDriver(base, run, "group", driver=DRIVER)
    driver.wait_started()
    deadline = time.monotonic() + 240
    while True:
        commits = _commits(base)
        if len(commits) == 2 and all(n > before.get(d, -1) for d, n in commits.items()):
            break
        if not driver.alive() or time.monotonic() > deadline:
            pytest.fail("the driver did not commit a new batch:\n" + driver.output())
        time.sleep(0.05)
    driver.kill_group()
    return _printed(driver), _printed(driver, HAVING)


@pytest.mark.slow
def test_a_key_seen_before_a_driver_kill_changes_with_minus_u_and_plus_u_after_the_restart(tmp_path: Any) -> None:
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "part-0.csv").write_text("a,1\nb,2\na,3\n")
    before, having_before = _run_until_committed(tmp_path, 0)
    (tmp_path / "in" / "part-1.csv").write_text("a,10\nc,5\n")
    after, having_after = _run_until_committed(tmp_path, 1)
    assert sorted(before + after) == sorted(FLINK)
    # each key's changes in Flink's order (Spark's micro-batch groups the keys in its own order)
    for key in "abc":
        assert _of_key(before + after, key) == _of_key(FLINK, key)
    assert _of_key(after, "a") == ["-U[a, 2, 4]", "+U[a, 3, 14]"]
    # divergence 'updates-per-micro-batch': Spark's own aggregation (SUM(v) + 0) gives a key's last
    # row per micro-batch, and after the restart a key written before is +I again, without -U
    assert sorted(having_before) == ["+I[a, 2, 4]", "+I[b, 1, 2]"]
    assert sorted(having_after) == ["+I[a, 3, 14]", "+I[c, 1, 5]"]
