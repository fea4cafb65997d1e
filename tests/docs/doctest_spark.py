"""Runs the ``>>>`` examples of the API docstrings as tests, on one real local Spark session.

Loaded as a pytest plugin by the ``docs`` tox environment::

    python -m pytest -p tests.docs.doctest_spark --doctest-modules pyflink_compat/...

Every example gets ``env``, a new :class:`~pyflink_compat.datastream.StreamExecutionEnvironment`
of its own (each environment has its own Spark session conf, so what one example sets is never
seen by the next), as the examples of PyFlink's reference assume an ``env``. Temporary
directories the examples make with :mod:`tempfile` go to one directory, removed at the end.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from typing import Any, Dict, Iterator

import pytest

os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
os.environ.setdefault("PYSPARK_DRIVER_PYTHON", sys.executable)


@pytest.fixture(scope="session", autouse=True)
def doctest_spark() -> Iterator[Any]:
    """The local Spark session every example attaches to (two cores, small shuffles, quiet)."""
    from tests._helpers.spark_session import local_test_session

    scratch = tempfile.mkdtemp(prefix="pyflink_compat-doctests-")
    previous, tempfile.tempdir = tempfile.tempdir, scratch
    session = local_test_session("pyflink_compat-doctests")
    try:
        yield session
    finally:
        session.stop()
        tempfile.tempdir = previous
        shutil.rmtree(scratch, ignore_errors=True)


@pytest.fixture(autouse=True)
def fresh_environment(doctest_spark: Any, doctest_namespace: Dict[str, Any]) -> Iterator[None]:
    """Give the next example an ``env`` of its own; cancel what it left running."""
    from pyflink_compat.datastream import StreamExecutionEnvironment

    env = StreamExecutionEnvironment.get_execution_environment()
    doctest_namespace["env"] = env
    yield
    env.close()
