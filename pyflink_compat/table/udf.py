"""PyFlink module ``pyflink.table.udf``: Python user-defined functions.

Scalar functions (:func:`udf`), table functions (:func:`udtf`), aggregate functions
(:func:`udaf`) and table aggregate functions (:func:`udtaf`), made from a Python callable or a
subclass of :class:`ScalarFunction`, :class:`TableFunction`, :class:`AggregateFunction` or
:class:`TableAggregateFunction`. Called in the Table API (``f(col('a'))``, ``Table.map``...) or
registered for Flink SQL (``create_temporary_function``), they run as Spark Python UDFs
(:mod:`pyflink_compat.sql.python_functions`) with their declared result types.
"""
import abc
import functools
import inspect
from typing import Any, Callable, Dict, Generic, Iterable, List, Optional, Type, TypeVar, Union

from pyflink_compat.table.expression import Expression

__all__ = ['FunctionContext', 'AggregateFunction', 'ScalarFunction', 'TableFunction',
    'TableAggregateFunction', 'udf', 'udtf', 'udaf', 'udtaf']

T = TypeVar('T')
ACC = TypeVar('ACC')


class FunctionContext(object):
    """What :meth:`UserDefinedFunction.open` receives: the job's parameters.

    :param base_metric_group: The metric group (``None`` here: Spark's metrics are its own).
    :param job_parameters: The job's global parameters, by key.
    """

    def __init__(self, base_metric_group: Any, job_parameters: Optional[Dict[str, str]]):
        self._base_metric_group = base_metric_group
        self._job_parameters = dict(job_parameters or {})

    def get_metric_group(self) -> Any:
        """Not supported: Spark's Python workers report no Flink metrics."""
        from pyflink_compat.missing import NotSupportedError

        raise NotSupportedError("FunctionContext.get_metric_group",
                                "Count in Spark with an accumulator (spark.sparkContext.accumulator).")

    def get_job_parameter(self, key: str, default_value: str) -> str:
        """The job parameter ``key``, or ``default_value`` when it is not set."""
        return self._job_parameters.get(key, default_value)


class UserDefinedFunction(abc.ABC):  # noqa: B024 - PyFlink's base class, no abstract method
    """The base of the function classes: :meth:`open` runs once before the first call in each
    worker, :meth:`close` after the last."""

    def open(self, function_context: FunctionContext) -> None:  # noqa: B027
        """Prepare the function (called once per worker, before any call)."""
        pass

    def close(self) -> None:  # noqa: B027
        """Release what :meth:`open` took."""
        pass

    def is_deterministic(self) -> bool:
        """Whether the same arguments always give the same result (``True`` by default)."""
        return True


class ScalarFunction(UserDefinedFunction):
    """A function from values to one value: implement :meth:`eval`."""

    @abc.abstractmethod
    def eval(self, *args: Any) -> Any:
        """The result for the arguments ``args``."""
        pass


class TableFunction(UserDefinedFunction):
    """A function from values to rows: implement :meth:`eval` yielding (or returning an
    iterable of) the rows."""

    @abc.abstractmethod
    def eval(self, *args: Any) -> Iterable[Any]:
        """The rows for the arguments ``args``."""
        pass


class ImperativeAggregateFunction(UserDefinedFunction, Generic[T, ACC]):
    """The base of aggregate functions: an accumulator made by :meth:`create_accumulator`
    takes each row in :meth:`accumulate` (and gives it back in :meth:`retract`)."""

    @abc.abstractmethod
    def create_accumulator(self) -> ACC:
        """A new, empty accumulator."""
        pass

    @abc.abstractmethod
    def accumulate(self, accumulator: ACC, *args: Any) -> None:
        """Add the row ``args`` to ``accumulator``."""
        pass

    def retract(self, accumulator: ACC, *args: Any) -> None:
        """Take the row ``args`` back out of ``accumulator``."""
        pass

    def merge(self, accumulator: ACC, accumulators: Any) -> None:
        """Merge ``accumulators`` into ``accumulator``."""
        pass

    def get_result_type(self) -> Any:
        """The result type, when :func:`udaf` is given none."""
        raise RuntimeError("Method get_result_type is not implemented")

    def get_accumulator_type(self) -> Any:
        """The accumulator type, when :func:`udaf` is given none."""
        raise RuntimeError("Method get_accumulator_type is not implemented")


