"""The test run's one local Spark session, given to every test except the pure-rule ones."""

from __future__ import annotations

import os
import sys
from typing import Any, Iterator

import pytest

from tests._helpers.durations import (  # noqa: F401  (hooks: each run's durations kept in a file)
    pytest_runtest_logreport, pytest_sessionfinish, pytest_sessionstart)
from tests._helpers.spark_session import WITHOUT_SPARK, local_test_session

os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
os.environ.setdefault("PYSPARK_DRIVER_PYTHON", sys.executable)
#: Every Spark driver the tests start (this session's, and those of the job processes they run,
#: which inherit it) compiles with the JVM's quick compiler alone and collects with its simple
#: collector: a short-lived test driver then takes about half the CPU time to start and to run
#: its first batches, which matters when two test processes share two cores.
os.environ.setdefault("SPARK_SUBMIT_OPTS", "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC")

_HERE = os.path.dirname(os.path.abspath(__file__))

#: The live-PyFlink tests (``*_pyflink.py``) import pyflink plainly, so that a broken
#: apache-flink install fails them rather than skipping them. They are collected only where
#: PyFlink is meant to run: ``tox -e parity`` sets ``PYFLINK_COMPAT_LIVE_PYFLINK=1``.
collect_ignore_glob = [] if os.environ.get("PYFLINK_COMPAT_LIVE_PYFLINK") == "1" else ["*/*_pyflink.py"]


def pytest_configure(config: Any) -> None:
    config.addinivalue_line(
        "markers", "slow: a test that starts Spark drivers of its own, in other processes or again and again "
        "(-m 'not slow' leaves such tests out)")


@pytest.fixture(scope="session")
def spark() -> Iterator[Any]:
    """The Spark session of the whole test run (two cores, small shuffles, quiet), started by
    the first test that needs it."""
    try:
        import pyspark  # noqa: F401
    except ImportError:  # the live-PyFlink parity env has no pyspark
        yield None
        return
    session = local_test_session(
        "pyflink_compat-tests", **{"spark.sql.streaming.stateStore.maintenanceInterval": "2s"})
    yield session
    session.stop()


@pytest.fixture(autouse=True)
def _spark_for_tests_that_need_it(request: Any) -> None:
    """Start the session before a test that needs it, so that whatever the test builds attaches
    to it; the modules of :data:`~tests._helpers.spark_session.WITHOUT_SPARK` never start it."""
    module = os.path.relpath(str(request.node.path), _HERE).replace(os.sep, "/")
    if module not in WITHOUT_SPARK:
        request.getfixturevalue("spark")
