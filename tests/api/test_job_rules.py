"""Flink's job-level rules the supervisor applies, each checked on its own."""

from __future__ import annotations

import pytest

from pyflink_compat.common.job_status import JobStatus
from pyflink_compat.settings import values
from pyflink_compat.settings.registry import Retention as R
from pyflink_compat.settings.registry import SETTINGS_BY_NAME
from pyflink_compat.spark.ownership import Ending, Origin, kept_because
from pyflink_compat.spark.rules import (
    IDLE_POLLS_BEFORE_FINISHED, CheckpointFailure, FailedCheckpoints, batch_took_too_long,
    idle_polls_after, looks_for_input, running_past_timeout, runs_batch, state_size_rejection, state_store_mismatch)

DELETE, KEEP = True, False

#: Whether a job deletes a sink directory when it ends, for every retention mode, origin of the
#: directory and ending.
RETENTION_TABLE = [
    # retention,                     origin,            cancel, fail,   finish, suspend
    (R.DELETE_ON_CANCELLATION,       Origin.CREATED,    DELETE, KEEP,   DELETE, KEEP),
    (R.DELETE_ON_CANCELLATION,       Origin.CLAIMED,    DELETE, KEEP,   DELETE, KEEP),
    (R.DELETE_ON_CANCELLATION,       Origin.RESTORED,   DELETE, KEEP,   DELETE, KEEP),
    (R.DELETE_ON_CANCELLATION,       Origin.FOREIGN,    KEEP,   KEEP,   KEEP,   KEEP),
    (R.RETAIN_ON_CANCELLATION,       Origin.CREATED,    KEEP,   KEEP,   KEEP,   KEEP),
    (R.RETAIN_ON_CANCELLATION,       Origin.CLAIMED,    KEEP,   KEEP,   KEEP,   KEEP),
    (R.RETAIN_ON_CANCELLATION,       Origin.RESTORED,   KEEP,   KEEP,   KEEP,   KEEP),
    (R.RETAIN_ON_CANCELLATION,       Origin.FOREIGN,    KEEP,   KEEP,   KEEP,   KEEP),
    (R.NO_EXTERNALIZED_CHECKPOINTS,  Origin.CREATED,    DELETE, DELETE, DELETE, KEEP),
    (R.NO_EXTERNALIZED_CHECKPOINTS,  Origin.CLAIMED,    DELETE, DELETE, DELETE, KEEP),
    (R.NO_EXTERNALIZED_CHECKPOINTS,  Origin.RESTORED,   DELETE, KEEP,   DELETE, KEEP),
    (R.NO_EXTERNALIZED_CHECKPOINTS,  Origin.FOREIGN,    KEEP,   KEEP,   KEEP,   KEEP),
]
ENDINGS = (Ending.CANCEL, Ending.FAIL, Ending.FINISH, Ending.SUSPEND)
ROWS = [(retention, ending, origin, row[2 + i])
        for row in RETENTION_TABLE for retention, origin in [row[:2]] for i, ending in enumerate(ENDINGS)]


def test_the_retention_table_covers_every_retention_ending_and_origin():
    assert len(ROWS) == len(R) * len(Ending) * len(Origin) == 48
    assert len({row[:3] for row in ROWS}) == 48


@pytest.mark.parametrize("retention, ending, origin, deleted", ROWS)
def test_retention_ending_and_origin_decide_whether_a_checkpoint_is_deleted(retention, ending, origin, deleted):
    reason = kept_because(retention, ending, origin)
    assert (reason is None) is deleted
    assert reason is None or reason.strip()


def test_the_reasons_to_keep_name_what_decided():
    assert "not created by this job" in kept_because(R.NO_EXTERNALIZED_CHECKPOINTS, Ending.FINISH, Origin.FOREIGN)
    assert "a failed run never deletes the checkpoint it restored from" in kept_because(
        R.NO_EXTERNALIZED_CHECKPOINTS, Ending.FAIL, Origin.RESTORED)
    assert "RETAIN_ON_CANCELLATION" in kept_because(R.RETAIN_ON_CANCELLATION, Ending.CANCEL, Origin.CREATED)


@pytest.mark.parametrize("status, ending", [(JobStatus.CANCELED, Ending.CANCEL), (JobStatus.FAILED, Ending.FAIL),
                                            (JobStatus.FINISHED, Ending.FINISH),
                                            (JobStatus.SUSPENDED, Ending.SUSPEND)])
def test_a_job_status_is_the_ending_it_names(status, ending):
    assert Ending.of(status) is ending


@pytest.mark.parametrize("text, retention", [("RETAIN_ON_CANCELLATION", R.RETAIN_ON_CANCELLATION),
                                             ("delete_on_cancellation", R.DELETE_ON_CANCELLATION),
                                             ("No_Externalized_Checkpoints", R.NO_EXTERNALIZED_CHECKPOINTS)])
