"""Python user-defined functions of Flink SQL and the Table API, run as Spark Python UDFs.

A call of a user function in a query (a function registered with ``create_temporary_function``,
or a function object called in the Table API, whose call carries an *inline name*) is replaced,
when the query is planned, by a call of a Spark UDF registered under a fresh name:

- a scalar function (:func:`~pyflink_compat.table.udf.udf`) becomes a Spark Python UDF, or a
  pandas UDF for ``func_type="pandas"``, returning its declared result type (a ``ROW`` result
  is a struct);
- a table function (:func:`~pyflink_compat.table.udf.udtf`) becomes a UDF returning the array
  of its rows, expanded by ``LATERAL VIEW [OUTER] inline(...)`` where Flink joins with
  ``LATERAL TABLE(...)``;
- aggregate and table aggregate functions of ``aggregate`` / ``flat_aggregate`` (and the one
  aggregate function of a plain group aggregate) run per key in Spark's stateful operator
  (``applyInPandasWithState``), their accumulator kept, pickled, in the key's state
  (:func:`aggregate_frame`);
- any other call of an aggregate function in a grouped select (windows included) becomes a
  Python UDF over the group's arguments, collected by Spark's aggregation
  (:func:`resolve_calls`).

Values cross as PyFlink gives them: ``NULL`` is ``None``, a row argument is a
:class:`~pyflink_compat.common.Row` with its field names, and a result is converted to the
declared type (a ``Row`` or tuple to a struct, an ``int`` to a ``DOUBLE``...).
"""

from __future__ import annotations

import itertools
import pickle
import warnings
from typing import TYPE_CHECKING, Any, Dict, Iterator, List, Optional, Sequence, Tuple

if TYPE_CHECKING:
    from pyspark.sql import DataFrame, SparkSession
    from pyspark.sql.types import DataType as SparkType
    from sqlglot import exp

__all__ = ["aggregate_frame", "call_expression", "flink_type", "is_data_type",
           "register_inline", "resolve_calls", "row_field_types", "spark_type", "type_text"]

_names = itertools.count()
_INLINE_PREFIX = "pyflink_compat_inline_"
# the function objects called in Table API expressions, by the inline name their calls carry
_INLINE: Dict[str, Any] = {}


# ---------------------------------------------------------------------------------------------
# Declared types: a DataType object or its Flink SQL text
# ---------------------------------------------------------------------------------------------

def is_data_type(value: Any) -> bool:
    """Whether ``value`` is a :class:`~pyflink_compat.table.types.DataType`."""
    from pyflink_compat.table.types import DataType

    return isinstance(value, DataType)


def row_field_types(value: Any) -> Optional[List[Any]]:
    """The field types of a ``ROW`` ``DataType`` (``None`` for any other value)."""
    from pyflink_compat.table.types import RowType

    if isinstance(value, RowType):
        return [field.data_type for field in value.fields]
    return None


def type_text(value: Any) -> str:
    """The Flink SQL text of a declared type (a ``DataType`` or already text)."""
    if isinstance(value, str):
        return value
    from pyflink_compat.sql.data_types import type_text as data_type_text

    return data_type_text(value)


def flink_type(value: Any) -> "exp.DataType":
    """The parsed Flink type of a declared type."""
    from pyflink_compat.sql.types import parse_type

    return parse_type(type_text(value))


def spark_type(value: Any) -> "SparkType":
    """The Spark type holding values of a declared type."""
    from pyflink_compat.sql.types import to_spark

    return to_spark(flink_type(value))


# ---------------------------------------------------------------------------------------------
# Values between Spark and the user's function
# ---------------------------------------------------------------------------------------------

def _to_flink_value(value: Any) -> Any:
    """A Spark value as PyFlink gives it to a function (a struct is a named ``Row``)."""
    from pyspark.sql import Row as SparkRow

    if isinstance(value, SparkRow):
        from pyflink_compat.common.types import Row

        row = Row(*[_to_flink_value(v) for v in value])
        fields = getattr(value, "__fields__", None)
        if fields:
            row.set_field_names(list(fields))
        return row
    if isinstance(value, list):
        return [_to_flink_value(v) for v in value]
    if isinstance(value, dict):
        return {_to_flink_value(k): _to_flink_value(v) for k, v in value.items()}
    return value


