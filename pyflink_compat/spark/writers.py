"""PySpark ``DataStreamWriter`` objects: checking one an environment is given, and applying a
query plan to it.

Everything applied here was decided by the plan; this module only hands it to Spark. PySpark's
``trigger()`` takes no JVM trigger object, so the JVM writer behind it is configured directly,
as PySpark itself does.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Optional

from pyflink_compat.settings.store import SettingsStore
from pyflink_compat.spark.plan import TEMPORARY, QueryPlan, SinkSpec, build_plan
from pyflink_compat.spark.ownership import make_temporary_root, remove_temporary_root
from pyflink_compat.util.java_classes import java_class

if TYPE_CHECKING:
    from pyspark.sql import SparkSession

__all__ = ["apply_query_plan", "check_writer", "configure_one_writer"]


def check_writer(spark: "SparkSession", writer: Any) -> None:
    """Reject a writer that is not a streaming writer of the environment's Spark session."""
    j_writer = getattr(writer, "_jwrite", None)
    session = getattr(writer, "_spark", None)
    if j_writer is None or session is None or not hasattr(writer, "start"):
        raise TypeError("add_sink() takes a pyspark DataStreamWriter (DataFrame.writeStream), "
                        "got {}".format(type(writer).__name__))
    if not bool(session._jsparkSession.equals(spark._jsparkSession)):
        raise ValueError("The writer's DataFrame was built from another Spark session; build the "
                         "pipeline from env.spark_session so that the checkpoint configuration "
                         "applies to it.")


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


def configure_one_writer(store: SettingsStore, writer: Any, name: str, job_name: str,
                         temporary_root: Optional[str] = None) -> Any:
    """Apply the checkpoint configuration to a single writer the caller starts itself."""
    root = temporary_root or make_temporary_root(job_name)
    plan = build_plan(store, job_name, [SinkSpec(name, writer)], root)
    if temporary_root is None and plan.queries[0].location_kind != TEMPORARY:
        remove_temporary_root(root)  # a durable location: the directory made above is unused
    return apply_query_plan(writer, plan.queries[0])
