"""What happens to a job's checkpoints when the job ends."""
from enum import Enum

from pyflink_compat.settings.registry import Retention

__all__ = ['ExternalizedCheckpointRetention']


class ExternalizedCheckpointRetention(Enum):
    """Whether a job's checkpoints outlive the job.

    :data:`DELETE_ON_CANCELLATION`:

    Checkpoints are deleted when the job is cancelled or finishes, and kept when it fails, so
    that a failed job can be resumed.

    :data:`RETAIN_ON_CANCELLATION`:

    Checkpoints are always kept; removing them is up to you.

    :data:`NO_EXTERNALIZED_CHECKPOINTS`:

    Checkpoints are deleted whenever the job ends (the default).

    A crash of the driver process ends nothing: no clean-up runs, so re-running the job resumes
    from its checkpoints under every mode.

    >>> config = env.get_checkpoint_config().set_externalized_checkpoint_retention(
    ...     ExternalizedCheckpointRetention.RETAIN_ON_CANCELLATION)
    >>> env.spark_session.conf.get("spark.flink.execution.checkpointing.externalized-checkpoint-retention")
    'RETAIN_ON_CANCELLATION'
    >>> print(env.get_job_plan().retention)  # applied by the job when it ends
    RETAIN_ON_CANCELLATION
    """

    DELETE_ON_CANCELLATION = 0
    RETAIN_ON_CANCELLATION = 1
    NO_EXTERNALIZED_CHECKPOINTS = 2

    @staticmethod
    def _from_j_externalized_checkpoint_retention(j_retention_mode) \
            -> 'ExternalizedCheckpointRetention':
        return ExternalizedCheckpointRetention[str(j_retention_mode)]

    def _to_j_externalized_checkpoint_retention(self) -> Retention:
        return Retention[self.name]


from pyflink_compat._reexports import with_reexports  # noqa: E402

__getattr__ = with_reexports(__name__)
