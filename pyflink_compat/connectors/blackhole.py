"""``'connector' = 'blackhole'``: a sink that swallows every row (Spark's ``noop`` sink)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Sequence

from pyflink_compat.connectors.options import OptionReview

if TYPE_CHECKING:
    from pyspark.sql import DataFrame

    from pyflink_compat.sql.statements import CreateTable

__all__ = ["sink"]


def sink(table: "CreateTable", frame: "DataFrame", updating: bool, keys: Sequence[str]) -> Any:
    """A writer that discards ``frame``'s rows (updating results too, as Flink's does)."""
    OptionReview("blackhole", table.options, table.text).finish()
    return frame.writeStream.format("noop").outputMode("update" if updating else "append")
