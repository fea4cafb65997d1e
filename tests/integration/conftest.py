"""Fixtures of the job-runtime integration tests: real local Spark, real files, real processes.

Every test builds its environments through the ``make_env`` fixture, which closes them (and so
cancels any job still running) when the test ends, so that no query outlives its test; the jobs'
temporary directories go under the test's own ``tmp_path`` (``job_temp_dir``).
"""

from __future__ import annotations

import os
from typing import Any, List

import pytest

from tests._helpers.files import write_json_files
from tests._helpers.jobs import SCHEMA, job_temp_dir, make_env  # noqa: F401 - fixtures of these tests

_HERE = os.path.dirname(os.path.abspath(__file__))


def pytest_collection_modifyitems(items: List[Any]) -> None:
    # The deprecated (since Flink 1.19) storage/backend setters are exactly what these tests use.
    for item in items:
        if str(item.fspath).startswith(_HERE):
            item.add_marker(pytest.mark.filterwarnings(
                "ignore:Deprecated since version 1.19:DeprecationWarning"))


@pytest.fixture(scope="session", autouse=True)
def warm_jvm(spark: Any, tmp_path_factory: Any) -> None:
    """Run one small streaming query first, so that JVM warm-up (class loading, code generation)
    does not land in the first batch of whichever test runs first: batch durations matter to the
    checkpoint-timeout tests."""
    directory = tmp_path_factory.mktemp("warm_up")
    write_json_files(directory / "in", n_files=2, rows_per_file=3)
    frame = spark.readStream.schema(SCHEMA).option("maxFilesPerTrigger", 1).json(str(directory / "in"))
    query = (frame.groupBy("key").count().writeStream.outputMode("update")
             .foreachBatch(lambda df, batch_id: df.collect())
             .option("checkpointLocation", str(directory / "cp"))
             .trigger(availableNow=True).start())
    query.awaitTermination(120)
    query.stop()
