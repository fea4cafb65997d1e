"""``DESCRIBE name``: the columns of a table or view, as Flink lists them (name, type,
nullability, primary key, computed or metadata definition, watermark)."""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Tuple

from sqlglot import exp

from pyflink_compat.sql.catalog import View
from pyflink_compat.sql.statements import Column, CreateTable

__all__ = ["COLUMNS", "describe"]

#: The result's columns and their Flink types.
COLUMNS: Tuple[Tuple[str, str], ...] = (
    ("name", "STRING"), ("type", "STRING"), ("null", "BOOLEAN"), ("key", "STRING"),
    ("extras", "STRING"), ("watermark", "STRING"))


def _query_types(runtime: Any, name: str) -> List[Tuple[str, str, bool]]:
    """Each column of ``SELECT * FROM name`` with its Flink type text and nullability (the
    query is planned, not run)."""
    from pyflink_compat.sql.data_types import type_text
    from pyflink_compat.sql.dialect import parse
    from pyflink_compat.sql.data_types import parse_data_type
    from pyflink_compat.table.table_schema import schema_of_struct

    text = "SELECT * FROM `{}`".format(name.replace("`", "``"))
    planned = runtime.planner.plan_query(parse(text)[0], text)
    schema = schema_of_struct(planned.result_frame.schema, {
        column: parse_data_type(t) for column, t in planned.flink_types.items()})
    found = []
    for column, data_type in zip(schema.get_field_names(), schema.get_field_data_types()):
        nullable = bool(getattr(data_type, "_nullable", True))
        found.append((column, type_text(data_type.nullable() if not nullable else data_type), nullable))
    return found


def _declared(column: Column) -> str:
    """The column's declared type as Flink lists it (nullability is a column of its own)."""
    from pyflink_compat.sql import types as flink_types

    if column.data_type is None:
        return ""
    return flink_types.flink_name(flink_types.with_nullable(column.data_type, True))


def _computed_types(runtime: Any, table: CreateTable) -> Dict[str, str]:
    """The Flink type of each computed column: its expression's type over the physical
    columns, as Spark derives it (no row is read)."""
    computed = [c for c in table.columns if c.kind == "computed" and c.expression is not None]
    if not computed:
        return {}
    from pyflink_compat.sql.value_text import flink_type_name

    spark = runtime.planner.spark
    empty = spark.createDataFrame([], runtime.planner.table_schema(table))
    types = {}
    for column in computed:
        assert column.expression is not None
        # an integer literal is an INT to Flink, the narrowest decimal to Spark
        expression = column.expression.transform(
            lambda node: exp.cast(node.copy(), "INT") if isinstance(node, exp.Literal)
            and not node.is_string and node.this.isdigit() else node)
        field = empty.selectExpr("{} AS `c`".format(expression.sql("spark"))).schema.fields[0]
        types[column.name] = flink_type_name(field.dataType)
    return types


def _extras(column: Column) -> Optional[str]:
    if column.kind == "computed" and column.expression is not None:
        from pyflink_compat.sql.dialect import Flink

        return "AS " + column.expression.sql(Flink, identify=True)
    if column.kind == "metadata":
        text = "METADATA"
        if column.metadata_key is not None:
            text += " FROM '{}'".format(column.metadata_key)
        return text + (" VIRTUAL" if column.virtual else "")
    return None


def describe(runtime: Any, name: str) -> List[Tuple[Any, ...]]:
    """The rows of ``DESCRIBE name``.

    :raises: Flink's validation error when no table or view has that name (Flink's message).
    """
    entry = runtime.catalog.get(name)
    if entry is None:
        from pyflink_compat.util.exceptions import java_error

        raise java_error("java.lang.RuntimeException",
                         "org.apache.flink.table.api.ValidationException: Tables or views with "
                         "the identifier '{}' doesn't exist.".format(runtime.catalog.full_name(name)),
                         "o0.executeSql")
    if isinstance(entry, View) or not isinstance(entry, CreateTable):
        return [(column, type_, nullable, None, None, None)
                for column, type_, nullable in _query_types(runtime, name)]
    from pyflink_compat.sql.dialect import Flink

    derived = _computed_types(runtime, entry)
    key = "PRI({})".format(", ".join(entry.primary_key)) if entry.primary_key else None
    rows: List[Tuple[Any, ...]] = []
    for column in entry.columns:
        type_ = derived.get(column.name, "") if column.kind == "computed" else _declared(column)
        watermark = None
        if entry.watermark is not None and entry.watermark.column == column.name:
            type_ += " *ROWTIME*"
            watermark = entry.watermark.expression.sql(Flink, identify=True)
        in_key = column.name in entry.primary_key
        rows.append((column.name, type_, not (column.not_null or in_key),
                     key if in_key else None, _extras(column), watermark))
    return rows
