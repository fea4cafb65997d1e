"""What a DataStream job cannot run on Spark raises ``NotSupportedError`` at the call, naming
the PySpark way: dynamic processing-time sessions, triggers other than the assigners' own (and the
count triggers of global windows), and broadcasting without broadcast state."""

from __future__ import annotations

from typing import Any

import pytest

from pyflink_compat.missing import NotSupportedError


@pytest.fixture
def keyed(spark: Any) -> Any:
    from pyflink_compat.datastream import StreamExecutionEnvironment

    env = StreamExecutionEnvironment.get_execution_environment()
    return env.from_collection([("a", 1)]).key_by(lambda v: v[0])


def test_dynamic_processing_time_sessions_and_the_processing_time_trigger_are_refused():
    from pyflink_compat.datastream.window import (
        ProcessingTimeSessionWindows, ProcessingTimeTrigger, SessionWindowTimeGapExtractor)

    class Gap(SessionWindowTimeGapExtractor):
        def extract(self, element):
            return 1000

    with pytest.raises(NotSupportedError) as refused:
        ProcessingTimeSessionWindows.with_dynamic_gap(Gap())
    assert "current_timestamp()" in str(refused.value)
    with pytest.raises(NotSupportedError):
        ProcessingTimeTrigger.create()


def test_a_custom_trigger_is_refused_at_the_trigger_call_naming_transform_with_state(keyed):
    from pyflink_compat.common.time import Time
    from pyflink_compat.datastream.window import Trigger, TriggerResult, TumblingEventTimeWindows

    class EveryRecord(Trigger):
        def on_element(self, element, timestamp, window, ctx):
            return TriggerResult.FIRE

        def on_processing_time(self, time, window, ctx):
            return TriggerResult.CONTINUE

        def on_event_time(self, time, window, ctx):
            return TriggerResult.CONTINUE

        def clear(self, window, ctx):
            pass

    windowed = keyed.window(TumblingEventTimeWindows.of(Time.seconds(5)))
    with pytest.raises(NotSupportedError) as refused:
        windowed.trigger(EveryRecord())
    assert refused.value.api == "WindowedStream.trigger"
    assert "transformWithState" in str(refused.value)


def test_global_windows_take_count_triggers_only(keyed):
    from pyflink_compat.datastream.window import CountTrigger, EventTimeTrigger, GlobalWindows

    windowed = keyed.window(GlobalWindows.create())
    assert windowed.trigger(CountTrigger.of(3)) is windowed
    with pytest.raises(NotSupportedError):
        windowed.trigger(EventTimeTrigger.create())


def test_broadcast_without_a_state_descriptor_is_refused_naming_a_broadcast_join(keyed):
    from pyflink_compat.common import Types
    from pyflink_compat.datastream.state import MapStateDescriptor

    rules = MapStateDescriptor("rules", Types.STRING(), Types.STRING())
    with pytest.raises(NotSupportedError) as refused:
        keyed._origin_stream.broadcast()
    assert refused.value.api == "DataStream.broadcast"
    assert "pyspark.sql.functions.broadcast" in str(refused.value)
    with pytest.raises(Exception, match="Cannot override partitioning for KeyedStream."):
        keyed.broadcast(rules)
