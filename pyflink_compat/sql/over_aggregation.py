"""Over windows of unbounded tables (and of streams read as tables): Flink's streaming over
aggregation on Spark.

Spark's streaming queries have no window functions. A query whose over windows are all one
event-time window (``OVER (PARTITION BY ... ORDER BY rowtime ROWS|RANGE BETWEEN ... PRECEDING
AND CURRENT ROW)``) and whose aggregates are ``COUNT``, ``SUM``, ``AVG``, ``MIN``, ``MAX``
(each also with ``DISTINCT``), ``FIRST_VALUE`` and ``LAST_VALUE`` is planned in two parts: the
rows the windowed ``SELECT`` reads (its ``FROM``; its ``WHERE``
is applied by the processor, so that the rows it drops still raise the watermark, as where
Flink assigns it; so are the filters of the plain subqueries it reads, each made a column of
whether it keeps the row) go, grouped by the partition columns, through
:class:`~pyflink_compat.runtime.over.OverProcessor` in ``transformWithState``, which emits
each row once the watermark passes its timestamp, with its aggregates; the ``SELECT`` then
reads those rows, each windowed aggregate replaced by the processor's column. The casts and
quotients that give Flink's result types (:mod:`pyflink_compat.sql.functions`) stay around
the aggregates, as over bounded tables.
"""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING, Any, Dict, List, Optional, Set, Tuple

from sqlglot import exp

from pyflink_compat.missing import NotSupportedError

if TYPE_CHECKING:
    from pyspark.sql import DataFrame, SparkSession

__all__ = ["over_select", "plan_over_aggregation", "check_spark_runs_over_aggregation"]

_names = itertools.count()

_AGGREGATES = {exp.Sum: "SUM", exp.Count: "COUNT", exp.Avg: "AVG", exp.Min: "MIN", exp.Max: "MAX",
               exp.FirstValue: "FIRST_VALUE", exp.LastValue: "LAST_VALUE"}

# the aggregates that take DISTINCT (MIN and MAX are the same without it)
_DISTINCT = ("SUM", "COUNT", "AVG", "MIN", "MAX")

_UNIT_MS = {"MILLISECOND": 1, "SECOND": 1000, "MINUTE": 60000, "HOUR": 3600000, "DAY": 86400000}

_PREFIX = "org.apache.flink.table.api.TableException: "


def _windows_of(select: exp.Select) -> List[exp.Window]:
    """The over windows of ``select``'s own expressions (not of its subqueries, nor the
    definitions of its ``WINDOW`` clause)."""
    found = []
    for expression in select.expressions:
        for window in expression.find_all(exp.Window):
            if window.find_ancestor(exp.Select) is select:
                found.append(window)
    return found


def over_select(tree: exp.Expression) -> Optional[exp.Select]:
    """The one ``SELECT`` of ``tree`` with over windows, when every one of them is an
    aggregate that the streaming over aggregation computes; ``None`` otherwise."""
    selects = [s for s in tree.find_all(exp.Select) if _windows_of(s)]
    if len(selects) != 1:
        return None
    select = selects[0]
    if any(select.args.get(k) is not None for k in ("group", "having", "order", "limit",
                                                     "offset", "distinct")):
        return None
    from_ = select.args.get("from") or select.args.get("from_")
    if from_ is None or select.args.get("joins"):
        return None
    for window in _windows_of(select):
        function = window.this
        if type(function) not in _AGGREGATES:
            return None
        distinct = function.find(exp.Distinct)
        if distinct is not None and (distinct is not function.this or _AGGREGATES[type(function)]
                                     not in _DISTINCT or len(distinct.expressions) != 1):
            return None
    return select


def _definition(window: exp.Window, select: exp.Select) -> exp.Window:
    """The window ``window`` stands for: itself, or its ``WINDOW`` clause definition."""
    named = window.args.get("alias")
    if window.args.get("order") is None and named is not None:
        for definition in select.args.get("windows") or []:
            if definition.this.name == named.name:
                return definition
    return window


