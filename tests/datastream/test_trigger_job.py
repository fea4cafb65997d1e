"""Triggers a job gives to its windows, on a running job: its own ``Trigger`` subclass (early
firing, partitioned state, its own timers), ``ContinuousEventTimeTrigger``, a ``CountTrigger``
on merging session windows, a trigger of global windows and triggers of count windows (a count
of another size, purging, event time firing at the end of the input, the job's own) print what
live PyFlink 1.20.5 printed; ``ContinuousProcessingTimeTrigger`` fires no window an hour long
before the bounded input ends, as in PyFlink."""

from __future__ import annotations

import contextlib
import io
from collections import Counter
from typing import Any, List

import pytest

from tests.datastream.test_window_triggers import _DATA

#: What live PyFlink 1.20.5 printed for the trigger job (any order).
_TRIGGERS_PRINTED = [
    "('big', 'a', 'TimeWindow(start=0, end=10)', [1, 2, 5, 3])",
    "('big', 'a', 'TimeWindow(start=0, end=10)', [1, 2, 5])",
    "('big', 'a', 'TimeWindow(start=10, end=20)', [0, 9, 4])",
    "('big', 'a', 'TimeWindow(start=10, end=20)', [0, 9])",
    "('big', 'a', 'TimeWindow(start=20, end=30)', [2])",
    "('big', 'b', 'TimeWindow(start=0, end=10)', [7])",
    "('big', 'b', 'TimeWindow(start=0, end=10)', [7])",
    "('big', 'b', 'TimeWindow(start=10, end=20)', [1, 0])",
    "('big', 'b', 'TimeWindow(start=20, end=30)', [3])",
    "('continuous', 'a', 'TimeWindow(start=0, end=20)', [1, 2, 5, 3, 0, 9, 4])",
    "('continuous', 'a', 'TimeWindow(start=0, end=20)', [1, 2, 5, 3, 0, 9, 4])",
    "('continuous', 'a', 'TimeWindow(start=20, end=40)', [2])",
    "('continuous', 'a', 'TimeWindow(start=20, end=40)', [2])",
    "('continuous', 'b', 'TimeWindow(start=0, end=20)', [7, 1, 0])",
    "('continuous', 'b', 'TimeWindow(start=0, end=20)', [7, 1, 0])",
    "('continuous', 'b', 'TimeWindow(start=20, end=40)', [3])",
    "('continuous', 'b', 'TimeWindow(start=20, end=40)', [3])",
    "('session-count', 'a', 'TimeWindow(start=1, end=5)', [1, 2])",
    "('session-count', 'a', 'TimeWindow(start=13, end=17)', [0, 9])",
    "('session-count', 'a', 'TimeWindow(start=6, end=11)', [5, 3])",
    "('session-count', 'b', 'TimeWindow(start=12, end=18)', [1, 0])",
    "('marker', 'a', 'GlobalWindow', [1, 2, 5, 3, 0])",
    "('marker', 'b', 'GlobalWindow', [7, 1, 0])",
    "('count-by-2', 'a', 'CountWindow(id=0)', [1, 2])",
    "('count-by-2', 'a', 'CountWindow(id=1)', [3, 0])",
    "('count-by-2', 'a', 'CountWindow(id=2)', [4, 2])",
    "('count-by-2', 'b', 'CountWindow(id=0)', [7, 1])",
    "('count-event-time', 'a', 'CountWindow(id=0)', [1, 2, 5])",
    "('count-event-time', 'a', 'CountWindow(id=1)', [3, 0, 9])",
    "('count-event-time', 'a', 'CountWindow(id=2)', [4, 2])",
    "('count-event-time', 'b', 'CountWindow(id=0)', [7, 1, 0])",
    "('count-event-time', 'b', 'CountWindow(id=1)', [3])",
    "('count-marker', 'a', 'CountWindow(id=1)', [0])",
    "('count-marker', 'b', 'CountWindow(id=0)', [7, 1, 0])",
    "('sliding-count-purging', 'a', 'CountWindow(id=0)', [1, 2])",
    "('sliding-count-purging', 'a', 'CountWindow(id=1)', [5, 3])",
    "('sliding-count-purging', 'a', 'CountWindow(id=2)', [0, 9])",
    "('sliding-count-purging', 'a', 'CountWindow(id=3)', [4, 2])",
    "('sliding-count-purging', 'b', 'CountWindow(id=0)', [7, 1])",
    "('sliding-count-purging', 'b', 'CountWindow(id=1)', [0, 3])",
]