class AggregateFunction(ImperativeAggregateFunction):
    """An aggregate giving one value per group: implement :meth:`get_value`."""

    @abc.abstractmethod
    def get_value(self, accumulator: ACC) -> T:  # type: ignore[type-var]
        """The group's value from its accumulator."""
        pass


class TableAggregateFunction(ImperativeAggregateFunction):
    """An aggregate giving rows per group: implement :meth:`emit_value`."""

    @abc.abstractmethod
    def emit_value(self, accumulator: ACC) -> Iterable[T]:
        """The group's rows from its accumulator."""
        pass


class DelegatingScalarFunction(ScalarFunction):
    """A :class:`ScalarFunction` calling a plain Python callable."""

    def __init__(self, func: Callable[..., Any]):
        self.func = func

    def eval(self, *args: Any) -> Any:
        return self.func(*args)


class DelegationTableFunction(TableFunction):
    """A :class:`TableFunction` calling a plain Python callable."""

    def __init__(self, func: Callable[..., Any]):
        self.func = func

    def eval(self, *args: Any) -> Iterable[Any]:
        return self.func(*args)


class DelegatingPandasAggregateFunction(AggregateFunction):
    """A vectorized aggregate: the callable receives each argument's values as a
    ``pandas.Series`` and returns the group's value."""

    def __init__(self, func: Callable[..., Any]):
        self.func = func

    def get_value(self, accumulator: Any) -> Any:
        return accumulator[0]

    def create_accumulator(self) -> Any:
        return []

    def accumulate(self, accumulator: Any, *args: Any) -> None:
        accumulator.append(self.func(*args))


class PandasAggregateFunctionWrapper(object):
    """An :class:`AggregateFunction` called on whole ``pandas.Series``."""

    def __init__(self, func: AggregateFunction):
        self.func = func

    def open(self, function_context: FunctionContext) -> None:
        self.func.open(function_context)

    def eval(self, *args: Any) -> Any:
        accumulator = self.func.create_accumulator()
        self.func.accumulate(accumulator, *args)
        return self.func.get_value(accumulator)

    def close(self) -> None:
        self.func.close()


def _type_or_text(value: Any) -> bool:
    from pyflink_compat.sql.python_functions import is_data_type

    return isinstance(value, str) or is_data_type(value)


class UserDefinedFunctionWrapper(object):
    """A user function with what calling it needs: its input types, kind and name.

    :param func: The callable, or an instance of a function class.
    :param input_types: The declared input types (optional).
    :param func_type: ``"general"`` (one row a call) or ``"pandas"`` (vectorized).
    :param deterministic: Whether the function is deterministic (the function's own answer
        when omitted).
    :param name: Its name (the callable's name when omitted).
    """

    def __init__(self, func: Any, input_types: Any, func_type: str,
                 deterministic: Optional[bool] = None, name: Optional[str] = None):
        if inspect.isclass(func) or (
                not isinstance(func, UserDefinedFunction) and not callable(func)):
            raise TypeError(
                "Invalid function: not a function or callable (__call__ is not defined): {0}"
                .format(type(func)))
        if input_types is not None:
            from pyflink_compat.sql.python_functions import row_field_types

            fields = row_field_types(input_types)
            if fields is not None:
                input_types = fields
            elif _type_or_text(input_types):
                input_types = [input_types]
            else:
                input_types = list(input_types)
            for input_type in input_types:
                if not _type_or_text(input_type):
                    raise TypeError(
                        "Invalid input_type: input_type should be DataType or str but contains {}"
                        .format(input_type))
        self._func = func
        self._input_types = input_types
        self._name = name or (
            func.__name__ if hasattr(func, '__name__') else func.__class__.__name__)
        if deterministic is not None and isinstance(func, UserDefinedFunction) and \
                deterministic != func.is_deterministic():
            raise ValueError("Inconsistent deterministic: {} and {}".format(
                deterministic, func.is_deterministic()))
        self._deterministic = deterministic if deterministic is not None else (
            func.is_deterministic() if isinstance(func, UserDefinedFunction) else True)
        self._func_type = func_type
        self._judf_placeholder = None
        self._takes_row_as_input = False
        self._alias_names: tuple = ()

    def __call__(self, *args: Any) -> Expression:
        """The expression calling this function on ``args`` (expressions or literals)."""
        from pyflink_compat.table.expressions import call

        return call(self, *args)

    def alias(self, *alias_names: str) -> 'UserDefinedFunctionWrapper':
        """Name the function's result columns (for ``Table.map``, ``join_lateral``...)."""
        self._alias_names = alias_names
        return self

    def _set_takes_row_as_input(self) -> 'UserDefinedFunctionWrapper':
        self._takes_row_as_input = True
        return self

    def _create_delegate_function(self) -> Any:
        pass

    def _function_context(self) -> FunctionContext:
        """The context :meth:`UserDefinedFunction.open` receives in the workers."""
        return FunctionContext(None, {})


