"""``from_elements``: rows the job holds, as a bounded table with PyFlink's inferred types."""

from __future__ import annotations

import datetime
import decimal
from typing import Any, List, Optional, Sequence

from pyflink_compat.missing import NotSupportedError
from pyflink_compat.sql.catalog import ElementsTable

__all__ = ["elements_table"]


def _declared_table(elements: List[Any], schema: Any) -> ElementsTable:
    """The table of ``elements`` with the columns of the ``ROW`` type ``schema``."""
    from pyflink_compat.sql.data_types import to_flink_type, to_spark_type

    names = schema.field_names()
    rows = []
    for element in elements:
        if isinstance(element, dict):
            rows.append(tuple(element.get(n) for n in names))
        elif isinstance(element, (tuple, list)):
            rows.append(tuple(element))
        else:
            rows.append((element,))
    return ElementsTable(rows=rows, schema=to_spark_type(schema),  # type: ignore[arg-type]
                         flink_types={f.name: to_flink_type(f.data_type) for f in schema})

# PyFlink's inference from Python values (``_infer_type``), as Spark DDL types.
_INFERRED = (
    (bool, "BOOLEAN"),
    (int, "BIGINT"),
    (float, "DOUBLE"),
    (str, "STRING"),
    (bytes, "BINARY"),
    (decimal.Decimal, "DECIMAL(38, 18)"),
    (datetime.datetime, "TIMESTAMP_NTZ"),
    (datetime.date, "DATE"),
)


def _type_of(values: Sequence[Any], column: str) -> str:
    for value in values:
        if value is None:
            continue
        for python_type, spark_type in _INFERRED:
            if isinstance(value, python_type):
                return spark_type
        raise NotSupportedError(
            "from_elements with a value of type {} (column {})".format(type(value).__name__, column),
            "Give rows of int, float, str, bool, bytes, Decimal, date or datetime values.")
    return "STRING"


def elements_table(elements: List[Any], schema: Optional[Any]) -> ElementsTable:
    """The table of ``elements`` with column names ``schema`` (a list of names) or ``_1``...

    :raises NotSupportedError: For a ``DataType`` schema (declared types).
    """
    from pyspark.sql.types import StructType

    from pyflink_compat.table.types import RowType

    if isinstance(schema, RowType):
        return _declared_table(elements, schema)
    rows = [tuple(e) if isinstance(e, (tuple, list)) else (e,) for e in elements]
    width = max((len(r) for r in rows), default=0)
    if schema is None:
        names = ["_{}".format(i + 1) for i in range(width)]
    elif isinstance(schema, (list, tuple)) and all(isinstance(n, str) for n in schema):
        names = list(schema)
    else:
        raise NotSupportedError(
            "TableEnvironment.from_elements with the schema {!r}".format(schema),
            "Give the column names as a list, or a DataTypes.ROW of the columns.")
    ddl = ", ".join("`{}` {}".format(name, _type_of([r[i] for r in rows if i < len(r)], name))
                    for i, name in enumerate(names))
    if hasattr(StructType, "fromDDL"):
        struct = StructType.fromDDL(ddl)
    else:  # pragma: no cover - pyspark 3.5
        from pyspark.sql import SparkSession

        active = SparkSession.getActiveSession()
        assert active is not None
        struct = active.createDataFrame([], ddl).schema
    return ElementsTable(rows=rows, schema=struct)  # type: ignore[arg-type]
