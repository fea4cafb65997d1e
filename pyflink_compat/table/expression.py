"""PyFlink module ``pyflink.table.expression``: :class:`Expression` runs (its trees become
Flink SQL expressions of the Table API's queries); the other names are declared.

Using a declared name below raises :class:`~pyflink_compat.missing.NotSupportedError`,
naming the PySpark way to do the same.
"""
from typing import Any, Callable, Generic, TypeVar

from pyflink_compat.missing.declared import Declared

T = TypeVar('T')

__all__ = ['Expression', 'TimeIntervalUnit', 'TimePointUnit', 'JsonType', 'JsonExistsOnError',
    'JsonValueOnEmptyOrError', 'JsonQueryWrapper', 'JsonQueryOnEmptyOrError']


def _tree(value: Any) -> Any:
    """The sqlglot tree of an expression or a Python literal."""
    from sqlglot import exp

    if isinstance(value, Expression):
        return value._j_expr
    if value is None:
        return exp.Null()
    if isinstance(value, bool):
        return exp.Boolean(this=value)
    if isinstance(value, (int, float)):
        return exp.Literal.number(value)
    if isinstance(value, str):
        return exp.Literal.string(value)
    raise TypeError("Unsupported literal in a Table API expression: {!r}".format(value))


def _binary(kind: str) -> Callable[..., 'Expression']:
    def operator(self: 'Expression', other: Any) -> 'Expression':
        from sqlglot import exp

        return Expression(getattr(exp, kind)(this=self._j_expr.copy(), expression=_tree(other).copy()))

    return operator


def _reflected(kind: str) -> Callable[..., 'Expression']:
    def operator(self: 'Expression', other: Any) -> 'Expression':
        from sqlglot import exp

        return Expression(getattr(exp, kind)(this=_tree(other).copy(), expression=self._j_expr.copy()))

    return operator


def _aggregate(kind: str) -> Any:
    def getter(self: 'Expression') -> 'Expression':
        from sqlglot import exp

        return Expression(getattr(exp, kind)(this=self._j_expr.copy()))

    return property(getter)


def _interval(unit: str) -> Any:
    def getter(self: 'Expression') -> 'Expression':
        from sqlglot import exp

        amount = self._j_expr.name if isinstance(self._j_expr, exp.Literal) else self._j_expr.sql()
        return Expression(exp.Interval(this=exp.Literal.string(amount), unit=exp.Var(this=unit)))

    return property(getter)


def _window_property(name: str) -> Any:
    def getter(self: 'Expression') -> 'Expression':
        from sqlglot import exp

        return Expression(exp.Anonymous(this=name, expressions=[self._j_expr.copy()]))

    return property(getter)


