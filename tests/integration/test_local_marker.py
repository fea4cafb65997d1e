"""The ownership marker of a job on local storage is written from Python, as the very files
Hadoop's local file system would write: Hadoop reads and checks it, and it checks Hadoop's."""

from __future__ import annotations

import json

import pytest

from pyflink_compat.spark.checkpoint_dirs import MARKER_NAME, CheckpointDirs, CheckpointError
from pyflink_compat.spark.local_marker import LocalMarker, MarkerFileError

DATA = json.dumps({"job_name": "j", "sinks": {"s{}".format(n): {"created_by": "r"} for n in range(90)}}).encode()


def _hadoop(spark, directory):
    j_path = spark._jvm.org.apache.hadoop.fs.Path("file:" + str(directory))
    return j_path.getFileSystem(spark._jsparkSession.sessionState().newHadoopConf()), j_path


def _hadoop_write(spark, directory, name, data):
    fs, j_dir = _hadoop(spark, directory)
    stream = fs.create(spark._jvm.org.apache.hadoop.fs.Path(j_dir, name), True)
    stream.write(bytearray(data))
    stream.close()


def _hadoop_read(spark, directory, name):
    fs, j_dir = _hadoop(spark, directory)
    stream = fs.open(spark._jvm.org.apache.hadoop.fs.Path(j_dir, name))
    try:
        return bytes(stream.readAllBytes())
    finally:
        stream.close()


def test_the_marker_and_its_checksum_file_are_the_bytes_hadoop_writes(spark, tmp_path):
    assert len(DATA) > 1024  # more than one checksum chunk
    ours, hadoops = tmp_path / "ours", tmp_path / "hadoop"
    LocalMarker(str(ours), MARKER_NAME, "file:" + str(ours)).make_directory()
    LocalMarker(str(ours), MARKER_NAME, "file:" + str(ours)).write(DATA)
    _hadoop_write(spark, hadoops, MARKER_NAME, DATA)
    crc = "." + MARKER_NAME + ".crc"
    assert (ours / crc).read_bytes() == (hadoops / crc).read_bytes()
    assert sorted(p.name for p in ours.iterdir() if MARKER_NAME in p.name) == sorted(
        p.name for p in hadoops.iterdir() if MARKER_NAME in p.name)
    assert _hadoop_read(spark, ours, MARKER_NAME) == DATA


def test_replacing_the_marker_leaves_one_matching_checksum_file_and_nothing_aside(spark, tmp_path):
    marker = LocalMarker(str(tmp_path), MARKER_NAME, "file:" + str(tmp_path))
    marker.write(DATA)
    marker.write(b"{}")
    assert sorted(p.name for p in tmp_path.iterdir() if MARKER_NAME in p.name) == [
        "." + MARKER_NAME + ".crc", MARKER_NAME]
    assert marker.read() == b"{}"
    assert _hadoop_read(spark, tmp_path, MARKER_NAME) == b"{}"


def test_a_marker_hadoop_wrote_is_read_and_checked_against_its_checksum(spark, tmp_path):
    _hadoop_write(spark, tmp_path, MARKER_NAME, DATA)
    marker = LocalMarker(str(tmp_path), MARKER_NAME, "file:" + str(tmp_path))
    assert marker.read() == DATA
    (tmp_path / MARKER_NAME).write_bytes(DATA.replace(b'"r"', b'"x"'))
    with pytest.raises(MarkerFileError, match=r"_pyflink_compat_job\.json is corrupt \(its content does "
                                              r"not match its checksum file: checksum mismatch"):
        marker.read()


def test_a_marker_changed_behind_the_checksum_written_here_is_refused_by_hadoop_too(spark, tmp_path):
    LocalMarker(str(tmp_path), MARKER_NAME, "file:" + str(tmp_path)).write(DATA)
    (tmp_path / MARKER_NAME).write_bytes(DATA[:-2] + b"]}")
    with pytest.raises(Exception, match="ChecksumException"):
        _hadoop_read(spark, tmp_path, MARKER_NAME)


def test_no_marker_reads_as_none_and_an_unreadable_one_names_itself(spark, tmp_path):
    marker = LocalMarker(str(tmp_path / "job"), MARKER_NAME, "file:" + str(tmp_path / "job"))
    assert marker.read() is None
    (tmp_path / "job" / MARKER_NAME).mkdir(parents=True)
    with pytest.raises(MarkerFileError, match=r"file:.*/job/_pyflink_compat_job\.json cannot be read: "):
        marker.read()


def test_a_job_on_local_storage_keeps_its_marker_with_a_checksum_and_refuses_a_corrupt_one(spark, tmp_path):
    local = CheckpointDirs(spark, "file:" + str(tmp_path / "a"), "job")
    local.begin_run("run1", {})
    assert (tmp_path / "a" / ("." + MARKER_NAME + ".crc")).exists()
    assert local.read_marker()["runs"][0]["run"] == "run1"
    (tmp_path / "a" / MARKER_NAME).write_text("{")
    with pytest.raises(CheckpointError, match="is corrupt"):
        local.read_marker()
