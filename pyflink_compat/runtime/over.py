"""Flink's event-time over aggregation (``OVER (PARTITION BY ... ORDER BY rowtime ...)`` of an
unbounded table) as a Spark ``StatefulProcessor`` in ``transformWithState``.

Each partition key's rows wait in its state until the watermark passes their timestamp; then
they are taken in timestamp order (rows of one timestamp in arrival order), each emitted once
(append-only) with the aggregates of its frame, as Flink's row-time over functions do:

* ``ROWS BETWEEN n PRECEDING AND CURRENT ROW``: the row and the ``n`` rows before it; the
  oldest row is retracted before the new one is accumulated.
* ``RANGE BETWEEN INTERVAL ... PRECEDING AND CURRENT ROW``: the rows whose timestamp is at
  most the interval before the row's, the rows of the same timestamp (its peers) included.
* ``UNBOUNDED PRECEDING``: every row so far (``RANGE``: with the row's peers).

A window ordered by a processing-time attribute emits each row as it arrives instead, its
frame the rows of its key before it in arrival order.

A row whose timestamp the watermark has already reached when it arrives is late and dropped,
as in Flink. A bounded input ends with a row of its own key at the greatest timestamp, whose
watermark emits every row still waiting.
"""

from __future__ import annotations

from typing import Any, Dict, Iterator, List, Optional, Tuple

from pyspark.sql import Row as SparkRow
from pyspark.sql.streaming.stateful_processor import StatefulProcessor, StatefulProcessorHandle

from pyflink_compat.runtime.accumulators import Accumulator
from pyflink_compat.runtime.records import END_TIMESTAMP, LONG_MAX
from pyflink_compat.runtime.records import dumps, loads

__all__ = ["OverProcessor", "OverSpec", "ROWS", "RANGE"]

ROWS = "ROWS"
RANGE = "RANGE"
_LONG_MIN = -9223372036854775808


class OverSpec(object):
    """What one over aggregation computes.

    :param kind: :data:`ROWS` or :data:`RANGE`.
    :param preceding: How many rows (``ROWS``) or milliseconds (``RANGE``) before the current
        row the frame starts; ``None``: unbounded.
    :param aggregates: Per output column, the aggregate (``SUM``, ``COUNT``, ``AVG``, ``MIN``,
        ``MAX``, each also with `` DISTINCT``; ``FIRST_VALUE``, ``LAST_VALUE``) and whether it
        has an argument (``COUNT(*)`` has none), as :class:`~pyflink_compat.runtime.
        accumulators.Accumulator` takes them.
    :param result_types: Per output column, the Spark type's simple string (``bigint``,
        ``double``, ``decimal(p,s)``...).
    :param watermark_delay_ms: How far Spark's watermark stays behind the greatest timestamp
        (so that the end of a bounded input is recognised).
    :param processing_time: Whether the window is ordered by a processing-time attribute: each
        row is then emitted as it arrives, its frame the rows of its key before it in arrival
        order (``ROWS``; ``RANGE UNBOUNDED PRECEDING``, where each row is its own peer).
    """

    def __init__(self, kind: str, preceding: Optional[int], aggregates: List[Tuple[str, bool]],
                 result_types: List[str], watermark_delay_ms: int, processing_time: bool = False):
        self.kind = kind
        self.preceding = preceding
        self.aggregates = aggregates
        self.result_types = result_types
        self.watermark_delay_ms = watermark_delay_ms
        self.processing_time = processing_time


# the accumulator's former name: states pickled before it moved still load
_Accumulator = Accumulator


