"""Table environments: configured like PyFlink's, their Flink SQL and Table API run on Spark.

A :class:`~pyflink_compat.table.TableEnvironment` gives a ported Table API job its
:class:`~pyflink_compat.table.TableConfig` and the
:class:`~pyflink_compat.datastream.StreamExecutionEnvironment` that runs it. The pipeline is
written with the Flink SQL and Table API methods that run here (or with PySpark from that
environment's Spark session):
``execute_sql`` (DDL, ``INSERT``, queries, ``SET``/``RESET``), ``sql_query``, ``from_path``,
``from_elements``, ``create_temporary_view``, statement sets. Their jobs run on that environment
(:mod:`pyflink_compat.sql.execution`); the other pipeline methods raise
:class:`~pyflink_compat.missing.NotSupportedError` naming the PySpark way.
"""
import warnings
from typing import TYPE_CHECKING, Any, Callable, Iterable, List, Union

from pyflink_compat.common.configuration import Configuration
from pyflink_compat.missing import NotSupportedError
from pyflink_compat.missing.declared import declared_method
from pyflink_compat.serializers import PickleSerializer
from pyflink_compat.table.environment_settings import EnvironmentSettings
from pyflink_compat.table.table_config import TableConfig
from pyflink_compat.util.java_args import java_attribute

if TYPE_CHECKING:
    from pyflink_compat.datastream import StreamExecutionEnvironment
    from pyflink_compat.table.statement_set import StatementSet
    from pyflink_compat.table.table import Table
    from pyflink_compat.table.table_descriptor import TableDescriptor
    from pyflink_compat.table.table_result import TableResult

__all__ = [
    'StreamTableEnvironment',
    'TableEnvironment'
]

_PIPELINE_DOC = "Not supported: write this part of the pipeline with PySpark."


def _table_method(name: str, parameters: str) -> Callable[..., Any]:
    """A pipeline method of ``TableEnvironment``, declared but not supported."""
    return declared_method(__name__, "TableEnvironment", name, parameters, _PIPELINE_DOC)


def _apply_before_jobs(environment: 'StreamExecutionEnvironment', table_config: TableConfig) -> None:
    """Have ``environment`` apply ``table_config`` whenever it starts or plans a job.

    Flink's planner configures the execution environment with the table config when it builds
    a pipeline; here the pipeline is the environment's own job, so the config joins the hooks
    the environment runs before planning or starting one (in creation order).
    """
    environment._before_job.append(table_config._apply_to_environment)


class _TableContext(object):
    """What a table environment holds: its environment and its config."""

    def __init__(self, environment: 'StreamExecutionEnvironment', settings: EnvironmentSettings):
        self.environment = environment
        self.settings = settings
        self.config = TableConfig(Configuration(other=settings.get_configuration()))
        self.config._bind(environment)
        _apply_before_jobs(environment, self.config)
        self._runtime: Any = None

    @property
    def runtime(self) -> Any:
        """The :class:`~pyflink_compat.sql.execution.TableRuntime` running the statements
        (made on first use: it imports sqlglot)."""
        if self._runtime is None:
            from pyflink_compat.sql.execution import TableRuntime

            self._runtime = TableRuntime(self.environment, self.config,
                                         streaming=self.settings.is_streaming_mode())
        return self._runtime


def _new_environment() -> 'StreamExecutionEnvironment':
    from pyflink_compat.datastream.stream_execution_environment import StreamExecutionEnvironment

    return StreamExecutionEnvironment.get_execution_environment()


