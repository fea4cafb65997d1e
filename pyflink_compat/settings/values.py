"""Flink's values: durations in the one unit they are kept in, and how a setting is read from,
and written to, text.

Inside pyflink_compat a duration is an ``int`` of nanoseconds, from the registry through the
job plan, so that sub-millisecond values set with a :class:`~pyflink_compat.common.Duration`
survive. The API converts milliseconds at its boundary, the runtime converts to seconds for
its clocks and the Spark writer to milliseconds for Spark's triggers, all with the functions
below; Flink's duration text (``5 s``, ``1 min``, a bare number of milliseconds) is parsed and
written here too.

Each :class:`Codec` parses the text Flink accepts for one kind of option (durations, memory
sizes such as ``20 kb``, case-insensitive enum names) and writes a canonical text that parses
back to the same value.
"""

from __future__ import annotations

import datetime
import re
from typing import Any, Callable, Dict, Optional, Tuple

import attrs

from pyflink_compat.util.java_limits import INT_MAX, INT_MIN, LONG_MAX

__all__ = [
    "NANOS_PER_MICRO",
    "NANOS_PER_MILLI",
    "NANOS_PER_SECOND",
    "NANOS_PER_MINUTE",
    "NANOS_PER_HOUR",
    "NANOS_PER_DAY",
    "from_millis",
    "to_millis",
    "to_seconds",
    "from_seconds_and_nanos",
    "to_seconds_and_nanos",
    "timedelta_millis",
    "timedelta_micros",
    "parse_duration",
    "read_duration",
    "duration_text",
    "format_duration",
    "format_memory_size",
    "Codec",
    "DURATION",
    "INTEGER",
    "BOOLEAN",
    "MEMORY_SIZE",
    "TEXT",
    "FLOAT",
    "enum_codec",
]

# -- durations ----------------------------------------------------------------------------------
#: Nanoseconds in one microsecond.
NANOS_PER_MICRO = 1_000
#: Nanoseconds in one millisecond.
NANOS_PER_MILLI = 1_000 * NANOS_PER_MICRO
#: Nanoseconds in one second.
NANOS_PER_SECOND = 1_000 * NANOS_PER_MILLI
#: Nanoseconds in one minute.
NANOS_PER_MINUTE = 60 * NANOS_PER_SECOND
#: Nanoseconds in one hour.
NANOS_PER_HOUR = 60 * NANOS_PER_MINUTE
#: Nanoseconds in one day of 24 hours.
NANOS_PER_DAY = 24 * NANOS_PER_HOUR


def from_millis(millis: int) -> int:
    """A duration given in milliseconds (the API's unit), in nanoseconds."""
    return millis * NANOS_PER_MILLI


def to_millis(nanos: int) -> int:
    """A duration in whole milliseconds, rounded down (as Java's ``Duration.toMillis``)."""
    return nanos // NANOS_PER_MILLI


def to_seconds(nanos: int) -> float:
    """A duration in seconds, for clocks such as :func:`time.monotonic`."""
    return nanos / NANOS_PER_SECOND


def from_seconds_and_nanos(seconds: int, nanos: int) -> int:
    """A ``java.time.Duration``'s seconds and nano adjustment, as one count of nanoseconds."""
    return seconds * NANOS_PER_SECOND + nanos


def to_seconds_and_nanos(nanos: int) -> Tuple[int, int]:
    """A duration as the seconds and nano adjustment of a ``java.time.Duration``."""
    seconds, rest = divmod(nanos, NANOS_PER_SECOND)
    return seconds, rest


def timedelta_millis(value: datetime.timedelta) -> int:
    """A ``timedelta`` in milliseconds, rounded to the nearest as PyFlink rounds it before
    calling Java with a count of milliseconds."""
    return int(round(value.total_seconds() * 1000))


def timedelta_micros(value: datetime.timedelta) -> int:
    """A ``timedelta`` in microseconds, rounded to the nearest as PyFlink rounds it before
    calling Java with a count of microseconds."""
    return round(value.total_seconds() * 1000 * 1000)


