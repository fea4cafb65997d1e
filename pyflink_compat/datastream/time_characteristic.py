"""Which clock time-based operations of a DataStream program follow (deprecated in Flink)."""
from enum import Enum

__all__ = ['TimeCharacteristic']


class TimeCharacteristic(Enum):
    """The notion of time used by windows and timers.

    :data:`ProcessingTime`:

    The wall clock of the machine running the operator. Results depend on when records
    arrive; it is the cheapest and lowest-latency choice.

    :data:`IngestionTime`:

    The time at which each record entered the pipeline at its source.

    :data:`EventTime`:

    The timestamp each record carries, with watermarks telling how far event time has
    progressed. On Spark this is a timestamp column with ``DataFrame.withWatermark``.

    Setting ``ProcessingTime`` sets the automatic watermark interval to 0; setting one of the
    other two sets it to 200 ms when it was 0, as in Flink.
    """

    ProcessingTime = 0
    IngestionTime = 1
    EventTime = 2

    @staticmethod
    def _from_j_time_characteristic(j_time_characteristic) -> 'TimeCharacteristic':
        name = (j_time_characteristic if isinstance(j_time_characteristic, str)
                else j_time_characteristic.name())
        return TimeCharacteristic[str(name)]

    def _to_j_time_characteristic(self):
        """The name of this characteristic, as it is stored."""
        return self.name


from pyflink_compat._reexports import with_reexports  # noqa: E402

__getattr__ = with_reexports(__name__)
