"""A job's ownership of its checkpoint directories: its marker, with Hadoop's checksum on local
storage and no JVM there, storage that cannot be reached, and a new checkpoint's pipeline shape
recorded after its start rather than read before it."""

from __future__ import annotations

import json

import pytest

from pyflink_compat.checkpoints.layout import MARKER_NAME
from pyflink_compat.spark.ownership import CheckpointError, JobOwnership

from tests._helpers.files import file_uri, write_json_files
from tests._helpers.jobs import INTERVAL_MS, json_stream, wait_for_commits
from tests._helpers.py4j_commands import sent_commands
from tests._helpers.waiting import wait_until


def test_a_job_on_local_storage_keeps_its_marker_with_a_checksum_and_refuses_a_corrupt_one(spark, tmp_path):
    local = JobOwnership(spark, "file:" + str(tmp_path / "a"), "job")
    local.begin_run("run1", {})
    assert (tmp_path / "a" / ("." + MARKER_NAME + ".crc")).exists()
    assert local.read_marker()["runs"][0]["run"] == "run1"
    marker = (tmp_path / "a" / MARKER_NAME).read_text()
    (tmp_path / "a" / MARKER_NAME).write_text(marker.replace("run1", "run2"))
    with pytest.raises(CheckpointError, match=r"_pyflink_compat_job\.json is corrupt \(its content does not "
                                              r"match its checksum file: org\.apache\.hadoop\.fs\.ChecksumException"):
        local.read_marker()
    (tmp_path / "a" / ("." + MARKER_NAME + ".crc")).unlink()
    (tmp_path / "a" / MARKER_NAME).write_text("{")
    with pytest.raises(CheckpointError, match="The ownership marker .* is corrupt"):
        local.read_marker()


def test_an_unreadable_marker_names_itself(spark, tmp_path):
    (tmp_path / "job" / MARKER_NAME).mkdir(parents=True)
    with pytest.raises(CheckpointError, match=r"file:.*/job/_pyflink_compat_job\.json cannot be read: "):
        JobOwnership(spark, "file:" + str(tmp_path / "job"), "job").read_marker()


def test_a_job_on_local_storage_reaches_its_files_without_the_jvm(spark, tmp_path):
    sink = tmp_path / "job" / "rows"
    with sent_commands() as sent:
        dirs = JobOwnership(spark, file_uri(tmp_path / "job"), "job")
        dirs.begin_run("run1", {"rows": None})
        (sink / "commits").mkdir(parents=True)
        (sink / "offsets").mkdir()
        (sink / "metadata").write_text('{"id":"q"}\n')
        (sink / "offsets" / "0").write_text('v1\n{"conf":{"spark.sql.shuffle.partitions":"2"}}\n{}\n')
        (sink / "commits" / "0").write_text("v1\n{}\n")
        dirs.validate("rows")
        assert dirs.holds_commit("rows", 0) and dirs.committed_batches("rows") == [0]
        assert dirs.pinned_conf("rows") == {"spark.sql.shuffle.partitions": "2"}
        assert dirs.source_count("rows") == 1 and dirs.state_operators("rows") == []
        dirs.record_query_ids()
        assert dirs.read_marker()["sinks"]["rows"]["query_id"] == "q"
    assert sent == []


def test_storage_that_cannot_be_reached_fails_when_the_job_directory_is_opened(spark):
    with pytest.raises(CheckpointError, match="The checkpoint storage nosuchscheme://x/job cannot be reached"):
        JobOwnership(spark, "nosuchscheme://x/job", "job")


def test_a_shape_left_for_later_is_recorded_once_and_never_replaced(spark, tmp_path):
    dirs = JobOwnership(spark, file_uri(tmp_path / "job"), "job")
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
    dirs = JobOwnership(spark, file_uri(tmp_path / "job"), "job")
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
