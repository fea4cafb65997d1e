"""Flink's legacy ``CsvTableSource`` as a bounded table: its files read with Spark's CSV reader
under Flink's rules (no quoting unless a quote character is given, a malformed line fails
unless lenient)."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any, Dict

from pyflink_compat.sql.catalog import ElementsTable

if TYPE_CHECKING:
    from pyspark.sql import SparkSession

__all__ = ["csv_source_table"]


def csv_source_table(spark: "SparkSession", source: Dict[str, Any]) -> ElementsTable:
    """The rows of the ``CsvTableSource`` described by ``source``, with its declared types."""
    from pyflink_compat.sql.data_types import to_flink_type, to_spark_type
    from pyflink_compat.table.types import RowField, RowType

    row_type = RowType([RowField(n, t) for n, t in zip(source["names"], source["types"])])
    struct: Any = to_spark_type(row_type)
    reader = spark.read.schema(struct) \
        .option("header", str(source["header"]).lower()) \
        .option("sep", source["delimiter"]) \
        .option("quote", source["quote"] or "\u0000") \
        .option("mode", "DROPMALFORMED" if source["lenient"] else "FAILFAST") \
        .option("dateFormat", "yyyy-MM-dd") \
        .option("timestampFormat", "yyyy-MM-dd HH:mm:ss[.SSSSSSSSS]")
    if not source["empty_as_null"]:
        # Flink reads an empty text field as an empty string
        reader = reader.option("nullValue", "\u0000").option("emptyValue", "")
    if source["comment"]:
        reader = reader.option("comment", source["comment"][0])
    # a relative path is the job's (Spark's JVM may run elsewhere)
    rows = [tuple(row) for row in reader.csv(os.path.abspath(source["path"])).collect()]
    return ElementsTable(rows=rows, schema=to_spark_type(row_type),  # type: ignore[arg-type]
                         flink_types={f.name: to_flink_type(f.data_type) for f in row_type})
