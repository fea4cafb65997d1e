"""A stop-with-savepoint that comes while a micro-batch runs: a registered divergence.

Flink drains the records in flight into the savepoint, so each record is handled once, before
the stop. Here the running micro-batch is interrupted and not committed: the savepoint holds
the batch before it, and the job restored from it handles that batch's records again.
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any, List

import pytest

from pyflink_compat.common import Duration, JobStatus, WatermarkStrategy
from pyflink_compat.datastream.connectors.file_system import FileSource, StreamFormat

from tests._helpers.savepoint_runs import use_storage
from tests._helpers.waiting import wait_until

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def _registered(step: str) -> bool:
    from pyflink_compat.divergences import RUNTIME_DIVERGENCES

    return step in [s for d in RUNTIME_DIVERGENCES for s in d.steps]


def _handle(log: str, marker: str, line: str) -> str:
    """Note ``line`` as handled; the first time ``slow`` comes, stay in the batch a while."""
    with open(log, "a") as out:
        out.write(line + "\n")
    if line == "slow" and not os.path.exists(marker):
        open(marker, "w").close()
        time.sleep(120)
    return line


def _handled(log: Path) -> List[str]:
    return log.read_text().splitlines() if log.exists() else []


def _start(env: Any, base: Path, name: str) -> Any:
    use_storage(env, base / name)
    env.set_parallelism(1)
    log, marker = str(base / "handled.txt"), str(base / "slept")
    source = FileSource.for_record_stream_format(StreamFormat.text_line_format(), str(base / "in")) \
        .monitor_continuously(Duration.of_millis(100)).build()
    env.from_source(source, WatermarkStrategy.no_watermarks(), "lines") \
        .map(lambda line: _handle(log, marker, line)) \
        .print()
    return env.execute_async("stop-during-batch")


def test_a_batch_running_at_stop_with_savepoint_is_handled_again_by_the_restored_job_a_registered_divergence(
        envs: Any, tmp_path: Path) -> None:
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "1.txt").write_text("first\n")
    client = _start(envs(), tmp_path, "run-1")
    log = tmp_path / "handled.txt"
    wait_until(lambda: _handled(log) == ["first"], timeout=120, what="the first batch")
    wait_until(lambda: (tmp_path / "run-1").exists(), timeout=60, what="a checkpoint")
    time.sleep(1)  # the first batch committed
    (tmp_path / "in" / "2.txt").write_text("slow\n")
    wait_until(lambda: (tmp_path / "slept").exists(), timeout=120, what="the slow batch")
    started = time.monotonic()
    savepoint = client.stop_with_savepoint(False, str(tmp_path / "sp")).result(100)
    assert time.monotonic() - started < 100  # the batch was interrupted, not waited for
    assert client.get_job_status().result() is JobStatus.FINISHED

    restored = _start(envs({"execution.state-recovery.path": savepoint}), tmp_path, "run-2")
    try:
        wait_until(lambda: _handled(log).count("slow") == 2, timeout=120, what="the slow batch again")
    finally:
        restored.cancel().result(60)
    # Flink: ["first", "slow"], the slow record drained into the savepoint's side of the stop
    assert _handled(log) == ["first", "slow", "slow"]
    assert _registered("savepoints/stop-interrupts-running-batch")
