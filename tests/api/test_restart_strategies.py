"""Flink's restart strategies, decided by the job's settings."""

from __future__ import annotations

import attrs
import pytest

from pyflink_compat.settings.registry import JobSettings
from pyflink_compat.spark.restart import restart_strategy_for

S = 1_000_000_000


def test_without_checkpointing_and_strategy_a_failure_fails_the_job():
    strategy = restart_strategy_for(JobSettings())
    assert strategy.name == "none"
    assert strategy.on_failure(0.0) is None


def test_with_checkpointing_and_no_strategy_exponential_delay_applies():
    strategy = restart_strategy_for(JobSettings(checkpoint_interval=1000 * 1_000_000))
    assert strategy.name == "exponential-delay"
    delays = [strategy.on_failure(float(t)) for t in range(8)]
    assert all(d is not None for d in delays)
    assert 0.9 <= delays[0] <= 1.1  # 1 s initial backoff, 10 % jitter
    assert delays[-1] > delays[0]


def test_exponential_delay_is_capped_by_the_max_backoff():
    settings = JobSettings(restart_strategy="exponential-delay", exponential_jitter=0.0,
                           exponential_max_backoff=3 * S)
    strategy = restart_strategy_for(settings)
    delays = [strategy.on_failure(float(t)) for t in range(6)]
    assert delays == [1.0, 1.5, 2.25, 3.0, 3.0, 3.0]


def test_exponential_delay_resets_after_a_quiet_period():
    settings = JobSettings(restart_strategy="exponential-delay", exponential_jitter=0.0,
                           exponential_reset_threshold=10 * S, exponential_attempts=2)
    strategy = restart_strategy_for(settings)
    assert strategy.on_failure(0.0) == 1.0
    assert strategy.on_failure(1.0) == 1.5
    assert strategy.on_failure(2.0) is None  # two attempts used up
    assert strategy.on_failure(100.0) == 1.0  # quiet for longer than the threshold


def test_fixed_delay_allows_exactly_the_configured_attempts():
    settings = JobSettings(restart_strategy="fixed-delay", fixed_delay_attempts=2, fixed_delay_delay=S // 2)
    strategy = restart_strategy_for(settings)
    assert [strategy.on_failure(t) for t in (0.0, 1.0, 2.0)] == [0.5, 0.5, None]


def test_failure_rate_counts_failures_within_the_interval():
    settings = JobSettings(restart_strategy="failure-rate", failure_rate_max_failures=2,
                           failure_rate_interval=10 * S, failure_rate_delay=0)
    strategy = restart_strategy_for(settings)
    assert strategy.on_failure(0.0) == 0.0
    assert strategy.on_failure(1.0) == 0.0
    assert strategy.on_failure(2.0) is None
    fresh = restart_strategy_for(settings)
    assert [fresh.on_failure(t) for t in (0.0, 1.0, 20.0, 21.0)] == [0.0, 0.0, 0.0, 0.0]


@pytest.mark.parametrize("name", ["none", "off", "disable"])
def test_none_never_restarts(name):
    from pyflink_compat.settings.registry import SETTINGS_BY_NAME

    parsed = SETTINGS_BY_NAME["restart_strategy"].codec.parse(name)
    strategy = restart_strategy_for(attrs.evolve(JobSettings(checkpoint_interval=S), restart_strategy=parsed))
    assert strategy.on_failure(0.0) is None