def _to_spark_value(value: Any, data_type: "SparkType") -> Any:
    """A function's result as Spark holds a value of ``data_type``."""
    from pyspark.sql import types as st

    if value is None:
        return None
    if type(value).__module__ == "numpy" and hasattr(value, "item"):
        # a numpy scalar (a pandas function's value): pyspark 3.5's pickler takes no numpy types
        value = value.item()
    if isinstance(data_type, st.StructType):
        if isinstance(value, dict):
            value = [value.get(f.name) for f in data_type.fields]
        elif not isinstance(value, (tuple, list)) and not hasattr(value, "_values"):
            value = [value]
        return tuple(_to_spark_value(v, f.dataType) for v, f in zip(list(value), data_type.fields))
    if isinstance(data_type, st.ArrayType):
        return [_to_spark_value(v, data_type.elementType) for v in value]
    if isinstance(data_type, st.MapType):
        return {_to_spark_value(k, data_type.keyType): _to_spark_value(v, data_type.valueType)
                for k, v in value.items()}
    if isinstance(data_type, (st.DoubleType, st.FloatType)) and isinstance(value, int) \
            and not isinstance(value, bool):
        return float(value)
    if isinstance(data_type, st.DecimalType) and isinstance(value, (int, float)) \
            and not isinstance(value, bool):
        import decimal

        return decimal.Decimal(str(value))
    return value


def _table_rows(result: Any) -> List[Any]:
    """The rows a table function gave (PyFlink's reading: a list, range or generator holds
    rows; anything else is one row)."""
    import types

    if result is None:
        return []
    if isinstance(result, (list, range, types.GeneratorType)):
        return list(result)
    return [result]


def _one_row(value: Any) -> List[Any]:
    from pyflink_compat.common.types import Row

    if isinstance(value, tuple):
        return list(value)
    if isinstance(value, Row):
        return list(value)
    return [value]


class _Opened(object):
    """A user function, opened on its first call in a Python worker."""

    def __init__(self, wrapper: Any):
        self.function = wrapper._create_delegate_function()
        self.context = wrapper._function_context()
        self.opened = False

    def get(self) -> Any:
        if not self.opened:
            open_ = getattr(self.function, "open", None)
            if open_ is not None:
                open_(self.context)
            self.opened = True
        return self.function


def _scalar_udf(wrapper: Any) -> Any:
    from pyspark.sql import functions as F

    result_type = spark_type(wrapper._result_type)
    holder = _Opened(wrapper)

    if wrapper._func_type == "pandas":
        names = list(result_type.names) if hasattr(result_type, "names") else None

        def vectorized(*columns: Any) -> Any:
            result = holder.get().eval(*columns)
            if names is not None and hasattr(result, "columns"):
                result = result.copy()
                result.columns = names
            return result

        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return F.pandas_udf(vectorized, result_type, 200)  # type: ignore[call-overload]

    def scalar(*args: Any) -> Any:
        return _to_spark_value(holder.get().eval(*[_to_flink_value(a) for a in args]),
                               result_type)

    return F.udf(scalar, result_type)


def _table_udf(wrapper: Any) -> Tuple[Any, List[str]]:
    """A UDF giving the array of a table function's rows, and its columns' names."""
    from pyspark.sql import functions as F
    from pyspark.sql import types as st

    declared = wrapper._result_types
    if isinstance(declared, str):
        row = spark_type(declared)
        fields = list(row.fields) if isinstance(row, st.StructType) else [
            st.StructField("f0", row)]
    else:
        fields = [st.StructField("f{}".format(i), spark_type(t)) for i, t in enumerate(declared)]
    row_type = st.StructType(fields)
    holder = _Opened(wrapper)

    def rows(*args: Any) -> Any:
        produced = _table_rows(holder.get().eval(*[_to_flink_value(a) for a in args]))
        return [_to_spark_value(_one_row(r), row_type) for r in produced]

    return F.udf(rows, st.ArrayType(row_type)), [f.name for f in fields]


# ---------------------------------------------------------------------------------------------
# Calls in queries
# ---------------------------------------------------------------------------------------------

def register_inline(function: Any) -> str:
    """The inline name under which calls of the function object ``function`` are written."""
    name = getattr(function, "_inline_name", None)
    if name is None:
        name = "{}{}".format(_INLINE_PREFIX, next(_names))
        function._inline_name = name
        _INLINE[name] = function
    return str(name)


