"""PyFlink module ``pyflink.table.table``: :class:`Table` and :class:`GroupedTable` run (each
holds the Flink SQL query it stands for); the other names are declared.

Using a declared name below raises :class:`~pyflink_compat.missing.NotSupportedError`,
naming the PySpark way to do the same.
"""
from typing import TYPE_CHECKING, Any, Dict, List

from pyflink_compat.missing import NotSupportedError
from pyflink_compat.missing.declared import Declared

if TYPE_CHECKING:
    from pyflink_compat.sql.execution import RuntimeOwner
    from pyflink_compat.table.expression import Expression
    from pyflink_compat.table.table_result import TableResult
    from pyflink_compat.table.table_schema import TableSchema

__all__ = ['Table', 'GroupedTable', 'GroupWindowedTable', 'OverWindowedTable',
    'WindowGroupedTable']


class AggregatedTable(Declared):
    pass


class FlatAggregateTable(Declared):
    pass


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
        query = exp.select(*_trees(fields, "select")).from_(table._subquery()).group_by(*keys)
        return Table(query, self._t_env)


class OverWindowedTable(object):
    """A :class:`Table` with over windows (:meth:`Table.over_window`)."""

    def __init__(self, java_over_windowed_table: Any, t_env: 'RuntimeOwner'):
        self._j_table = java_over_windowed_table
        self._t_env = t_env


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

    @property
    def _query(self) -> Any:
        return self._j_table

    def __str__(self) -> str:
        """The name this table is registered under (``UnnamedTable$<n>``), usable in SQL."""
        if self._name is None:
            from pyflink_compat.sql.planner import View

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

    def _plan(self) -> Any:
        from pyflink_compat.sql.dialect import Flink

        runtime = self._t_env._runtime
        return runtime.planner.plan_query(self._j_table, self._j_table.sql(Flink))

    def select(self, *fields: 'Expression') -> 'Table':
        """The columns ``fields`` of each row.

        :return: The :class:`Table`.
        """
        from sqlglot import exp

        return Table(exp.select(*_trees(fields, "select")).from_(self._subquery()), self._t_env)

    def alias(self, field: str, *fields: str) -> 'Table':
        """The same rows with their columns renamed ``field``, ``*fields``, in order."""
        from sqlglot import exp

        names = (field,) + fields
        plan_columns = self._plan().frame.columns
        return Table(exp.select(*[exp.alias_(exp.column(c, quoted=True), n, quoted=True)
                                  for c, n in zip(plan_columns, names)]).from_(self._subquery()),
                     self._t_env)

    def filter(self, predicate: 'Expression') -> 'Table':
        """The rows for which ``predicate`` holds.

        :return: The :class:`Table`.
        """
        from sqlglot import exp

        (condition,) = _trees([predicate], "filter")
        return Table(exp.select("*").from_(self._subquery()).where(condition), self._t_env)

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
        """Over windows do not run on Spark: Spark's streaming queries have no window
        functions.

        :raises NotSupportedError: Always.
        """
        raise NotSupportedError(
            "Table.over_window",
            "Spark's streaming queries have no over windows: compute them per micro-batch in "
            "foreachBatch with pyspark.sql.Window (Window.partitionBy(...).orderBy(...)"
            ".rowsBetween(...)), or keep the running aggregate in keyed state.")

    def distinct(self) -> 'Table':
        """The distinct rows (an updating result, as in Flink)."""
        from sqlglot import exp

        query = exp.select("*").from_(self._subquery())
        query.set("distinct", exp.Distinct())
        return Table(query, self._t_env)

    def union_all(self, right: 'Table') -> 'Table':
        """The rows of this table and of ``right``."""
        from sqlglot import exp

        return Table(exp.union(self._j_table.copy(), right._j_table.copy(), distinct=False),
                     self._t_env)

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

        return TableResult._of(self._t_env._runtime.execute_query(self._plan()))

    def explain(self, *extra_details: Any) -> str:
        """Spark's plan of this table's query."""
        return str(self._plan().frame._jdf.queryExecution().toString())

    def get_schema(self) -> 'TableSchema':
        """The :class:`~pyflink_compat.table.TableSchema` of this table's columns: their
        declared types when the table is read as declared, else the types of its query."""
        from pyflink_compat.sql.data_types import parse_data_type
        from pyflink_compat.sql.value_text import flink_type_name
        from pyflink_compat.table.table_schema import TableSchema

        schema = self._plan().frame.schema
        types = []
        for field in schema.fields:
            declared = self._declared.get(field.name)
            if declared is None:
                declared = parse_data_type(flink_type_name(field.dataType))
                if not field.nullable:
                    declared = declared.not_null()
            types.append(declared)
        return TableSchema(schema.fieldNames(), types)

    def print_schema(self) -> None:
        """Print the schema as Flink 1.20 prints a resolved schema: one line per column in
        parentheses."""
        from pyflink_compat.sql.data_types import type_text

        schema = self.get_schema()
        columns = ["  `{}` {}".format(name.replace("`", "``"), type_text(data_type))
                   for name, data_type in zip(schema.get_field_names(),
                                              schema.get_field_data_types())]
        print("(\n" + ",\n".join(columns) + "\n)")

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
        return Table(window_select(table._subquery(), window, keys, _trees(fields, "select")),
                     self._t_env)


from pyflink_compat._reexports import with_reexports  # noqa: E402

__getattr__ = with_reexports(__name__)
