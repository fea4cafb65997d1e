"""PyFlink module ``pyflink.table.table``: :class:`Table` and :class:`GroupedTable` run (each
holds the Flink SQL query it stands for); the other names are declared.

Using a declared name below raises :class:`~pyflink_compat.missing.NotSupportedError`,
naming the PySpark way to do the same.
"""
from typing import TYPE_CHECKING, Any, Dict, List, Optional, Tuple

from pyflink_compat.missing import NotSupportedError

if TYPE_CHECKING:
    from pyflink_compat.sql.execution import RuntimeOwner
    from pyflink_compat.table.expression import Expression
    from pyflink_compat.table.table_result import TableResult
    from pyflink_compat.table.table_schema import TableSchema

__all__ = ['Table', 'GroupedTable', 'GroupWindowedTable', 'OverWindowedTable',
    'WindowGroupedTable']


class AggregatedTable(object):
    """The result of a Python aggregate function (:meth:`GroupedTable.aggregate`,
    :meth:`Table.aggregate`): :meth:`select` its columns.

    :param java_table: The aggregate's result (in PyFlink, the JVM aggregated table).
    :param t_env: The table environment.
    """

    def __init__(self, java_table: Any, t_env: 'RuntimeOwner'):
        self._j_table = java_table
        self._t_env = t_env
        # for the aggregate of a window (WindowGroupedTable.aggregate): the windowed table and
        # its window, whose time field Flink checks at select and whose alias names its properties
        self._window: Optional[Tuple['Table', Any]] = None

    def select(self, *fields: 'Expression') -> 'Table':
        """The columns ``fields`` of the keys and the aggregate's result columns (and, after a
        window, the window's properties: ``col('w').start``, ``.end``, ``.rowtime``).

        :return: The :class:`Table`.
        """
        if self._window is None:
            return self._j_table.select(*fields)
        _check_window_time(*self._window)
        from sqlglot import exp

        from pyflink_compat.sql.dialect import Flink
        from pyflink_compat.table.expression import Expression

        trees = _trees(fields, "select")
        if any(isinstance(tree, exp.Star) or (isinstance(tree, exp.Column) and isinstance(tree.this, exp.Star))
               for tree in trees):
            raise _validation_error("Can not use * for window aggregate!", "select")
        alias = self._window[1].alias

        def replace(node: Any) -> Any:
            name = str(node.this).upper() if isinstance(node, exp.Anonymous) else ""
            if name in _WINDOW_PROPERTIES and len(node.expressions) == 1 \
                    and isinstance(node.expressions[0], exp.Column) and node.expressions[0].name == alias:
                # Flink's window properties are TIMESTAMP(3)
                return exp.Cast(this=exp.column(_WINDOW_PROPERTIES[name], quoted=True),
                                to=exp.DataType.build("TIMESTAMP(3)", dialect=Flink))
            return node

        named: List[Any] = []
        unnamed = 0
        for tree in trees:
            replaced = tree.transform(replace)
            if isinstance(replaced, exp.Cast) and not isinstance(tree, exp.Cast):
                # the Table API numbers the window's unnamed properties: EXPR$0, EXPR$1...
                replaced = exp.alias_(replaced, "EXPR${}".format(unnamed), quoted=True)
                unnamed += 1
            named.append(Expression(replaced))
        return self._j_table.select(*named)


# the hidden columns of a window aggregate holding the window's properties, by property
_WINDOW_PROPERTIES = {"START": "__window_start", "END": "__window_end", "ROWTIME": "__window_rowtime"}


class FlatAggregateTable(AggregatedTable):
    """The result of a Python table aggregate function (:meth:`GroupedTable.flat_aggregate`,
    :meth:`Table.flat_aggregate`): :meth:`select` its columns."""


class GroupWindowedTable(object):
    """A :class:`Table` with a group window (:meth:`Table.window`): :meth:`group_by` groups
    its rows by the window (and keys).

    :param java_table: The table and its window (in PyFlink, the JVM windowed table).
    :param t_env: The table environment.
    """

    def __init__(self, java_table: Any, t_env: 'RuntimeOwner'):
        self._j_table = java_table
        self._t_env = t_env

    def group_by(self, *fields: 'Expression') -> 'WindowGroupedTable':
        """The rows grouped by ``fields``, which include the window's alias
        (``group_by(col('w'), col('a'))``)."""
        table, window = self._j_table
        return WindowGroupedTable((table, window, _trees(fields, "group_by")), self._t_env)


def _select_trees(fields: Any) -> List[Any]:
    """The trees of a select's fields, an unnamed computed field named ``_c<position>`` as the
    Table API names it."""
    from sqlglot import exp

    trees = _trees(fields, "select")
    return [tree if isinstance(tree, (exp.Column, exp.Alias, exp.Star))
            else exp.alias_(tree, "_c{}".format(position), quoted=True)
            for position, tree in enumerate(trees)]


def _aggregate_names(trees: List[Any]) -> List[Any]:
    """The fields of a grouped select, each unnamed aggregate named ``EXPR$<n>`` (counted
    among those, as the Table API names them) and any other unnamed computed field
    ``_c<position>``."""
    from sqlglot import exp

    named: List[Any] = []
    unnamed = 0
    for position, tree in enumerate(trees):
        if isinstance(tree, (exp.Column, exp.Alias, exp.Star)):
            named.append(tree)
        elif tree.find(exp.AggFunc) is not None or _python_aggregate_calls([tree]):
            named.append(exp.alias_(tree, "EXPR${}".format(unnamed), quoted=True))
            unnamed += 1
        else:
            named.append(exp.alias_(tree, "_c{}".format(position), quoted=True))
    return named


def _validation_error(message: str, method: str) -> Exception:
    """Flink's ``ValidationException`` of a Table API call, as PyFlink surfaces it (a py4j
    error)."""
    from pyflink_compat.util.exceptions import java_error

    return java_error("java.lang.RuntimeException",
                      "org.apache.flink.table.api.ValidationException: " + message,
                      "o0." + method)


