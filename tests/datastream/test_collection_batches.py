"""A large collection feeding only per-record operators and running reduces is read in
micro-batches that grow, with the records of one batch: what a job prints does not depend on
how its input is cut."""

from __future__ import annotations

from typing import Any, Dict, List, Tuple

from pyflink_compat.spark.bounded_sources import batch_bounds


def test_the_batches_of_a_collection_double_from_the_first_and_cover_it_once():
    assert batch_bounds(1000, 256) == [(0, 256), (256, 768), (768, 1000)]
    assert batch_bounds(10, 256) == [(0, 10)]
    assert batch_bounds(0, 256) == []


def _environment() -> Any:
    from pyflink_compat.datastream import StreamExecutionEnvironment

    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(1)
    return env


def test_only_jobs_whose_records_do_not_depend_on_the_batches_read_a_collection_in_several():
    from pyflink_compat.common import Duration, WatermarkStrategy
    from pyflink_compat.datastream.functions import KeyedProcessFunction
    from pyflink_compat.runtime.plan import reads_in_batches

    class Count(KeyedProcessFunction):
        def process_element(self, value: Any, ctx: Any) -> Any:
            yield value

    env = _environment()
    words = env.from_collection(["a b", "b c"]).flat_map(lambda line: line.split())
    reduced = words.map(lambda w: (w, 1)).key_by(lambda v: v[0]).reduce(lambda a, b: (a[0], a[1] + b[1]))
    assert reads_in_batches(reduced._j_data_stream)
    timed = words.assign_timestamps_and_watermarks(
        WatermarkStrategy.for_bounded_out_of_orderness(Duration.of_millis(5)))
    assert not reads_in_batches(timed._j_data_stream)
    assert not reads_in_batches(words.key_by(lambda w: w).process(Count())._j_data_stream)
    assert not reads_in_batches(words.union(env.from_collection(["d"]))._j_data_stream)


def test_a_running_reduce_over_a_collection_read_in_many_batches_gives_every_running_count(spark, monkeypatch):
    from pyflink_compat.runtime import plan

    monkeypatch.setattr(plan, "FIRST_BATCH_RECORDS", 4)  # 21 records: batches of 4, 8, 9
    env = _environment()
    words = ["w%d" % (i * 7 % 5) for i in range(20)]
    counts = env.from_collection(words).map(lambda w: (w, 1)).key_by(lambda v: v[0]) \
        .reduce(lambda a, b: (a[0], a[1] + b[1]))
    seen: Dict[str, int] = {}
    expected: List[Tuple[str, int]] = []
    for word in words:
        seen[word] = seen.get(word, 0) + 1
        expected.append((word, seen[word]))
    assert list(counts.execute_and_collect()) == expected


def test_the_operators_after_a_keyed_function_run_in_its_processor_not_in_a_python_stage_of_their_own(spark):
    from pyflink_compat.runtime.plan import frame_of

    env = _environment()
    keyed = env.from_collection(["a", "b", "a"]).map(lambda w: (w, 1)).key_by(lambda v: v[0]) \
        .reduce(lambda a, b: (a[0], a[1] + b[1]))
    then = keyed.map(lambda v: "%s=%d" % v).filter(lambda text: text != "b=1")
    plan = frame_of(then._j_data_stream, spark)._jdf.queryExecution().logical().toString()
    # the map before key_by is a Python stage; the map and filter after reduce are not
    assert plan.count("MapInArrow") == 1 and plan.count("TransformWithState") == 1
    assert list(then.execute_and_collect()) == ["a=1", "a=2"]
