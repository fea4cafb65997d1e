"""PyFlink's ``pyflink.datastream.connectors.base``: the bases of sources and sinks.

A :class:`Source` or :class:`Sink` here holds a description of the connector (what
:meth:`~pyflink_compat.datastream.StreamExecutionEnvironment.from_source` and
:meth:`~pyflink_compat.datastream.DataStream.sink_to` turn into a Spark reader or writer),
where PyFlink's hold a Java object.
"""
from abc import ABC, abstractmethod
from enum import Enum
from typing import Any, Optional

__all__ = ['Source', 'Sink', 'DeliveryGuarantee']


class Source(object):
    """The base of the sources given to ``from_source``.

    :param source: What the source reads (its description).
    """

    def __init__(self, source: Any):
        self._j_function = source

    def get_java_function(self) -> Any:
        return self._j_function


class Sink(object):
    """The base of the sinks given to ``sink_to``.

    :param sink: Where the sink writes (its description).
    """

    def __init__(self, sink: Any):
        self._j_function = sink

    def get_java_function(self) -> Any:
        return self._j_function


class DeliveryGuarantee(Enum):
    """How often a sink writes each record when a job restarts from a checkpoint."""

    # The trailing commas give the same member values as PyFlink's.
    EXACTLY_ONCE = 0,
    AT_LEAST_ONCE = 1,
    NONE = 2


class StreamTransformer(ABC):
    """Turns a stream into the one a sink writes."""

    @abstractmethod
    def apply(self, ds: Any) -> Any:
        pass


class SupportsPreprocessing(ABC):
    """A sink that transforms its stream before writing it."""

    @abstractmethod
    def get_transformer(self) -> Optional[StreamTransformer]:
        pass


from pyflink_compat._reexports import with_reexports  # noqa: E402

__getattr__ = with_reexports(__name__)
