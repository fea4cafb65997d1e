"""Flink's textual value syntax: how a setting is read from, and written to, a string.

Each :class:`Codec` parses the text Flink accepts for one kind of option (durations such as
``5 s``, memory sizes such as ``20 kb``, case-insensitive enum names) and writes a canonical
text that parses back to the same value.
"""

from __future__ import annotations

import re
from typing import Any, Optional, Tuple

import attrs

from pyflink_compat.settings import durations
from pyflink_compat.settings.durations import NANOS_PER_MILLI, NANOS_PER_SECOND
from pyflink_compat.settings.kinds import INT_MAX, INT_MIN, LONG_MAX

__all__ = [
    "Codec",
    "DURATION",
    "INTEGER",
    "BOOLEAN",
    "MEMORY_SIZE",
    "TEXT",
    "FLOAT",
    "enum_codec",
    "format_duration_ms",
]

_NANOS_PER_UNIT = {}
for _names, _nanos in (
    (("d", "day"), 86_400 * NANOS_PER_SECOND),
    (("h", "hour"), 3_600 * NANOS_PER_SECOND),
    (("min", "m", "minute"), 60 * NANOS_PER_SECOND),
    (("s", "sec", "second"), NANOS_PER_SECOND),
    (("ms", "milli", "millisecond"), NANOS_PER_MILLI),
    (("µs", "micro", "microsecond"), 1_000),
    (("ns", "nano", "nanosecond"), 1),
):
    for _name in _names:
        _NANOS_PER_UNIT[_name] = _nanos
        _NANOS_PER_UNIT[_name + "s"] = _nanos

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

# Like Java's number parsing, any Unicode decimal digit counts.
_NUMBER_AND_UNIT = re.compile(r"^(\d+)\s*(.*)$")
_INTEGER = re.compile(r"[+-]?\d+")


def _number_and_unit(text: str) -> Tuple[int, str]:
    match = _NUMBER_AND_UNIT.match(text.strip().lower())
    if match is None:
        raise ValueError(text)
    return int(match.group(1)), match.group(2).strip()


def _parse_duration(text: str, bounded: bool = True) -> int:
    number, unit = _number_and_unit(text)
    factor = _NANOS_PER_UNIT.get(unit or "ms")
    if factor is None:
        raise ValueError(text)
    # Flink reads the number as a long, then needs the duration's seconds to fit in one.
    if bounded and (number > LONG_MAX or number * factor > LONG_MAX * NANOS_PER_SECOND):
        raise ValueError(text)
    return number * factor


def _encode_duration(nanos: int) -> str:
    if nanos < 0:
        return "-" + _encode_duration(-nanos)
    return durations.show(nanos)


def format_duration_ms(millis: int) -> str:
    """A duration in milliseconds as Flink prints it (``3 s``, ``10 min``, ``250 ms``)."""
    for unit, size in (("d", 86_400_000), ("h", 3_600_000), ("min", 60_000), ("s", 1000)):
        if millis and millis % size == 0:
            return "{} {}".format(millis // size, unit)
    return "{} ms".format(millis)


def _parse_memory(text: str) -> int:
    number, unit = _number_and_unit(text)
    factor = _BYTES_PER_UNIT.get(unit or "b")
    if factor is None or number * factor > LONG_MAX:
        raise ValueError(text)
    return number * factor


def _parse_boolean(text: str) -> bool:
    # Flink compares the whole text, without trimming it (as for enums and integers).
    lowered = text.lower()
    if lowered not in ("true", "false"):
        raise ValueError(text)
    return lowered == "true"


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
    :param parse: Text to value; raises ``ValueError`` for text Flink would not accept.
    :param encode: Value to the canonical text stored in the Spark session conf.
    """

    name: str
    parse_text: Any
    encode_value: Any = str
    choices: Optional[Tuple[str, ...]] = None

    def parse(self, text: str) -> Any:
        """Read user-supplied text, as Flink's configuration parser does."""
        return self.parse_text(text)

    def decode(self, text: str) -> Any:
        """Read text this codec wrote; also accepts the negative values setters allow."""
        if self.name != "duration":
            return self.parse_text(text)
        # A stored duration came from a java.time.Duration, which may be negative or hold more
        # nanoseconds than a long: what Flink's text syntax bounds does not apply to it.
        stripped = text.strip()
        if stripped.startswith("-"):
            return -_parse_duration(stripped[1:], bounded=False)
        return _parse_duration(stripped, bounded=False)

    def encode(self, value: Any) -> str:
        return str(self.encode_value(value))


#: Durations are kept in nanoseconds, so that sub-millisecond values survive a round trip.
DURATION = Codec("duration", _parse_duration, _encode_duration)
INTEGER = Codec("integer", _parse_integer)
BOOLEAN = Codec("boolean", _parse_boolean, lambda v: "true" if v else "false")
MEMORY_SIZE = Codec("memory size", _parse_memory, lambda v: "{} b".format(v))
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
