"""Global windows fire by the count trigger they are given, as Flink's window operator does:
each time the trigger counted its number of records, with the window's records kept for the
next firing or, under a purging trigger, forgotten; without a count trigger they never fire.
Processing-time windows take the records handled while the clock is in them and fire by a
processing-time timer at their end (driven by hand here)."""

from __future__ import annotations

from pyflink_compat.common.time import Time
from pyflink_compat.datastream.window import (
    CountTrigger, GlobalWindows, NeverTrigger, ProcessingTimeSessionWindows, PurgingTrigger,
    SlidingProcessingTimeWindows, TumblingProcessingTimeWindows)
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
