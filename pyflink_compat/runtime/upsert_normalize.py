"""The table an upsert topic makes, as Flink reads an ``upsert-kafka`` table: a Spark
``StatefulProcessor`` in ``transformWithState``, keyed by the table's primary key.

Each Kafka record of a key, in offset order, is compared with the key's row kept in the state,
as Flink's changelog normalization does:

* a record with a value and no row kept: ``+I`` with the record's row, which is kept;
* a record with a value and a row kept: nothing when the rows are equal (as Flink, whose
  ``table.exec.state.ttl``, which would make it emit them, is stored only here), else ``-U``
  with the row kept and ``+U`` with the new one, which is kept;
* a tombstone (a NULL value) with a row kept: ``-D`` with the row kept (a deletion carries the
  whole row, not the key alone), and the state is cleared; without a row kept, nothing.

Each emitted row carries its kind in :data:`~pyflink_compat.sql.changelog_streams.KIND_COLUMN`.
"""

from __future__ import annotations

from typing import Any, Iterator, List, Tuple

from pyspark.sql import Row as SparkRow
from pyspark.sql.streaming.stateful_processor import StatefulProcessor, StatefulProcessorHandle

from pyflink_compat.runtime.records import dumps, loads
from pyflink_compat.sql.changelog_streams import KIND_COLUMN

__all__ = ["DELETED_COLUMN", "OFFSET_COLUMNS", "UpsertNormalizeProcessor"]

#: The input column that is true for a tombstone (a record whose value is NULL).
DELETED_COLUMN = "__deleted"
#: The input columns giving each record's place in its topic: partition, then offset.
OFFSET_COLUMNS = ("__partition", "__offset")


class UpsertNormalizeProcessor(StatefulProcessor):
    """The Spark processor that turns one key's upsert records into Flink's changes.

    Its input rows have the table's physical columns, :data:`DELETED_COLUMN` and
    :data:`OFFSET_COLUMNS`; it emits the table's physical columns and
    :data:`~pyflink_compat.sql.changelog_streams.KIND_COLUMN`.

    :param columns: The table's physical columns, in order.
    """

    def __init__(self, columns: List[str]):
        self.columns = list(columns)

    def init(self, handle: StatefulProcessorHandle) -> None:
        # the key's row as it stands, pickled
        self.state = handle.getValueState("row", "v binary")

    def handleInputRows(self, key: Any, rows: Iterator[Any], timerValues: Any) -> Iterator[Any]:
        stored = self.state.get()
        kept = None if stored is None else tuple(loads(bytes(stored[0])))
        records = sorted(rows, key=lambda r: (r[OFFSET_COLUMNS[0]], r[OFFSET_COLUMNS[1]]))
        for record in records:
            if record[DELETED_COLUMN]:
                if kept is not None:
                    yield self._output(kept, "-D")
                    kept = None
                continue
            row = tuple(record[c] for c in self.columns)
            if kept is None:
                yield self._output(row, "+I")
            elif row != kept:
                yield self._output(kept, "-U")
                yield self._output(row, "+U")
            kept = row
        if kept is None:
            self.state.clear()
        else:
            self.state.update((dumps(kept),))

    def _output(self, row: Tuple[Any, ...], kind: str) -> Any:
        values = dict(zip(self.columns, row))
        values[KIND_COLUMN] = kind
        return SparkRow(**values)

    def close(self) -> None:
        pass
