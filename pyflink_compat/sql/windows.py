"""Flink's group windows as Spark's time windows.

Flink writes a window aggregation two ways: the windowing table functions
(``FROM TABLE(TUMBLE(TABLE t, DESCRIPTOR(ts), INTERVAL '5' MINUTES)) GROUP BY window_start,
window_end``) and the legacy group windows (``GROUP BY TUMBLE(ts, INTERVAL '5' MINUTE)`` with
``TUMBLE_START`` / ``TUMBLE_END`` / ``TUMBLE_ROWTIME``). The Table API's ``window(Tumble...)``
builds the legacy form too. Translation goes in two steps around the Flink-semantics rewrite:

1. :func:`table_functions_to_group_windows` (on the Flink tree) turns every windowing table
   function into the legacy form, so that one form remains;
2. :func:`group_windows_to_spark` (on the tree about to be written as Spark SQL) turns the
   legacy form into Spark's ``window(ts, size[, slide])`` and ``session_window(ts, gap)``: the
   window is the grouping key and its ``start`` / ``end`` fields the window properties.

A window is emitted when the watermark passes its end, as in Flink. A bounded source's end
emits every window still open (Flink's final watermark): see :func:`end_of_input_row`.
"""

from __future__ import annotations

import datetime
from typing import Any, Callable, Dict, List, Optional, Tuple

import sqlglot
from sqlglot import exp

from pyflink_compat.missing import NotSupportedError
from pyflink_compat.sql.dialect import DescriptorArgument, TableArgument

__all__ = ["END_OF_INPUT", "group_windows_to_spark", "has_group_window", "interval_text",
           "is_group_window", "window_select", "table_functions_to_group_windows"]

# The event time of the row that ends a bounded input: later than any window of real data, so
# that the watermark it raises passes every window still open.
END_OF_INPUT = datetime.datetime(2900, 1, 1)

_GROUP_WINDOWS = ("TUMBLE", "HOP", "SESSION")
_PROPERTIES = {"START": "start", "END": "end", "ROWTIME": "rowtime", "PROCTIME": "rowtime"}
_WINDOW_COLUMNS = ("window_start", "window_end", "window_time")

_UNITS = {"MILLISECOND": "milliseconds", "SECOND": "seconds", "MINUTE": "minutes",
          "HOUR": "hours", "DAY": "days"}


def interval_text(node: exp.Expression, text: str) -> str:
    """The Spark duration text (``'5 minutes'``) of the Flink interval ``node``."""
    if isinstance(node, exp.Interval):
        unit = node.text("unit").upper().rstrip("S")
        amount = node.this.name if node.this is not None else ""
        if unit in _UNITS:
            try:
                number = float(amount)
            except ValueError:
                number = None
            if number is not None:
                return "{} {}".format(amount, _UNITS[unit])
    raise NotSupportedError(
        "Window size '{}' (in: {})".format(node.sql("spark"), text),
        "Give window sizes as INTERVAL '<n>' SECOND|MINUTE|HOUR|DAY, as Spark's window() takes.")


def is_group_window(node: exp.Expression) -> bool:
    """Whether ``node`` is a legacy group window call (``TUMBLE(ts, ...)``, ``HOP``, ``SESSION``)."""
    return isinstance(node, exp.Anonymous) and str(node.this).upper() in _GROUP_WINDOWS


def has_group_window(tree: exp.Expression) -> bool:
    """Whether a select of ``tree`` groups by a legacy group window."""
    for select in tree.find_all(exp.Select):
        group = select.args.get("group")
        if group is not None and any(is_group_window(g) for g in group.expressions):
            return True
    return False


def group_window_time(select: exp.Expression) -> Optional[Tuple[str, bool]]:
    """The time column of the group window ``select`` groups by (or of the windowing table
    function it reads), and whether it came from a windowing table function."""
    marked = select.meta.get("window_table_function_time")
    if marked is not None:
        return marked, True
    group = select.args.get("group")
    for window in group.expressions if group is not None else ():
        if is_group_window(window) and window.expressions \
                and isinstance(window.expressions[0], exp.Column):
            return window.expressions[0].name, "window_table_function" in select.meta
    return None