def _named_trees(trees: List[Any], first: int) -> List[Any]:
    """``trees`` with each unnamed computed one named ``_c<position>`` (positions counted
    from ``first``)."""
    from sqlglot import exp

    return [tree if isinstance(tree, (exp.Column, exp.Alias))
            else exp.alias_(tree, "_c{}".format(first + position), quoted=True)
            for position, tree in enumerate(trees)]


def _trees(fields: Any, operation: str) -> List[Any]:
    from pyflink_compat.table.expression import Expression

    trees = []
    for field in fields:
        if not isinstance(field, Expression):
            # PyFlink 1.20 takes expressions only (a string fails in py4j).
            raise AttributeError("'{}' object has no attribute '_j_expr'".format(type(field).__name__))
        trees.append(field._j_expr.copy())
    return trees


class GroupedTable(object):
    """A :class:`Table` grouped by keys (:meth:`Table.group_by`): :meth:`select` aggregates.

    :param java_table: The grouping (in PyFlink, the JVM grouped table).
    :param t_env: The table environment.
    """

    def __init__(self, java_table: Any, t_env: 'RuntimeOwner'):
        self._j_table = java_table
        self._t_env = t_env

    def select(self, *fields: 'Expression') -> 'Table':
        """The keys' aggregates: one row per key, updated as rows arrive.

        :return: The :class:`Table`.
        """
        from sqlglot import exp

        table, keys = self._j_table
        trees = _trees(fields, "select")
        python_calls = _python_aggregate_calls(trees)
        if len(python_calls) == 1 and not any(t.find(exp.AggFunc) is not None for t in trees):
            # one Python aggregate: its accumulator is kept per key (python_aggregate)
            return _select_python_aggregate(table, keys, trees, python_calls, self._t_env)
        query = exp.select(*_aggregate_names(trees)).from_(table._subquery()).group_by(*keys)
        return Table(query, self._t_env)

    def aggregate(self, func: Any) -> AggregatedTable:
        """The Python aggregate function ``func`` (a :func:`~pyflink_compat.table.udf.udaf`, or
        its call on columns) over each key's rows: the keys, then its result's columns.

        :return: The :class:`AggregatedTable`; :meth:`AggregatedTable.select` its columns.
        """
        table, keys = self._j_table
        return AggregatedTable(python_aggregate(table, keys, func, False), self._t_env)

    def flat_aggregate(self, func: Any) -> FlatAggregateTable:
        """The Python table aggregate function ``func`` (a
        :func:`~pyflink_compat.table.udf.udtaf`) over each key's rows: the keys, then its rows.

        :return: The :class:`FlatAggregateTable`; :meth:`FlatAggregateTable.select` its columns.
        """
        table, keys = self._j_table
        return FlatAggregateTable(python_aggregate(table, keys, func, True), self._t_env)


def _python_aggregate_calls(trees: List[Any]) -> List[Any]:
    """The calls of Python aggregate functions in ``trees``."""
    from sqlglot import exp

    from pyflink_compat.sql.python_functions import function_of

    calls = []
    for tree in trees:
        for node in tree.find_all(exp.Anonymous):
            function = function_of(str(node.this), {})
            if type(function).__name__ == "UserDefinedAggregateFunctionWrapper":
                calls.append(node)
    return calls


def _select_python_aggregate(table: 'Table', keys: List[Any], trees: List[Any], calls: List[Any],
                             t_env: 'RuntimeOwner') -> 'Table':
    """A grouped select computing one Python aggregate function: the function's value per key,
    then the select's fields over the keys and that value."""
    from sqlglot import exp

    from pyflink_compat.sql.python_functions import function_of
    from pyflink_compat.table.expression import Expression

    (call,) = calls
    function = function_of(str(call.this), {})
    if function._is_table_aggregate:
        raise NotSupportedError("A Python table aggregate function in select",
                                "Call it with flat_aggregate.")
    result_type = function._result_type
    from pyflink_compat.sql.python_functions import spark_type

    fields = list(getattr(spark_type(result_type), "names", None) or [])
    if fields:
        raise NotSupportedError("A Python aggregate function with a ROW result in select",
                                "Call it with aggregate(...) and select its columns.")
    aggregated = python_aggregate(
        table, keys, Expression(exp.Alias(this=call.copy(), alias=exp.to_identifier(
            "__aggregate", quoted=True))), False)
    projected = []
    unnamed = 0
    for tree in trees:
        tree = tree.copy()
        name = tree.alias if isinstance(tree, exp.Alias) else None
        computed = not isinstance(tree, exp.Column)
        for node in tree.find_all(exp.Anonymous):
            if str(node.this) == str(call.this):
                replacement = exp.column("__aggregate", quoted=True)
                if node is tree:
                    tree = replacement
                else:
                    node.replace(replacement)
        if name is None and computed:
            # the Table API numbers the unnamed computed columns of an aggregate among
            # themselves
            tree = exp.alias_(tree, "EXPR${}".format(unnamed), quoted=True)
            unnamed += 1
        projected.append(tree)
    return Table(exp.select(*projected).from_(aggregated._subquery()), t_env)


def _function_call(func: Any, operation: str, functions: Optional[Dict[str, Any]] = None) -> Any:
    """The function object of ``func`` (a function object or an expression calling one), the
    argument trees of the call (``None`` when it takes the row), and the names given to its
    result columns."""
    from sqlglot import exp

    from pyflink_compat.table.expression import Expression

    if isinstance(func, Expression):
        from pyflink_compat.sql.python_functions import function_of

        tree = func._j_expr
        names: List[str] = []
        if isinstance(tree, exp.Alias):
            names = [tree.alias]
            tree = tree.this
        elif isinstance(tree, exp.Aliases):
            names = [n.name for n in tree.expressions]
            tree = tree.this
        function = function_of(str(tree.this), functions or {}) \
            if isinstance(tree, exp.Anonymous) else None
        if function is None:
            raise NotSupportedError(
                "Table.{} of {}".format(operation, func),
                "Pass a Python function object from pyflink.table.udf (or its call on columns).")
        return function, [a.copy() for a in tree.expressions], names or list(
            getattr(func, "_alias_names", ()))
    from pyflink_compat.table.udf import _as_aggregate_wrapper

    func = _as_aggregate_wrapper(func)
    if not hasattr(func, "_func_type"):
        raise NotSupportedError(
            "Table.{} of {!r}".format(operation, func),
            "Pass a Python function object from pyflink.table.udf (or its call on columns).")
    return func, None, list(getattr(func, "_alias_names", ()))


