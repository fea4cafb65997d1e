"""Global windows fire by the count trigger they are given, as Flink's window operator does:
each time the trigger counted its number of records, with the window's records kept for the
next firing or, under a purging trigger, forgotten; without a count trigger they never fire.
Processing-time windows take the records handled while the clock is in them and fire by a
processing-time timer at their end (driven by hand here). A trigger the job gives fires time
windows as PyFlink 1.20.5 did (for key ``a`` of ``test_trigger_job.py``'s records)."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from pyflink_compat.common.time import Time
from pyflink_compat.datastream.window import (
    ContinuousProcessingTimeTrigger, CountTrigger, GlobalWindows, NeverTrigger, ProcessingTimeSessionWindows,
    PurgingTrigger, SlidingProcessingTimeWindows, TumblingProcessingTimeWindows)
from pyflink_compat.runtime.windows import WindowOperator
from tests._helpers.keyed_memory import KeyedByHand


def _listing(key, window, elements):
    return ["%s %s %s" % (key, window, list(elements))]


def test_a_count_trigger_fires_every_n_records_with_all_the_records_the_window_kept():
    run = KeyedByHand(WindowOperator(GlobalWindows.create(), "process", _listing, trigger=CountTrigger.of(2)), "k")
    outputs = [run.record(value, 0) for value in "abcde"]
    assert outputs == [[], ["k GlobalWindow ['a', 'b']"], [], ["k GlobalWindow ['a', 'b', 'c', 'd']"], []]


def test_a_purging_count_trigger_empties_the_window_at_each_firing():
    operator = WindowOperator(GlobalWindows.create(), "reduce", lambda a, b: a + b,
                              trigger=PurgingTrigger.of(CountTrigger.of(2)))
    run = KeyedByHand(operator, "k")
    assert [run.record(value, 0) for value in (1, 2, 3, 4, 5)] == [[], [3], [], [7], []]


def test_global_windows_without_a_count_trigger_never_fire_even_at_the_end_of_the_input():
    for trigger in (None, NeverTrigger(), PurgingTrigger.of(NeverTrigger())):
        run = KeyedByHand(WindowOperator(GlobalWindows.create(), "process", _listing, trigger=trigger), "k")
        assert [run.record(value, 0) for value in "abc"] == [[], [], []]
        assert run.advance(9223372036854775807) == []


def test_a_tumbling_processing_time_window_holds_the_records_handled_in_it_and_fires_at_its_end():
    run = KeyedByHand(WindowOperator(TumblingProcessingTimeWindows.of(Time.seconds(5)), "process",
                                     _listing), "k")
    run.now = 1000
    run.record("a", 0)
    run.now = 4000
    run.record("b", 0)
    run.now = 6000
    run.record("c", 0)
    assert run.advance_clock(4999) == ["k TimeWindow(start=0, end=5000) ['a', 'b']"]
    assert run.advance_clock(9998) == []
    assert run.advance_clock(9999) == ["k TimeWindow(start=5000, end=10000) ['c']"]


def test_sliding_and_session_processing_time_windows_group_by_the_clock():
    sliding = KeyedByHand(WindowOperator(SlidingProcessingTimeWindows.of(Time.seconds(4), Time.seconds(2)),
                                         "reduce", lambda a, b: a + b), "k")
    sliding.now = 3000
    sliding.record(1, 0)
    sliding.now = 4500
    sliding.record(10, 0)
    assert sliding.advance_clock(10000) == [1, 11, 10]   # [0, 4000), [2000, 6000), [4000, 8000)

    session = KeyedByHand(WindowOperator(ProcessingTimeSessionWindows.with_gap(Time.seconds(2)), "process",
                                         _listing), "k")
    for now, value in ((1000, "a"), (2500, "b"), (9000, "c")):
        session.now = now
        session.record(value, 0)
    assert session.advance_clock(20000) == ["k TimeWindow(start=1000, end=4500) ['a', 'b']",
                                            "k TimeWindow(start=9000, end=11000) ['c']"]


def test_a_continuous_processing_time_trigger_fires_every_interval_of_the_clock_until_the_window_ends():
    operator = WindowOperator(TumblingProcessingTimeWindows.of(Time.seconds(10)), "process", _listing,
                              trigger=ContinuousProcessingTimeTrigger.of(Time.seconds(3)))
    run = KeyedByHand(operator, "k")
    run.now = 1000
    run.record("a", 0)
    run.now = 2000
    run.record("b", 0)
    window = "k TimeWindow(start=0, end=10000)"
    assert run.advance_clock(2999) == []
    assert run.advance_clock(3000) == [window + " ['a', 'b']"]
    run.now = 4000
    run.record("c", 0)
    assert run.advance_clock(6000) == [window + " ['a', 'b', 'c']"]
    assert run.advance_clock(9000) == [window + " ['a', 'b', 'c']"]
    # the last firing is at the window's end, where the window is cleaned up
    assert run.advance_clock(9999) == [window + " ['a', 'b', 'c']"]
    assert run.advance_clock(30000) == []


#: Records (key, timestamp ms, value) of the trigger job.
_DATA = [("a", 1, 1), ("a", 2, 2), ("b", 3, 7), ("a", 6, 5), ("a", 8, 3), ("b", 12, 1),
         ("a", 13, 0), ("a", 14, 9), ("b", 15, 0), ("a", 19, 4), ("a", 25, 2), ("b", 26, 3)]

def _shown(key, window, elements):
    return [(str(window), tuple(e[2] for e in elements))]


def _by_hand(assigner: Any, trigger: Any) -> Any:
    run = KeyedByHand(WindowOperator(assigner, "process", _shown, trigger=trigger), "a")
    out = []
    for key, ts, value in _DATA:
        if key == "a":
            out += run.record((key, ts, value), ts)
    return out + run.advance(9223372036854775807)


def test_a_purging_count_trigger_on_sliding_windows_fires_each_pair_and_forgets_it():
    from pyflink_compat.datastream.window import SlidingEventTimeWindows

    fired = _by_hand(SlidingEventTimeWindows.of(Time.milliseconds(10), Time.milliseconds(5)),
                     PurgingTrigger.of(CountTrigger.of(2)))
    # what PyFlink printed for key a
    assert Counter(fired) == Counter([
        ("TimeWindow(start=-5, end=5)", (1, 2)), ("TimeWindow(start=0, end=10)", (1, 2)),
        ("TimeWindow(start=0, end=10)", (5, 3)), ("TimeWindow(start=5, end=15)", (5, 3)),
        ("TimeWindow(start=5, end=15)", (0, 9)), ("TimeWindow(start=10, end=20)", (0, 9))])


def test_a_count_trigger_on_time_windows_keeps_the_records_and_never_fires_at_the_end():
    from pyflink_compat.datastream.window import TumblingEventTimeWindows

    fired = _by_hand(TumblingEventTimeWindows.of(Time.milliseconds(10)), CountTrigger.of(2))
    assert fired == [("TimeWindow(start=0, end=10)", (1, 2)), ("TimeWindow(start=0, end=10)", (1, 2, 5, 3)),
                     ("TimeWindow(start=10, end=20)", (0, 9))]


def test_an_event_time_trigger_on_processing_time_windows_fires_when_the_watermark_passes_them():
    from pyflink_compat.datastream.window import EventTimeTrigger

    run = KeyedByHand(WindowOperator(TumblingProcessingTimeWindows.of(Time.seconds(5)), "process",
                                     _listing, trigger=EventTimeTrigger.create()), "k")
    run.now = 1000
    run.record("a", 1000)
    assert run.advance_clock(6000) == []     # the window is cleaned up, its timer still waits
    run.now = 7000
    run.record("b", 7000)
    assert run.advance(4999) == []           # the first window's contents went at its cleanup
    assert run.advance(9999) == ["k TimeWindow(start=5000, end=10000) ['b']"]


def test_dynamic_processing_time_sessions_take_each_records_own_gap():
    from pyflink_compat.datastream.window import DynamicProcessingTimeSessionWindows, SessionWindowTimeGapExtractor

    class Gap(SessionWindowTimeGapExtractor):
        def extract(self, element):
            return 3000 if element.startswith("long") else 1000

    sessions = DynamicProcessingTimeSessionWindows.with_dynamic_gap(Gap())
    assert not sessions.is_event_time()
    run = KeyedByHand(WindowOperator(sessions, "process", _listing), "k")
    for now, value in ((1000, "long-a"), (3500, "b"), (9000, "c")):
        run.now = now
        run.record(value, 0)
    assert run.advance_clock(20000) == ["k TimeWindow(start=1000, end=4500) ['long-a', 'b']",
                                        "k TimeWindow(start=9000, end=10000) ['c']"]
    assert repr(sessions) == "DynamicProcessingTimeSessionWindows(1000)"
    with pytest.raises(Exception, match="Dynamic session time gap must satisfy 0 < gap"):
        KeyedByHand(WindowOperator(
            DynamicProcessingTimeSessionWindows.with_dynamic_gap(_NoGap()), "process", _listing), "k") \
            .record("x", 0)


class _NoGap(object):
    def extract(self, element):
        return 0


def test_a_purging_event_time_trigger_fires_each_window_once_at_its_end():
    from pyflink_compat.datastream.window import EventTimeTrigger, TumblingEventTimeWindows

    fired = _by_hand(TumblingEventTimeWindows.of(Time.milliseconds(10)), PurgingTrigger.of(EventTimeTrigger.create()))
    assert fired == [("TimeWindow(start=0, end=10)", (1, 2, 5, 3)), ("TimeWindow(start=10, end=20)", (0, 9, 4)),
                     ("TimeWindow(start=20, end=30)", (2,))]
