"""A keyed DataStream job with ``ValueState``, ``MapState`` and event-time timers over an
unbounded stream of JSON files, and the records Flink's semantics give it, computed here
independently of any engine.

The job reads ``{"id": n, "key": "k<n % 3>"}`` records (as
:func:`~tests._helpers.files.write_json_files` writes them), one file per micro-batch; record
``n`` has the event time ``n`` seconds after :data:`EPOCH_MS`, and the watermark lags the greatest time seen by
:data:`DELAY_MS`. Per key, :class:`Buckets` counts the records (``ValueState``), adds each id to
the bucket of its 10-second window (``MapState``, by window end) and registers an event-time
timer at the window's end; the timer emits the bucket and removes it. Every output is a plain
tuple: ``("element", key, id, count)`` per record and ``("timer", key, end, sum)`` per fired
timer, so the expected outputs do not depend on how the input is cut into batches.

The job's sink writes each micro-batch's records to ``<out>/batch_id=<n>.json`` (replacing the
file when a batch runs again), through the job's supervised query.

Run as a program (``python tests/_helpers/keyed_job.py IN OUT CP keyed [options]``, the
arguments of :class:`~tests.integration.drivers.killable.KillableDriver`) it is the driver
that the fault and savepoint tests start, kill and restore; see :func:`main`.
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any, Dict, Iterator, List, Optional, Tuple

from pyflink_compat.datastream.functions import KeyedProcessFunction, RuntimeContext

#: The watermark's lag behind the greatest event time seen.
DELAY_MS = 2000
#: The length of a bucket (its timer fires at its end).
BUCKET_MS = 10000
JOB_NAME = "keyed-job"


#: The event time of record 0 (2001-09-09): a watermark of Spark's starts above zero.
EPOCH_MS = 1000000000000


def event_time(record_id: int) -> int:
    return EPOCH_MS + record_id * 1000


def write_inputs(directory: Any, n_files: int, rows_per_file: int, start_file: int = 0) -> List[int]:
    """Write input files in order of their modification times (the file source reads the oldest
    first; files written within one clock tick would be read in any order, and records of a
    later file read first are late); return the ids written."""
    from tests._helpers.files import write_json_files

    ids = []
    for f in range(start_file, start_file + n_files):
        ids += [r["id"] for r in write_json_files(directory, 1, rows_per_file, start_file=f)]
        path = os.path.join(str(directory), "part-{:05d}.json".format(f))
        os.utime(path, (1700000000 + f, 1700000000 + f))
    return ids


def bucket_end(timestamp: int) -> int:
    return (timestamp // BUCKET_MS + 1) * BUCKET_MS


class Buckets(KeyedProcessFunction):
    """Counts each key's records and sums their ids per 10-second bucket, emitted by a timer."""

    def open(self, runtime_context: RuntimeContext) -> None:
        from pyflink_compat.common import Types
        from pyflink_compat.datastream.state import MapStateDescriptor, ValueStateDescriptor

        self.count = runtime_context.get_state(ValueStateDescriptor("count", Types.LONG()))
        self.buckets = runtime_context.get_map_state(
            MapStateDescriptor("buckets", Types.LONG(), Types.LONG()))

    def process_element(self, value: Any, ctx: Any) -> Iterator[Tuple[Any, ...]]:
        key, record_id = value
        count = (self.count.value() or 0) + 1
        self.count.update(count)
        end = bucket_end(ctx.timestamp())
        self.buckets.put(end, (self.buckets.get(end) or 0) + record_id)
        ctx.timer_service().register_event_time_timer(end)
        yield ("element", key, record_id, count)

    def on_timer(self, timestamp: int, ctx: Any) -> Iterator[Tuple[Any, ...]]:
        total = self.buckets.get(timestamp)
        self.buckets.remove(timestamp)
        yield ("timer", ctx.get_current_key(), timestamp, total)


# -- the outputs Flink's semantics give ---------------------------------------------------------
def expected_outputs(ids: List[int], n_keys: int = 3, until: Optional[int] = None,
                     timers_fired_before: int = 0) -> List[Tuple[Any, ...]]:
    """What the job emits for the records ``ids`` (read in this order), sorted.

    :param ids: The ids of the records read.
    :param n_keys: The keys cycle over ``k0 .. k<n_keys-1>``.
    :param until: The greatest event time whose watermark the job has seen fire its timers
        (``None``: the watermark of the greatest time read, Flink's ``max - DELAY_MS - 1``).
    :param timers_fired_before: Leave out the timers at or before this time (already emitted).
    """
    outputs: List[Tuple[Any, ...]] = []
    counts: Dict[str, int] = {}
    buckets: Dict[Tuple[str, int], int] = {}
    for record_id in ids:
        key = "k{}".format(record_id % n_keys)
        counts[key] = counts.get(key, 0) + 1
        outputs.append(("element", key, record_id, counts[key]))
        end = bucket_end(event_time(record_id))
        buckets[(key, end)] = buckets.get((key, end), 0) + record_id
    watermark = (max(event_time(i) for i in ids) - DELAY_MS - 1) if until is None else until
    for (key, end), total in buckets.items():
        if timers_fired_before < end <= watermark:
            outputs.append(("timer", key, end, total))
    return sorted(outputs)


def read_outputs(out: Any) -> List[Tuple[Any, ...]]:
    """Every record the job's sink wrote (each batch file once), sorted."""
    found: List[Tuple[Any, ...]] = []
    if not os.path.isdir(str(out)):
        return found
    for name in os.listdir(str(out)):
        if name.startswith("batch_id=") and name.endswith(".json"):
            with open(os.path.join(str(out), name)) as stream:
                found.extend(tuple(record) for record in json.load(stream))
    return sorted(found)


