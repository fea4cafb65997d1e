"""Allowed lateness and the late data's side output of the keyed window operator, at
watermarks set by hand (a bounded job reads its input in one micro-batch, so no record of it is
ever behind the watermark): as Flink's window operator with its event-time trigger, a record
within the lateness fires its window again with everything the window holds, a record after it
goes to the late data's side output."""

from __future__ import annotations

from pyflink_compat.common.time import Time
from pyflink_compat.datastream import OutputTag
from pyflink_compat.datastream.window import EventTimeSessionWindows, TumblingEventTimeWindows
from pyflink_compat.runtime.windows import WindowOperator
from tests._helpers.keyed_memory import KeyedByHand

LATE = OutputTag("late")


def test_a_record_within_the_allowed_lateness_fires_its_window_again_with_all_its_records():
    operator = WindowOperator(TumblingEventTimeWindows.of(Time.seconds(5)), "reduce",
                              lambda a, b: a + b, None, 2000, LATE)
    run = KeyedByHand(operator, "k")
    assert run.record(1, 1000) == []
    assert run.advance(6000) == [1]          # the watermark passed 4999: the window fires
    assert run.record(10, 2000) == [11]      # 4999 + 2000 > 6000: fires again, at once
    assert run.advance(7000) == []           # 6999: the window is forgotten
    assert run.record(100, 3000) == [(LATE, 100)]


def test_without_a_late_tag_a_record_behind_the_watermark_is_dropped():
    operator = WindowOperator(TumblingEventTimeWindows.of(Time.seconds(5)), "reduce",
                              lambda a, b: a + b)
    run = KeyedByHand(operator, "k")
    run.record(1, 1000)
    assert run.advance(5000) == [1]
    assert run.record(5, 4000) == []
    assert run.advance(20000) == []


def test_a_record_joining_two_sessions_merges_them_into_one_window():
    operator = WindowOperator(EventTimeSessionWindows.with_gap(Time.seconds(2)), "process",
                              lambda key, window, elements: ["%s %s" % (window, elements)])
    run = KeyedByHand(operator, "k")
    run.record("a", 1000)
    run.record("c", 5000)
    run.record("b", 3000)                     # [3000, 5000) touches both sessions
    assert run.advance(10000) == ["TimeWindow(start=1000, end=7000) ['a', 'c', 'b']"]
