"""On a pyspark without ``transformWithState`` (3.5) a keyed function fails at the call,
naming Spark 4; the per-record operators still build."""

from __future__ import annotations

import pytest


def test_a_keyed_function_without_transform_with_state_fails_at_the_call_naming_spark_4(spark):
    from pyspark.sql import GroupedData

    from pyflink_compat.datastream import StreamExecutionEnvironment

    if hasattr(GroupedData, "transformWithState"):
        pytest.skip("this pyspark runs keyed functions")
    env = StreamExecutionEnvironment.get_execution_environment()
    keyed = env.from_collection([("a", 1)]).map(lambda v: v).key_by(lambda v: v[0])
    with pytest.raises(RuntimeError, match="needs Spark 4.1 or later") as raised:
        keyed.reduce(lambda a, b: a)
    assert "KeyedStream.reduce" in str(raised.value)


def test_connected_keyed_streams_and_windows_without_transform_with_state_fail_at_the_call(spark):
    from pyspark.sql import GroupedData

    from pyflink_compat.datastream import StreamExecutionEnvironment
    from pyflink_compat.datastream.functions import CoMapFunction, KeyedCoProcessFunction

    if hasattr(GroupedData, "transformWithState"):
        pytest.skip("this pyspark runs keyed functions")

    class Both(KeyedCoProcessFunction):
        def process_element1(self, value, ctx):
            yield value

        def process_element2(self, value, ctx):
            yield value

    class Same(CoMapFunction):
        def map1(self, value):
            return value

        def map2(self, value):
            return value

    env = StreamExecutionEnvironment.get_execution_environment()
    one, two = env.from_collection([("a", 1)]), env.from_collection([("a", 2)])
    with pytest.raises(RuntimeError, match="needs Spark 4.1 or later"):
        one.connect(two).key_by(lambda v: v[0], lambda v: v[0]).process(Both())
    with pytest.raises(RuntimeError, match="needs Spark 4.1 or later"):
        one.key_by(lambda v: v[0]).count_window(2).reduce(lambda a, b: a)
    one.connect(two).map(Same())  # per record: builds on any pyspark


def test_a_broadcast_process_function_without_transform_with_state_fails_at_the_call(spark):
    from pyspark.sql import GroupedData

    from pyflink_compat.common import Types
    from pyflink_compat.datastream import StreamExecutionEnvironment
    from pyflink_compat.datastream.functions import BroadcastProcessFunction
    from pyflink_compat.datastream.state import MapStateDescriptor

    if hasattr(GroupedData, "transformWithState"):
        pytest.skip("this pyspark runs keyed functions")

    class Rules(BroadcastProcessFunction):
        def process_element(self, value, ctx):
            yield value

        def process_broadcast_element(self, value, ctx):
            ctx.get_broadcast_state(rules).put(value[0], value[1])

    rules = MapStateDescriptor("rules", Types.STRING(), Types.INT())
    env = StreamExecutionEnvironment.get_execution_environment()
    events, updates = env.from_collection([("a", 1)]), env.from_collection([("a", 2)])
    with pytest.raises(RuntimeError, match="needs Spark 4.1 or later") as raised:
        events.connect(updates.broadcast(rules)).process(Rules())
    assert "BroadcastConnectedStream.process" in str(raised.value)
