"""The files of a job directory read from Python on local storage give Hadoop's answers, and a
new checkpoint's pipeline shape is recorded after its start rather than read before it."""

from __future__ import annotations

import json

import pytest

from pyflink_compat.spark.checkpoint_dirs import MARKER_NAME, CheckpointDirs
from pyflink_compat.spark.job_files import CheckpointError, JobFiles

from tests._helpers.files import file_uri, write_json_files
from tests._helpers.jobs import INTERVAL_MS, json_stream, wait_for_commits
from tests._helpers.waiting import wait_until
from tests._helpers.py4j_commands import sent_commands


@pytest.fixture
def job_dir(tmp_path):
    sink = tmp_path / "job" / "rows"
    (sink / "commits").mkdir(parents=True)
    (sink / "commits" / "0").write_text("v1\n{}\n")
    (sink / "commits" / ".0.crc").write_bytes(b"crc")
    (sink / "state" / "0").mkdir(parents=True)
    (sink / "metadata").write_text('{"id":"q"}\n')
    return tmp_path / "job"


QUESTIONS = [("exists", ("rows",)), ("exists", ("rows", "offsets")), ("is_file", ("rows", "metadata")),
             ("is_file", ("rows", "nothing")), ("names", ("rows", "commits")), ("names", ("rows", "state")),
             ("names", ("rows", "offsets")), ("read", ("rows", "metadata")), ("read", ("rows", "nothing"))]


def test_local_storage_answers_from_python_as_hadoop_does(spark, job_dir):
    local = JobFiles(spark, "file://" + str(job_dir))
    hadoop = JobFiles(spark, str(job_dir))  # no scheme: through Hadoop's default file system
    assert local.local == str(job_dir) and hadoop.local is None
    for method, parts in QUESTIONS:
        answers = [getattr(files, method)(*parts) for files in (local, hadoop)]
        if method == "names":
            answers = [sorted(a) for a in answers]
        assert answers[0] == answers[1], (method, parts, answers)
    assert sorted(local.names("rows", "commits")) == ["0"]
    assert local.read("rows", "metadata") == '{"id":"q"}\n'


def test_local_storage_looks_up_hadoop_only_once_a_file_is_read(spark, job_dir):
    files = JobFiles(spark, "file://" + str(job_dir))
    assert files.exists("rows") and files.names("rows", "commits") == ["0"]
    assert files.is_file("rows", "metadata") and files.read("rows", "missing") is None
    assert files._hadoop is None
    assert files.read("rows", "metadata") is not None
    assert files._hadoop is not None


def test_a_file_that_does_not_match_its_checksum_is_corrupt_on_local_storage(spark, tmp_path):
    files = JobFiles(spark, file_uri(tmp_path / "job"))
    files.write('{"id":"q"}\n', "rows", "metadata")
    assert (tmp_path / "job" / "rows" / ".metadata.crc").exists()
    (tmp_path / "job" / "rows" / "metadata").write_text('{"id":"Q"}\n')
    with pytest.raises(CheckpointError, match=r"rows/metadata is corrupt \(its content does not match"):
        files.read("rows", "metadata")


def test_storage_that_cannot_be_reached_fails_when_the_job_directory_is_made(spark):
    with pytest.raises(CheckpointError, match="The checkpoint storage nosuchscheme://x/job cannot be reached"):
        JobFiles(spark, "nosuchscheme://x/job")


def test_a_shape_left_for_later_is_recorded_once_and_never_replaced(spark, tmp_path):
    dirs = CheckpointDirs(spark, file_uri(tmp_path / "job"), "job")
    dirs.begin_run("run1", {"rows": None})
    assert dirs.recorded_pipeline("rows") is None
    shape = {"sources": ["StreamingRelation FileSource"], "stateful": True, "format": "noop"}
    dirs.record_pipeline("rows", lambda: shape)
    assert dirs.recorded_pipeline("rows") == shape

    def must_not_be_read():
        raise AssertionError("the recorded shape was read again")

    dirs.record_pipeline("rows", must_not_be_read)
    dirs.record_pipeline("other", must_not_be_read)  # no such sink directory: nothing recorded
    assert dirs.recorded_pipeline("rows") == shape and dirs.recorded_pipeline("other") is None


def test_a_run_that_finds_its_checkpoint_without_a_shape_records_the_shape_at_its_start(spark, tmp_path):
    dirs = CheckpointDirs(spark, file_uri(tmp_path / "job"), "job")
    dirs.begin_run("run1", {"rows": None})  # the first run ended before its first commit
    (tmp_path / "job" / "rows").mkdir()
    shape = {"sources": [], "stateful": False, "format": "parquet"}
    dirs.begin_run("run2", {"rows": shape})
    assert dirs.recorded_pipeline("rows") == shape
    assert dirs.read_marker()["sinks"]["rows"]["created_by"] == "run1"


def test_a_job_on_a_new_checkpoint_starts_without_reading_its_plan_and_records_it_after_a_commit(
        make_env, tmp_path):
    write_json_files(tmp_path / "in", n_files=1, rows_per_file=4)
    env = make_env()
    env.enable_checkpointing(INTERVAL_MS)
    env.get_checkpoint_config().set_checkpoint_storage_dir(file_uri(tmp_path / "cp"))
    counts = json_stream(env, tmp_path / "in").groupBy("key").count()
    env.add_sink(counts.writeStream.outputMode("update").format("noop"), "counts")
    with sent_commands() as sent:
        client = env.execute_async("fresh")
    assert not [c for c in sent if "\nnodeName\n" in c], "the plan was read before the start"
    wait_for_commits(tmp_path / "cp" / "fresh" / "counts")
    marker = tmp_path / "cp" / "fresh" / MARKER_NAME
    shape = wait_until(lambda: json.loads(marker.read_text())["sinks"]["counts"]["pipeline"],
                       what="the pipeline's shape in the marker")
    assert shape["sources"] == ["StreamingRelation FileSource"]
    assert shape["stateful"] is True and shape["format"] == "noop"
    assert client.cancel().result(60) is None
