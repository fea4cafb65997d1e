"""A batch that was planned but not committed (a stop in the middle of it) is kept and re-run."""

from __future__ import annotations

import json
import os
import shutil
from typing import Any, Dict

from pyflink_compat.checkpoints import restore_query, write_savepoint
from tests.savepoints._queries import output_batches, run_until_idle, start_rows


def test_a_savepoint_keeps_an_uncommitted_planned_batch_and_the_restore_runs_that_same_batch(
        spark: Any, saved_job: Dict[str, str], tmp_path: Any) -> None:
    # a copy of the stopped query as a stop during batch 1 leaves it: batch 1 planned, not committed
    interrupted = str(tmp_path / "job" / "rows")
    shutil.copytree(os.path.join(saved_job["job_dir"], "rows"), interrupted)
    os.unlink(os.path.join(interrupted, "commits", "1"))
    os.unlink(os.path.join(interrupted, "commits", ".1.crc"))
    savepoint = write_savepoint(interrupted, str(tmp_path / "savepoints"), "job")
    with open(os.path.join(savepoint, "_metadata")) as stream:
        (query,) = json.load(stream)["queries"]
    assert (query["batch_id"], query["planned_batch_id"]) == (0, 1)
    assert {"offsets/1", "sources/0/1"} <= {f["path"] for f in query["files"]}

    restored = restore_query(savepoint, str(tmp_path / "restored"))
    out = str(tmp_path / "out")
    query_handle = start_rows(spark, saved_job["input"], restored.location, out)
    try:
        run_until_idle(query_handle)
    finally:
        query_handle.stop()
    # batch 1 is re-run with exactly the input it was planned with (the second input file)
    assert output_batches(out)[1] == output_batches(saved_job["rows_out"])[1]
