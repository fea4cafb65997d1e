"""Declared PyFlink module ``pyflink.util.java_utils``.

Using a name below raises :class:`~pyflink_compat.missing.NotSupportedError`,
naming the PySpark way to do the same.
Written by ``tests/parity/generate_declared_modules.py`` from the recorded import
surface of PyFlink 1.20.5.
"""
from pyflink_compat.missing.declared import declared_function

add_jars_to_context_class_loader = declared_function(__name__, 'add_jars_to_context_class_loader')
create_url_class_loader = declared_function(__name__, 'create_url_class_loader')
from_j_flink_time = declared_function(__name__, 'from_j_flink_time')
get_field = declared_function(__name__, 'get_field')
get_field_value = declared_function(__name__, 'get_field_value')
get_j_env_configuration = declared_function(__name__, 'get_j_env_configuration')
invoke_method = declared_function(__name__, 'invoke_method')
is_instance_of = declared_function(__name__, 'is_instance_of')
is_local_deployment = declared_function(__name__, 'is_local_deployment')
load_java_class = declared_function(__name__, 'load_java_class')
to_j_explain_detail_arr = declared_function(__name__, 'to_j_explain_detail_arr')
to_j_flink_time = declared_function(__name__, 'to_j_flink_time')
to_jarray = declared_function(__name__, 'to_jarray')
