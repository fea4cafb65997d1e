"""Declared PyFlink module ``pyflink.table``.

Its names are imported from their modules on first use, so that importing the
package is cheap. Declared-only names raise
:class:`~pyflink_compat.missing.NotSupportedError` when used, naming the PySpark
way to do the same.
Written by ``tests/parity/generate_declared_modules.py`` from the recorded import
surface of PyFlink 1.20.5.
"""
from pyflink_compat._lazy import lazy_exports
from pyflink_compat._reexports import with_reexports

__all__ = ['TableEnvironment', 'StreamTableEnvironment', 'Table', 'StatementSet',
    'EnvironmentSettings', 'TableConfig', 'GroupedTable', 'GroupWindowedTable',
    'OverWindowedTable', 'WindowGroupedTable', 'ScalarFunction', 'TableFunction',
    'AggregateFunction', 'TableAggregateFunction', 'FunctionContext', 'DataView', 'ListView',
    'MapView', 'TableDescriptor', 'FormatDescriptor', 'Schema', 'Module', 'ModuleEntry',
    'SqlDialect', 'DataTypes', 'UserDefinedType', 'Expression', 'TableSchema', 'TableResult',
    'Row', 'RowKind', 'ChangelogMode', 'ExplainDetail', 'TableSource', 'TableSink',
    'CsvTableSource', 'CsvTableSink', 'WriteMode', 'ResultKind']

_EXPORTS = {
    'AggregateFunction': 'udf',
    'ChangelogMode': 'changelog_mode',
    'CsvTableSink': 'sinks',
    'CsvTableSource': 'sources',
    'DataTypes': 'types',
    'DataView': 'data_view',
    'EnvironmentSettings': 'environment_settings',
    'ExplainDetail': 'explain_detail',
    'Expression': 'expression',
    'FormatDescriptor': 'table_descriptor',
    'FunctionContext': 'udf',
    'GroupWindowedTable': 'table',
    'GroupedTable': 'table',
    'ListView': 'data_view',
    'MapView': 'data_view',
    'Module': 'module',
    'ModuleEntry': 'module',
    'OverWindowedTable': 'table',
    'ResultKind': 'result_kind',
    'Row': 'pyflink_compat.common.types',
    'RowKind': 'pyflink_compat.common.types',
    'ScalarFunction': 'udf',
    'Schema': 'schema',
    'SqlDialect': 'sql_dialect',
    'StatementSet': 'statement_set',
    'StreamTableEnvironment': 'table_environment',
    'Table': 'table',
    'TableAggregateFunction': 'udf',
    'TableConfig': 'table_config',
    'TableDescriptor': 'table_descriptor',
    'TableEnvironment': 'table_environment',
    'TableFunction': 'udf',
    'TableResult': 'table_result',
    'TableSchema': 'table_schema',
    'TableSink': 'sinks',
    'TableSource': 'sources',
    'UserDefinedType': 'types',
    'WindowGroupedTable': 'table',
    'WriteMode': 'sinks',
}

__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS, globals())
__getattr__ = with_reexports(__name__, __getattr__)
