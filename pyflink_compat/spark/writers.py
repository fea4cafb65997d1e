"""PySpark ``DataStreamWriter`` objects given to an environment: checking one, and planning a
single writer that the caller starts itself (the plan is applied by
:func:`pyflink_compat.spark.plan.apply_query_plan`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Optional

from pyflink_compat.settings.store import SettingsStore
from pyflink_compat.spark.plan import (
    TEMPORARY, SinkSpec, apply_query_plan, build_plan, make_temporary_root, remove_temporary_root)

if TYPE_CHECKING:
    from pyspark.sql import SparkSession

__all__ = ["check_writer", "configure_one_writer"]


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


def configure_one_writer(store: SettingsStore, writer: Any, name: str, job_name: str,
                         temporary_root: Optional[str] = None) -> Any:
    """Apply the checkpoint configuration to a single writer the caller starts itself."""
    root = temporary_root or make_temporary_root(job_name)
    plan = build_plan(store, job_name, [SinkSpec(name, writer)], root)
    if temporary_root is None and plan.queries[0].location_kind != TEMPORARY:
        remove_temporary_root(root)  # a durable location: the directory made above is unused
    return apply_query_plan(writer, plan.queries[0])
