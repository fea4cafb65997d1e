"""Declared PyFlink module ``pyflink.table.udf``.

Using a name below raises :class:`~pyflink_compat.missing.NotSupportedError`,
naming the PySpark way to do the same.
Written by ``tests/parity/generate_declared_modules.py`` from the recorded import
surface of PyFlink 1.20.5.
"""
from pyflink_compat.missing.declared import Declared, declared_function

__all__ = ['FunctionContext', 'AggregateFunction', 'ScalarFunction', 'TableFunction',
    'TableAggregateFunction', 'udf', 'udtf', 'udaf', 'udtaf']

udaf = declared_function(__name__, 'udaf')
udf = declared_function(__name__, 'udf')
udtaf = declared_function(__name__, 'udtaf')
udtf = declared_function(__name__, 'udtf')


class AggregateFunction(Declared):
    pass


class DelegatingPandasAggregateFunction(Declared):
    pass


class DelegatingScalarFunction(Declared):
    pass


class DelegationTableFunction(Declared):
    pass


class FunctionContext(Declared):
    pass


class ImperativeAggregateFunction(Declared):
    pass


class PandasAggregateFunctionWrapper(Declared):
    pass


class ScalarFunction(Declared):
    pass


class TableAggregateFunction(Declared):
    pass


class TableFunction(Declared):
    pass


class UserDefinedAggregateFunctionWrapper(Declared):
    pass


class UserDefinedFunction(Declared):
    pass


class UserDefinedFunctionWrapper(Declared):
    pass


class UserDefinedScalarFunctionWrapper(Declared):
    pass


class UserDefinedTableFunctionWrapper(Declared):
    pass


from pyflink_compat._reexports import with_reexports  # noqa: E402

__getattr__ = with_reexports(__name__)
