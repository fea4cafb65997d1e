"""Local files with their Hadoop checksums, written and read from Python, are the very files
Hadoop's local file system writes and reads: Hadoop reads and checks them, a read checked here
fails with Hadoop's own message, and the local access answers as Hadoop's does."""

from __future__ import annotations

import json

import pytest

from pyflink_compat.checkpoints.crc import ChecksumError, crc_name
from pyflink_compat.checkpoints.file_access import LocalFileAccess
from pyflink_compat.checkpoints.file_access_hadoop import HadoopFileAccess

NAME = "_pyflink_compat_job.json"
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


def _hadoop_read_error(spark, directory, name):
    try:
        _hadoop_read(spark, directory, name)
    except Exception as e:  # noqa: BLE001 - the Java exception is what is compared
        return str(e.java_exception.toString())
    return None


def test_a_file_and_its_checksum_file_are_the_bytes_hadoop_writes(spark, tmp_path):
    assert len(DATA) > 1024  # more than one checksum chunk
    ours, hadoops = tmp_path / "ours", tmp_path / "hadoop"
    access = LocalFileAccess(checksums=True)
    access.makedirs(str(ours))
    access.write_atomic(str(ours / NAME), DATA)
    _hadoop_write(spark, hadoops, NAME, DATA)
    assert (ours / crc_name(NAME)).read_bytes() == (hadoops / crc_name(NAME)).read_bytes()
    assert sorted(p.name for p in ours.iterdir() if NAME in p.name) == sorted(
        p.name for p in hadoops.iterdir() if NAME in p.name)
    assert _hadoop_read(spark, ours, NAME) == DATA


def test_replacing_a_file_leaves_one_matching_checksum_file_and_nothing_aside(spark, tmp_path):
    access = LocalFileAccess(checksums=True)
    access.write_atomic(str(tmp_path / NAME), DATA)
    access.write_atomic(str(tmp_path / NAME), b"{}")
    assert sorted(p.name for p in tmp_path.iterdir() if NAME in p.name) == [crc_name(NAME), NAME]
    assert access.read_bytes(str(tmp_path / NAME)) == b"{}"
    assert _hadoop_read(spark, tmp_path, NAME) == b"{}"
    access.remove_file(str(tmp_path / NAME))
    assert [p.name for p in tmp_path.iterdir() if NAME in p.name] == []


@pytest.mark.parametrize("written, read", [
    (DATA, DATA.replace(b'"r"', b'"x"')),  # a chunk that does not match
    (DATA, DATA + b"!"),  # longer than its checksums say
    (DATA, DATA[:1000]),  # shorter
    (DATA[:1024], DATA[:1024] + b"!" * 512),  # a chunk past those its checksums cover
], ids=["changed", "longer", "shorter", "beyond"])
def test_a_read_checked_here_fails_with_hadoops_own_message(spark, tmp_path, written, read):
    _hadoop_write(spark, tmp_path, NAME, written)
    access = LocalFileAccess(checksums=True)
    assert access.read_bytes(str(tmp_path / NAME)) == written
    (tmp_path / NAME).write_bytes(read)
    with pytest.raises(ChecksumError) as raised:
        access.read_bytes(str(tmp_path / NAME))
    assert raised.value.strerror == _hadoop_read_error(spark, tmp_path, NAME)
    assert LocalFileAccess().read_bytes(str(tmp_path / NAME)) == read  # unchecked without checksums


def test_a_checksum_file_that_is_not_one_is_ignored_as_hadoop_ignores_it(spark, tmp_path):
    _hadoop_write(spark, tmp_path, NAME, DATA)
    (tmp_path / crc_name(NAME)).write_bytes(b"junk")
    assert LocalFileAccess(checksums=True).read_bytes(str(tmp_path / NAME)) == DATA
    assert _hadoop_read(spark, tmp_path, NAME) == DATA


def test_a_file_changed_behind_the_checksum_written_here_is_refused_by_hadoop_too(spark, tmp_path):
    LocalFileAccess(checksums=True).write_atomic(str(tmp_path / NAME), DATA)
    (tmp_path / NAME).write_bytes(DATA[:-2] + b"]}")
    with pytest.raises(Exception, match="ChecksumException"):
        _hadoop_read(spark, tmp_path, NAME)


def test_a_missing_file_and_a_directory_fail_to_read_as_python_errors(tmp_path):
    access = LocalFileAccess(checksums=True)
    with pytest.raises(FileNotFoundError):
        access.read_bytes(str(tmp_path / NAME))
    (tmp_path / NAME).mkdir()
    with pytest.raises(IsADirectoryError):
        access.read_bytes(str(tmp_path / NAME))


@pytest.fixture
def job_dir(tmp_path):
    sink = tmp_path / "job" / "rows"
    (sink / "commits").mkdir(parents=True)
    (sink / "commits" / "0").write_text("v1\n{}\n")
    (sink / "commits" / ".0.crc").write_bytes(b"crc")
    (sink / "state" / "0").mkdir(parents=True)
    (sink / "metadata").write_text('{"id":"q"}\n')
    return tmp_path / "job"


QUESTIONS = [("exists", "rows"), ("exists", "rows/offsets"), ("isdir", "rows/state"), ("isfile", "rows/metadata"),
             ("isfile", "rows/nothing"), ("listdir", "rows/commits"), ("listdir", "rows/state"),
             ("listdir", "rows/offsets"), ("read_bytes", "rows/metadata")]


def test_the_local_access_answers_as_hadoops_does(spark, job_dir):
    local, hadoop = LocalFileAccess(checksums=True), HadoopFileAccess(spark)
    for method, relative in QUESTIONS:
        answers = [getattr(local, method)(str(job_dir / relative)),
                   getattr(hadoop, method)("file:{}/{}".format(job_dir, relative))]
        assert answers[0] == answers[1], (method, relative, answers)
    assert local.listdir(str(job_dir / "rows" / "commits")) == [".0.crc", "0"]