class UserDefinedScalarFunctionWrapper(UserDefinedFunctionWrapper):
    """A scalar function (:func:`udf`) with its result type."""

    def __init__(self, func: Any, input_types: Any, result_type: Any, func_type: str,
                 deterministic: Optional[bool], name: Optional[str]):
        super(UserDefinedScalarFunctionWrapper, self).__init__(
            func, input_types, func_type, deterministic, name)
        if not _type_or_text(result_type):
            raise TypeError(
                "Invalid returnType: returnType should be DataType or str but is {}".format(
                    result_type))
        self._result_type = result_type

    def _create_delegate_function(self) -> Any:
        if isinstance(self._func, UserDefinedFunction):
            return self._func
        return DelegatingScalarFunction(self._func)


class UserDefinedTableFunctionWrapper(UserDefinedFunctionWrapper):
    """A table function (:func:`udtf`) with the types of its result columns."""

    def __init__(self, func: Any, input_types: Any, result_types: Any,
                 deterministic: Optional[bool] = None, name: Optional[str] = None):
        super(UserDefinedTableFunctionWrapper, self).__init__(
            func, input_types, "general", deterministic, name)
        from pyflink_compat.sql.python_functions import row_field_types

        fields = row_field_types(result_types)
        if fields is not None:
            result_types = fields
        elif isinstance(result_types, str):
            result_types = result_types
        elif _type_or_text(result_types):
            result_types = [result_types]
        else:
            result_types = list(result_types)
        for result_type in (result_types if isinstance(result_types, list) else []):
            if not _type_or_text(result_type):
                raise TypeError(
                    "Invalid result_type: result_type should be DataType or str but contains {}"
                    .format(result_type))
        self._result_types = result_types

    def _create_delegate_function(self) -> Any:
        if isinstance(self._func, TableFunction):
            return self._func
        return DelegationTableFunction(self._func)


class UserDefinedAggregateFunctionWrapper(UserDefinedFunctionWrapper):
    """An aggregate (:func:`udaf`) or table aggregate (:func:`udtaf`) function with its result
    and accumulator types."""

    def __init__(self, func: Any, input_types: Any, result_type: Any, accumulator_type: Any,
                 func_type: str, deterministic: Optional[bool], name: Optional[str],
                 is_table_aggregate: bool = False):
        super(UserDefinedAggregateFunctionWrapper, self).__init__(
            func, input_types, func_type, deterministic, name)
        if accumulator_type is None and func_type == "general":
            accumulator_type = func.get_accumulator_type()
        if result_type is None:
            result_type = func.get_result_type()
        if not _type_or_text(result_type):
            raise TypeError(
                "Invalid returnType: returnType should be DataType or str but is {}"
                .format(result_type))
        if func_type == 'pandas' and type(result_type).__name__ == "MapType":
            raise TypeError(
                "Invalid returnType: Pandas UDAF doesn't support DataType type {} currently"
                .format(result_type))
        if accumulator_type is not None and not _type_or_text(accumulator_type):
            raise TypeError(
                "Invalid accumulator_type: accumulator_type should be DataType or str but is {}"
                .format(accumulator_type))
        if func_type == "general" and not (
                isinstance(result_type, str) or
                (not isinstance(result_type, str) and not isinstance(accumulator_type, str))):
            raise TypeError("result_type and accumulator_type should be DataType or str "
                            "at the same time.")
        self._result_type = result_type
        self._accumulator_type = accumulator_type
        self._is_table_aggregate = is_table_aggregate

    def _create_delegate_function(self) -> Any:
        if self._func_type == "pandas":
            if isinstance(self._func, AggregateFunction):
                return PandasAggregateFunctionWrapper(self._func)
            return DelegatingPandasAggregateFunction(self._func)
        return self._func


