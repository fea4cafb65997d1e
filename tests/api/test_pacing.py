"""What paces a checkpointed streaming query, which batches are reported as checkpoints, and
when a job warns about latency: rules decided from the settings alone (no JVM)."""

from __future__ import annotations

import pytest

from pyflink_compat.settings.registry import SETTINGS_BY_KEY, JobSettings, TriggerMode
from pyflink_compat.settings.values import from_millis
from pyflink_compat.spark.pacing import IntervalCheckpoints, failure_is_new_checkpoint, latency_warning, pacing
from pyflink_compat.spark.plan import SinkSpec, plan_job
from pyflink_compat.spark.stats import CompletedCheckpointStats
from pyflink_compat.spark.translation import MIN_DELTAS_FOR_SNAPSHOT


def _settings(interval_ms=60000, **changes):
    return JobSettings(checkpoint_interval=None if interval_ms is None else from_millis(interval_ms), **changes)


def test_by_default_the_trigger_is_the_buffer_timeout_and_the_interval_sets_the_snapshot_cadence():
    paced = pacing(_settings(60000))
    assert paced is not None
    assert (paced.interval_ms, paced.latency_ms, paced.snapshot_every, paced.checkpoint_every_ms) == \
        (100, 100, 600, 60000)
    assert paced.trigger.startswith("ProcessingTime(100 ms) (the buffer timeout)")


@pytest.mark.parametrize("timeout_ms, trigger, snapshot_every", [
    (0, None, 600),       # a batch as soon as input arrives; batches counted at the shortest period
    (250, 250, 240),
    (90000, 60000, 1),    # capped at the interval
])
def test_the_buffer_timeout_is_the_trigger_capped_at_the_interval(timeout_ms, trigger, snapshot_every):
    paced = pacing(_settings(60000, buffer_timeout=from_millis(timeout_ms)))
    assert paced is not None and (paced.interval_ms, paced.snapshot_every) == (trigger, snapshot_every)


@pytest.mark.parametrize("changes", [{"trigger_mode": TriggerMode.CHECKPOINT_INTERVAL},
                                     {"buffer_timeout_enabled": False}])
def test_one_batch_per_interval_in_interval_mode_or_with_the_buffer_timeout_disabled(changes):
    paced = pacing(_settings(5000, **changes))
    assert paced is not None
    assert (paced.interval_ms, paced.latency_ms, paced.snapshot_every, paced.checkpoint_every_ms) == \
        (5000, 5000, None, None)


def test_without_checkpointing_nothing_paces_the_query():
    assert pacing(_settings(None)) is None


def _plan(settings, sinks=("events",)):
    return plan_job("job", settings, [], None, None, [SinkSpec(name, object()) for name in sinks], "file:/tmp/t")


def test_the_plan_sets_the_snapshot_cadence_only_in_latency_mode():
    assert _plan(_settings(2000)).spark_conf[MIN_DELTAS_FOR_SNAPSHOT] == "20"
    interval_mode = _plan(_settings(2000, trigger_mode=TriggerMode.CHECKPOINT_INTERVAL))
    assert MIN_DELTAS_FOR_SNAPSHOT not in interval_mode.spark_conf  # the session keeps its own


def _warning(plan):
    return latency_warning(plan.job_name, plan.settings,
                           {q.name: q.latency_ms for q in plan.queries if not q.available_now})


def test_a_job_warns_when_records_may_wait_longer_than_two_seconds_and_names_the_setting():
    assert _warning(_plan(_settings(60000))) is None
    slow = _warning(_plan(_settings(60000, trigger_mode=TriggerMode.CHECKPOINT_INTERVAL)))
    assert slow is not None and "up to 60000 ms" in slow and "'events'" in slow and "compat.trigger.mode" in slow
    disabled = _warning(_plan(_settings(60000, buffer_timeout_enabled=False)))
    assert disabled is not None and "execution.buffer-timeout.enabled" in disabled
    assert _warning(_plan(_settings(1500, trigger_mode=TriggerMode.CHECKPOINT_INTERVAL))) is None