def _text(part: Any) -> str:
    """A window part (an expression, a list of them or nothing) as Spark SQL text."""
    if isinstance(part, list):
        return ", ".join(_text(p) for p in part)
    return str(part.sql(dialect="spark")) if isinstance(part, exp.Expression) else ""


def _frame(window: exp.Window, text: str) -> Tuple[str, Optional[int]]:
    """The kind (``ROWS``/``RANGE``) and the preceding bound (rows or milliseconds, ``None``
    for unbounded) of ``window``'s frame."""
    spec = window.args.get("spec")
    if spec is None:
        return "RANGE", None  # Flink's default frame
    kind = str(spec.args.get("kind") or "RANGE").upper()
    end = spec.args.get("end")
    if str(end).upper() != "CURRENT ROW":
        raise NotSupportedError(
            "An over window whose frame does not end at the current row (in: {})".format(text),
            "Flink's streaming over windows end at CURRENT ROW.")
    start = spec.args.get("start")
    if isinstance(start, str):
        return kind, (None if start.upper() == "UNBOUNDED" else 0)
    if kind == "ROWS" and isinstance(start, exp.Literal) and not start.is_string:
        return kind, int(start.name)
    if kind == "RANGE" and isinstance(start, exp.Interval):
        unit = start.text("unit").upper().rstrip("S")
        if unit in _UNIT_MS:
            return kind, int(float(start.this.name) * _UNIT_MS[unit])
    raise NotSupportedError(
        "Over window frame '{}' (in: {})".format(spec.sql(dialect="spark"), text),
        "Write the frame as ROWS BETWEEN <n> PRECEDING, RANGE BETWEEN INTERVAL '<n>' <unit> "
        "PRECEDING or UNBOUNDED PRECEDING, AND CURRENT ROW.")


def check_spark_runs_over_aggregation() -> None:
    """Fail at the call when the installed pyspark has no ``transformWithState`` (Spark 4)."""
    from pyspark.sql import GroupedData

    if not hasattr(GroupedData, "transformWithState"):
        import pyspark

        raise NotSupportedError(
            "An over window of an unbounded table on pyspark {} (it needs Spark 4.1's "
            "GroupedData.transformWithState)".format(pyspark.__version__),
            "Install pyspark 4.1 or later, or compute the windows per micro-batch in "
            "foreachBatch with pyspark.sql.Window.partitionBy(...).orderBy(...).rowsBetween(...).")