def test_retention_is_read_from_its_conf_text_as_the_enum_and_written_back_as_its_name(text, retention):
    codec = SETTINGS_BY_NAME["externalized_checkpoint_retention"].codec
    assert codec.parse(text) is retention
    assert codec.encode(retention) == codec.encode(retention.value) == retention.value == str(retention)
    with pytest.raises(ValueError):
        codec.parse("bogus")


@pytest.mark.parametrize("tolerable, failures_survived", [(0, 0), (1, 1), (3, 3)])
def test_more_failed_checkpoints_in_a_row_than_tolerated_fail_the_job(tolerable, failures_survived):
    counter = FailedCheckpoints(tolerable)
    for _ in range(failures_survived):
        assert counter.record("sink", "reason") is None
    failure = counter.record("sink", "the reason")
    assert isinstance(failure, CheckpointFailure)
    assert "Exceeded checkpoint tolerable failure threshold" in str(failure)
    assert "'sink'" in str(failure) and "the reason" in str(failure)


def test_a_completed_checkpoint_resets_the_count_of_failed_ones():
    counter = FailedCheckpoints(1)
    assert counter.record("sink", "first") is None
    counter.reset()
    assert counter.record("sink", "second") is None
    assert counter.record("sink", "third") is not None


@pytest.mark.parametrize("duration_ms, timeout_ms, too_long", [
    (999, 1000, False), (1000, 1000, False), (1001, 1000, True), (0, 10, False)])
def test_a_finished_batch_longer_than_the_timeout_is_a_failed_checkpoint(duration_ms, timeout_ms, too_long):
    assert batch_took_too_long(duration_ms, values.from_millis(timeout_ms)) is too_long


@pytest.mark.parametrize("active_since, now, timeout_ms, past", [
    (10.0, 10.5, 1000, False), (10.0, 11.0, 1000, False), (10.0, 11.25, 1000, True)])
def test_a_batch_still_running_past_the_timeout_is_a_failed_checkpoint(active_since, now, timeout_ms, past):
    assert running_past_timeout(active_since, now, values.from_millis(timeout_ms)) is past


@pytest.mark.parametrize("size, limit, rejected", [
    (10, None, False), (10, 10, False), (11, 10, True)])
def test_state_past_the_jobmanager_limit_fails_the_checkpoint_with_flinks_reason(size, limit, rejected):
    reason = state_size_rejection(size, limit)
    assert (reason is not None) is rejected
    if rejected:
        assert reason.startswith("Size of the state is larger than the maximum permitted")
        assert "Size=11 , maxSize=10." in reason


@pytest.mark.parametrize("pinned, wanted, warns", [
    (None, "a.B", False), ("a.B", None, False), ("a.B", "a.B", False), ("a.Rocks", "a.Hdfs", True)])
def test_a_checkpoint_pinned_to_another_state_store_is_reported(pinned, wanted, warns):
    text = state_store_mismatch("rows", pinned, wanted)
    assert (text is not None) is warns
    if warns:
        assert "Query 'rows'" in text and "state store Rocks" in text and "configured Hdfs" in text


@pytest.mark.parametrize("bounded, data_available, triggered, after", [
    (True, False, True, 2), (True, True, True, 0), (True, False, False, 0), (False, False, True, 0)])
def test_a_bounded_query_counts_polls_that_find_its_input_exhausted(bounded, data_available, triggered, after):
    assert idle_polls_after(1, bounded, data_available, triggered) == after


@pytest.mark.parametrize("active, message, running, looking", [
    (True, "Processing new data", True, False), (True, "No new data but cleaning up state", True, False),
    # new input was found: the batch is being built (seen before every batch of data)
    (True, "Writing offsets to log", True, False),
    (True, "Getting offsets from FileStreamSource[file:/in]", False, True),
    (True, "Waiting for next trigger", False, False), (True, "Waiting for data to arrive", False, False),
    (False, "Waiting for data to arrive", False, False), (False, "Processing new data", False, False)])
def test_only_a_trigger_running_a_micro_batch_keeps_a_query_busy(active, message, running, looking):
    # a 0 ms trigger looks for input again right after an empty one: that look is no batch, and
    # no sign of an exhausted input either (a batch of new data follows a look that finds it)
    assert runs_batch(active, message) is running
    assert looks_for_input(active, message) is looking


def test_a_bounded_query_finishes_after_enough_idle_polls_in_a_row():
    polls = 0
    for _ in range(IDLE_POLLS_BEFORE_FINISHED):
        polls = idle_polls_after(polls, True, False, True)
    assert polls >= IDLE_POLLS_BEFORE_FINISHED


def test_durations_convert_between_the_api_spark_and_the_clocks():
    assert values.from_millis(1500) == 1_500_000_000
    assert values.to_millis(1_999_999) == 1
    assert values.to_seconds(values.from_millis(250)) == 0.25
    assert values.to_seconds_and_nanos(values.from_seconds_and_nanos(3, 7)) == (3, 7)
    assert values.duration_text(values.from_millis(5)) == "5 ms"
    assert values.duration_text(5) == "5 ns"
