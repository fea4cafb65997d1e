"""Time intervals and the execution enums."""

from __future__ import annotations

import pytest

from pyflink_compat.common.time import Duration, Time
from pyflink_compat.datastream.execution_mode import RuntimeExecutionMode
from pyflink_compat.datastream.time_characteristic import TimeCharacteristic


def test_time_factories_count_milliseconds():
    assert Time.milliseconds(1500).to_milliseconds() == 1500
    assert Time.seconds(10).to_milliseconds() == 10_000
    assert Time.minutes(2).to_milliseconds() == 120_000
    assert Time.hours(3).to_milliseconds() == 10_800_000
    assert Time.days(1).to_milliseconds() == 86_400_000


def test_times_of_the_same_length_are_equal_but_not_hashable():
    assert Time.seconds(60) == Time.minutes(1)
    assert Time.seconds(61) != Time.minutes(1)
    assert Time.milliseconds(5) != 5
    with pytest.raises(TypeError):
        hash(Time.seconds(1))


def test_a_time_prints_as_milliseconds():
    assert str(Time.seconds(2)) == "2000 ms"


def test_duration_is_still_exported_next_to_time():
    from pyflink_compat.common import time

    assert time.__all__ == ["Duration", "Instant", "Time"]
    assert Duration is time.Duration


def test_runtime_execution_modes_have_pyflinks_values_and_option_text():
    assert [(m.name, m.value) for m in RuntimeExecutionMode] == [
        ("STREAMING", 0), ("BATCH", 1), ("AUTOMATIC", 2)]
    assert RuntimeExecutionMode.BATCH._to_j_execution_mode() == "BATCH"
    assert RuntimeExecutionMode._from_j_execution_mode("batch") is RuntimeExecutionMode.BATCH


def test_time_characteristics_have_pyflinks_values_and_round_trip():
    assert [(m.name, m.value) for m in TimeCharacteristic] == [
        ("ProcessingTime", 0), ("IngestionTime", 1), ("EventTime", 2)]
    for member in TimeCharacteristic:
        assert TimeCharacteristic._from_j_time_characteristic(
            member._to_j_time_characteristic()) is member
