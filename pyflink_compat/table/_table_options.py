"""What each table option means on Spark, declared once, and the helpers that read its text.

A table environment's :class:`~pyflink_compat.table.TableConfig` holds Flink options. Every
option reaches the :class:`~pyflink_compat.datastream.StreamExecutionEnvironment` it belongs
to through :meth:`~pyflink_compat.datastream.StreamExecutionEnvironment.configure` when a job
starts (as Flink's table planner does when it builds a pipeline), so the checkpoint, state
backend and restart options are validated and applied by the environment itself. The options
below are the table options the environment does not read: :data:`TABLE_OPTIONS` says, for
each, what it becomes in the environment's Spark session, or that Spark has no such concept.
"""

from __future__ import annotations

import re
from typing import Callable, Optional, Tuple

import attrs

__all__ = ["TableOption", "TABLE_OPTIONS", "table_option", "format_duration_ms",
           "parse_duration_ms", "flink_text"]


@attrs.frozen
class TableOption:
    """The Spark meaning of one table option (or of every option under a prefix).

    :param key: The Flink key, or a prefix ending with ``.`` that covers a family of keys.
    :param spark_key: The Spark session conf key the option's value is written to, or ``None``
        when Spark has no such setting (the option is then stored and read back only).
    :param effect: What the option does on Spark, in one sentence for the job plan and docs.
    :param to_spark: Turns the Flink value into the Spark value; returns ``None`` to remove the
        Spark key (so that Spark's own default applies).
    """

    key: str
    spark_key: Optional[str]
    effect: str
    to_spark: Optional[Callable[[str], Optional[str]]] = None

    def covers(self, key: str) -> bool:
        """Whether this entry declares ``key``."""
        return key.startswith(self.key) if self.key.endswith(".") else key == self.key


def _time_zone(text: str) -> Optional[str]:
    # Flink's "default" is the JVM's zone, which is also Spark's default session time zone.
    return None if text == "default" else text


#: The table options the environment does not read, with their Spark meaning. Exact keys come
#: before the prefixes that would also cover them.
TABLE_OPTIONS: Tuple[TableOption, ...] = (
    TableOption("table.local-time-zone", "spark.sql.session.timeZone",
                "the session time zone of the environment's Spark session (the value Flink "
                "validated, as a Java zone id; 'default' leaves Spark's default)", _time_zone),
    TableOption("table.exec.state.ttl", None,
                "none: Spark SQL keeps aggregation state until the watermark drops it; use "
                "withWatermark or an arbitrary stateful operation with timeouts"),
    TableOption("table.generated-code.max-length", None,
                "none: Spark's code generation splits methods by its own thresholds"),
    TableOption("table.builtin-catalog-name", None, "none: Spark's catalog is spark_catalog"),
    TableOption("table.builtin-database-name", None, "none: Spark's database is 'default'"),
    TableOption("python.", None,
                "none: Python code runs in PySpark's workers (spark.pyspark.python)"),
    TableOption("table.", None, "none: Flink's table planner does not run on Spark"),
)


def table_option(key: str) -> Optional[TableOption]:
    """The entry of :data:`TABLE_OPTIONS` that declares ``key``, or ``None`` for an option only
    the environment reads (checkpointing, state backend, restart strategy, parallelism, runtime
    mode, jars, Python dependencies: see the settings registry)."""
    from pyflink_compat.settings.registry import SETTINGS

    if any(key in setting.all_keys for setting in SETTINGS):
        return None
    for option in TABLE_OPTIONS:
        if option.covers(key):
            return option
    return None


# -- durations as Flink writes and reads them ---------------------------------------------------
_UNITS_MS = (("d", 86_400_000), ("h", 3_600_000), ("min", 60_000), ("s", 1000))

_NANOS = {}
for _names, _nanos in (
        (("d", "day"), 86_400 * 10**9), (("h", "hour"), 3_600 * 10**9),
        (("min", "m", "minute"), 60 * 10**9), (("s", "sec", "second"), 10**9),
        (("ms", "milli", "millisecond"), 10**6), (("us", "\u00b5s", "micro", "microsecond"), 10**3),
        (("ns", "nano", "nanosecond"), 1)):
    for _name in _names:
        _NANOS[_name] = _nanos
        if len(_name) > 3:
            _NANOS[_name + "s"] = _nanos

_DURATION = re.compile(r"(-?[0-9]+)\s*(\S*)")
_MS_TEXT = re.compile(r"(-?)([0-9]+) ms")


def format_duration_ms(millis: int) -> str:
    """A duration in milliseconds as Flink writes it, in its largest whole unit (``90 s``,
    ``36 h``, ``1500 ms``, ``-1 s``)."""
    if millis < 0:
        return "-" + format_duration_ms(-millis)
    for unit, size in _UNITS_MS:
        if millis and millis % size == 0:
            return "{} {}".format(millis // size, unit)
    return "{} ms".format(millis)


def parse_duration_ms(text: str) -> int:
    """The milliseconds of a Flink duration text (``90000``, ``1 h``, ``2 min``...).

    :raises ValueError: when Flink would not parse it.
    """
    match = _DURATION.fullmatch(text.strip().lower())
    if match is None:
        raise ValueError(text)
    unit = match.group(2) or "ms"
    if unit not in _NANOS:
        raise ValueError(text)
    return int(match.group(1)) * _NANOS[unit] // 1_000_000


def flink_text(text: str) -> str:
    """An option's text as Flink's configuration gives it back: a duration stored in
    milliseconds is written in its largest whole unit, anything else unchanged."""
    match = _MS_TEXT.fullmatch(text)
    if match is None:
        return text
    millis = int(match.group(2))
    return format_duration_ms(-millis if match.group(1) else millis)
