"""Grouped aggregates without window of a streaming query: Flink's group aggregation on Spark,
one change per input record.

Spark's streaming aggregation gives, per micro-batch, the last value of each key that changed;
Flink's group aggregate (mini-batch off, its default) emits one change per input record. A
query whose outer ``SELECT`` is made of group keys and calls of ``COUNT``, ``SUM``, ``AVG``,
``MIN`` and ``MAX`` (each aliased or not, ``DISTINCT`` or not) over an append-only input, or
over the changes of one changelog table (whose ``-U`` and ``-D`` rows retract), is
planned in two parts: the rows it groups (its ``FROM``, joins and ``WHERE``) go, grouped by the
group keys, through :class:`~pyflink_compat.runtime.group_aggregate.GroupAggregateProcessor` in
``transformWithState``, which emits a key's result after each of its rows that changes it,
with its row kind (``+I``, or ``-U`` and ``+U``) in
:data:`~pyflink_compat.sql.changelog_streams.KIND_COLUMN`;
the ``SELECT`` then reads those rows, each aggregate replaced by the processor's column, and
passes the kind column on (:attr:`~pyflink_compat.sql.planner.PlannedQuery.row_kinds`). The
casts and quotients that give Flink's result types (:mod:`pyflink_compat.sql.functions`)
stay around the aggregates; a ``DISTINCT`` aggregate counts each value it saw. A ``HAVING``
of group keys and such calls becomes a ``WHERE`` over the processor's rows: as Flink's filter
after its aggregate, it keeps or drops each change with its kind (a group whose first result
fails it shows first as ``+U``). Other grouped queries (expressions over aggregates, Python
aggregate functions, mini-batch on) keep Spark's streaming aggregation (the divergence
``updates-per-micro-batch``).
"""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING, Dict, List, Optional, Tuple

from sqlglot import exp

from pyflink_compat.sql.dialect import Flink

if TYPE_CHECKING:
    from pyspark.sql import SparkSession

__all__ = ["MINI_BATCH_KEY", "per_record_group", "plan_group_aggregation"]

#: The option that turns on Flink's mini-batch aggregation (its changes per batch, as Spark's).
MINI_BATCH_KEY = "table.exec.mini-batch.enabled"

_names = itertools.count()

_AGGREGATES: Dict[type, str] = {exp.Sum: "SUM", exp.Count: "COUNT", exp.Avg: "AVG", exp.Min: "MIN", exp.Max: "MAX"}


def _argument(node: exp.Expression) -> Tuple[Optional[exp.Expression], bool]:
    """The argument of the aggregate call ``node`` (``None`` for ``*``) and whether the call
    aggregates the distinct values."""
    argument = node.this
    if isinstance(argument, exp.Distinct):
        if len(argument.expressions) != 1:
            return argument, True
        return argument.expressions[0], True
    return (None if argument is None or isinstance(argument, exp.Star) else argument), False


def _plain_call(node: exp.Expression) -> bool:
    """Whether ``node`` is one call of a built-in aggregate computed here (of one argument
    when ``DISTINCT``), without an aggregate in its argument."""
    if type(node) not in _AGGREGATES:
        return False
    argument, distinct = _argument(node)
    if distinct and (isinstance(argument, exp.Distinct) or argument is None):
        return False
    return argument is None or argument.find(exp.AggFunc) is None


def per_record_group(select: exp.Select) -> bool:
    """Whether ``select`` (a Flink query's outer select, grouped without a window) is a group
    aggregation whose changes are emitted per input record here."""
    from pyspark.sql import GroupedData

    if not hasattr(GroupedData, "transformWithState"):
        return False  # pyspark 3.5: Spark's own aggregation, its changes per micro-batch
    if any(select.args.get(part) for part in ("distinct", "order", "limit", "offset",
                                              "qualify", "windows", "laterals")):
        return False
    from_ = select.args.get("from") or select.args.get("from_")
    if from_ is None:
        return False
    group = select.args.get("group")
    group_exprs = list(group.expressions) if group is not None else []
    if group is not None and any(group.args.get(p) for p in ("grouping_sets", "cube", "rollup")):
        return False
    if any(g.find(exp.AggFunc) is not None for g in group_exprs):
        return False
    group_sql = {g.sql(Flink) for g in group_exprs}
    for item in select.expressions:
        inner = item.this if isinstance(item, exp.Alias) else item
        if inner.sql(Flink) in group_sql:
            continue
        if not _plain_call(inner):
            return False
    having = select.args.get("having")
    if having is not None:
        # Flink filters each change of the aggregate (its kind kept): the condition may read
        # the group keys and calls of the built-in aggregates
        if having.find(exp.Subquery, exp.Window, exp.Anonymous) is not None:
            return False
        if any(not _plain_call(node) for node in having.find_all(exp.AggFunc)
               if not isinstance(node.parent, exp.AggFunc)):
            return False
    return True