# Flink's unit labels, largest unit first; the first label of each is the one Flink writes.
# A label given as plural is also accepted with an "s" appended, as Flink does.
_DURATION_UNITS: Tuple[Tuple[int, Tuple[str, ...], Tuple[str, ...]], ...] = (
    (NANOS_PER_DAY, ("d",), ("day",)),
    (NANOS_PER_HOUR, ("h",), ("hour",)),
    (NANOS_PER_MINUTE, ("min", "m"), ("minute",)),
    (NANOS_PER_SECOND, ("s",), ("sec", "second")),
    (NANOS_PER_MILLI, ("ms",), ("milli", "millisecond")),
    (NANOS_PER_MICRO, ("\u00b5s",), ("micro", "microsecond")),
    (1, ("ns",), ("nano", "nanosecond")),
)
_NANOS_PER_LABEL: Dict[str, int] = {}
for _nanos, _singular, _plural in _DURATION_UNITS:
    for _label in _singular + _plural + tuple(label + "s" for label in _plural):
        _NANOS_PER_LABEL[_label] = _nanos

# Like Java's number parsing, any Unicode decimal digit counts.
_NUMBER_AND_UNIT = re.compile(r"^(\d+)\s*(.*)$")
_INTEGER = re.compile(r"[+-]?\d+")


def _number_and_unit(text: str) -> Tuple[int, str]:
    match = _NUMBER_AND_UNIT.match(text.strip().lower())
    if match is None:
        raise ValueError(text)
    return int(match.group(1)), match.group(2).strip()


def _parse_duration(text: str, bounded: bool) -> int:
    number, unit = _number_and_unit(text)
    factor = _NANOS_PER_LABEL.get(unit or "ms")
    if factor is None:
        raise ValueError(text)
    # Flink reads the number as a long, then needs the duration's seconds to fit in one.
    if bounded and (number > LONG_MAX or number * factor > LONG_MAX * NANOS_PER_SECOND):
        raise ValueError(text)
    return number * factor


def parse_duration(text: str) -> int:
    """The nanoseconds of a duration written as Flink accepts it from a user (``5 s``,
    ``1 min``, ``250``: a bare number means milliseconds).

    :raises ValueError: For text Flink would not accept.
    """
    return _parse_duration(text, bounded=True)


def read_duration(text: str) -> int:
    """The nanoseconds of a duration text this package wrote (:func:`duration_text`,
    :func:`format_duration`), or a user wrote.

    A written duration came from a ``java.time.Duration``, which may be negative or hold more
    nanoseconds than a long: Flink's bounds on user text do not apply to it.

    :raises ValueError: For text that is not a duration.
    """
    stripped = text.strip()
    if stripped.startswith("-"):
        return -_parse_duration(stripped[1:], bounded=False)
    return _parse_duration(stripped, bounded=False)


def duration_text(nanos: int) -> str:
    """The canonical text of a duration, as the Spark session conf and the job summary hold
    it: whole milliseconds as ``ms`` (``5000 ms``), otherwise ``ns``."""
    if nanos % NANOS_PER_MILLI == 0:
        return "{} ms".format(to_millis(nanos))
    return "{} ns".format(nanos)


def format_duration(nanos: int) -> str:
    """A duration as Flink writes it back: in its largest whole unit (``90 s``, ``36 h``,
    ``1500 ms``, ``-1 s``; zero is ``0 ms``)."""
    if nanos == 0:
        return "0 ms"
    for size, singular, _ in _DURATION_UNITS:
        if nanos % size == 0:
            magnitude = abs(nanos) // size
            return "{}{} {}".format("-" if nanos < 0 else "", magnitude, singular[0])
    raise AssertionError("every count of nanoseconds is whole in nanoseconds")


# -- memory sizes -------------------------------------------------------------------------------
_BYTES_PER_UNIT = {}
for _names, _bytes in (
    (("b", "bytes"), 1),
    (("k", "kb", "kibibytes"), 1 << 10),
    (("m", "mb", "mebibytes"), 1 << 20),
    (("g", "gb", "gibibytes"), 1 << 30),
    (("t", "tb", "tebibytes"), 1 << 40),
):
    for _name in _names:
        _BYTES_PER_UNIT[_name] = _bytes

