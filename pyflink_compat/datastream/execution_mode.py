"""Whether a DataStream program runs as an unbounded stream or as a bounded batch."""
from enum import Enum

__all__ = ['RuntimeExecutionMode']


class RuntimeExecutionMode(Enum):
    """How a program is executed: the Flink option ``execution.runtime-mode``.

    :data:`STREAMING`:

    The program runs as a continuous stream: on Spark, its queries keep running with a
    periodic trigger until they are stopped.

    :data:`BATCH`:

    The program processes the data available when it starts and then finishes: on Spark, its
    queries run with the available-now trigger (all data present at start, in as many
    micro-batches as needed, then the query stops). Checkpoints still record progress, so a
    later run continues where this one ended.

    :data:`AUTOMATIC`:

    Flink picks ``BATCH`` when all sources are bounded and ``STREAMING`` otherwise.
    """

    STREAMING = 0
    BATCH = 1
    AUTOMATIC = 2

    @staticmethod
    def _from_j_execution_mode(j_execution_mode) -> 'RuntimeExecutionMode':
        name = j_execution_mode if isinstance(j_execution_mode, str) else j_execution_mode.name()
        return RuntimeExecutionMode[str(name).upper()]

    def _to_j_execution_mode(self):
        """The value of ``execution.runtime-mode`` this mode stands for."""
        return self.name


from pyflink_compat._reexports import with_reexports  # noqa: E402

__getattr__ = with_reexports(__name__)
