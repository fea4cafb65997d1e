"""How often the job supervisor asks Spark about its queries (pure rules, no Spark)."""

from __future__ import annotations

import pytest

from pyflink_compat.settings import values
from pyflink_compat.spark.polling import (
    FASTEST_PAUSE, SLOWEST_PAUSE, STARTING_SECONDS, Pacer, batch_time_left, keeps_pace, needs_status,
    slowest_pause, status_every)

TEN_MINUTES = values.from_millis(600_000)


def test_the_pause_doubles_while_nothing_happens_and_stops_at_the_slowest():
    pacer = Pacer(SLOWEST_PAUSE)
    pauses = [pacer.next(busy=False) for _ in range(8)]
    assert pauses[:5] == pytest.approx([0.1, 0.2, 0.4, 0.8, 1.0])
    assert max(pauses) == SLOWEST_PAUSE


def test_anything_happening_brings_the_pause_back_to_the_fastest():
    pacer = Pacer(SLOWEST_PAUSE)
    for _ in range(6):
        pacer.next(busy=False)
    assert pacer.next(busy=True) == FASTEST_PAUSE
    assert pacer.next(busy=False) == FASTEST_PAUSE  # and a quiet spell after it starts over


def test_a_batch_due_is_waited_for_within_the_fastest_and_the_slowest_pace():
    pacer = Pacer(SLOWEST_PAUSE)
    assert pacer.next(busy=False, batch_due_in=0.43) == pytest.approx(0.43)
    assert pacer.next(busy=False, batch_due_in=0.01) == FASTEST_PAUSE
    assert pacer.next(busy=False, batch_due_in=30.0) == SLOWEST_PAUSE
    assert pacer.next(busy=True, batch_due_in=0.43) == FASTEST_PAUSE
    # a batch that takes longer than the last is then watched from the fastest pace up
    assert [pacer.next(busy=False) for _ in range(3)] == pytest.approx([0.1, 0.2, 0.4])


def test_the_next_batch_is_expected_as_long_after_the_last_as_the_last_took():
    assert batch_time_left(since_progress=0.1, batch_seconds=0.4) == pytest.approx(0.3)
    assert batch_time_left(since_progress=0.5, batch_seconds=0.4) == 0.0
    assert batch_time_left(since_progress=0.0, batch_seconds=0.0) == 0.0


def test_a_bounded_query_is_looked_at_within_the_slowest_pause_after_a_long_batch():
    # its input may be exhausted: its end is noticed soon, not a whole batch's time later
    assert batch_time_left(since_progress=0.0, batch_seconds=20.0, bounded=True) == SLOWEST_PAUSE
    assert batch_time_left(since_progress=SLOWEST_PAUSE, batch_seconds=20.0, bounded=True) == 0.0
    assert batch_time_left(since_progress=0.1, batch_seconds=0.4, bounded=True) == pytest.approx(0.3)


@pytest.mark.parametrize("timeout_ms, slowest", [
    (None, 1.0), (600_000, 1.0), (20_000, 1.0), (10_000, 0.5), (1_000, 0.1), (10, 0.1)])
def test_a_short_checkpoint_timeout_keeps_the_polls_frequent(timeout_ms, slowest):
    timeout = None if timeout_ms is None else values.from_millis(timeout_ms)
    assert slowest_pause(timeout) == pytest.approx(slowest)


@pytest.mark.parametrize("timeout_ms, every", [
    (None, None), (600_000, 5.0), (60_000, 3.0), (1_000, 0.1), (10, 0.1)])
def test_the_status_is_read_often_enough_to_notice_a_timeout_within_a_twentieth(timeout_ms, every):
    timeout = None if timeout_ms is None else values.from_millis(timeout_ms)
    assert status_every(timeout) == (None if every is None else pytest.approx(every))


def test_a_bounded_query_with_nothing_new_is_asked_whether_its_input_is_exhausted():
    assert needs_status(bounded=True, progressed=False, since_status=0.0, every=None)


def test_a_query_that_just_completed_a_batch_is_not_asked_for_its_status():
    assert not needs_status(bounded=True, progressed=True, since_status=0.0, every=5.0)
    assert not needs_status(bounded=False, progressed=False, since_status=0.0, every=5.0)


def test_a_bounded_query_is_not_asked_whether_its_input_is_exhausted_before_its_next_batch_is_due():
    assert not needs_status(bounded=True, progressed=False, since_status=0.0, every=None,
                            batch_expected=True)
    # a checkpoint timeout is still watched
    assert needs_status(bounded=True, progressed=False, since_status=5.0, every=5.0, batch_expected=True)


def test_an_unbounded_query_is_asked_only_as_often_as_its_timeout_needs():
    every = status_every(TEN_MINUTES)
    assert not needs_status(bounded=False, progressed=False, since_status=every / 2, every=every)
    assert needs_status(bounded=False, progressed=True, since_status=every, every=every)


def test_without_checkpointing_an_unbounded_query_is_never_asked_for_its_status():
    assert not needs_status(bounded=False, progressed=False, since_status=3600.0, every=None)


def test_a_bounded_query_keeps_the_fastest_pace_to_notice_the_end_of_its_input():
    assert keeps_pace(bounded=True, since_start=3600.0)


def test_a_bounded_query_running_or_expecting_a_batch_does_not_keep_the_fastest_pace():
    assert not keeps_pace(bounded=True, since_start=3600.0, running=True)
    assert not keeps_pace(bounded=True, since_start=3600.0, batch_expected=True)


def test_an_unbounded_query_keeps_the_fastest_pace_only_after_a_start():
    assert keeps_pace(bounded=False, since_start=0.5)
    assert not keeps_pace(bounded=False, since_start=STARTING_SECONDS)
