"""Real Spark query checkpoints for the savepoint tests.

Queries are started straight from PySpark on the test run's session, read JSON files written
here, and checkpoint under pytest's temporary directories.
"""

from __future__ import annotations

import json
import os
from typing import Any, Dict, Iterator, List, Optional

import pytest

from pyflink_compat.common import Configuration
from pyflink_compat.datastream import StreamExecutionEnvironment

from tests._helpers.files import write_input
from tests.savepoints._counting_jobs import INTERVAL_MS
from tests.savepoints._queries import HDFS, rows_of, run_until_idle, session_conf, start_counts, start_rows


@pytest.fixture(scope="session")
def saved_job(spark: Any, tmp_path_factory: Any) -> Dict[str, str]:
    """A stopped job of two queries (HDFS-backed counts and stateless rows), two batches each,
    with a job marker, and a savepoint of it. Tests copy what they want to damage."""
    from pyflink_compat.checkpoints import write_savepoint

    base = str(tmp_path_factory.mktemp("saved_job"))
    input_dir = os.path.join(base, "input")
    job_dir = os.path.join(base, "storage", "job-a")
    os.makedirs(job_dir)
    with open(os.path.join(job_dir, "_pyflink_compat_job.json"), "w") as stream:
        json.dump({"job_name": "job-a", "sinks": {"counts": None, "rows": None}}, stream)
    write_input(input_dir, "f0.json", rows_of("aab", 0))
    with session_conf(spark, {"spark.sql.streaming.stateStore.providerClass": HDFS}):
        counts = start_counts(spark, input_dir, os.path.join(job_dir, "counts"), "saved_job_counts")
        rows = start_rows(spark, input_dir, os.path.join(job_dir, "rows"), os.path.join(base, "rows_out"))
        try:
            run_until_idle(counts)
            run_until_idle(rows)
            write_input(input_dir, "f1.json", rows_of("bc", 10))
            run_until_idle(counts)
            run_until_idle(rows)
        finally:
            counts.stop()
            rows.stop()
    savepoint = write_savepoint(job_dir, os.path.join(base, "storage", "savepoints"), "job-a",
                                job_id="0123456789abcdef0123456789abcdef")
    return {"base": base, "input": input_dir, "job_dir": job_dir, "storage": os.path.join(base, "storage"),
            "savepoint": savepoint, "rows_out": os.path.join(base, "rows_out")}


@pytest.fixture
def jobs() -> Iterator[Any]:
    """Builds environments of counting jobs (options as Flink keys); closes them afterwards."""
    made: List[StreamExecutionEnvironment] = []

    def build(options: Optional[Dict[str, str]] = None) -> StreamExecutionEnvironment:
        conf = Configuration()
        for key, value in (options or {}).items():
            conf.set_string(key, value)
        env = StreamExecutionEnvironment.get_execution_environment(conf)
        env.enable_checkpointing(INTERVAL_MS)
        made.append(env)
        return env

    yield build
    for env in made:
        env.close()


@pytest.fixture
def envs() -> Iterator[Any]:
    """Builds environments that keep their checkpoints when cancelled (options as Flink keys),
    checkpointing every 200 ms; closes them afterwards."""
    made: List[StreamExecutionEnvironment] = []

    def build(options: Optional[Dict[str, str]] = None) -> StreamExecutionEnvironment:
        configuration = Configuration().set_string(
            "execution.checkpointing.externalized-checkpoint-retention", "RETAIN_ON_CANCELLATION")
        for key, value in (options or {}).items():
            configuration.set_string(key, value)
        env = StreamExecutionEnvironment.get_execution_environment(configuration)
        env.enable_checkpointing(200)
        made.append(env)
        return env

    yield build
    for env in made:
        env.close()
