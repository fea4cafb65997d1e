"""Flink's streaming group aggregation (``GROUP BY`` without a window, mini-batch off) as a
Spark ``StatefulProcessor`` in ``transformWithState``.

Each key's accumulators live in its state. Every input row of a key, in arrival order, is
accumulated and the key's new result emitted, as Flink's group aggregate function emits one
change per input record; a row that leaves the result as it was emits nothing (Flink drops
such an update too when no state retention is set). Each emitted row carries its Flink row kind
in :data:`~pyflink_compat.sql.changelog_streams.KIND_COLUMN`: ``+I`` for a key's first result,
then ``-U`` (the result before, kept in the key's state) and ``+U`` (the new one), so that the
kinds survive a restart from a checkpoint as the state does.
"""

from __future__ import annotations

from typing import Any, Dict, Iterator, List, Tuple

from pyspark.sql import Row as SparkRow
from pyspark.sql.streaming.stateful_processor import StatefulProcessor, StatefulProcessorHandle

from pyflink_compat.runtime.accumulators import Accumulator
from pyflink_compat.runtime.records import dumps, loads
from pyflink_compat.sql.changelog_streams import KIND_COLUMN

__all__ = ["GroupAggregateProcessor", "GroupAggregateSpec"]


class GroupAggregateSpec(object):
    """What one group aggregation computes.

    :param keys: The number of group key columns (``__g<i>``).
    :param aggregates: Per aggregate, its name (``SUM``, ``COUNT``, ``AVG``, ``MIN``, ``MAX``)
        and whether it has an argument (``COUNT(*)`` has none).
    :param result_types: Per aggregate, the Spark type's simple string of its value.
    """

    def __init__(self, keys: int, aggregates: List[Tuple[str, bool]], result_types: List[str]):
        self.keys = keys
        self.aggregates = aggregates
        self.result_types = result_types


class GroupAggregateProcessor(StatefulProcessor):
    """The Spark processor of one group aggregation.

    Its input rows, grouped by the key columns ``__g<i>``, have ``__a<i>`` (the argument of
    the ``i``-th aggregate); it
    emits the key columns, ``__o<i>`` (the ``i``-th aggregate's value) and the row's kind
    (:data:`~pyflink_compat.sql.changelog_streams.KIND_COLUMN`) after each row that changes them.

    :param spec: What the aggregation computes (:class:`GroupAggregateSpec`).
    """

    def __init__(self, spec: GroupAggregateSpec):
        self.spec_bytes = dumps(spec)

    def init(self, handle: StatefulProcessorHandle) -> None:
        self.spec: GroupAggregateSpec = loads(self.spec_bytes)
        # one value per key: its accumulator and its last result, pickled together
        self.state = handle.getValueState("group", "v binary")

    def handleInputRows(self, key: Any, rows: Iterator[Any], timerValues: Any) -> Iterator[Any]:
        spec = self.spec
        stored = self.state.get()
        accumulator: Accumulator
        if stored is None:
            accumulator, last = Accumulator(spec.aggregates), None
        else:
            accumulator, last = loads(bytes(stored[0]))
        arguments = ["__a%d" % i for i in range(len(spec.aggregates))]
        # a key's rows come in the order its micro-batch holds them (Spark's sort by key keeps
        # it within a partition)
        for row in rows:
            accumulator.add(tuple(row[a] for a in arguments), 1)
            results = accumulator.results(spec.result_types)
            if results == last:
                continue  # an update that changes nothing is not emitted
            if last is None:
                yield self._output(key, results, "+I")
            else:
                yield self._output(key, last, "-U")
                yield self._output(key, results, "+U")
            last = results
        self.state.update((dumps((accumulator, last)),))

    def _output(self, key: Tuple[Any, ...], results: List[Any], kind: str) -> Any:
        values: Dict[str, Any] = {"__g%d" % i: key[i] for i in range(self.spec.keys)}
        for index, value in enumerate(results):
            values["__o%d" % index] = value
        values[KIND_COLUMN] = kind
        return SparkRow(**values)

    def close(self) -> None:
        pass
