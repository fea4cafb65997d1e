"""Table environments: configured like PyFlink's, their pipelines written with PySpark.

A :class:`~pyflink_compat.table.TableEnvironment` gives a ported Table API job its
:class:`~pyflink_compat.table.TableConfig` and the
:class:`~pyflink_compat.datastream.StreamExecutionEnvironment` that runs it; the table pipeline
itself (SQL, tables, views, conversions to and from data streams) is written with PySpark from
that environment's Spark session, so every pipeline method raises
:class:`~pyflink_compat.missing.NotSupportedError` naming the PySpark way.
"""
from typing import TYPE_CHECKING, Union

from pyflink_compat.common.configuration import Configuration
from pyflink_compat.missing import not_supported
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

#: The environment methods that start or plan a job: the table configs created over the
#: environment are applied to it first.


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
    def from_table_source(self, table_source):
        """Not supported: write this part of the pipeline with PySpark."""
        raise not_supported("TableEnvironment.from_table_source")

    def register_catalog(self, catalog_name, catalog):
        """Not supported: write this part of the pipeline with PySpark."""
        raise not_supported("TableEnvironment.register_catalog")

    def get_catalog(self, catalog_name):
        """Not supported: write this part of the pipeline with PySpark."""
        raise not_supported("TableEnvironment.get_catalog")

    def load_module(self, module_name, module):
        """Not supported: write this part of the pipeline with PySpark."""
        raise not_supported("TableEnvironment.load_module")

    def unload_module(self, module_name):
        """Not supported: write this part of the pipeline with PySpark."""
        raise not_supported("TableEnvironment.unload_module")

    def use_modules(self, *module_names):
        """Not supported: write this part of the pipeline with PySpark."""
        raise not_supported("TableEnvironment.use_modules")

    def create_java_temporary_system_function(self, name, function_class_name):
        """Not supported: write this part of the pipeline with PySpark."""
        raise not_supported("TableEnvironment.create_java_temporary_system_function")

    def create_temporary_system_function(self, name, function):
        """Not supported: write this part of the pipeline with PySpark."""
        raise not_supported("TableEnvironment.create_temporary_system_function")

    def drop_temporary_system_function(self, name):
        """Not supported: write this part of the pipeline with PySpark."""
        raise not_supported("TableEnvironment.drop_temporary_system_function")

    def create_java_function(self, path, function_class_name, ignore_if_exists=None):
        """Not supported: write this part of the pipeline with PySpark."""
        raise not_supported("TableEnvironment.create_java_function")

    def drop_function(self, path):
        """Not supported: write this part of the pipeline with PySpark."""
        raise not_supported("TableEnvironment.drop_function")

    def create_java_temporary_function(self, path, function_class_name):
        """Not supported: write this part of the pipeline with PySpark."""
        raise not_supported("TableEnvironment.create_java_temporary_function")

    def create_temporary_function(self, path, function):
        """Not supported: write this part of the pipeline with PySpark."""
        raise not_supported("TableEnvironment.create_temporary_function")

    def drop_temporary_function(self, path):
        """Not supported: write this part of the pipeline with PySpark."""
        raise not_supported("TableEnvironment.drop_temporary_function")

    def create_temporary_table(self, path, descriptor):
        """Not supported: write this part of the pipeline with PySpark."""
        raise not_supported("TableEnvironment.create_temporary_table")

    def create_table(self, path, descriptor):
        """Not supported: write this part of the pipeline with PySpark."""
        raise not_supported("TableEnvironment.create_table")

    def register_table(self, name, table):
        """Not supported: write this part of the pipeline with PySpark."""
        raise not_supported("TableEnvironment.register_table")

    def register_table_source(self, name, table_source):
        """Not supported: write this part of the pipeline with PySpark."""
        raise not_supported("TableEnvironment.register_table_source")

    def register_table_sink(self, name, table_sink):
        """Not supported: write this part of the pipeline with PySpark."""
        raise not_supported("TableEnvironment.register_table_sink")

    def scan(self, *table_path):
        """Not supported: write this part of the pipeline with PySpark."""
        raise not_supported("TableEnvironment.scan")

    def from_path(self, path):
        """Not supported: write this part of the pipeline with PySpark."""
        raise not_supported("TableEnvironment.from_path")

    def from_descriptor(self, descriptor):
        """Not supported: write this part of the pipeline with PySpark."""
        raise not_supported("TableEnvironment.from_descriptor")

    def list_catalogs(self):
        """Not supported: write this part of the pipeline with PySpark."""
        raise not_supported("TableEnvironment.list_catalogs")

    def list_modules(self):
        """Not supported: write this part of the pipeline with PySpark."""
        raise not_supported("TableEnvironment.list_modules")

    def list_full_modules(self):
        """Not supported: write this part of the pipeline with PySpark."""
        raise not_supported("TableEnvironment.list_full_modules")

    def list_databases(self):
        """Not supported: write this part of the pipeline with PySpark."""
        raise not_supported("TableEnvironment.list_databases")

    def list_tables(self):
        """Not supported: write this part of the pipeline with PySpark."""
        raise not_supported("TableEnvironment.list_tables")

    def list_views(self):
        """Not supported: write this part of the pipeline with PySpark."""
        raise not_supported("TableEnvironment.list_views")

    def list_user_defined_functions(self):
        """Not supported: write this part of the pipeline with PySpark."""
        raise not_supported("TableEnvironment.list_user_defined_functions")

    def list_functions(self):
        """Not supported: write this part of the pipeline with PySpark."""
        raise not_supported("TableEnvironment.list_functions")

    def list_temporary_tables(self):
        """Not supported: write this part of the pipeline with PySpark."""
        raise not_supported("TableEnvironment.list_temporary_tables")

    def list_temporary_views(self):
        """Not supported: write this part of the pipeline with PySpark."""
        raise not_supported("TableEnvironment.list_temporary_views")

    def drop_temporary_table(self, table_path):
        """Not supported: write this part of the pipeline with PySpark."""
        raise not_supported("TableEnvironment.drop_temporary_table")

    def drop_temporary_view(self, view_path):
        """Not supported: write this part of the pipeline with PySpark."""
        raise not_supported("TableEnvironment.drop_temporary_view")

    def explain_sql(self, stmt, *extra_details):
        """Not supported: write this part of the pipeline with PySpark."""
        raise not_supported("TableEnvironment.explain_sql")

    def sql_query(self, query):
        """Not supported: write this part of the pipeline with PySpark."""
        raise not_supported("TableEnvironment.sql_query")

    def execute_sql(self, stmt):
        """Not supported: write this part of the pipeline with PySpark."""
        raise not_supported("TableEnvironment.execute_sql")

    def create_statement_set(self):
        """An empty statement set that takes no statements: jobs often create one while they set
        up the environment, so creating it works, and adding to it or executing it raises
        :class:`~pyflink_compat.missing.NotSupportedError` (start one streaming query per sink
        instead, with :meth:`~pyflink_compat.datastream.StreamExecutionEnvironment.add_sink`).

        :return: A placeholder of PyFlink's ``StatementSet``.
        """
        from pyflink_compat.missing.declared import declared_value

        return declared_value("pyflink_compat.table.statement_set", "StatementSet")

    def get_current_catalog(self):
        """Not supported: write this part of the pipeline with PySpark."""
        raise not_supported("TableEnvironment.get_current_catalog")

    def use_catalog(self, catalog_name):
        """Not supported: write this part of the pipeline with PySpark."""
        raise not_supported("TableEnvironment.use_catalog")

    def get_current_database(self):
        """Not supported: write this part of the pipeline with PySpark."""
        raise not_supported("TableEnvironment.get_current_database")

    def use_database(self, database_name):
        """Not supported: write this part of the pipeline with PySpark."""
        raise not_supported("TableEnvironment.use_database")

    def register_java_function(self, name, function_class_name):
        """Not supported: write this part of the pipeline with PySpark."""
        raise not_supported("TableEnvironment.register_java_function")

    def register_function(self, name, function):
        """Not supported: write this part of the pipeline with PySpark."""
        raise not_supported("TableEnvironment.register_function")

    def create_temporary_view(self, view_path, table_or_data_stream, *fields_or_schema):
        """Not supported: write this part of the pipeline with PySpark."""
        raise not_supported("TableEnvironment.create_temporary_view")

    def add_python_file(self, file_path):
        """Not supported: write this part of the pipeline with PySpark."""
        raise not_supported("TableEnvironment.add_python_file")

    def set_python_requirements(self, requirements_file_path, requirements_cache_dir=None):
        """Not supported: write this part of the pipeline with PySpark."""
        raise not_supported("TableEnvironment.set_python_requirements")

    def add_python_archive(self, archive_path, target_dir=None):
        """Not supported: write this part of the pipeline with PySpark."""
        raise not_supported("TableEnvironment.add_python_archive")

    def from_elements(self, elements, schema=None, verify_schema=True):
        """Not supported: write this part of the pipeline with PySpark."""
        raise not_supported("TableEnvironment.from_elements")

    def from_pandas(self, pdf, schema=None, splits_num=1):
        """Not supported: write this part of the pipeline with PySpark."""
        raise not_supported("TableEnvironment.from_pandas")


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

    def from_data_stream(self, data_stream, *fields_or_schema):
        """Not supported: write this part of the pipeline with PySpark."""
        raise not_supported("StreamTableEnvironment.from_data_stream")

    def from_changelog_stream(self, data_stream, schema=None, changelog_mode=None):
        """Not supported: write this part of the pipeline with PySpark."""
        raise not_supported("StreamTableEnvironment.from_changelog_stream")

    def to_data_stream(self, table):
        """Not supported: write this part of the pipeline with PySpark."""
        raise not_supported("StreamTableEnvironment.to_data_stream")

    def to_changelog_stream(self, table, target_schema=None, changelog_mode=None):
        """Not supported: write this part of the pipeline with PySpark."""
        raise not_supported("StreamTableEnvironment.to_changelog_stream")

    def to_append_stream(self, table, type_info):
        """Not supported: write this part of the pipeline with PySpark."""
        raise not_supported("StreamTableEnvironment.to_append_stream")

    def to_retract_stream(self, table, type_info):
        """Not supported: write this part of the pipeline with PySpark."""
        raise not_supported("StreamTableEnvironment.to_retract_stream")


from pyflink_compat.missing.reexports import with_reexports  # noqa: E402

__getattr__ = with_reexports(__name__)
