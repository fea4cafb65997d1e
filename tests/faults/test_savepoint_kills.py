"""Drivers SIGKILLed while they take savepoints: what is left behind is either a savepoint that
verifies and restores exactly once, or an incomplete one that fails ``verify``, is listed as
incomplete, is never restored and is disposed of with ``force``; the job's own checkpoints
resume either way.

Each state a kill can leave is built directly (no timing involved), and a driver is also killed
at seeded random points while it takes savepoints.
"""

from __future__ import annotations

import collections
import json
import os
import random
import time
from typing import Any, Dict

import pytest

from pyflink_compat.checkpoints import CheckpointFileError, dispose_savepoint, list_storage, restore_query, verify
from pyflink_compat.checkpoints.manifest import IN_PROGRESS_NAME
from pyflink_compat.cli import main as cli_main
from tests._helpers.files import log_ids, write_json_files
from tests.integration.drivers.killable import JOB, KillableDriver

SEED = int(os.environ.get("PYFLINK_COMPAT_FAULT_SEED", "20261126"))
N_FILES = 30
ROWS_PER_FILE = 3


#: A savepoint's name, as the writer makes it.
_NAME = "savepoint-0a1b2c-0123456789ab"


def _killed_before_the_rename(target: Any) -> Any:
    """Killed between making the hidden directory and writing the in-progress file into it."""
    path = target / ("." + _NAME)
    path.mkdir(parents=True)
    return path


def _killed_after_the_in_progress_file(target: Any) -> Any:
    """Killed after the in-progress file, before the rename."""
    path = _killed_before_the_rename(target)
    (path / IN_PROGRESS_NAME).write_text("{}")
    return path


def _killed_while_copying(target: Any) -> Any:
    """Renamed into place, killed half-way through copying a query."""
    path = target / _NAME
    (path / "counts" / "offsets").mkdir(parents=True)
    (path / IN_PROGRESS_NAME).write_text("{}")
    (path / "counts" / "metadata").write_text("{}")
    return path


def _left_empty(target: Any) -> Any:
    """An empty savepoint directory, as a writer that made the directory before its
    in-progress file left it."""
    path = target / _NAME
    path.mkdir(parents=True)
    return path


@pytest.mark.parametrize("kill", [_killed_before_the_rename, _killed_after_the_in_progress_file,
                                  _killed_while_copying, _left_empty])
def test_what_a_killed_savepoint_writer_leaves_is_reported_as_an_incomplete_savepoint(
        tmp_path: Any, capsys: Any, kill: Any) -> None:
    target = tmp_path / "sp"
    path = kill(target)
    report = verify(str(path))
    assert report["kind"] == "incomplete savepoint" and not report["ok"], report
    listing = list_storage(str(target))
    assert listing["incomplete_savepoints"] == [str(path)] and listing["savepoints"] == []
    with pytest.raises(CheckpointFileError, match="incomplete savepoint"):
        restore_query(str(path), str(tmp_path / "never"))
    assert not os.path.exists(tmp_path / "never")
    capsys.readouterr()
    assert cli_main(["checkpoints", "verify", str(path)]) == 1
    assert "incomplete savepoint" in capsys.readouterr().out
    with pytest.raises(CheckpointFileError, match="incomplete savepoint"):
        dispose_savepoint(str(path))
    dispose_savepoint(str(path), force=True)
    assert not os.path.exists(path) and os.listdir(target) == []


def test_an_empty_directory_not_named_as_a_savepoint_is_not_taken_for_one(tmp_path: Any) -> None:
    (tmp_path / "empty").mkdir()
    with pytest.raises(CheckpointFileError, match="neither a savepoint"):
        verify(str(tmp_path / "empty"))


def _expected(base: Any) -> Dict[str, int]:
    counts: Dict[str, int] = collections.Counter()
    for name in os.listdir(base / "in"):
        with open(base / "in" / name) as stream:
            counts.update(json.loads(line)["key"] for line in stream if line.strip())
    return dict(counts)


