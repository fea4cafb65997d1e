"""The py4j gateway behind pyflink_compat: the one of the Spark session's JVM.

pyflink_compat never starts a gateway of its own. The first call that needs the JVM attaches
to the active :class:`pyspark.sql.SparkSession`, or starts a local one (``local[*]``) when
there is none; importing a module of this package touches nothing JVM.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

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