class OverProcessor(StatefulProcessor):
    """The Spark processor of one over aggregation.

    Its input rows have the partition columns, ``__e`` (whether the row ends a bounded
    input), ``__w`` (whether the query's filter keeps the row), ``__ts`` (the row's timestamp
    in milliseconds), ``__r`` (the row, a struct) and ``__a<i>`` (the argument of the
    ``i``-th aggregate); it emits ``__r`` and ``__o<i>`` (the ``i``-th aggregate's value).

    :param spec: What the aggregation computes (:class:`OverSpec`).
    """

    def __init__(self, spec: OverSpec):
        self.spec_bytes = dumps(spec)

    def init(self, handle: StatefulProcessorHandle) -> None:
        self.spec: OverSpec = loads(self.spec_bytes)
        self.handle = handle
        # One value per key: its waiting rows, the rows its frame may still need, its
        # accumulators and its arrival counter, pickled together (one state access each way).
        self.state = handle.getValueState("over", "v binary")

    def _watermark(self, timer_values: Any) -> int:
        watermark = int(timer_values.getCurrentWatermarkInMs())
        if watermark >= END_TIMESTAMP - self.spec.watermark_delay_ms:
            return LONG_MAX
        return watermark if watermark > 0 else _LONG_MIN

    def _load(self) -> Dict[str, Any]:
        stored = self.state.get()
        if stored is None:
            return {"waiting": [], "frame": [], "accumulator": None, "arrived": 0}
        return dict(loads(bytes(stored[0])))

    def _store(self, key_state: Dict[str, Any]) -> None:
        if not key_state["waiting"] and not key_state["frame"] and \
                key_state["accumulator"] is None:
            self.state.clear()
        else:
            self.state.update((dumps(key_state),))

    def handleInputRows(self, key: Any, rows: Iterator[Any], timerValues: Any) -> Iterator[Any]:
        if key[-1]:  # the end of a bounded input
            for _ in rows:
                pass
            return
        key_state = self._load()
        if getattr(self.spec, "processing_time", False):
            yield from self._arrivals(key_state, rows)
            self._store(key_state)
            return
        watermark = self._watermark(timerValues)
        waiting = key_state["waiting"]
        registered = set()
        for row in rows:
            timestamp = row["__ts"]
            if not row["__w"]:
                continue  # filtered out by the query's WHERE
            if timestamp is None or timestamp <= watermark:
                continue  # late (or without a time): dropped, as Flink does
            arguments = tuple(row["__a%d" % i] for i in range(len(self.spec.aggregates)))
            waiting.append((timestamp, key_state["arrived"], row["__r"], arguments))
            key_state["arrived"] += 1
            if timestamp not in registered:
                self.handle.registerTimer(timestamp)
                registered.add(timestamp)
        yield from self._emit_due(key_state, watermark)
        self._store(key_state)

    def _arrivals(self, key_state: Dict[str, Any], rows: Iterator[Any]) -> Iterator[Any]:
        """Emit each row as it arrives (a window ordered by processing time): its order of
        arrival stands for its timestamp, so that no two rows are peers."""
        for row in rows:
            if not row["__w"]:
                continue
            arguments = tuple(row["__a%d" % i] for i in range(len(self.spec.aggregates)))
            key_state["waiting"] = [(key_state["arrived"], 0, row["__r"], arguments)]
            key_state["arrived"] += 1
            yield from self._emit_due(key_state, LONG_MAX)

    def handleExpiredTimer(self, key: Any, timerValues: Any, expiredTimerInfo: Any) -> Iterator[Any]:
        watermark = max(self._watermark(timerValues), int(expiredTimerInfo.getExpiryTimeInMs()))
        key_state = self._load()
        yield from self._emit_due(key_state, watermark)
        self._store(key_state)

    def _emit_due(self, key_state: Dict[str, Any], watermark: int) -> Iterator[Any]:
        """Emit the waiting rows whose timestamp the watermark has reached, in order."""
        waiting = key_state["waiting"]
        due = sorted((r for r in waiting if r[0] <= watermark), key=lambda r: (r[0], r[1]))
        if not due:
            return
        key_state["waiting"] = [r for r in waiting if r[0] > watermark]
        spec = self.spec
        accumulator = key_state["accumulator"]
        if accumulator is None:
            accumulator = key_state["accumulator"] = Accumulator(spec.aggregates)
        frame = key_state["frame"]
        start = 0
        while start < len(due):
            end = start
            while end < len(due) and due[end][0] == due[start][0]:
                end += 1
            peers = due[start:end]
            timestamp = peers[0][0]
            if spec.kind == RANGE:
                if spec.preceding is not None:
                    while frame and timestamp - frame[0][0] > spec.preceding:
                        accumulator.add(frame.pop(0)[1], -1)
                for row in peers:
                    accumulator.add(row[3], 1)
                    if spec.preceding is not None:
                        frame.append((row[0], row[3]))
                results = accumulator.results(spec.result_types)
                for row in peers:
                    yield self._output(row, results)
            else:
                for row in peers:
                    if spec.preceding is not None:
                        if len(frame) > spec.preceding:
                            accumulator.add(frame.pop(0)[1], -1)
                        frame.append((row[0], row[3]))
                    accumulator.add(row[3], 1)
                    yield self._output(row, accumulator.results(spec.result_types))
            start = end

    def _output(self, row: Tuple[Any, ...], results: List[Any]) -> Any:
        values: Dict[str, Any] = {"__r": row[2]}
        for index, value in enumerate(results):
            values["__o%d" % index] = value
        return SparkRow(**values)

    def close(self) -> None:
        pass