def plan_group_aggregation(spark: "SparkSession", tree: exp.Expression, select: exp.Select,
                           retracting: bool = False) -> None:
    """Plan the group aggregation of ``select`` (a part of ``tree``, already in Spark SQL's
    form) as a ``transformWithState`` over the rows it groups, and make ``select`` read that
    operator's rows instead.

    :param retracting: Whether ``select`` reads a changelog's changes, each with its kind in
        :data:`~pyflink_compat.sql.changelog_streams.KIND_COLUMN` (``-U`` and ``-D`` retract).
    """
    from pyspark.sql import functions as F
    from pyspark.sql.types import LongType, StringType, StructField, StructType

    from pyflink_compat.runtime.group_aggregate import GroupAggregateProcessor, GroupAggregateSpec
    from pyflink_compat.sql.changelog_streams import KIND_COLUMN

    # only reached where per_record_group found transformWithState
    group = select.args.get("group")
    group_exprs = list(group.expressions) if group is not None else []
    # the group keys, each once, and the aggregates, each once
    key_columns: Dict[str, str] = {}
    for expression in group_exprs:
        key_columns.setdefault(expression.sql(dialect="spark"), "__g{}".format(len(key_columns)))
    aggregates: List[Tuple[str, Optional[exp.Expression]]] = []
    columns: Dict[str, str] = {}
    having = select.args.get("having")
    for item in list(select.expressions) + ([having] if having is not None else []):
        for node in list(item.find_all(*_AGGREGATES)):
            argument, distinct = _argument(node)
            name = _AGGREGATES[type(node)] + (" DISTINCT" if distinct else "")
            signature = name + "(" + (argument.sql(dialect="spark") if argument is not None
                                      else "*") + ")"
            if signature not in columns:
                columns[signature] = "__o{}".format(len(aggregates))
                aggregates.append((name, argument))
            column = exp.column(columns[signature], quoted=True)
            column.meta.update(node.meta)  # its Flink type
            node.replace(column)
    # the group keys the select shows read the processor's key columns, under their names
    expressions = []
    for item in select.expressions:
        inner = item.this if isinstance(item, exp.Alias) else item
        key = key_columns.get(inner.sql(dialect="spark"))
        if key is not None:
            item = exp.alias_(exp.column(key, quoted=True), item.alias_or_name, quoted=True)
        expressions.append(item)
    # each row's kind, given by the processor, goes on to the query's result
    expressions.append(exp.column(KIND_COLUMN, quoted=True))
    select.set("expressions", expressions)

    from_: exp.From = select.args.get("from") or select.args["from_"]
    read = exp.select(
        *[exp.alias_(exp.maybe_parse(text, dialect="spark"), name, quoted=True)
          for text, name in key_columns.items()],
        *[exp.alias_(a.copy() if a is not None else exp.Literal.number(1), "__a{}".format(i),
                     quoted=True) for i, (_, a) in enumerate(aggregates)],
        *([exp.alias_(exp.column(KIND_COLUMN, quoted=True), "__kind", quoted=True)]
          if retracting else [])
    ).from_(from_.this.copy())
    for part in ("joins", "where"):
        value = select.args.get(part)
        if value is not None:
            read.set(part, [v.copy() for v in value] if isinstance(value, list) else value.copy())
    rows = spark.sql(read.sql(dialect="spark"))
    keys = list(key_columns.values())
    if not keys:  # Spark's stateful operator needs a key: the whole table is one group
        rows = rows.withColumn("__g", F.lit(0))

    # the result types, as Spark gives them to the same aggregates
    empty = spark.createDataFrame([], rows.schema)
    typed = empty.selectExpr(*["{}({})".format(name.split()[0], (
        "DISTINCT " if name.endswith(" DISTINCT") else "") + "`__a{}`".format(i)
        if argument is not None else "*")
                               for i, (name, argument) in enumerate(aggregates)])
    result_fields = typed.schema.fields
    spec = GroupAggregateSpec(len(keys), [(name, argument is not None)
                                          for name, argument in aggregates],
                              [f.dataType.simpleString() for f in result_fields], retracting)
    output = StructType(
        [StructField(k, rows.schema[k].dataType, True) for k in keys] +
        [StructField("__o{}".format(i), f.dataType, True) for i, f in enumerate(result_fields)] +
        [StructField(KIND_COLUMN, StringType(), True)])
    grouping = keys or ["__g"]
    result = rows.groupBy(*grouping).transformWithState(
        GroupAggregateProcessor(spec), output, "Update", "None")
    # Spark's stateful operators give nullable columns; COUNT's is not (as in Flink)
    result = result.select(*keys, *[
        F.coalesce(F.col(f.name), F.lit(0).cast(LongType())).alias(f.name)
        if name.startswith("COUNT") else F.col(f.name)
        for f, (name, _) in zip(output.fields[len(keys):], aggregates)], KIND_COLUMN)
    view_name = "flink_group_{}".format(next(_names))
    result.createOrReplaceTempView(view_name)
    from_.set("this", exp.Table(this=exp.to_identifier(view_name),
                                alias=exp.TableAlias(this=exp.to_identifier(view_name))))
    for part in ("joins", "where", "group", "having"):
        select.set(part, None)
    if having is not None:
        # HAVING filters each change the processor emits, as Flink's Calc after its aggregate;
        # its group keys read the processor's key columns
        def key_column(node: exp.Expression) -> exp.Expression:
            key = key_columns.get(node.sql(dialect="spark")) \
                if not isinstance(node, (exp.Literal, exp.Boolean)) else None
            return exp.column(key, quoted=True) if key is not None else node

        select.set("where", exp.Where(this=having.this.transform(key_column)))
