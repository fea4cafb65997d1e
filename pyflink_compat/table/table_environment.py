"""Table environments: configured like PyFlink's, their pipelines written with PySpark.

A :class:`~pyflink_compat.table.TableEnvironment` gives a ported Table API job its
:class:`~pyflink_compat.table.TableConfig` and the
:class:`~pyflink_compat.datastream.StreamExecutionEnvironment` that runs it; the table pipeline
itself (SQL, tables, views, conversions to and from data streams) is written with PySpark from
that environment's Spark session, so every pipeline method raises
:class:`~pyflink_compat.missing.NotSupportedError` naming the PySpark way.
"""
from typing import TYPE_CHECKING, Any, Callable, Union

from pyflink_compat.common.configuration import Configuration
from pyflink_compat.missing.declared import declared_method
from pyflink_compat.serializers import PickleSerializer
from pyflink_compat.table.environment_settings import EnvironmentSettings
from pyflink_compat.table.table_config import TableConfig
from pyflink_compat.util.java_args import java_attribute

if TYPE_CHECKING:
    from pyflink_compat.datastream import StreamExecutionEnvironment

__all__ = [
    'StreamTableEnvironment',
    'TableEnvironment'
]

_PIPELINE_DOC = "Not supported: write this part of the pipeline with PySpark."


def _table_method(name: str, parameters: str) -> Callable[..., Any]:
    """A pipeline method of ``TableEnvironment``, declared but not supported."""
    return declared_method(__name__, "TableEnvironment", name, parameters, _PIPELINE_DOC)


def _stream_table_method(name: str, parameters: str) -> Callable[..., Any]:
    """A pipeline method of ``StreamTableEnvironment``, declared but not supported."""
    return declared_method(__name__, "StreamTableEnvironment", name, parameters, _PIPELINE_DOC)


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


def _new_environment() -> 'StreamExecutionEnvironment':
    from pyflink_compat.datastream.stream_execution_environment import StreamExecutionEnvironment

    return StreamExecutionEnvironment.get_execution_environment()


class TableEnvironment(object):
    """The entry point of a Table API job: its :class:`~pyflink_compat.table.TableConfig`, and the
    :class:`~pyflink_compat.datastream.StreamExecutionEnvironment` that runs it.

    Options set on :meth:`get_config` reach that environment when it starts or plans a job
    (see :class:`~pyflink_compat.table.TableConfig`). Build the pipeline with PySpark from
    ``t_env.stream_execution_environment.spark_session``, register its sinks with
    ``add_sink`` and run it with ``execute()`` of that environment. The pipeline methods of
    PyFlink (``execute_sql``, ``sql_query``, ``from_path``...) raise
    :class:`~pyflink_compat.missing.NotSupportedError`.

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
    create_java_temporary_system_function = _table_method(
        "create_java_temporary_system_function", "self, name, function_class_name")
    create_temporary_system_function = _table_method(
        "create_temporary_system_function", "self, name, function")
    drop_temporary_system_function = _table_method("drop_temporary_system_function", "self, name")
    create_java_function = _table_method(
        "create_java_function", "self, path, function_class_name, ignore_if_exists=None")
    drop_function = _table_method("drop_function", "self, path")
    create_java_temporary_function = _table_method(
        "create_java_temporary_function", "self, path, function_class_name")
    create_temporary_function = _table_method("create_temporary_function", "self, path, function")
    drop_temporary_function = _table_method("drop_temporary_function", "self, path")
    create_temporary_table = _table_method("create_temporary_table", "self, path, descriptor")
    create_table = _table_method("create_table", "self, path, descriptor")
    register_table = _table_method("register_table", "self, name, table")
    register_table_source = _table_method("register_table_source", "self, name, table_source")
    register_table_sink = _table_method("register_table_sink", "self, name, table_sink")
    scan = _table_method("scan", "self, *table_path")
    from_path = _table_method("from_path", "self, path")
    from_descriptor = _table_method("from_descriptor", "self, descriptor")
    list_catalogs = _table_method("list_catalogs", "self")
    list_modules = _table_method("list_modules", "self")
    list_full_modules = _table_method("list_full_modules", "self")
    list_databases = _table_method("list_databases", "self")
    list_tables = _table_method("list_tables", "self")
    list_views = _table_method("list_views", "self")
    list_user_defined_functions = _table_method("list_user_defined_functions", "self")
    list_functions = _table_method("list_functions", "self")
    list_temporary_tables = _table_method("list_temporary_tables", "self")
    list_temporary_views = _table_method("list_temporary_views", "self")
    drop_temporary_table = _table_method("drop_temporary_table", "self, table_path")
    drop_temporary_view = _table_method("drop_temporary_view", "self, view_path")
    explain_sql = _table_method("explain_sql", "self, stmt, *extra_details")
    sql_query = _table_method("sql_query", "self, query")
    execute_sql = _table_method("execute_sql", "self, stmt")

    def create_statement_set(self):
        """An empty statement set that takes no statements: jobs often create one while they set
        up the environment, so creating it works, and adding to it or executing it raises
        :class:`~pyflink_compat.missing.NotSupportedError` (start one streaming query per sink
        instead, with :meth:`~pyflink_compat.datastream.StreamExecutionEnvironment.add_sink`).

        :return: A placeholder of PyFlink's ``StatementSet``.
        """
        from pyflink_compat.missing.declared import declared_value

        return declared_value("pyflink_compat.table.statement_set", "StatementSet")

    get_current_catalog = _table_method("get_current_catalog", "self")
    use_catalog = _table_method("use_catalog", "self, catalog_name")
    get_current_database = _table_method("get_current_database", "self")
    use_database = _table_method("use_database", "self, database_name")
    register_java_function = _table_method("register_java_function", "self, name, function_class_name")
    register_function = _table_method("register_function", "self, name, function")
    create_temporary_view = _table_method(
        "create_temporary_view", "self, view_path, table_or_data_stream, *fields_or_schema")
    add_python_file = _table_method("add_python_file", "self, file_path")
    set_python_requirements = _table_method(
        "set_python_requirements", "self, requirements_file_path, requirements_cache_dir=None")
    add_python_archive = _table_method("add_python_archive", "self, archive_path, target_dir=None")
    from_elements = _table_method("from_elements", "self, elements, schema=None, verify_schema=True")
    from_pandas = _table_method("from_pandas", "self, pdf, schema=None, splits_num=1")


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

    from_data_stream = _stream_table_method("from_data_stream", "self, data_stream, *fields_or_schema")
    from_changelog_stream = _stream_table_method(
        "from_changelog_stream", "self, data_stream, schema=None, changelog_mode=None")
    to_data_stream = _stream_table_method("to_data_stream", "self, table")
    to_changelog_stream = _stream_table_method(
        "to_changelog_stream", "self, table, target_schema=None, changelog_mode=None")
    to_append_stream = _stream_table_method("to_append_stream", "self, table, type_info")
    to_retract_stream = _stream_table_method("to_retract_stream", "self, table, type_info")


from pyflink_compat.missing.reexports import with_reexports  # noqa: E402

__getattr__ = with_reexports(__name__)