class TableEnvironment(object):
    """The entry point of a Table API job: its :class:`~pyflink_compat.table.TableConfig`, and the
    :class:`~pyflink_compat.datastream.StreamExecutionEnvironment` that runs it.

    Options set on :meth:`get_config` reach that environment when it starts or plans a job
    (see :class:`~pyflink_compat.table.TableConfig`). Flink SQL (:meth:`execute_sql`,
    :meth:`sql_query`) and the Table API (:meth:`from_path`, :meth:`from_elements`,
    :meth:`create_temporary_view`, statement sets) run as jobs of that environment; the other
    pipeline methods raise :class:`~pyflink_compat.missing.NotSupportedError`, and such a part of
    the pipeline is written with PySpark from
    ``t_env.stream_execution_environment.spark_session``.

    :param j_tenv: The environment's state (in PyFlink, the JVM table environment).
    :param serializer: Kept for compatibility with PyFlink's signature.
    """

    # PyFlink's signature: the default is an instance, shown as ``PickleSerializer()``.
    def __init__(self, j_tenv, serializer=PickleSerializer()):  # noqa: B008
        self._j_tenv = j_tenv
        self._serializer = serializer

    @staticmethod
    def create(environment_settings: Union[EnvironmentSettings, Configuration]) \
            -> 'TableEnvironment':
        """Create a table environment with a
        :class:`~pyflink_compat.datastream.StreamExecutionEnvironment` of its own, made as
        ``StreamExecutionEnvironment.get_execution_environment()`` makes one (reach it with
        :attr:`stream_execution_environment`).

        :param environment_settings: :class:`~pyflink_compat.table.EnvironmentSettings`, or a
            :class:`~pyflink_compat.common.Configuration` of options to build them with.
        :return: The :class:`TableEnvironment`.
        """
        if isinstance(environment_settings, Configuration):
            environment_settings = EnvironmentSettings.new_instance() \
                .with_configuration(environment_settings).build()
        elif not isinstance(environment_settings, EnvironmentSettings):
            raise TypeError("argument should be EnvironmentSettings or Configuration")
        return TableEnvironment(_TableContext(_new_environment(), environment_settings))

    def get_config(self) -> TableConfig:
        """The options of this table environment.

        :return: Its :class:`~pyflink_compat.table.TableConfig` (the same object on every call).
        """
        # Set on first use, as PyFlink does (``table_config`` is then an attribute).
        if not hasattr(self, "table_config"):
            self.table_config: TableConfig = self._j_tenv.config
        return self.table_config

    @property
    def stream_execution_environment(self) -> 'StreamExecutionEnvironment':
        """The :class:`~pyflink_compat.datastream.StreamExecutionEnvironment` that runs this
        table environment's job: the one it was created from, or the one it made.

        .. note:: Not in PyFlink: a pyflink_compat job builds its pipeline from this
                  environment's ``spark_session`` and runs it with its ``execute()``.
        """
        environment: 'StreamExecutionEnvironment' = self._j_tenv.environment
        return environment

    # -- the pipeline: not supported, written with PySpark instead -------------------------------
    from_table_source = _table_method("from_table_source", "self, table_source")
    register_catalog = _table_method("register_catalog", "self, catalog_name, catalog")
    get_catalog = _table_method("get_catalog", "self, catalog_name")
    load_module = _table_method("load_module", "self, module_name, module")
    unload_module = _table_method("unload_module", "self, module_name")
    use_modules = _table_method("use_modules", "self, *module_names")
    drop_function = _table_method("drop_function", "self, path")
    register_table = _table_method("register_table", "self, name, table")
    scan = _table_method("scan", "self, *table_path")
    list_catalogs = _table_method("list_catalogs", "self")
    list_modules = _table_method("list_modules", "self")
    list_full_modules = _table_method("list_full_modules", "self")
    list_databases = _table_method("list_databases", "self")
    list_user_defined_functions = _table_method("list_user_defined_functions", "self")
    list_functions = _table_method("list_functions", "self")

    get_current_catalog = _table_method("get_current_catalog", "self")
    use_catalog = _table_method("use_catalog", "self, catalog_name")
    get_current_database = _table_method("get_current_database", "self")
    use_database = _table_method("use_database", "self, database_name")
    add_python_file = _table_method("add_python_file", "self, file_path")
    set_python_requirements = _table_method(
        "set_python_requirements", "self, requirements_file_path, requirements_cache_dir=None")
    add_python_archive = _table_method("add_python_archive", "self, archive_path, target_dir=None")

    # -- Python functions ------------------------------------------------------------------
    def create_temporary_system_function(self, name: str, function: Any) -> None:
        """Register the Python function ``function`` (from :mod:`pyflink_compat.table.udf`, or an
        aggregate function instance) under ``name`` for Flink SQL and ``call(name, ...)``.
        """
        from pyflink_compat.table.udf import _as_aggregate_wrapper

        self._runtime.catalog.functions[name.lower()] = _as_aggregate_wrapper(function)

    def drop_temporary_system_function(self, name: str) -> bool:
        """Forget the function registered as ``name``; ``False`` when there was none."""
        return self._runtime.catalog.functions.pop(name.lower(), None) is not None

    def create_temporary_function(self, path: str, function: Any) -> None:
        """Register the Python function ``function`` under ``path`` (as
        :meth:`create_temporary_system_function`; a catalog and database may precede the name).
        """
        self.create_temporary_system_function(self._runtime.catalog.key(path), function)

    def drop_temporary_function(self, path: str) -> bool:
        """Forget the function registered as ``path``; ``False`` when there was none."""
        return self.drop_temporary_system_function(self._runtime.catalog.key(path))

    def register_function(self, name: str, function: Any) -> None:
        """Register ``function`` under ``name`` (deprecated in PyFlink: use
        :meth:`create_temporary_system_function`)."""
        import warnings

        warnings.warn("Deprecated in 1.10. Use create_temporary_system_function instead.",
                      DeprecationWarning, stacklevel=2)
        self.create_temporary_system_function(name, function)

    def create_java_temporary_system_function(self, name: str, function_class_name: str) -> None:
        """Not supported: a Java function does not run on Spark's Python side."""
        raise _java_function("create_java_temporary_system_function")

    def create_java_temporary_function(self, path: str, function_class_name: str) -> None:
        """Not supported: a Java function does not run on Spark's Python side."""
        raise _java_function("create_java_temporary_function")

    def create_java_function(self, path: str, function_class_name: str,
                             ignore_if_exists: bool = None) -> None:
        """Not supported: a Java function does not run on Spark's Python side."""
        raise _java_function("create_java_function")

    def register_java_function(self, name: str, function_class_name: str) -> None:
        """Not supported: a Java function does not run on Spark's Python side."""
        raise _java_function("register_java_function")

    # -- Flink SQL and the Table API, run as jobs of the environment ---------------------------
    @property
    def _runtime(self) -> Any:
        return self._j_tenv.runtime

    def execute_sql(self, stmt: str) -> 'TableResult':
        """Run one Flink SQL statement: ``CREATE``/``DROP`` ``TABLE``/``VIEW`` (on this
        environment's catalog), ``INSERT INTO`` (starts a job: ``wait()`` on the result waits for
        its end), a query (starts a job whose rows ``print()`` / ``collect()`` give),
        ``SET``/``RESET`` (the table config).

        A connector, option or construct that does not run on Spark raises
        :class:`~pyflink_compat.missing.NotSupportedError` before any query starts.

        :param stmt: The statement.
        :return: Its :class:`~pyflink_compat.table.TableResult`.
        """
        from pyflink_compat.table.table_result import TableResult

        return TableResult._of(self._runtime.execute_sql(stmt))

    def explain_sql(self, stmt: str, *extra_details: Any) -> str:
        """Spark's plan of the query ``stmt`` (the details Flink's explanation may add are
        accepted and change nothing).

        :param stmt: A query.
        :return: The plan's text.
        """
        return self.sql_query(stmt).explain(*extra_details)

    def sql_query(self, query: str) -> 'Table':
        """The :class:`~pyflink_compat.table.Table` of a Flink SQL query (nothing runs yet).

        :param query: A ``SELECT`` (or ``WITH``, ``VALUES``, set operation) statement.
        :return: The table.
        """
        from pyflink_compat.sql.statements import Query
        from pyflink_compat.table.table import Table

        statement = self._runtime.parse_one(query)
        if not isinstance(statement, Query):
            raise _validation("Only query statements are supported by sql_query(): " + query)
        from pyflink_compat.sql.validation import validate_query

        validate_query(self._runtime, statement.query, query, "sqlQuery")
        return Table(statement.query, self)

    def from_path(self, path: str) -> 'Table':
        """The table or view registered under ``path``.

        :param path: Its name (``default_catalog.default_database.`` may precede it).
        :return: The :class:`~pyflink_compat.table.Table`.
        """
        from sqlglot import exp

        from pyflink_compat.table.table import Table

        from pyflink_compat.sql.data_types import from_flink_type
        from pyflink_compat.sql.catalog import ElementsTable, StreamTable
        from pyflink_compat.sql.statements import CreateTable

        entry = self._runtime.catalog.get(path)
        if entry is None:
            raise _validation("Table {} was not found.".format(path))
        table = Table(exp.select("*").from_(exp.to_table(self._runtime.catalog.key(path))), self)
        if isinstance(entry, (CreateTable, StreamTable)):
            table._shown_entry = self._runtime.catalog.key(path)
        if isinstance(entry, CreateTable):
            table._declared = {c.name: from_flink_type(c.data_type) for c in entry.columns
                               if c.kind == "physical" and c.data_type is not None}
            _declare_primary_key(table, entry)
        elif isinstance(entry, ElementsTable) and entry.flink_types is not None:
            table._declared = {n: from_flink_type(t) for n, t in entry.flink_types.items()}
        return table

    def create_temporary_view(self, view_path: str, table_or_data_stream: Any,
                              *fields_or_schema: Any) -> None:
        """Register ``table_or_data_stream`` as a view named ``view_path``: a
        :class:`~pyflink_compat.table.Table`, or a
        :class:`~pyflink_compat.datastream.DataStream` read as
        :meth:`StreamTableEnvironment.from_data_stream` reads it with ``fields_or_schema``.
        """
        from pyflink_compat.datastream.data_stream import DataStream
        from pyflink_compat.sql.catalog import View
        from pyflink_compat.table.table import Table

        if isinstance(table_or_data_stream, DataStream):
            table_or_data_stream = self._stream_table(
                table_or_data_stream, fields_or_schema, "TableEnvironment.create_temporary_view")
        elif not isinstance(table_or_data_stream, Table) or fields_or_schema:
            raise NotSupportedError(
                "TableEnvironment.create_temporary_view of a Table with fields",
                "Register the Table, then select and rename its columns with sql_query.")
        runtime = self._runtime
        if runtime.catalog.get(view_path) is not None:
            raise _validation("Temporary table '{}' already exists".format(
                runtime.catalog.full_name(view_path)))
        runtime.catalog.put(view_path, View(table_or_data_stream._query.copy(), view_path))

    def _stream_table(self, data_stream: Any, fields_or_schema: Any, api: str) -> 'Table':
        """The table of the records of ``data_stream`` (a stream of this environment's job)."""
        from sqlglot import exp

        from pyflink_compat.runtime.plan import needs_keyed_state
        from pyflink_compat.sql.data_streams import read_stream, shown_table, stream_table
        from pyflink_compat.sql.data_types import from_flink_type
        from pyflink_compat.sql.catalog import StreamTable
        from pyflink_compat.table.table import Table

        node = data_stream._j_data_stream
        if node.env is not self.stream_execution_environment:
            raise NotSupportedError(
                "{} of a stream of another StreamExecutionEnvironment".format(api),
                "Create the table environment over the stream's environment.")
        runtime = self._runtime
        name = runtime.new_anonymous_name()
        table, fields, sources = stream_table(name, node, tuple(fields_or_schema), api)
        runtime.catalog.put(name, StreamTable(table, read_stream(node, fields, table, sources),
                                              needs_keyed_state(node), declared=shown_table(
                                                  name, table, tuple(fields_or_schema))))
        result = Table(exp.select(*[exp.column(c.name, quoted=True) for c in table.columns])
                       .from_(exp.to_table(name)), self)
        result._shown_entry = name
        result._declared = {c.name: from_flink_type(c.data_type) for c in table.columns
                            if c.kind == "physical" and c.data_type is not None}
        for column in table.columns:
            # a computed column's type is known when it is a CAST
            if column.kind == "computed" and isinstance(column.expression, exp.Cast):
                result._declared[column.name] = from_flink_type(column.expression.to)
        _declare_primary_key(result, table)
        return result

    def from_elements(self, elements: Iterable[Any], schema: Any = None,
                      verify_schema: bool = True) -> 'Table':
        """A bounded table of ``elements`` (tuples, or single values), with column names
        ``schema`` (a list of names) or ``_1``, ``_2``... Types are inferred as PyFlink infers
        them: ``int`` → BIGINT, ``float`` → DOUBLE, ``str`` → STRING, ``bool`` → BOOLEAN.

        :return: The :class:`~pyflink_compat.table.Table`.
        """
        from pyflink_compat.sql.elements import elements_table

        return self._elements_table(elements_table(list(elements), schema))

    def _elements_table(self, table: Any) -> 'Table':
        from pyflink_compat.sql.data_types import from_flink_type
        from pyflink_compat.table.table import Table
        from sqlglot import exp

        runtime = self._runtime
        name = runtime.new_anonymous_name()
        runtime.catalog.put(name, table)
        result = Table(exp.select(*[exp.column(f.name, quoted=True) for f in table.schema.fields])
                       .from_(exp.to_table(name)), self)
        if table.flink_types is not None:
            result._declared = {n: from_flink_type(t) for n, t in table.flink_types.items()}
        return result

    def from_pandas(self, pdf: Any, schema: Any = None, splits_num: int = 1) -> 'Table':
        """A bounded table of the rows of the pandas DataFrame ``pdf``, with the column types
        PyFlink infers through Arrow (``int64`` BIGINT, ``object`` text STRING, ``float64``
        DOUBLE...), named by ``schema`` (a list of names) or typed by it (a ``DataTypes.ROW``).

        :param splits_num: Kept for PyFlink's signature (the rows are one bounded input).
        :return: The :class:`~pyflink_compat.table.Table`.
        """
        from pyflink_compat.sql.elements import elements_table
        from pyflink_compat.sql.pandas_frames import row_type_of_frame, rows_of_frame
        from pyflink_compat.table.types import RowType

        if isinstance(schema, RowType):
            row_type = schema
        elif isinstance(schema, (list, tuple)) and all(isinstance(n, str) for n in schema):
            row_type = row_type_of_frame(pdf, list(schema))
        elif schema is None:
            row_type = row_type_of_frame(pdf)
        else:
            raise NotSupportedError("TableEnvironment.from_pandas with the schema {!r}".format(schema),
                                    "Give the column names as a list, or a DataTypes.ROW.")
        return self._elements_table(elements_table(rows_of_frame(pdf), row_type))

    def register_table_source(self, name: str, table_source: Any) -> None:
        """Register the legacy source ``table_source`` (a
        :class:`~pyflink_compat.table.CsvTableSource`) as the table ``name``; its rows are read
        now.

        .. note:: Deprecated in PyFlink: declare a filesystem table with ``execute_sql`` or
                  :meth:`create_temporary_table`.
        """
        from pyflink_compat.sql.legacy_sources import csv_source_table
        from pyflink_compat.table.sources import CsvTableSource

        warnings.warn("Deprecated in 1.10. Use create_table instead.", DeprecationWarning,
                      stacklevel=2)
        if not isinstance(table_source, CsvTableSource):
            raise NotSupportedError("TableEnvironment.register_table_source of {}".format(
                type(table_source).__name__), "Declare the table with CREATE TABLE.")
        runtime = self._runtime
        if runtime.catalog.get(name) is not None:
            raise _validation("Temporary table '{}' already exists".format(
                runtime.catalog.full_name(name)))
        table = csv_source_table(self.stream_execution_environment.spark_session,
                                 table_source._j_table_source)
        runtime.catalog.put(name, table)

    def register_table_sink(self, name: str, table_sink: Any) -> None:
        """Register the legacy sink ``table_sink`` (a
        :class:`~pyflink_compat.table.CsvTableSink`) as the table ``name``, for inserts.

        .. note:: Deprecated in PyFlink: declare a filesystem table with ``execute_sql`` or
                  :meth:`create_temporary_table`.
        """
        from pyflink_compat.connectors.csv_table_sink import sink_table_options
        from pyflink_compat.sql.data_types import type_text
        from pyflink_compat.table.sinks import CsvTableSink

        warnings.warn("Deprecated in 1.10. Use create_table instead.", DeprecationWarning,
                      stacklevel=2)
        if not isinstance(table_sink, CsvTableSink):
            raise NotSupportedError("TableEnvironment.register_table_sink of {}".format(
                type(table_sink).__name__), "Declare the table with CREATE TABLE.")
        runtime = self._runtime
        if runtime.catalog.get(name) is not None:
            raise _validation("Temporary table '{}' already exists".format(
                runtime.catalog.full_name(name)))
        description = table_sink._j_table_sink
        options = sink_table_options(description,
                                     self.stream_execution_environment.get_parallelism())
        columns = ", ".join("`{}` {}".format(n.replace("`", "``"), type_text(t))
                            for n, t in zip(description["names"], description["types"]))
        runtime.execute_sql("CREATE TEMPORARY TABLE `{}` ({}) WITH ({})".format(
            name.replace("`", "``"), columns,
            ", ".join("'{}' = '{}'".format(k, v.replace("'", "''")) for k, v in options.items())))

    def create_temporary_table(self, path: str, descriptor: 'TableDescriptor') -> None:
        """Register the table ``descriptor`` describes as the temporary table ``path`` (as
        its ``CREATE TEMPORARY TABLE`` statement would)."""
        import attrs

        from pyflink_compat.sql.statements import CreateTable

        runtime = self._runtime
        runtime.execute_sql(descriptor._create_statement(path))
        entry = runtime.catalog.get(path)
        if isinstance(entry, CreateTable):
            # its schema shows the expressions as the Schema gave them
            runtime.catalog.put(path, attrs.evolve(entry, expressions_as_written=True))

    def create_table(self, path: str, descriptor: 'TableDescriptor') -> None:
        """Register the table ``descriptor`` describes as ``path`` (tables live as long as
        the environment, as temporary tables do)."""
        self.create_temporary_table(path, descriptor)

    def from_descriptor(self, descriptor: 'TableDescriptor') -> 'Table':
        """The :class:`~pyflink_compat.table.Table` of the table ``descriptor`` describes,
        registered under a fresh name."""
        name = self._runtime.new_anonymous_name()
        self.create_temporary_table(name, descriptor)
        return self.from_path(name)

    def create_statement_set(self) -> 'StatementSet':
        """An empty :class:`~pyflink_compat.table.StatementSet`: its inserts run as one job."""
        from pyflink_compat.table.statement_set import StatementSet

        return StatementSet([], self)

    def list_tables(self) -> List[str]:
        """The names of the tables and views, sorted."""
        return sorted(self._runtime.catalog.entries)

    def list_temporary_tables(self) -> List[str]:
        """The names of the tables and views, sorted (every one is temporary here)."""
        return self.list_tables()

    def list_views(self) -> List[str]:
        """The names of the views, sorted."""
        from pyflink_compat.sql.catalog import View

        return sorted(k for k, v in self._runtime.catalog.entries.items() if isinstance(v, View))

    def list_temporary_views(self) -> List[str]:
        """The names of the views, sorted."""
        return self.list_views()

    def drop_temporary_table(self, table_path: str) -> bool:
        """Forget the table ``table_path``; ``False`` when there was none."""
        return bool(self._runtime.catalog.remove(table_path))

    def drop_temporary_view(self, view_path: str) -> bool:
        """Forget the view ``view_path``; ``False`` when there was none."""
        return bool(self._runtime.catalog.remove(view_path))


