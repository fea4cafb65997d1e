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

__all__ = ["Catalog", "DerivedTable", "ElementsTable", "StreamTable", "View", "time_attributes"]


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
