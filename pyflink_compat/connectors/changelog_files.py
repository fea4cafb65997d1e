"""Files of a changelog format (``'format' = 'canal-json'``) written by the filesystem
connector: one JSON line per changelog record, so that an updating query can be written to
files, as Flink writes it.

Each micro-batch's rows become Flink's changelog records (as the print sink gives them: ``+I``
for a new key, ``-U`` / ``+U`` for a changed one) and each record one line,
``{"data":[{<column>:<value>,...}],"type":"INSERT"}``; an update's old row and a deletion are
written as ``"DELETE"``, as Flink's canal-json writes them. The lines of a micro-batch are
written as new part files under the table's path.
"""

from __future__ import annotations

import datetime
import decimal
import json
from typing import TYPE_CHECKING, Any, Dict, List, Optional, Sequence, Tuple

from pyflink_compat.missing import NotSupportedError
from pyflink_compat.spark.session import active_session_kept

if TYPE_CHECKING:
    from pyspark.sql import DataFrame

__all__ = ["CHANGELOG_FORMATS", "ChangelogFileWriter"]

#: The changelog formats written here.
CHANGELOG_FORMATS = ("canal-json",)

_TYPES = {"+I": "INSERT", "+U": "INSERT", "-U": "DELETE", "-D": "DELETE"}
_PLAIN = ("string", "int", "bigint", "smallint", "tinyint", "boolean", "double", "float")


def _value(value: Any) -> Any:
    if isinstance(value, (datetime.date, datetime.datetime, decimal.Decimal, bytes)):
        raise NotSupportedError("A canal-json file column of type {}".format(type(value).__name__),
                                "Cast it to STRING in the query, or write json.")
    return value


class ChangelogFileWriter(object):
    """Writes each micro-batch of an insert's rows as canal-json lines under ``path``.

    :param path: The table's directory.
    :param names: The sink's column names, in order.
    :param updating: Whether the query updates its rows (by ``key_positions``).
    :param key_positions: The positions of the key columns of an updating query.
    :param kind_position: The position of the column holding each row's kind, when the rows
        carry their kinds (``None``: the kinds follow from each key's last row).
    """

    def __init__(self, path: str, names: Sequence[str], updating: bool,
                 key_positions: Sequence[int], kind_position: Optional[int] = None):
        from pyflink_compat.connectors.print_sink import changelog_rows

        self.path = path
        self.names = list(names)
        self.records = changelog_rows(updating, key_positions, kind_position)

    @staticmethod
    def check(frame: "DataFrame", table_text: str) -> None:
        """Refuse columns whose canal-json text is not known here, before the job starts."""
        for field in frame.schema.fields:
            if field.dataType.simpleString() not in _PLAIN:
                raise NotSupportedError(
                    "A canal-json file column '{}' of type {} (in: {})".format(
                        field.name, field.dataType.simpleString(), table_text),
                    "Cast it to STRING in the query, or write json.")

    def lines(self, rows: List[Tuple[Any, ...]]) -> List[str]:
        """The canal-json lines of one micro-batch's rows."""
        out = []
        for kind, row in self.records(rows):
            data: Dict[str, Any] = {n: _value(v) for n, v in zip(self.names, row)}
            out.append(json.dumps({"data": [data], "type": _TYPES[kind]}, separators=(",", ":"),
                                  ensure_ascii=False))
        return out

    def __call__(self, batch: "DataFrame", batch_id: int) -> None:
        lines = self.lines([tuple(row) for row in batch.collect()])
        if not lines:
            return
        with active_session_kept():
            batch.sparkSession.createDataFrame([(line,) for line in lines], "value string") \
                .coalesce(1).write.mode("append").text(self.path)
