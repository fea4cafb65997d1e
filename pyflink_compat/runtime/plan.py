"""Builds the Spark plan of a DataStream job's graph: one streaming DataFrame per sink.

Every stream is a DataFrame of ``v`` (the record, pickled), ``ts`` (its event-time timestamp
in milliseconds, or null), ``seq`` (its place in arrival order) and ``k`` (its key, pickled,
after ``key_by``). A bounded collection is a file source read once
(:func:`pyflink_compat.spark.bounded_sources.as_stream`), ending with one end-of-input record
(null ``v``, the greatest timestamp) whose watermark fires every pending event-time timer; a
large one that only per-record operators and running reduces read goes to a sink in
micro-batches that grow (:func:`reads_in_batches`), so that its first records arrive early.
Runs of per-record operators become one ``mapInArrow`` (Arrow batches on Python workers, in
each partition's arrival order); a keyed function becomes ``groupBy(k).transformWithState``
with :class:`~pyflink_compat.runtime.keyed.KeyedProcessor`. Sinks are ``foreachBatch``
writers, registered with the environment so that the checkpoint configuration applies.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Iterator, List, Optional, Tuple

from pyflink_compat.runtime import worker_output
from pyflink_compat.runtime.graph import CHAIN, KEY_BY, KEYED, SIDE, SOURCE, UNION, Node
from pyflink_compat.runtime.record_operators import apply_values, open_all
from pyflink_compat.runtime.records import (
    SIDE_PREFIX, arrow_schema, conform, dumps, loads, side_key)

if TYPE_CHECKING:
    from pyspark.sql import DataFrame, SparkSession

__all__ = ["RECORD_SCHEMA", "frame_of", "needs_keyed_state", "check_spark_supports", "end_of_input"]

RECORD_SCHEMA = "v binary, ts bigint, seq array<bigint>, k binary"


def check_spark_supports(api: str) -> None:
    """Fail at the call when the installed pyspark has no ``transformWithState`` (Spark 4)."""
    from pyspark.sql import GroupedData

    if not hasattr(GroupedData, "transformWithState"):
        import pyspark

        raise RuntimeError(
            "%s needs Spark 4.1 or later (GroupedData.transformWithState), which runs Flink's keyed "
            "functions with their state and timers; the installed pyspark is %s."
            % (api, pyspark.__version__))


def needs_keyed_state(node: Node) -> bool:
    """Whether the plan of ``node`` holds a keyed function (so Spark's state store), its own or
    one of a stream that a table source read (``op.keyed_state``)."""
    return any(n.kind == KEYED or getattr(n.op, "keyed_state", False) for n in node.ancestors())


def frame_of(node: Node, spark: "SparkSession", sink: bool = False) -> "DataFrame":
    """The streaming DataFrame of the records of ``node``.

    The records an operator sends to side outputs travel with its own, marked in the key
    column (:func:`~pyflink_compat.runtime.records.side_key`); they are left out here and
    read by a :data:`~pyflink_compat.runtime.graph.SIDE` node.

    :param sink: Whether the records go to a DataStream sink: then a large collection is read
        in micro-batches that grow (:func:`reads_in_batches`).
    """
    return _frame_of(node, spark, sink and reads_in_batches(node))


def reads_in_batches(node: Node) -> bool:
    """Whether the collection that the records of ``node`` come from can be read in several
    micro-batches without changing a record: one collection, no event time (a watermark
    between two batches would fire timers and drop records that one batch keeps) and no keyed
    function but running reduces (whose outputs are the same however the input is cut)."""
    nodes = node.ancestors()
    sources = [n for n in nodes if n.kind == SOURCE]
    return len(sources) == 1 and not hasattr(sources[0].op, "frame") and not node.has_event_time() \
        and all(n.kind != UNION for n in nodes) \
        and all(not n.op[1] for n in nodes if n.kind == KEYED) \
        and all(n.op[0] not in ("input", "replicate") for n in nodes if n.kind == CHAIN)


def _frame_of(node: Node, spark: "SparkSession", in_batches: bool) -> "DataFrame":
    from pyspark.sql import functions as F

    from pyflink_compat.runtime.records import send_job_modules_by_value

    send_job_modules_by_value()
    if node.kind == SIDE:
        tag = node.op
        return _frame(node.parents[0], spark, in_batches) \
            .where(F.col("k") == F.lit(side_key(tag.tag_id))) \
            .withColumn("k", F.lit(None).cast("binary"))
    frame = _frame(node, spark, in_batches)
    if node.kind != SOURCE and _may_side(node):
        frame = frame.where(F.col("k").isNull()
                            | (F.substring("k", 1, len(SIDE_PREFIX)) != F.lit(SIDE_PREFIX)))
    return frame


def _may_side(node: Node) -> bool:
    """Whether records of side outputs can reach ``node``'s frame."""
    return any(n.kind == KEYED or (n.kind == CHAIN and n.op[0] == "process") for n in node.ancestors())


def _frame(node: Node, spark: "SparkSession", in_batches: bool = False) -> "DataFrame":
    if node.kind == SIDE:
        return _frame_of(node, spark, in_batches)
    if node.kind == SOURCE:
        return _source(node, spark, in_batches)
    if node.kind == UNION:
        frames = [_frame_of(parent, spark, in_batches) for parent in node.parents]
        result = frames[0]
        for frame in frames[1:]:
            result = result.unionByName(frame)
        return result
    if node.kind in (CHAIN, KEY_BY):
        run: List[Node] = []
        current = node
        while current.kind in (CHAIN, KEY_BY):
            run.append(current)
            current = current.parents[0]
        run.reverse()
        ops = [(n.kind if n.kind == KEY_BY else n.op[0],
                n.op if n.kind == KEY_BY else n.op[1], n.output_type) for n in run]
        if current.kind == KEYED and all(op[0] not in (KEY_BY, "input", "replicate") for op in ops):
            # run by the keyed function's processor on each of its outputs: no worker of their
            # own, no trip of the records through Spark between the two
            return _keyed(current, spark, in_batches, dumps(ops))
        return _frame_of(current, spark, in_batches).mapInArrow(
            _chain(dumps(ops), worker_output.directory()), RECORD_SCHEMA)
    if node.kind == KEYED:
        return _keyed(node, spark, in_batches)
    raise ValueError("Unknown operator kind %r" % node.kind)


#: The records of the first micro-batch of a collection read in several
#: (:func:`reads_in_batches`); each later one holds twice as many as the one before, so that
#: the first records reach the sinks after a short batch and the batches stay few.
FIRST_BATCH_RECORDS = 256


def _source(node: Node, spark: "SparkSession", in_batches: bool = False) -> "DataFrame":
    import pyarrow as pa  # type: ignore[import-untyped]

    from pyflink_compat.runtime.records import END_TIMESTAMP
    from pyflink_compat.spark.bounded_sources import arrow_as_stream

    if hasattr(node.op, "frame"):  # a connector's reader (files, Kafka) or a source of its own DataFrame
        return node.op.frame(spark)
    values, type_info = node.op
    count = len(values)
    # Written as Arrow from the driver: a Spark job writing them would cost more than the
    # collection's own records at the start of the job.
    table = pa.table([pa.array([dumps(conform(v, type_info)) for v in values] + [None], pa.binary()),
                      pa.array([None] * count + [END_TIMESTAMP], pa.int64()),
                      pa.array([[i] for i in range(count + 1)], pa.list_(pa.int64())),
                      pa.nulls(count + 1, pa.binary())], schema=arrow_schema())
    return arrow_as_stream(spark, table, RECORD_SCHEMA, FIRST_BATCH_RECORDS if in_batches else None)


def end_of_input(spark: "SparkSession") -> "DataFrame":
    """The end-of-input record alone, as a stream read once: a bounded connector source
    ends with it."""
    import pyarrow as pa

    from pyflink_compat.runtime.records import END_TIMESTAMP
    from pyflink_compat.runtime.records import END_SEQ
    from pyflink_compat.spark.bounded_sources import arrow_as_stream

    table = pa.table([pa.nulls(1, pa.binary()), pa.array([END_TIMESTAMP], pa.int64()),
                      pa.array([[END_SEQ]], pa.list_(pa.int64())), pa.nulls(1, pa.binary())],
                     schema=arrow_schema())
    return arrow_as_stream(spark, table, RECORD_SCHEMA)


def _keyed(node: Node, spark: "SparkSession", in_batches: bool = False,
           then_bytes: Optional[bytes] = None) -> "DataFrame":
    from pyspark.sql import functions as F

    from pyflink_compat.runtime.keyed import KeyedProcessor

    parent = node.parents[0]
    frame = _frame_of(parent, spark, in_batches)
    event_time = node.op[1]
    # Flink's watermark is the greatest timestamp less the out-of-orderness less 1 ms;
    # Spark's has no such millisecond.
    delay = node.watermark_delay_ms() + 1
    partitions = int(spark.conf.get("spark.sql.shuffle.partitions") or "1")
    processor = KeyedProcessor(dumps(node.op[0]), event_time, delay, node.name, partitions,
                               worker_output.directory(), then_bytes)
    if event_time:
        # The watermark's column is dropped again: Spark drops the rows behind the watermark
        # of a column the stateful operator reads, and Flink hands late records to the
        # keyed function (only windows drop them, which they do themselves).
        frame = frame.withColumn("et", F.timestamp_millis("ts")) \
            .withWatermark("et", "%d milliseconds" % delay).drop("et")
        mode = "EventTime"
    else:
        mode = "None"
    # The key and record columns only: the processor reads them by name.
    return frame.groupBy("k").transformWithState(processor, RECORD_SCHEMA, "Append", mode)


def _chain(ops_bytes: bytes, output_directory: Optional[str] = None) -> Callable[[Iterator[Any]], Iterator[Any]]:
    """The ``mapInArrow`` function of a run of per-record operators (what the functions print
    goes to ``output_directory``, :mod:`~pyflink_compat.runtime.worker_output`)."""

    def run(batches: Iterator[Any]) -> Iterator[Any]:
        return worker_output.printing_to(output_directory, run_ops(batches))

    def run_ops(batches: Iterator[Any]) -> Iterator[Any]:
        import pyarrow as pa

        from pyflink_compat.runtime.plan import apply_ops

        ops = loads(ops_bytes)
        functions = [op[1] for op in ops]
        opened = open_all(functions)
        schema = arrow_schema()
        try:
            for batch in batches:
                columns = batch.to_pydict()
                out: Tuple[List[Any], ...] = ([], [], [], [])
                for record in zip(columns["v"], columns["ts"], columns["seq"], columns["k"]):
                    for v, ts, seq, k in apply_ops(ops, record):
                        out[0].append(v)
                        out[1].append(ts)
                        out[2].append(seq)
                        out[3].append(k)
                yield pa.RecordBatch.from_arrays([pa.array(c, type=f.type) for c, f in zip(out, schema)],
                                                 schema=schema)
        finally:
            for function in opened:
                function.close()

    return run


def apply_ops(ops: List[Tuple[str, Any, Any]], record: Tuple[Any, Any, Any, Any]) \
        -> Iterator[Tuple[Any, Any, Any, Any]]:
    """The records that one input record becomes through a run of per-record operators."""
    v, ts, seq, k = record
    if v is None:  # the end of a bounded input passes every operator unchanged
        from pyflink_compat.runtime.records import END_KEY

        yield v, ts, seq, (END_KEY if any(op[0] in (KEY_BY, "replicate") for op in ops) else k)
        return
    for value, out_ts, out_seq, out_k in apply_values(ops, loads(v), ts, list(seq), k):
        yield dumps(value), out_ts, out_seq, out_k


