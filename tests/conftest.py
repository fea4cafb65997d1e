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
        import pyspark  # noqa: F401
    except ImportError:  # the live-PyFlink parity env has no pyspark
        yield None
        return
    from tests._spark_session import local_test_session

    session = local_test_session(
        "pyflink_compat-tests", **{"spark.sql.streaming.stateStore.maintenanceInterval": "2s"})
    yield session
    session.stop()
