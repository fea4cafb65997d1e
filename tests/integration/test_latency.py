"""Records reach the sinks within Flink-like latency while checkpoints keep Flink's interval;
the ``CHECKPOINT_INTERVAL`` trigger mode still runs one micro-batch per interval."""

from __future__ import annotations

import logging
import math
import statistics
import time
from typing import Any, Dict, List, Optional

from pyflink_compat.spark.supervisor import job_run

from tests._helpers.files import Arrivals, file_uri, log_ids, write_input
from tests._helpers.jobs import SCHEMA, FirstSeen
from tests._helpers.waiting import wait_until

#: Input files arrive this often (seconds).
PAUSE = 0.5


def _deliver(make_env: Any, tmp_path: Any, interval_ms: int, files: int,
             options: Optional[Dict[str, str]] = None, rows_per_file: int = 3) -> Any:
    """Run a job checkpointing every ``interval_ms`` over files arriving every :data:`PAUSE`
    seconds into a ``foreachBatch`` sink; return the sink, the write times and the client."""
    incoming = tmp_path / "in"
    incoming.mkdir()
    env = make_env(options)
    env.enable_checkpointing(interval_ms)
    env.get_checkpoint_config().set_checkpoint_storage_dir(file_uri(tmp_path / "cp"))
    sink = FirstSeen()
    stream = env.spark_session.readStream.schema(SCHEMA).json(str(incoming))
    env.add_sink(stream.writeStream.foreachBatch(sink), "events")
    client = env.execute_async("latency-job")
    run = job_run(client)
    # the first trigger compiles the query; arrivals start once it has run, as in a warm job
    wait_until(lambda: run.handles[0] is not None and run.handles[0].lastProgress is not None,
               what="the query's first trigger")
    written: Dict[str, float] = {}

    def write(n: int) -> None:
        name = "part-{:05d}.json".format(n)
        write_input(incoming, name, [{"id": n * rows_per_file + i, "key": "k"} for i in range(rows_per_file)])
        written[name] = time.time()

    with Arrivals(write, PAUSE):
        time.sleep(files * PAUSE)
    wait_until(lambda: set(written) <= set(sink.seen), timeout=interval_ms / 1000 + 30,
               what="every file delivered")
    # the sink sees a batch before Spark commits it: a cancel in between would leave its
    # records in no checkpoint, so wait for the commit of the last batch the sink saw
    last = max(sink.rows)
    wait_until(lambda: last in log_ids(tmp_path / "cp" / "latency-job" / "events", "commits"),
               what="the commit of batch {}".format(last))
    return sink, written, client


def _delays(sink: FirstSeen, written: Dict[str, float]) -> List[float]:
    return sorted(sink.seen[name] - at for name, at in written.items())


def test_with_a_60_s_interval_nine_in_ten_files_reach_the_sink_within_2_s(make_env, tmp_path):
    sink, written, client = _deliver(make_env, tmp_path, 60000, files=16)
    delays = _delays(sink, written)
    client.cancel().result(60)
    within = sum(1 for d in delays if d <= 2.0) / len(delays)
    p99 = delays[min(len(delays) - 1, math.ceil(0.99 * len(delays)) - 1)]
    print("delivery delay p50 {:.3f} s, p99 {:.3f} s, within 2 s {:.0%}".format(
        statistics.median(delays), p99, within))
    assert within >= 0.9, delays
    # one checkpoint is reported for the whole run (shorter than the interval), at the stop,
    # counting every record; its id is that of its last batch
    stats = client.get_checkpoint_statistics()
    assert len(stats) == 1 and stats[0].num_input_rows == sum(sink.rows.values())
    assert stats[0].checkpoint_id == max(sink.rows) + 1


def test_one_checkpoint_is_reported_per_interval_counting_every_batch_in_it(make_env, tmp_path):
    sink, written, client = _deliver(make_env, tmp_path, 1500, files=12)
    client.cancel().result(60)
    stats = client.get_checkpoint_statistics()
    batches = [b for b, rows in sink.rows.items() if rows]
    assert len(batches) > len(stats) >= 2  # several batches per checkpoint
    assert all(s.checkpoint_id == s.batch_id + 1 for s in stats)
    assert [s.batch_id for s in stats] == sorted(s.batch_id for s in stats)
    assert sum(s.num_input_rows for s in stats) == sum(sink.rows.values()) == 3 * len(written)
    ends = [s.trigger_timestamp + s.duration_ms for s in stats]
    assert all(later - earlier >= 1500 for earlier, later in zip(ends, ends[1:-1]))


def test_in_checkpoint_interval_mode_files_wait_for_the_batch_of_each_interval(make_env, tmp_path, caplog):
    with caplog.at_level(logging.WARNING, logger="pyflink_compat.job"):
        sink, written, client = _deliver(make_env, tmp_path, 3000, files=12,
                                         options={"compat.trigger.mode": "CHECKPOINT_INTERVAL"})
    client.cancel().result(60)
    # the job said at its start that its records may wait
    assert any("records may wait up to 3000 ms before they reach the sinks of 'events'" in r.getMessage()
               for r in caplog.records), [r.getMessage() for r in caplog.records]
    delays = _delays(sink, written)
    batches = [b for b, rows in sink.rows.items() if rows]
    # 6 s of arrivals at one batch per 3 s: a few batches, and files wait about half an interval
    assert len(batches) <= 4, sink.rows
    assert statistics.median(delays) >= 0.75, delays
    stats = client.get_checkpoint_statistics()
    assert all(s.checkpoint_id == s.batch_id + 1 for s in stats)
