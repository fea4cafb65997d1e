"""Savepoints of a keyed DataStream job (``KeyedProcessFunction`` with ``ValueState``,
``MapState`` and event-time timers in Spark's ``transformWithState``): stopped with a savepoint
and restored, it continues its keyed state (each key's count goes on, the timers pending at the
savepoint fire after the restore); restored at another parallelism, its state is repartitioned
and kept, also through a savepoint taken before the rescaled run's first batch and restored at
a third parallelism; ``pyflink-compat checkpoints state`` shows the state by the job's
descriptor names.

The job is :mod:`tests._helpers.keyed_job`; what it must emit is computed there from the input
alone, so the outputs before and after the restore together are checked exactly once.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Dict, List

import pyspark
import pytest

from pyflink_compat.cli import main as cli_main

from tests._helpers import keyed_job
from tests._helpers.files import digest
from tests._helpers.savepoint_runs import run_restored, stopped_with_savepoint

pytestmark = [
    pytest.mark.filterwarnings("ignore::DeprecationWarning"),
    # keyed functions run in transformWithState, which pyspark has from 4.1 (3.5 refuses them
    # at the call: tests/datastream/test_spark_versions.py)
    pytest.mark.skipif(tuple(int(p) for p in pyspark.__version__.split(".")[:2]) < (4, 1),
                       reason="keyed DataStream functions need Spark 4.1 or later"),
]

ROWS_PER_FILE = 10


def _stopped_with_savepoint(envs: Any, base: Any) -> Dict[str, Any]:
    """The keyed job over three files, stopped with a savepoint once it committed two batches;
    then two more files are written."""
    ids = keyed_job.write_inputs(base / "in", 3, ROWS_PER_FILE)
    savepoint, before = stopped_with_savepoint(envs, keyed_job, base)
    ids += keyed_job.write_inputs(base / "in", 2, ROWS_PER_FILE, start_file=3)
    return {"savepoint": savepoint, "ids": ids, "before": before, "digest": digest(savepoint)}


def _check_continued(saved: Dict[str, Any], after: List[Any]) -> None:
    before = saved["before"]
    assert before and after
    # exactly once over both runs: the counts went on, the buckets were complete when they fired
    assert sorted(before + after) == keyed_job.expected_outputs(saved["ids"])
    # state crossed the savepoint: every key's first count after it continues the count before it
    for key in ("k0", "k1", "k2"):
        last = max(o[3] for o in before if o[0] == "element" and o[1] == key)
        first = min(o[3] for o in after if o[0] == "element" and o[1] == key)
        assert first == last + 1
    # a timer registered before the savepoint fired after it, with the ids added before it
    read_before = {o[2] for o in before if o[0] == "element"}
    assert any(o[0] == "timer" and any(keyed_job.bucket_end(keyed_job.event_time(i)) == o[2] for i in read_before)
               for o in after)


def test_a_keyed_job_stopped_with_a_savepoint_continues_its_counts_and_pending_timers_after_restore(
        envs: Any, tmp_path: Any) -> None:
    saved = _stopped_with_savepoint(envs, tmp_path)
    after = run_restored(envs, keyed_job, tmp_path, saved["savepoint"], "restored")
    _check_continued(saved, after)
    assert digest(saved["savepoint"]) == saved["digest"]


def test_a_keyed_savepoint_restored_at_another_parallelism_keeps_its_keyed_state_and_shows_it(
        envs: Any, tmp_path: Any, capsys: Any) -> None:
    import pyspark

    if tuple(int(p) for p in pyspark.__version__.split(".")[:2]) < (4, 2):
        pytest.skip("offline state repartition needs Spark 4.2+")
    saved = _stopped_with_savepoint(envs, tmp_path)
    after = run_restored(envs, keyed_job, tmp_path, saved["savepoint"], "rescaled", parallelism=3)
    _check_continued(saved, after)
    state = tmp_path / "rescaled" / keyed_job.JOB_NAME / "datastream" / "state" / "0"
    assert sorted(p.name for p in state.iterdir() if p.name.isdigit()) == ["0", "1", "2"]
    assert digest(saved["savepoint"]) == saved["digest"]
    _check_state_shown(tmp_path / "rescaled" / keyed_job.JOB_NAME / "datastream", saved["ids"], capsys)


def test_keyed_state_goes_on_through_a_savepoint_taken_before_the_first_batch_of_a_rescaled_restore(
        envs: Any, tmp_path: Any, capsys: Any) -> None:
    from pyflink_compat.checkpoints import write_savepoint

    if tuple(int(p) for p in pyspark.__version__.split(".")[:2]) < (4, 2):
        pytest.skip("offline state repartition needs Spark 4.2+")
    ids = keyed_job.write_inputs(tmp_path / "in", 2, ROWS_PER_FILE)
    first, before = stopped_with_savepoint(envs, keyed_job, tmp_path, parallelism=2)
    first_digest = digest(first)
    # restored at 3 with nothing new to read: the run ends before its first batch, and a
    # savepoint of its checkpoints (the state rescaled to 3 partitions) is taken then
    assert run_restored(envs, keyed_job, tmp_path, first, "middle", parallelism=3) == []
    second = write_savepoint(str(tmp_path / "middle" / keyed_job.JOB_NAME), str(tmp_path / "sp2"))
    second_digest = digest(second)
    # the second savepoint holds every key's count, in the 3 partitions
    counts = _state(second, capsys, "--state-var", "count")["rows"]
    assert sorted((r["key"], r["value"]) for r in counts) == [
        ("k{}".format(k), len([i for i in ids if i % 3 == k])) for k in range(3)]
    state = Path(second) / "datastream" / "state" / "0"
    assert sorted(p.name for p in state.iterdir() if p.name.isdigit()) == ["0", "1", "2"]
    ids += keyed_job.write_inputs(tmp_path / "in", 2, ROWS_PER_FILE, start_file=2)
    after = run_restored(envs, keyed_job, tmp_path, second, "down", parallelism=1)
    # every key's count and pending timers go on from the first run, each output once
    _check_continued({"before": before, "ids": ids}, after)
    # NO_CLAIM: neither savepoint changed
    assert digest(first) == first_digest
    assert digest(second) == second_digest


def _state(path: Any, capsys: Any, *extra: str) -> Dict[str, Any]:
    capsys.readouterr()
    code = cli_main(["checkpoints", "state", str(path), "--json"] + list(extra))
    out = capsys.readouterr().out
    assert code == 0, out
    return json.loads(out)


def _check_state_shown(path: Any, ids: List[int], capsys: Any) -> None:
    """``pyflink-compat checkpoints state`` shows the job's keyed state by descriptor name, as
    the job sees it: each key's count, the bucket still open and its pending timer."""
    count = _state(path, capsys, "--state-var", "count")
    assert count["keyed_state"] == ["buckets", "count", "timers"]
    assert sorted((r["key"], r["value"]) for r in count["rows"]) == [
        ("k{}".format(k), len([i for i in ids if i % 3 == k])) for k in range(3)]
    watermark = keyed_job.event_time(max(ids)) - keyed_job.DELAY_MS
    open_buckets = sorted(("k{}".format(k), end, sum(i for i in ids if i % 3 == k and keyed_job.bucket_end(
        keyed_job.event_time(i)) == end)) for k in range(3)
        for end in {keyed_job.bucket_end(keyed_job.event_time(i)) for i in ids if i % 3 == k} if end > watermark)
    buckets = _state(path, capsys, "--state-var", "buckets")
    assert sorted((r["key"], r["value"]["user_key"], r["value"]["value"]) for r in buckets["rows"]) == open_buckets
    timers = _state(path, capsys, "--state-var", "timers")
    assert sorted((r["key"], r["value"]) for r in timers["rows"]) == [(k, end) for k, end, _ in open_buckets]
