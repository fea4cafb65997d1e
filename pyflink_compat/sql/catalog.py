"""The tables, views and functions a table environment declared, by name, and what each
entry is: a ``CREATE TABLE``, in-memory rows, a stream, a named query or a table computed from
a planned query."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Dict, List, Optional, Tuple

import attrs
from sqlglot import exp

from pyflink_compat.sql.dialect import Flink
from pyflink_compat.sql.statements import CreateTable

if TYPE_CHECKING:
    from pyspark.sql import DataFrame, SparkSession
    from pyspark.sql.types import StructType

__all__ = ["Catalog", "ColumnDetail", "DerivedTable", "ElementsTable", "StreamTable", "View",
           "WatermarkDetail", "column_details", "time_attributes"]


@attrs.define
class ElementsTable:
    """A table of rows the job holds (``from_elements``): bounded."""

    rows: List[Tuple[Any, ...]]
    schema: "StructType"
    #: The declared Flink types of the columns (a ``DataTypes.ROW`` schema), when given.
    flink_types: Optional[Dict[str, exp.DataType]] = None


@attrs.define
class DerivedTable:
    """A table computed by Spark from a planned query (a Python aggregate's result):
    ``build(planner)`` gives its frame, whether it is bounded, whether it updates, and its keys.
    """

    build: Callable[[Any], Tuple["DataFrame", bool, bool, List[str]]]


@attrs.define
class StreamTable:
    """A DataStream of the job read as a table (``from_data_stream``): its columns as the
    ``CREATE TABLE`` they amount to, and ``read(spark)``, its physical columns' frame and whether
    it is bounded."""

    table: CreateTable
    read: Callable[["SparkSession"], Tuple["DataFrame", bool]]
    #: Whether the stream runs keyed functions (in ``transformWithState``).
    keyed_state: bool = False
    #: For a changelog of a collection: how the planner reads its changes, each row with its
    #: kind (see :mod:`pyflink_compat.sql.changelog_streams`).
    changes: Optional[Callable[["SparkSession"], Tuple["DataFrame", bool]]] = None
    #: The table as its ``Schema`` declares it (a metadata ``rowtime`` column, the
    #: ``SOURCE_WATERMARK()``), which its schema shows; :attr:`table` when none is given.
    declared: Optional[CreateTable] = None

    @property
    def shown(self) -> CreateTable:
        """The table its schema shows."""
        return self.declared if self.declared is not None else self.table


@attrs.define
class View:
    """A named query (``CREATE VIEW`` or a registered :class:`~pyflink_compat.table.Table`)."""

    query: exp.Expression
    text: str


class Catalog(object):
    """The tables and views of one table environment, by name (``default_catalog`` and
    ``default_database`` qualifiers are accepted and dropped)."""

    def __init__(self) -> None:
        self.entries: Dict[str, Any] = {}
        # Python user functions (create_temporary_function), by lower-case name
        self.functions: Dict[str, Any] = {}

    @staticmethod
    def key(name: str) -> str:
        parts = [p.strip("`") for p in name.split(".")]
        if len(parts) == 3 and parts[0] == "default_catalog" and parts[1] == "default_database":
            parts = parts[2:]
        elif len(parts) == 2 and parts[0] == "default_database":
            parts = parts[1:]
        return ".".join(parts)

    def get(self, name: str) -> Any:
        return self.entries.get(self.key(name))

    def put(self, name: str, entry: Any) -> None:
        self.entries[self.key(name)] = entry

    def remove(self, name: str) -> bool:
        return self.entries.pop(self.key(name), None) is not None

    def full_name(self, name: str) -> str:
        """The name as Flink shows it: ``default_catalog.default_database.name``."""
        return "default_catalog.default_database." + self.key(name)


def time_attributes(table: CreateTable) -> List[str]:
    """The time attributes of ``table``: its watermarked column and its ``PROCTIME()``
    columns."""
    names = [table.watermark.column] if table.watermark is not None else []
    for column in table.columns:
        if column.kind == "computed" and column.expression is not None and \
                column.expression.sql(Flink).upper().startswith("PROCTIME("):
            names.append(column.name)
    return names


@attrs.frozen
class ColumnDetail:
    """One column of a declared table as Flink's resolved schema shows it."""

    name: str
    #: Its Flink type (``TIMESTAMP(3)``, ``INT NOT NULL``).
    type_text: str
    #: ``ROWTIME`` for the watermarked column, ``PROCTIME`` for a ``PROCTIME()`` column.
    time_attribute: Optional[str] = None
    #: What follows the type: ``AS <expression>`` (in Flink's SQL form) or
    #: ``METADATA [FROM 'key'] [VIRTUAL]``; empty for a physical column.
    extra: str = ""
    #: :attr:`extra` with the expression as ``print_schema()`` shows it.
    printed_extra: str = ""


@attrs.frozen
class WatermarkDetail:
    """A declared table's ``WATERMARK FOR column AS expression``."""

    column: str
    type_text: str
    expression: str
    printed_expression: str


#: The details of the tables last asked for, by identity (a query asks for each column).
_DETAILS: Dict[int, Tuple[CreateTable, Tuple[List[ColumnDetail], Optional[WatermarkDetail]]]] = {}


def column_details(table: CreateTable) -> Tuple[List[ColumnDetail], Optional[WatermarkDetail]]:
    """The columns of the declared ``table``, each with its Flink type, time attribute and
    expression or metadata, and its watermark: what ``print_schema()`` of the table shows."""
    cached = _DETAILS.get(id(table))
    if cached is not None and cached[0] is table:
        return list(cached[1][0]), cached[1][1]
    if len(_DETAILS) > 64:
        _DETAILS.clear()
    found = _column_details(table)
    _DETAILS[id(table)] = (table, found)
    return list(found[0]), found[1]


def _column_details(table: CreateTable) -> Tuple[List[ColumnDetail], Optional[WatermarkDetail]]:
    from pyflink_compat.sql.expression_text import declared_expression_texts
    from pyflink_compat.sql.types import flink_name

    texts = declared_expression_texts(table.text) if table.text else {}
    computed = _computed_types(table)
    attributes = time_attributes(table)
    details = []
    for column in table.columns:
        if column.kind == "computed" and column.expression is not None:
            normal, written = texts.get(column.name) or (
                column.expression.sql(Flink, identify=True), column.expression.sql(Flink))
            extra = "AS " + normal
            printed = "AS " + (written if table.expressions_as_written else normal)
            type_text = computed.get(column.name, "")
        elif column.kind == "metadata":
            extra = printed = "METADATA" + (" FROM '{}'".format(column.metadata_key)
                                            if column.metadata_key else "") + (
                " VIRTUAL" if column.virtual else "")
            type_text = flink_name(column.data_type) if column.data_type is not None else ""
        else:
            extra = printed = ""
            type_text = flink_name(column.data_type) if column.data_type is not None else ""
            if column.not_null and not type_text.endswith("NOT NULL"):
                type_text += " NOT NULL"
        if column.name in table.primary_key and not type_text.endswith("NOT NULL"):
            type_text += " NOT NULL"
        marker = None
        if column.name in attributes:
            marker = "ROWTIME" if table.watermark is not None and \
                table.watermark.column == column.name else "PROCTIME"
        details.append(ColumnDetail(column.name, type_text, marker, extra, printed))
    watermark = None
    if table.watermark is not None:
        normal, written = texts.get("") or (table.watermark.expression.sql(Flink, identify=True),
                                            table.watermark.sql)
        column_type = next((d.type_text for d in details if d.name == table.watermark.column), "")
        watermark = WatermarkDetail(table.watermark.column, column_type, normal,
                                    written if table.expressions_as_written else normal)
    return details, watermark


#: The calls of the current time, as the Flink dialect writes them.
_NOW = frozenset(["CURRENT_TIMESTAMP", "CURRENT_TIMESTAMP()", "NOW()", "CURRENT_ROW_TIMESTAMP()"])


def _computed_types(table: CreateTable) -> Dict[str, str]:
    """The Flink types of the computed columns of ``table``, by name (``PROCTIME()``:
    ``TIMESTAMP_LTZ(3) NOT NULL``)."""
    from pyflink_compat.sql.functions import apply_flink_semantics, result_types
    from pyflink_compat.sql.types import flink_name

    computed = [c for c in table.columns if c.kind == "computed" and c.expression is not None]
    types: Dict[str, str] = {}
    others = []
    for column in computed:
        assert column.expression is not None
        text = column.expression.sql(Flink).upper()
        if text.startswith("PROCTIME(") or text in _NOW:
            types[column.name] = "TIMESTAMP_LTZ(3) NOT NULL"
        else:
            others.append(column)
    if not others:
        return types
    declared = {c.name: c.data_type for c in table.columns
                if c.kind != "computed" and c.data_type is not None}
    for name in table.primary_key:
        if name in declared and declared[name] is not None:
            declared[name] = _not_null(declared[name])
    for column in table.columns:
        if column.not_null and column.name in declared:
            declared[column.name] = _not_null(declared[column.name])
    query = exp.select(*[exp.alias_(c.expression.copy(), c.name, quoted=True)  # type: ignore[union-attr]
                         for c in others]).from_("t")
    try:
        rewritten = apply_flink_semantics(query, {"t": declared})
    except Exception:  # noqa: BLE001 - an expression the rewrite refuses: its type is unknown
        return types
    for name, data_type in result_types(rewritten):
        if data_type.this not in (exp.DataType.Type.NULL, exp.DataType.Type.UNKNOWN):
            types[name] = flink_name(data_type)
    return types


def _not_null(data_type: exp.DataType) -> exp.DataType:
    from pyflink_compat.sql.types import with_nullable

    return with_nullable(data_type, False)
