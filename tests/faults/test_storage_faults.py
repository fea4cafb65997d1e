"""A job whose storage or checkpoint files are broken fails at start with the job error, naming
the file or directory and the cause, and deletes nothing."""

from __future__ import annotations

import contextlib
import ctypes
import os
import sys
from typing import Iterator

import pytest

from pyflink_compat.datastream import ExternalizedCheckpointRetention
from pyflink_compat.util.exceptions import JobExecutionError
from tests._helpers.files import file_uri, log_ids, tree, write_json_files
from tests._helpers.jobs import INTERVAL_MS, BatchFiles, json_stream, run_to_end

JOB = "fault-job"


@pytest.fixture(scope="module")
def source(tmp_path_factory):
    directory = tmp_path_factory.mktemp("faults_in")
    write_json_files(directory, n_files=2, rows_per_file=3)
    return directory


def _env(make_env, root, retention="NO_EXTERNALIZED_CHECKPOINTS", options=None):
    env = make_env(dict({"restart-strategy.type": "none"}, **(options or {})))
    env.enable_checkpointing(INTERVAL_MS)
    env.get_checkpoint_config().set_checkpoint_storage_dir(file_uri(root))
    env.get_checkpoint_config().set_externalized_checkpoint_retention(
        ExternalizedCheckpointRetention[retention])
    return env


def _run(make_env, source, root, out, job=JOB, retention="RETAIN_ON_CANCELLATION", stateful=False):
    env = _env(make_env, root, retention)
    frame = json_stream(env, source)
    if stateful:
        frame = frame.groupBy("key").count()
    writer = frame.writeStream.outputMode("update" if stateful else "append").foreachBatch(BatchFiles(out))
    env.add_sink(writer, "rows", bounded=True)
    return run_to_end(env.execute_async(job))


@pytest.fixture
def finished_checkpoint(make_env, source, tmp_path):
    """A retained checkpoint of a finished run of the job."""
    root = tmp_path / "cp"
    outcome = _run(make_env, source, root, tmp_path / "out0")
    assert not isinstance(outcome, Exception), outcome
    return root


def _corrupt(path, text, keep_checksum):
    """Overwrite a checkpoint file; without its checksum file, Hadoop reads the new content."""
    path.write_text(text)
    crc = path.parent / ".{}.crc".format(path.name)
    if not keep_checksum and crc.exists():
        crc.unlink()


def _assert_refused(make_env, source, root, tmp_path, *fragments):
    before = tree(root)
    with pytest.raises(JobExecutionError) as caught:
        _run(make_env, source, root, tmp_path / "out1", retention="NO_EXTERNALIZED_CHECKPOINTS")
    message = str(caught.value)
    for fragment in fragments:
        assert fragment in message, message
    assert tree(root) == before  # nothing deleted or changed
    return message


#: Linux's capability that lets root write where file permissions forbid it, and the version of
#: the capget/capset structures (64-bit capability sets, two 32-bit words each).
_CAP_DAC_OVERRIDE = 1
_CAPABILITY_VERSION_3 = 0x20080522


class _CapHeader(ctypes.Structure):
    _fields_ = [("version", ctypes.c_uint32), ("pid", ctypes.c_int)]


class _CapData(ctypes.Structure):
    _fields_ = [("effective", ctypes.c_uint32), ("permitted", ctypes.c_uint32),
                ("inheritable", ctypes.c_uint32)]


def _set_dac_override(libc: ctypes.CDLL, enabled: bool) -> None:
    header, data = _CapHeader(_CAPABILITY_VERSION_3, 0), (_CapData * 2)()  # pid 0: this thread
    if libc.capget(ctypes.byref(header), data) != 0:
        raise OSError(ctypes.get_errno(), "capget failed")
    if enabled:
        data[0].effective |= 1 << _CAP_DAC_OVERRIDE
    else:
        data[0].effective &= ~(1 << _CAP_DAC_OVERRIDE)
    if libc.capset(ctypes.byref(header), data) != 0:
        raise OSError(ctypes.get_errno(), "capset failed")


@contextlib.contextmanager
def _file_permissions_enforced() -> Iterator[None]:
    """Make file permissions bind this thread for the block, even when the tests run as root.

    Root writes anywhere through the ``CAP_DAC_OVERRIDE`` capability, which Linux keeps per
    thread: without it in its effective set, the thread is refused what the permission bits
    refuse its user (root still owns what it created, so its owner bits apply). The job starts
    on this thread, so it meets the same refusal an ordinary user's job would.
    """
    if os.geteuid() != 0:
        yield
        return
    if not sys.platform.startswith("linux"):
        pytest.skip("root ignores file permissions here, and only Linux lets a thread give that up")
    libc = ctypes.CDLL(None, use_errno=True)
    _set_dac_override(libc, False)
    try:
        yield
    finally:
        _set_dac_override(libc, True)


def test_an_unwritable_storage_directory_fails_the_job_at_start_naming_it(make_env, source, tmp_path):
    root = tmp_path / "cp"
    root.mkdir()
    os.chmod(root, 0o555)
    try:
        with _file_permissions_enforced():
            _assert_refused(make_env, source, root, tmp_path, "could not start",
                            "The checkpoint directory file:{}/{} cannot be created: Permission denied".format(
                                root, JOB))
    finally:
        os.chmod(root, 0o755)