def _columns(table: 'Table') -> List[str]:
    return list(table._plan().result_frame.columns)


def _row_argument(table: 'Table') -> Any:
    from sqlglot import exp

    return exp.Struct(expressions=[exp.column(c, quoted=True) for c in _columns(table)])


def python_aggregate(table: 'Table', keys: List[Any], func: Any, flat: bool) -> 'Table':
    """The table of a Python (table) aggregate function over ``table`` grouped by ``keys``."""
    from sqlglot import exp

    from pyflink_compat.sql.catalog import DerivedTable
    from pyflink_compat.sql.python_functions import aggregate_frame, spark_type

    function, arguments, names = _function_call(func, "flat_aggregate" if flat else "aggregate")
    if type(function).__name__ != "UserDefinedAggregateFunctionWrapper" or \
            bool(function._is_table_aggregate) != flat:
        raise NotSupportedError(
            "{} of the Python function '{}'".format(
                "flat_aggregate" if flat else "aggregate", function._name),
            "aggregate takes a udaf, flat_aggregate a udtaf.")
    key_names = [k.alias_or_name for k in keys]
    row_names = None
    if arguments is None:
        function._set_takes_row_as_input()
        row_names = _columns(table)
        arguments = [exp.column(c, quoted=True) for c in row_names]
    argument_names = ["__arg{}".format(i) for i in range(len(arguments))]
    inner = exp.select(*[k.copy() for k in keys],
                       *[exp.alias_(a, n, quoted=True) for a, n in zip(arguments, argument_names)]
                       ).from_(table._subquery())
    result_type = spark_type(function._result_type)
    fields = list(getattr(result_type, "names", None) or ["f0"])
    names = list(names) or fields
    if len(names) != len(fields):
        raise NotSupportedError(
            "{} names for the {} result columns of '{}'".format(len(names), len(fields),
                                                                function._name),
            "Give one alias per result column.")
    t_env = table._t_env
    streaming = t_env._runtime.streaming

    def build(planner: Any) -> Any:
        from pyflink_compat.sql.dialect import Flink

        if streaming and function._func_type == "pandas":
            from pyflink_compat.util.exceptions import TableException

            # Flink's streaming planner has no group aggregate of pandas functions
            raise TableException("org.apache.flink.table.api.TableException: Cannot generate a "
                                 "valid execution plan for the given query: a pandas aggregate "
                                 "function in a streaming group aggregate")
        planned = planner.plan_query(inner, inner.sql(Flink))
        if planned.updating:
            raise NotSupportedError(
                "A Python aggregate function over an updating table",
                "Aggregate an append-only table (Spark's stateful operator takes no "
                "retractions).")
        if flat and not planned.bounded and streaming:
            raise NotSupportedError(
                "flat_aggregate over an unbounded table",
                "Use a bounded source, or emit the rows with PySpark's applyInPandasWithState.")
        frame = aggregate_frame(planned.frame, key_names, argument_names, function, names,
                                row_names)
        return frame, planned.bounded, not flat, key_names

    runtime = t_env._runtime
    name = runtime.new_anonymous_name()
    runtime.catalog.put(name, DerivedTable(build))
    return Table(exp.select("*").from_(exp.to_table(name)), t_env)


class OverWindowedTable(object):
    """A :class:`Table` with over windows (:meth:`Table.over_window`): :meth:`select`
    computes aggregates over them.

    :param java_over_windowed_table: The table and its windows (in PyFlink, the JVM over
        windowed table).
    :param t_env: The table environment.
    """

    def __init__(self, java_over_windowed_table: Any, t_env: 'RuntimeOwner'):
        self._j_table = java_over_windowed_table
        self._t_env = t_env

    def select(self, *fields: 'Expression') -> 'Table':
        """The columns ``fields`` of each row, among them aggregates over a window
        (``col('a').sum.over(col('w'))``).

        :return: The :class:`Table`.
        """
        from sqlglot import exp

        table, windows = self._j_table
        specs = {w.alias: w for w in windows}
        trees = _select_trees(fields)
        for tree in trees:
            for window in list(tree.find_all(exp.Window)):
                name = window.alias
                if name not in specs:
                    raise _validation_error(
                        "Over window alias '{}' is not defined.".format(name), "select")
                spec = specs[name]
                window.set("alias", None)
                window.set("partition_by", [p.copy() for p in spec.partition_by])
                window.set("order", exp.Order(expressions=[
                    exp.Ordered(this=spec.order_by.copy(), desc=False)]))
                window.set("spec", _frame(spec.preceding, spec.following))
        return Table(exp.select(*trees).from_(table._subquery()), self._t_env)


def _frame(preceding: Any, following: Any) -> Any:
    """The frame of an over window from its ``preceding`` and ``following`` bounds."""
    from sqlglot import exp

    def bound(value: Any, side: str) -> Any:
        tree = value._j_expr if value is not None else exp.Var(
            this="UNBOUNDED_RANGE" if side == "PRECEDING" else "CURRENT_RANGE")
        if isinstance(tree, exp.Var):
            kind = "ROWS" if tree.name.endswith("_ROW") else "RANGE"
            return kind, ("UNBOUNDED" if tree.name.startswith("UNBOUNDED") else "CURRENT ROW")
        if isinstance(tree, exp.Anonymous) and str(tree.this).upper() == "ROW_INTERVAL":
            return "ROWS", tree.expressions[0].copy()
        return "RANGE", tree.copy()

    kind, start = bound(preceding, "PRECEDING")
    if following is None:
        end: Any = "CURRENT ROW"
    else:
        _, end = bound(following, "FOLLOWING")
    return exp.WindowSpec(kind=kind, start=start,
                          start_side=None if start == "CURRENT ROW" else "PRECEDING",
                          end=end, end_side=None if end == "CURRENT ROW" else "FOLLOWING")


