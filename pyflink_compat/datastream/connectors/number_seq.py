"""PyFlink's ``pyflink.datastream.connectors.number_seq``: a bounded source of numbers.

``env.from_source`` gives for it the bounded stream of the numbers from ``start`` to ``end``
(both included), in order, as PyFlink gives them at parallelism one.
"""

__all__ = ['NumberSequenceSource']


class NumberSequenceSource(object):
    """The numbers (longs) from ``start`` to ``end``, both included.

    :param start: The first number.
    :param end: The last number.
    """

    def __init__(self, start: int, end: int):
        self._start = int(start)
        self._end = int(end)


from pyflink_compat._reexports import with_reexports  # noqa: E402

__getattr__ = with_reexports(__name__)