def plan_over_aggregation(spark: "SparkSession", tree: exp.Expression, select: exp.Select,
                          time_attributes: Set[str], processing_times: Set[str],
                          delay_ms: int, bounded: bool, text: str) -> None:
    """Plan the over windows of ``select`` (a part of ``tree``, already in Spark SQL's form)
    as a ``transformWithState`` over the rows it reads, and make ``select`` read that
    operator's rows instead.

    :param time_attributes: The event-time attributes of the tables the query reads.
    :param processing_times: Their processing-time attributes.
    :param delay_ms: The watermark's delay behind the greatest timestamp.
    :param bounded: Whether the input ends (then the end of the input emits every row).
    :raises TableException: For over windows that are not all the same window, as Flink.
    :raises NotSupportedError: For a ``RANGE`` frame with a preceding interval ordered by a
        processing-time attribute.
    """
    from pyspark.sql import functions as F
    from pyspark.sql.types import StructField, StructType

    from pyflink_compat.util.exceptions import TableException

    windows = _windows_of(select)
    definitions = [_definition(w, select) for w in windows]
    first = definitions[0]
    shape = [tuple(_text(d.args.get(part)) for part in ("order", "partition_by", "spec"))
             for d in definitions]
    if any(s != shape[0] for s in shape[1:]):
        raise TableException(_PREFIX + "All aggregates must be computed on the same window.")
    order = first.args.get("order")
    ordered = order.expressions[0] if order is not None and order.expressions else None
    if ordered is None or not isinstance(ordered.this, exp.Column):
        raise TableException(_PREFIX + "OVER windows' ordering in stream mode must be defined on "
                                       "a time attribute.")
    time_column = ordered.this.name
    processing_time = time_column in processing_times and time_column not in time_attributes
    if ordered.args.get("desc"):
        raise TableException(_PREFIX + "OVER windows' ordering in stream mode must be defined on "
                                       "a time attribute.")
    kind, preceding = _frame(first, text)
    if processing_time and kind == "RANGE" and preceding is not None:
        # Flink's peers are the rows arriving in the same millisecond
        raise NotSupportedError(
            "A RANGE frame with a preceding interval over the processing-time attribute '{}' "
            "(in: {})".format(time_column, text),
            "Order the window by an event-time attribute (a column with WATERMARK FOR), use a "
            "ROWS frame, or compute the frames per micro-batch in foreachBatch with "
            "pyspark.sql.Window.partitionBy(...).orderBy(...).rangeBetween(...).")
    check_spark_runs_over_aggregation()

    # the aggregates the processor computes, each once
    aggregates: List[Tuple[str, Optional[exp.Expression]]] = []
    columns: Dict[str, str] = {}
    for window in windows:
        function = window.this
        name = _AGGREGATES[type(function)]
        argument = function.this
        if isinstance(argument, exp.Distinct):
            # each value counted once: the processor keeps the frame's values with their counts
            name, argument = name + " DISTINCT", argument.expressions[0]
        argument = None if isinstance(argument, exp.Star) or argument is None else argument
        signature = name + "(" + (argument.sql(dialect="spark") if argument is not None else "*") + ")"
        if signature not in columns:
            columns[signature] = "__o{}".format(len(aggregates))
            aggregates.append((name, argument))
        column = exp.column(columns[signature])
        column.meta.update(window.meta)  # its Flink type
        window.replace(column)

    from_: exp.From = select.args.get("from") or select.args["from_"]
    source = from_.this
    alias = source.alias
    # the filters of the subqueries it reads become columns: the rows they drop still reach
    # the processor and raise the watermark, as they do in Flink
    source = source.copy()
    lifted = _lift_filters(source)
    read = exp.select("*").from_(source)
    # the select's filter is applied by the processor: the rows it drops still raise the
    # watermark, which Flink assigns where the table is read
    where = select.args.get("where")
    keep: exp.Expression = exp.Coalesce(this=where.this.copy(), expressions=[exp.false()]) \
        if where is not None else exp.true()
    for name in lifted:
        keep = exp.And(this=keep, expression=exp.column(name, quoted=True))
    extras = [exp.alias_(keep, "__w", quoted=True)]
    extras += [exp.alias_(p.copy(), "__p{}".format(i), quoted=True)
              for i, p in enumerate(first.args.get("partition_by") or [])]
    extras.append(exp.alias_(ordered.this.copy(), "__t", quoted=True))
    extras.extend(exp.alias_(a.copy() if a is not None else exp.Literal.number(1),
                             "__a{}".format(i), quoted=True)
                  for i, (_, a) in enumerate(aggregates))
    rows = spark.sql(read.sql(dialect="spark"))
    payload = [c for c in rows.columns if c not in lifted]
    rows = spark.sql(exp.select("*", *extras).from_(exp.Subquery(
        this=read, alias=exp.TableAlias(this=exp.to_identifier("__in")))).sql(dialect="spark"))
    partitions = ["__p{}".format(i) for i in range(len(first.args.get("partition_by") or []))]
    arguments = ["__a{}".format(i) for i in range(len(aggregates))]
    time_type = type(rows.schema["__t"].dataType).__name__
    if time_type == "TimestampNTZType":
        millis = F.expr("timestampdiff(MILLISECOND, TIMESTAMP_NTZ'1970-01-01 00:00:00', `__t`)")
    elif time_type == "TimestampType":
        millis = F.unix_millis(F.col("__t"))
    else:
        raise TableException(_PREFIX + "OVER windows' ordering in stream mode must be defined on "
                                       "a time attribute.")
    rows = rows.select(*partitions, F.lit(False).alias("__e"), "__w", millis.alias("__ts"),
                       F.struct(*[F.col("`{}`".format(c)) for c in payload]).alias("__r"),
                       *arguments)
    if bounded and not processing_time:
        rows = rows.union(_end_of_input(spark, rows))

    # the result types, as Spark gives them to the same window functions
    empty = spark.createDataFrame([], rows.schema)
    typed = empty.selectExpr(*["{}({}) OVER (ORDER BY __ts)".format(
        name.replace(" DISTINCT", ""), "__a{}".format(i) if argument is not None else "*")
        for i, (name, argument) in enumerate(aggregates)])
    result_fields = typed.schema.fields
    result_types = [f.dataType for f in result_fields]

    from pyflink_compat.runtime.over import OverProcessor, OverSpec

    spec = OverSpec(kind, preceding, [(name, argument is not None) for name, argument in aggregates],
                    [t.simpleString() for t in result_types], delay_ms, processing_time)
    if not processing_time:
        rows = rows.withColumn("__et", F.timestamp_millis("__ts")) \
            .withWatermark("__et", "{} milliseconds".format(delay_ms)).drop("__et")
    output = StructType([StructField("__r", rows.schema["__r"].dataType, True)] + [
        StructField("__o{}".format(i), f.dataType, f.nullable) for i, f in enumerate(result_fields)])
    result: "DataFrame" = rows.groupBy(*partitions, "__e").transformWithState(
        OverProcessor(spec), output, "Append", "None" if processing_time else "EventTime")
    # Spark's stateful operators give nullable columns; COUNT's is not (as in Flink)
    result = result.select(*[F.col("__r.`{}`".format(c)) for c in payload], *[
        F.col(f.name) if f.nullable else F.coalesce(F.col(f.name), F.lit(0).cast(f.dataType)).alias(f.name)
        for f in output.fields[1:]])
    view_name = "flink_over_{}".format(next(_names))
    result.createOrReplaceTempView(view_name)
    from_.set("this", exp.Table(this=exp.to_identifier(view_name), alias=exp.TableAlias(
        this=exp.to_identifier(alias or view_name))))
    select.set("where", None)
    select.set("windows", None)


