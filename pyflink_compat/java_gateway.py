"""The py4j gateway behind pyflink_compat: the one of the Spark session's JVM.

pyflink_compat never starts a gateway of its own. The first call that needs the JVM attaches
to the active :class:`pyspark.sql.SparkSession`, or starts a local one (``local[*]``) when
there is none; importing a module of this package touches nothing JVM.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from pyflink_compat.missing.declared import Declared, declared_function

if TYPE_CHECKING:
    from py4j.java_gateway import JavaGateway

__all__ = ["get_gateway"]


def get_gateway() -> "JavaGateway":
    """Return the py4j gateway of the JVM that backs the checkpoint API.

    :return: The gateway of the active Spark session's ``SparkContext``.
    """
    from pyflink_compat.spark.session import base_session

    gateway: JavaGateway = base_session().sparkContext._gateway
    return gateway


# PyFlink's own gateway: how it launches its JVM and imports Flink's classes. The gateway here is
# Spark's, so these are declared only (get_gateway above is the way to the JVM).
WARN = 30
logger = logging.getLogger(__name__)
import_flink_view = declared_function(__name__, 'import_flink_view')
is_launch_gateway_disabled = declared_function(__name__, 'is_launch_gateway_disabled')
launch_gateway = declared_function(__name__, 'launch_gateway')
launch_gateway_server_process = declared_function(__name__, 'launch_gateway_server_process')


class PythonFunctionFactory(Declared):
    pass


class Watchdog(Declared):
    pass


from pyflink_compat._reexports import with_reexports  # noqa: E402

__getattr__ = with_reexports(__name__)
