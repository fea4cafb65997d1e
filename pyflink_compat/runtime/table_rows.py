"""A table's rows and a stream's records, converted in Spark's Python workers.

The functions here run inside ``mapInArrow``: :func:`decoder` reads the pickled records of a
stream into a table's typed columns (``from_data_stream``), :func:`encoder` writes a table's
rows as records of ``Row`` values (``to_data_stream``). They import neither sqlglot nor the
table runtime, which the workers need not have.
"""

from __future__ import annotations

import datetime
from typing import Any, Callable, Iterator, List, Optional, Tuple

__all__ = ["ChangelogBatch", "decoder", "encoder", "epoch_micros"]


def decoder(spec: bytes) -> Callable[[Iterator[Any]], Iterator[Any]]:
    """The ``mapInArrow`` function reading records into columns. ``spec`` pickles, per column,
    the record field it reads (its position, or -1 for the record's timestamp) and whether the
    value is an instant, with the Arrow schema of the columns."""

    def run(batches: Iterator[Any]) -> Iterator[Any]:
        import pyarrow as pa  # type: ignore[import-untyped]

        from pyflink_compat.runtime.records import loads

        read, arrow = loads(spec)
        for batch in batches:
            columns = batch.to_pydict()
            out: List[List[Any]] = [[] for _ in read]
            for v, ts in zip(columns["v"], columns["ts"]):
                values = _field_values(loads(v))
                for target, (position, kind) in zip(out, read):
                    if position < 0:
                        target.append(None if ts is None else ts * 1000)
                    elif kind == "instant":
                        target.append(epoch_micros(values[position]))
                    else:
                        target.append(values[position])
            yield pa.RecordBatch.from_arrays(
                [pa.array(c, type=f.type) for c, f in zip(out, arrow)], schema=arrow)

    return run


def _field_values(value: Any) -> List[Any]:
    from pyflink_compat.common.types import Row

    if isinstance(value, Row):
        return list(value._values)
    if isinstance(value, (tuple, list)):
        return list(value)
    return [value]


def epoch_micros(value: Any) -> Optional[int]:
    """An instant as microseconds since the epoch (Spark keeps timestamps in microseconds)."""
    if value is None:
        return None
    if isinstance(value, datetime.datetime):
        if value.tzinfo is None:
            value = value.replace(tzinfo=datetime.timezone.utc)
        delta = value - datetime.datetime(1970, 1, 1, tzinfo=datetime.timezone.utc)
        return (delta.days * 86400 + delta.seconds) * 1000000 + delta.microseconds
    # PyFlink hands an Instant to Flink as its to_epoch_milli(), whatever that gives
    return int(value.to_epoch_milli()) * 1000


def encoder(spec: bytes) -> Callable[[Iterator[Any]], Iterator[Any]]:
    """The ``mapInArrow`` function writing a table's rows as records. ``spec`` pickles the
    column names, how each column's values become Python values (``instant``: a
    ``TIMESTAMP_LTZ`` read as ``Instant``; ``local``: a ``TIMESTAMP`` held as a Spark timestamp,
    read as the date-time in the session's zone ``zone``; ``value``), that zone, the position
    of the column whose value is each record's timestamp (``None``: no timestamps), and the
    position of the column holding each row's kind (``None``: every row is ``+I``)."""

    def run(batches: Iterator[Any]) -> Iterator[Any]:
        import pyarrow as pa

        from pyspark import TaskContext

        from pyflink_compat.common.types import Row, RowKind
        from pyflink_compat.runtime.records import arrow_schema, dumps, loads

        names, kinds, zone, time_attribute, kind_position = loads(spec)
        row_kinds = {str(kind): kind for kind in RowKind}
        fields = [n for i, n in enumerate(names) if i != kind_position]
        context = TaskContext.get()
        partition = int(context.partitionId()) if context is not None else 0
        schema = arrow_schema()
        count = 0
        for batch in batches:
            out: Tuple[List[Any], ...] = ([], [], [], [])
            for values in zip(*[batch.column(i).to_pylist() for i in range(batch.num_columns)]):
                row = Row(*[_python_value(v, kind, zone) for i, (v, kind) in enumerate(zip(values, kinds))
                            if i != kind_position])
                row.set_field_names(fields)
                if kind_position is not None:
                    row.set_row_kind(row_kinds[values[kind_position]])
                out[0].append(dumps(row))
                moment = None if time_attribute is None else values[time_attribute]
                micros = None if moment is None else epoch_micros(moment)
                out[1].append(None if micros is None else micros // 1000)
                out[2].append([partition, count])
                out[3].append(None)
                count += 1
            yield pa.RecordBatch.from_arrays([pa.array(c, type=f.type) for c, f in zip(out, schema)],
                                             schema=schema)

    return run


def _python_value(value: Any, kind: str, zone: str) -> Any:
    from pyflink_compat.common.time import Instant

    if value is None or kind == "value":
        return value
    if kind == "instant":
        return Instant(_seconds(value), _nanos(value))
    from zoneinfo import ZoneInfo

    return value.astimezone(ZoneInfo(zone)).replace(tzinfo=None)


def _seconds(value: datetime.datetime) -> int:
    micros = epoch_micros(value)
    assert micros is not None
    return micros // 1000000


def _nanos(value: datetime.datetime) -> int:
    micros = epoch_micros(value)
    assert micros is not None
    return (micros % 1000000) * 1000


class ChangelogBatch(object):
    """A sink's batch function fed with an updating table's changelog.

    Rows that carry their kinds (a per-record group aggregation's) are passed on as they are.
    Otherwise Spark gives each micro-batch the new rows of the keys that changed; the last row
    of each key is kept here, on the driver, so that a new key is ``+I`` and a changed one
    ``-U`` (its previous row) then ``+U``, as the table's print sink shows them.

    :param function: The sink's batch function (``print()``, ``execute_and_collect()``...).
    :param key_positions: The positions of the table's key columns.
    :param kinded: Whether the rows carry their kinds (a group aggregation's changes): they
        are passed on as they come.
    """

    #: The query of the sink runs in Spark's update output mode.
    updating = True

    def __init__(self, function: Any, key_positions: List[int], kinded: bool = False):
        self.function = function
        self.key_positions = key_positions
        self.kinded = kinded
        self._last: dict = {}

    def __call__(self, rows: List[Any], batch_id: int) -> None:
        from pyflink_compat.common.types import RowKind
        from pyflink_compat.runtime.records import dumps
        from pyflink_compat.runtime.sinks import ordered_values

        records = []
        for row in ordered_values(rows):
            if self.kinded:
                records.append(row)
                continue
            key = tuple(row[i] for i in self.key_positions)
            before = self._last.get(key)
            if before is None:
                records.append(row)
            elif list(before) != list(row):
                before.set_row_kind(RowKind.UPDATE_BEFORE)
                records.append(before)
                after = _copy(row)
                after.set_row_kind(RowKind.UPDATE_AFTER)
                records.append(after)
            self._last[key] = _copy(row)
        self.function([{"v": dumps(r), "seq": [i]} for i, r in enumerate(records)], batch_id)


def _copy(row: Any) -> Any:
    from pyflink_compat.common.types import Row

    copy = Row(*row._values)
    if hasattr(row, "_fields"):
        copy.set_field_names(list(row._fields))
    return copy
