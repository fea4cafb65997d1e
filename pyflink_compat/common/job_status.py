"""The states a job goes through, as Flink names them."""
from enum import Enum

__all__ = ['JobStatus']


class JobStatus(Enum):
    """The status of a job.

    ``CREATED`` before its queries start, ``RUNNING`` while they run, ``RESTARTING`` while a
    failure is being recovered from the checkpoints, ``FAILING``/``CANCELLING`` while its
    queries stop, and one of the terminal states ``FAILED``, ``CANCELED`` or ``FINISHED``.
    ``SUSPENDED`` marks a job whose driver stopped it without ending it (its checkpoints are
    kept for a re-run). ``RECONCILING`` is never used on Spark.
    """

    CREATED = 0
    RUNNING = 1
    FAILING = 2
    FAILED = 3
    CANCELLING = 4
    CANCELED = 5
    FINISHED = 6
    RESTARTING = 7
    SUSPENDED = 8
    RECONCILING = 9

    def is_globally_terminal_state(self) -> bool:
        """Whether the job is over for good (failed, cancelled or finished)."""
        return self in (JobStatus.FAILED, JobStatus.CANCELED, JobStatus.FINISHED)

    def is_terminal_state(self) -> bool:
        """Whether this run of the job is over (also true for ``SUSPENDED``)."""
        return self.is_globally_terminal_state() or self is JobStatus.SUSPENDED


from pyflink_compat._reexports import with_reexports  # noqa: E402

__getattr__ = with_reexports(__name__)
