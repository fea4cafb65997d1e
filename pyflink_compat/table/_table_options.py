"""What each table option means on Spark, declared once, and how an option's text reads back.

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

from pyflink_compat.settings.values import format_duration, from_millis

__all__ = ["TableOption", "TABLE_OPTIONS", "table_option", "flink_text"]


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


_MS_TEXT = re.compile(r"(-?)([0-9]+) ms")


def flink_text(text: str) -> str:
    """An option's text as Flink's configuration gives it back: a duration stored in
    milliseconds is written in its largest whole unit, anything else unchanged."""
    match = _MS_TEXT.fullmatch(text)
    if match is None:
        return text
    millis = int(match.group(2))
    return format_duration(from_millis(-millis if match.group(1) else millis))
