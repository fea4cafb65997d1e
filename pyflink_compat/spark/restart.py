"""Flink's restart strategies, deciding when a failed job is restarted from its checkpoints.

The strategy is chosen by ``restart-strategy.type``; when it is unset, a job with
checkpointing enabled uses ``exponential-delay`` and one without uses ``none``, as Flink 1.20
does. Time is passed in (seconds, monotonic) so that the rules are testable without waiting.

One restart does not go through a strategy: the *tolerated write-failure restart*. A query
that dies because its checkpoint could not be written has failed a checkpoint; as long as
failed checkpoints are tolerated (``execution.checkpointing.tolerable-failed-checkpoints``),
a Flink job keeps running through that, so the supervisor starts that query alone again at
once from its checkpoint, without asking the strategy and without counting a job restart
(``JobRun._restart_after_tolerated_write_failure`` in :mod:`pyflink_compat.spark.supervisor`).
One failed checkpoint more than tolerated fails the job, and the strategy decides.
"""

from __future__ import annotations

import random
from collections import deque
from typing import Deque, Optional

import attrs

from pyflink_compat.settings.values import to_seconds
from pyflink_compat.settings.registry import JobSettings

__all__ = ["RestartPolicy", "RestartStrategy", "restart_policy_for", "restart_strategy_for"]


@attrs.frozen
class RestartPolicy:
    """The restart strategy a job's settings ask for: its Flink name and parameters.

    A policy is part of the job plan; each run of the job starts a fresh
    :class:`RestartStrategy` from it with :meth:`start`.

    :param name: The Flink name of the strategy (``none``, ``fixed-delay``...).
    :param max_attempts: Restarts allowed (fixed-delay; exponential-delay before a reset).
    :param delay: Seconds to wait before a restart (fixed-delay, failure-rate), or the first
                  backoff (exponential-delay).
    :param max_backoff: Largest backoff in seconds (exponential-delay).
    :param multiplier: Backoff growth factor (exponential-delay).
    :param reset_threshold: Seconds without failure after which the backoff resets.
    :param jitter: Relative random spread of the backoff.
    :param max_failures_per_interval: Failures allowed within ``failure_interval``.
    :param failure_interval: The window failures are counted in, in seconds (failure-rate).
    """

    name: str
    max_attempts: int = 0
    delay: float = 0.0
    max_backoff: float = 0.0
    multiplier: float = 1.0
    reset_threshold: float = float("inf")
    jitter: float = 0.0
    max_failures_per_interval: int = 0
    failure_interval: float = 0.0

    def start(self, rng: Optional[random.Random] = None) -> "RestartStrategy":
        """A new strategy following this policy, with no failures recorded yet."""
        return RestartStrategy(self, rng or random.Random())

    def describe(self) -> str:
        """The strategy and its parameters, as the job summary shows them."""
        if self.name == "none":
            return "none (a failure fails the job)"
        if self.name == "fixed-delay":
            return "fixed-delay ({} attempts, {:g} s apart)".format(self.max_attempts, self.delay)
        if self.name == "failure-rate":
            return "failure-rate (at most {} failures in {:g} s, {:g} s delay)".format(
                self.max_failures_per_interval, self.failure_interval, self.delay)
        return "exponential-delay ({:g} s to {:g} s, x{:g}, jitter {:g}, {} attempts)".format(
            self.delay, self.max_backoff, self.multiplier, self.jitter, self.max_attempts)


class RestartStrategy:
    """Decides, after each failure of one run, whether to restart and after how long.

    :param policy: The parameters, from the job plan.
    :param rng: The source of the backoff's random spread.
    """

    def __init__(self, policy: RestartPolicy, rng: random.Random):
        self.policy = policy
        self._random = rng
        self._attempts = 0
        self._backoff = 0.0
        self._last_failure: Optional[float] = None
        self._failures: Deque[float] = deque()

    @property
    def name(self) -> str:
        """The Flink name of the strategy."""
        return self.policy.name

    @property
    def attempts(self) -> int:
        """Restarts granted so far (since the last backoff reset)."""
        return self._attempts

    def on_failure(self, now: float) -> Optional[float]:
        """Record a failure at ``now``.

        :return: Seconds to wait before restarting, or ``None`` when the job must fail.
        """
        policy = self.policy
        if policy.name == "none":
            return None
        if policy.name == "fixed-delay":
            if self._attempts >= policy.max_attempts:
                return None
            self._attempts += 1
            return policy.delay
        if policy.name == "failure-rate":
            self._failures.append(now)
            while self._failures and now - self._failures[0] > policy.failure_interval:
                self._failures.popleft()
            if len(self._failures) > policy.max_failures_per_interval:
                return None
            self._attempts += 1
            return policy.delay
        return self._exponential(now)

    def _exponential(self, now: float) -> Optional[float]:
        policy = self.policy
        if self._last_failure is not None and now - self._last_failure >= policy.reset_threshold:
            self._attempts = 0
            self._backoff = 0.0
        self._last_failure = now
        if self._attempts >= policy.max_attempts:
            return None
        self._attempts += 1
        if self._backoff == 0.0:
            self._backoff = policy.delay
        else:
            self._backoff = min(self._backoff * policy.multiplier, policy.max_backoff)
        spread = self._backoff * policy.jitter
        return max(0.0, self._backoff + self._random.uniform(-spread, spread))

    def describe(self) -> str:
        """The strategy and its parameters, as the job summary shows them."""
        return self.policy.describe()


def restart_policy_for(settings: JobSettings) -> RestartPolicy:
    """The restart policy ``settings`` ask for, with Flink's defaults."""
    name = settings.restart_strategy
    if name is None:
        name = "exponential-delay" if settings.checkpoint_interval is not None else "none"
    if name == "fixed-delay":
        return RestartPolicy(name, max_attempts=settings.fixed_delay_attempts,
                             delay=to_seconds(settings.fixed_delay_delay))
    if name == "failure-rate":
        return RestartPolicy(name, delay=to_seconds(settings.failure_rate_delay),
                             max_failures_per_interval=settings.failure_rate_max_failures,
                             failure_interval=to_seconds(settings.failure_rate_interval))
    if name == "exponential-delay":
        return RestartPolicy(
            name,
            max_attempts=settings.exponential_attempts,
            delay=to_seconds(settings.exponential_initial_backoff),
            max_backoff=to_seconds(settings.exponential_max_backoff),
            multiplier=settings.exponential_multiplier,
            reset_threshold=to_seconds(settings.exponential_reset_threshold),
            jitter=settings.exponential_jitter,
        )
    return RestartPolicy("none")


def restart_strategy_for(settings: JobSettings) -> RestartStrategy:
    """A fresh restart strategy for ``settings`` (the policy, started)."""
    return restart_policy_for(settings).start()
