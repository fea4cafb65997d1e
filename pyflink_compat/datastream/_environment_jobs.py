"""The environment's methods that run a job: its sinks, its plan, and executing it.

:class:`EnvironmentJobsMixin` holds them; they are copied into
:class:`~pyflink_compat.datastream.StreamExecutionEnvironment`, whose only base stays
``object``, as in PyFlink.
"""
import sys
from typing import TYPE_CHECKING, Any, List, cast

from pyflink_compat.util.exceptions import java_error
from pyflink_compat.util.shared_methods import install_methods

if TYPE_CHECKING:
    from pyspark.sql import SparkSession

    from pyflink_compat.datastream.stream_execution_environment import StreamExecutionEnvironment

__all__ = ["EnvironmentJobsMixin"]

_TARGET = "StreamExecutionEnvironment."


def _interrupted_line(plan: Any) -> str:
    """The one line a job interrupted by Ctrl-C ends with."""
    if plan.job_dir is not None:
        return ("Job '{}' interrupted: its checkpoints are kept under {}; run it again to resume "
                "from them.".format(plan.job_name, plan.job_dir))
    return ("Job '{}' interrupted: it checkpointed to a temporary location (no checkpoint "
            "directory configured), which was removed.".format(plan.job_name))


class EnvironmentJobsMixin(object):
    """The job-running methods of the environment.

    :meth:`install` copies them into the environment's class.
    """

    @classmethod
    def install(cls, target: Any) -> Any:
        """Class decorator: give ``target`` every method defined here."""
        return install_methods(cls, target)

    if TYPE_CHECKING:  # defined by the environment itself
        _store: Any
        _sinks: List[Any]
        _runs: List[Any]

        @property
        def spark_session(self) -> 'SparkSession': ...

        def _prepare_job(self) -> None: ...

    def add_sink(self, writer, name: str = None, bounded: bool = False,
                 continuous: bool = False) -> 'StreamExecutionEnvironment':
        """Register a Spark streaming writer as one sink of this environment's job.

        The writer's query starts when the job is executed, with the trigger, checkpoint
        location and query name the checkpoint configuration gives it.

        :param writer: A :class:`pyspark.sql.streaming.DataStreamWriter` of a DataFrame built
                       from :attr:`spark_session`.
        :param name: Names the query and its checkpoint subdirectory; ``sink_<n>`` (by
                     registration order) when omitted. Two sinks may not share a name.
        :param bounded: Whether the sink finishes once its input is exhausted (as a Flink job
                        with bounded sources does); otherwise it runs until cancelled.
        :param continuous: Run in Spark's continuous processing mode with the checkpoint
                           interval as epoch interval (an explicit opt-in: map-like queries and
                           a few sinks only, at-least-once).
        :return: This environment.
        """
        from pyflink_compat.spark.writers import check_writer
        from pyflink_compat.spark.plan import SinkSpec

        check_writer(self.spark_session, writer)
        if name is None:
            name = "sink_%d" % len(self._sinks)
        if not isinstance(name, str) or not name or "/" in name:
            raise ValueError("A sink name must be a non-empty string without '/', got %r" % (name,))
        if any(sink.name == name for sink in self._sinks):
            raise ValueError("A sink named '%s' is already registered." % name)
        self._sinks.append(SinkSpec(name, writer, bool(bounded), bool(continuous)))
        return cast('StreamExecutionEnvironment', self)  # the environment this is installed in

    def get_job_plan(self, job_name: str = 'Flink Streaming Job'):
        """What a job of the registered sinks would do on Spark, without starting it.

        ``print(env.get_job_plan())`` shows, per query, the trigger, checkpoint location and
        guarantee; the Spark session keys set; and for every Flink setting its value and
        whether Spark applies it, pyflink_compat emulates it, or it has no Spark effect. The
        same summary is logged when the job starts.

        :param job_name: The job's name (it names the checkpoint directory).
        :return: A :class:`~pyflink_compat.spark.plan.JobPlan`.

        >>> events = env.spark_session.readStream.format("rate").load()
        >>> env = env.enable_checkpointing(2000).add_sink(events.writeStream.format("noop"), name="events")
        >>> plan = env.get_job_plan("demo")
        >>> print(str(plan).split("Flink settings:")[0].rstrip())
        Job 'demo' on Spark
          checkpoint storage: jobmanager (-)
          restart strategy: exponential-delay (1 s to 60 s, x1.5, jitter 0.1, 2147483647 attempts)
          Spark session conf:
            spark.sql.streaming.minBatchesToRetain = 1
            spark.sql.streaming.stateStore.providerClass = org.apache.spark...HDFSBackedStateStoreProvider
            spark.sql.streaming.checkpointFileManagerClass = <unset>
          query 'events':
            trigger: ProcessingTime(2000 ms)
            checkpoint location: file:<temporary directory of the job>/events (temporary)
            guarantee: exactly-once (synchronous micro-batches)
        >>> for status in plan.statuses[:4]:  # then every Flink setting: its value and Spark effect
        ...     print(status.setting.key, "-", status.status)
        execution.checkpointing.interval - applied
        execution.checkpointing.mode - applied
        execution.checkpointing.timeout - emulated
        execution.checkpointing.min-pause - no Spark effect
        """
        from pyflink_compat.spark.plan import PLANNED_TEMPORARY_ROOT, build_plan

        self._prepare_job()
        return build_plan(self._store, job_name, self._sinks, PLANNED_TEMPORARY_ROOT)

    def configure_writer(self, writer, name: str, job_name: str = 'Flink Streaming Job'):
        """Apply the checkpoint configuration to one writer that you start yourself.

        Sets the query name, the checkpoint location (``<dir>/<job_name>/<name>``, or a
        temporary one) and the trigger. What this loses compared to :meth:`execute`: no
        restart strategy, checkpoint timeout or tolerable failures, no retention clean-up, no
        ``max_state_size`` enforcement, no checkpoint statistics and no warning about
        settings without Spark effect.

        :param writer: A :class:`pyspark.sql.streaming.DataStreamWriter`.
        :param name: The query name.
        :param job_name: The job name used in the checkpoint location.
        :return: The same writer, ready to ``start()``.
        """
        from pyflink_compat.spark.writers import check_writer, configure_one_writer

        check_writer(self.spark_session, writer)
        self._prepare_job()
        return configure_one_writer(self._store, writer, name, job_name)

    def execute(self, job_name: str = None):
        """Run the job and wait until it ends.

        Starts one streaming query per registered sink under the checkpoint configuration.
        Returns when every sink has finished (bounded sinks) or the job was cancelled from a
        :class:`~pyflink_compat.common.JobClient`; a job that fails beyond its restart
        strategy raises. Interrupting the wait (Ctrl-C) stops the queries and keeps their
        checkpoints, so a re-run resumes: one line on standard error says where they are, and a
        script then exits with status 130 (as after Ctrl-C in a shell) instead of printing a
        traceback; in an interactive session ``KeyboardInterrupt`` is raised again.

        :param job_name: The job's name; ``Flink Streaming Job`` when omitted.
        :return: A :class:`~pyflink_compat.common.JobExecutionResult`.
        :raises JobExecutionError: when the job failed; ``__cause__`` is the failure.

        A word count over one file, whose sink ends once the file is read:

        >>> import tempfile
        >>> spark, work = env.spark_session, tempfile.mkdtemp()
        >>> spark.createDataFrame([["apple"], ["bread"], ["apple"]], "word STRING").write.json(work + "/in")
        >>> counts = spark.readStream.schema("word STRING").json(work + "/in").groupBy("word").count()
        >>> env = env.enable_checkpointing(1000).add_sink(
        ...     counts.writeStream.outputMode("complete").format("memory"), name="counts", bounded=True)
        >>> result = env.execute("word count")
        >>> spark.table("counts").sort("word").collect()
        [Row(word='apple', count=2), Row(word='bread', count=1)]
        >>> result.get_net_runtime() > 0
        True
        """
        client = self.execute_async(job_name if job_name is not None else 'Flink Streaming Job')
        run = client._run
        try:
            while not run.wait(0.5):
                pass
        except KeyboardInterrupt:
            run.interrupt()
            run.wait()
            print(_interrupted_line(run.plan), file=sys.stderr, flush=True)
            if hasattr(sys, "ps1") or sys.flags.interactive:
                raise
            raise SystemExit(130) from None
        return run.result.result()

    def execute_async(self, job_name: str = 'Flink Streaming Job'):
        """Start the job and return at once.

        :param job_name: The job's name (it names the checkpoint directory).
        :return: A :class:`~pyflink_compat.common.JobClient` for the running job.

        >>> events = env.spark_session.readStream.format("rate").load()
        >>> client = env.enable_checkpointing(1000).add_sink(events.writeStream.format("noop")).execute_async()
        >>> client.cancel().result()
        >>> print(client.get_job_status().result())
        JobStatus.CANCELED
        >>> env.execute_async()  # executing took the sinks: a job needs new ones
        Traceback (most recent call last):
        pyflink_compat.util.exceptions.JavaIllegalStateError: An error occurred while calling ...
        : java.lang.IllegalStateException: No operators defined in streaming topology...
        """
        from pyflink_compat.common.job_client import JobClient
        from pyflink_compat.spark.supervisor import start_job

        if not self._sinks:
            # As in Flink, executing clears the pipeline: a second call needs new sinks.
            raise java_error("java.lang.IllegalStateException",
                             "No operators defined in streaming topology. Cannot execute.",
                             _TARGET + "getStreamGraph")
        self._prepare_job()
        sinks = list(self._sinks)
        self._sinks.clear()
        run = start_job(self._store, self.spark_session, job_name, sinks)
        self._runs.append(run)
        return JobClient(run)

    def close(self):
        """Release the environment: cancel its jobs that still run and forget its sinks."""
        for run in self._runs:
            if not run.status.is_terminal_state():
                run.cancel()
                run.wait()
        self._sinks.clear()
