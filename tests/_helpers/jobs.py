"""Jobs built through pyflink_compat's API on the test run's local Spark: the environments,
their input stream, a batch-keyed sink, and waiting for a job's commits or its end.

:func:`make_env` and :func:`job_temp_dir` are fixtures; a folder's ``conftest.py`` imports them
to give its tests these fixtures (``job_temp_dir`` then applies to every test there).
"""

from __future__ import annotations

import json
import os
import time
from typing import Any, Callable, Dict, Iterator, List, Optional

import pytest

from tests._helpers.files import log_ids, read_batch_files, write_json_files
from tests._helpers.waiting import wait_until

#: The schema of the files :func:`~tests._helpers.files.write_json_files` writes.
SCHEMA = "id LONG, key STRING"
#: Short checkpoint interval used by the tests, in ms.
INTERVAL_MS = 250
#: The options of a job that runs one micro-batch per checkpoint interval, so that every
#: committed batch is a reported checkpoint (tests of per-checkpoint rules count on that).
ONE_BATCH_PER_INTERVAL = {"compat.trigger.mode": "CHECKPOINT_INTERVAL"}


# -- environments -------------------------------------------------------------------------------
@pytest.fixture
def make_env() -> Iterator[Callable[..., Any]]:
    """Build a ``StreamExecutionEnvironment`` (optionally from Flink options); each is closed
    (and so cancels any job still running) when the test ends, so no query outlives its test."""
    from pyflink_compat.common import Configuration
    from pyflink_compat.datastream import StreamExecutionEnvironment

    made: List[Any] = []

    def build(options: Optional[Dict[str, Any]] = None) -> Any:
        configuration = None
        if options:
            configuration = Configuration()
            for key, value in options.items():
                configuration.set_string(key, str(value))
        env = StreamExecutionEnvironment.get_execution_environment(configuration)
        made.append(env)
        return env

    yield build
    for env in made:
        env.close()


@pytest.fixture(autouse=True)
def job_temp_dir(tmp_path: Any, monkeypatch: Any) -> str:
    """Where jobs make their temporary checkpoint directories during a test: under its tmp_path.

    pyflink_compat makes them with :func:`tempfile.mkdtemp`; pointing Python's temporary
    directory into the test's own directory keeps them there and makes them countable.
    """
    import tempfile

    directory = tmp_path / "_job_tmp"
    directory.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(directory))
    return str(directory)


def json_stream(env: Any, directory: Any, max_files: int = 1) -> Any:
    """A streaming DataFrame over the JSON files in ``directory``, built from ``env``'s session."""
    return (env.spark_session.readStream.schema(SCHEMA)
            .option("maxFilesPerTrigger", max_files).json(str(directory)))


# -- a foreachBatch sink keyed by batch id -----------------------------------------------------
class BatchFiles:
    """A ``foreachBatch`` function that writes each batch to ``<out>/batch_id=<n>.json``.

    Writing is an idempotent overwrite (temporary file, then rename), so a batch replayed after
    a failure replaces its earlier output instead of adding to it.

    :param out: The output directory.
    :param fail: Called with the batch id before writing; raise from it to inject a failure.
    :param sleep: Called with the batch id; seconds to sleep before writing.
    """

    def __init__(self, out: Any, fail: Optional[Callable[[int], None]] = None,
                 sleep: Optional[Callable[[int], float]] = None):
        self.out = str(out)
        self.fail = fail
        self.sleep = sleep
        self.calls: List[int] = []
        os.makedirs(self.out, exist_ok=True)

    def __call__(self, df: Any, batch_id: int) -> None:
        self.calls.append(batch_id)
        if self.fail is not None:
            self.fail(batch_id)
        if self.sleep is not None:
            seconds = self.sleep(batch_id)
            if seconds:
                time.sleep(seconds)
        rows = [row.asDict() for row in df.collect()]
        target = os.path.join(self.out, "batch_id={}.json".format(batch_id))
        with open(target + ".tmp", "w") as f:
            json.dump(rows, f)
        os.replace(target + ".tmp", target)

    def batches(self) -> Dict[int, List[Dict[str, Any]]]:
        return read_batch_files(self.out)


class FirstSeen:
    """A ``foreachBatch`` function that notes when each input file's rows first reach it
    (``time.time()``, by the file's base name), and how many rows each batch held."""

    def __init__(self) -> None:
        self.seen: Dict[str, float] = {}
        self.rows: Dict[int, int] = {}

    def __call__(self, df: Any, batch_id: int) -> None:
        from pyspark.sql.functions import input_file_name

        now = time.time()
        names = df.select(input_file_name().alias("f")).groupBy("f").count().collect()
        self.rows[batch_id] = sum(int(row["count"]) for row in names)
        for row in names:
            self.seen.setdefault(os.path.basename(str(row["f"])), now)


# -- running jobs --------------------------------------------------------------------------------
def wait_for_commits(checkpoint: Any, count: int = 1, timeout: float = 90.0) -> List[int]:
    """Wait until Spark has committed ``count`` batches under ``checkpoint``; return their ids."""
    return wait_until(lambda: len(log_ids(checkpoint, "commits")) >= count and log_ids(checkpoint, "commits"),
                      timeout=timeout, what="{} commit(s) under {}".format(count, checkpoint))


def run_to_end(client: Any, timeout: float = 120.0) -> Any:
    """Wait for a job to end; return its result or the exception it ended with."""
    future = client.get_job_execution_result()
    try:
        return future.result(timeout)
    except Exception as e:  # the caller asserts on it
        if type(e).__name__ == "TimeoutError":
            pytest.fail("The job did not end within {} s".format(timeout))
        return e


def start_unbounded_job(make_env: Callable[..., Any], tmp_path: Any, job_name: str,
                        sink_name: str) -> Any:
    """Start a job with one unbounded ``noop`` sink over one small input file, checkpointing
    under ``<tmp_path>/cp``, and wait for its first commit.

    :return: The job's client.
    """
    write_json_files(tmp_path / "in", n_files=1, rows_per_file=2)
    env = make_env()
    env.enable_checkpointing(INTERVAL_MS)
    env.get_checkpoint_config().set_checkpoint_storage_dir("file://" + str(tmp_path / "cp"))
    env.add_sink(json_stream(env, tmp_path / "in").writeStream.format("noop"), sink_name)
    client = env.execute_async(job_name)
    wait_for_commits(tmp_path / "cp" / job_name / sink_name)
    return client


# -- a running query, as Spark sees it ----------------------------------------------------------
def query_checkpoint_dir(handle: Any) -> str:
    """The local directory a running query checkpoints into, as Spark resolved it."""
    root = str(handle._jsq.streamingQuery().resolvedCheckpointRoot())
    return root[len("file:"):] if root.startswith("file:") else root


def query_trigger(handle: Any) -> Any:
    """The JVM trigger object a running query was started with."""
    return handle._jsq.streamingQuery().trigger()


def execution_class(handle: Any) -> str:
    """The simple JVM class name of a running query's execution (micro-batch, async...)."""
    return str(handle._jsq.streamingQuery().getClass().getSimpleName())
