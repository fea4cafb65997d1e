"""A handle on a running job, shaped like PyFlink's ``JobClient``."""
from typing import TYPE_CHECKING, List

from pyflink_compat.common.completable_future import CompletableFuture
from pyflink_compat.common.job_id import JobID

if TYPE_CHECKING:
    from pyflink_compat.spark.stats import CompletedCheckpointStats
    from pyflink_compat.spark.supervisor import JobRun

__all__ = ['JobClient']


class JobClient(object):
    """Watches and controls a job started with
    :meth:`~pyflink_compat.datastream.StreamExecutionEnvironment.execute_async`.

    :param j_job_client: The run of the job this client controls (a Python object, not a
                         JVM one; ``pyflink_compat.spark.supervisor.job_run`` gives it back).
    """

    def __init__(self, j_job_client: 'JobRun'):
        self._run = j_job_client

    def get_job_id(self) -> JobID:
        """The job's identifier."""
        return self._run.job_id

    def get_job_status(self) -> CompletableFuture:
        """The job's current :class:`~pyflink_compat.common.job_status.JobStatus`.

        :return: A future already holding the status.
        """
        return CompletableFuture._completed(self._run.status)

    def cancel(self) -> CompletableFuture:
        """Cancel the job: its queries stop and retention applies as for a cancellation.

        :return: A future that completes (with ``None``) once the job is cancelled.
        """
        return CompletableFuture(self._run.cancel())

    def stop_with_savepoint(self, advance_to_end_of_event_time: bool,
                            savepoint_directory: str = None) -> CompletableFuture:
        """Stop the job with a savepoint: its queries stop, then each query's checkpoint at its
        last committed micro-batch is copied into a new savepoint, and the job ends
        ``FINISHED``. Retention applies to the job's checkpoints only after the savepoint is
        written. When the savepoint cannot be written, the queries start again from their
        checkpoints and the job keeps running.

        :param advance_to_end_of_event_time: Must be ``False``: Spark cannot fire every
                                             event-time timer before stopping (the future
                                             fails otherwise).
        :param savepoint_directory: Where to create the savepoint; by default the configured
                                    ``execution.checkpointing.savepoint-dir``.
        :return: A future holding the savepoint's directory.
        """
        return CompletableFuture(self._run.stop_with_savepoint(advance_to_end_of_event_time,
                                                               savepoint_directory))

    def trigger_savepoint(self, savepoint_directory: str = None) -> CompletableFuture:
        """Take a savepoint while the job keeps running: a copy of each query's checkpoint at
        its newest committed micro-batch. It fails when a query has not committed one yet.

        :param savepoint_directory: Where to create the savepoint; by default the configured
                                    ``execution.checkpointing.savepoint-dir``.
        :return: A future holding the savepoint's directory.
        """
        return CompletableFuture(self._run.trigger_savepoint(savepoint_directory))

    def get_accumulators(self) -> CompletableFuture:
        """Always an empty dict: Spark jobs have no Flink accumulators."""
        return CompletableFuture._completed({})

    def get_job_execution_result(self) -> CompletableFuture:
        """The job's :class:`~pyflink_compat.common.job_execution_result.JobExecutionResult`.

        :return: A future that completes when the job ends; its ``result()`` raises
                 :class:`~pyflink_compat.util.exceptions.JobExecutionError` when the job failed.
        """
        return CompletableFuture(self._run.result)

    def get_checkpoint_statistics(self) -> List['CompletedCheckpointStats']:
        """Every checkpoint the job completed so far, oldest first."""
        return self._run.checkpoint_statistics()


from pyflink_compat._reexports import with_reexports  # noqa: E402

__getattr__ = with_reexports(__name__)
