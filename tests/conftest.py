"""One real local Spark session for the whole test run."""

from __future__ import annotations

import os
import sys
from typing import Iterator

import pytest

os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
os.environ.setdefault("PYSPARK_DRIVER_PYTHON", sys.executable)


@pytest.fixture(scope="session", autouse=True)
def spark() -> Iterator[object]:
    """The Spark session every test attaches to (two cores, small shuffles, quiet)."""
    try:
        from pyspark.sql import SparkSession
    except ImportError:  # the live-PyFlink parity env has no pyspark
        yield None
        return
    session = (
        SparkSession.builder.master("local[2]")
        .appName("pyflink_compat-tests")
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        # short-lived test JVM: quick compilation and a simple collector start it faster
        .config("spark.driver.extraJavaOptions", "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC")
        .config("spark.sql.shuffle.partitions", "2")
        .config("spark.sql.streaming.stateStore.maintenanceInterval", "2s")
        .getOrCreate()
    )
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()