def _create_udf(f: Any, input_types: Any, result_type: Any, func_type: str,
                deterministic: Optional[bool], name: Optional[str]
                ) -> UserDefinedScalarFunctionWrapper:
    return UserDefinedScalarFunctionWrapper(f, input_types, result_type, func_type,
                                            deterministic, name)


def _create_udtf(f: Any, input_types: Any, result_types: Any, deterministic: Optional[bool],
                 name: Optional[str]) -> UserDefinedTableFunctionWrapper:
    return UserDefinedTableFunctionWrapper(f, input_types, result_types, deterministic, name)


def _create_udaf(f: Any, input_types: Any, result_type: Any, accumulator_type: Any,
                 func_type: str, deterministic: Optional[bool], name: Optional[str]
                 ) -> UserDefinedAggregateFunctionWrapper:
    return UserDefinedAggregateFunctionWrapper(f, input_types, result_type, accumulator_type,
                                               func_type, deterministic, name)


def _create_udtaf(f: Any, input_types: Any, result_type: Any, accumulator_type: Any,
                  func_type: str, deterministic: Optional[bool], name: Optional[str]
                  ) -> UserDefinedAggregateFunctionWrapper:
    return UserDefinedAggregateFunctionWrapper(f, input_types, result_type, accumulator_type,
                                               func_type, deterministic, name, True)


def udf(f: Union[Callable, ScalarFunction, Type] = None,
        input_types: Union[List[Any], Any, str, List[str]] = None,
        result_type: Union[Any, str] = None,
        deterministic: bool = None, name: str = None, func_type: str = "general",
        udf_type: str = None) -> Union[UserDefinedScalarFunctionWrapper, Callable]:
    """A scalar function of ``f`` (usable as a decorator): each call gives one value of
    ``result_type``; ``func_type="pandas"`` calls ``f`` on ``pandas.Series`` of a batch of rows.

    :param f: A callable or a :class:`ScalarFunction`.
    :param input_types: The input types (optional).
    :param result_type: The result type (a ``DataType`` or its SQL text, e.g. ``'BIGINT'``).
    :param deterministic: Whether ``f`` is deterministic (default ``True``).
    :param name: The function's name.
    :param func_type: ``"general"`` or ``"pandas"``.
    :param udf_type: The former name of ``func_type``.
    :return: The function, or a decorator making it.
    """
    if udf_type:
        import warnings

        warnings.warn("The param udf_type is deprecated in 1.12. Use func_type instead.",
                      stacklevel=2)
        func_type = udf_type
    if func_type not in ('general', 'pandas'):
        raise ValueError("The func_type must be one of 'general, pandas', got %s."
                         % func_type)
    if f is None:
        return functools.partial(_create_udf, input_types=input_types, result_type=result_type,
                                 func_type=func_type, deterministic=deterministic, name=name)
    return _create_udf(f, input_types, result_type, func_type, deterministic, name)


