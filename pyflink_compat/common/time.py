"""Time amounts, held as ``java.time.Duration`` objects in the Spark JVM."""
from py4j.protocol import Py4JError, Py4JJavaError

from pyflink_compat.missing.declared import Declared
from pyflink_compat.util.exceptions import JavaMethodNotFoundError, call_java

__all__ = ['Duration', 'Instant', 'Time']


def _duration_of(java_method: str, amount):
    from pyflink_compat.java_gateway import get_gateway

    target = "z:java.time.Duration." + java_method
    j_factory = getattr(get_gateway().jvm.java.time.Duration, java_method)
    try:
        return Duration(call_java(target, j_factory, amount))
    except Py4JJavaError:
        raise
    except Py4JError as e:
        raise JavaMethodNotFoundError(*e.args) from None


class Duration(object):
    """An amount of time, such as a checkpoint timeout.

    Two durations are equal when they amount to the same time (``Duration.of_minutes(60) ==
    Duration.of_hours(1)``). Like PyFlink's, a duration is not hashable.

    :param j_duration: The JVM ``java.time.Duration`` to wrap.
    """

    def __init__(self, j_duration):
        self._j_duration = j_duration

    @staticmethod
    def of_days(days: int):
        """A duration of ``days`` standard 24-hour days."""
        return _duration_of("ofDays", days)

    @staticmethod
    def of_hours(hours: int):
        """A duration of ``hours`` hours."""
        return _duration_of("ofHours", hours)

    @staticmethod
    def of_millis(millis: int):
        """A duration of ``millis`` milliseconds."""
        return _duration_of("ofMillis", millis)

    @staticmethod
    def of_minutes(minutes: int):
        """A duration of ``minutes`` minutes."""
        return _duration_of("ofMinutes", minutes)

    @staticmethod
    def of_nanos(nanos: int):
        """A duration of ``nanos`` nanoseconds."""
        return _duration_of("ofNanos", nanos)

    @staticmethod
    def of_seconds(seconds: int):
        """A duration of ``seconds`` seconds."""
        return _duration_of("ofSeconds", seconds)

    def __eq__(self, other):
        return isinstance(other, Duration) and bool(self._j_duration.equals(other._j_duration))


class Instant(Declared):
    """PyFlink's ``Instant``, declared so that imports work; using it raises
    :class:`~pyflink_compat.missing.NotSupportedError`."""


class Time(Declared):
    """PyFlink's ``Time``, declared so that imports work; using it (``Time.seconds(10)``...)
    raises :class:`~pyflink_compat.missing.NotSupportedError`."""
