"""Flink SQL statements run as Spark streaming queries.

A :class:`Catalog` holds what a table environment declared: tables (``CREATE TABLE``), views
(``CREATE VIEW``, ``create_temporary_view``) and in-memory tables (``from_elements``). A query
is translated by:

1. inlining the views it reads (so that the whole query is one tree);
2. giving every table it reads a Spark temporary view over that table's streaming source (its
   connector's source, then its computed columns and its watermark);
3. rewriting the tree with Flink's semantics (:mod:`pyflink_compat.sql.functions`, when
   present) and writing it as Spark SQL, which ``spark.sql`` turns into a streaming DataFrame.

A query is *updating* when it aggregates without a window (Flink's ``GroupAggregate``): it is
written in Spark's ``update`` output mode, and its key columns (the grouping columns it
selects) let a print sink show Flink's ``-U``/``+U`` records. An ``INSERT`` casts each column
to the sink's declared type, by position, as Flink does.
"""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING, Any, Callable, Container, Dict, List, Optional, Sequence, Set, Tuple, cast

import attrs
from sqlglot import exp

from pyflink_compat.missing import NotSupportedError
from pyflink_compat.sql.dialect import Flink
from pyflink_compat.sql.catalog import (Catalog, DerivedTable, ElementsTable, StreamTable, View,
                                        time_attributes)
from pyflink_compat.sql.changelog_streams import upsert_tables
from pyflink_compat.sql.statements import CreateTable

if TYPE_CHECKING:
    from pyspark.sql import DataFrame, SparkSession
    from pyspark.sql.types import StructType

__all__ = ["PlannedQuery", "Planner", "ROWTIME_DELAY_KEY", "spark_type_sql"]

_names = itertools.count()

_OVER_HINT = ("Compute the windows per micro-batch in foreachBatch with pyspark.sql.Window"
              ".partitionBy(...).orderBy(...).rowsBetween(...).")


def spark_type_sql(data_type: exp.DataType) -> str:
    """The Spark SQL type of a Flink type parsed by the Flink dialect."""
    try:
        from pyflink_compat.sql import types as flink_types

        to_spark = getattr(flink_types, "to_spark", None)
    except ImportError:
        to_spark = None
    if to_spark is not None:
        spark_type = to_spark(data_type)
        return str(spark_type.simpleString() if hasattr(spark_type, "simpleString") else spark_type)
    return data_type.sql(dialect="spark")


def _apply_flink_semantics(tree: exp.Expression, schema: Dict[str, Dict[str, exp.DataType]],
                           functions: Optional[Container[str]] = None) -> exp.Expression:
    from pyflink_compat.sql.functions import apply_flink_semantics

    return apply_flink_semantics(tree, schema, functions)


def _result_types(tree: exp.Expression) -> List[Tuple[str, exp.DataType]]:
    try:
        from pyflink_compat.sql.functions import result_types
    except ImportError:
        return []
    return result_types(tree)


@attrs.define
class PlannedQuery:
    """A query as a Spark streaming DataFrame, with what its sink needs to know."""

    frame: "DataFrame"
    bounded: bool
    updating: bool
    keys: List[str]
    node: str
    #: Whether it reads a stream whose keyed functions run in ``transformWithState``.
    keyed_state: bool = False
    #: The Flink type of each output column, by name, where the translation knows it
    #: (``VARCHAR(10)``, ``BIGINT NOT NULL``).
    flink_types: Dict[str, str] = attrs.field(factory=dict)
    #: The column holding each result row's kind when the query passes a changelog's changes
    #: on (:func:`~pyflink_compat.sql.changelog_streams.stateless_changes`) or is a group
    #: aggregation emitting its changes per input record (:mod:`pyflink_compat.sql.
    #: group_aggregation`); it is no column of the result's.
    row_kinds: Optional[str] = None
    #: The Flink query as given (what its result's schema is resolved from).
    source_query: Optional[exp.Expression] = None

    @property
    def result_frame(self) -> "DataFrame":
        """The result's columns: :attr:`frame` without the :attr:`row_kinds` column."""
        return self.frame if self.row_kinds is None else self.frame.drop(self.row_kinds)


def _writes_row_kinds(sink: CreateTable) -> bool:
    """Whether ``sink``'s connector writes each row's kind (print, a changelog file format, a
    jdbc table with a primary key, upsert-kafka)."""
    from pyflink_compat.connectors.changelog_files import CHANGELOG_FORMATS

    connector = sink.options.get("connector")
    return connector == "print" or (connector == "filesystem"
                                    and sink.options.get("format") in CHANGELOG_FORMATS) or (
        connector in ("jdbc", "upsert-kafka") and bool(sink.primary_key))  # upserts and deletes by key


def _struct(spark: "SparkSession", table: CreateTable) -> "StructType":
    from pyspark.sql.types import StructType

    ddl = ", ".join("`{}` {}".format(c.name, spark_type_sql(c.data_type))
                    for c in table.physical_columns if c.data_type is not None)
    if hasattr(StructType, "fromDDL"):  # pyspark 4
        return cast("StructType", StructType.fromDDL(ddl))
    return spark.createDataFrame([], ddl).schema


_FLINK_NAMES = {"bigint": "BIGINT", "double": "DOUBLE", "string": "STRING", "boolean": "BOOLEAN",
                "date": "DATE", "timestamp_ntz": "TIMESTAMP(6)", "binary": "BYTES",
                "decimal(38,18)": "DECIMAL(38, 18)"}


def _flink_types_of(struct: "StructType") -> Dict[str, exp.DataType]:
    """The Flink types of a ``from_elements`` table's columns (as PyFlink infers them)."""
    try:
        from pyflink_compat.sql.types import parse_type
    except ImportError:  # pragma: no cover - the types module ships with the package
        return {}
    return {f.name: parse_type(_FLINK_NAMES[f.dataType.simpleString()])
            for f in struct.fields if f.dataType.simpleString() in _FLINK_NAMES}


