"""What happens to a job's checkpoints when it ends, by Flink's retention rules, and what the
clean-up never touches."""

from __future__ import annotations

import logging

import pytest

from pyflink_compat.common import JobStatus
from pyflink_compat.datastream import ExternalizedCheckpointRetention
from pyflink_compat.spark.supervisor import job_run
from pyflink_compat.util.exceptions import JobExecutionError

from tests._helpers.files import file_uri, log_ids, write_json_files
from tests._helpers.jobs import INTERVAL_MS, BatchFiles, json_stream, run_to_end, wait_for_commits

R = ExternalizedCheckpointRetention

#: Flink's rules: is the checkpoint kept when the job ends this way?
KEPT = {
    ("RETAIN_ON_CANCELLATION", "cancel"): True,
    ("RETAIN_ON_CANCELLATION", "fail"): True,
    ("RETAIN_ON_CANCELLATION", "finish"): True,
    ("DELETE_ON_CANCELLATION", "cancel"): False,
    ("DELETE_ON_CANCELLATION", "fail"): True,
    ("DELETE_ON_CANCELLATION", "finish"): False,
    ("NO_EXTERNALIZED_CHECKPOINTS", "cancel"): False,
    ("NO_EXTERNALIZED_CHECKPOINTS", "fail"): False,
    ("NO_EXTERNALIZED_CHECKPOINTS", "finish"): False,
}
END_STATUS = {"cancel": JobStatus.CANCELED, "fail": JobStatus.FAILED, "finish": JobStatus.FINISHED}


class InjectedFailure(RuntimeError):
    pass


@pytest.fixture(scope="module")
def retention_input(tmp_path_factory):
    directory = tmp_path_factory.mktemp("retention_in")
    write_json_files(directory, n_files=2, rows_per_file=3)
    return directory


def _fail_from_batch_one(batch_id):
    if batch_id >= 1:
        raise InjectedFailure("injected failure in batch {}".format(batch_id))


def _run_job(make_env, source, root, job, retention, ending, out):
    env = make_env({"restart-strategy.type": "none"})
    env.enable_checkpointing(INTERVAL_MS)
    env.get_checkpoint_config().set_checkpoint_storage_dir(file_uri(root))
    env.get_checkpoint_config().set_externalized_checkpoint_retention(R[retention])
    sink = BatchFiles(out, fail=_fail_from_batch_one if ending == "fail" else None)
    env.add_sink(json_stream(env, source).writeStream.foreachBatch(sink), "rows",
                 bounded=(ending == "finish"))
    client = env.execute_async(job)
    checkpoint = root / job / "rows"
    if ending == "cancel":
        wait_for_commits(checkpoint)
        client.cancel().result(60)
    outcome = run_to_end(client)
    return client, outcome


@pytest.mark.parametrize("ending", ["cancel", "fail", "finish"])
@pytest.mark.parametrize("retention", ["RETAIN_ON_CANCELLATION", "DELETE_ON_CANCELLATION",
                                       "NO_EXTERNALIZED_CHECKPOINTS"])
def test_checkpoints_are_kept_or_deleted_by_flinks_retention_rules(
        make_env, retention_input, tmp_path, retention, ending):
    root = tmp_path / "cp"
    client, outcome = _run_job(make_env, retention_input, root, "retention-job", retention, ending,
                               tmp_path / "out")
    assert client.get_job_status().result() is END_STATUS[ending]
    if ending == "fail":
        assert isinstance(outcome, JobExecutionError)
        assert "injected failure in batch 1" in str(outcome.__cause__)
    else:
        assert not isinstance(outcome, Exception), outcome
    checkpoint = root / "retention-job" / "rows"
    if KEPT[(retention, ending)]:
        assert (checkpoint / "metadata").is_file()
        assert 0 in log_ids(checkpoint, "commits")
    else:
        assert not checkpoint.exists()
        assert not (root / "retention-job").exists()
    assert root.is_dir()  # the storage directory itself is never deleted