def _java_function(method: str) -> NotSupportedError:
    return NotSupportedError(
        "TableEnvironment.{}".format(method),
        "A Java user-defined function does not run here: write it in Python "
        "(pyflink.table.udf), or register it in Spark (spark.udf.registerJavaFunction) and "
        "call it from PySpark.")


def _validation(message: str) -> Exception:
    from pyflink_compat.util.exceptions import java_error

    return java_error("java.lang.RuntimeException",
                      "org.apache.flink.table.api.ValidationException: " + message, "o0.sqlQuery")


class _TableSource(object):
    """The source of a stream of a table's rows: ``frame(spark)`` gives its records."""

    def __init__(self, records: Any, keyed_state: bool = False, event_time: Any = None):
        self.frame = records
        #: Whether the table reads a stream whose keyed functions run in transformWithState.
        self.keyed_state = keyed_state
        #: The delay of the table's watermark (ms) when its rows carry their rowtime as the
        #: records' timestamps, as Flink's do; None without a time attribute.
        self.watermark_delay_ms = None if event_time is None else event_time[1]


def _as_type(type_info: Any) -> Callable[[Any], Any]:
    from pyflink_compat.common.typeinfo import TupleTypeInfo

    if isinstance(type_info, TupleTypeInfo):
        return tuple
    return lambda row: row