#: The metadata key marking a table's time attribute, with its watermark delay (ms), in rows
#: planned for a DataStream.
ROWTIME_DELAY_KEY = "flink_rowtime_delay_ms"

_UNIT_MS = {"millisecond": 1, "second": 1000, "minute": 60000, "hour": 3600000, "day": 86400000}


def _delay_ms(delay: str) -> int:
    """Milliseconds of a Spark delay such as ``3 second`` or ``500 millisecond``."""
    amount, unit = delay.split()
    return int(float(amount) * _UNIT_MS[unit.lower().rstrip("s")])


def _group_aggregate(select: exp.Select) -> Optional[Tuple[List[str], str]]:
    """The key columns and Flink's node text of a select that aggregates without a window."""
    group = select.args.get("group")
    has_aggregate = any(e.find(exp.AggFunc) is not None for e in select.expressions)
    if group is None and not has_aggregate and select.args.get("distinct") is not None:
        # SELECT DISTINCT is Flink's GroupAggregate over every selected column
        names = [e.alias_or_name for e in select.expressions]
        return names, "GroupAggregate(groupBy=[{0}], select=[{0}])".format(", ".join(names))
    if group is None and not has_aggregate:
        return None
    group_exprs = list(group.expressions) if group is not None else []
    for item in group_exprs:
        if isinstance(item, exp.Anonymous) and item.name.upper() in ("TUMBLE", "HOP", "SESSION"):
            return None
        if isinstance(item, exp.Column) and item.name in ("window_start", "window_end"):
            return None
    group_sql = {g.sql(Flink) for g in group_exprs}
    keys: List[str] = []
    selected: List[str] = []
    for position, item in enumerate(select.expressions):
        inner = item.this if isinstance(item, exp.Alias) else item
        if inner.sql(Flink) in group_sql:
            keys.append(item.alias_or_name)
            selected.append(item.alias_or_name)
        else:
            alias = item.alias if isinstance(item, exp.Alias) else "EXPR${}".format(position)
            selected.append("{} AS {}".format(inner.sql(Flink), alias))
    node = "GroupAggregate({}select=[{}])".format(
        "groupBy=[{}], ".format(", ".join(g.sql(Flink) for g in group_exprs)) if group_exprs else "",
        ", ".join(selected))
    return keys, node


#: The metadata key of a timestamp column's declared precision (the fraction digits of its text).
TEXT_PRECISION_KEY = "flink_text_precision"


def _timestamp_precision(data_type: Any) -> Optional[int]:
    """The fraction digits of a Flink ``TIMESTAMP(p)`` / ``TIMESTAMP_LTZ(p)`` type (6 when
    not given), ``None`` for another type."""
    if not isinstance(data_type, exp.DataType) or data_type.this not in (
            exp.DataType.Type.TIMESTAMP, exp.DataType.Type.TIMESTAMPLTZ):
        return None
    if data_type.expressions:
        try:
            return int(data_type.expressions[0].sql())
        except ValueError:
            return None
    return 6


def timestamp_precisions(tree: exp.Expression, schema: Dict[str, Dict[str, exp.DataType]]
                         ) -> Dict[str, int]:
    """The declared precision of each timestamp column of ``tree``'s result that is a column of
    a table read (by name) or a ``CAST`` to a timestamp type: what Flink's text of its values
    shows (``TIMESTAMP(3)``: three fraction digits, always)."""
    declared: Dict[str, Optional[int]] = {}
    for columns in schema.values():
        for name, data_type in columns.items():
            digits = _timestamp_precision(data_type)
            if name in declared and declared[name] != digits:
                digits = None  # two tables' columns of one name: unknown
            declared[name] = digits
    outer = tree if isinstance(tree, exp.Select) else tree.find(exp.Select)
    if not isinstance(outer, exp.Select):
        return {}
    found: Dict[str, int] = {}
    for item in outer.expressions:
        inner = item.this if isinstance(item, exp.Alias) else item
        if isinstance(inner, exp.Star) or (isinstance(inner, exp.Column) and
                                           isinstance(inner.this, exp.Star)):
            found.update({n: p for n, p in declared.items() if p is not None})
            continue
        precision: Optional[int] = None
        if isinstance(inner, exp.Cast):
            precision = _timestamp_precision(inner.to)
        elif isinstance(inner, exp.Column):
            precision = declared.get(inner.name)
        elif isinstance(inner, (exp.Max, exp.Min)) and isinstance(inner.this, exp.Column):
            precision = declared.get(inner.this.name)
        if precision is not None:
            found[item.alias_or_name] = precision
    return found


def _inner_joins(tree: exp.Expression) -> exp.Expression:
    """``tree`` with each ``FROM a, b WHERE condition`` written ``FROM a JOIN b ON
    condition``: the same rows, and Spark's stream-stream join takes an inner join, not a cross
    join filtered afterwards."""
    for select in tree.find_all(exp.Select):
        joins = select.args.get("joins") or []
        where = select.args.get("where")
        if len(joins) != 1 or where is None:
            continue
        join = joins[0]
        if isinstance(join.this, exp.Lateral) or join.side or join.args.get("on") is not None \
                or join.args.get("using") or (join.kind or "CROSS") != "CROSS":
            continue
        if join.this.find(exp.Unnest) is not None or isinstance(join.this, exp.Unnest):
            continue
        join.set("kind", None)
        join.set("on", where.this.copy())
        select.set("where", None)
    return tree


def _with_precisions(frame: "DataFrame", precisions: Dict[str, int]) -> "DataFrame":
    for field in frame.schema.fields:
        # a key of its own: "flink_precision" marks a window property (not a time attribute)
        if field.name in precisions and "flink_precision" not in field.metadata and \
                type(field.dataType).__name__ in ("TimestampType", "TimestampNTZType"):
            frame = frame.withMetadata(field.name, dict(field.metadata, **{
                TEXT_PRECISION_KEY: precisions[field.name]}))
    return frame