def test_clean_up_never_touches_unrelated_files_under_the_storage_dir(make_env, retention_input, tmp_path):
    root = tmp_path / "cp"
    unrelated = [root / "unrelated.txt", root / "other-job" / "sink" / "metadata",
                 root / "retention-job" / "notes.txt"]
    for path in unrelated:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("not the job's")
    client, outcome = _run_job(make_env, retention_input, root, "retention-job",
                               "NO_EXTERNALIZED_CHECKPOINTS", "finish", tmp_path / "out")
    assert not isinstance(outcome, Exception), outcome
    assert not (root / "retention-job" / "rows").exists()  # the job's own checkpoint went
    for path in unrelated:
        assert path.read_text() == "not the job's"


def test_names_that_used_to_share_a_directory_get_one_each(make_env, retention_input, tmp_path):
    root = tmp_path / "cp"
    first, outcome = _run_job(make_env, retention_input, root, "team/etl", "RETAIN_ON_CANCELLATION",
                              "finish", tmp_path / "out")
    assert not isinstance(outcome, Exception), outcome
    marker_before = (root / "team%2Fetl" / "_pyflink_compat_job.json").read_text()
    second, outcome = _run_job(make_env, retention_input, root, "team_etl", "NO_EXTERNALIZED_CHECKPOINTS",
                               "finish", tmp_path / "out2")
    assert not isinstance(outcome, Exception), outcome
    assert (root / "team%2Fetl" / "_pyflink_compat_job.json").read_text() == marker_before
    assert (root / "team%2Fetl" / "rows" / "metadata").is_file()
    assert not (root / "team_etl").exists()  # the second job's own checkpoint, deleted


def test_a_pre_existing_checkpoint_the_job_did_not_create_is_kept_with_the_reason(
        make_env, retention_input, tmp_path, caplog):
    caplog.set_level(logging.INFO, logger="pyflink_compat")
    root = tmp_path / "cp"
    # Someone else's query checkpointed at exactly <root>/<job>/<sink> before the job ran.
    other = make_env()
    other.enable_checkpointing(INTERVAL_MS)
    other.get_checkpoint_config().set_checkpoint_storage_dir(file_uri(root))
    writer = other.configure_writer(json_stream(other, retention_input).writeStream.format("noop"),
                                    "rows", job_name="retention-job")
    query = writer.start()
    wait_for_commits(root / "retention-job" / "rows")
    query.stop()
    before = log_ids(root / "retention-job" / "rows", "commits")

    client, outcome = _run_job(make_env, retention_input, root, "retention-job",
                               "NO_EXTERNALIZED_CHECKPOINTS", "cancel", tmp_path / "out")
    assert not isinstance(outcome, Exception), outcome
    checkpoint = root / "retention-job" / "rows"
    assert (checkpoint / "metadata").is_file()
    assert log_ids(checkpoint, "commits")[:len(before)] == before
    run = job_run(client)
    assert any("rows" in reason and "not created by this job" in reason for reason in run.kept)
    assert "not created by this job" in caplog.text


def test_a_checkpoint_replaced_since_the_job_created_it_is_kept(make_env, retention_input, tmp_path):
    root = tmp_path / "cp"
    checkpoint = root / "retention-job" / "rows"
    _run_job(make_env, retention_input, root, "retention-job", "RETAIN_ON_CANCELLATION", "finish",
             tmp_path / "out1")
    assert (checkpoint / "metadata").is_file()
    # Between runs, the directory is replaced by another query's checkpoint (a new query id).
    import shutil

    shutil.rmtree(checkpoint)
    other = make_env()
    other.enable_checkpointing(INTERVAL_MS)
    other.get_checkpoint_config().set_checkpoint_storage_dir(file_uri(root))
    query = other.configure_writer(json_stream(other, retention_input).writeStream.format("noop"),
                                   "rows", job_name="retention-job").start()
    wait_for_commits(checkpoint)
    query.stop()
    replaced_id = (checkpoint / "metadata").read_text()

    client, outcome = _run_job(make_env, retention_input, root, "retention-job",
                               "NO_EXTERNALIZED_CHECKPOINTS", "finish", tmp_path / "out2")
    assert not isinstance(outcome, Exception), outcome
    assert (checkpoint / "metadata").read_text() == replaced_id
    assert any("does not match" in reason for reason in job_run(client).kept)