class Expression(Generic[T]):
    """A Table API expression: a column, a literal, or a computation over them (``col("a") + 1``,
    ``col("b").sum``, ``(col("a") > 2).alias("big")``). It holds the Flink SQL expression it
    stands for, which the query's Flink SQL semantics then apply to.

    :param j_expr: The expression's tree (in PyFlink, the JVM expression).
    """

    def __init__(self, j_expr: Any):
        self._j_expr = j_expr

    def __str__(self) -> str:
        from pyflink_compat.sql.dialect import Flink

        return str(self._j_expr.sql(Flink))

    def __getattr__(self, name: str) -> Any:
        # PyFlink's other expression methods are declared: using one says so at the call.
        if name.startswith("_"):
            raise AttributeError(name)
        from pyflink_compat.missing import not_supported

        raise not_supported("Expression." + name, "pyflink.table.expression")

    __add__ = _binary("Add")
    __radd__ = _reflected("Add")
    __sub__ = _binary("Sub")
    __rsub__ = _reflected("Sub")
    __mul__ = _binary("Mul")
    __rmul__ = _reflected("Mul")
    __truediv__ = _binary("Div")
    __rtruediv__ = _reflected("Div")
    __mod__ = _binary("Mod")
    __rmod__ = _reflected("Mod")
    __eq__ = _binary("EQ")  # type: ignore[assignment]
    __ne__ = _binary("NEQ")  # type: ignore[assignment]
    __lt__ = _binary("LT")
    __le__ = _binary("LTE")
    __gt__ = _binary("GT")
    __ge__ = _binary("GTE")
    __and__ = _binary("And")
    __rand__ = _reflected("And")
    __or__ = _binary("Or")
    __ror__ = _reflected("Or")
    __hash__ = object.__hash__

    def __invert__(self) -> 'Expression':
        from sqlglot import exp

        return Expression(exp.Not(this=exp.Paren(this=self._j_expr.copy())))

    def __neg__(self) -> 'Expression':
        from sqlglot import exp

        return Expression(exp.Neg(this=self._j_expr.copy()))

    # a number as a time interval (lit(10).seconds): the size of a window
    day = days = _interval("DAY")
    hour = hours = _interval("HOUR")
    minute = minutes = _interval("MINUTE")
    second = seconds = _interval("SECOND")
    milli = millis = _interval("MILLISECOND")

    # the properties of a group window (col('w').start), read in its select
    start = _window_property("START")
    end = _window_property("END")
    rowtime = _window_property("ROWTIME")
    proctime = _window_property("PROCTIME")

    sum = _aggregate("Sum")
    min = _aggregate("Min")
    max = _aggregate("Max")
    count = _aggregate("Count")
    avg = _aggregate("Avg")

    @property
    def asc(self) -> 'Expression':
        """This expression, sorted ascending (in :meth:`~pyflink_compat.table.Table.order_by`)."""
        from sqlglot import exp

        return Expression(exp.Ordered(this=self._j_expr.copy(), desc=False))

    @property
    def desc(self) -> 'Expression':
        """This expression, sorted descending (in :meth:`~pyflink_compat.table.Table.order_by`)."""
        from sqlglot import exp

        return Expression(exp.Ordered(this=self._j_expr.copy(), desc=True))

    def over(self, alias: Any) -> 'Expression':
        """This aggregate over the over window named ``alias`` (``col('w')``) of
        :meth:`~pyflink_compat.table.Table.over_window`."""
        from sqlglot import exp

        return Expression(exp.Window(this=self._j_expr.copy(), alias=exp.to_identifier(
            _tree(alias).name)))

    @property
    def is_null(self) -> 'Expression':
        from sqlglot import exp

        return Expression(exp.Is(this=self._j_expr.copy(), expression=exp.Null()))

    @property
    def is_not_null(self) -> 'Expression':
        from sqlglot import exp

        return Expression(exp.Not(this=exp.Is(this=self._j_expr.copy(), expression=exp.Null())))

    @property
    def upper_case(self) -> 'Expression':
        from sqlglot import exp

        return Expression(exp.Upper(this=self._j_expr.copy()))

    @property
    def lower_case(self) -> 'Expression':
        from sqlglot import exp

        return Expression(exp.Lower(this=self._j_expr.copy()))

    def alias(self, name: str, *extra_names: str) -> 'Expression':
        """This expression named ``name``."""
        from sqlglot import exp

        if extra_names and isinstance(self._j_expr, exp.Anonymous):
            # the names of a function's result columns (join_lateral, aggregate...)
            return Expression(exp.Aliases(this=self._j_expr.copy(), expressions=[
                exp.to_identifier(n, quoted=True) for n in (name,) + extra_names]))
        if extra_names:
            from pyflink_compat.missing import NotSupportedError

            raise NotSupportedError("Expression.alias with several names",
                                    "Name each column of the select separately.")
        return Expression(exp.alias_(self._j_expr.copy(), name, quoted=True))

    def like(self, pattern: Any = None) -> 'Expression':
        from sqlglot import exp

        return Expression(exp.Like(this=self._j_expr.copy(), expression=_tree(pattern)))

    def cast(self, data_type: Any) -> 'Expression':
        """This expression cast to ``data_type`` (a
        :class:`~pyflink_compat.table.types.DataType`), as SQL's ``CAST``."""
        from sqlglot import exp

        from pyflink_compat.sql.data_types import to_flink_type

        return Expression(exp.Cast(this=self._j_expr.copy(), to=to_flink_type(data_type)))

    @property
    def to_date(self) -> 'Expression':
        """This date text (``yyyy-MM-dd``) as a ``DATE``."""
        from pyflink_compat.table.types import DataTypes

        return self.cast(DataTypes.DATE())

    @property
    def to_time(self) -> 'Expression':
        """This time text (``HH:mm:ss``) as a ``TIME``."""
        from pyflink_compat.table.types import DataTypes

        return self.cast(DataTypes.TIME())

    @property
    def to_timestamp(self) -> 'Expression':
        """This timestamp text (``yyyy-MM-dd HH:mm:ss[.SSS]``) as a ``TIMESTAMP(3)``."""
        from pyflink_compat.table.types import DataTypes

        return self.cast(DataTypes.TIMESTAMP(3))

    def json_value(self, path: str, returning_type: Any = None, on_empty: Any = None,
                   default_on_empty: Any = None, on_error: Any = None,
                   default_on_error: Any = None) -> 'Expression':
        """The scalar at the JSON path ``path`` of this JSON text, as ``returning_type``
        (``STRING`` when none), as SQL's ``JSON_VALUE``: NULL when the path finds nothing, an
        object or an array, or the text is no JSON."""
        from sqlglot import exp

        from pyflink_compat.table.types import VarCharType

        if any(v is not None and getattr(v, "name", "NULL") != "NULL"
               for v in (on_empty, on_error)) or default_on_empty is not None \
                or default_on_error is not None:
            from pyflink_compat.missing import NotSupportedError

            raise NotSupportedError("Expression.json_value with ON EMPTY / ON ERROR behaviour",
                                    "Handle the NULL it gives with coalesce(...), or use "
                                    "pyspark.sql.functions.get_json_object.")
        call: "Expression[Any]" = Expression(exp.Anonymous(this="JSON_VALUE", expressions=[
            self._j_expr.copy(), exp.Literal.string(path)]))
        if returning_type is None or isinstance(returning_type, VarCharType) \
                and returning_type.length == 0x7fffffff:
            return call
        return call.cast(returning_type)


class JsonExistsOnError(Declared):
    pass


class JsonOnNull(Declared):
    pass


class JsonQueryOnEmptyOrError(Declared):
    pass


class JsonQueryWrapper(Declared):
    pass


class JsonType(Declared):
    pass


class JsonValueOnEmptyOrError(Declared):
    pass


class TimeIntervalUnit(Declared):
    pass


class TimePointUnit(Declared):
    pass


from pyflink_compat._reexports import with_reexports  # noqa: E402

__getattr__ = with_reexports(__name__)
