"""The consistency a job's checkpoints guarantee."""
from enum import Enum

__all__ = ['CheckpointingMode']


class CheckpointingMode(Enum):
    """The processing guarantee checkpoints give when a job recovers from a failure.

    :data:`EXACTLY_ONCE`:

    Every record affects the results exactly once after recovery. On Spark, each query runs
    synchronous micro-batches: a batch's offsets are logged before it runs and its commit is
    logged after, so a restart replays exactly the uncommitted batch. End to end this holds
    with a replayable source and an idempotent or transactional sink (the file sink, or
    ``foreachBatch`` keyed by batch id).

    :data:`AT_LEAST_ONCE`:

    Records may be processed again after recovery, never lost. On Spark, an eligible query
    (stateless, with a sink that supports it) uses asynchronous progress tracking, which logs
    progress only once per checkpoint interval; any other query runs synchronous micro-batches,
    whose guarantee is stronger.

    >>> events = env.spark_session.readStream.format("rate").load()
    >>> env = env.enable_checkpointing(1000, CheckpointingMode.AT_LEAST_ONCE)
    >>> env = env.add_sink(events.writeStream.format("noop"), name="stateless")
    >>> env = env.add_sink(events.groupBy("value").count().writeStream.format("noop"), name="stateful")
    >>> for query in env.get_job_plan().queries:
    ...     print(query.name, "-", query.guarantee)
    stateless - at-least-once (asynchronous progress tracking, checkpoint every 1000 ms)
    stateful - exactly-once micro-batches (asynchronous progress tracking does not support stateful queries)
    """

    EXACTLY_ONCE = 0
    AT_LEAST_ONCE = 1

    @staticmethod
    def _from_j_checkpointing_mode(j_checkpointing_mode) -> 'CheckpointingMode':
        return CheckpointingMode[str(j_checkpointing_mode)]

    def _to_j_checkpointing_mode(self):
        return self.name


from pyflink_compat._reexports import with_reexports  # noqa: E402

__getattr__ = with_reexports(__name__)
