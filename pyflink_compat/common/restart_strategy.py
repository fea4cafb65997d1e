"""Restart strategy configurations: what a job does after a failure.

Each configuration is a value (a frozen record, not a JVM object) that knows the Flink
``restart-strategy.*`` options it stands for (:meth:`RestartStrategyConfiguration._to_flink_options`)
and can be rebuilt from them (:meth:`RestartStrategies._from_flink_options`). On Spark the job
supervisor applies those options when a query fails (see ``pyflink_compat.spark.restart``).
"""
from abc import ABCMeta
from datetime import timedelta
from typing import Any, Dict, Mapping, Optional

import attrs

from pyflink_compat.settings.values import (
    NANOS_PER_MICRO, NANOS_PER_MILLI, NANOS_PER_SECOND, duration_text, from_millis, parse_duration, timedelta_micros,
    to_millis, to_seconds_and_nanos)
from pyflink_compat.util.exceptions import JavaType
from pyflink_compat.util.java_args import java_call_args
from pyflink_compat.util.java_limits import INT_MAX

__all__ = ['RestartStrategies', 'RestartStrategyConfiguration']

_TIME_CLASS = "org.apache.flink.api.common.time.Time"
_STRATEGIES_CLASS = "org.apache.flink.api.common.restartstrategy.RestartStrategies"
_FAILURE_RATE_CLASS = _STRATEGIES_CLASS + "$FailureRateRestartStrategyConfiguration"
_INT_MASK = 2**32

_KIND_NONE = "none"
_KIND_FALLBACK = "fallback"
_KIND_FIXED_DELAY = "fixed-delay"
_KIND_FAILURE_RATE = "failure-rate"

TYPE_KEY = "restart-strategy.type"
FIXED_DELAY_ATTEMPTS_KEY = "restart-strategy.fixed-delay.attempts"
FIXED_DELAY_DELAY_KEY = "restart-strategy.fixed-delay.delay"
FAILURE_RATE_MAX_KEY = "restart-strategy.failure-rate.max-failures-per-interval"
FAILURE_RATE_INTERVAL_KEY = "restart-strategy.failure-rate.failure-rate-interval"
FAILURE_RATE_DELAY_KEY = "restart-strategy.failure-rate.delay"

#: Every option a restart strategy configuration may write.
RESTART_OPTION_KEYS = (TYPE_KEY, FIXED_DELAY_ATTEMPTS_KEY, FIXED_DELAY_DELAY_KEY,
                       FAILURE_RATE_MAX_KEY, FAILURE_RATE_INTERVAL_KEY, FAILURE_RATE_DELAY_KEY)

# Flink's accepted spellings of ``restart-strategy.type``.
_TYPE_ALIASES = {
    "none": _KIND_NONE, "off": _KIND_NONE, "disable": _KIND_NONE,
    "fixeddelay": _KIND_FIXED_DELAY, "fixed-delay": _KIND_FIXED_DELAY,
    "failurerate": _KIND_FAILURE_RATE, "failure-rate": _KIND_FAILURE_RATE,
}


@attrs.frozen
class _RestartSpec:
    """The value a restart strategy configuration holds (times in milliseconds)."""

    kind: str
    attempts: int = 0
    delay_ms: int = 0
    max_failures: int = 0
    interval_ms: int = 0

    def fields(self) -> tuple:
        if self.kind == _KIND_FIXED_DELAY:
            return (self.attempts, self.delay_ms)
        if self.kind == _KIND_FAILURE_RATE:
            return (self.max_failures, self.interval_ms, self.delay_ms)
        return ()

    def hashCode(self) -> int:
        """A 32-bit hash over the fields, computed the way Java's ``Objects.hash`` does."""
        result = 1
        for value in self.fields():
            result = (31 * result + value) % _INT_MASK
        return result - _INT_MASK if result > INT_MAX else result


def _java_div(a: int, b: int) -> int:
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b > 0) else -q


def _java_mod(a: int, b: int) -> int:
    return a - b * _java_div(a, b)


