"""PyFlink's ``pyflink.util.java_utils``: helpers that reach into the JVM.

:func:`get_j_env_configuration` gives an environment's configuration, as jobs wrap it in a
:class:`~pyflink_compat.common.Configuration`. The other helpers work on Flink's own Java
classes and class loaders, which the Spark JVM does not have: using one raises
:class:`~pyflink_compat.missing.NotSupportedError`, naming the PySpark way.
"""
from typing import Any

from pyflink_compat.missing.declared import declared_function

add_jars_to_context_class_loader = declared_function(__name__, 'add_jars_to_context_class_loader')
create_url_class_loader = declared_function(__name__, 'create_url_class_loader')
from_j_flink_time = declared_function(__name__, 'from_j_flink_time')
get_field = declared_function(__name__, 'get_field')
get_field_value = declared_function(__name__, 'get_field_value')
invoke_method = declared_function(__name__, 'invoke_method')
is_instance_of = declared_function(__name__, 'is_instance_of')
is_local_deployment = declared_function(__name__, 'is_local_deployment')
load_java_class = declared_function(__name__, 'load_java_class')
to_j_explain_detail_arr = declared_function(__name__, 'to_j_explain_detail_arr')
to_j_flink_time = declared_function(__name__, 'to_j_flink_time')
to_jarray = declared_function(__name__, 'to_jarray')


def get_j_env_configuration(j_env: Any) -> Any:
    """The configuration of an environment, to wrap in a
    :class:`~pyflink_compat.common.Configuration`.

    What is set through it is the environment's configuration, applied as
    :meth:`~pyflink_compat.datastream.StreamExecutionEnvironment.configure` applies it, and
    what the environment sets reads back through it.

    :param j_env: The environment's Java object, ``env._j_stream_execution_environment``.
    :return: The configuration's map (an
        :class:`~pyflink_compat.datastream.environment_configuration.EnvironmentConfiguration`).

    >>> from pyflink_compat.common import Configuration
    >>> config = Configuration(j_configuration=get_j_env_configuration(
    ...     env._j_stream_execution_environment))
    >>> config = config.set_integer("parallelism.default", 4)
    >>> env.get_parallelism(), config.get_integer("parallelism.default", 1)
    (4, 4)
    """
    from pyflink_compat.datastream.environment_configuration import environment_configuration

    return environment_configuration(j_env.conf())


from pyflink_compat._reexports import with_reexports  # noqa: E402

__getattr__ = with_reexports(__name__)
