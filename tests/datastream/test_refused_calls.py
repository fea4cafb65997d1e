"""What a DataStream job cannot run on Spark raises ``NotSupportedError`` at the call, naming
the PySpark way: count windows given a trigger other than their own, and broadcasting without
broadcast state."""

from __future__ import annotations

from typing import Any

import pytest

from pyflink_compat.missing import NotSupportedError


@pytest.fixture
def keyed(spark: Any) -> Any:
    from pyflink_compat.datastream import StreamExecutionEnvironment

    env = StreamExecutionEnvironment.get_execution_environment()
    return env.from_collection([("a", 1)]).key_by(lambda v: v[0])


def test_count_windows_take_their_own_count_trigger_only(keyed):
    from pyflink_compat.datastream.window import CountTrigger, EventTimeTrigger, PurgingTrigger

    windowed = keyed.count_window(3)
    assert windowed.trigger(PurgingTrigger.of(CountTrigger.of(3))) is windowed
    with pytest.raises(NotSupportedError) as refused:
        windowed.trigger(EventTimeTrigger.create())
    assert refused.value.api == "WindowedStream.trigger"
    assert "transformWithState" in str(refused.value)


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
