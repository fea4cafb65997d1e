"""What a DataStream job cannot run on Spark raises ``NotSupportedError`` at the call, naming
the PySpark way: broadcasting without broadcast state (count windows take any trigger)."""

from __future__ import annotations

from typing import Any

import pytest

from pyflink_compat.missing import NotSupportedError


@pytest.fixture
def keyed(spark: Any) -> Any:
    from pyflink_compat.datastream import StreamExecutionEnvironment

    env = StreamExecutionEnvironment.get_execution_environment()
    return env.from_collection([("a", 1)]).key_by(lambda v: v[0])


def test_count_windows_take_any_trigger(keyed):
    from pyflink_compat.datastream.window import CountTrigger, EventTimeTrigger, PurgingTrigger

    windowed = keyed.count_window(3)
    assert windowed.trigger(PurgingTrigger.of(CountTrigger.of(3))) is windowed
    assert windowed._trigger is None  # the assigner's own count trigger
    trigger = EventTimeTrigger.create()
    assert windowed.trigger(trigger) is windowed and windowed._trigger is trigger


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