class StreamTableEnvironment(TableEnvironment):
    """A :class:`TableEnvironment` over a
    :class:`~pyflink_compat.datastream.StreamExecutionEnvironment`.

    :param j_tenv: The environment's state (in PyFlink, the JVM table environment).
    """

    def __init__(self, j_tenv):
        super(StreamTableEnvironment, self).__init__(j_tenv)

    @staticmethod
    def create(stream_execution_environment: 'StreamExecutionEnvironment' = None,  # type: ignore
               environment_settings: EnvironmentSettings = None) -> 'StreamTableEnvironment':
        """Create a table environment over ``stream_execution_environment``, or, when only
        ``environment_settings`` is given, over an environment of its own (reach it with
        :attr:`~pyflink_compat.table.TableEnvironment.stream_execution_environment`).

        Options of ``environment_settings`` go to the table config, not to the environment:
        they reach it when it starts a job.

        :param stream_execution_environment: The
            :class:`~pyflink_compat.datastream.StreamExecutionEnvironment`.
        :param environment_settings: The :class:`~pyflink_compat.table.EnvironmentSettings`.
        :return: The :class:`StreamTableEnvironment`.
        """
        if stream_execution_environment is None and environment_settings is None:
            raise ValueError("No argument found, the param 'stream_execution_environment' "
                             "or 'environment_settings' is required.")
        if stream_execution_environment is not None:
            java_attribute(stream_execution_environment, "_j_stream_execution_environment")
            environment = stream_execution_environment
        if environment_settings is not None:
            java_attribute(environment_settings, "_j_environment_settings")
            settings = environment_settings
        else:
            settings = EnvironmentSettings.new_instance().build()
        if stream_execution_environment is None:
            environment = _new_environment()
        return StreamTableEnvironment(_TableContext(environment, settings))

    def from_data_stream(self, data_stream: Any, *fields_or_schema: Any) -> 'Table':
        """The :class:`~pyflink_compat.table.Table` of the records of ``data_stream``.

        Its columns are the fields of the stream's declared type (``Types.ROW_NAMED`` names them;
        ``Types.ROW``, ``Types.TUPLE`` and atomic types give ``f0``, ``f1``...). ``fields_or_schema``
        is either expressions (``col("b"), col("a").alias("x")``: the fields by name, or renamed
        by position) or one :class:`~pyflink_compat.table.Schema`: its physical columns select,
        order and retype the fields, its computed columns and watermark follow, and
        ``column_by_metadata("rowtime", "TIMESTAMP_LTZ(3)")`` is each record's timestamp
        (``SOURCE_WATERMARK()`` the stream's watermark strategy).

        :raises NotSupportedError: For a stream without a declared type (Flink's ``RAW``
            column).
        """
        from pyflink_compat.table.expression import Expression
        from pyflink_compat.table.schema import Schema

        if fields_or_schema and not all(isinstance(f, Expression) for f in fields_or_schema) \
                and not (len(fields_or_schema) == 1 and isinstance(fields_or_schema[0], Schema)):
            raise ValueError("Invalid arguments for 'fields': %r" % (fields_or_schema,))
        return self._stream_table(data_stream, fields_or_schema, "StreamTableEnvironment.from_data_stream")

    def from_changelog_stream(self, data_stream: Any, schema: Any = None,
                              changelog_mode: Any = None) -> 'Table':
        """The :class:`~pyflink_compat.table.Table` of the changelog ``data_stream``: ``Row``
        records whose kind (``RowKind``) says whether they insert, update or delete a row.

        ``schema`` declares the columns as for :meth:`from_data_stream` (and the primary key an
        upsert changelog is keyed by); ``changelog_mode`` (a
        :class:`~pyflink_compat.table.ChangelogMode`, :meth:`ChangelogMode.all` when not given)
        says which kinds it holds. Printing a changelog of a collection (``from_collection``),
        or a projection or filter of it, gives each change with its kind as Flink does (an
        upsert changelog normalized into ``+I``, ``-U`` / ``+U`` and ``-D`` of the key's row);
        any other query reads the rows its changes leave, in one micro-batch, and gives the
        results Flink ends with (the divergence ``changelog-collection-net-rows``).

        :raises NotSupportedError: When the job meets an update or deletion in a stream that is
            not a collection (Spark's streaming tables are insert-only).
        """
        from pyflink_compat.sql.changelog_streams import (collection_values, flink_changes,
                                                          insert_only_value, net_rows)
        from pyflink_compat.sql.data_streams import _declared_table, stream_fields
        from pyflink_compat.table.changelog_mode import ChangelogMode
        from pyflink_compat.table.schema import Schema

        api = "StreamTableEnvironment.from_changelog_stream"
        if schema is not None and not isinstance(schema, Schema):
            raise TypeError("schema must be a Schema, got %r" % (schema,))
        if changelog_mode is not None and not isinstance(changelog_mode, ChangelogMode):
            raise TypeError("changelog_mode must be a ChangelogMode, got %r" % (changelog_mode,))
        fields_or_schema = () if schema is None else (schema,)
        node = data_stream._j_data_stream
        values = collection_values(node)
        if values is None:
            checked = data_stream.map(insert_only_value, output_type=node.output_type)
            return self._stream_table(checked, fields_or_schema, api)
        key_positions = None
        if schema is not None and changelog_mode is not None and changelog_mode._upserts:
            key = _declared_table("changelog", schema).primary_key
            names = [name for name, _ in stream_fields(node.output_type, api)]
            if key and all(k in names for k in key):
                key_positions = [names.index(k) for k in key]
        rows = net_rows(values, key_positions)
        table = self._stream_table(self.stream_execution_environment.from_collection(
            rows, type_info=node.output_type), fields_or_schema, api)
        self._changes_of(table, flink_changes(values, key_positions), node.output_type)
        return table

    def _changes_of(self, table: 'Table', changes: Any, type_info: Any) -> None:
        """Have the changelog ``table`` (a :class:`StreamTable`) read its ``changes`` too, each
        row with its kind in :data:`~pyflink_compat.sql.changelog_streams.KIND_COLUMN`, for
        the stateless queries whose sinks print each change."""
        import attrs
        from sqlglot import exp

        from pyflink_compat.common.typeinfo import Types
        from pyflink_compat.sql.statements import Column
        from pyflink_compat.sql.changelog_streams import KIND_COLUMN, kinded_values
        from pyflink_compat.sql.data_streams import read_stream, stream_fields
        from pyflink_compat.sql.types import parse_type

        source = table._j_table.find(exp.Table)
        entry = self._runtime.catalog.get(".".join(p.name for p in source.parts))
        api = "StreamTableEnvironment.from_changelog_stream"
        names = type_info.get_field_names()
        kinded = Types.ROW_NAMED(list(names) + [KIND_COLUMN],
                                 list(type_info.get_field_types()) + [Types.STRING()])
        node = self.stream_execution_environment.from_collection(
            kinded_values(changes), type_info=kinded)._j_data_stream
        fields = stream_fields(node.output_type, api)
        declared = entry.table
        with_kind = attrs.evolve(declared, columns=tuple(declared.columns) + (
            Column(KIND_COLUMN, "physical", parse_type("STRING")),))
        sources = [c.name for c in declared.columns if c.kind == "physical"] + [KIND_COLUMN]
        entry.changes = read_stream(node, fields, with_kind, sources)

    def to_data_stream(self, table: 'Table') -> Any:
        """The :class:`~pyflink_compat.datastream.DataStream` of the rows of ``table``, which
        must be insert-only: ``Row`` values named after its columns, of kind ``+I``, in a
        stream typed ``Types.ROW_NAMED`` of the columns; a table with a time attribute gives
        each record its rowtime as timestamp, and its watermark to the stream's event-time
        operators.

        :raises TableException: For an updating table (Flink refuses it the same way).
        """
        return self._table_stream(table, "to_data_stream", False)

    def to_changelog_stream(self, table: 'Table', target_schema: Any = None,
                            changelog_mode: Any = None) -> Any:
        """The :class:`~pyflink_compat.datastream.DataStream` of the changes of ``table``: ``Row``
        values of kind ``+I``, and for an updating table ``-U`` / ``+U`` pairs when a key's row
        changes (per input record for a grouped aggregate of built-in aggregates, per
        micro-batch otherwise: the divergence ``updates-per-micro-batch``). The changes of
        an updating table go straight to sinks (``print``, ``execute_and_collect``, ``sink_to``).

        :raises NotSupportedError: For a target schema or a changelog mode, and for an operator
            on the changes of an updating table.
        """
        if target_schema is not None or changelog_mode is not None:
            raise NotSupportedError(
                "StreamTableEnvironment.to_changelog_stream with a target schema or changelog mode",
                "Convert the table with to_changelog_stream(table), then map its rows.")
        return self._table_stream(table, "to_changelog_stream", True)

    def to_append_stream(self, table: 'Table', type_info: Any) -> Any:
        """The rows of the insert-only ``table`` as a stream of ``type_info`` (a row or tuple
        type of its columns)."""
        stream = self._table_stream(table, "to_append_stream", False)
        return stream.map(_as_type(type_info), output_type=type_info)

    def to_retract_stream(self, table: 'Table', type_info: Any) -> Any:
        """The changes of ``table`` as a stream of ``(True, row)`` for an added row and
        ``(False, row)`` for a retracted one, each row of ``type_info`` (a row or tuple type of
        the columns). For an updating table a changed key gives ``(False, old)`` then ``(True,
        new)`` (per input record for a grouped aggregate of built-in aggregates, per micro-batch
        otherwise: the divergence ``updates-per-micro-batch``), and only sinks may follow.
        """
        from pyflink_compat.common.typeinfo import Types
        from pyflink_compat.sql.data_streams import retract_value

        stream = self._table_stream(table, "to_retract_stream", True, retract_type=type_info)
        if getattr(stream, "retracting", False):
            return stream
        return stream.map(lambda row: retract_value(row, type_info),
                          output_type=Types.TUPLE([Types.BOOLEAN(), type_info]))

    def _table_stream(self, table: 'Table', method: str, changelog: bool,
                      retract_type: Any = None) -> Any:
        from pyflink_compat.common.typeinfo import ExternalTypeInfo
        from pyflink_compat.datastream.data_stream import DataStream
        from pyflink_compat.runtime.graph import SOURCE, Node
        from pyflink_compat.sql.data_streams import event_time, row_type_info, table_records

        from pyflink_compat.sql.dialect import Flink

        # a changelog's changes keep their kinds in a changelog stream
        planned = self._runtime.planner.plan_query(table._query, table._query.sql(Flink), rowtime_only=True,
                                                   row_kinds=changelog)
        if planned.updating:
            if changelog:
                from pyflink_compat.sql.data_streams import changelog_stream

                return changelog_stream(self.stream_execution_environment, planned, retract_type)
            from pyflink_compat.util.exceptions import TableException

            raise TableException(
                "org.apache.flink.table.api.TableException: Table sink "
                "'*anonymous_datastream_sink$1*' doesn't support consuming update changes which "
                "is produced by node {}".format(planned.node))
        type_info = row_type_info(planned.result_frame.schema)
        environment = self.stream_execution_environment
        source = _TableSource(table_records(planned.frame, planned.bounded, row_kinds=planned.row_kinds),
                              planned.keyed_state, event_time(planned.result_frame))
        if changelog:
            type_info = ExternalTypeInfo(type_info)
        return DataStream(Node(environment, SOURCE, (), source, type_info, name=method))


def _declare_primary_key(result: 'Table', table: Any) -> None:
    """Give ``result``, the table of the declared ``table``, its primary key: the key's columns
    are ``NOT NULL`` in Flink's resolved schema, which lists the constraint."""
    if not table.primary_key:
        return
    for key in table.primary_key:
        if key in result._declared:
            result._declared[key] = result._declared[key].not_null()
    result._primary_key = (table.primary_key_name or "PK_" + "_".join(table.primary_key),
                           tuple(table.primary_key))


from pyflink_compat._reexports import with_reexports  # noqa: E402

__getattr__ = with_reexports(__name__)