def _job_triggers() -> Any:
    from pyflink_compat.common import Types
    from pyflink_compat.datastream.state import ValueStateDescriptor
    from pyflink_compat.datastream.window import Trigger, TriggerResult

    class Big(Trigger):
        """Fires early on a big value, fires and purges at the window's end."""

        def __init__(self):
            self.desc = ValueStateDescriptor("seen", Types.INT())

        def on_element(self, element, timestamp, window, ctx):
            seen = ctx.get_partitioned_state(self.desc)
            seen.update((seen.value() or 0) + 1)
            ctx.register_event_time_timer(window.max_timestamp())
            return TriggerResult.FIRE if element[2] >= 5 else TriggerResult.CONTINUE

        def on_processing_time(self, time, window, ctx):
            return TriggerResult.CONTINUE

        def on_event_time(self, time, window, ctx):
            return TriggerResult.FIRE_AND_PURGE if time == window.max_timestamp() else TriggerResult.CONTINUE

        def on_merge(self, window, ctx):
            pass

        def clear(self, window, ctx):
            ctx.get_partitioned_state(self.desc).clear()
            ctx.delete_event_time_timer(window.max_timestamp())

    class Marker(Trigger):
        def on_element(self, element, timestamp, window, ctx):
            return TriggerResult.FIRE_AND_PURGE if element[2] == 0 else TriggerResult.CONTINUE

        def on_processing_time(self, time, window, ctx):
            return TriggerResult.CONTINUE

        def on_event_time(self, time, window, ctx):
            return TriggerResult.CONTINUE

        def on_merge(self, window, ctx):
            pass

        def clear(self, window, ctx):
            pass

    return Big, Marker


@pytest.fixture(scope="module")
def trigger_lines(spark: Any) -> List[str]:
    from pyflink_compat.common import Time, WatermarkStrategy
    from pyflink_compat.common.watermark_strategy import TimestampAssigner
    from pyflink_compat.datastream import StreamExecutionEnvironment
    from pyflink_compat.datastream.functions import ProcessWindowFunction
    from pyflink_compat.datastream.window import (
        ContinuousEventTimeTrigger, ContinuousProcessingTimeTrigger, CountTrigger, EventTimeSessionWindows,
        EventTimeTrigger, GlobalWindows, PurgingTrigger, TumblingEventTimeWindows, TumblingProcessingTimeWindows)

    class Stamp(TimestampAssigner):
        def extract_timestamp(self, value, record_timestamp):
            return value[1]

    class Show(ProcessWindowFunction):
        def __init__(self, tag):
            self.tag = tag

        def process(self, key, context, elements):
            yield self.tag, key, str(context.window()), [e[2] for e in elements]

    big, marker = _job_triggers()
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(1)
    watermarks = WatermarkStrategy.for_monotonous_timestamps().with_timestamp_assigner(Stamp())
    keyed = env.from_collection(_DATA).assign_timestamps_and_watermarks(watermarks).key_by(lambda v: v[0])
    keyed.window(TumblingEventTimeWindows.of(Time.milliseconds(10))).trigger(big()).process(Show("big")).print()
    keyed.window(TumblingEventTimeWindows.of(Time.milliseconds(20))) \
        .trigger(ContinuousEventTimeTrigger.of(Time.milliseconds(5))).process(Show("continuous")).print()
    keyed.window(EventTimeSessionWindows.with_gap(Time.milliseconds(3))).trigger(CountTrigger.of(2)) \
        .process(Show("session-count")).print()
    keyed.window(GlobalWindows.create()).trigger(marker()).process(Show("marker")).print()
    keyed.count_window(3).trigger(CountTrigger.of(2)).process(Show("count-by-2")).print()
    keyed.count_window(3, 2).trigger(PurgingTrigger.of(CountTrigger.of(2))) \
        .process(Show("sliding-count-purging")).print()
    keyed.count_window(3).trigger(EventTimeTrigger.create()).process(Show("count-event-time")).print()
    keyed.count_window(4).trigger(marker()).process(Show("count-marker")).print()
    keyed.window(TumblingProcessingTimeWindows.of(Time.hours(1))) \
        .trigger(ContinuousProcessingTimeTrigger.of(Time.hours(1))).process(Show("continuous-clock")).print()
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        env.execute("triggers")
    return out.getvalue().splitlines()


def test_custom_and_built_in_triggers_fire_windows_as_pyflink_did(trigger_lines):
    assert Counter(trigger_lines) == Counter(_TRIGGERS_PRINTED)
