"""Global windows fire by the count trigger they are given, as Flink's window operator does:
each time the trigger counted its number of records, with the window's records kept for the
next firing or, under a purging trigger, forgotten; without a count trigger they never fire."""

from __future__ import annotations

from pyflink_compat.datastream.window import (
    CountTrigger, GlobalWindows, NeverTrigger, PurgingTrigger)
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
