"""pandas DataFrames of a table's rows, and the rows and data types of a pandas DataFrame, as
PyFlink makes them: through Arrow, so the dtypes are Arrow's (``BIGINT`` ``int64``, an integer
column with NULLs ``float64``, ``DATE`` and ``DECIMAL`` as objects, ``TIMESTAMP``
``datetime64[ns]``)."""

from __future__ import annotations

import math
from typing import Any, List, Optional, Sequence, Tuple

from pyflink_compat.missing import NotSupportedError
from pyflink_compat.table import types as dt

__all__ = ["frame_of_rows", "rows_of_frame", "row_type_of_frame"]


def _arrow_type(data_type: dt.DataType) -> Any:
    import pyarrow as pa  # type: ignore[import-untyped]

    simple = {dt.TinyIntType: pa.int8(), dt.SmallIntType: pa.int16(), dt.IntType: pa.int32(),
              dt.BigIntType: pa.int64(), dt.FloatType: pa.float32(), dt.DoubleType: pa.float64(),
              dt.BooleanType: pa.bool_(), dt.DateType: pa.date32(), dt.NullType: pa.null()}
    if type(data_type) in simple:
        return simple[type(data_type)]
    if isinstance(data_type, (dt.CharType, dt.VarCharType)):
        return pa.string()
    if isinstance(data_type, (dt.BinaryType, dt.VarBinaryType)):
        return pa.binary()
    if isinstance(data_type, dt.DecimalType):
        return pa.decimal128(data_type.precision, data_type.scale)
    if isinstance(data_type, dt.TimestampType):
        return pa.timestamp("us")
    if isinstance(data_type, dt.LocalZonedTimestampType):
        return pa.timestamp("us", tz="UTC")
    if isinstance(data_type, dt.ArrayType):
        return pa.list_(_arrow_type(data_type.element_type))
    if isinstance(data_type, dt.RowType):
        return pa.struct([pa.field(f.name, _arrow_type(f.data_type)) for f in data_type])
    raise NotSupportedError("Table.to_pandas of a {} column".format(data_type),
                            "Collect the rows with Table.execute().collect(), or use PySpark's "
                            "DataFrame.toPandas().")


def frame_of_rows(rows: Sequence[Tuple[Any, ...]], names: List[str],
                  types: List[dt.DataType]) -> Any:
    """The pandas DataFrame of ``rows`` with columns ``names`` of the data types ``types``."""
    import pyarrow as pa

    columns = [pa.array([row[i] for row in rows], type=_arrow_type(t))
               for i, t in enumerate(types)]
    import pandas as pd  # type: ignore[import-untyped]

    table = pa.Table.from_arrays(columns, names=names)
    try:
        frame = table.to_pandas(coerce_temporal_nanoseconds=True)
    except TypeError:  # pragma: no cover - pyarrow before 13 always gives nanoseconds
        frame = table.to_pandas()
    for i, (name, data_type) in enumerate(zip(names, types)):
        if isinstance(data_type, (dt.CharType, dt.VarCharType)):
            # text as Python objects (None when NULL), whatever pandas' default text dtype
            frame[name] = pd.Series([row[i] for row in rows], dtype=object, index=frame.index)
    return frame


def _data_type_of_arrow(arrow_type: Any) -> dt.DataType:
    import pyarrow as pa
    import pyarrow.types as pt  # type: ignore[import-untyped]

    simple: List[Tuple[Any, dt.DataType]] = [
        (pa.int8(), dt.TinyIntType()), (pa.int16(), dt.SmallIntType()), (pa.int32(), dt.IntType()),
        (pa.int64(), dt.BigIntType()), (pa.float32(), dt.FloatType()),
        (pa.float64(), dt.DoubleType()), (pa.bool_(), dt.BooleanType()), (pa.date32(), dt.DateType()),
    ]
    for arrow, data_type in simple:
        if arrow_type == arrow:
            return data_type
    if pt.is_string(arrow_type) or pt.is_large_string(arrow_type):
        return dt.DataTypes.STRING()
    if pt.is_binary(arrow_type) or pt.is_large_binary(arrow_type):
        return dt.DataTypes.BYTES()
    if pt.is_decimal(arrow_type):
        return dt.DecimalType(arrow_type.precision, arrow_type.scale)
    if pt.is_timestamp(arrow_type):
        precision = {"s": 0, "ms": 3, "us": 6, "ns": 9}[arrow_type.unit]
        return dt.LocalZonedTimestampType(precision) if arrow_type.tz else dt.TimestampType(precision)
    raise NotSupportedError("TableEnvironment.from_pandas of a {} column".format(arrow_type),
                            "Give the schema as a DataTypes.ROW, or read the DataFrame with "
                            "PySpark's spark.createDataFrame(pdf).")


def row_type_of_frame(pdf: Any, names: Optional[List[str]] = None) -> dt.RowType:
    """The ``ROW`` type PyFlink infers for the columns of ``pdf`` (named ``names`` if given)."""
    import pyarrow as pa

    schema = pa.Schema.from_pandas(pdf, preserve_index=False)
    fields = [dt.RowField(name, _data_type_of_arrow(field.type))
              for name, field in zip(names or list(pdf.columns), schema)]
    return dt.RowType(fields)


def _plain(value: Any) -> Any:
    if value is None:
        return None
    if isinstance(value, float) and math.isnan(value):
        return None
    to_python = getattr(value, "to_pydatetime", None)
    if to_python is not None:
        return to_python()
    item = getattr(value, "item", None)
    return item() if item is not None and not isinstance(value, (str, bytes)) else value


def rows_of_frame(pdf: Any) -> List[Tuple[Any, ...]]:
    """The rows of ``pdf`` as tuples of Python values (``NaN`` and ``NaT`` become ``None``)."""
    import pandas as pd

    rows = []
    for values in pdf.itertuples(index=False, name=None):
        rows.append(tuple(None if v is pd.NaT else _plain(v) for v in values))
    return rows
