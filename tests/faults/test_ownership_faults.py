"""Ownership, names and failure paths: another pipeline under the same name, odd job names, a
checkpoint removed while the job runs, a query that fails to start, and settings Spark cannot
run. Each failure is the job error naming what is at fault, and nothing is deleted."""

from __future__ import annotations

import json
import re
import shutil

import pytest

from pyflink_compat.checkpoints.layout import REGISTRY_NAME
from pyflink_compat.common import JobStatus
from pyflink_compat.datastream import ExternalizedCheckpointRetention
from pyflink_compat.spark.ownership import job_directory_name
from pyflink_compat.spark.supervisor import job_run
from pyflink_compat.util.exceptions import JobExecutionError
from tests._helpers.files import file_uri, tree, write_json_files
from tests._helpers.jobs import INTERVAL_MS, BatchFiles, json_stream, run_to_end, wait_for_commits

R = ExternalizedCheckpointRetention


@pytest.fixture(scope="module")
def source(tmp_path_factory):
    directory = tmp_path_factory.mktemp("ownership_in")
    write_json_files(directory, n_files=2, rows_per_file=3)
    return directory


def _env(make_env, root, retention, options=None):
    env = make_env(dict({"restart-strategy.type": "none"}, **(options or {})))
    env.enable_checkpointing(INTERVAL_MS)
    env.get_checkpoint_config().set_checkpoint_storage_dir(file_uri(root))
    env.get_checkpoint_config().set_externalized_checkpoint_retention(R[retention])
    return env


def _start(env, frame, out, job=None, stateful=False, bounded=True):
    if stateful:
        frame = frame.groupBy("key").count()
    writer = frame.writeStream.outputMode("update" if stateful else "append").foreachBatch(BatchFiles(out))
    env.add_sink(writer, "rows", bounded=bounded)
    return env.execute_async(job) if job is not None else env.execute_async()


# -- another pipeline under the same (default) name ------------------------------------------------
@pytest.mark.parametrize("other", ["stateful", "other_source"])
def test_another_pipeline_under_the_default_name_is_refused_and_deletes_nothing(
        make_env, source, tmp_path, other):
    root = tmp_path / "cp"
    env = _env(make_env, root, "RETAIN_ON_CANCELLATION")
    outcome = run_to_end(_start(env, json_stream(env, source), tmp_path / "out0"))
    assert not isinstance(outcome, Exception), outcome
    before = tree(root)
    assert "Flink Streaming Job/rows/metadata" in before

    env = _env(make_env, root, "DELETE_ON_CANCELLATION")
    if other == "stateful":
        frame, expected = json_stream(env, source), "it was written by a query without state, this query keeps state"
    else:
        frame = env.spark_session.readStream.format("rate").load().selectExpr("value AS id", "'k' AS key")
        expected = "it was written for the sources [StreamingRelation FileSource]"
    with pytest.raises(JobExecutionError) as caught:
        _start(env, frame, tmp_path / "out1", stateful=(other == "stateful"))
    message = str(caught.value)
    assert "Job 'Flink Streaming Job' could not start: The checkpoint " in message, message
    assert "Flink Streaming Job/rows does not fit this job's pipeline" in message, message
    assert expected in message, message
    assert tree(root) == before


def test_a_checkpoint_restored_from_but_not_created_by_the_job_is_never_deleted(
        make_env, source, tmp_path):
    root = tmp_path / "cp"
    # Another query (no run of the job) wrote the checkpoint the job then resumes from.
    other = _env(make_env, root, "RETAIN_ON_CANCELLATION")
    query = other.configure_writer(json_stream(other, source).writeStream.format("noop"), "rows",
                                   job_name="restorer").start()
    wait_for_commits(root / "restorer" / "rows")
    query.stop()
    before = tree(root / "restorer" / "rows")
    env = _env(make_env, root, "DELETE_ON_CANCELLATION")
    writer = json_stream(env, source).writeStream.format("noop")
    env.add_sink(writer, "rows", bounded=True)
    client = env.execute_async("restorer")
    assert not isinstance(run_to_end(client), Exception)
    assert set(before) <= set(tree(root / "restorer" / "rows"))
    marker = json.loads((root / "restorer" / "_pyflink_compat_job.json").read_text())
    assert marker["sinks"]["rows"]["created_by"] is None
    assert marker["runs"][-1]["restored"] == ["rows"] and marker["runs"][-1]["created"] == []
    assert marker["runs"][-1]["claim_mode"] == "NO_CLAIM"
    assert marker["runs"][-1]["query_ids"]["rows"] == json.loads(
        (root / "restorer" / "rows" / "metadata").read_text())["id"]


def test_a_resumed_checkpoint_a_run_of_the_same_job_created_is_the_jobs_own(make_env, source, tmp_path):
    root = tmp_path / "cp"
    job = "same-job"
    env = _env(make_env, root, "RETAIN_ON_CANCELLATION")
    outcome = run_to_end(_start(env, json_stream(env, source), tmp_path / "o1", job))
    assert not isinstance(outcome, Exception), outcome
    env = _env(make_env, root, "DELETE_ON_CANCELLATION")
    outcome = run_to_end(_start(env, json_stream(env, source), tmp_path / "o2", job))
    assert not isinstance(outcome, Exception), outcome
    assert not (root / job).exists()
    assert root.is_dir()


