"""Queries that Spark's streaming engine cannot run but whose inputs are bounded: sorts
(``ORDER BY``, ``OFFSET``), outer joins, joins without an equality, over windows (``OVER``),
aggregates of aggregates and the set operations ``EXCEPT`` and ``INTERSECT`` (with ``ALL``).

Spark's streaming queries have no sort, no outer join without a watermark and time bounds, and
no window functions. When every table a query reads is bounded, the query's result is the
result of the same query over the whole input, so such a query runs as a Spark batch query
over its inputs read once, and its rows are streamed to the sink in their order. Flink's
streaming planner accepts these operations only under its own rules (a sort starts with an
ascending time attribute or fetches the first rows, an offset has a fetch, an over window is
ordered by a time attribute): those are checked first, with Flink's messages, in streaming and
bounded runs alike.

What Flink prints on the way to the final rows of an updating result (an outer join's row
padded with ``NULL`` and deleted once its match arrives, a Top-N's deleted rows) depends on
the order in which rows arrive; the rows given here are the final ones (``+I``).
"""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING, Iterable, Set

from sqlglot import exp

if TYPE_CHECKING:
    from pyspark.sql import DataFrame

__all__ = ["distinct_window_aggregates", "needs_bounded_evaluation", "check_streaming_rules", "read_once",
           "distinct_unions"]

_names = itertools.count()


def _is_lateral(join: exp.Join) -> bool:
    return isinstance(join.this, exp.Lateral)


def distinct_unions(tree: exp.Expression) -> exp.Expression:
    """``tree`` with each ``UNION`` (of distinct rows) written as the distinct rows of a
    ``UNION ALL``: Flink's plan of it (a grouping on every column), which Spark's streaming
    queries run as an updating aggregate."""
    for union in list(tree.find_all(exp.Union)):
        if type(union) is not exp.Union or not union.args.get("distinct"):
            continue
        every_row = union.copy()
        every_row.set("distinct", False)
        replacement = exp.select("*").from_(exp.Subquery(
            this=every_row, alias=exp.TableAlias(this=exp.to_identifier(
                "flink_union_{}".format(next(_names)))))).distinct()
        if union is tree:
            return replacement
        union.replace(exp.Subquery(this=replacement) if isinstance(union.parent, exp.From)
                      else replacement)
    return tree


def needs_bounded_evaluation(tree: exp.Expression) -> bool:
    """Whether ``tree`` sorts, skips rows, joins with an outer join, has an over window or
    an ``EXCEPT`` / ``INTERSECT``: what only a batch query over bounded inputs runs on Spark."""
    if tree.find(exp.Except, exp.Intersect) is not None:
        return True
    for select in tree.find_all(exp.Select):
        if select.args.get("order") is not None or select.args.get("offset") is not None:
            return True
    for join in tree.find_all(exp.Join):
        if _is_lateral(join):
            continue
        if join.side in ("LEFT", "RIGHT", "FULL"):
            return True
        condition = join.args.get("on")
        if condition is None and not join.args.get("using"):
            # FROM a, b WHERE ...: the equality may be in the WHERE clause
            parent = join.find_ancestor(exp.Select)
            condition = parent.args.get("where") if parent is not None else None
        if join.args.get("using"):
            continue
        if condition is None or condition.find(exp.EQ) is None:
            # a join without an equality: Spark's stream-stream joins need one
            return True
    for select in tree.find_all(exp.Select):
        if _aggregates(select) and any(
                _aggregates(inner) for inner in select.find_all(exp.Select) if inner is not select):
            # an aggregate of an aggregate: Spark's streaming queries chain no such operators
            return True
    return tree.find(exp.Window) is not None


def _aggregates(select: exp.Select) -> bool:
    """Whether ``select`` aggregates without a window (a GROUP BY, an aggregate, DISTINCT)."""
    group = select.args.get("group")
    if group is not None:
        for key in group.expressions:
            if isinstance(key, exp.Anonymous) and key.name.upper() in ("TUMBLE", "HOP", "SESSION",
                                                                       "CUMULATE"):
                return False
            if isinstance(key, exp.Column) and key.name in ("window_start", "window_end"):
                return False
        return True
    if select.args.get("distinct") is not None:
        return True
    return any(e.find(exp.AggFunc) is not None and e.find(exp.Window) is None
               for e in select.expressions)