#: The public methods of PyFlink's ``Table``: asking for one that is not defined here is asking
#: for an operation, not for a column.
_PYFLINK_TABLE_METHODS = frozenset([
    'add_columns', 'add_or_replace_columns', 'aggregate', 'alias', 'distinct', 'drop_columns',
    'execute', 'execute_insert', 'explain', 'fetch', 'filter', 'flat_aggregate', 'flat_map',
    'full_outer_join', 'get_schema', 'group_by', 'intersect', 'intersect_all', 'join',
    'join_lateral', 'left_outer_join', 'left_outer_join_lateral', 'limit', 'map', 'minus',
    'minus_all', 'offset', 'order_by', 'over_window', 'print_schema', 'rename_columns',
    'right_outer_join', 'select', 'to_pandas', 'union', 'union_all', 'where', 'window'])


class Table(object):
    """A query of the Table API (in Flink terms, a pipeline of relational operations); each
    operation gives a new :class:`Table` and nothing runs until :meth:`execute` or
    :meth:`execute_insert`.

    :param j_table: The Flink SQL query the table stands for (a parsed tree).
    :param t_env: The table environment.
    """

    def __init__(self, j_table: Any, t_env: 'RuntimeOwner'):
        self._j_table = j_table
        self._t_env = t_env
        self._name: Any = None
        # the declared data types of a table read as it was declared (a DataTypes.ROW of
        # from_elements, a CREATE TABLE), by column name
        self._declared: Dict[str, Any] = {}
        #: A declared table's primary key (constraint name, columns); a query's result has none.
        self._primary_key: Optional[Tuple[str, Tuple[str, ...]]] = None
        #: The catalog name of the declared table this table shows whole in its schema (its
        #: computed and metadata columns, its watermark): a table read with ``from_path``,
        #: ``from_data_stream``, or a filter of one.
        self._shown_entry: Optional[str] = None

    @property
    def _query(self) -> Any:
        return self._j_table

    def __str__(self) -> str:
        """The name this table is registered under (``UnnamedTable$<n>``), usable in SQL."""
        if self._name is None:
            from pyflink_compat.sql.catalog import View

            runtime = self._t_env._runtime
            self._name = runtime.new_anonymous_name()
            runtime.catalog.put(self._name, View(self._j_table.copy(), self._name))
        return str(self._name)

    def __getattr__(self, name: str) -> 'Expression':
        if name.startswith("_"):
            raise AttributeError(name)
        from pyflink_compat.table.expressions import col

        if name in _PYFLINK_TABLE_METHODS:
            # a Table operation of PyFlink's that does not run here (not a column)
            raise NotSupportedError(
                "Table.{}".format(name),
                "Write this operation in Flink SQL (sql_query), or with PySpark on "
                "t_env.stream_execution_environment.spark_session (DataFrame.join, orderBy, "
                "limit...).")
        names = self.get_schema().get_field_names()
        if name not in names:
            raise AttributeError(
                "The current table has no column named '{}', available columns: [{}]".format(
                    name, ", ".join(names)))
        return col(name)

    def _subquery(self) -> Any:
        from sqlglot import exp

        return exp.Subquery(this=self._j_table.copy(), alias=exp.TableAlias(
            this=exp.to_identifier("t")))

    def _plan(self, row_kinds: bool = False) -> Any:
        from pyflink_compat.sql.dialect import Flink

        runtime = self._t_env._runtime
        return runtime.planner.plan_query(self._j_table, self._j_table.sql(Flink), row_kinds=row_kinds)

    def select(self, *fields: 'Expression') -> 'Table':
        """The columns ``fields`` of each row.

        :return: The :class:`Table`.
        """
        from sqlglot import exp

        return Table(exp.select(*_select_trees(fields)).from_(self._subquery()), self._t_env)

    def map(self, func: Any) -> 'Table':
        """The row of the Python scalar function ``func`` for each row (a
        :func:`~pyflink_compat.table.udf.udf` given the row, or its call on columns); a ``ROW``
        result is expanded into its fields.

        :return: The :class:`Table`.
        """
        from sqlglot import exp

        from pyflink_compat.sql.python_functions import call_expression, spark_type

        function, arguments, names = _function_call(func, "map")
        if type(function).__name__ != "UserDefinedScalarFunctionWrapper":
            raise NotSupportedError("Table.map of the Python function '{}'".format(function._name),
                                    "map takes a udf; flat_map takes a udtf.")
        if arguments is None:
            function._set_takes_row_as_input()
            arguments = [_row_argument(self)]
        result_type = spark_type(function._result_type)
        fields = list(getattr(result_type, "names", None) or [])
        call = call_expression(function, arguments)
        if not fields:
            return Table(exp.select(exp.alias_(call, names[0] if names else "_c0", quoted=True))
                         .from_(self._subquery()), self._t_env)
        names = names or fields
        inner = exp.select(exp.alias_(call, "__row", quoted=True)).from_(self._subquery())
        return Table(exp.select(*[
            exp.alias_(exp.Dot(this=exp.column("__row", quoted=True),
                               expression=exp.to_identifier(f, quoted=True)), n, quoted=True)
            for f, n in zip(fields, names)]).from_(exp.Subquery(
                this=inner, alias=exp.TableAlias(this=exp.to_identifier("m")))), self._t_env)

    def flat_map(self, func: Any) -> 'Table':
        """The rows of the Python table function ``func`` for each row (a
        :func:`~pyflink_compat.table.udf.udtf` given the row, or its call on columns).

        :return: The :class:`Table`.
        """
        from sqlglot import exp

        function, arguments, names = _function_call(func, "flat_map")
        if arguments is None:
            function._set_takes_row_as_input()
            arguments = [_row_argument(self)]
        lateral = self._lateral(function, arguments, names, "flat_map", False)
        columns = lateral.args["joins"][0].this.args["alias"].columns
        return Table(exp.select(*[exp.column(c.name, quoted=True) for c in columns])
                     .from_(exp.Subquery(this=lateral, alias=exp.TableAlias(
                         this=exp.to_identifier("f")))), self._t_env)

    def _lateral(self, function: Any, arguments: List[Any], names: List[str], operation: str,
                 outer: bool) -> Any:
        from sqlglot import exp

        from pyflink_compat.sql.python_functions import call_expression

        if type(function).__name__ != "UserDefinedTableFunctionWrapper":
            raise NotSupportedError(
                "Table.{} of the Python function '{}'".format(operation, function._name),
                "{} takes a udtf.".format(operation))
        from pyflink_compat.sql.python_functions import spark_type

        declared = function._result_types
        count = len(declared) if isinstance(declared, list) else len(
            getattr(spark_type(declared), "names", None) or [0])
        names = list(names) or ["f{}".format(i) for i in range(count)]
        lateral = exp.Lateral(
            this=exp.Anonymous(this="TABLE", expressions=[call_expression(function, arguments)]),
            alias=exp.TableAlias(this=exp.to_identifier("lateral_rows"),
                                 columns=[exp.to_identifier(n, quoted=True) for n in names]))
        join = exp.Join(this=lateral, side="LEFT", on=exp.Boolean(this=True)) if outer else \
            exp.Join(this=lateral, kind="CROSS")
        query = exp.select("*").from_(self._subquery())
        query.append("joins", join)
        return query

    def join_lateral(self, table_function_call: Any, join_predicate: Any = None) -> 'Table':
        """Each row joined with the rows the Python table function gives for it.

        :param table_function_call: A :func:`~pyflink_compat.table.udf.udtf` call on columns,
            or the function given the row (named with ``alias``).
        :param join_predicate: A condition the joined rows must meet (optional).
        :return: The :class:`Table`.
        """
        return self._join_lateral(table_function_call, join_predicate, False)

    def left_outer_join_lateral(self, table_function_call: Any,
                                join_predicate: Any = None) -> 'Table':
        """Each row joined with the rows the Python table function gives for it; a row for
        which it gives none is kept, with ``NULL`` in the function's columns.

        :return: The :class:`Table`.
        """
        return self._join_lateral(table_function_call, join_predicate, True)

    def _join_lateral(self, call: Any, predicate: Any, outer: bool) -> 'Table':
        operation = "left_outer_join_lateral" if outer else "join_lateral"
        function, arguments, names = _function_call(call, operation)
        if arguments is None:
            function._set_takes_row_as_input()
            arguments = [_row_argument(self)]
        query = self._lateral(function, arguments, names, operation, outer)
        if predicate is not None:
            if outer:
                raise NotSupportedError(
                    "left_outer_join_lateral with a join predicate",
                    "Flink takes only a literal TRUE here; filter the rows with where().")
            (condition,) = _trees([predicate], operation)
            query = query.where(condition)
        return Table(query, self._t_env)

    def aggregate(self, func: Any) -> AggregatedTable:
        """The Python aggregate function ``func`` over all rows (see
        :meth:`GroupedTable.aggregate`).

        :return: The :class:`AggregatedTable`.
        """
        return AggregatedTable(python_aggregate(self, [], func, False), self._t_env)

    def flat_aggregate(self, func: Any) -> FlatAggregateTable:
        """The Python table aggregate function ``func`` over all rows (see
        :meth:`GroupedTable.flat_aggregate`).

        :return: The :class:`FlatAggregateTable`.
        """
        return FlatAggregateTable(python_aggregate(self, [], func, True), self._t_env)

    def alias(self, field: str, *fields: str) -> 'Table':
        """The same rows with their first columns renamed ``field``, ``*fields``, in order (the
        columns after them keep their names; each name is taken whole, a comma included)."""
        from sqlglot import exp

        names = (field,) + fields
        plan_columns = self._plan().result_frame.columns
        if len(names) > len(plan_columns):
            raise _validation_error("Aliasing more fields than we actually have.", "as")
        names = names + tuple(plan_columns[len(names):])
        return Table(exp.select(*[exp.alias_(exp.column(c, quoted=True), n, quoted=True)
                                  for c, n in zip(plan_columns, names)]).from_(self._subquery()),
                     self._t_env)

    def filter(self, predicate: 'Expression') -> 'Table':
        """The rows for which ``predicate`` holds.

        :return: The :class:`Table`.
        """
        from sqlglot import exp

        (condition,) = _trees([predicate], "filter")
        filtered = Table(exp.select("*").from_(self._subquery()).where(condition), self._t_env)
        # Flink's filter keeps its input's schema, a declared table's expressions and watermark
        filtered._shown_entry = self._shown_entry
        return filtered

    def where(self, predicate: 'Expression') -> 'Table':
        """The rows for which ``predicate`` holds (as :meth:`filter`)."""
        return self.filter(predicate)

    def group_by(self, *fields: 'Expression') -> GroupedTable:
        """The rows grouped by ``fields``; aggregate them with :meth:`GroupedTable.select`."""
        return GroupedTable((self, _trees(fields, "group_by")), self._t_env)

    def window(self, window: Any) -> GroupWindowedTable:
        """This table with the group window ``window`` (a :class:`~pyflink_compat.table.window.
        GroupWindow` of :class:`~pyflink_compat.table.window.Tumble`,
        :class:`~pyflink_compat.table.window.Slide` or :class:`~pyflink_compat.table.window.
        Session`); group it with :meth:`GroupWindowedTable.group_by`."""
        return GroupWindowedTable((self, window._java_window), self._t_env)

    def over_window(self, *over_windows: Any) -> OverWindowedTable:
        """This table with the over windows ``over_windows`` (of
        :class:`~pyflink_compat.table.window.Over`, each named with ``alias``); select
        aggregates over them with :meth:`OverWindowedTable.select`. They run when the table
        is bounded (Spark's streaming queries have no window functions).

        :return: The :class:`OverWindowedTable`.
        """
        return OverWindowedTable((self, [w._java_over_window for w in over_windows]),
                                 self._t_env)

    def add_columns(self, *fields: 'Expression') -> 'Table':
        """This table's columns followed by ``fields`` (computed columns, named with
        ``alias``); a name already taken fails, as in Flink.

        :return: The :class:`Table`.
        """
        from sqlglot import exp

        trees = _trees(fields, "add_columns")
        columns = _columns(self)
        taken = [t.alias_or_name for t in trees if t.alias_or_name in columns]
        if taken:
            raise _validation_error("Ambiguous column name: {}".format(taken[0]), "addColumns")
        return Table(exp.select(*[exp.column(c, quoted=True) for c in columns],
                                *_named_trees(trees, len(columns)))
                     .from_(self._subquery()), self._t_env)

    def add_or_replace_columns(self, *fields: 'Expression') -> 'Table':
        """This table's columns with ``fields`` in place of the columns of the same name, the
        other fields after them (of fields with one name, the last one counts).

        :return: The :class:`Table`.
        """
        from sqlglot import exp

        columns = _columns(self)
        by_name: Dict[str, Any] = {}
        for tree in _named_trees(_trees(fields, "add_or_replace_columns"), len(columns)):
            by_name[tree.alias_or_name] = tree
        selected = [by_name.pop(c) if c in by_name else exp.column(c, quoted=True)
                    for c in columns]
        return Table(exp.select(*selected, *by_name.values()).from_(self._subquery()),
                     self._t_env)

    def rename_columns(self, *fields: 'Expression') -> 'Table':
        """This table with the columns ``fields`` name (``col('a').alias('b')``) renamed.

        :return: The :class:`Table`.
        """
        from sqlglot import exp

        renames: Dict[str, str] = {}
        for tree in _trees(fields, "rename_columns"):
            if not (isinstance(tree, exp.Alias) and isinstance(tree.this, exp.Column)):
                raise _validation_error(
                    "Invalid alias for a renaming column operation. Renaming must add an alias "
                    "to anexisting field. E.g.: 'a as a1'. But was: {}".format(tree.sql()),
                    "renameColumns")
            renames[tree.this.name] = tree.alias
        columns = _columns(self)
        unknown = [name for name in renames if name not in columns]
        if unknown:
            raise _validation_error(
                "Cannot resolve field [{}], input field list:[{}].".format(
                    unknown[0], ", ".join(columns)), "renameColumns")
        return Table(exp.select(*[
            exp.alias_(exp.column(c, quoted=True), renames[c], quoted=True) if c in renames
            else exp.column(c, quoted=True) for c in columns]).from_(self._subquery()),
            self._t_env)

    def drop_columns(self, *fields: 'Expression') -> 'Table':
        """This table without the columns ``fields`` name.

        :return: The :class:`Table`.
        """
        from sqlglot import exp

        dropped = [t.alias_or_name for t in _trees(fields, "drop_columns")]
        columns = _columns(self)
        unknown = [name for name in dropped if name not in columns]
        if unknown:
            raise _validation_error(
                "Field {} does not exist in source table".format(unknown[0]), "dropColumns")
        return Table(exp.select(*[exp.column(c, quoted=True) for c in columns
                                  if c not in dropped]).from_(self._subquery()), self._t_env)

    def join(self, right: 'Table', join_predicate: Any = None) -> 'Table':
        """The rows of this table joined with the rows of ``right`` for which
        ``join_predicate`` holds (every pair without it); the two tables' column names must
        differ.

        :return: The :class:`Table`.
        """
        return self._join(right, join_predicate, None, "join")

    def left_outer_join(self, right: 'Table', join_predicate: Any = None) -> 'Table':
        """As :meth:`join`, and the rows of this table that join no row, with ``NULL`` in
        ``right``'s columns.

        :return: The :class:`Table`.
        """
        return self._join(right, join_predicate, "LEFT", "left_outer_join")

    def right_outer_join(self, right: 'Table', join_predicate: Any) -> 'Table':
        """As :meth:`join`, and the rows of ``right`` that join no row, with ``NULL`` in this
        table's columns.

        :return: The :class:`Table`.
        """
        return self._join(right, join_predicate, "RIGHT", "right_outer_join")

    def full_outer_join(self, right: 'Table', join_predicate: Any) -> 'Table':
        """As :meth:`join`, and the rows of either table that join no row, with ``NULL`` in
        the other's columns.

        :return: The :class:`Table`.
        """
        return self._join(right, join_predicate, "FULL", "full_outer_join")

    def _join(self, right: 'Table', predicate: Any, side: Any, operation: str) -> 'Table':
        from sqlglot import exp

        if not isinstance(right, Table):
            raise AttributeError("'{}' object has no attribute '_j_table'".format(
                type(right).__name__))
        left_columns, right_columns = _columns(self), _columns(right)
        ambiguous = [c for c in left_columns if c in right_columns]
        if ambiguous:
            raise _validation_error(
                "join relations with ambiguous names: [{}]".format(", ".join(ambiguous)), "join")
        condition = _trees([predicate], operation)[0] if predicate is not None \
            else exp.Boolean(this=True)
        query = exp.select(*[exp.column(c, quoted=True) for c in left_columns + right_columns]
                           ).from_(self._subquery())
        right_query = exp.Subquery(this=right._j_table.copy(), alias=exp.TableAlias(
            this=exp.to_identifier("r")))
        query.append("joins", exp.Join(this=right_query, side=side, on=condition)
                     if side else exp.Join(this=right_query, on=condition))
        return Table(query, self._t_env)

    def order_by(self, *fields: 'Expression') -> 'Table':
        """The rows sorted by ``fields`` (``col('a').desc``; ascending by default). A streaming
        query sorts by an ascending time attribute first, or fetches the first rows, as in
        Flink.

        :return: The :class:`Table`.
        """
        from sqlglot import exp

        orders = [t if isinstance(t, exp.Ordered) else exp.Ordered(this=t, desc=False)
                  for t in _trees(fields, "order_by")]
        query = exp.select("*").from_(self._subquery())
        query.set("order", exp.Order(expressions=orders))
        return Table(query, self._t_env)

    def offset(self, offset: int) -> 'Table':
        """The rows after the first ``offset`` ones (of the order :meth:`order_by` gives).

        :return: The :class:`Table`.
        """
        from sqlglot import exp

        if offset < 0:
            raise _validation_error("Offset should be greater or equal 0", "offset")
        query = self._sorted_query("offset")
        query.set("offset", exp.Offset(expression=exp.Literal.number(offset)))
        return Table(query, self._t_env)

    def fetch(self, fetch: int) -> 'Table':
        """The first ``fetch`` rows (of the order :meth:`order_by` gives, after
        :meth:`offset`).

        :return: The :class:`Table`.
        """
        from sqlglot import exp

        if fetch < 0:
            raise _validation_error("FETCH count must be equal or larger than 0.", "fetch")
        query = self._sorted_query("fetch")
        query.set("limit", exp.Limit(expression=exp.Literal.number(fetch)))
        return Table(query, self._t_env)

    def limit(self, fetch: int, offset: int = 0) -> 'Table':
        """The ``fetch`` rows after the first ``offset`` ones (:meth:`offset`, then
        :meth:`fetch`).

        :return: The :class:`Table`.
        """
        return self.offset(offset).fetch(fetch)

    def _sorted_query(self, operation: str) -> Any:
        """The query that an offset or fetch bounds: this table's own sort, or a new select
        of its rows."""
        from sqlglot import exp

        query = self._j_table
        if isinstance(query, exp.Select) and query.args.get("limit") is not None:
            raise _validation_error("FETCH is already defined.", operation)
        if isinstance(query, exp.Select) and (query.args.get("order") is not None or
                                              query.args.get("offset") is not None):
            return query.copy()
        return exp.select("*").from_(self._subquery())

    def distinct(self) -> 'Table':
        """The distinct rows (an updating result, as in Flink)."""
        from sqlglot import exp

        # the columns by name: they are the keys of the updating result
        query = exp.select(*[exp.column(c, quoted=True) for c in _columns(self)]
                           ).from_(self._subquery())
        query.set("distinct", exp.Distinct())
        return Table(query, self._t_env)

    def union_all(self, right: 'Table') -> 'Table':
        """The rows of this table and of ``right``."""
        from sqlglot import exp

        return Table(exp.union(self._j_table.copy(), right._j_table.copy(), distinct=False),
                     self._t_env)

    def union(self, right: 'Table') -> 'Table':
        """The distinct rows of this table and of ``right``. As in Flink, this runs in batch
        mode only (in streaming mode, write ``UNION`` in SQL).

        :return: The :class:`Table`.
        """
        return self._set_operation(right, "Union", True, "UNION", "union")

    def minus(self, right: 'Table') -> 'Table':
        """The distinct rows of this table that ``right`` does not have (batch mode only, as
        in Flink).

        :return: The :class:`Table`.
        """
        return self._set_operation(right, "Except", True, "MINUS", "minus")

    def minus_all(self, right: 'Table') -> 'Table':
        """The rows of this table less as many of each as ``right`` has (batch mode only, as
        in Flink).

        :return: The :class:`Table`.
        """
        return self._set_operation(right, "Except", False, "MINUS", "minusAll")

    def intersect(self, right: 'Table') -> 'Table':
        """The distinct rows that both tables have (batch mode only, as in Flink).

        :return: The :class:`Table`.
        """
        return self._set_operation(right, "Intersect", True, "INTERSECT", "intersect")

    def intersect_all(self, right: 'Table') -> 'Table':
        """The rows that both tables have, each as often as the table with fewer of it has it
        (batch mode only, as in Flink).

        :return: The :class:`Table`.
        """
        return self._set_operation(right, "Intersect", False, "INTERSECT", "intersectAll")

    def _set_operation(self, right: 'Table', kind: str, distinct: bool, name: str,
                       method: str) -> 'Table':
        from sqlglot import exp

        if self._t_env._runtime.streaming:
            # Flink's Table API refuses these on streaming tables, bounded ones too
            raise _validation_error("The {} operation on two unbounded tables is currently not "
                                    "supported.".format(name), method)
        operation = getattr(exp, kind)(this=self._j_table.copy(), expression=right._j_table.copy(),
                                       distinct=distinct)
        return Table(operation, self._t_env)

    def execute_insert(self, table_path_or_descriptor: Any, overwrite: bool = False) -> 'TableResult':
        """Write this table's rows into the table registered as ``table_path_or_descriptor`` (a
        job starts; ``wait()`` on the result waits for its end).

        :return: The :class:`~pyflink_compat.table.TableResult`.
        """
        from pyflink_compat.table.statement_set import StatementSet

        statement_set = StatementSet([], self._t_env)
        statement_set.add_insert(table_path_or_descriptor, self, overwrite)
        return statement_set.execute()

    def execute(self) -> 'TableResult':
        """Run this table's query; ``print()`` or ``collect()`` on the result gives its rows.

        :return: The :class:`~pyflink_compat.table.TableResult`.
        """
        from pyflink_compat.table.table_result import TableResult

        return TableResult._of(self._t_env._runtime.execute_query(self._plan(row_kinds=True)))

    def explain(self, *extra_details: Any) -> str:
        """Spark's plan of this table's query (the details Flink's explanation may add,
        :class:`~pyflink_compat.table.ExplainDetail`, are accepted and change nothing)."""
        execution = self._plan().result_frame._jdf.queryExecution()
        # the physical plan of a streaming query exists only once it runs
        return "== Parsed Logical Plan ==\n{}\n== Analyzed Logical Plan ==\n{}".format(
            execution.logical().toString(), execution.analyzed().toString())

    def get_schema(self) -> 'TableSchema':
        """The :class:`~pyflink_compat.table.TableSchema` of this table's columns: their
        declared types when the table is read as declared, else the types of its query; a time
        attribute marked (``*ROWTIME*``, ``*PROCTIME*``), and a declared table's computed and
        metadata columns and watermark shown, as Flink's resolved schema shows them."""
        from pyflink_compat.table.table_schema import schema_of_struct

        from pyflink_compat.sql.data_types import parse_data_type

        shown = self._shown_table()
        details = _column_details(shown) if shown is not None else None
        if details is not None and all(d.type_text for d in details[0]):
            # a declared table's schema is its declaration's, as Flink resolves it without
            # reading the table (whose connector or metadata columns may not run here)
            schema = _declared_schema(*details)
        else:
            planned = self._plan()
            known = {name: parse_data_type(text) for name, text in planned.flink_types.items()}
            schema = schema_of_struct(planned.result_frame.schema, {**known, **self._declared})
            if details is not None:
                schema._show_declaration(*details)
            else:
                from pyflink_compat.sql.time_attributes import shown_columns

                schema._show_time_attributes(shown_columns(
                    self._t_env._runtime.catalog, self._j_table, schema.get_field_names()))
        schema._primary_key = self._primary_key
        return schema

    def _shown_table(self) -> Any:
        from pyflink_compat.sql.catalog import StreamTable
        from pyflink_compat.sql.statements import CreateTable

        if self._shown_entry is None:
            return None
        entry = self._t_env._runtime.catalog.get(self._shown_entry)
        if isinstance(entry, StreamTable):
            return entry.shown
        return entry if isinstance(entry, CreateTable) else None

    def print_schema(self) -> None:
        """Print the schema as Flink 1.20 prints a resolved schema: one line per column in
        parentheses (with its time attribute, expression or metadata), the watermark, the
        primary key."""
        print(self.get_schema()._printed())

    def to_pandas(self) -> Any:
        """The rows of this (bounded) table as a pandas DataFrame, with the column dtypes
        PyFlink gives (``BIGINT`` ``int64``, ``INT`` ``int32``, ``DOUBLE`` ``float64``, text and
        decimals as objects; an integer column with NULLs ``float64``)."""
        from pyflink_compat.sql.pandas_frames import frame_of_rows

        schema = self.get_schema()
        rows = [tuple(row) for row in self.execute().collect()]
        return frame_of_rows(rows, schema.get_field_names(), schema.get_field_data_types())

    def __getstate__(self) -> Any:
        raise NotSupportedError("Pickling a Table", "Tables live in their table environment.")