# -- job names --------------------------------------------------------------------------------
@pytest.mark.parametrize("name", [".", "..", "x" * 300, "a/b:c%d\\e ~é", " "])
def test_any_job_name_gets_a_directory_of_its_own_inside_the_storage_dir(make_env, source, tmp_path, name):
    root = tmp_path / "cp"
    env = _env(make_env, root, "RETAIN_ON_CANCELLATION")
    outcome = run_to_end(_start(env, json_stream(env, source), tmp_path / "out", name))
    assert not isinstance(outcome, Exception), outcome
    directory = job_directory_name(name)
    assert "/" not in directory and directory not in (".", "..") and len(directory.encode()) <= 255
    assert [p.name for p in root.iterdir() if p.name != REGISTRY_NAME] == [directory]
    marker = json.loads((root / directory / "_pyflink_compat_job.json").read_text())
    assert marker["job_name"] == name
    assert (root / directory / "rows" / "metadata").is_file()
    env = _env(make_env, root, "NO_EXTERNALIZED_CHECKPOINTS")
    outcome = run_to_end(_start(env, json_stream(env, source), tmp_path / "out2", name))
    assert not isinstance(outcome, Exception), outcome
    # its own directory went, nothing else (the registry keeps the record of each run)
    assert root.is_dir() and [p.name for p in root.iterdir()] == [REGISTRY_NAME]


def test_job_directory_names_never_collide():
    names = [".", "..", "", " ", "%2E", "a/b", "a%2Fb", "a_b", "x" * 300, "x" * 301, "é", "%C3%A9", "~", "%7E"]
    assert len({job_directory_name(n) for n in names}) == len(names)


# -- a checkpoint removed while the job runs -------------------------------------------------------
def test_a_checkpoint_removed_mid_run_fails_the_job_naming_it_and_nothing_is_reprocessed(make_env, tmp_path):
    root = tmp_path / "cp"
    env = _env(make_env, root, "NO_EXTERNALIZED_CHECKPOINTS",
               {"restart-strategy.type": "fixed-delay", "restart-strategy.fixed-delay.attempts": "2",
                "restart-strategy.fixed-delay.delay": "10 ms"})
    frame = env.spark_session.readStream.format("rate").option("rowsPerSecond", 20).load() \
        .selectExpr("value AS id", "'k' AS key")
    sink = BatchFiles(tmp_path / "out")
    env.add_sink(frame.writeStream.foreachBatch(sink), "rows")
    client = env.execute_async("removed-mid-run")
    checkpoint = root / "removed-mid-run" / "rows"
    seen = wait_for_commits(checkpoint, count=2)
    shutil.rmtree(checkpoint)
    outcome = run_to_end(client)
    assert isinstance(outcome, JobExecutionError), outcome
    message = str(outcome)
    found = re.search(r"The checkpoint (\S+) lost the progress of this job: batch (\d+) was its last "
                      r"committed batch, and the checkpoint now has (no metadata file|commits up to "
                      r"batch \d+|no commit log)", message)
    assert found, message
    assert found.group(1).endswith("removed-mid-run/rows") and int(found.group(2)) >= min(seen)
    assert client.get_job_status().result() is JobStatus.FAILED
    assert job_run(client).restarts == 2  # the restart strategy retried; each check refused
    assert sink.calls == sorted(set(sink.calls)), sink.calls  # no batch ran twice, none from 0 again


# -- start-up failures and impossible settings ---------------------------------------------------
def test_a_query_that_fails_to_start_goes_through_the_restart_strategy(make_env, source, tmp_path):
    root = tmp_path / "cp"
    env = _env(make_env, root, "RETAIN_ON_CANCELLATION",
               {"restart-strategy.type": "fixed-delay", "restart-strategy.fixed-delay.attempts": "2",
                "restart-strategy.fixed-delay.delay": "10 ms"})
    env.add_sink(json_stream(env, source).writeStream.format("no-such-sink-format"), "rows")
    client = env.execute_async("start-fails")
    outcome = run_to_end(client)
    assert isinstance(outcome, JobExecutionError), outcome
    assert "Query 'rows' could not start from its checkpoint" in str(outcome)
    assert "start-fails/rows" in str(outcome)
    assert job_run(client).restarts == 2


@pytest.mark.parametrize("options, expected", [
    ({"state.backend.type": "rocks-db"},
     "state.backend.type (or the state backend's class) = 'rocks-db' is neither a known value"),
    ({"state.backend.type": "com.example.missingstatestore"},
     "= 'com.example.missingstatestore' is neither a known value"),
    ({"execution.checkpointing.storage": "com.example.missingstorage"},
     "execution.checkpointing.storage (or the checkpoint storage's class) = 'com.example.missingstorage'"),
])
def test_settings_spark_cannot_run_fail_at_start_not_after_endless_restarts(
        make_env, source, tmp_path, options, expected):
    root = tmp_path / "cp"
    # The default restart strategy (checkpointing on) would retry forever.
    env = make_env(dict(options, **{"execution.checkpointing.dir": file_uri(root)}))
    env.enable_checkpointing(INTERVAL_MS)
    env.add_sink(json_stream(env, source).writeStream.format("noop"), "rows")
    with pytest.raises(JobExecutionError) as caught:
        env.execute_async("impossible")
    assert expected in str(caught.value), str(caught.value)
    assert "nor a class on the JVM class path" in str(caught.value)
    assert not root.exists() or list(root.iterdir()) == []
