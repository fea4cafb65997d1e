"""The local Spark session the test runs start (two cores, small shuffles, quiet, fast to
start), and the tests that run without it."""

from __future__ import annotations

import os
import sys
from typing import Any

#: Test modules (relative to ``tests/``) of rules over plain values: their tests start no JVM.
WITHOUT_SPARK = frozenset({
    "api/test_job_marker.py",
    "api/test_import_graph.py",
    "api/test_job_rules.py",
    "api/test_pacing.py",
    "api/test_polling.py",
    "api/test_restart_strategies.py",
    "api/test_without_spark.py",
    "docs/test_architecture_page.py",
    "datastream/test_records.py",
    "datastream/test_window_lateness.py",
    "datastream/test_window_triggers.py",
    "operations/test_command_line.py",
    "operations/test_registry.py",
    "savepoints/test_restore_rules.py",
    "sql/test_functions.py",
    "sql/test_types.py",
    "porting/test_port_command.py",
    "porting/test_connectors.py",
    "porting/test_corpus.py",
    "table/test_flink_dialect.py",
    "table/test_connector_options.py",
    "differential/test_harness.py",
})


def local_test_session(app_name: str, **conf: str) -> Any:
    """Start (or attach to) a ``local[2]`` session named ``app_name``, with ``conf`` added."""
    from pyspark.sql import SparkSession

    # Python functions run in workers started with this interpreter (and its packages), also
    # when a script, not pytest's conftest, starts the session
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    builder = (
        SparkSession.builder.master("local[2]")
        .appName(app_name)
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        # short-lived test JVM: quick compilation and a simple collector start it faster
        .config("spark.driver.extraJavaOptions", "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC")
        .config("spark.sql.shuffle.partitions", "2")
    )
    for key, value in conf.items():
        builder = builder.config(key, value)
    session = builder.getOrCreate()
    session.sparkContext.setLogLevel("ERROR")
    return session
