"""From an environment to a running job: planning, checks and start.

The environment's API methods (``add_sink``, ``execute``, ``get_job_plan``,
``configure_writer``) delegate here, so that everything Spark-specific about running a job
stays in this package.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Optional, Sequence

from pyflink_compat.settings.store import SettingsStore, object_of
from pyflink_compat.spark.ownership import make_temporary_root, remove_temporary_root
from pyflink_compat.spark.plan import TEMPORARY, JobPlan, SinkSpec, plan_job
from pyflink_compat.spark.supervisor import JobRun
from pyflink_compat.spark.writers import apply_query_plan

if TYPE_CHECKING:
    from pyspark.sql import SparkSession

__all__ = ["check_writer", "build_plan", "start_job", "ship_python_dependencies", "configure_one_writer",
           "PLANNED_TEMPORARY_ROOT"]

#: Shown in a plan printed before the job starts, in place of the job's temporary directory.
PLANNED_TEMPORARY_ROOT = "file:<temporary directory of the job>"


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


def build_plan(store: SettingsStore, job_name: str, sinks: Sequence[SinkSpec], temporary_root: str) -> JobPlan:
    """The plan of a job from the environment's current settings, read afresh from its
    session conf (which is what the job's queries run with)."""
    store.refresh()
    store.sync_spark_conf()
    raw = store.raw()
    return plan_job(job_name, store.snapshot(raw), list(raw), object_of(raw, "checkpoint-storage"),
                    object_of(raw, "state-backend"), sinks, temporary_root)


def start_job(store: SettingsStore, spark: "SparkSession", job_name: str, sinks: Sequence[SinkSpec]) -> JobRun:
    """Plan the job, then start its queries under supervision."""
    from pyflink_compat._logging import install_default_handler

    # The job log shows in a plain script; an application that set up logging keeps its own.
    install_default_handler()
    if not sinks:
        raise RuntimeError("No sinks registered: add at least one with env.add_sink(writer) "
                           "before executing the job.")
    temporary_root = make_temporary_root(job_name)
    try:
        plan = build_plan(store, job_name, sinks, temporary_root)
        ship_python_dependencies(spark, plan)
        run = JobRun(plan, sinks, spark, temporary_root)
        run.start()
    except BaseException:  # the job never started: nothing will remove its directory later
        remove_temporary_root(temporary_root)
        raise
    return run


def ship_python_dependencies(spark: "SparkSession", plan: JobPlan) -> None:
    """Ship the job's Python files and archives (``python.files``, ``python.archives``) to the
    executors, as Flink ships them to its Python workers."""
    context = spark.sparkContext
    for path in plan.python_files:
        context.addPyFile(path)
    for path in plan.python_archives:
        context.addArchive(path)


def configure_one_writer(store: SettingsStore, writer: Any, name: str, job_name: str,
                         temporary_root: Optional[str] = None) -> Any:
    """Apply the checkpoint configuration to a single writer the caller starts itself."""
    root = temporary_root or make_temporary_root(job_name)
    plan = build_plan(store, job_name, [SinkSpec(name, writer)], root)
    if temporary_root is None and plan.queries[0].location_kind != TEMPORARY:
        remove_temporary_root(root)  # a durable location: the directory made above is unused
    return apply_query_plan(writer, plan.queries[0])
