"""Restart strategy configurations: values, descriptions and the Flink options they stand for."""

from __future__ import annotations

from datetime import timedelta

import pytest
from py4j.protocol import Py4JError

from pyflink_compat.common.restart_strategy import RestartStrategies, RestartStrategyConfiguration


def test_fixed_delay_restart_reads_back_its_attempts_and_delay():
    config = RestartStrategies.fixed_delay_restart(3, 10000)
    assert config.get_restart_attempts() == 3
    assert config.get_delay_between_attempts_interval() == timedelta(seconds=10)
    assert config.get_description() == "Restart with fixed delay (PT10S). #3 restart attempts."


def test_a_timedelta_delay_is_truncated_to_whole_milliseconds():
    config = RestartStrategies.fixed_delay_restart(1, timedelta(microseconds=1500))
    assert config.get_delay_between_attempts_interval() == timedelta(milliseconds=1)


def test_failure_rate_restart_reads_back_rate_interval_and_delay():
    config = RestartStrategies.failure_rate_restart(3, timedelta(minutes=1), 10000)
    assert config.get_max_failure_rate() == 3
    assert config.get_failure_interval() == timedelta(minutes=1)
    assert config.get_delay_between_attempts_interval() == timedelta(seconds=10)
    assert config.get_description() == (
        "Failure rate restart with maximum of 3 failures within interval PT1M and fixed "
        "delay PT10S.")


@pytest.mark.parametrize("millis, text", [
    (0, "PT0S"), (-1, "PT-0.001S"), (-2000, "PT-2S"), (-61000, "PT-1M-1S"),
    (259_200_000, "PT72H"), (1500, "PT1.5S"), (2**63 - 1, "PT2562047788015H12M55.807S"),
])
def test_descriptions_write_delays_as_java_durations_do(millis, text):
    config = RestartStrategies.fixed_delay_restart(0, millis)
    assert config.get_description() == "Restart with fixed delay ({}). #0 restart attempts.".format(text)


def test_a_delay_that_is_neither_int_nor_timedelta_is_a_type_error():
    with pytest.raises(TypeError, match="only supports integer and datetime.timedelta"):
        RestartStrategies.fixed_delay_restart(3, 1.5)


def test_attempts_outside_javas_int_range_are_refused_as_py4j_refuses_them():
    with pytest.raises(Py4JError, match=r"fixedDelayRestart\(\[class java.lang.Long"):
        RestartStrategies.fixed_delay_restart(2**31, 1000)


def test_equal_configurations_compare_and_hash_equal():
    assert RestartStrategies.fixed_delay_restart(3, 1000) == \
        RestartStrategies.fixed_delay_restart(3, timedelta(seconds=1))
    assert hash(RestartStrategies.no_restart()) == hash(RestartStrategies.fall_back_restart())
    assert RestartStrategies.no_restart() != RestartStrategies.fall_back_restart()
    assert len({RestartStrategies.fixed_delay_restart(3, 1000),
                RestartStrategies.fixed_delay_restart(3, 1000)}) == 1


def test_every_configuration_is_a_restart_strategy_configuration():
    for config in (RestartStrategies.no_restart(), RestartStrategies.fall_back_restart(),
                   RestartStrategies.fixed_delay_restart(1, 1),
                   RestartStrategies.failure_rate_restart(1, 1, 1)):
        assert isinstance(config, RestartStrategyConfiguration)


def test_each_configuration_stands_for_flinks_restart_options():
    assert RestartStrategies.no_restart()._to_flink_options() == {"restart-strategy.type": "none"}
    assert RestartStrategies.fall_back_restart()._to_flink_options() == {}
    assert RestartStrategies.fixed_delay_restart(3, 10000)._to_flink_options() == {
        "restart-strategy.type": "fixed-delay",
        "restart-strategy.fixed-delay.attempts": "3",
        "restart-strategy.fixed-delay.delay": "10000 ms",
    }
    assert RestartStrategies.failure_rate_restart(2, 60000, 500)._to_flink_options() == {
        "restart-strategy.type": "failure-rate",
        "restart-strategy.failure-rate.max-failures-per-interval": "2",
        "restart-strategy.failure-rate.failure-rate-interval": "60000 ms",
        "restart-strategy.failure-rate.delay": "500 ms",
    }


@pytest.mark.parametrize("config", [
    RestartStrategies.no_restart(), RestartStrategies.fall_back_restart(),
    RestartStrategies.fixed_delay_restart(3, 10000), RestartStrategies.fixed_delay_restart(0, 0),
    RestartStrategies.failure_rate_restart(2, 60000, 500),
])
def test_a_configuration_is_rebuilt_equal_from_its_options(config):
    assert RestartStrategies._from_flink_options(config._to_flink_options()) == config


def test_options_written_by_hand_are_read_with_flinks_units_and_defaults():
    rebuilt = RestartStrategies._from_flink_options({
        "restart-strategy.type": "fixeddelay", "restart-strategy.fixed-delay.delay": "7 s"})
    assert rebuilt == RestartStrategies.fixed_delay_restart(1, 7000)
    rate = RestartStrategies._from_flink_options({"restart-strategy.type": "failure-rate"})
    assert rate == RestartStrategies.failure_rate_restart(1, 60000, 1000)


def test_options_pyflink_has_no_configuration_for_rebuild_the_fall_back():
    assert RestartStrategies._from_flink_options(
        {"restart-strategy.type": "exponential-delay"}) == RestartStrategies.fall_back_restart()
    assert RestartStrategies._from_flink_options({}) == RestartStrategies.fall_back_restart()
