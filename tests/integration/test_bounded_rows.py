"""The rows a job writes for itself (the end of a bounded input) are read back by Spark's file
stream with their types and values, written by the driver where Arrow holds their types."""

from __future__ import annotations

import datetime
import decimal
from typing import Any

from pyflink_compat.spark.bounded_sources import row_as_stream


def _read_back(spark: Any, frame: Any, tmp_path: Any) -> Any:
    name = "rows_{}".format(abs(hash(str(tmp_path))))
    query = frame.writeStream.format("memory").queryName(name).option(
        "checkpointLocation", str(tmp_path / "cp")).trigger(availableNow=True).start()
    query.awaitTermination()
    return spark.sql("SELECT * FROM " + name).collect()


def test_a_marker_row_keeps_its_values_and_leaves_every_other_column_null(spark: Any, tmp_path: Any):
    from pyspark.sql.types import (ArrayType, BooleanType, DateType, DecimalType, LongType,
                                   StringType, StructField, StructType, TimestampNTZType,
                                   TimestampType)

    schema = StructType([StructField(n, t, True) for n, t in (
        ("ts", TimestampType()), ("wall", TimestampNTZType()), ("flag", BooleanType()),
        ("seq", ArrayType(LongType())), ("amount", DecimalType(10, 2)), ("day", DateType()),
        ("name", StringType()), ("n", LongType()))])
    values = {"ts": datetime.datetime(2900, 1, 1), "wall": datetime.datetime(2024, 2, 29, 10, 0, 0, 123000),
              "flag": True, "seq": [7, 8], "amount": decimal.Decimal("12.34"),
              "day": datetime.date(2024, 1, 31)}
    rows = _read_back(spark, row_as_stream(spark, schema, values), tmp_path)
    assert [r.asDict() for r in rows] == [dict(values, name=None, n=None)]


def test_a_marker_row_of_a_type_arrow_is_not_given_here_is_written_by_spark(spark: Any, tmp_path: Any):
    from pyspark.sql.types import MapType, StringType, StructField, StructType, TimestampType

    schema = StructType([StructField("ts", TimestampType(), True),
                         StructField("tags", MapType(StringType(), StringType()), True)])
    rows = _read_back(spark, row_as_stream(spark, schema, {"ts": datetime.datetime(2900, 1, 1)}), tmp_path)
    assert [r.asDict() for r in rows] == [{"ts": datetime.datetime(2900, 1, 1), "tags": None}]