# -- 1. windowing table functions to group windows ---------------------------------------------

def _table_function(source: exp.Expression) -> Optional[exp.Anonymous]:
    """The windowing function of ``FROM TABLE(KIND(...))``, or ``None``."""
    if isinstance(source, exp.Table) and isinstance(source.this, exp.Anonymous) \
            and str(source.this.this).upper() == "TABLE" and source.this.expressions:
        inner = source.this.expressions[0]
        if isinstance(inner, exp.Anonymous):
            return inner
    return None


def _group_window_of(function: exp.Anonymous, text: str) -> Tuple[str, exp.Expression, List[exp.Expression]]:
    """The kind, the input table and the legacy group window call of a windowing function."""
    kind = str(function.this).upper()
    arguments = list(function.expressions)
    if kind not in _GROUP_WINDOWS or len(arguments) < 3 or not isinstance(arguments[0], TableArgument) \
            or not isinstance(arguments[1], DescriptorArgument):
        raise NotSupportedError(
            "Table function {} (in: {})".format(function.sql("spark"), text),
            "Read windows with TUMBLE, HOP or SESSION(TABLE t, DESCRIPTOR(ts), INTERVAL ...).")
    time_columns = arguments[1].expressions
    if len(time_columns) != 1:
        raise NotSupportedError("DESCRIPTOR with {} columns (in: {})".format(len(time_columns), text),
                                "Name the one time attribute column of the window.")
    time_column = exp.column(time_columns[0].name, quoted=True)
    expected = {"TUMBLE": 1, "HOP": 2, "SESSION": 1}[kind]
    sizes = arguments[2:]
    if len(sizes) != expected:
        raise NotSupportedError(
            "{} with {} interval arguments (in: {})".format(kind, len(sizes), text),
            "Spark's windows have no offset: give the window's size{} only.".format(
                " and slide" if kind == "HOP" else ""))
    return kind, arguments[0].this, [time_column] + [s.copy() for s in sizes]


def _cumulate_rows(function: exp.Anonymous, text: str) -> exp.Select:
    """The rows of ``CUMULATE(TABLE t, DESCRIPTOR(ts), step, size)``: each row of ``t`` once per
    window holding it, with the window's ``window_start``, ``window_end`` and ``window_time``.

    A row at ``ts`` belongs to the windows starting where its window of ``size`` starts and
    ending at each step after ``ts`` up to ``size``. Spark has no such window: the query runs
    over bounded tables only (:mod:`pyflink_compat.sql.bounded_evaluation`).
    """
    arguments = list(function.expressions)
    if len(arguments) != 4 or not isinstance(arguments[0], TableArgument) \
            or not isinstance(arguments[1], DescriptorArgument) \
            or len(arguments[1].expressions) != 1:
        raise NotSupportedError(
            "Table function {} (in: {})".format(function.sql("spark"), text),
            "Read cumulating windows with CUMULATE(TABLE t, DESCRIPTOR(ts), INTERVAL step, "
            "INTERVAL size), without an offset.")
    time_column = exp.column(arguments[1].expressions[0].name, quoted=True)
    step, size = (interval_text(a, text) for a in arguments[2:])
    start = exp.Dot(this=exp.Anonymous(this="window", expressions=[
        time_column.copy(), exp.Literal.string(size)]), expression=exp.to_identifier("start"))
    ends = sqlglot.parse_one(
        "filter(sequence(s + INTERVAL '{0}', s + INTERVAL '{1}', INTERVAL '{0}'), e -> e > t)".format(
            step, size), read="spark")
    ends = ends.transform(lambda n: start.copy() if isinstance(n, exp.Column) and n.name == "s"
                          else time_column.copy() if isinstance(n, exp.Column) and n.name == "t"
                          else n)
    inner = exp.select(exp.Star(), exp.alias_(start, "window_start", quoted=True),
                       exp.alias_(exp.Explode(this=ends), "window_end", quoted=True)
                       ).from_(arguments[0].this.copy())
    # Flink's window_time: the window's end minus one millisecond
    window_time = exp.Sub(this=exp.column("window_end", quoted=True), expression=exp.Interval(
        this=exp.Literal.string("0.001"), unit=exp.Var(this="SECOND")))
    return exp.select(exp.Star(), exp.alias_(window_time, "window_time", quoted=True)).from_(
        exp.Subquery(this=inner, alias=exp.TableAlias(this=exp.to_identifier("cumulated"))))


