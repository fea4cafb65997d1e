"""Helpers for the job-runtime integration tests: real local Spark, real files, real processes.

Every test builds its environments through the ``make_env`` fixture, which closes them (and so
cancels any job still running) when the test ends, so that no query outlives its test.
"""

from __future__ import annotations

import json
import os
import time
from typing import Any, Callable, Dict, Iterable, Iterator, List, Optional

import pytest

SCHEMA = "id LONG, key STRING"
#: Short trigger interval used by the tests, in ms.
INTERVAL_MS = 250


_HERE = os.path.dirname(os.path.abspath(__file__))


def pytest_configure(config: Any) -> None:
    config.addinivalue_line("markers", "slow: a slow integration test (still runs by default)")


def pytest_collection_modifyitems(items: List[Any]) -> None:
    # The deprecated (since Flink 1.19) storage/backend setters are exactly what these tests use.
    for item in items:
        if str(item.fspath).startswith(_HERE):
            item.add_marker(pytest.mark.filterwarnings(
                "ignore:Deprecated since version 1.19:DeprecationWarning"))


# -- input files --------------------------------------------------------------------------------
def write_json_files(directory: Any, n_files: int, rows_per_file: int, start_file: int = 0,
                     n_keys: int = 3) -> List[Dict[str, Any]]:
    """Write ``n_files`` JSON-lines files of unique ids into ``directory``.

    File ``f`` holds ids ``f * rows_per_file ...``; keys cycle over ``k0 .. k<n_keys-1>``. Each
    file is written under a hidden name then renamed, so a streaming source never sees half a
    file.

    :return: The records written.
    """
    os.makedirs(str(directory), exist_ok=True)
    records = []
    for f in range(start_file, start_file + n_files):
        rows = [{"id": f * rows_per_file + i, "key": "k{}".format((f * rows_per_file + i) % n_keys)}
                for i in range(rows_per_file)]
        hidden = os.path.join(str(directory), ".part-{:05d}.json".format(f))
        with open(hidden, "w") as out:
            for row in rows:
                out.write(json.dumps(row) + "\n")
        os.replace(hidden, os.path.join(str(directory), "part-{:05d}.json".format(f)))
        records.extend(rows)
    return records


def file_uri(path: Any) -> str:
    return "file://" + os.path.abspath(str(path))


# -- waiting ------------------------------------------------------------------------------------
def wait_until(predicate: Callable[[], Any], timeout: float = 60.0, interval: float = 0.1,
               what: str = "condition") -> Any:
    """Poll ``predicate`` until it returns something truthy; fail the test after ``timeout``."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            pytest.fail("Timed out after {:.0f} s waiting for {}".format(timeout, what))
        time.sleep(interval)


# -- Spark checkpoint layout --------------------------------------------------------------------
def log_ids(checkpoint: Any, log: str) -> List[int]:
    """The batch ids present in ``<checkpoint>/<log>`` (``offsets`` or ``commits``)."""
    directory = os.path.join(str(checkpoint), log)
    if not os.path.isdir(directory):
        return []
    return sorted(int(name) for name in os.listdir(directory) if name.isdigit())


def files_under(directory: Any) -> List[str]:
    """Every file below ``directory``, as paths relative to it."""
    found = []
    for root, _, names in os.walk(str(directory)):
        for name in names:
            found.append(os.path.relpath(os.path.join(root, name), str(directory)))
    return sorted(found)


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


def read_batch_files(out: Any) -> Dict[int, List[Dict[str, Any]]]:
    """The output of :class:`BatchFiles` (or the crash driver), by batch id."""
    found: Dict[int, List[Dict[str, Any]]] = {}
    if not os.path.isdir(str(out)):
        return found
    for name in os.listdir(str(out)):
        if name.startswith("batch_id=") and name.endswith(".json"):
            with open(os.path.join(str(out), name)) as f:
                found[int(name[len("batch_id="):-len(".json")])] = json.load(f)
    return found


def all_ids(batches: Dict[int, List[Dict[str, Any]]]) -> List[int]:
    return sorted(row["id"] for rows in batches.values() for row in rows)


# -- environments -------------------------------------------------------------------------------
@pytest.fixture
def make_env() -> Iterator[Callable[..., Any]]:
    """Build a ``StreamExecutionEnvironment`` (optionally from Flink options); closed at the end."""
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


def json_stream(env: Any, directory: Any, max_files: int = 1) -> Any:
    """A streaming DataFrame over the JSON files in ``directory``, built from ``env``'s session."""
    return (env.spark_session.readStream.schema(SCHEMA)
            .option("maxFilesPerTrigger", max_files).json(str(directory)))


def wait_for_commits(checkpoint: Any, count: int = 1, timeout: float = 90.0) -> List[int]:
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


def ids_of(records: Iterable[Dict[str, Any]]) -> List[int]:
    return sorted(r["id"] for r in records)


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
