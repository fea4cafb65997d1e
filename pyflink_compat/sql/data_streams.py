"""A DataStream of the job as a table, and a table as a DataStream.

``from_data_stream`` reads the records of a stream (:mod:`pyflink_compat.runtime`) into typed
columns: the fields of the stream's declared type (``Types.ROW_NAMED`` names them, ``Types.ROW``
and ``Types.TUPLE`` give ``f0``, ``f1``..., an atomic type one column ``f0``), narrowed,
reordered and retyped by a :class:`~pyflink_compat.table.Schema`'s physical columns, followed by
its computed columns, the ``rowtime`` metadata column (the record's timestamp) and its watermark.
The table is declared to the planner as the ``CREATE TABLE`` that Flink's schema translation
amounts to, so that computed columns, watermarks and windows go the way of any table.

``to_data_stream`` turns the rows of an append-only table's query back into records: ``Row``
values named after the columns, of kind ``+I``, whose stream has the ``RowTypeInfo`` of the
columns.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, List, Optional, Sequence, Tuple

import attrs
from sqlglot import exp

from pyflink_compat.missing import NotSupportedError
from pyflink_compat.sql.statements import Column, CreateTable, Watermark

if TYPE_CHECKING:
    from pyspark.sql import DataFrame, SparkSession

    from pyflink_compat.runtime.graph import Node
    from pyflink_compat.sql.planner import PlannedQuery

__all__ = ["changelog_stream", "event_time", "stream_fields", "stream_table", "read_stream", "table_records",
           "row_type_info"]

#: The Flink SQL type of each basic type's values (by the name of ``BasicType``).
_BASIC_TYPES = {"STRING": "STRING", "BOOLEAN": "BOOLEAN", "BYTE": "TINYINT", "SHORT": "SMALLINT",
                "INT": "INT", "LONG": "BIGINT", "FLOAT": "FLOAT", "DOUBLE": "DOUBLE",
                "BIG_DEC": "DECIMAL(38, 18)", "INSTANT": "TIMESTAMP_LTZ(9)"}

#: The one metadata key of a stream's table: the record's timestamp.
_ROWTIME = "rowtime"


def _field_type(type_info: Any, api: str) -> str:
    from pyflink_compat.common.typeinfo import (
        BasicTypeInfo, DateTypeInfo, LocalTimeTypeInfo, TimestampTypeInfo)

    if isinstance(type_info, BasicTypeInfo) and type_info._basic_type.name in _BASIC_TYPES:
        return _BASIC_TYPES[type_info._basic_type.name]
    if isinstance(type_info, TimestampTypeInfo):  # Types.SQL_TIMESTAMP(): java.sql.Timestamp
        return "TIMESTAMP(9)"
    if isinstance(type_info, DateTypeInfo):  # Types.SQL_DATE(): java.sql.Date
        return "DATE"
    if isinstance(type_info, LocalTimeTypeInfo):
        return {"LOCAL_DATE": "DATE", "LOCAL_DATE_TIME": "TIMESTAMP(9)"}.get(
            type_info._time_type.name, "")
    raise NotSupportedError(
        "{} of a stream of {}".format(api, type_info),
        "Declare the stream's type with Types.ROW_NAMED / Types.ROW / Types.TUPLE of strings, "
        "numbers, booleans and Types.INSTANT(), or build the DataFrame with "
        "spark.createDataFrame / a streaming source and its schema.")


def stream_fields(type_info: Any, api: str) -> List[Tuple[str, str]]:
    """The columns Flink derives from a stream's declared type: names and Flink SQL types.

    :raises NotSupportedError: For a stream without a declared type (its values are pickled:
        Flink's ``RAW`` column) or with a field type that has no column here.
    """
    from pyflink_compat.common.typeinfo import RowTypeInfo, TupleTypeInfo

    if isinstance(type_info, RowTypeInfo):
        kinds = list(type_info.get_field_types())
        names = list(type_info._field_names or ["f%d" % i for i in range(len(kinds))])
        return [(n, _field_type(k, api)) for n, k in zip(names, kinds)]
    if isinstance(type_info, TupleTypeInfo):
        # a tuple's numbers and booleans are Java primitives there: NOT NULL
        return [("f%d" % i, _field_type(k, api) + ("" if _field_type(k, api) == "STRING" else " NOT NULL"))
                for i, k in enumerate(type_info.get_field_types())]
    if type_info is None:
        raise NotSupportedError(
            "{} of a stream without a declared type (a RAW column in Flink)".format(api),
            "Give the stream's type (output_type=Types.ROW_NAMED(...)), or build the DataFrame "
            "with spark.createDataFrame / a streaming source and its schema.")
    return [("f0", _field_type(type_info, api))]


def _validation(message: str) -> Exception:
    from pyflink_compat.util.exceptions import java_error

    return java_error("java.lang.RuntimeException",
                      "org.apache.flink.table.api.ValidationException: " + message, "o0.fromDataStream")


def _declared_table(name: str, schema: Any) -> CreateTable:
    from pyflink_compat.sql.statements import parse_statements

    ddl = schema._ddl()
    (statement,) = parse_statements("CREATE TEMPORARY TABLE `{}` (\n  {}\n) WITH ('connector' = "
                                    "'datastream')".format(name.replace("`", "``"), ddl))
    assert isinstance(statement, CreateTable)
    return statement


def _source_watermark(column: str, delay_ms: int) -> exp.Expression:
    return exp.Sub(this=exp.column(column), expression=exp.Interval(
        this=exp.Literal.string(str(delay_ms)), unit=exp.Var(this="MILLISECOND")))


def _is_source_watermark(expression: exp.Expression) -> bool:
    return isinstance(expression, exp.Anonymous) and expression.name.upper() == "SOURCE_WATERMARK"


def shown_table(name: str, table: CreateTable, fields_or_schema: Sequence[Any]) -> CreateTable:
    """The table ``from_data_stream(stream, *fields_or_schema)`` shows in its schema: ``table``
    (what :func:`stream_table` gives), or the columns a ``Schema`` declares (after the stream's
    fields when it declares none of them), its expressions as written."""
    from pyflink_compat.table.schema import Schema

    if len(fields_or_schema) != 1 or not isinstance(fields_or_schema[0], Schema):
        return table
    declared = _declared_table(name, fields_or_schema[0])
    columns = declared.columns
    if not declared.physical_columns:
        read = {c.name for c in columns}
        columns = tuple(c for c in table.columns if c.kind == "physical" and c.name not in read) \
            + columns
    return attrs.evolve(declared, columns=columns, expressions_as_written=True)


def stream_table(name: str, node: "Node", fields_or_schema: Sequence[Any], api: str
                 ) -> Tuple[CreateTable, List[Tuple[str, str]], List[str]]:
    """The table ``from_data_stream(stream, *fields_or_schema)`` gives, as a ``CREATE TABLE``.

    :return: The table; the input fields (name, Flink type); and for each physical column the
        input field it reads.
    """
    from pyflink_compat.sql.types import parse_type
    from pyflink_compat.table.schema import Schema

    fields = stream_fields(node.output_type, api)
    names = [n for n, _ in fields]
    by_name = dict(fields)
    physical: List[Column]
    sources: List[str]
    if not fields_or_schema:
        physical = [Column(n, "physical", parse_type(t)) for n, t in fields]
        return CreateTable(name, tuple(physical), {}, temporary=True), fields, names
    if len(fields_or_schema) == 1 and isinstance(fields_or_schema[0], Schema):
        declared = _declared_table(name, fields_or_schema[0])
        columns: List[Column] = []
        sources = []
        declared_physical = [c for c in declared.columns if c.kind == "physical"]
        if not declared_physical:
            columns = [Column(n, "physical", parse_type(t)) for n, t in fields]
            sources = list(names)
        for column in declared.columns:
            if column.kind == "physical":
                if column.name not in by_name:
                    raise _validation(
                        "Unable to find a field named '{}' in the physical data type derived "
                        "from the given type information for schema declaration. Make sure that "
                        "the type information is not a generic raw type. Currently available "
                        "fields are: [{}]".format(column.name, ", ".join(names)))
                columns.append(column)
                sources.append(column.name)
            elif column.kind == "metadata":
                if (column.metadata_key or column.name) != _ROWTIME:
                    raise _validation("Invalid metadata key '{}' in column '{}'. Allowed metadata keys "
                                      "are: [rowtime]".format(column.metadata_key or column.name,
                                                              column.name))
                # the record's timestamp, read with the fields
                columns.append(Column(column.name, "physical", column.data_type))
                sources.append("\x00" + _ROWTIME)
            else:
                columns.append(column)
        watermark = declared.watermark
        if watermark is not None and _is_source_watermark(watermark.expression):
            watermark = Watermark(watermark.column, _source_watermark(
                watermark.column, node.watermark_delay_ms()))
        return CreateTable(name, tuple(columns), {}, temporary=True, watermark=watermark,
                           primary_key=declared.primary_key,
                           primary_key_name=declared.primary_key_name), fields, sources
    from pyflink_compat.table.expression import Expression

    if not all(isinstance(f, Expression) for f in fields_or_schema):
        raise ValueError("Invalid arguments for 'fields': %r" % (fields_or_schema,))
    trees = [f._j_expr for f in fields_or_schema]
    referenced = [(t.this if isinstance(t, exp.Alias) else t) for t in trees]
    if not all(isinstance(r, exp.Column) for r in referenced):
        raise NotSupportedError(
            "{} with the fields {}".format(api, ", ".join(str(f) for f in fields_or_schema)),
            "Name or rename the fields with col(...) and .alias(...), or declare the columns with "
            "a Schema (column_by_metadata('rowtime', ...) for the record's timestamp).")
    if all(r.name in by_name for r in referenced):
        sources = [r.name for r in referenced]
    elif len(trees) <= len(fields):
        sources = names[:len(trees)]  # by position, as Flink renames fields it does not find
    else:
        raise _validation("Too many fields referenced from an atomic type.")
    physical = [Column(t.alias_or_name, "physical", parse_type(by_name[s]))
                for t, s in zip(trees, sources)]
    return CreateTable(name, tuple(physical), {}, temporary=True), fields, sources


def _decoded(spark: "SparkSession", node: "Node", fields: List[Tuple[str, str]],
             table: CreateTable, sources: List[str]) -> "DataFrame":
    """The records of ``node`` as columns: the physical columns of ``table`` (retyped as
    declared) and, when computed columns may read them, the other input fields."""
    from pyspark.sql.pandas.types import to_arrow_schema
    from pyspark.sql.types import StructField, StructType

    from pyflink_compat.runtime.plan import frame_of
    from pyflink_compat.runtime.records import dumps
    from pyflink_compat.runtime.table_rows import decoder
    from pyflink_compat.sql.planner import spark_type_sql
    from pyflink_compat.sql.types import parse_type, to_spark

    physical = [c for c in table.columns if c.kind == "physical"]
    declared = {source: column for column, source in zip(physical, sources)}
    computed = any(c.kind == "computed" for c in table.columns)
    read: List[Tuple[int, str]] = []
    struct: List[StructField] = []
    selected: List[Tuple[str, Optional[str], int]] = []
    for position, (name, flink_type) in enumerate(fields):
        column = declared.get(name)
        if column is None and not computed:
            continue
        read.append((position, "instant" if flink_type.startswith("TIMESTAMP_LTZ") else "value"))
        struct.append(StructField("c%d" % len(struct), to_spark(parse_type(flink_type))))
        if column is not None and column.data_type is not None:
            selected.append((column.name, spark_type_sql(column.data_type), len(struct) - 1))
        else:
            selected.append((name, None, len(struct) - 1))
    if "\x00" + _ROWTIME in declared:
        column = declared["\x00" + _ROWTIME]
        read.append((-1, "rowtime"))
        struct.append(StructField("c%d" % len(struct), to_spark(parse_type("TIMESTAMP_LTZ(3)"))))
        selected.append((column.name, spark_type_sql(column.data_type) if column.data_type is not None
                         else None, len(struct) - 1))
    schema = StructType(struct)
    arrow = to_arrow_schema(schema, timezone="UTC")
    frame = frame_of(node, spark).where("v IS NOT NULL")
    decoded = frame.mapInArrow(decoder(dumps((read, arrow))), schema)
    order = {c.name: i for i, c in enumerate(physical)}
    selected.sort(key=lambda item: order.get(item[0], len(order)))
    return decoded.selectExpr(*[
        "CAST(`c{}` AS {}) AS `{}`".format(index, spark_type, name.replace("`", "``"))
        if spark_type is not None else "`c{}` AS `{}`".format(index, name.replace("`", "``"))
        for name, spark_type, index in selected])


def read_stream(node: "Node", fields: List[Tuple[str, str]], table: CreateTable,
                sources: List[str]) -> Callable[["SparkSession"], Tuple["DataFrame", bool]]:
    """How the planner reads the table of ``node``: its frame, and whether it is bounded."""

    def read(spark: "SparkSession") -> Tuple["DataFrame", bool]:
        return _decoded(spark, node, fields, table, sources), \
            not getattr(node.env, "_unbounded_sources", False)

    return read


# -- a table as a stream ----------------------------------------------------------------------

_TYPE_INFOS = {"StringType": "STRING", "LongType": "LONG", "IntegerType": "INT",
               "ShortType": "SHORT", "ByteType": "BYTE", "FloatType": "FLOAT",
               "DoubleType": "DOUBLE", "BooleanType": "BOOLEAN", "TimestampType": "INSTANT",
               "DecimalType": "BIG_DEC", "TimestampNTZType": "LOCAL_DATE_TIME",
               "DateType": "LOCAL_DATE"}


def event_time(frame: "DataFrame") -> Optional[Tuple[str, int]]:
    """The table's time attribute: the column Spark keeps a watermark on (a table's rowtime)
    and that watermark's delay in milliseconds; ``None`` when the rows have none (a window's
    properties are not one)."""
    from pyflink_compat.sql.planner import ROWTIME_DELAY_KEY

    for field in frame.schema.fields:
        delay = field.metadata.get(ROWTIME_DELAY_KEY, field.metadata.get("spark.watermarkDelayMs"))
        if delay is not None and type(field.dataType).__name__ in ("TimestampType", "TimestampNTZType") \
                and "flink_precision" not in field.metadata:
            return field.name, int(delay)
    return None


def _timestamp_kind(field: Any) -> str:
    """How a column's values become Python values: ``instant`` for a ``TIMESTAMP_LTZ``,
    ``local`` for a window property held as a Spark timestamp (Flink's ``TIMESTAMP(3)``, the
    wall-clock time in the session's zone), ``value`` for the rest."""
    if type(field.dataType).__name__ != "TimestampType":
        return "value"
    return "local" if "flink_precision" in field.metadata else "instant"


def row_type_info(schema: Any) -> Any:
    """The ``RowTypeInfo`` of a table's columns, as ``to_data_stream`` types its stream (a
    column of another type travels pickled)."""
    from pyflink_compat.common.typeinfo import PickledBytesTypeInfo, Types

    kinds = []
    for field in schema.fields:
        name = "LOCAL_DATE_TIME" if _timestamp_kind(field) == "local" \
            else _TYPE_INFOS.get(type(field.dataType).__name__)
        kinds.append(getattr(Types, name)() if name is not None else PickledBytesTypeInfo())
    return Types.ROW_NAMED(list(schema.fieldNames()), kinds)


def table_records(frame: "DataFrame", bounded: bool, kinds: bool = False,
                  row_kinds: Optional[str] = None) -> Callable[["SparkSession"], "DataFrame"]:
    """The records (:data:`~pyflink_compat.runtime.plan.RECORD_SCHEMA`) of an append-only
    table's rows: ``Row`` values named after the columns, of kind ``+I`` (or of the kind the
    column ``row_kinds`` holds, which is no field of theirs), timestamped with the table's time
    attribute (:func:`event_time`) when it has one, ending, for a bounded table, with the
    end-of-input record."""
    from pyflink_compat.runtime.plan import RECORD_SCHEMA
    from pyflink_compat.runtime.records import dumps
    from pyflink_compat.runtime.table_rows import encoder

    names = list(frame.columns)
    zone = frame.sparkSession.conf.get("spark.sql.session.timeZone") or "UTC"
    time_attribute = event_time(frame)
    spec = dumps((names, [_timestamp_kind(f) for f in frame.schema.fields], zone,
                  None if time_attribute is None else names.index(time_attribute[0]),
                  None if row_kinds is None else names.index(row_kinds)))

    def records(spark: "SparkSession") -> "DataFrame":
        from pyflink_compat.runtime.plan import end_of_input

        encoded = frame.mapInArrow(encoder(spec), RECORD_SCHEMA)
        return encoded.unionByName(end_of_input(spark)) if bounded else encoded

    return records


class _ChangelogSource(object):
    """The source of an updating table's changes: ``frame(spark)`` gives its rows as records."""

    def __init__(self, records: Callable[["SparkSession"], "DataFrame"], keyed_state: bool):
        self.frame = records
        #: Whether the table reads a stream whose keyed functions run in transformWithState.
        self.keyed_state = keyed_state


def retract_value(row: Any, type_info: Any) -> Tuple[bool, Any]:
    """The record ``to_retract_stream`` gives for the change ``row``: whether it adds the row
    (``+I``, ``+U``) and the row as ``type_info`` reads it."""
    from pyflink_compat.common.types import RowKind
    from pyflink_compat.runtime.records import conform

    from pyflink_compat.common.typeinfo import TupleTypeInfo

    adds = row.get_row_kind() in (RowKind.INSERT, RowKind.UPDATE_AFTER)
    value = conform(tuple(row) if isinstance(type_info, TupleTypeInfo) else row, type_info)
    if hasattr(value, "set_row_kind"):
        value.set_row_kind(row.get_row_kind())
    return adds, value


class _Retractions(object):
    """A sink's batch function fed with ``(added, row)`` tuples of the changes it receives."""

    def __init__(self, function: Any, type_info: Any):
        self.function = function
        self.type_info = type_info

    def __call__(self, rows: List[Any], batch_id: int) -> None:
        from pyflink_compat.runtime.records import dumps, loads

        self.function([dict(r, v=dumps(retract_value(loads(r["v"]), self.type_info)))
                       for r in rows], batch_id)


def changelog_stream(environment: Any, planned: "PlannedQuery", retract_type: Any = None) -> Any:
    """The stream of the changes of an updating table: its rows, turned into ``+I``, ``-U`` and
    ``+U`` records on the driver by each sink (:class:`~pyflink_compat.runtime.table_rows.
    ChangelogBatch`); Spark runs the query in its update output mode."""
    from pyflink_compat.common.typeinfo import ExternalTypeInfo
    from pyflink_compat.datastream.data_stream import DataStream
    from pyflink_compat.runtime.graph import SOURCE, Node
    from pyflink_compat.runtime.table_rows import ChangelogBatch

    names = list(planned.frame.columns)
    positions = [names.index(k) for k in planned.keys if k in names]
    # the end of input is not added: it would end the update-mode query's union early
    records = table_records(planned.frame, False, row_kinds=planned.row_kinds)

    class ChangelogStream(DataStream):
        """The changes of an updating table: only sinks may follow them."""

        def _then(self, kind: str, op: Any, output_type: Any = None) -> Any:
            raise NotSupportedError(
                "An operator on the changelog stream of an updating table",
                "Print or collect the changes, or write the query with "
                "writeStream.outputMode('update') and foreachBatch, where each micro-batch holds "
                "the new rows of the keys that changed.")

        def union(self, *streams: Any) -> Any:
            return self._then("union", None)

        def connect(self, ds: Any) -> Any:
            return self._then("connect", None)

        def _sink_function(self, function: Any) -> Any:
            if retract_type is not None:
                function = _Retractions(function, retract_type)
            return ChangelogBatch(function, positions, planned.row_kinds is not None)

    output_type: Any
    if retract_type is not None:
        from pyflink_compat.common.typeinfo import Types

        output_type = Types.TUPLE([Types.BOOLEAN(), retract_type])
    else:
        output_type = ExternalTypeInfo(row_type_info(planned.result_frame.schema))
    node = Node(environment, SOURCE, (), _ChangelogSource(records, planned.keyed_state),
                output_type, name="to_retract_stream" if retract_type is not None
                else "to_changelog_stream")
    stream = ChangelogStream(node)
    stream.retracting = retract_type is not None  # type: ignore[attr-defined]
    return stream
