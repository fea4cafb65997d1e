"""Event-time timers of a ``KeyedProcessFunction``: several per key, registered twice,
deleted, and registered by ``on_timer``, fire as live PyFlink 1.20.5 fired them."""

from __future__ import annotations

from typing import Any


def test_a_keys_timers_fire_once_each_in_timestamp_order_seeing_the_state_as_of_firing(spark: Any) -> None:
    from pyflink_compat.common import Duration, Types, WatermarkStrategy
    from pyflink_compat.common.watermark_strategy import TimestampAssigner
    from pyflink_compat.datastream import StreamExecutionEnvironment
    from pyflink_compat.datastream.functions import KeyedProcessFunction
    from pyflink_compat.datastream.state import ValueStateDescriptor

    class Second(TimestampAssigner):
        def extract_timestamp(self, value, record_timestamp):
            return value[1]

    class Timers(KeyedProcessFunction):
        def open(self, runtime_context):
            self.count = runtime_context.get_state(ValueStateDescriptor("count", Types.LONG()))

        def process_element(self, value, ctx):
            self.count.update((self.count.value() or 0) + 1)
            service = ctx.timer_service()
            service.register_event_time_timer(value[1] + 5)
            service.register_event_time_timer(value[1] + 5)
            if value[1] == 20:
                service.delete_event_time_timer(100)
                service.register_event_time_timer(200)
            else:
                service.register_event_time_timer(100)
            return iter(())

        def on_timer(self, timestamp, ctx):
            yield ctx.get_current_key(), timestamp, self.count.value()
            self.count.update(self.count.value() + 10)
            if timestamp == 15:
                ctx.timer_service().register_event_time_timer(300)

    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(1)
    fired = env.from_collection([("a", 10), ("a", 20), ("b", 12)]) \
        .assign_timestamps_and_watermarks(
            WatermarkStrategy.for_bounded_out_of_orderness(Duration.of_millis(0))
            .with_timestamp_assigner(Second())) \
        .key_by(lambda v: v[0]).process(Timers()) \
        .map(lambda v: v, output_type=Types.TUPLE([Types.STRING(), Types.LONG(), Types.LONG()]))
    # as PyFlink 1.20.5 printed them
    assert list(fired.execute_and_collect()) == [
        ("a", 15, 2), ("b", 17, 1), ("a", 25, 12), ("b", 100, 11), ("a", 200, 22), ("a", 300, 32)]


def test_timers_that_on_timer_registers_behind_the_watermark_fire_after_the_timers_already_due(
        spark: Any) -> None:
    from pyflink_compat.common import Duration, Types, WatermarkStrategy
    from pyflink_compat.common.watermark_strategy import TimestampAssigner
    from pyflink_compat.datastream import StreamExecutionEnvironment
    from pyflink_compat.datastream.functions import KeyedProcessFunction
    from pyflink_compat.datastream.state import ValueStateDescriptor

    class Second(TimestampAssigner):
        def extract_timestamp(self, value, record_timestamp):
            return value[1]

    class Timers(KeyedProcessFunction):
        def open(self, runtime_context):
            self.count = runtime_context.get_state(ValueStateDescriptor("count", Types.LONG()))

        def process_element(self, value, ctx):
            self.count.update((self.count.value() or 0) + 1)
            ctx.timer_service().register_event_time_timer(value[1] + 5)
            return iter(())

        def on_timer(self, timestamp, ctx):
            yield ctx.get_current_key(), timestamp, self.count.value()
            self.count.update(self.count.value() + 10)
            if timestamp in (15, 17):
                ctx.timer_service().register_event_time_timer(timestamp + 1)

    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(1)
    fired = env.from_collection([("a", 10), ("a", 20), ("b", 12), ("a", 30), ("b", 40)]) \
        .assign_timestamps_and_watermarks(
            WatermarkStrategy.for_bounded_out_of_orderness(Duration.of_millis(0))
            .with_timestamp_assigner(Second())) \
        .key_by(lambda v: v[0]).process(Timers()) \
        .map(lambda v: v, output_type=Types.TUPLE([Types.STRING(), Types.LONG(), Types.LONG()]))
    # PyFlink 1.20.5 printed these (in this order): the final watermark makes 15, 25 and 35 due
    # for 'a'; 16, registered by on_timer(15), fires after them and sees their updates
    assert sorted(fired.execute_and_collect()) == sorted([
        ("a", 15, 3), ("b", 17, 2), ("a", 25, 13), ("a", 35, 23), ("b", 45, 12), ("a", 16, 33),
        ("b", 18, 22)])