def test_the_buffer_timeout_has_no_spark_effect_only_in_interval_mode_or_without_checkpointing():
    setting = SETTINGS_BY_KEY["execution.buffer-timeout.interval"]
    assert not setting.has_no_effect(from_millis(5), _settings())
    assert setting.has_no_effect(from_millis(5), _settings(trigger_mode=TriggerMode.CHECKPOINT_INTERVAL))
    assert not setting.has_no_effect(from_millis(100), _settings(trigger_mode=TriggerMode.CHECKPOINT_INTERVAL))
    assert setting.has_no_effect(from_millis(5), _settings(None))
    enabled = SETTINGS_BY_KEY["execution.buffer-timeout.enabled"]
    assert enabled.has_no_effect(False, _settings(None)) and not enabled.has_no_effect(False, _settings())


def _batch(batch_id, start, duration=50, rows=10):
    return CompletedCheckpointStats(batch_id + 1, "events", batch_id, start, duration, 64, rows)


def test_one_checkpoint_per_interval_counts_the_rows_of_every_batch_since_the_last_and_keeps_its_batch_id():
    report = IntervalCheckpoints(1000)
    found = [report.add(_batch(b, 100_000 + b * 200)) for b in range(12)]
    completed = [c for c in found if c is not None]
    # batches end at +50, +250, ...: batch 5 is the first to end 1000 ms after the first began,
    # batch 10 the first to end 1000 ms after batch 5 ended
    assert [(c.checkpoint_id, c.batch_id, c.num_input_rows) for c in completed] == [(6, 5, 60), (11, 10, 50)]
    last = report.final()
    assert last is not None and (last.checkpoint_id, last.batch_id, last.num_input_rows) == (12, 11, 10)
    assert report.final() is None


def test_without_an_interval_every_batch_is_a_checkpoint():
    report = IntervalCheckpoints(None)
    batch = _batch(7, 0)
    assert report.add(batch) is batch and report.final() is None


@pytest.mark.parametrize("every_ms, last_failure_ms, completed_since, now_ms, new", [
    (None, None, False, 0, True),          # one batch per interval: every failure is a checkpoint
    (None, 1000, False, 1050, True),
    (5000, None, False, 0, True),           # the first failure fails the interval's checkpoint
    (5000, 1000, False, 1100, False),       # a second failed batch in the same interval
    (5000, 1000, False, 5999, False),
    (5000, 1000, False, 6000, True),        # an interval later: the next checkpoint failed too
    (5000, 1000, True, 1100, True),         # a checkpoint completed in between
])
def test_a_failed_checkpoint_is_one_per_interval_in_latency_mode_and_one_per_batch_otherwise(
        every_ms, last_failure_ms, completed_since, now_ms, new):
    assert failure_is_new_checkpoint(every_ms, last_failure_ms, completed_since, now_ms) is new


def test_failed_batches_within_one_interval_fail_one_checkpoint_and_the_next_completes_an_interval_later():
    report = IntervalCheckpoints(1000)
    assert report.add(_batch(0, 0)) is None
    assert report.fail(10_000.0) and not report.fail(10_100.0) and not report.fail(10_999.0)
    # a whole interval starts with batch 2; the checkpoint then counts batch 0's records too
    assert [report.add(_batch(b, b * 200)) for b in range(2, 7)] == [None] * 5
    completed = report.add(_batch(7, 1400))
    assert completed is not None and (completed.batch_id, completed.num_input_rows) == (7, 70)
    assert report.fail(10_200.0)  # a checkpoint completed since the last counted failure


def test_with_one_batch_per_interval_every_failed_batch_is_a_failed_checkpoint():
    report = IntervalCheckpoints(None)
    assert report.fail(0.0) and report.fail(1.0) and report.fail(2.0)


def _tracker(settings):
    from pyflink_compat.spark.checkpoint_tracker import CheckpointTracker
    from pyflink_compat.spark.watched_query import WatchedQuery

    plan = _plan(settings)
    query = WatchedQuery(SinkSpec("events", object()), plan.queries[0])
    return CheckpointTracker(plan, lambda q, b: None, lambda sink, reason: None), query


def test_tolerable_failed_checkpoints_counts_intervals_in_latency_mode_and_batches_in_interval_mode():
    tracker, query = _tracker(_settings(60000, tolerable_failed_checkpoints=3))
    # many failed batches within one 60 s interval are one failed checkpoint: the job runs on
    assert all(tracker.failed(query, "timeout") is None for _ in range(10))
    tracker, query = _tracker(_settings(60000, tolerable_failed_checkpoints=3,
                                        trigger_mode=TriggerMode.CHECKPOINT_INTERVAL))
    assert [tracker.failed(query, "timeout") is None for _ in range(4)] == [True, True, True, False]
