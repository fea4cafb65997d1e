"""PyFlink's ``pyflink.datastream.timerservice``: the clock and timers a function sees."""
from abc import ABC, abstractmethod


class TimerService(ABC):
    """The current times, and the timers of the current key."""

    @abstractmethod
    def current_processing_time(self) -> int:
        """The processing time, in milliseconds since the epoch."""
        pass

    @abstractmethod
    def current_watermark(self) -> int:
        """The event-time watermark, in milliseconds since the epoch."""
        pass

    @abstractmethod
    def register_processing_time_timer(self, timestamp: int) -> None:
        """Call ``on_timer`` once processing time reaches ``timestamp``."""
        pass

    @abstractmethod
    def register_event_time_timer(self, timestamp: int) -> None:
        """Call ``on_timer`` once the watermark reaches ``timestamp``."""
        pass

    @abstractmethod
    def delete_processing_time_timer(self, timestamp: int) -> None:
        """Forget the processing-time timer at ``timestamp``."""
        pass

    @abstractmethod
    def delete_event_time_timer(self, timestamp: int) -> None:
        """Forget the event-time timer at ``timestamp``."""
        pass
