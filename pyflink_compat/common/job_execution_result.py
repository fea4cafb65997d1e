"""What :meth:`StreamExecutionEnvironment.execute` returns."""
from typing import Any, Dict

from pyflink_compat.common.job_id import JobID

__all__ = ['JobExecutionResult']


class JobExecutionResult(object):
    """The outcome of a job that ended without failing.

    :param job_id: The job's identifier.
    :param net_runtime: How long the job ran, in milliseconds.
    """

    def __init__(self, job_id: JobID, net_runtime: int):
        self._job_id = job_id
        self._net_runtime = net_runtime

    def get_job_id(self) -> JobID:
        """The job's identifier."""
        return self._job_id

    def get_net_runtime(self) -> int:
        """How long the job ran, in milliseconds."""
        return self._net_runtime

    def get_accumulator_result(self, accumulator_name: str):
        """Always ``None``: Spark jobs have no Flink accumulators."""
        return None

    def get_all_accumulator_results(self) -> Dict[str, Any]:
        """Always empty: Spark jobs have no Flink accumulators."""
        return {}

    def __str__(self):
        return "Program execution finished\nJob with JobID %s has finished.\n" \
               "Job Runtime: %d ms\n" % (self._job_id, self._net_runtime)


from pyflink_compat._reexports import with_reexports  # noqa: E402

__getattr__ = with_reexports(__name__)
