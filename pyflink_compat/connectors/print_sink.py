"""``'connector' = 'print'``: every row printed as Flink prints it, from the driver, in order.

Each record is one line of Flink's ``Row.toString()`` with its row kind (``+I[a, 1]``), after
``<print-identifier>> `` when the table names one; ``'standard-error' = 'true'`` prints to
standard error. Nothing is cut and no row is left out (unlike Spark's console sink).

An updating result (a grouped aggregate without window) is written in Spark's ``update``
output mode. The per-record group aggregation gives each row with its kind (in
:data:`~pyflink_compat.sql.changelog_streams.KIND_COLUMN`), printed as it is; for Spark's own
aggregation, each micro-batch gives the new rows of the keys it changed, and the sink prints
``+I`` for a key seen first and ``-U`` (the row printed before) then ``+U`` (the new one) for a
key that changed, from the rows it printed in this process.

A DataStream's ``print()`` writes its records' lines through the same :func:`print_lines`.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any, Callable, Dict, Iterable, List, Optional, Sequence, Tuple

from pyflink_compat.connectors.options import OptionReview
from pyflink_compat.sql.value_text import row_text

if TYPE_CHECKING:
    from pyspark.sql import DataFrame

    from pyflink_compat.sql.statements import CreateTable

__all__ = ["ChangelogPrinter", "changelog_rows", "print_lines", "sink"]


def print_lines(lines_df_or_iter: Any, identifier: Optional[str], to_stderr: bool) -> None:
    """Write each line, whole, as Flink's print sink writes a record.

    :param lines_df_or_iter: The lines: an iterable of strings, or a DataFrame whose first
        column holds them (collected to the driver in order).
    :param identifier: Flink's sink identifier: each line reads ``<identifier>> <line>``.
    :param to_stderr: Write to standard error instead of standard output.
    """
    lines: Iterable[Any] = lines_df_or_iter
    if hasattr(lines_df_or_iter, "toLocalIterator"):
        lines = (row[0] for row in lines_df_or_iter.toLocalIterator())
    stream = sys.stderr if to_stderr else sys.stdout
    prefix = "" if identifier is None else identifier + "> "
    for line in lines:
        stream.write(prefix + str(line) + "\n")
    stream.flush()


def changelog_rows(updating: bool, key_positions: Sequence[int], kind_position: Optional[int] = None
                   ) -> Callable[[List[Tuple[Any, ...]]], List[Tuple[str, Tuple[Any, ...]]]]:
    """A function turning each micro-batch's rows into Flink's changelog records.

    For an append-only result every row is ``+I``, or, for a result whose rows carry their
    kind (the column at ``kind_position``), that kind. For an updating one the function
    remembers the last row of each key: a new key gives ``+I``; a changed key ``-U`` (old) and
    ``+U`` (new); an unchanged row nothing (Flink drops an update that changes nothing).
    """
    last: Dict[Tuple[Any, ...], Tuple[Any, ...]] = {}

    def records(rows: List[Tuple[Any, ...]]) -> List[Tuple[str, Tuple[Any, ...]]]:
        if kind_position is not None:
            return [(row[kind_position], row[:kind_position] + row[kind_position + 1:]) for row in rows]
        if not updating:
            return [("+I", row) for row in rows]
        out: List[Tuple[str, Tuple[Any, ...]]] = []
        for row in rows:
            key = tuple(row[i] for i in key_positions)
            before = last.get(key)
            if before is None:
                out.append(("+I", row))
            elif before != row:
                out.append(("-U", before))
                out.append(("+U", row))
            last[key] = row
        return out

    return records


class ChangelogPrinter(object):
    """Prints each micro-batch of a print table's input as Flink's print sink does."""

    def __init__(self, identifier: Optional[str], to_stderr: bool, updating: bool,
                 key_positions: Sequence[int], spark_types: Sequence[str] = (),
                 kind_position: Optional[int] = None):
        self.identifier = identifier
        self.to_stderr = to_stderr
        self.records = changelog_rows(updating, key_positions, kind_position)
        self.spark_types = list(spark_types)

    def __call__(self, batch: "DataFrame", batch_id: int) -> None:
        rows = [tuple(row) for row in batch.collect()]
        print_lines((row_text(kind, row, self.spark_types) for kind, row in self.records(rows)),
                    self.identifier,
                    self.to_stderr)


def sink(table: "CreateTable", frame: "DataFrame", updating: bool, keys: Sequence[str]) -> Any:
    """A writer printing ``frame``'s rows with Flink's row kinds."""
    review = OptionReview("print", table.options, table.text)
    identifier = review.take("print-identifier")
    to_stderr = (review.take("standard-error", "false") or "false").lower() == "true"
    review.drop("sink.parallelism", "the rows are printed from the Spark driver, in order")
    review.finish()
    from pyflink_compat.sql.changelog_streams import KIND_COLUMN

    names = frame.columns
    key_positions = [names.index(k) for k in keys if k in names]
    # a changelog's changes carry their kinds in a column of their own (the last)
    kind_position = names.index(KIND_COLUMN) if KIND_COLUMN in names else None
    printer = ChangelogPrinter(identifier or None, to_stderr, updating, key_positions,
                               [type(f.dataType).__name__ for f in frame.schema.fields
                                if f.name != KIND_COLUMN], kind_position)
    return frame.writeStream.foreachBatch(printer).outputMode("update" if updating else "append")