def _iso_duration(millis: int) -> str:
    """``millis`` as ISO-8601 text, exactly as ``java.time.Duration.toString`` writes it."""
    seconds, nanos = to_seconds_and_nanos(from_millis(millis))
    if seconds == 0 and nanos == 0:
        return "PT0S"
    effective = seconds + 1 if seconds < 0 < nanos else seconds
    hours = _java_div(effective, 3600)
    minutes = _java_div(_java_mod(effective, 3600), 60)
    secs = _java_mod(effective, 60)
    text = "PT"
    if hours:
        text += "{}H".format(hours)
    if minutes:
        text += "{}M".format(minutes)
    if secs == 0 and nanos == 0 and len(text) > 2:
        return text
    if seconds < 0 < nanos:
        text += "-0" if secs == 0 else str(secs)
    else:
        text += str(secs)
    if nanos > 0:
        fraction = str(2 * NANOS_PER_SECOND - nanos if seconds < 0 else nanos + NANOS_PER_SECOND)
        text += "." + fraction.rstrip("0")[1:]
    return text + "S"


def _interval_millis(value: Any) -> int:
    """Milliseconds of an ``int`` (milliseconds) or ``timedelta`` argument, converted (and
    rejected) as PyFlink's conversion to a Flink ``Time`` does."""
    if isinstance(value, timedelta):
        micros = timedelta_micros(value)
        java_call_args("of", "z:" + _TIME_CLASS + ".of",
                       [(micros, "long"), (JavaType("class java.util.concurrent.TimeUnit"), None)])
        return _java_div(micros * NANOS_PER_MICRO, NANOS_PER_MILLI)  # Java's division: toward zero
    java_call_args("milliseconds", "z:" + _TIME_CLASS + ".milliseconds", [(value, "long")])
    return int(value)


def _check_interval_type(value: Any, message: str) -> None:
    if not isinstance(value, (timedelta, int)):
        raise TypeError(message % type(value))


_DELAY_MESSAGE = ("The delay_between_attempts_interval 'failure_interval' only supports integer "
                  "and datetime.timedelta, current input type is %s.")
_INTERVAL_MESSAGE = ("The parameter 'failure_interval' only supports integer and "
                     "datetime.timedelta, current input type is %s.")
_TIME_ARG = JavaType("class " + _TIME_CLASS)


class RestartStrategyConfiguration(object, metaclass=ABCMeta):
    """The base of all restart strategy configurations.

    :param j_restart_strategy_configuration: The value this configuration holds.
    """

    def __init__(self, j_restart_strategy_configuration):
        self._j_restart_strategy_configuration = j_restart_strategy_configuration

    def get_description(self) -> str:
        """A one-line description of the strategy, as Flink's web interface shows it."""
        spec = self._j_restart_strategy_configuration
        if spec.kind == _KIND_NONE:
            return "Restart deactivated."
        if spec.kind == _KIND_FIXED_DELAY:
            return "Restart with fixed delay ({}). #{} restart attempts.".format(
                _iso_duration(spec.delay_ms), spec.attempts)
        if spec.kind == _KIND_FAILURE_RATE:
            return ("Failure rate restart with maximum of {} failures within interval {} and "
                    "fixed delay {}.").format(spec.max_failures, _iso_duration(spec.interval_ms),
                                              _iso_duration(spec.delay_ms))
        return "Cluster level default restart strategy"

    def _to_flink_options(self) -> Dict[str, str]:
        """The ``restart-strategy.*`` options this configuration stands for.

        The fall-back configuration stands for no option at all: the cluster's (or the
        session's) own restart strategy applies.
        """
        spec = self._j_restart_strategy_configuration
        if spec.kind == _KIND_NONE:
            return {TYPE_KEY: "none"}
        if spec.kind == _KIND_FIXED_DELAY:
            return {TYPE_KEY: "fixed-delay",
                    FIXED_DELAY_ATTEMPTS_KEY: str(spec.attempts),
                    FIXED_DELAY_DELAY_KEY: duration_text(from_millis(spec.delay_ms))}
        if spec.kind == _KIND_FAILURE_RATE:
            return {TYPE_KEY: "failure-rate",
                    FAILURE_RATE_MAX_KEY: str(spec.max_failures),
                    FAILURE_RATE_INTERVAL_KEY: duration_text(from_millis(spec.interval_ms)),
                    FAILURE_RATE_DELAY_KEY: duration_text(from_millis(spec.delay_ms))}
        return {}

    def __eq__(self, other):
        return isinstance(other, self.__class__) and \
            self._j_restart_strategy_configuration == other._j_restart_strategy_configuration

    def __hash__(self):
        return self._j_restart_strategy_configuration.hashCode()


