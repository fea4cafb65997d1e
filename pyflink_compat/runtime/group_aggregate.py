"""Flink's streaming group aggregation (``GROUP BY`` without a window, mini-batch off) as a
Spark ``StatefulProcessor`` in ``transformWithState``.

Each key's accumulators live in its state. Every input row of a key, in arrival order, is
accumulated and the key's new result emitted, as Flink's group aggregate function emits one
change per input record; a row that leaves the result as it was emits nothing (Flink drops
such an update too when no state retention is set). Each emitted row carries its Flink row kind
in :data:`~pyflink_compat.sql.changelog_streams.KIND_COLUMN`: ``+I`` for a key's first result,
then ``-U`` (the result before, kept in the key's state) and ``+U`` (the new one), so that the
kinds survive a restart from a checkpoint as the state does.

Over a changelog (rows with their kinds), ``-U`` and ``-D`` rows retract from the
accumulators (``MIN`` and ``MAX`` keep a count of each value); when a group's count of rows
drops to zero its last row is emitted as ``-D`` and its state cleared, as Flink's group
aggregate does.
"""

from __future__ import annotations

from typing import Any, Dict, Iterator, List, Optional, Tuple

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
    :param retracting: Whether the input rows carry their kinds (``__kind``): the rows of a
        changelog, whose ``-U`` and ``-D`` retract from the accumulators.
    """

    def __init__(self, keys: int, aggregates: List[Tuple[str, bool]], result_types: List[str],
                 retracting: bool = False):
        self.keys = keys
        self.aggregates = aggregates
        self.result_types = result_types
        self.retracting = retracting


class GroupAggregateProcessor(StatefulProcessor):
    """The Spark processor of one group aggregation.

    Its input rows, grouped by the key columns ``__g<i>``, have ``__a<i>`` (the argument of
    the ``i``-th aggregate), and, over a changelog, ``__kind`` (the row's kind: ``-U`` and
    ``-D`` retract it); it
    emits the key columns, ``__o<i>`` (the ``i``-th aggregate's value) and the row's kind
    (:data:`~pyflink_compat.sql.changelog_streams.KIND_COLUMN`) after each row that changes them.

    :param spec: What the aggregation computes (:class:`GroupAggregateSpec`).
    """

    def __init__(self, spec: GroupAggregateSpec):
        self.spec_bytes = dumps(spec)

    def init(self, handle: StatefulProcessorHandle) -> None:
        self.spec: GroupAggregateSpec = loads(self.spec_bytes)
        # one value per key: its accumulator, its last result and its count of rows, pickled
        # together
        self.state = handle.getValueState("group", "v binary")

    def handleInputRows(self, key: Any, rows: Iterator[Any], timerValues: Any) -> Iterator[Any]:
        spec = self.spec
        stored = self.state.get()
        accumulator: Accumulator
        last: Optional[List[Any]]
        if stored is None:
            accumulator, last, count = Accumulator(spec.aggregates), None, 0
        else:
            saved = loads(bytes(stored[0]))
            if len(saved) == 2:
                # state saved before the row count was kept: that operator read append-only
                # input, whose counts are never retracted, so any positive count serves
                (accumulator, last), count = saved, 1
            else:
                accumulator, last, count = saved
        arguments = ["__a%d" % i for i in range(len(spec.aggregates))]
        # a key's rows come in the order its micro-batch holds them (Spark's sort by key keeps
        # it within a partition)
        for row in rows:
            sign = -1 if spec.retracting and row["__kind"] in ("-U", "-D") else 1
            if sign < 0 and count == 0:
                continue  # a retraction of a row the group does not hold (Flink ignores it)
            accumulator.add(tuple(row[a] for a in arguments), sign)
            count += sign
            if count == 0:  # the group is empty: its row is deleted and its state cleared
                if last is not None:
                    yield self._output(key, last, "-D")
                accumulator, last = Accumulator(spec.aggregates), None
                continue
            results = accumulator.results(spec.result_types)
            if results == last:
                continue  # an update that changes nothing is not emitted
            if last is None:
                yield self._output(key, results, "+I")
            else:
                yield self._output(key, last, "-U")
                yield self._output(key, results, "+U")
            last = results
        if count == 0:
            self.state.clear()
        else:
            self.state.update((dumps((accumulator, last, count)),))

    def _output(self, key: Tuple[Any, ...], results: List[Any], kind: str) -> Any:
        values: Dict[str, Any] = {"__g%d" % i: key[i] for i in range(self.spec.keys)}
        for index, value in enumerate(results):
            values["__o%d" % index] = value
        values[KIND_COLUMN] = kind
        return SparkRow(**values)

    def close(self) -> None:
        pass