def _window_call(kind: str, arguments: List[exp.Expression], suffix: str = "") -> exp.Expression:
    return exp.Anonymous(this=kind + suffix, expressions=[a.copy() for a in arguments])


def _property_calls(kind: str, arguments: List[exp.Expression]) -> Dict[str, exp.Expression]:
    return {"window_start": _window_call(kind, arguments, "_START"),
            "window_end": _window_call(kind, arguments, "_END"),
            "window_time": _window_call(kind, arguments, "_ROWTIME")}


def _replace_window_columns(node: exp.Expression, calls: Dict[str, exp.Expression]) -> exp.Expression:
    def replace(child: exp.Expression) -> exp.Expression:
        if isinstance(child, exp.Column) and child.name.lower() in calls:
            return calls[child.name.lower()].copy()
        return child

    return node.transform(replace, copy=False)


def table_functions_to_group_windows(tree: exp.Expression, text: str) -> exp.Expression:
    """``tree`` with each ``FROM TABLE(TUMBLE|HOP|SESSION(...))`` read as a legacy group window.

    A select grouping by ``window_start`` / ``window_end`` groups by the window instead and
    reads those columns as the window's properties; any other select reads the table with the
    three window columns added.
    """
    for select in list(tree.find_all(exp.Select)):
        from_ = select.args.get("from") or select.args.get("from_")
        if from_ is None:
            continue
        function = _table_function(from_.this)
        if function is None:
            continue
        alias = from_.this.alias
        if str(function.this).upper() == "CUMULATE":
            from_.set("this", exp.Subquery(this=_cumulate_rows(function, text), alias=exp.TableAlias(
                this=exp.to_identifier(alias or "window_table"))))
            continue
        kind, table, arguments = _group_window_of(function, text)
        source = table.copy()
        if alias:
            source.set("alias", exp.TableAlias(this=exp.to_identifier(alias)))
        calls = _property_calls(kind, arguments)
        group = select.args.get("group")
        grouped = group is not None and any(
            isinstance(g, exp.Column) and g.name.lower() in ("window_start", "window_end")
            for g in group.expressions)
        partition = function.expressions[0].args.get("partition_by") or []
        if grouped:
            assert group is not None
            keys = [g for g in group.expressions
                    if not (isinstance(g, exp.Column) and g.name.lower() in _WINDOW_COLUMNS)]
            key_names = {k.name.lower() for k in keys if isinstance(k, exp.Column)}
            if any(p.name.lower() not in key_names for p in partition):
                # sessions of each key, aggregated across keys: Spark has one session per group
                raise NotSupportedError(
                    "PARTITION BY columns that the aggregation does not group by (in: {})".format(text),
                    "Group by the partition columns too: GROUP BY {}, window_start, window_end."
                    .format(", ".join(p.name for p in partition)))
            group.set("expressions", keys + [_window_call(kind, arguments)])
            projections = []
            for projection in select.expressions:
                if isinstance(projection, exp.Column) and projection.name.lower() in calls:
                    projection = exp.alias_(calls[projection.name.lower()].copy(), projection.name,
                                            quoted=True)
                projections.append(_replace_window_columns(projection, calls))
            select.set("expressions", projections)
            for key in ("having", "order", "qualify", "where"):
                part = select.args.get(key)
                if part is not None:
                    select.set(key, _replace_window_columns(part, calls))
            from_.set("this", source)
            # Flink runs some Python aggregates in legacy group windows only
            select.meta["window_table_function"] = kind
        else:
            if kind == "SESSION":
                raise NotSupportedError(
                    "SESSION window columns without an aggregation (in: {})".format(text),
                    "Spark computes session windows in aggregations only: GROUP BY window_start, "
                    "window_end.")
            inner = exp.select(exp.Star(), *[exp.alias_(call, name, quoted=True)
                                             for name, call in calls.items()]).from_(table.copy())
            inner.meta["window_table_function_time"] = arguments[0].name
            from_.set("this", exp.Subquery(this=inner, alias=exp.TableAlias(
                this=exp.to_identifier(alias or "window_table"))))
    return tree