class RestartStrategies(object):
    """Factories of the restart strategy configurations a job can be given."""

    class NoRestartStrategyConfiguration(RestartStrategyConfiguration):
        """A failure fails the job: it is never restarted."""

        def __init__(self, j_restart_strategy=None):
            super(RestartStrategies.NoRestartStrategyConfiguration, self).__init__(
                _RestartSpec(_KIND_NONE) if j_restart_strategy is None else j_restart_strategy)

    class FixedDelayRestartStrategyConfiguration(RestartStrategyConfiguration):
        """Restart up to a number of times, waiting a fixed delay before each restart."""

        def __init__(self, restart_attempts=None, delay_between_attempts_interval=None,
                     j_restart_strategy=None):
            if j_restart_strategy is None:
                _check_interval_type(delay_between_attempts_interval, _DELAY_MESSAGE)
                delay_ms = _interval_millis(delay_between_attempts_interval)
                java_call_args("fixedDelayRestart", "z:" + _STRATEGIES_CLASS + ".fixedDelayRestart",
                               [(restart_attempts, "int"), (_TIME_ARG, None)])
                j_restart_strategy = _RestartSpec(_KIND_FIXED_DELAY, attempts=int(restart_attempts),
                                                  delay_ms=delay_ms)
            super(RestartStrategies.FixedDelayRestartStrategyConfiguration, self).__init__(
                j_restart_strategy)

        def get_restart_attempts(self) -> int:
            """How many restarts are allowed before the job fails."""
            return self._j_restart_strategy_configuration.attempts

        def get_delay_between_attempts_interval(self) -> timedelta:
            """How long to wait before each restart."""
            return timedelta(milliseconds=self._j_restart_strategy_configuration.delay_ms)

    class FailureRateRestartStrategyConfiguration(RestartStrategyConfiguration):
        """Restart after each failure, with a fixed delay, until too many failures happen
        within one interval."""

        def __init__(self,
                     max_failure_rate=None,
                     failure_interval=None,
                     delay_between_attempts_interval=None,
                     j_restart_strategy=None):
            if j_restart_strategy is None:
                _check_interval_type(failure_interval, _INTERVAL_MESSAGE)
                _check_interval_type(delay_between_attempts_interval, _DELAY_MESSAGE)
                interval_ms = _interval_millis(failure_interval)
                delay_ms = _interval_millis(delay_between_attempts_interval)
                java_call_args(_FAILURE_RATE_CLASS, "None." + _FAILURE_RATE_CLASS,
                               [(max_failure_rate, "int"), (_TIME_ARG, None), (_TIME_ARG, None)],
                               constructor=True)
                j_restart_strategy = _RestartSpec(
                    _KIND_FAILURE_RATE, max_failures=int(max_failure_rate),
                    interval_ms=interval_ms, delay_ms=delay_ms)
            super(RestartStrategies.FailureRateRestartStrategyConfiguration, self).__init__(
                j_restart_strategy)

        def get_max_failure_rate(self) -> int:
            """How many failures are tolerated within one interval."""
            return self._j_restart_strategy_configuration.max_failures

        def get_failure_interval(self) -> timedelta:
            """The interval failures are counted in."""
            return timedelta(milliseconds=self._j_restart_strategy_configuration.interval_ms)

        def get_delay_between_attempts_interval(self) -> timedelta:
            """How long to wait before each restart."""
            return timedelta(milliseconds=self._j_restart_strategy_configuration.delay_ms)

    class FallbackRestartStrategyConfiguration(RestartStrategyConfiguration):
        """Use the restart strategy configured for the cluster: on Spark, the
        ``restart-strategy.*`` options of the session, or Flink's default when there are none
        (``exponential-delay`` with checkpointing enabled, ``none`` without)."""

        def __init__(self, j_restart_strategy=None):
            super(RestartStrategies.FallbackRestartStrategyConfiguration, self).__init__(
                _RestartSpec(_KIND_FALLBACK) if j_restart_strategy is None else j_restart_strategy)

    @staticmethod
    def _from_j_restart_strategy(j_restart_strategy) -> Optional[RestartStrategyConfiguration]:
        """The configuration holding the record ``j_restart_strategy`` (``None`` for none)."""
        if j_restart_strategy is None:
            return None
        classes = {
            _KIND_NONE: RestartStrategies.NoRestartStrategyConfiguration,
            _KIND_FIXED_DELAY: RestartStrategies.FixedDelayRestartStrategyConfiguration,
            _KIND_FAILURE_RATE: RestartStrategies.FailureRateRestartStrategyConfiguration,
            _KIND_FALLBACK: RestartStrategies.FallbackRestartStrategyConfiguration,
        }
        return classes[j_restart_strategy.kind](j_restart_strategy=j_restart_strategy)

    @staticmethod
    def _from_flink_options(options: Mapping[str, str]) -> RestartStrategyConfiguration:
        """The configuration that ``restart-strategy.*`` options describe.

        Missing sub-options take Flink's defaults. Without ``restart-strategy.type``, or with
        a strategy PyFlink has no configuration class for (``exponential-delay``), the result
        is the fall-back configuration.

        :raises ValueError: When an option's text cannot be read.
        """
        kind = _TYPE_ALIASES.get(str(options.get(TYPE_KEY, "")).strip().lower())
        if kind == _KIND_NONE:
            spec = _RestartSpec(_KIND_NONE)
        elif kind == _KIND_FIXED_DELAY:
            spec = _RestartSpec(
                _KIND_FIXED_DELAY,
                attempts=int(options.get(FIXED_DELAY_ATTEMPTS_KEY, "1")),
                delay_ms=_parse_millis(options.get(FIXED_DELAY_DELAY_KEY, "1 s")))
        elif kind == _KIND_FAILURE_RATE:
            spec = _RestartSpec(
                _KIND_FAILURE_RATE,
                max_failures=int(options.get(FAILURE_RATE_MAX_KEY, "1")),
                interval_ms=_parse_millis(options.get(FAILURE_RATE_INTERVAL_KEY, "1 min")),
                delay_ms=_parse_millis(options.get(FAILURE_RATE_DELAY_KEY, "1 s")))
        else:
            spec = _RestartSpec(_KIND_FALLBACK)
        configuration = RestartStrategies._from_j_restart_strategy(spec)
        assert configuration is not None
        return configuration

    @staticmethod
    def no_restart() -> 'NoRestartStrategyConfiguration':
        """A configuration that never restarts the job.

        :return: The :class:`~pyflink_compat.common.RestartStrategies.NoRestartStrategyConfiguration`.
        """
        return RestartStrategies.NoRestartStrategyConfiguration()

    @staticmethod
    def fall_back_restart() -> 'FallbackRestartStrategyConfiguration':
        """A configuration that leaves the choice to the cluster's restart strategy.

        :return: The :class:`~pyflink_compat.common.RestartStrategies.FallbackRestartStrategyConfiguration`.
        """
        return RestartStrategies.FallbackRestartStrategyConfiguration()

    @staticmethod
    def fixed_delay_restart(restart_attempts: int, delay_between_attempts: int) -> \
            'FixedDelayRestartStrategyConfiguration':
        """A configuration restarting at most ``restart_attempts`` times, each time after
        ``delay_between_attempts``.

        :param restart_attempts: How many restarts are allowed.
        :param delay_between_attempts: The wait before each restart: milliseconds as an int,
                                       or a ``datetime.timedelta``.
        :return: The :class:`~pyflink_compat.common.RestartStrategies.FixedDelayRestartStrategyConfiguration`.
        """
        return RestartStrategies.FixedDelayRestartStrategyConfiguration(restart_attempts,
                                                                        delay_between_attempts)

    @staticmethod
    def failure_rate_restart(failure_rate: int, failure_interval: int, delay_interval: int) -> \
            'FailureRateRestartStrategyConfiguration':
        """A configuration restarting after each failure until more than ``failure_rate``
        failures happen within ``failure_interval``.

        :param failure_rate: How many failures one interval tolerates.
        :param failure_interval: The interval: milliseconds as an int, or a
                                 ``datetime.timedelta``.
        :param delay_interval: The wait before each restart: milliseconds as an int, or a
                               ``datetime.timedelta``.
        :return: The :class:`~pyflink_compat.common.RestartStrategies.FailureRateRestartStrategyConfiguration`.
        """
        return RestartStrategies.FailureRateRestartStrategyConfiguration(failure_rate,
                                                                         failure_interval,
                                                                         delay_interval)


def _parse_millis(text: str) -> int:
    """Milliseconds of a Flink duration option value (``10000 ms``, ``7 s``, ``1 min``)."""
    try:
        return to_millis(parse_duration(str(text)))
    except ValueError:
        raise ValueError("Could not parse duration '{}'.".format(text)) from None


from pyflink_compat._reexports import with_reexports  # noqa: E402

__getattr__ = with_reexports(__name__)