# The units Flink writes a memory size in, largest first.
_WRITTEN_BYTE_UNITS = (("tb", 1 << 40), ("gb", 1 << 30), ("mb", 1 << 20), ("kb", 1 << 10))


def _parse_memory(text: str) -> int:
    number, unit = _number_and_unit(text)
    factor = _BYTES_PER_UNIT.get(unit or "b")
    if factor is None or number * factor > LONG_MAX:
        raise ValueError(text)
    return number * factor


def format_memory_size(size: int) -> str:
    """A byte count as Flink writes a memory size: in its largest whole unit (``20 kb``),
    else in ``bytes``."""
    for unit, factor in _WRITTEN_BYTE_UNITS:
        if size and size % factor == 0:
            return "{} {}".format(size // factor, unit)
    return "{} bytes".format(size)


# -- other kinds --------------------------------------------------------------------------------
def _parse_boolean(text: str) -> bool:
    # Flink compares the whole text, without trimming it (as for enums and integers).
    lowered = text.lower()
    if lowered not in ("true", "false"):
        raise ValueError(text)
    return lowered == "true"


def _boolean_text(value: Any) -> str:
    return "true" if value else "false"


def _parse_integer(text: str) -> int:
    if not _INTEGER.fullmatch(text):
        raise ValueError(text)
    value = int(text)
    if not INT_MIN <= value <= INT_MAX:
        raise ValueError(text)
    return value


@attrs.frozen
class Codec:
    """How one kind of setting is written as text and read back.

    :param name: What the kind is called in the docs (``duration``, ``integer``...).
    :param parse_text: Text a user gave to value; raises ``ValueError`` for text Flink would
        not accept.
    :param encode_value: Value to the canonical text stored in the Spark session conf.
    :param choices: The values an enum kind accepts, for the docs.
    :param decode_text: Text this codec wrote to value, when it accepts more than
        ``parse_text`` does; ``parse_text`` otherwise.
    :param show_value: Value to the text the job summary shows.
    :param flink_value: Value to the text Flink itself writes for it (the docs' defaults).
    """

    name: str
    parse_text: Callable[[str], Any]
    encode_value: Callable[[Any], Any] = str
    choices: Optional[Tuple[str, ...]] = None
    decode_text: Optional[Callable[[str], Any]] = None
    show_value: Callable[[Any], str] = str
    flink_value: Callable[[Any], str] = str

    def parse(self, text: str) -> Any:
        """Read user-supplied text, as Flink's configuration parser does."""
        return self.parse_text(text)

    def decode(self, text: str) -> Any:
        """Read text this codec wrote (see :meth:`encode`)."""
        if self.decode_text is None:
            return self.parse_text(text)
        return self.decode_text(text)

    def encode(self, value: Any) -> str:
        """The canonical text of ``value``, as stored in the Spark session conf."""
        return str(self.encode_value(value))

    def show(self, value: Any) -> str:
        """``value`` as the job summary shows it."""
        return self.show_value(value)

    def flink_text(self, value: Any) -> str:
        """``value`` as Flink writes it."""
        return self.flink_value(value)


#: Durations are kept in nanoseconds, so that sub-millisecond values survive a round trip;
#: stored ones may be negative (setters allow it).
DURATION = Codec("duration", parse_duration, duration_text, decode_text=read_duration,
                 show_value=duration_text, flink_value=format_duration)
INTEGER = Codec("integer", _parse_integer)
BOOLEAN = Codec("boolean", _parse_boolean, _boolean_text, flink_value=_boolean_text)
MEMORY_SIZE = Codec("memory size", _parse_memory, lambda v: "{} b".format(v),
                    flink_value=format_memory_size)
TEXT = Codec("string", lambda text: text)
FLOAT = Codec("float", lambda text: float(text.strip()))


def enum_codec(*names: str) -> Codec:
    """A case-insensitive choice among ``names``, stored upper case."""

    def parse(text: str) -> str:
        upper = text.upper()
        if upper not in names:
            raise ValueError(text)
        return upper

    return Codec("enum", parse, str, tuple(names))