class Planner(object):
    """Translates the queries of one table environment into Spark streaming DataFrames.

    :param spark: The environment's Spark session.
    :param catalog: The environment's tables and views.
    """

    def __init__(self, spark_provider: Callable[[], "SparkSession"], catalog: Catalog):
        self._spark_provider = spark_provider
        self._delays: Dict[str, str] = {}
        self._watermarked: Set[str] = set()
        self._rowtime_only = False
        self.catalog = catalog
        # the environment's mode: Flink's streaming planner refuses some sorts and over windows
        self.streaming = True
        # whether the job turned on Flink's mini-batch aggregation (its changes per batch)
        self.mini_batch: Callable[[], bool] = lambda: False

    @property
    def spark(self) -> "SparkSession":
        return self._spark_provider()

    # -- sources ------------------------------------------------------------------------
    def table_schema(self, table: CreateTable) -> "StructType":
        """The Spark schema of ``table``'s physical columns."""
        return _struct(self.spark, table)

    def _source(self, table: CreateTable, end_of_input: bool = False,
                read: Optional[Callable[["SparkSession"], Tuple["DataFrame", bool]]] = None
                ) -> Tuple["DataFrame", bool]:
        if read is not None:  # a stream's table: its physical columns come from the stream
            return self._with_columns(table, *read(self.spark), end_of_input)
        from pyflink_compat.connectors.registry import connector_module

        connector = table.options.get("connector")
        if connector is None:
            raise NotSupportedError(
                "Table '{}' without 'connector' (in: {})".format(table.name, table.text),
                "Declare the table's connector in its WITH clause.")
        module = connector_module(connector, table.text)
        if not hasattr(module, "source"):
            raise NotSupportedError(
                "Reading connector '{}' (in: {})".format(connector, table.text),
                "The '{}' connector is a sink only, as in Flink.".format(connector))
        frame, bounded = module.source(table, self.spark, self.table_schema(table))
        metadata = [c for c in table.columns if c.kind == "metadata"]
        if metadata:
            raise NotSupportedError(
                "Metadata column '{}' of connector '{}' (in: {})".format(
                    metadata[0].name, connector, table.text),
                "Read connector metadata with PySpark (the Kafka source's timestamp, key... "
                "columns).")
        return self._with_columns(table, frame, bounded, end_of_input)

    def _with_columns(self, table: CreateTable, frame: "DataFrame", bounded: bool,
                      end_of_input: bool) -> Tuple["DataFrame", bool]:
        """The table's frame from its physical columns: its computed columns, its watermark."""
        computed = [c for c in table.columns if c.kind == "computed"]
        if computed:
            columns = []
            for column in table.columns:
                if column.kind == "computed" and column.expression is not None:
                    if column.expression.find(exp.Anonymous) is not None and \
                            column.expression.sql(Flink).upper().startswith("PROCTIME("):
                        columns.append("current_timestamp() AS `{}`".format(column.name))
                    else:
                        columns.append("{} AS `{}`".format(
                            self._to_spark_sql(column.expression.copy()), column.name))
                else:
                    columns.append("`{}`".format(column.name))
            from pyflink_compat.sql.changelog_streams import KIND_COLUMN

            if KIND_COLUMN in frame.columns:  # a changelog's changes keep their kinds
                columns.append("`{}`".format(KIND_COLUMN))
            frame = frame.selectExpr(*columns)
        if table.watermark is not None and self._rowtime_only and not end_of_input:
            # rows for a DataStream (to_data_stream): no stateful operator of the query needs
            # the watermark, the stream's own keyed functions set theirs; the column is marked
            # as the rows' time attribute instead
            return frame.withMetadata(table.watermark.column, {
                ROWTIME_DELAY_KEY: _delay_ms(self._watermark_delay(table))}), bounded
        if table.watermark is not None:
            event_time = table.watermark.column
            delay = self._watermark_delay(table)
            if type(frame.schema[event_time].dataType).__name__ == "TimestampNTZType":
                # Spark keeps event time on TIMESTAMP only; the session's zone converts Flink's
                # TIMESTAMP there and back (INSERT casts to the sink's declared type), so the
                # wall-clock values are kept.
                from pyspark.sql import functions as F

                frame = frame.withColumn(event_time, F.col("`{}`".format(event_time)).cast("timestamp"))
            if end_of_input and bounded:
                # the watermark goes above the query's filters, with the end of the input
                # (see _flush_windows)
                self._delays[event_time] = delay
            else:
                frame = frame.withWatermark(event_time, delay)
                self._watermarked.add(event_time)
        return frame, bounded

    def _refuse_windows_offtime_attributes(self, tree: exp.Expression) -> None:
        """Refuse, with the streaming planner's errors, a group window on a ``TIMESTAMP``
        column that is not a time attribute (a column without a watermark)."""
        from pyflink_compat.sql.time_attributes import source_time_attribute
        from pyflink_compat.sql.types import flink_name
        from pyflink_compat.sql.windows import group_window_time
        from pyflink_compat.util.exceptions import TableException, java_error

        for select in tree.find_all(exp.Select):
            time_column = group_window_time(select)
            if time_column is not None:
                column, table_function = time_column
                found = source_time_attribute(self.catalog, select, column)
                if found is None or found[0] or found[1] is None \
                        or not found[1].is_type(*exp.DataType.TEMPORAL_TYPES):
                    continue
                type_text = flink_name(found[1])
                if table_function:
                    raise java_error(
                        "java.lang.RuntimeException",
                        "org.apache.flink.table.api.ValidationException: The window function "
                        "requires the timecol is a time attribute type, but is {}.".format(type_text),
                        "o0.executeSql")
                raise TableException(
                    "org.apache.flink.table.api.TableException: Window aggregate can only be "
                    "defined over a time attribute column, but {} encountered.".format(type_text))

    def _refuse_windows_without_watermark(self, tree: exp.Expression, text: str) -> None:
        """Refuse a window of an unbounded query on a column without a watermark."""
        for select in tree.find_all(exp.Select):
            time_column = select.meta.get("spark_window_time")
            if time_column is not None and time_column.name not in self._watermarked:
                raise NotSupportedError(
                    "A window on '{}', which has no watermark (a processing-time attribute, or "
                    "a column without WATERMARK FOR), in an unbounded query (in: {})".format(
                        time_column.name, text),
                    "Spark closes windows by event time only: declare WATERMARK FOR {0} AS {0} "
                    "- INTERVAL '<n>' SECOND on an event-time column, or aggregate with "
                    "writeStream.outputMode('update') in PySpark.".format(time_column.name))

    def _flush_windows(self, tree: exp.Expression) -> None:
        """Give each window aggregation of a bounded query the watermark of its time column,
        with one more row at the end of its input.

        Flink ends a bounded input with the greatest watermark, which fires every window still
        open; Spark's watermark only follows the rows. The added row, all NULL but its event
        time far in the future, raises the watermark past every window of the input; its own
        window never closes, so it is never emitted. Both go right below the aggregation, above
        the query's filters, which Spark would otherwise move below the watermark (and apply to
        that row).
        """
        from pyspark.sql import functions as F
        from pyspark.sql.types import StructField, StructType

        from pyflink_compat.spark.bounded_sources import row_as_stream
        from pyflink_compat.sql.windows import END_OF_INPUT

        for select in reversed(list(tree.find_all(exp.Select))):
            time_column = select.meta.get("spark_window_time")
            from_ = select.args.get("from") or select.args.get("from_")
            if time_column is None or from_ is None:
                continue
            source = from_.this
            alias = source.alias
            # the select's own filter goes below the watermark too
            where = select.args.get("where")
            frame = self.spark.sql("SELECT * FROM " + self._to_spark_sql(source.copy()) + (
                " " + self._to_spark_sql(where) if where is not None else ""))
            select.set("where", None)
            event_time = time_column.name
            if event_time not in frame.columns:
                continue
            if type(frame.schema[event_time].dataType).__name__ == "TimestampNTZType":
                frame = frame.withColumn(event_time, F.col("`{}`".format(event_time)).cast("timestamp"))
            schema = StructType([StructField(f.name, f.dataType, True) for f in frame.schema.fields])
            frame = frame.union(row_as_stream(self.spark, schema, {event_time: END_OF_INPUT}))
            frame = frame.withWatermark(event_time, self._delays.get(event_time, "0 seconds"))
            view_name = "flink_windowed_{}".format(next(_names))
            frame.createOrReplaceTempView(view_name)
            from_.set("this", exp.Table(this=exp.to_identifier(view_name), alias=exp.TableAlias(
                this=exp.to_identifier(alias or view_name))))

    def _read_once(self, frame: "DataFrame", bounded: bool, text: str) -> "DataFrame":
        """The rows of a table that a sort, outer join or over window reads: a batch
        DataFrame of the bounded table's rows."""
        from pyflink_compat.sql.bounded_evaluation import read_once

        if not bounded:
            raise NotSupportedError(
                "A sort, outer join, over window, EXCEPT, INTERSECT or CUMULATE window of an "
                "unbounded table (in: {})".format(text),
                "Spark's streaming queries have none of these: compute them per micro-batch in "
                "foreachBatch (DataFrame.orderBy, DataFrame.join(how='left'), pyspark.sql.Window"
                ".partitionBy(...).orderBy(...).rowsBetween(...), DataFrame.exceptAll, "
                "DataFrame.intersectAll), or bound the source.")
        return read_once(frame)

    def _streaming_over(self, tree: exp.Expression) -> Optional[Tuple[Set[str], Set[str]]]:
        """For a query whose only operation beyond a streaming query is one over window
        (computed by the streaming over aggregation) and that reads a stream or an unbounded
        table: the event-time and processing-time attributes of its tables; otherwise
        ``None`` (a batch query of bounded tables)."""
        from pyflink_compat.sql.bounded_evaluation import needs_bounded_evaluation
        from pyflink_compat.sql.over_aggregation import over_select

        select = over_select(tree)
        if select is None:
            return None
        without = tree.copy()
        for window in list(without.find_all(exp.Window)):
            if isinstance(window.parent, exp.Select) and window.arg_key == "windows":
                continue
            window.replace(exp.Null())
        for found in without.find_all(exp.Select):
            found.set("windows", None)
        if needs_bounded_evaluation(without):
            return None
        unbounded = False
        event_times: Set[str] = set()
        processing_times: Set[str] = set()
        for table in tree.find_all(exp.Table):
            entry = self.catalog.get(".".join(p.name for p in table.parts))
            if isinstance(entry, StreamTable):
                unbounded = True  # a stream's rows are read as a stream either way
                declared = entry.table
            elif isinstance(entry, CreateTable):
                declared = entry
                if not unbounded and declared.options.get("connector") is not None:
                    unbounded = not self._source(attrs.evolve(entry, watermark=None))[1]
            elif isinstance(entry, DerivedTable):
                return None
            else:
                continue
            names = time_attributes(declared)
            if declared.watermark is not None:
                event_times.add(declared.watermark.column)
            processing_times.update(n for n in names if n not in event_times)
        return (event_times, processing_times) if unbounded else None

    def _watermark_delay(self, table: CreateTable) -> str:
        assert table.watermark is not None
        expression = table.watermark.expression
        if isinstance(expression, exp.Column) and expression.name == table.watermark.column:
            return "0 seconds"
        if isinstance(expression, exp.Sub) and isinstance(expression.this, exp.Column) \
                and expression.this.name == table.watermark.column \
                and isinstance(expression.expression, exp.Interval):
            interval = expression.expression
            return "{} {}".format(interval.this.name, interval.text("unit").lower())
        raise NotSupportedError(
            "Watermark '{}' (in: {})".format(table.watermark.sql, table.text),
            "Spark's watermark is the column minus a delay: write WATERMARK FOR {0} AS {0} - "
            "INTERVAL '<n>' SECOND.".format(table.watermark.column))

    def _elements(self, table: ElementsTable) -> "DataFrame":
        from pyflink_compat.spark.bounded_sources import as_stream

        return as_stream(self.spark.createDataFrame(table.rows, table.schema))

    # -- queries ------------------------------------------------------------------------
    def _to_spark_sql(self, tree: exp.Expression) -> str:
        return tree.sql(dialect="spark")

    def _inline_views(self, tree: exp.Expression, depth: int = 0) -> exp.Expression:
        if depth > 50:
            raise ValueError("Views refer to each other in a cycle")
        ctes = {cte.alias for cte in tree.find_all(exp.CTE)}
        for table in list(tree.find_all(exp.Table)):
            if table.name in ctes or not table.name:
                continue
            entry = self.catalog.get(".".join(p.name for p in table.parts))
            if isinstance(entry, View):
                inner = self._inline_views(entry.query.copy(), depth + 1)
                alias = table.alias or table.name
                table.replace(exp.Subquery(this=inner, alias=exp.TableAlias(
                    this=exp.to_identifier(alias))))
        return tree

    def plan_query(self, query: exp.Expression, text: str, rowtime_only: bool = False,
                   row_kinds: bool = False) -> PlannedQuery:
        """The Spark streaming DataFrame of ``query`` (a parsed Flink query).

        :param rowtime_only: For rows read as a DataStream: a table's watermark is kept only where
            a window needs it; elsewhere its column is marked with :data:`ROWTIME_DELAY_KEY`.
        :param row_kinds: Whether the caller's sink prints each row's kind: a stateless query of
            a changelog collection then reads its changes, with their kinds
            (:attr:`PlannedQuery.row_kinds`), instead of the rows they leave.
        """
        self._rowtime_only = rowtime_only
        from pyflink_compat.sql.windows import (
            group_windows_to_spark, has_group_window, table_functions_to_group_windows,
            window_property_columns)

        # CUMULATE windows exist over bounded tables only (see _cumulate_rows)
        cumulate = any(str(f.this).upper() == "CUMULATE" for f in query.find_all(exp.Anonymous))
        from pyflink_compat.sql.bounded_evaluation import distinct_unions

        tree = _inner_joins(distinct_unions(table_functions_to_group_windows(
            self._inline_views(query.copy()), text)))
        if self.streaming:
            self._refuse_windows_offtime_attributes(tree)
        changes = None
        # an upsert-kafka table has only its changes to give: they are read whatever the sink
        upserts = upsert_tables(tree, self.catalog.get)
        if (row_kinds or upserts) and self.streaming:
            from pyflink_compat.sql.changelog_streams import carry_kinds, stateless_changes

            changes = stateless_changes(tree, self.catalog.get)
            if changes is not None:
                carry_kinds(tree)
        # a group aggregation of one changelog table reads its changes and retracts
        group_changes = None
        if self.streaming:
            from pyflink_compat.sql.changelog_streams import NESTED_AGGREGATION_HINT, nested_aggregation

            nested = nested_aggregation(tree, self.catalog.get,
                                        lambda select: _group_aggregate(select) is not None)
            if nested is not None:
                raise NotSupportedError(
                    "An aggregation of an aggregation of the changelog table {} (in: {})"
                    .format(nested, text), NESTED_AGGREGATION_HINT)
        if changes is None and self.streaming:
            group_changes = self._aggregated_changelog(tree)
            if group_changes is not None:
                from pyflink_compat.sql.changelog_streams import carry_kinds

                carry_kinds(tree, outer=False)
        if tree.find(exp.Anonymous) is not None:
            from pyflink_compat.sql.python_functions import resolve_calls

            for select in list(tree.find_all(exp.Select)):
                self._keyed_python_aggregate(select)

            tree = resolve_calls(tree, self.catalog.functions, self.spark, self.streaming)
        from pyflink_compat.sql.bounded_evaluation import needs_bounded_evaluation

        windowed = has_group_window(tree)
        # a sort, an outer join or an over window: a batch query over the inputs read once
        read_once = cumulate or needs_bounded_evaluation(tree)
        if read_once and self.streaming:
            from pyflink_compat.sql.bounded_evaluation import check_streaming_rules

            attributes: Set[str] = set()
            for table in tree.find_all(exp.Table):
                entry = self.catalog.get(".".join(p.name for p in table.parts))
                if isinstance(entry, (CreateTable, StreamTable)):
                    attributes.update(time_attributes(
                        entry if isinstance(entry, CreateTable) else entry.table))
            check_streaming_rules(tree, attributes)
        # over windows of an unbounded table (or of a stream): Flink's streaming over
        # aggregation, in transformWithState (see pyflink_compat.sql.over_aggregation)
        over = self._streaming_over(tree) if read_once and self.streaming and not cumulate \
            and not windowed else None
        if over is not None:
            read_once = False
        over_delays: List[int] = []
        self._delays = {}
        self._watermarked = set()
        bounded = True
        keyed_state = False
        derived_updating = False
        derived_keys: List[str] = []
        schema: Dict[str, Dict[str, exp.DataType]] = {}
        ctes = {cte.alias for cte in tree.find_all(exp.CTE)}
        for table in list(tree.find_all(exp.Table)):
            if not table.name or table.name in ctes:
                continue
            name = ".".join(p.name for p in table.parts)
            entry = self.catalog.get(name)
            if entry is None:
                raise NotSupportedError(
                    "Table '{}' (in: {})".format(name, text),
                    "Object '{}' not found: declare it with CREATE TABLE or "
                    "create_temporary_view before the query.".format(name))
            if name in upserts:
                from pyflink_compat.sql.changelog_streams import refuse_upsert_reads

                refuse_upsert_reads([name], [] if read_once else [changes, group_changes], self.streaming, text)
            if isinstance(entry, CreateTable) and read_once:
                frame, table_bounded = self._source(attrs.evolve(entry, watermark=None))
                frame = self._read_once(frame, table_bounded, text)
                schema[entry.name] = {c.name: c.data_type for c in entry.columns
                                      if c.data_type is not None}
            elif isinstance(entry, (CreateTable, StreamTable)):
                declared = entry if isinstance(entry, CreateTable) else entry.table
                if name in upserts:  # its changes reach no operator that reads event time
                    declared = attrs.evolve(declared, watermark=None)
                keyed_state = keyed_state or (isinstance(entry, StreamTable) and entry.keyed_state)
                if over is not None and declared.watermark is not None:
                    # the over aggregation keeps the watermark itself (Spark would drop the
                    # rows behind it before they reach the aggregation)
                    over_delays.append(_delay_ms(self._watermark_delay(declared)))
                    declared = attrs.evolve(declared, watermark=None)
                read = None
                if isinstance(entry, StreamTable):
                    read = entry.changes if name in (changes, group_changes) and entry.changes is not None \
                        else entry.read
                frame, table_bounded = self._source(declared, end_of_input=windowed, read=read)
                schema[table.name if isinstance(entry, StreamTable) else declared.name] = {
                    c.name: c.data_type for c in declared.columns if c.data_type is not None}
            elif isinstance(entry, DerivedTable):
                frame, table_bounded, entry_updating, entry_keys = entry.build(self)
                if read_once:
                    if entry_updating:
                        raise NotSupportedError(
                            "A sort, outer join or over window of an updating table (in: {})"
                            .format(text),
                            "Aggregate in a batch query with PySpark (spark.read, then "
                            "DataFrame.groupBy/orderBy/join).")
                    frame = self._read_once(frame, table_bounded, text)
                derived_updating = derived_updating or entry_updating
                derived_keys.extend(entry_keys)
                schema[table.name] = _flink_types_of(frame.schema)
            elif read_once:
                frame, table_bounded = self.spark.createDataFrame(entry.rows, entry.schema), True
                schema[table.name] = entry.flink_types if entry.flink_types is not None \
                    else _flink_types_of(entry.schema)
            else:
                frame, table_bounded = self._elements(entry), True
                schema[table.name] = entry.flink_types if entry.flink_types is not None \
                    else _flink_types_of(entry.schema)
            bounded = bounded and table_bounded
            view_name = "flink_{}_{}".format(table.name.replace("$", "_"), next(_names))
            frame.createOrReplaceTempView(view_name)
            alias = table.alias or table.name
            table.replace(exp.Table(this=exp.to_identifier(view_name),
                                    alias=exp.TableAlias(this=exp.to_identifier(alias))))
        outer = tree if isinstance(tree, exp.Select) else tree.find(exp.Select)
        grouped = _group_aggregate(outer) if isinstance(outer, exp.Select) else None
        updating = grouped is not None or any(
            _group_aggregate(s) is not None for s in tree.find_all(exp.Select) if s is not outer)
        keys, node = grouped if grouped is not None else ([], "")
        if upserts and not updating:  # the table's changes pass through the query
            upsert = self.catalog.get(upserts[0])
            updating = True
            keys = list(upsert.primary_key)
            node = "TableSourceScan(table=[[{}]], fields=[{}])".format(
                ", ".join(self.catalog.full_name(upserts[0]).split(".")),
                ", ".join(c.name for c in upsert.physical_columns))
        # a group aggregate emitting its changes per input record (pyflink_compat.sql.
        # group_aggregation); only over an append-only input, as Spark's operator takes no
        # retractions
        from pyflink_compat.sql.group_aggregation import per_record_group

        per_record = self.streaming and grouped is not None and not windowed and \
            not read_once and over is None and not derived_updating and \
            not self.mini_batch() and isinstance(outer, exp.Select) and \
            not any(_group_aggregate(s) is not None for s in tree.find_all(exp.Select)
                    if s is not outer) and per_record_group(outer)
        if group_changes is not None and not per_record:  # pragma: no cover - grouped_changes checks
            raise NotSupportedError("A group aggregation of a changelog table (in: {})".format(text),
                                    "Aggregate the changelog with PySpark's transformWithState.")
        precisions = timestamp_precisions(tree, schema)
        tree = _apply_flink_semantics(tree, schema)
        from pyflink_compat.sql.types import flink_name

        # a column the rewrite could not type (a Python function's row, say) keeps Spark's type
        flink_types = {name: flink_name(data_type) for name, data_type in _result_types(tree)
                       if data_type.this not in (exp.DataType.Type.NULL, exp.DataType.Type.UNKNOWN)}
        tree = group_windows_to_spark(tree, text)
        if over is not None:
            from pyflink_compat.sql.over_aggregation import over_select, plan_over_aggregation

            windowed_select = over_select(tree)
            if windowed_select is None:  # pragma: no cover - the rewrite keeps the windowed select
                raise NotSupportedError("Over windows (in: {})".format(text), _OVER_HINT)
            plan_over_aggregation(self.spark, tree, windowed_select, over[0], over[1],
                                  min(over_delays) if over_delays else 0, bounded, text)
            # append-only, as Flink's over aggregation; its operator keeps state
            updating, keys, node, keyed_state = False, [], "", True
        if per_record:
            from pyflink_compat.sql.group_aggregation import plan_group_aggregation

            rewritten = tree if isinstance(tree, exp.Select) else tree.find(exp.Select)
            assert rewritten is not None
            plan_group_aggregation(self.spark, tree, rewritten, retracting=group_changes is not None)
            keyed_state = True  # its operator keeps state
        if read_once:
            from pyflink_compat.spark.bounded_sources import as_stream
            from pyflink_compat.sql.bounded_evaluation import distinct_window_aggregates

            tree = distinct_window_aggregates(tree, text)
            frame = as_stream(self.spark.sql(self._to_spark_sql(tree)))
            for name in ("window_start", "window_end", "window_time") if cumulate else ():
                if name in frame.columns:
                    frame = frame.withMetadata(name, {"flink_precision": 3})
            return PlannedQuery(frame=_with_precisions(frame, precisions), bounded=True,
                                updating=False, keys=[], node=node, flink_types=flink_types,
                                source_query=query)
        if windowed and bounded:
            self._flush_windows(tree)
        elif windowed:
            self._refuse_windows_without_watermark(tree, text)
        frame = self.spark.sql(self._to_spark_sql(tree))
        for name in window_property_columns(tree):
            if name in frame.columns:
                frame = frame.withMetadata(name, {"flink_precision": 3})
        frame = _with_precisions(frame, precisions)
        if upserts and grouped is None:  # the table's key columns the query keeps
            keys = [k for k in keys if k in frame.columns]
        if "*" in keys:  # the distinct rows of a UNION: every column is a key
            keys = list(frame.columns)
        if derived_updating and not updating:
            updating = True
            keys = [k for k in derived_keys if k in frame.columns]
        if not frame.isStreaming:
            # a query of constants only (SELECT 1, VALUES): a bounded stream of its rows
            from pyflink_compat.spark.bounded_sources import as_stream

            frame = as_stream(frame)
        from pyflink_compat.sql.changelog_streams import KIND_COLUMN

        return PlannedQuery(frame=frame, bounded=bounded, updating=updating, keys=keys, node=node,
                            keyed_state=keyed_state, flink_types=flink_types,
                            row_kinds=KIND_COLUMN if changes is not None or per_record else None,
                            source_query=query)

    def _aggregated_changelog(self, tree: exp.Expression) -> Optional[str]:
        """The changelog table whose changes ``tree`` aggregates by group, one change per record
        (:func:`~pyflink_compat.sql.changelog_streams.grouped_changes` with mini-batch off and
        an aggregation :func:`~pyflink_compat.sql.group_aggregation.per_record_group` runs);
        ``None`` otherwise."""
        from pyflink_compat.sql.changelog_streams import grouped_changes
        from pyflink_compat.sql.group_aggregation import per_record_group

        if self.mini_batch():
            return None
        name = grouped_changes(tree, self.catalog.get)
        return name if name is not None and isinstance(tree, exp.Select) and per_record_group(tree) else None

    def _keyed_python_aggregate(self, select: exp.Select) -> None:
        """Plan ``select`` as a :class:`DerivedTable` keeping each key's accumulator in
        Spark's state when it is the group aggregate (without window) of one general Python
        aggregate function: ``SELECT k..., f(...) [AS a] FROM ... [WHERE ...] GROUP BY k...``.

        Any other select calling Python aggregates keeps the group's rows instead
        (:func:`~pyflink_compat.sql.python_functions.resolve_calls`).
        """
        from pyflink_compat.sql.python_functions import (aggregate_frame, function_of,
                                                         keeps_accumulators_in_state)

        if not keeps_accumulators_in_state():
            return
        group = select.args.get("group")
        keys = list(group.expressions) if group is not None else []
        calls = [n for e in select.expressions for n in e.find_all(exp.Anonymous)
                 if type(function_of(str(n.this), self.catalog.functions)).__name__
                 == "UserDefinedAggregateFunctionWrapper"]
        from_ = select.args.get("from") or select.args.get("from_")
        if len(calls) != 1 or from_ is None or not all(isinstance(k, exp.Column) for k in keys) \
                or any(select.args.get(part) is not None
                       for part in ("having", "distinct", "order", "limit", "qualify")) \
                or any(e.find(exp.AggFunc) is not None for e in select.expressions):
            return
        (call,) = calls
        function = function_of(str(call.this), self.catalog.functions)
        if function._func_type != "general" or function._is_table_aggregate:
            return
        key_names = [k.name for k in keys]
        projections: List[Any] = []
        for position, item in enumerate(select.expressions):
            inner = item.this if isinstance(item, exp.Alias) else item
            if inner is call:
                projections.append(exp.alias_(exp.column("__aggregate", quoted=True),
                                              item.alias if isinstance(item, exp.Alias)
                                              else "EXPR${}".format(position), quoted=True))
            elif isinstance(inner, exp.Column) and inner.name in key_names \
                    and item.alias_or_name == inner.name:
                projections.append(exp.column(inner.name, quoted=True))
            else:
                return
        arguments = ["__arg{}".format(i) for i in range(len(call.expressions))]
        inner_select = exp.select(
            *[exp.alias_(k.copy(), k.name, quoted=True) for k in keys],
            *[exp.alias_(a.copy(), n, quoted=True) for a, n in zip(call.expressions, arguments)]
        ).from_(from_.this.copy())
        for part in ("joins", "where", "laterals"):
            value = select.args.get(part)
            if value is not None:
                inner_select.set(part, [v.copy() for v in value] if isinstance(value, list)
                                 else value.copy())

        def build(planner: "Planner") -> Tuple["DataFrame", bool, bool, List[str]]:
            planned = planner.plan_query(inner_select, inner_select.sql(Flink))
            if planned.updating:
                raise NotSupportedError(
                    "A Python aggregate function over an updating table",
                    "Aggregate an append-only table (Spark's stateful operator takes no "
                    "retractions).")
            frame = aggregate_frame(planned.frame, key_names, arguments, function,
                                    ["__aggregate"])
            return frame, planned.bounded, True, key_names

        name = "flink_python_aggregate_{}".format(next(_names))
        self.catalog.put(name, DerivedTable(build))
        for part in ("joins", "where", "laterals", "group"):
            select.set(part, None)
        select.set("expressions", projections)
        from_.set("this", exp.to_table(name))

    def translate(self, query: exp.Expression, text: str,
                  read: Callable[[str, Optional[CreateTable]], None],
                  functions: Optional[Container[str]] = None) -> Tuple[str, bool]:
        """The Spark SQL text of ``query`` and whether it is updating, without a Spark session:
        what :meth:`plan_query` writes before it asks Spark (the porting tool checks a job's SQL
        with it). ``read`` is called with each table the query reads and its catalog entry (None
        when the catalog has none, an :class:`ElementsTable` given as None too); the tables are
        named ``flink_<name>`` in the text.

        :param functions: The functions a call may name besides those Flink's translation knows
            (:func:`~pyflink_compat.sql.functions.apply_flink_semantics`); ``None`` lets any call
            through.
        :raises SqlValidationError: For a query Flink's planner refuses.
        """
        tree = self._inline_views(query.copy())
        schema: Dict[str, Dict[str, exp.DataType]] = {}
        ctes = {cte.alias for cte in tree.find_all(exp.CTE)}
        for table in list(tree.find_all(exp.Table)):
            if not table.name or table.name in ctes:
                continue
            name = ".".join(p.name for p in table.parts)
            entry = self.catalog.get(name)
            if isinstance(entry, CreateTable):
                read(name, entry)
                schema[entry.name] = {c.name: c.data_type for c in entry.columns if c.data_type is not None}
            else:
                read(name, None)
            alias = table.alias or table.name
            table.replace(exp.Table(this=exp.to_identifier("flink_" + table.name.replace("$", "_")),
                                    alias=exp.TableAlias(this=exp.to_identifier(alias))))
        outer = tree if isinstance(tree, exp.Select) else tree.find(exp.Select)
        updating = (_group_aggregate(outer) is not None if isinstance(outer, exp.Select) else False) or any(
            _group_aggregate(s) is not None for s in tree.find_all(exp.Select) if s is not outer)
        original = self._inline_views(query.copy())
        upserts = upsert_tables(original, self.catalog.get)
        if upserts:  # the checks plan_query makes of a query of upsert-kafka tables
            from pyflink_compat.sql.bounded_evaluation import needs_bounded_evaluation
            from pyflink_compat.sql.changelog_streams import refuse_upsert_reads, stateless_changes

            refuse_upsert_reads(upserts, [] if needs_bounded_evaluation(original) else
                                [stateless_changes(original, self.catalog.get), self._aggregated_changelog(original)],
                                self.streaming, text)
            updating = True
        return self._to_spark_sql(_apply_flink_semantics(tree, schema, functions)), updating

    def _refuse_sink_types(self, planned: PlannedQuery, sink: CreateTable, names: Sequence[str]) -> None:
        """Refuse, with Flink's error, an insert whose query has another number of columns than
        the sink (or than the listed ``names``), or a column that Flink does not cast
        implicitly to its sink column's type (:func:`~pyflink_compat.sql.types.
        supports_implicit_cast`): a ``STRING`` into an ``INT``, a ``BIGINT`` into an ``INT``.

        The query's columns are shown in the sink's order, a sink column the insert leaves
        out as Flink fills it (``EXPR$<i>``, a NULL of the sink column's type).
        """
        from pyflink_compat.sql.types import flink_name, parse_type, supports_implicit_cast, with_nullable
        from pyflink_compat.sql.value_text import flink_type_name

        targets = sink.physical_columns
        fields = planned.result_frame.schema.fields

        def query_type(field: Any) -> str:
            known = planned.flink_types.get(field.name)
            if known is not None:
                return known
            text = flink_type_name(field.dataType)
            return text if field.nullable else text + " NOT NULL"

        def mismatch(cause: str, shown: Sequence[Tuple[str, str]]) -> Exception:
            from pyflink_compat.util.exceptions import java_error

            return java_error("java.lang.RuntimeException", (
                "org.apache.flink.table.api.ValidationException: Column types of query result and "
                "sink for '{}' do not match.\nCause: {}\n\nQuery schema: [{}]\nSink schema:  [{}]").format(
                    self.catalog.full_name(sink.name), cause,
                    ", ".join("{}: {}".format(n, t) for n, t in shown),
                    ", ".join("{}: {}".format(c.name, flink_name(with_nullable(c.data_type, True))
                                              if c.data_type is not None else "STRING") for c in targets)),
                "o0.executeSql")

        if len(fields) != len(names):
            raise mismatch("Different number of columns.",
                           [(f.name, query_type(f)) for f in fields])
        by_name = dict(zip(names, fields))
        shown = []
        refused = None
        for index, column in enumerate(targets):
            field = by_name.get(column.name)
            if field is None:
                sink_type = flink_name(with_nullable(column.data_type, True)) \
                    if column.data_type is not None else "STRING"
                shown.append(("EXPR${}".format(index), sink_type))
                continue
            text = query_type(field)
            shown.append((field.name, text))
            if refused is None and column.data_type is not None:
                try:
                    source = parse_type(text)
                except ValueError:
                    continue
                if not supports_implicit_cast(source, parse_type(flink_name(column.data_type))):
                    refused = "Incompatible types for sink column '{}' at position {}.".format(column.name, index)
        if refused is not None:
            raise mismatch(refused, shown)

    def cast_to_sink(self, planned: PlannedQuery, sink: CreateTable, columns: Sequence[str],
                     text: str) -> "DataFrame":
        """``planned``'s rows with the sink's physical columns and declared types."""
        from pyspark.sql import functions as F

        targets = sink.physical_columns
        names = list(columns) if columns else [c.name for c in targets]
        frame = planned.result_frame
        self._refuse_sink_types(planned, sink, names)
        by_name = dict(zip(names, frame.columns))
        selected = []
        for column in targets:
            spark_type = spark_type_sql(column.data_type) if column.data_type is not None else "string"
            if column.name in by_name:
                selected.append(F.col("`{}`".format(by_name[column.name])).cast(spark_type)
                                .alias(column.name))
            else:
                selected.append(F.lit(None).cast(spark_type).alias(column.name))
        if planned.row_kinds is not None:
            kinds = F.col("`{}`".format(planned.row_kinds))
            if _writes_row_kinds(sink):  # the changes' kinds go to the sink
                selected.append(kinds)
                frame = planned.frame
            else:  # a sink without row kinds takes the rows each change leaves
                frame = planned.frame.where(kinds.isin("+I", "+U"))
        return frame.select(*selected)
