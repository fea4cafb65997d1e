"""A bounded streaming source from data the job holds: what ``from_collection`` and a bounded
``datagen`` table become on Spark.

Spark's Python API has no streaming source over an in-memory collection, so the rows are
written once as Parquet files into a directory of their own and read back with
``spark.readStream``: a file source, which ends a bounded sink once every file is read and
keeps the rows' types. The directory is on the driver's local disk (local and single-machine
runs; on a cluster, pass ``directory`` on storage every executor reaches).
"""

from __future__ import annotations

import os
import tempfile
import time
from typing import TYPE_CHECKING, Any, List, Mapping, Optional, Tuple, Union

if TYPE_CHECKING:
    from pyspark.sql import DataFrame
    from pyspark.sql.types import StructType

__all__ = ["as_stream", "arrow_as_stream", "batch_bounds", "row_as_stream"]


def as_stream(frame: "DataFrame", directory: Optional[str] = None) -> "DataFrame":
    """The rows of the batch DataFrame ``frame`` as a streaming DataFrame with its schema.

    :param frame: A (small) batch DataFrame, for example from ``spark.createDataFrame``.
    :param directory: Where the rows are written (a new temporary directory when omitted).
    :return: A streaming DataFrame that reads those rows once.
    """
    target = directory or tempfile.mkdtemp(prefix="pyflink-compat-rows-")
    path = target.rstrip("/") + "/rows"
    frame.coalesce(1).write.mode("overwrite").parquet(path)
    return frame.sparkSession.readStream.schema(frame.schema).parquet(path)


def batch_bounds(count: int, first: int) -> List[Tuple[int, int]]:
    """``(start, end)`` of the micro-batches of ``count`` rows: ``first`` rows, then twice as many
    as the batch before, the last one what is left."""
    bounds: List[Tuple[int, int]] = []
    start, size = 0, max(first, 1)
    while start < count:
        bounds.append((start, min(start + size, count)))
        start, size = start + size, size * 2
    return bounds


def arrow_as_stream(spark: Any, table: Any, schema: Union[str, "StructType"],
                    first_batch: Optional[int] = None) -> "DataFrame":
    """The rows of the Arrow ``table`` as a streaming DataFrame of ``schema`` that reads them
    once, in order.

    The rows are written from this process (no Spark job). With ``first_batch``, each micro-batch
    reads one file of :func:`batch_bounds`: Spark's file source takes files oldest first, so the
    files get increasing modification times.

    :param spark: The session.
    :param table: A ``pyarrow.Table`` whose columns match ``schema``.
    :param schema: The DataFrame's schema (DDL or ``StructType``).
    :param first_batch: The rows of the first micro-batch (``None``: one batch).
    """
    import pyarrow.parquet as pq  # type: ignore[import-untyped]

    path = os.path.join(tempfile.mkdtemp(prefix="pyflink-compat-rows-"), "rows")
    os.mkdir(path)
    bounds = batch_bounds(table.num_rows, first_batch) if first_batch else [(0, table.num_rows)]
    now = time.time()
    for index, (start, end) in enumerate(bounds):
        name = os.path.join(path, "part-%05d.parquet" % index)
        pq.write_table(table.slice(start, end - start), name)
        stamp = now - (len(bounds) - index)
        os.utime(name, (stamp, stamp))
    reader = spark.readStream.schema(schema)
    if len(bounds) > 1:
        reader = reader.option("maxFilesPerTrigger", 1)
    frame: "DataFrame" = reader.parquet(path)
    return frame


def row_as_stream(spark: Any, schema: "StructType", values: Mapping[str, Any]) -> "DataFrame":
    """One row of ``schema``, NULL but for the columns in ``values``, as a streaming DataFrame
    that reads it once: the marker rows that end a bounded input.

    The row is written as Parquet from this process, as :func:`arrow_as_stream` writes, since a
    Spark job writing it would be the costliest step of a small job's start (a second or more).
    A schema without an Arrow form is written by Spark (:func:`as_stream`).

    :param spark: The session.
    :param schema: The row's schema; every column must be nullable.
    :param values: The values of the columns that are not NULL, as Python values of their type.
    """
    import pyarrow as pa

    types = [_arrow_type(pa, f.dataType) for f in schema.fields]
    if any(t is None for t in types):  # a type with no Arrow form here: Spark writes the row
        row = tuple(values.get(f.name) for f in schema.fields)
        return as_stream(spark.createDataFrame([row], schema))
    arrow_schema = pa.schema([pa.field(f.name, t) for f, t in zip(schema.fields, types)])
    columns = []
    for field, arrow_field in zip(schema.fields, arrow_schema):
        value = values.get(field.name)
        internal = None if value is None else field.dataType.toInternal(value)
        columns.append(pa.array([internal], arrow_field.type))
    return arrow_as_stream(spark, pa.table(columns, schema=arrow_schema), schema)


def _arrow_type(pa: Any, data_type: Any) -> Any:
    """The Arrow type Spark's Parquet reader reads back as ``data_type`` (``None``: not one of
    the flat types and arrays of them kept here)."""
    from pyspark.sql import types as T

    if isinstance(data_type, T.ArrayType):
        element = _arrow_type(pa, data_type.elementType)
        return None if element is None else pa.list_(element)
    if isinstance(data_type, T.DecimalType):
        return pa.decimal128(data_type.precision, data_type.scale)
    if isinstance(data_type, T.TimestampType):  # an instant: Parquet's UTC-adjusted timestamp
        return pa.timestamp("us", tz="UTC")
    simple = {T.LongType: pa.int64(), T.IntegerType: pa.int32(), T.ShortType: pa.int16(),
              T.ByteType: pa.int8(), T.BooleanType: pa.bool_(), T.DoubleType: pa.float64(),
              T.FloatType: pa.float32(), T.StringType: pa.string(), T.BinaryType: pa.binary(),
              T.DateType: pa.date32(), T.TimestampNTZType: pa.timestamp("us")}
    return simple.get(type(data_type))
