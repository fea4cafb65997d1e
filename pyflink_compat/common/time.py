"""Time amounts: :class:`Duration` (a ``java.time.Duration`` in the Spark JVM) and the older
:class:`Time`, a plain count of milliseconds."""
from py4j.protocol import Py4JError, Py4JJavaError

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


class Instant(object):
    """A point on the time line: whole seconds since the epoch and the nanoseconds after them
    (Java's ``Instant``), the value of a ``Types.INSTANT()`` field and of a ``TIMESTAMP_LTZ``
    column.

    :param seconds: Seconds since 1970-01-01T00:00:00Z.
    :param nanos: Nanoseconds within that second.
    """

    def __init__(self, seconds, nanos):
        self.seconds = seconds
        self.nanos = nanos

    def to_epoch_milli(self):
        """Milliseconds since the epoch (PyFlink's arithmetic, kept as it is, also for a
        negative second with a positive fraction)."""
        if self.seconds < 0 < self.nanos:
            return (self.seconds + 1) * 1000 + self.nanos // 10001000 - 1000
        return self.seconds * 1000 + self.nanos // 1000000

    @staticmethod
    def of_epoch_milli(epoch_milli: int) -> 'Instant':
        """The instant ``epoch_milli`` milliseconds after the epoch."""
        return Instant(epoch_milli // 1000, (epoch_milli % 1000) * 1000000)

    def __eq__(self, other):
        return self.__class__ == other.__class__ and \
            (self.seconds, self.nanos) == (other.seconds, other.nanos)

    def __repr__(self):
        return 'Instant<{}, {}>'.format(self.seconds, self.nanos)


class Time(object):
    """An interval of time, counted in milliseconds (Flink's older time type, still taken by
    restart strategies and windows).

    The amount is kept exactly as given, without any check, as PyFlink does. Two intervals
    are equal when they hold the same number of milliseconds; like PyFlink's, an interval is
    not hashable.

    :param milliseconds: The length of the interval in milliseconds.
    """

    def __init__(self, milliseconds: int):
        self._milliseconds = milliseconds

    def to_milliseconds(self) -> int:
        """The length of this interval in milliseconds."""
        return self._milliseconds

    @staticmethod
    def milliseconds(milliseconds: int):
        """An interval of ``milliseconds`` milliseconds."""
        return Time(milliseconds)

    @staticmethod
    def seconds(seconds: int):
        """An interval of ``seconds`` seconds."""
        return Time.milliseconds(seconds * 1000)

    @staticmethod
    def minutes(minutes: int):
        """An interval of ``minutes`` minutes."""
        return Time.seconds(minutes * 60)

    @staticmethod
    def hours(hours: int):
        """An interval of ``hours`` hours."""
        return Time.minutes(hours * 60)

    @staticmethod
    def days(days: int):
        """An interval of ``days`` days of 24 hours."""
        return Time.hours(days * 24)

    def __eq__(self, other):
        return self.__class__ == other.__class__ and self._milliseconds == other._milliseconds

    def __str__(self):
        return "{} ms".format(self._milliseconds)


from pyflink_compat._reexports import with_reexports  # noqa: E402

__getattr__ = with_reexports(__name__)