def _restored_counts(spark: Any, base: Any, savepoint: str, name: str) -> Dict[str, int]:
    """Restore the savepoint's query into a fresh location and count the whole input from it."""
    restored = restore_query(savepoint, str(base / ("restored-" + name)))
    frame = spark.readStream.schema("id LONG, key STRING").json(str(base / "in"))
    query = (frame.groupBy("key").count().writeStream.outputMode("complete").format("memory")
             .queryName(name).option("checkpointLocation", restored.location).start())
    try:
        query.processAllAvailable()
        assert query.exception() is None
        return {row["key"]: row["count"] for row in spark.sql("SELECT * FROM " + name).collect()}
    finally:
        query.stop()


def _judge(spark: Any, base: Any, directory: Any, label: str) -> Dict[str, int]:
    """Every savepoint directory left: intact ones verify (the newest is restored, and counts
    every row once), the others are refused."""
    seen = {"intact": 0, "incomplete": 0}
    intact = []
    for name in sorted(os.listdir(directory)) if os.path.isdir(directory) else []:
        path = str(directory / name)
        report = verify(path)
        if report["ok"]:
            seen["intact"] += 1
            intact.append((os.path.getmtime(os.path.join(path, "_metadata")), path))
        else:
            seen["incomplete"] += 1
            assert report["kind"] == "incomplete savepoint", report
            with pytest.raises(CheckpointFileError, match="incomplete savepoint"):
                restore_query(path, str(base / "never"))
            assert not os.path.exists(base / "never")
            dispose_savepoint(path, force=True)
            assert not os.path.exists(path)
    if intact:
        assert _restored_counts(spark, base, max(intact)[1], label) == _expected(base)
    return seen


def _final_counts(base: Any) -> Dict[str, int]:
    """The counts the job's update-mode sink wrote: each key's count in the newest batch that
    updated it."""
    latest: Dict[str, int] = {}
    for batch in sorted(int(n.split("=")[1].split(".")[0]) for n in os.listdir(base / "out" / "counts")
                        if n.endswith(".json")):
        with open(base / "out" / "counts" / "batch_id={}.json".format(batch)) as stream:
            latest.update({row["key"]: row["count"] for row in json.load(stream)})
    return latest


def _kill_when(driver: KillableDriver, line: str, delay: float) -> None:
    deadline = time.monotonic() + 120
    while line not in driver.log.read_text():
        if not driver.alive() or time.monotonic() > deadline:
            pytest.fail("the driver did not print {}:\n{}".format(line, driver.output()))
        time.sleep(0.01)
    time.sleep(delay)
    if driver.alive():
        driver.kill_group()


def test_a_driver_killed_while_taking_savepoints_leaves_only_restorable_or_refused_savepoints(
        spark: Any, tmp_path: Any) -> None:
    rng = random.Random(SEED)
    seen: Dict[str, int] = collections.Counter()
    # once while it triggers savepoints one after the other, once while it stops with one
    for what in ("savepoints", "stop"):
        base = tmp_path / what
        write_json_files(base / "in", N_FILES, ROWS_PER_FILE)
        driver = KillableDriver(base, 0, "stateful", what, str(base / "sp"))
        driver.wait_started()
        _kill_when(driver, "SAVEPOINT" if what == "savepoints" else "STOPPING", rng.uniform(0.0, 0.4))
        seen.update(_judge(spark, base, base / "sp", what))
        # the job's own checkpoints were never touched: a plain run resumes them to the end,
        # and every row is counted once
        assert log_ids(base / "cp" / JOB / "counts", "commits")
        KillableDriver(base, 1, "stateful").finish()
        assert _final_counts(base) == _expected(base)
    print("savepoint kills: {} savepoints intact (the newest of each kill restored exactly once), {} incomplete "
          "and refused".format(seen["intact"], seen["incomplete"]))
    assert seen["intact"] + seen["incomplete"] > 0