# -- the job ------------------------------------------------------------------------------------
class JsonFilesSource(object):
    """The records of the JSON files in a directory, one file per micro-batch, as the job's
    source: ``(key, id)`` tuples in id order, no timestamp (the job assigns them)."""

    def __init__(self, directory: str):
        self.directory = directory

    def frame(self, spark: Any) -> Any:
        from pyflink_compat.runtime.plan import RECORD_SCHEMA

        rows = spark.readStream.schema("id LONG, key STRING").option("maxFilesPerTrigger", 1).json(self.directory)
        return rows.mapInArrow(_as_records, RECORD_SCHEMA)


def _as_records(batches: Iterator[Any]) -> Iterator[Any]:
    import pyarrow as pa  # type: ignore[import-untyped]

    from pyflink_compat.runtime.records import dumps

    for batch in batches:
        columns = batch.to_pydict()
        pairs = list(zip(columns["key"], columns["id"]))
        yield pa.RecordBatch.from_pydict(
            {"v": [dumps(p) for p in pairs], "ts": pa.array([None] * len(pairs), pa.int64()),
             "seq": [[i] for _, i in pairs], "k": pa.array([None] * len(pairs), pa.binary())})


class BatchFiles(object):
    """The job's sink: each micro-batch's records to ``<out>/batch_id=<n>.json``, replaced when
    a batch runs again (an idempotent, so exactly-once, file sink)."""

    def __init__(self, out: str):
        self.out = out

    def __call__(self, rows: List[Any], batch_id: int) -> None:
        from pyflink_compat.runtime.sinks import ordered_values

        os.makedirs(self.out, exist_ok=True)
        target = os.path.join(self.out, "batch_id={}.json".format(batch_id))
        with open(target + ".tmp", "w") as stream:
            json.dump([list(v) for v in ordered_values(rows)], stream)
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(target + ".tmp", target)


def build(env: Any, input_dir: str, out: str) -> None:
    """Add the keyed job to ``env``: the JSON files of ``input_dir`` through :class:`Buckets`
    into :class:`BatchFiles` at ``out``."""
    from pyflink_compat.common import Duration, WatermarkStrategy
    from pyflink_compat.common.watermark_strategy import TimestampAssigner
    from pyflink_compat.datastream.data_stream import DataStream
    from pyflink_compat.runtime.graph import SOURCE, Node

    class Seconds(TimestampAssigner):
        def extract_timestamp(self, value: Any, record_timestamp: int) -> int:
            return event_time(value[1])

    source = DataStream(Node(env, SOURCE, (), JsonFilesSource(input_dir), None, name="JSON files"))
    stream = source.assign_timestamps_and_watermarks(
        WatermarkStrategy.for_bounded_out_of_orderness(Duration.of_millis(DELAY_MS))
        .with_timestamp_assigner(Seconds())) \
        .key_by(lambda v: v[0]) \
        .process(Buckets())
    env._add_datastream_sink(stream._frame(), BatchFiles(out), True)


def main(argv: List[str]) -> int:
    """``IN OUT CP keyed [stop SAVEPOINT_DIR] [restore PATH] [parallelism N]``: run the job over the
    files of ``IN`` (sink at ``OUT``, checkpoints retained under ``CP`` every 200 ms) until they
    are all read; ``stop`` stops it with a savepoint once it has committed two batches (printing
    ``STOPPED <path>``); ``restore`` starts it from a savepoint or checkpoint;
    ``parallelism`` sets ``env.set_parallelism``."""
    input_dir, out, checkpoint_dir = argv[1:4]
    options = dict(zip(argv[5::2], argv[6::2]))
    os.environ["PYSPARK_PYTHON"] = sys.executable
    os.environ["PYSPARK_DRIVER_PYTHON"] = sys.executable
    from pyspark.sql import SparkSession

    spark = (SparkSession.builder.master("local[2]").appName("pyflink_compat-keyed-driver")
             .config("spark.ui.enabled", "false").config("spark.sql.shuffle.partitions", "2")
             .config("spark.ui.showConsoleProgress", "false")
             .config("spark.driver.extraJavaOptions", "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC")
             .config("spark.local.dir", os.path.join(out + "-spark-local"))
             .getOrCreate())
    spark.sparkContext.setLogLevel("ERROR")

    from pyflink_compat.common import Configuration
    from pyflink_compat.datastream import (ExternalizedCheckpointRetention, FileSystemCheckpointStorage,
                                           StreamExecutionEnvironment)

    configuration = Configuration().set_string("restart-strategy.type", "none")
    if "restore" in options:
        configuration.set_string("execution.state-recovery.path", options["restore"])
    env = StreamExecutionEnvironment.get_execution_environment(configuration)
    if "parallelism" in options:
        env.set_parallelism(int(options["parallelism"]))
    env.enable_checkpointing(200)
    config = env.get_checkpoint_config()
    config.set_checkpoint_storage(FileSystemCheckpointStorage("file://" + os.path.abspath(checkpoint_dir)))
    config.set_externalized_checkpoint_retention(ExternalizedCheckpointRetention.RETAIN_ON_CANCELLATION)
    build(env, input_dir, out)
    print("STARTING", flush=True)
    if "stop" in options:
        import time

        client = env.execute_async(JOB_NAME)
        commits = os.path.join(checkpoint_dir, JOB_NAME, "datastream", "commits")
        while len([n for n in (os.listdir(commits) if os.path.isdir(commits) else []) if n.isdigit()]) < 2:
            time.sleep(0.02)
        print("STOPPED", client.stop_with_savepoint(False, options["stop"]).result(120), flush=True)
    else:
        env.execute(JOB_NAME)
    print("FINISHED", flush=True)
    spark.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