def udtf(f: Union[Callable, TableFunction, Type] = None,
         input_types: Union[List[Any], Any, str, List[str]] = None,
         result_types: Union[List[Any], Any, str, List[str]] = None,
         deterministic: bool = None,
         name: str = None) -> Union[UserDefinedTableFunctionWrapper, Callable]:
    """A table function of ``f`` (usable as a decorator): each call gives zero or more rows of
    ``result_types``.

    :param f: A generator function, a callable returning an iterable, or a
        :class:`TableFunction`.
    :param input_types: The input types (optional).
    :param result_types: The types of the result columns.
    :param deterministic: Whether ``f`` is deterministic (default ``True``).
    :param name: The function's name.
    :return: The function, or a decorator making it.
    """
    if f is None:
        return functools.partial(_create_udtf, input_types=input_types, result_types=result_types,
                                 deterministic=deterministic, name=name)
    return _create_udtf(f, input_types, result_types, deterministic, name)


def udaf(f: Union[Callable, AggregateFunction, Type] = None,
         input_types: Union[List[Any], Any, str, List[str]] = None,
         result_type: Union[Any, str] = None, accumulator_type: Union[Any, str] = None,
         deterministic: bool = None, name: str = None,
         func_type: str = "general") -> Union[UserDefinedAggregateFunctionWrapper, Callable]:
    """An aggregate function of ``f`` (usable as a decorator): an :class:`AggregateFunction`,
    or with ``func_type="pandas"`` a callable from ``pandas.Series`` to the group's value.

    :param f: The function.
    :param input_types: The input types (optional).
    :param result_type: The result type (``f.get_result_type()`` when omitted).
    :param accumulator_type: The accumulator type (``f.get_accumulator_type()`` when omitted).
    :param deterministic: Whether ``f`` is deterministic (default ``True``).
    :param name: The function's name.
    :param func_type: ``"general"`` or ``"pandas"``.
    :return: The function, or a decorator making it.
    """
    if func_type not in ('general', 'pandas'):
        raise ValueError("The func_type must be one of 'general, pandas', got %s."
                         % func_type)
    if f is None:
        return functools.partial(_create_udaf, input_types=input_types, result_type=result_type,
                                 accumulator_type=accumulator_type, func_type=func_type,
                                 deterministic=deterministic, name=name)
    return _create_udaf(f, input_types, result_type, accumulator_type, func_type,
                        deterministic, name)


def udtaf(f: Union[Callable, TableAggregateFunction, Type] = None,
          input_types: Union[List[Any], Any, str, List[str]] = None,
          result_type: Union[Any, str] = None,
          accumulator_type: Union[Any, str] = None,
          deterministic: bool = None, name: str = None,
          func_type: str = 'general') -> Union[UserDefinedAggregateFunctionWrapper, Callable]:
    """A table aggregate function of ``f``, a :class:`TableAggregateFunction` (usable as a
    decorator): each group gives the rows of its ``emit_value``.

    :param f: The function.
    :param input_types: The input types (optional).
    :param result_type: The type of its rows (``f.get_result_type()`` when omitted).
    :param accumulator_type: The accumulator type (``f.get_accumulator_type()`` when omitted).
    :param deterministic: Whether ``f`` is deterministic (default ``True``).
    :param name: The function's name.
    :param func_type: ``"general"`` only.
    :return: The function, or a decorator making it.
    """
    if func_type != 'general':
        raise ValueError("The func_type must be 'general', got %s." % func_type)
    if f is None:
        return functools.partial(_create_udtaf, input_types=input_types, result_type=result_type,
                                 accumulator_type=accumulator_type, func_type=func_type,
                                 deterministic=deterministic, name=name)
    return _create_udtaf(f, input_types, result_type, accumulator_type, func_type,
                         deterministic, name)


def _as_aggregate_wrapper(function: Any) -> Any:
    """``function`` as the wrapper a table runs: an aggregate function object wrapped with its
    declared result and accumulator types, anything else as it is."""
    if isinstance(function, AggregateFunction):
        return udaf(function, result_type=function.get_result_type(),
                    accumulator_type=function.get_accumulator_type(),
                    name=str(function.__class__.__name__))
    if isinstance(function, TableAggregateFunction):
        return udtaf(function, result_type=function.get_result_type(),
                     accumulator_type=function.get_accumulator_type(),
                     name=str(function.__class__.__name__))
    return function


from pyflink_compat._reexports import with_reexports  # noqa: E402

__getattr__ = with_reexports(__name__)