def _column_details(table: Any) -> Any:
    from pyflink_compat.sql.catalog import column_details

    return column_details(table)


def _declared_schema(details: Any, watermark: Any) -> 'TableSchema':
    """The schema of a declared table from its declaration alone: its columns' details (each
    with its type) and watermark."""
    from pyflink_compat.sql.data_types import parse_data_type
    from pyflink_compat.table.table_schema import TableSchema

    schema = TableSchema([d.name for d in details], [parse_data_type(d.type_text) for d in details])
    schema._show_declaration(details, watermark)
    return schema


class WindowGroupedTable(object):
    """A :class:`Table` grouped by a group window and keys: :meth:`select` aggregates each
    window of each key, emitted once the window closes.

    :param java_table: The table, its window and grouping (in PyFlink, the JVM grouped table).
    :param t_env: The table environment.
    """

    def __init__(self, java_table: Any, t_env: 'RuntimeOwner'):
        self._j_table = java_table
        self._t_env = t_env

    def select(self, *fields: 'Expression') -> 'Table':
        """The keys, aggregates and window properties (``col('w').start``, ``.end``,
        ``.rowtime``) of each window of each key.

        :return: The :class:`Table`.
        """
        from pyflink_compat.sql.windows import window_select

        table, window, keys = self._j_table
        trees = _trees(fields, "select")
        _check_window_time(table, window)
        return Table(window_select(table._subquery(), window, keys, trees), self._t_env)

    def aggregate(self, func: Any) -> AggregatedTable:
        """The Python aggregate function ``func``, called on columns (``f(col('v'))``,
        aliased to name its result columns), over each window of each key: the keys, then its
        result's columns.

        :return: The :class:`AggregatedTable`; :meth:`AggregatedTable.select` its columns.
        """
        from sqlglot import exp

        from pyflink_compat.sql.python_functions import register_inline, spark_type
        from pyflink_compat.sql.windows import window_select
        from pyflink_compat.table.expression import Expression

        if not isinstance(func, Expression):
            raise NotSupportedError(
                "A window's aggregate of {!r} taking the whole row".format(func),
                "Call the function on the columns it aggregates: aggregate(f(col('a'), ...)).")
        function, arguments, names = _function_call(func, "aggregate",
                                                    self._t_env._runtime.catalog.functions)
        if type(function).__name__ != "UserDefinedAggregateFunctionWrapper" \
                or function._is_table_aggregate:
            raise NotSupportedError(
                "aggregate of the Python function '{}'".format(function._name),
                "aggregate takes a udaf.")
        result_type = spark_type(function._result_type)
        fields = list(getattr(result_type, "names", None) or [])
        names = list(names) or fields or ["f0"]
        if len(names) != max(len(fields), 1):
            raise NotSupportedError(
                "{} names for the {} result columns of '{}'".format(
                    len(names), max(len(fields), 1), function._name),
                "Give one alias per result column.")
        table, window, keys = self._j_table
        key_columns = [k for k in keys if isinstance(k, exp.Column) and k.name != window.alias]
        call = exp.Anonymous(this=register_inline(function), expressions=arguments)
        named_call: Any = exp.alias_(call, "__aggregate", quoted=True)
        properties: List[Any] = [exp.alias_(exp.Anonymous(this=name, expressions=[exp.column(window.alias)]), column,
                                 quoted=True) for name, column in _WINDOW_PROPERTIES.items()]
        inner = window_select(table._subquery(), window, keys,
                              [*[k.copy() for k in key_columns], named_call, *properties])
        aggregate = exp.column("__aggregate", quoted=True)
        results = [exp.alias_(exp.Dot(this=aggregate.copy(), expression=exp.to_identifier(f))
                              if fields else aggregate.copy(), n, quoted=True)
                   for f, n in zip(fields or ["f0"], names)]
        hidden = [exp.column(c, quoted=True) for c in _WINDOW_PROPERTIES.values()]
        outer = exp.select(*[exp.column(k.name, quoted=True) for k in key_columns],
                           *results, *hidden).from_(exp.Subquery(
                               this=inner, alias=exp.TableAlias(this=exp.to_identifier("w"))))
        aggregated = AggregatedTable(Table(outer, self._t_env), self._t_env)
        aggregated._window = (table, window)
        return aggregated


def _check_window_time(table: Table, window: Any) -> None:
    """Refuse, as Flink's streaming planner does, a group window on a column that is not a
    time attribute (a column without a watermark, or computed from one)."""
    from sqlglot import exp

    from pyflink_compat.sql.time_attributes import column_time_attribute

    runtime = table._t_env._runtime
    if not runtime.streaming or not isinstance(window.time_field, exp.Column):
        return
    found = column_time_attribute(runtime.catalog, table._j_table, window.time_field.name)
    if found is not None and not found[0]:
        raise _validation_error(
            "A group window expects a time attribute for grouping in a stream environment.",
            "select")


from pyflink_compat._reexports import with_reexports  # noqa: E402

__getattr__ = with_reexports(__name__)