def call_expression(function: Any, arguments: Sequence["exp.Expression"]) -> "exp.Expression":
    """The tree of a call of ``function`` (a registered name, or a function object)."""
    from sqlglot import exp

    name = function if isinstance(function, str) else register_inline(function)
    node = exp.Anonymous(this=name, expressions=list(arguments))
    if not isinstance(function, str) and hasattr(function, "_result_type") \
            and not getattr(function, "_is_table_aggregate", None) \
            and type(function).__name__ == "UserDefinedScalarFunctionWrapper":
        node.meta["flink_type"] = flink_type(function._result_type)
    return node


def _lookup(name: str, functions: Dict[str, Any]) -> Any:
    if name.startswith(_INLINE_PREFIX):
        return _INLINE.get(name)
    return functions.get(name.lower())


def _kind(function: Any) -> str:
    return type(function).__name__


def _fresh_name(function: Any) -> str:
    return "pyflink_udf_{}_{}".format(
        "".join(c if c.isalnum() else "_" for c in str(function._name))[:40], next(_names))


def _lateral_function(lateral: "exp.Lateral") -> Optional["exp.Anonymous"]:
    from sqlglot import exp

    inner = lateral.this
    if isinstance(inner, exp.Anonymous) and str(inner.this).upper() == "TABLE" \
            and len(inner.expressions) == 1 and isinstance(inner.expressions[0], exp.Anonymous):
        return inner.expressions[0]
    return None


def _lateral_views(select: "exp.Select", functions: Dict[str, Any],
                   spark: "SparkSession") -> None:
    """Flink's ``[LEFT JOIN | , | CROSS JOIN] LATERAL TABLE(f(...)) AS t(a, b)`` of ``select``
    as Spark's ``LATERAL VIEW [OUTER] inline(...) t AS a, b``."""
    from sqlglot import exp

    from pyflink_compat.missing import NotSupportedError

    joins = select.args.get("joins") or []
    kept = []
    for join in joins:
        lateral = join.this
        call = _lateral_function(lateral) if isinstance(lateral, exp.Lateral) else None
        if call is None:
            kept.append(join)
            continue
        function = _lookup(str(call.this), functions)
        if function is None or _kind(function) != "UserDefinedTableFunctionWrapper":
            raise NotSupportedError(
                "LATERAL TABLE of '{}'".format(call.this),
                "Only Python table functions (udtf) are joined laterally; register one with "
                "create_temporary_function.")
        side = (join.args.get("side") or "").upper()
        condition = join.args.get("on")
        if side == "LEFT" and not (condition is None or (
                isinstance(condition, exp.Boolean) and condition.this is True)):
            raise NotSupportedError(
                "A LEFT JOIN LATERAL TABLE with a condition other than ON TRUE",
                "Filter the joined rows in a WHERE clause.")
        udf, columns = _table_udf(function)
        spark_name = _fresh_name(function)
        spark.udf.register(spark_name, udf)
        alias = lateral.args.get("alias")
        table_name = alias.name if alias is not None and alias.name else "T{}".format(next(_names))
        names = [c.name for c in alias.columns] if alias is not None and alias.columns else columns
        generated = exp.Anonymous(this=spark_name, expressions=call.expressions)
        view = exp.Lateral(
            this=exp.Anonymous(this="inline_outer" if side == "LEFT" else "inline",
                               expressions=[generated]),
            view=True, outer=False,
            alias=exp.TableAlias(this=exp.to_identifier(table_name),
                                 columns=[exp.to_identifier(n, quoted=True) for n in names]))
        select.append("laterals", view)
    select.set("joins", kept or None)


