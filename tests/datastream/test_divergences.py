"""The DataStream divergences of ``pyflink_compat.divergences``, observed on a running job, and
``execute_and_collect`` giving the records as live PyFlink 1.20.5 gave them."""

from __future__ import annotations

from typing import Any, List

import pytest

from pyflink_compat.divergences import DIVERGENCES, RUNTIME_DIVERGENCES



@pytest.fixture(scope="module")
def collected(spark: Any) -> List[Any]:
    """The rows the job collected, then the state store provider it ran with."""
    from pyflink_compat.common import Duration, Types, WatermarkStrategy
    from pyflink_compat.common.watermark_strategy import TimestampAssigner
    from pyflink_compat.datastream import StreamExecutionEnvironment
    from pyflink_compat.datastream.functions import KeyedProcessFunction

    class First(TimestampAssigner):
        def extract_timestamp(self, value, record_timestamp):
            return value[1]

    class Timers(KeyedProcessFunction):
        def process_element(self, value, ctx):
            service = ctx.timer_service()
            service.register_processing_time_timer(service.current_processing_time())
            service.register_event_time_timer(value[1] + 1)
            yield ctx.get_current_key(), "record", value[1]

        def on_timer(self, timestamp, ctx):
            yield ctx.get_current_key(), str(ctx.time_domain()), ctx.timer_service().current_watermark()

    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(1)
    stream = env.from_collection([("a", 1000), ("b", 2000)]) \
        .assign_timestamps_and_watermarks(
            WatermarkStrategy.for_bounded_out_of_orderness(Duration.of_millis(0))
            .with_timestamp_assigner(First())) \
        .key_by(lambda v: v[0]).process(Timers()) \
        .map(lambda v: v, output_type=Types.ROW([Types.STRING(), Types.STRING(), Types.LONG()]))
    rows = list(stream.execute_and_collect())
    provider = env.spark_session.conf.get("spark.sql.streaming.stateStore.providerClass")
    return rows + [provider]


def test_the_datastream_divergences_are_registered():
    ids = {d.id for d in RUNTIME_DIVERGENCES}
    assert not ids & {d.id for d in DIVERGENCES}
    assert all(d.summary and d.reason for d in RUNTIME_DIVERGENCES)
    assert {"datastream-processing-time-timers-fire-with-their-key", "datastream-keyed-state-in-rocksdb",
            "datastream-print-without-subtask-prefix", "datastream-open-per-micro-batch"} <= ids


def test_execute_and_collect_gives_rows_named_f0_f1_as_pyflink_does(collected):
    from pyflink_compat.common import Row

    assert Row(f0="a", f1="record", f2=1000) in collected
    assert repr(collected[0]).startswith("Row(f0=")


def test_a_processing_time_timer_due_at_once_fires_only_when_its_key_is_handled_again(collected):
    # Its key is next handled when its event-time timer fires, at the end of the input: the
    # watermark then is the greatest (Flink would fire it by the clock, before the end).
    fired = [tuple(row) for row in collected[:-1] if row[1] == "TimeDomain.PROCESSING_TIME"]
    assert sorted(fired) == [("a", "TimeDomain.PROCESSING_TIME", 9223372036854775807),
                             ("b", "TimeDomain.PROCESSING_TIME", 9223372036854775807)]
    assert sorted(r[0] for r in collected[:-1] if r[1] == "TimeDomain.EVENT_TIME") == ["a", "b"]


def test_the_keyed_job_ran_on_the_rocksdb_state_store_under_the_default_backend(collected):
    assert collected[-1].endswith("RocksDBStateStoreProvider")


def test_a_tagged_value_never_reaches_the_main_stream_even_when_no_side_output_is_read(spark):
    from pyflink_compat.datastream import OutputTag, StreamExecutionEnvironment
    from pyflink_compat.datastream.functions import ProcessFunction

    assert "datastream-tagged-values-always-side-outputs" in {d.id for d in RUNTIME_DIVERGENCES}

    class Split(ProcessFunction):
        def process_element(self, value, ctx):
            yield value
            yield OutputTag("unread"), -value

    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(1)
    # PyFlink would give 1, (OutputTag, -1), 2, (OutputTag, -2): the tag is read nowhere
    assert sorted(env.from_collection([1, 2]).process(Split()).execute_and_collect()) == [1, 2]


def test_a_connected_function_handles_the_first_inputs_records_of_a_key_before_the_seconds(spark):
    from pyflink_compat.datastream import StreamExecutionEnvironment
    from pyflink_compat.datastream.functions import KeyedCoProcessFunction

    assert "datastream-connected-inputs-first-input-first" in {d.id for d in RUNTIME_DIVERGENCES}

    class Arrival(KeyedCoProcessFunction):
        def process_element1(self, value, ctx):
            yield value[1]

        def process_element2(self, value, ctx):
            yield value[1]

    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(1)
    first = env.from_collection([(1, "a1"), (2, "a2"), (1, "a3")])
    second = env.from_collection([(1, "b1"), (1, "b2"), (2, "b3")])
    handled = list(first.connect(second).key_by(lambda v: v[0], lambda v: v[0])
                   .process(Arrival()).execute_and_collect())
    # PyFlink 1.20.5 gives one of several interleavings, run by run
    by_key = {key: [v for v in handled if v in names] for key, names in
              ((1, ("a1", "a3", "b1", "b2")), (2, ("a2", "b3")))}
    assert by_key == {1: ["a1", "a3", "b1", "b2"], 2: ["a2", "b3"]}