def _lift_filters(source: exp.Expression) -> List[str]:
    """Replace the ``WHERE`` of each plain subquery (projections and a filter of one table or
    of another such subquery) that ``source`` reads by a column of whether it keeps the row;
    the names of those columns among ``source``'s own (each a boolean, never ``NULL``)."""
    if not isinstance(source, exp.Subquery) or not isinstance(source.this, exp.Select):
        return []
    inner = source.this
    if any(inner.args.get(k) for k in ("group", "having", "order", "limit", "offset", "distinct",
                                       "joins", "laterals", "windows", "with", "with_")):
        return []
    if any(inner.find(t) is not None for t in (exp.AggFunc, exp.Window)):
        return []
    from_ = inner.args.get("from") or inner.args.get("from_")
    if from_ is None:
        return []
    names = _lift_filters(from_.this)
    star = any(isinstance(e, exp.Star) or (isinstance(e, exp.Column) and isinstance(e.this, exp.Star))
               for e in inner.expressions)
    if names and not star:
        inner.set("expressions", list(inner.expressions) + [
            exp.column(n, quoted=True) for n in names])
    where = inner.args.get("where")
    if where is None:
        return names
    name = "__f{}".format(next(_names))
    keep: exp.Expression = exp.Coalesce(this=where.this.copy(), expressions=[exp.false()])
    inner.set("expressions", list(inner.expressions) + [exp.alias_(keep, name, quoted=True)])
    inner.set("where", None)
    return names + [name]


def _end_of_input(spark: "SparkSession", rows: "DataFrame") -> "DataFrame":
    """One row of its own key at the greatest timestamp: its watermark emits every row."""
    from pyspark.sql.types import StructField, StructType

    from pyflink_compat.runtime.records import END_TIMESTAMP
    from pyflink_compat.spark.bounded_sources import row_as_stream

    schema = StructType([StructField(f.name, f.dataType, True) for f in rows.schema.fields])
    return row_as_stream(spark, schema, {"__e": True, "__ts": END_TIMESTAMP})