def resolve_calls(tree: "exp.Expression", functions: Dict[str, Any],
                  spark: "SparkSession", streaming: bool = True) -> "exp.Expression":
    """``tree`` with its calls of user functions replaced by calls of Spark UDFs registered in
    ``spark``, and its lateral joins of table functions by lateral views.

    :param tree: A parsed Flink query (changed in place).
    :param functions: The environment's functions, by lower-case name.
    :param spark: The session to register the UDFs in.
    :param streaming: Whether the query runs in streaming mode, where Flink has no group
        aggregate (without a window) of pandas aggregate functions.
    :raises NotSupportedError: For a table (aggregate) function called as a scalar.
    :raises TableException: For a pandas aggregate function in a streaming group aggregate.
    """
    from sqlglot import exp

    from pyflink_compat.missing import NotSupportedError

    for select in list(tree.find_all(exp.Select)):
        _lateral_views(select, functions, spark)
    for node in list(tree.find_all(exp.Anonymous)):
        function = _lookup(str(node.this), functions)
        if _kind(function) == "UserDefinedAggregateFunctionWrapper" \
                and function._func_type == "pandas":
            _check_pandas_aggregate(node, functions, streaming)
    for node in list(tree.find_all(exp.Anonymous)):
        function = _lookup(str(node.this), functions)
        if function is None:
            continue
        kind = _kind(function)
        if kind == "UserDefinedAggregateFunctionWrapper" and not function._is_table_aggregate:
            node.replace(_aggregate_call(function, node, spark))
            continue
        if kind != "UserDefinedScalarFunctionWrapper":
            raise NotSupportedError(
                "Calling the Python {} '{}' in a SQL expression".format(
                    "table function" if kind == "UserDefinedTableFunctionWrapper"
                    else "table aggregate function", function._name),
                "Use it from the Table API (join_lateral, flat_map, "
                "group_by(...).flat_aggregate) or compute it with PySpark "
                "(groupBy().applyInPandas).")
        spark_name = _fresh_name(function)
        spark.udf.register(spark_name, _scalar_udf(function))
        replacement = exp.Anonymous(this=spark_name, expressions=node.expressions)
        replacement.meta["flink_type"] = flink_type(function._result_type)
        node.replace(replacement)
    return tree


def _check_pandas_aggregate(call: "exp.Anonymous", functions: Dict[str, Any],
                            streaming: bool) -> None:
    """Refuse the pandas aggregate ``call`` where Flink's planner has no plan for it: in a
    streaming group aggregate, in a windowing table function's aggregation, and beside a
    general Python aggregate function."""
    from sqlglot import exp

    from pyflink_compat.util.exceptions import TableException, java_error

    select = call.find_ancestor(exp.Select)
    group = select.args.get("group") if select is not None else None
    session = group is not None and any(
        isinstance(g, exp.Anonymous) and str(g.this).upper() == "SESSION"
        for g in group.expressions)
    problem = None
    if streaming and not _grouped_by_window(select):
        problem = "a pandas aggregate function in a streaming group aggregate"
    elif select is not None and select.meta.get("window_table_function"):
        problem = "a pandas aggregate function in a windowing table function's aggregation"
    elif session:
        raise TableException("org.apache.flink.table.api.TableException: Sql optimization: "
                             "Cannot generate a valid execution plan for the given query: a "
                             "pandas aggregate function in a session window")
    elif select is not None and any(
            _kind(f) == "UserDefinedAggregateFunctionWrapper" and f._func_type == "general"
            for f in (_lookup(str(n.this), functions) for n in select.find_all(exp.Anonymous))):
        problem = "pandas and general Python aggregate functions in one aggregation"
    elif select is not None and any(e.find(exp.AggFunc) is not None for e in select.expressions):
        # Flink 1.20.5's planner fails on a pandas aggregate beside a built-in one in a window
        raise java_error("java.lang.NullPointerException", None, "o0.executeSql")
    if problem is not None:
        raise TableException("org.apache.flink.table.api.TableException: Cannot generate a "
                             "valid execution plan for the given query: " + problem)


def _grouped_by_window(select: Optional["exp.Select"]) -> bool:
    """Whether ``select`` groups by a legacy group window (``TUMBLE(ts, ...)`` and the like)."""
    from sqlglot import exp

    group = select.args.get("group") if select is not None else None
    return group is not None and any(
        isinstance(g, exp.Anonymous) and str(g.this).upper() in ("TUMBLE", "HOP", "SESSION")
        for g in group.expressions)


def _aggregate_call(function: Any, call: "exp.Anonymous",
                    spark: "SparkSession") -> "exp.Expression":
    """The Spark expression of the Python aggregate ``call`` in a grouped select.

    Spark's aggregations (window aggregations and streaming group aggregates alike) take
    built-in aggregates only: the group's rows (the call's arguments) are collected by
    ``collect_list``, kept in the aggregation's state, and a Python UDF runs the function over
    them when the group's row is emitted (a window firing, an updated key); the Spark type of
    the collected rows goes with them, so that a pandas function gets Series of PyFlink's
    dtypes.
    """
    from sqlglot import exp

    fields: List[exp.Expression] = []
    for position, argument in enumerate(call.expressions):
        fields.extend([exp.Literal.string("f{}".format(position)), argument.copy()])
    collected = exp.ArrayAgg(this=exp.Anonymous(this="named_struct", expressions=fields))
    spark_name = _fresh_name(function)
    spark.udf.register(spark_name, _aggregate_udf(function))
    replacement = exp.Anonymous(this=spark_name, expressions=[
        collected, exp.Anonymous(this="typeof", expressions=[collected.copy()])])
    replacement.meta["flink_type"] = flink_type(function._result_type)
    return replacement


