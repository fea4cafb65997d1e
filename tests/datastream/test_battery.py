"""The battery job (every DataStream operator that runs on Spark) prints what live PyFlink
1.20.5 printed for it: running reduces, field accumulations, rows, tuples and typed values in
the JVM's text, a KeyedProcessFunction with value, list, map and reducing state whose
event-time timers fire as the bounded input ends; and, in a second job, connected streams,
side outputs, session, count, global and processing-time windows, keyed state written in
``open`` and a keyed rich map."""

from __future__ import annotations

import contextlib
import io
from collections import Counter
from typing import Any, List

import pytest

from tests.datastream import battery_job
from tests.datastream.recorded_battery import PRINTED, PRINTED_MORE


@pytest.fixture(scope="module")
def printed(spark: Any) -> List[str]:
    from pyflink_compat.datastream import StreamExecutionEnvironment

    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(1)
    battery_job.build(env)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        env.execute("battery")
    return out.getvalue().splitlines()


@pytest.fixture(scope="module")
def printed_more(spark: Any) -> List[str]:
    from pyflink_compat.datastream import StreamExecutionEnvironment

    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(1)
    battery_job.build_more(env)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        env.execute("battery more")
    return out.getvalue().splitlines()


def part(lines: List[str], sink: str) -> List[str]:
    return [line[len(sink) + 2:] for line in lines if line.startswith(sink + "> ")]


def test_every_sink_prints_the_lines_live_pyflink_printed(printed):
    assert Counter(printed) == Counter(PRINTED)


def test_a_running_reduce_emits_one_line_per_input_record_in_arrival_order_per_key(printed):
    words = part(printed, "words")
    assert len(words) == 12
    assert [w for w in words if w.startswith("(to,")] == ["(to,1)", "(to,2)", "(to,3)"]


def test_typed_values_print_as_the_jvm_writes_them_and_rows_with_their_row_kind(printed):
    assert sorted(part(printed, "typed")) == ["(ann,2.5,false)", "(bob,1.0E8,true)",
                                              "(cid,-0.5,false)", "(dan,0.001,true)"]
    assert "+I[2,bob,100000000.0]" in part(printed, "rows")
    assert "Row(name='ann+bob', big=True)" in part(printed, "reduced")


def test_event_time_timers_fire_once_each_at_the_end_of_the_bounded_input_with_the_keys_state(printed):
    timers = sorted(line for line in part(printed, "session") if line.startswith("timer"))
    # u1's timer at 25000 was deleted; the others fire once the final watermark passes them
    assert [t.split(" (")[0] for t in timers] == ["timer u1 at 6000", "timer u1 at 9000",
                                                  "timer u2 at 7000", "timer u2 at 8000"]
    assert all("EVENT_TIME" in t for t in timers)
    assert "pages=home,cart,cancel per_page=[('cancel', 1), ('cart', 1), ('home', 1)] total=25" in timers[0]


def test_a_process_function_sees_the_timestamp_the_assigner_gave(printed):
    assert sorted(part(printed, "stamps")) == ["cancel@20000", "cart@4000", "home@1000", "home@2000",
                                               "pay@3000"]


def test_event_time_windows_aggregate_reduce_and_hand_their_window_to_the_process_function(printed):
    assert sorted(part(printed, "average")) == ["u1 TimeWindow(start=0, end=5000) [2.5]",
                                                "u1 TimeWindow(start=20000, end=25000) [20.0]",
                                                "u2 TimeWindow(start=0, end=5000) [2.5]"]
    assert part(printed, "sliding").count("('u2', 'home,pay', 5)") == 2


def test_the_second_job_prints_the_lines_live_pyflink_printed(printed_more):
    assert Counter(printed_more) == Counter(PRINTED_MORE)


def test_side_outputs_carry_what_process_functions_yield_with_their_tag(printed_more):
    printed = printed_more
    assert sorted(part(printed, "even")) == ["cancel", "cart", "home"]
    assert sorted(part(printed, "odd")) == ["odd home@1000", "odd pay@3000"]
    assert sorted(part(printed, "seen")) == ["('u1', 1)", "('u1', 20)", "('u1', 4)", "('u2', 2)",
                                             "('u2', 3)"]
    assert part(printed, "long") == ["long session u1"]


def test_keyed_connected_streams_share_state_and_timers_across_both_inputs(printed_more):
    printed = printed_more
    tally = part(printed, "tally")
    assert sorted(t for t in tally if " total=" in t) == ["a ann total=8 at 1100", "b bob total=7 at 2100"]
    assert sorted(part(printed, "comap")) == ["10", "20", "AB", "C"]
    assert sorted(part(printed, "coflatmap")) == ["#1", "#2", "a", "b", "c"]


def test_session_windows_merge_records_closer_than_their_gap(printed_more):
    printed = printed_more
    assert sorted(part(printed, "sessions")) == [
        "u1 TimeWindow(start=1000, end=7000) ['home', 'cart']",
        "u1 TimeWindow(start=20000, end=23000) ['cancel']",
        "u2 TimeWindow(start=2000, end=6000) ['home', 'pay']"]
    assert "u2 TimeWindow(start=2000, end=2500) ['home']" in part(printed, "dynamic")


def test_count_windows_fire_when_full_and_never_for_a_partial_window(printed_more):
    printed = printed_more
    assert sorted(part(printed, "count2")) == ["x CountWindow(id=0) 4", "x CountWindow(id=1) 10",
                                               "y CountWindow(id=0) 7"]
    assert sorted(part(printed, "count3by2")) == ["('x', 17)", "('x', 8)"]


def test_global_windows_fire_by_their_count_trigger_keeping_or_purging_their_records(printed_more):
    # every 2 records, the window keeping them: x fires with 1+3, then with 1+3+4+6
    assert sorted(part(printed_more, "global2")) == ["x GlobalWindow 14", "x GlobalWindow 4",
                                                     "y GlobalWindow 7"]
    # every 3 records, the window emptied: x's first three only; the never-firing trigger
    # of a global window without one emits nothing
    assert part(printed_more, "purging3") == ["('x', 8)"]
    assert part(printed_more, "never") == []


def test_processing_time_windows_open_when_a_bounded_input_ends_never_fire(printed_more):
    assert not [line for line in printed_more if line.startswith("clock")]


def test_keyed_state_written_in_open_is_read_back_there_and_reaches_no_key(printed_more):
    opened = part(printed_more, "opened")
    assert "('x', 1) (141, 'opened') None None []" in opened
    assert "('x', 3) (141, 'opened') None None ['x']" in opened   # put_all took the pairs


def test_a_rich_map_of_a_keyed_stream_keeps_state_per_key(printed_more):
    printed = printed_more
    assert "(('x', 7), 5)" in part(printed, "seen_per_key")
    assert "(('y', 5), 2)" in part(printed, "seen_per_key")
