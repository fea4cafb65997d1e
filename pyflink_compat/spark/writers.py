"""Applying a query plan to a PySpark ``DataStreamWriter``.

Everything applied here was decided by the plan; this module only hands it to Spark. PySpark's
``trigger()`` takes no JVM trigger object, so the JVM writer behind it is configured directly,
as PySpark itself does.
"""

from __future__ import annotations

from typing import Any

from pyflink_compat.spark.plan import QueryPlan
from pyflink_compat.util.java_classes import java_class

__all__ = ["apply_query_plan"]


def apply_query_plan(writer: Any, plan: QueryPlan) -> Any:
    """Give ``writer`` the query name, write options and trigger of ``plan``.

    :return: The same writer, ready to ``start()``.
    """
    j_writer = writer._jwrite.queryName(plan.name)
    trigger = java_class("org.apache.spark.sql.streaming.Trigger")
    if plan.available_now:
        j_writer = j_writer.trigger(trigger.AvailableNow())
    elif plan.interval_ms is not None:
        if plan.continuous:
            j_writer = j_writer.trigger(trigger.Continuous(plan.interval_ms))
        else:
            j_writer = j_writer.trigger(trigger.ProcessingTime(plan.interval_ms))
    for key, value in plan.write_options.items():
        j_writer = j_writer.option(key, value)
    writer._jwrite = j_writer
    return writer