def _aggregate_udf(wrapper: Any) -> Any:
    """The UDF giving an aggregate function's value over a group's collected rows."""
    from pyspark.sql import functions as F

    result_type = spark_type(wrapper._result_type)
    holder = _Opened(wrapper)
    pandas = wrapper._func_type == "pandas"

    def value(rows: Any, rows_type: Any) -> Any:
        aggregate = holder.get()
        rows = list(rows or [])
        if pandas:
            result = _pandas_value(aggregate, _series(rows, rows_type))
        else:
            accumulator = aggregate.create_accumulator()
            for row in rows:
                aggregate.accumulate(accumulator, *[_to_flink_value(v) for v in row])
            result = aggregate.get_value(accumulator)
        return _to_spark_value(_plain(result, False), result_type)

    with warnings.catch_warnings():
        # the hints are Python's, not the pandas ones Spark reads a UDF's kind from
        warnings.simplefilter("ignore", UserWarning)
        return F.udf(value, result_type)


def _pandas_value(aggregate: Any, series: Sequence[Any]) -> Any:
    """A pandas aggregate function's value over its arguments' ``series``."""
    if hasattr(aggregate, "eval"):
        return aggregate.eval(*series)
    accumulator = aggregate.create_accumulator()
    aggregate.accumulate(accumulator, *series)
    return aggregate.get_value(accumulator)


# the pandas dtypes PyFlink gives a pandas function's arguments, by Spark's type name
_ARROW_TYPES = {"tinyint": "int8", "smallint": "int16", "int": "int32", "bigint": "int64",
                "float": "float32", "double": "float64", "boolean": "bool_", "string": "string"}


def _series(rows: List[Any], rows_type: str) -> List[Any]:
    """The arguments of a pandas function over ``rows`` (structs ``f0``, ``f1``... of the
    arguments, their Spark type ``rows_type`` as ``typeof`` writes it): one Series each."""
    import pyarrow as pa  # type: ignore[import-untyped]

    inner = rows_type[len("array<struct<"):-2] if rows_type.startswith("array<struct<") else ""
    types: List[str] = []
    depth = 0
    current = ""
    for char in inner:
        if char == "," and depth == 0:
            types.append(current)
            current = ""
            continue
        depth += char in "<("
        depth -= char in ">)"
        current += char
    if current:
        types.append(current)
    series = []
    for position, field in enumerate(types):
        type_name = field.split(":", 1)[1] if ":" in field else ""
        values = [_to_flink_value(row[position]) for row in rows]
        arrow_name = _ARROW_TYPES.get(type_name)
        array = pa.array(values, type=getattr(pa, arrow_name)()) if arrow_name else pa.array(values)
        series.append(array.to_pandas())
    return series


def function_of(name: str, functions: Dict[str, Any]) -> Any:
    """The function object of a call's name (inline or registered), or ``None``."""
    return _lookup(name, functions)


# ---------------------------------------------------------------------------------------------
# Aggregates
# ---------------------------------------------------------------------------------------------

def keeps_accumulators_in_state() -> bool:
    """Whether the installed pyspark keeps a Python accumulator per key in its state
    (``applyInPandasWithState``): pyspark 4. pyspark 3.5's reader of that operator's input fails
    with the pandas and pyarrow releases this package installs."""
    import pyspark

    return int(pyspark.__version__.split(".")[0]) >= 4


