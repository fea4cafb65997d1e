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
from typing import Iterable, Iterator, Optional

from pyflink_compat.checkpoints.errors import SavepointError
from pyflink_compat.checkpoints.fs import local_path
from pyflink_compat.checkpoints.hadoop_fs import _running_session

__all__ = ["spark_for_paths"]


def _first_remote(paths: Iterable[Optional[str]]) -> Optional[str]:
    for path in paths:
        if path is not None and local_path(path) is None:
            return path
    return None


@contextlib.contextmanager
def spark_for_paths(paths: Iterable[Optional[str]]) -> Iterator[None]:
    """Run a block with a Spark session when one of ``paths`` is not local (and none runs).

    :raises SavepointError: when the session cannot be started (no Java, say).
    """
    remote = _first_remote(paths)
    if remote is None or _running_session() is not None:
        yield
        return
    print("pyflink-compat: starting a local Spark session to reach {} through Hadoop".format(remote),
          file=sys.stderr)
    try:
        from pyspark.sql import SparkSession

        sys.stdout.flush()
        saved = os.dup(1)
        os.dup2(2, 1)  # the JVM inherits this: its output goes to standard error
        try:
            spark = (SparkSession.builder.master("local[1]").appName("pyflink-compat")
                     .config("spark.ui.enabled", "false")
                     .config("spark.ui.showConsoleProgress", "false")
                     .config("spark.log.level", "ERROR")
                     .getOrCreate())
        finally:
            os.dup2(saved, 1)
            os.close(saved)
    except Exception as e:  # noqa: BLE001 - no Java, no pyspark, a bad configuration
        raise SavepointError(remote, "could not start a local Spark session to reach this file system: "
                             "{}".format(str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__)
                             ) from e
    try:
        spark.sparkContext.setLogLevel("ERROR")
        yield
    finally:
        spark.stop()