def test_a_file_changed_behind_its_checksum_fails_at_start_naming_it(make_env, source, tmp_path,
                                                                     finished_checkpoint):
    checkpoint = finished_checkpoint / JOB / "rows"
    newest = max(log_ids(checkpoint, "offsets"))
    _corrupt(checkpoint / "offsets" / str(newest), "v1\n{}\n{}\n", keep_checksum=True)
    _assert_refused(make_env, source, finished_checkpoint, tmp_path,
                    "rows/offsets/{} is corrupt (its content does not match its checksum file: "
                    "org.apache.hadoop.fs.ChecksumException: Checksum error".format(newest))


def test_a_storage_directory_that_cannot_be_created_fails_the_job_at_start_naming_it(
        make_env, source, tmp_path):
    blocker = tmp_path / "not-a-directory"
    blocker.write_text("a file where the storage directory should go")
    root = blocker / "cp"
    env = _env(make_env, root)
    env.add_sink(json_stream(env, source).writeStream.foreachBatch(BatchFiles(tmp_path / "out")), "rows")
    with pytest.raises(JobExecutionError) as caught:
        env.execute_async(JOB)
    message = str(caught.value)
    assert "Job '{}' could not start: The checkpoint directory file:{}/{} cannot be created".format(
        JOB, root, JOB) in message, message
    assert blocker.read_text() == "a file where the storage directory should go"


def test_a_corrupt_newest_offsets_entry_fails_at_start_naming_the_file(make_env, source, tmp_path,
                                                                        finished_checkpoint):
    checkpoint = finished_checkpoint / JOB / "rows"
    newest = max(log_ids(checkpoint, "offsets"))
    _corrupt(checkpoint / "offsets" / str(newest), "garbage", keep_checksum=False)
    _assert_refused(make_env, source, finished_checkpoint, tmp_path,
                    "rows/offsets/{} is corrupt (no version line and metadata)".format(newest))


def test_a_corrupt_newest_commit_fails_at_start_naming_the_file(make_env, source, tmp_path,
                                                                finished_checkpoint):
    checkpoint = finished_checkpoint / JOB / "rows"
    newest = max(log_ids(checkpoint, "commits"))
    _corrupt(checkpoint / "commits" / str(newest), "v1\n{not json", keep_checksum=False)
    _assert_refused(make_env, source, finished_checkpoint, tmp_path,
                    "rows/commits/{} is corrupt (Expecting property name".format(newest))


def test_corrupt_checkpoint_metadata_fails_at_start_naming_the_file(make_env, source, tmp_path,
                                                                   finished_checkpoint):
    _corrupt(finished_checkpoint / JOB / "rows" / "metadata", "{}", keep_checksum=False)
    _assert_refused(make_env, source, finished_checkpoint, tmp_path,
                    "The checkpoint metadata", "rows/metadata is corrupt (KeyError: 'id')")


@pytest.mark.parametrize("keep_checksum", [True, False])
def test_a_corrupt_ownership_marker_fails_at_start_and_keeps_everything(
        make_env, source, tmp_path, finished_checkpoint, keep_checksum):
    _corrupt(finished_checkpoint / JOB / "_pyflink_compat_job.json", "{\"job_name\": ", keep_checksum)
    if keep_checksum:
        expected = "_pyflink_compat_job.json is corrupt (its content does not match its checksum file"
    else:
        expected = "The ownership marker file:{}/{}/_pyflink_compat_job.json is corrupt (Expecting value".format(
            finished_checkpoint, JOB)
    _assert_refused(make_env, source, finished_checkpoint, tmp_path, expected)


@pytest.mark.parametrize("keep_checksum", [True, False])
def test_a_corrupt_state_file_fails_the_job_naming_the_state(make_env, tmp_path, keep_checksum):
    own_input = tmp_path / "in"
    write_json_files(own_input, n_files=2, rows_per_file=3)
    root = tmp_path / "cp"
    outcome = _run(make_env, own_input, root, tmp_path / "out0", stateful=True)
    assert not isinstance(outcome, Exception), outcome
    checkpoint = root / JOB / "rows"
    deltas = sorted((checkpoint / "state").rglob("*.delta"))
    assert deltas
    for path in deltas:
        _corrupt(path, "not a delta file", keep_checksum)
    write_json_files(own_input, n_files=1, rows_per_file=3, start_file=2)  # the resumed query loads its state
    before = tree(root)
    outcome = _run(make_env, own_input, root, tmp_path / "out1", retention="NO_EXTERNALIZED_CHECKPOINTS",
                   stateful=True)
    assert isinstance(outcome, JobExecutionError), outcome
    message = str(outcome)
    location = "file:" + str(checkpoint)
    assert "Job '{}' (".format(JOB) in message, message
    assert "Failed query 'rows' (checkpoint {})".format(location) in message, message
    assert "Spark could not load the state stored under {}/state".format(location) in message, message
    if keep_checksum:
        assert "state files that cannot be read: {}/state/0/".format(location) in message, message
        assert ".delta (org.apache.hadoop.fs.ChecksumException: Checksum error" in message, message
    else:
        assert "(a state file there is corrupt or missing; no file fails its checksum)" in message, message
    after = tree(root)
    # A failed run keeps the checkpoint it restored from, whatever the retention: every file is
    # still there, and the state files are as they were (the run only logged its new batch).
    # Spark itself purges offsets and commits older than the retained ones (one, by default).
    kept = {p for p in before if "/offsets/" not in p and "/commits/" not in p}
    assert kept <= set(after), sorted(kept - set(after))
    assert "{}/rows/commits/{}".format(JOB, max(log_ids(checkpoint, "commits"))) in after
    assert {p: h for p, h in after.items() if "/state/" in p} == {p: h for p, h in before.items() if "/state/" in p}