def aggregate_frame(frame: "DataFrame", keys: Sequence[str], arguments: Sequence[str],
                    function: Any, names: Sequence[str],
                    row_field_names: Optional[Sequence[str]] = None) -> "DataFrame":
    """The rows of the aggregate (or table aggregate) ``function`` over ``frame``'s rows grouped
    by the columns ``keys``: the keys, then the function's result columns named ``names``.

    Each key's accumulator lives in Spark's state, pickled; every micro-batch accumulates the
    key's new rows and emits the key's value (``get_value``) or rows (``emit_value``).

    :param arguments: The columns passed to ``accumulate`` (one ``Row`` of them when the
        function takes the row).
    :param row_field_names: The field names of that ``Row`` (``arguments`` when omitted).
    """
    from pyspark.sql import functions as F
    from pyspark.sql import types as st
    from pyspark.sql.streaming.state import GroupStateTimeout

    if not keeps_accumulators_in_state():
        import pyspark

        from pyflink_compat.missing import NotSupportedError

        raise NotSupportedError(
            "A Python aggregate function's accumulator kept per key on pyspark {} (its "
            "applyInPandasWithState fails with the installed pandas and pyarrow)".format(
                pyspark.__version__),
            "Install pyspark 4, or call the function from Flink SQL (SELECT k, f(v) ... GROUP BY "
            "k), which keeps each group's rows instead.")
    if not keys:
        # Spark's stateful operator needs a key: the whole table is one group
        whole = aggregate_frame(frame.withColumn("__group", F.lit(0)), ["__group"], arguments,
                                function, names, row_field_names)
        return whole.drop("__group")

    table_aggregate = bool(function._is_table_aggregate)
    result_type = spark_type(function._result_type)
    if isinstance(result_type, st.StructType):
        result_fields = list(result_type.fields)
    else:
        result_fields = [st.StructField("f0", result_type)]
    key_fields = [frame.schema[k] for k in keys]
    output = st.StructType(
        [st.StructField(f.name, f.dataType, True) for f in key_fields] +
        [st.StructField(n, f.dataType, True) for n, f in zip(names, result_fields)])
    state_type = st.StructType([st.StructField("accumulator", st.BinaryType())])
    takes_row = bool(function._takes_row_as_input)
    argument_names = list(arguments)
    pandas = function._func_type == "pandas"
    row_type = st.StructType(result_fields)
    holder = _Opened(function)
    integral = [isinstance(frame.schema[a].dataType, (st.LongType, st.IntegerType, st.ShortType,
                                                      st.ByteType)) for a in argument_names]
    row_names = list(row_field_names) if row_field_names is not None else argument_names

    def run(key: Tuple[Any, ...], batches: Iterator[Any], state: Any) -> Iterator[Any]:
        import pandas as pd  # type: ignore[import-untyped]

        from pyflink_compat.common.types import Row

        aggregate = holder.get()
        if state.exists:
            accumulator = pickle.loads(state.get[0])
        else:
            accumulator = [] if pandas else aggregate.create_accumulator()
        for batch in batches:
            if pandas:
                accumulator.append(batch[argument_names])
                continue
            for values in batch[argument_names].itertuples(index=False, name=None):
                values = [None if _missing(v) else _plain(v, whole)
                          for v, whole in zip(values, integral)]
                if takes_row:
                    row = Row(*values)
                    row.set_field_names(row_names)
                    aggregate.accumulate(accumulator, row)
                else:
                    aggregate.accumulate(accumulator, *values)
        state.update((pickle.dumps(accumulator),))
        if pandas:
            seen = pd.concat(accumulator, ignore_index=True)
            results = [_pandas_value(aggregate, [seen[c] for c in argument_names])]
        elif table_aggregate:
            results = list(aggregate.emit_value(accumulator) or [])
        else:
            results = [aggregate.get_value(accumulator)]
        rows = [tuple(key) + tuple(_to_spark_value(_one_row(r), row_type)) for r in results]
        yield pd.DataFrame.from_records(rows, columns=[f.name for f in output.fields])

    grouped = frame.groupBy(*keys) if keys else frame.groupBy()
    # a table aggregate's rows are appended (its input is bounded: one final emission a key)
    return grouped.applyInPandasWithState(run, output, state_type,
                                          "append" if table_aggregate else "update",
                                          GroupStateTimeout.NoTimeout)


def _missing(value: Any) -> bool:
    try:
        return bool(value != value)  # NaN / NaT stand for NULL in pandas
    except (TypeError, ValueError):
        return value is None


def _plain(value: Any, integral: bool) -> Any:
    """A pandas / numpy scalar as the Python value PyFlink passes."""
    item = getattr(value, "item", None)
    if item is not None and type(value).__module__ == "numpy":
        value = item()
    if integral and isinstance(value, float):
        return int(value)  # an integer column with NULLs arrives as floats
    to_datetime = getattr(value, "to_pydatetime", None)
    if to_datetime is not None:
        return to_datetime()
    return value


__all__ += ["function_of"]