def _orders_by_time(order: exp.Order, time_attributes: Set[str]) -> bool:
    first = order.expressions[0] if order.expressions else None
    if not isinstance(first, exp.Ordered):
        return False
    return isinstance(first.this, exp.Column) and first.this.name in time_attributes and \
        not first.args.get("desc")


def check_streaming_rules(tree: exp.Expression, time_attributes: Iterable[str]) -> None:
    """Refuse what Flink's streaming planner refuses, with its messages.

    :raises TableException: For a sort that neither starts with an ascending time attribute
        nor fetches, an offset without a fetch, an over window not ordered by a time attribute.
    """
    from pyflink_compat.util.exceptions import TableException

    times = set(time_attributes)
    prefix = "org.apache.flink.table.api.TableException: "
    for select in tree.find_all(exp.Select):
        order, limit = select.args.get("order"), select.args.get("limit")
        if select.args.get("offset") is not None and limit is None:
            raise TableException(prefix + "FETCH is missed, which on streaming table is not "
                                          "supported currently.")
        if order is not None and limit is None and not _orders_by_time(order, times):
            raise TableException(prefix + "Sort on a non-time-attribute field is not supported.")
    definitions = {w.this.name: w for w in tree.find_all(exp.Window)
                   if isinstance(w.this, exp.Identifier)}
    for window in tree.find_all(exp.Window):
        if isinstance(window.this, exp.Identifier):
            continue  # a definition of the WINDOW clause, checked where it is used
        order = window.args.get("order")
        named = window.args.get("alias")
        if order is None and named is not None and named.name in definitions:
            # OVER w: the order of the WINDOW clause's w
            order = definitions[named.name].args.get("order")
        if order is None or not isinstance(order.expressions[0].this, exp.Column) or \
                order.expressions[0].this.name not in times:
            raise TableException(prefix + "OVER windows' ordering in stream mode must be "
                                          "defined on a time attribute.")


def read_once(frame: "DataFrame") -> "DataFrame":
    """The rows of the bounded streaming DataFrame ``frame``, read to its end, as a batch
    DataFrame."""
    if not frame.isStreaming:
        return frame
    name = "flink_bounded_{}".format(next(_names))
    query = frame.writeStream.format("memory").queryName(name).outputMode("append") \
        .trigger(availableNow=True).start()
    try:
        query.awaitTermination()
    finally:
        query.stop()
    return frame.sparkSession.table(name)


def distinct_window_aggregates(tree: exp.Expression, text: str) -> exp.Expression:
    """``tree`` with each ``DISTINCT`` aggregate over a window (which Spark's window functions
    refuse) computed from the window's set of values (``COLLECT_SET``, which skips NULL as
    ``DISTINCT`` does): ``COUNT`` its size, ``SUM`` its total (NULL when empty); ``MIN`` and
    ``MAX`` are the same without ``DISTINCT``.

    :raises NotSupportedError: For another ``DISTINCT`` aggregate over a window.
    """
    import sqlglot

    from pyflink_compat.missing import NotSupportedError

    for window in list(tree.find_all(exp.Window)):
        function = window.this
        distinct = function.this if isinstance(function, exp.AggFunc) else None
        if not isinstance(distinct, exp.Distinct):
            continue
        if isinstance(function, (exp.Min, exp.Max)) and len(distinct.expressions) == 1:
            function.set("this", distinct.expressions[0])
            continue
        if not isinstance(function, (exp.Count, exp.Sum)) or len(distinct.expressions) != 1:
            raise NotSupportedError(
                "{} over a window (in: {})".format(function.sql(dialect="spark"), text),
                "Compute the window's distinct values with pyspark.sql.functions.collect_set(...)"
                ".over(Window.partitionBy(...).orderBy(...)) and aggregate the array.")
        values = window.copy()
        values.set("this", exp.Anonymous(this="COLLECT_SET", expressions=[distinct.expressions[0].copy()]))
        values_sql = values.sql(dialect="spark")
        if isinstance(function, exp.Count):
            replacement = "CAST(SIZE({}) AS BIGINT)".format(values_sql)
        else:
            replacement = ("IF(SIZE({0}) = 0, NULL, AGGREGATE(SLICE({0}, 2, SIZE({0})), "
                           "ELEMENT_AT({0}, 1), (total, value) -> total + value))").format(values_sql)
        computed = sqlglot.parse_one(replacement, read="spark")
        computed.meta.update(window.meta)
        window.replace(computed)
    return tree
