"""Checkpoint statistics read from a query's progress report (its JSON form)."""

from __future__ import annotations

import datetime
import json

import pytest

from pyflink_compat.spark.stats import stats_from_progress


class _Report:
    """A progress report as the supervisor gets it: something whose ``json()`` is Spark's text."""

    def __init__(self, **fields):
        self._text = json.dumps(fields)

    def json(self):
        return self._text


def test_a_completed_batch_becomes_the_checkpoint_after_it_with_its_start_in_epoch_millis():
    stats = stats_from_progress("rows", _Report(
        batchId=4, timestamp="2026-11-25T23:55:11.123Z", numInputRows=7,
        durationMs={"addBatch": 30, "triggerExecution": 41},
        stateOperators=[{"memoryUsedBytes": 100}, {"memoryUsedBytes": 23}]))
    assert stats is not None
    moment = datetime.datetime(2026, 11, 25, 23, 55, 11, 123000, tzinfo=datetime.timezone.utc)
    assert (stats.checkpoint_id, stats.batch_id, stats.sink) == (5, 4, "rows")
    assert stats.trigger_timestamp == int(moment.timestamp()) * 1000 + 123
    assert (stats.duration_ms, stats.state_size, stats.num_input_rows) == (41, 123, 7)


@pytest.mark.parametrize("timestamp", ["", "yesterday", "2026-11-25T23:55:11.123"])
def test_a_timestamp_that_is_not_sparks_utc_form_reads_as_zero(timestamp):
    stats = stats_from_progress("rows", _Report(batchId=0, timestamp=timestamp,
                                                durationMs={"addBatch": 1, "triggerExecution": 2}))
    assert stats is not None and stats.trigger_timestamp == 0


def test_a_report_of_no_batch_is_no_checkpoint():
    assert stats_from_progress("rows", _Report(batchId=3, timestamp="2026-11-25T23:55:11.123Z",
                                               durationMs={"triggerExecution": 2})) is None