# -- 2. group windows to Spark's windows -------------------------------------------------------

def _spark_window(kind: str, arguments: List[exp.Expression], text: str) -> exp.Expression:
    if kind == "TUMBLE" and len(arguments) == 2:
        return exp.Anonymous(this="window", expressions=[
            arguments[0].copy(), exp.Literal.string(interval_text(arguments[1], text))])
    if kind == "HOP" and len(arguments) == 3:
        # Flink's HOP(ts, slide, size); Spark's window(ts, size, slide)
        return exp.Anonymous(this="window", expressions=[
            arguments[0].copy(), exp.Literal.string(interval_text(arguments[2], text)),
            exp.Literal.string(interval_text(arguments[1], text))])
    if kind == "SESSION" and len(arguments) == 2:
        return exp.Anonymous(this="session_window", expressions=[
            arguments[0].copy(), exp.Literal.string(interval_text(arguments[1], text))])
    raise NotSupportedError(
        "{}({}) (in: {})".format(kind, ", ".join(a.sql("spark") for a in arguments), text),
        "Spark's windows take the time column and the size (and slide), without an offset.")


def _property(window: exp.Expression, name: str) -> exp.Expression:
    if name == "rowtime":
        # Flink's rowtime of a window: its end minus one millisecond (TIMESTAMP(3))
        return exp.Sub(this=_property(window, "end"), expression=exp.Interval(
            this=exp.Literal.string("0.001"), unit=exp.Var(this="SECOND")))
    return exp.Dot(this=window.copy(), expression=exp.to_identifier(name))


def _property_of(node: exp.Expression) -> Optional[Tuple[str, str, List[exp.Expression]]]:
    if not isinstance(node, exp.Anonymous):
        return None
    name = str(node.this).upper()
    for kind in _GROUP_WINDOWS:
        if name.startswith(kind + "_") and name[len(kind) + 1:] in _PROPERTIES:
            return kind, _PROPERTIES[name[len(kind) + 1:]], list(node.expressions)
    return None


def _arguments_sql(arguments: List[exp.Expression]) -> List[str]:
    return [a.sql("spark") for a in arguments]


def _property_replacer(window: Optional[exp.Expression], window_key: Optional[Tuple[str, List[str]]],
                       text: str) -> Callable[[exp.Expression], exp.Expression]:
    """The transform replacing ``KIND_START(...)`` and the like by the properties of the
    grouping Spark window ``window`` (or of their own window, in a select without one)."""

    def replace(node: exp.Expression) -> exp.Expression:
        found = _property_of(node)
        if found is None:
            return node
        kind, name, arguments = found
        if window is not None and window_key is not None:
            if window_key != (kind, _arguments_sql(arguments)):
                raise NotSupportedError(
                    "{} of another window than the grouping one (in: {})".format(node.sql("spark"), text),
                    "Read the properties of the window the query groups by.")
            return _property(window, name)
        return _property(_spark_window(kind, arguments, text), name)

    return replace


