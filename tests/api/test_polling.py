"""How often the job supervisor asks Spark about its queries (pure rules, no Spark)."""

from __future__ import annotations

import pytest

from pyflink_compat.settings import durations
from pyflink_compat.spark.polling import (
    FASTEST_PAUSE, SLOWEST_PAUSE, STARTING_SECONDS, keeps_pace, needs_status, next_pause, slowest_pause,
    status_every)

TEN_MINUTES = durations.from_millis(600_000)


def test_the_pause_doubles_while_nothing_happens_and_stops_at_the_slowest():
    pauses = [FASTEST_PAUSE]
    for _ in range(8):
        pauses.append(next_pause(pauses[-1], busy=False, slowest=SLOWEST_PAUSE))
    assert pauses[:5] == pytest.approx([0.1, 0.2, 0.4, 0.8, 1.0])
    assert max(pauses) == SLOWEST_PAUSE


def test_anything_happening_brings_the_pause_back_to_the_fastest():
    assert next_pause(SLOWEST_PAUSE, busy=True, slowest=SLOWEST_PAUSE) == FASTEST_PAUSE


@pytest.mark.parametrize("timeout_ms, slowest", [
    (None, 1.0), (600_000, 1.0), (20_000, 1.0), (10_000, 0.5), (1_000, 0.1), (10, 0.1)])
def test_a_short_checkpoint_timeout_keeps_the_polls_frequent(timeout_ms, slowest):
    timeout = None if timeout_ms is None else durations.from_millis(timeout_ms)
    assert slowest_pause(timeout) == pytest.approx(slowest)


@pytest.mark.parametrize("timeout_ms, every", [
    (None, None), (600_000, 5.0), (60_000, 3.0), (1_000, 0.1), (10, 0.1)])
def test_the_status_is_read_often_enough_to_notice_a_timeout_within_a_twentieth(timeout_ms, every):
    timeout = None if timeout_ms is None else durations.from_millis(timeout_ms)
    assert status_every(timeout) == (None if every is None else pytest.approx(every))


def test_a_bounded_query_with_nothing_new_is_asked_whether_its_input_is_exhausted():
    assert needs_status(bounded=True, progressed=False, since_status=0.0, every=None)


def test_a_query_that_just_completed_a_batch_is_not_asked_for_its_status():
    assert not needs_status(bounded=True, progressed=True, since_status=0.0, every=5.0)
    assert not needs_status(bounded=False, progressed=False, since_status=0.0, every=5.0)


def test_an_unbounded_query_is_asked_only_as_often_as_its_timeout_needs():
    every = status_every(TEN_MINUTES)
    assert not needs_status(bounded=False, progressed=False, since_status=every / 2, every=every)
    assert needs_status(bounded=False, progressed=True, since_status=every, every=every)


def test_without_checkpointing_an_unbounded_query_is_never_asked_for_its_status():
    assert not needs_status(bounded=False, progressed=False, since_status=3600.0, every=None)


def test_a_bounded_query_keeps_the_fastest_pace_to_notice_the_end_of_its_input():
    assert keeps_pace(bounded=True, progressed=False, since_start=3600.0)


def test_an_unbounded_query_keeps_the_fastest_pace_only_after_a_batch_or_a_start():
    assert keeps_pace(bounded=False, progressed=True, since_start=3600.0)
    assert keeps_pace(bounded=False, progressed=False, since_start=0.5)
    assert not keeps_pace(bounded=False, progressed=False, since_start=STARTING_SECONDS)
