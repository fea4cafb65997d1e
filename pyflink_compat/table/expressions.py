"""PyFlink module ``pyflink.table.expressions``: :func:`col` and :func:`lit` run; the other
names are declared.

Using a declared name below raises :class:`~pyflink_compat.missing.NotSupportedError`,
naming the PySpark way to do the same.
"""
from typing import Any

from pyflink_compat.missing.declared import declared_function
from pyflink_compat.table.expression import Expression

__all__ = ['if_then_else', 'lit', 'col', 'range_', 'and_', 'or_', 'not_', 'UNBOUNDED_ROW',
    'UNBOUNDED_RANGE', 'CURRENT_ROW', 'CURRENT_RANGE', 'current_database', 'current_date',
    'current_time', 'current_timestamp', 'current_watermark', 'local_time', 'local_timestamp',
    'temporal_overlaps', 'date_format', 'timestamp_diff', 'array', 'row', 'map_', 'row_interval',
    'pi', 'e', 'rand', 'rand_integer', 'atan2', 'negative', 'concat', 'concat_ws', 'uuid',
    'null_of', 'log', 'with_columns', 'without_columns', 'json_string', 'json_object',
    'json_object_agg', 'json_array', 'json_array_agg', 'call', 'call_sql', 'source_watermark',
    'to_timestamp_ltz', 'from_unixtime', 'to_date', 'to_timestamp', 'convert_tz', 'unix_timestamp']

array = declared_function(__name__, 'array')
atan2 = declared_function(__name__, 'atan2')


def call(f: Any, *args: Any) -> Expression:
    """The call of the function ``f`` (a registered function's name, or a Python function
    object from :mod:`pyflink_compat.table.udf`) on ``args`` (expressions or literals)."""
    from pyflink_compat.sql.python_functions import call_expression
    from pyflink_compat.table.expression import _tree

    return Expression(call_expression(f, [_tree(a).copy() for a in args]))


call_sql = declared_function(__name__, 'call_sql')
coalesce = declared_function(__name__, 'coalesce')


def col(name: str) -> Expression:
    """The column ``name`` of the table an operation applies to (``'*'``: all its columns)."""
    from sqlglot import exp

    if name == "*":
        return Expression(exp.Star())
    return Expression(exp.column(name, quoted=True))


def and_(predicate0: Any, predicate1: Any, *predicates: Any) -> Expression[Any]:
    """Whether every predicate holds (SQL's ``AND``)."""
    result: Expression[Any] = Expression(_predicate(predicate0))
    for predicate in (predicate1,) + predicates:
        result = result & Expression(_predicate(predicate))
    return result


def or_(predicate0: Any, predicate1: Any, *predicates: Any) -> Expression[Any]:
    """Whether any predicate holds (SQL's ``OR``)."""
    result: Expression[Any] = Expression(_predicate(predicate0))
    for predicate in (predicate1,) + predicates:
        result = result | Expression(_predicate(predicate))
    return result


def not_(expression: Expression[Any]) -> Expression[Any]:
    """The negation of ``expression`` (SQL's ``NOT``)."""
    return ~expression


def _predicate(value: Any) -> Any:
    from sqlglot import exp

    if isinstance(value, Expression):
        return exp.Paren(this=value._j_expr.copy())
    return exp.Boolean(this=bool(value))




def concat(first: Any, *others: Any) -> Expression:
    """The strings ``first``, ``*others`` joined (``NULL`` when any is ``NULL``)."""
    from sqlglot import exp

    from pyflink_compat.table.expression import _tree

    return Expression(exp.Concat(expressions=[_tree(v).copy() for v in (first,) + others]))


concat_ws = declared_function(__name__, 'concat_ws')
convert_tz = declared_function(__name__, 'convert_tz')
current_database = declared_function(__name__, 'current_database')
current_date = declared_function(__name__, 'current_date')
current_time = declared_function(__name__, 'current_time')
current_timestamp = declared_function(__name__, 'current_timestamp')
current_watermark = declared_function(__name__, 'current_watermark')
date_format = declared_function(__name__, 'date_format')
e = declared_function(__name__, 'e')
from_unixtime = declared_function(__name__, 'from_unixtime')
if_then_else = declared_function(__name__, 'if_then_else')
json_array = declared_function(__name__, 'json_array')
json_array_agg = declared_function(__name__, 'json_array_agg')
json_object = declared_function(__name__, 'json_object')
json_object_agg = declared_function(__name__, 'json_object_agg')
json_string = declared_function(__name__, 'json_string')


def lit(v: Any, data_type: Any = None) -> Expression:
    """The literal value ``v`` (a number, string, boolean or ``None``)."""
    from pyflink_compat.table.expression import _tree

    if data_type is not None:
        from pyflink_compat.missing import NotSupportedError

        raise NotSupportedError("lit with a data type", "Write the literal as a value of its type.")
    return Expression(_tree(v))


local_time = declared_function(__name__, 'local_time')
local_timestamp = declared_function(__name__, 'local_timestamp')
log = declared_function(__name__, 'log')
map_ = declared_function(__name__, 'map_')
map_from_arrays = declared_function(__name__, 'map_from_arrays')
negative = declared_function(__name__, 'negative')
null_of = declared_function(__name__, 'null_of')
pi = declared_function(__name__, 'pi')
rand = declared_function(__name__, 'rand')
rand_integer = declared_function(__name__, 'rand_integer')
range_ = declared_function(__name__, 'range_')
row = declared_function(__name__, 'row')


def row_interval(rows: int) -> Expression:
    """An interval of ``rows`` rows: how far an over window reaches back
    (``Over...preceding(row_interval(2))``)."""
    from sqlglot import exp

    return Expression(exp.Anonymous(this="ROW_INTERVAL", expressions=[exp.Literal.number(rows)]))


source_watermark = declared_function(__name__, 'source_watermark')
temporal_overlaps = declared_function(__name__, 'temporal_overlaps')
timestamp_diff = declared_function(__name__, 'timestamp_diff')
to_date = declared_function(__name__, 'to_date')
to_timestamp = declared_function(__name__, 'to_timestamp')
to_timestamp_ltz = declared_function(__name__, 'to_timestamp_ltz')
unix_timestamp = declared_function(__name__, 'unix_timestamp')
uuid = declared_function(__name__, 'uuid')
with_all_columns = declared_function(__name__, 'with_all_columns')
with_columns = declared_function(__name__, 'with_columns')
without_columns = declared_function(__name__, 'without_columns')


def _bound(name: str) -> Expression:
    from sqlglot import exp

    return Expression(exp.Var(this=name))


#: The bounds of an over window (:class:`~pyflink_compat.table.window.Over`): every row or
#: every time before the current row, the current row, or its peers of equal time.
UNBOUNDED_ROW = _bound('UNBOUNDED_ROW')
UNBOUNDED_RANGE = _bound('UNBOUNDED_RANGE')
CURRENT_ROW = _bound('CURRENT_ROW')
CURRENT_RANGE = _bound('CURRENT_RANGE')


from pyflink_compat._reexports import with_reexports  # noqa: E402

__getattr__ = with_reexports(__name__)
