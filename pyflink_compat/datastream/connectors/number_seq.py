"""PyFlink's ``pyflink.datastream.connectors.number_seq``: a bounded source of numbers.

:meth:`NumberSequenceSource.as_stream` is the bounded stream of the numbers from ``start`` to
``end`` (both included), in order, as PyFlink gives them at parallelism one: what
``env.from_source`` gives for this source.
"""
from typing import Any

__all__ = ['NumberSequenceSource']


class NumberSequenceSource(object):
    """The numbers (longs) from ``start`` to ``end``, both included.

    :param start: The first number.
    :param end: The last number.
    """

    def __init__(self, start: int, end: int):
        self._start = int(start)
        self._end = int(end)

    def as_stream(self, env: Any, watermark_strategy: Any, source_name: str, type_info: Any = None) -> Any:
        """The numbers as a bounded stream of ``env`` (``from_source``'s arguments)."""
        from pyflink_compat.common.typeinfo import Types

        stream = env.from_collection(range(self._start, self._end + 1),
                                     type_info if type_info is not None else Types.LONG())
        stream._j_data_stream.name = source_name
        if getattr(watermark_strategy, "_timestamp_assigner", None) is not None:
            stream = stream.assign_timestamps_and_watermarks(watermark_strategy)
        return stream


from pyflink_compat._reexports import with_reexports  # noqa: E402

__getattr__ = with_reexports(__name__)
