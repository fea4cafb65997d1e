"""A Spark session for the ``pyflink-compat`` command, started only when a path needs Hadoop.

The command works from files alone on local paths and ``file:`` URIs. For any other scheme it
starts a minimal local Spark session (one core, no UI, ``ERROR`` logging) whose Hadoop
configuration comes from the usual places (``HADOOP_CONF_DIR``, ``SPARK_CONF_DIR``'s
``spark-defaults.conf`` with ``spark.hadoop.*`` keys), and stops it when the command ends.
The JVM's standard output is joined to standard error, so that the command's own output (one
JSON document with ``--json``) is all that standard output ever carries.
"""

from __future__ import annotations

import contextlib
import os
import sys
import tempfile
from typing import Any, Iterable, Iterator, Optional

from pyflink_compat.checkpoints.errors import CheckpointFileError
from pyflink_compat.checkpoints.file_access import local_path
from pyflink_compat.checkpoints.file_access_hadoop import _running_session

__all__ = ["spark_for_paths", "quiet_local_session"]


def _first_remote(paths: Iterable[Optional[str]]) -> Optional[str]:
    for path in paths:
        if path is not None and local_path(path) is None:
            return path
    return None


#: Spark's log4j configuration for the command's sessions: only errors reach the console. The
#: root level stays at WARN, Spark's level for interactive drivers, so that Spark has nothing
#: to announce about changing it; a filter on the console drops the warnings.
_QUIET_LOG4J = """rootLogger.level = warn
rootLogger.appenderRef.stderr.ref = console
appender.console.type = Console
appender.console.name = console
appender.console.target = SYSTEM_ERR
appender.console.filter.threshold.type = ThresholdFilter
appender.console.filter.threshold.level = error
appender.console.layout.type = PatternLayout
appender.console.layout.pattern = %p %c: %m%n
"""


@contextlib.contextmanager
def quiet_local_session(app_name: str) -> Iterator[Any]:
    """A local Spark session (one core, no UI, only errors logged, to standard error), stopped
    and its scratch directory removed when the block ends.

    The JVM's standard output is joined to standard error while it starts, so that the
    command's own output is all that standard output carries.
    """
    from pyspark.sql import SparkSession

    with tempfile.TemporaryDirectory(prefix="pyflink-compat-") as temp:
        log4j = os.path.join(temp, "log4j2.properties")
        with open(log4j, "w") as stream:
            stream.write(_QUIET_LOG4J)
        sys.stdout.flush()
        saved = os.dup(1)
        os.dup2(2, 1)  # the JVM inherits this: its output goes to standard error
        try:
            spark = (SparkSession.builder.master("local[1]").appName(app_name)
                     .config("spark.ui.enabled", "false")
                     .config("spark.ui.showConsoleProgress", "false")
                     .config("spark.sql.shuffle.partitions", "1")
                     .config("spark.local.dir", temp)
                     .config("spark.driver.extraJavaOptions", "-Dlog4j2.configurationFile=file:" + log4j)
                     .getOrCreate())
        finally:
            os.dup2(saved, 1)
            os.close(saved)
        try:
            spark.sparkContext.setLogLevel("ERROR")
            yield spark
        finally:
            spark.stop()


@contextlib.contextmanager
def spark_for_paths(paths: Iterable[Optional[str]]) -> Iterator[None]:
    """Run a block with a Spark session when one of ``paths`` is not local (and none runs).

    :raises CheckpointFileError: when the session cannot be started (no Java, say).
    """
    remote = _first_remote(paths)
    if remote is None or _running_session() is not None:
        yield
        return
    print("pyflink-compat: starting a local Spark session to reach {} through Hadoop".format(remote),
          file=sys.stderr)
    with contextlib.ExitStack() as stack:
        try:
            stack.enter_context(quiet_local_session("pyflink-compat"))
        except Exception as e:  # no Java, no pyspark, a bad configuration
            text = str(e).strip()
            raise CheckpointFileError(remote, "could not start a local Spark session to reach this file "
                                 "system: {}".format(text.splitlines()[0] if text else type(e).__name__)
                                 ) from e
        yield
