"""Finding or starting the Spark session that backs the API.

Each :class:`~pyflink_compat.datastream.StreamExecutionEnvironment` gets its own Spark session
(``newSession()`` of the base session), so its settings, held in that session's conf, are
independent of every other environment's, while all share one ``SparkContext``.
"""

from __future__ import annotations

import os
import threading
from typing import TYPE_CHECKING, Optional

if TYPE_CHECKING:
    from py4j.java_gateway import JavaObject
    from pyspark.sql import SparkSession

__all__ = ["base_session", "new_session", "python_session"]

_lock = threading.RLock()
_started: Optional["SparkSession"] = None

#: Name of the local application started when no Spark session is active.
LOCAL_APP_NAME = "pyflink_compat"


def base_session() -> "SparkSession":
    """The active Spark session, or a local one started on first use."""
    global _started
    from pyspark.sql import SparkSession

    with _lock:
        active = SparkSession.getActiveSession()
        if active is not None:
            return active
        if _started is not None and _started.sparkContext._jsc is not None:
            return _started
        cores = os.cpu_count() or 1
        _started = (
            SparkSession.builder.master("local[*]")
            .appName(LOCAL_APP_NAME)
            # Flink's local default parallelism is the number of cores; Spark's default of 200
            # shuffle partitions would mean 200 state stores per stateful operator.
            .config("spark.sql.shuffle.partitions", str(cores))
            .config("spark.ui.showConsoleProgress", "false")
            .getOrCreate()
        )
        return _started


def new_session() -> "SparkSession":
    """A fresh session sharing the base session's ``SparkContext``, with its own conf."""
    return base_session().newSession()


def python_session(j_session: "JavaObject") -> "SparkSession":
    """The Python :class:`~pyspark.sql.SparkSession` for a JVM ``SparkSession``."""
    from pyspark.sql import SparkSession

    return SparkSession(base_session().sparkContext, j_session)