def group_windows_to_spark(tree: exp.Expression, text: str) -> exp.Expression:
    """``tree`` (about to be written as Spark SQL) with legacy group windows as Spark's."""
    # innermost selects first, so that each reads the properties of its own window
    for select in reversed(list(tree.find_all(exp.Select))):
        group = select.args.get("group")
        windows = [g for g in group.expressions if is_group_window(g)] if group is not None else []
        if len(windows) > 1:
            raise NotSupportedError("Grouping by several windows (in: {})".format(text),
                                    "Group by one window per aggregation.")
        window: Optional[exp.Expression] = None
        window_key: Optional[Tuple[str, List[str]]] = None
        if windows:
            assert group is not None
            kind = str(windows[0].this).upper()
            window = _spark_window(kind, list(windows[0].expressions), text)
            window_key = (kind, _arguments_sql(list(windows[0].expressions)))
            group.set("expressions", [window if g is windows[0] else g for g in group.expressions])
            if kind == "SESSION" and len(group.expressions) == 1:
                # Spark's streaming sessions need a key besides the window (a constant one
                # does not count): Flink's keyless sessions are those of one key, a value
                # computed as 0 from every row
                group.append("expressions", exp.Mul(
                    this=exp.Anonymous(this="hash", expressions=[window.expressions[0].copy()]),
                    expression=exp.Literal.number(0)))
            select.meta["spark_window_time"] = window.expressions[0]

        replace = _property_replacer(window, window_key, text)
        for key in ("expressions", "having", "order", "qualify"):
            part = select.args.get(key)
            if isinstance(part, list):
                select.set(key, [p.transform(replace, copy=False) for p in part])
            elif part is not None:
                select.set(key, part.transform(replace, copy=False))
    return tree


def window_property_columns(tree: exp.Expression) -> List[str]:
    """The output columns of ``tree`` (written for Spark) that are window properties: Flink
    types them ``TIMESTAMP(3)``."""
    select = tree if isinstance(tree, exp.Select) else None
    if select is None:
        return []
    names = []
    for projection in select.expressions:
        if isinstance(projection, exp.Alias) and any(
                isinstance(d.this, exp.Anonymous) and str(d.this.this).lower() in ("window", "session_window")
                for d in projection.this.find_all(exp.Dot)):
            names.append(projection.alias)
    return names


# -- the Table API's window(...).group_by(...).select(...) -------------------------------------

_TABLE_PROPERTIES = {"START": "_START", "END": "_END", "ROWTIME": "_ROWTIME", "PROCTIME": "_PROCTIME"}


def window_select(source: exp.Expression, window: Any, keys: List[exp.Expression],
                  fields: List[exp.Expression]) -> exp.Select:
    """The query of ``table.window(window).group_by(*keys).select(*fields)``, grouping by the
    legacy group window ``window`` stands for.

    :param source: The windowed table's query, as a subquery.
    :param window: The window's spec (kind, intervals, time field, alias) from
        :mod:`pyflink_compat.table.window`.
    :param keys: The grouping expressions; the window's alias among them is the window.
    :param fields: The selected expressions; ``start(alias)`` and the like are its properties.
    """
    alias = window.alias
    if window.time_field is None or alias is None:
        raise ValueError("A group window needs a time field (on) and an alias (alias)")
    arguments = [window.time_field.copy()] + [i.copy() for i in window.intervals]

    def is_alias(node: exp.Expression) -> bool:
        return isinstance(node, exp.Column) and node.name == alias and not node.table

    group = [_window_call(window.kind, arguments) if is_alias(k) else k for k in keys]
    if not any(is_alias(k) for k in keys):
        from pyflink_compat.util.exceptions import java_error

        raise java_error("java.lang.RuntimeException",
                         "org.apache.flink.table.api.ValidationException: GroupBy must contain "
                         "exactly one window alias.", "o0.select")

    def replace(node: exp.Expression) -> exp.Expression:
        if isinstance(node, exp.Anonymous) and str(node.this).upper() in _TABLE_PROPERTIES \
                and len(node.expressions) == 1 and is_alias(node.expressions[0]):
            return _window_call(window.kind, arguments, _TABLE_PROPERTIES[str(node.this).upper()])
        return node

    projections = []
    unnamed = 0
    for field in fields:
        field = field.transform(replace, copy=False)
        if not isinstance(field, (exp.Alias, exp.Column)):
            # the Table API numbers its unnamed columns among themselves: EXPR$0, EXPR$1...
            projections.append(exp.alias_(field, "EXPR${}".format(unnamed), quoted=True))
            unnamed += 1
        else:
            projections.append(field)
    return exp.select(*projections).from_(source).group_by(*group)
