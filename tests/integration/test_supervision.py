"""How much a running job's supervisor talks to the JVM (a count of py4j commands)."""

from __future__ import annotations

import time

import pytest

from tests._helpers.files import write_json_files
from tests._helpers.jobs import start_unbounded_job, wait_for_commits
from tests._helpers.py4j_commands import sent_commands


def test_the_supervisor_of_a_quiet_job_backs_off(make_env, tmp_path):
    client = start_unbounded_job(make_env, tmp_path, "quiet-job", "quiet")
    time.sleep(2.5)  # past the start-up window and the back-off
    with sent_commands("pyflink_compat-job") as sent:  # the supervising thread's
        time.sleep(4.0)
    # At most a poll a second of at most four commands (plus a status read every five
    # seconds); polling every 100 ms would send over a hundred.
    assert 0 < len(sent) <= 30, sent
    # and it still notices what happens: new input is committed and reported
    write_json_files(tmp_path / "in", n_files=1, rows_per_file=2, start_file=1)
    wait_for_commits(tmp_path / "cp" / "quiet-job" / "quiet", count=2)
    assert client.cancel().result(60) is None


@pytest.mark.parametrize("through_hadoop", [False, True], ids=["local-from-python", "through-hadoop"])
def test_the_per_batch_check_finds_a_commit_only_with_the_checkpoints_metadata(spark, tmp_path, through_hadoop):
    from pyflink_compat.checkpoints.file_access_hadoop import HadoopFileAccess
    from pyflink_compat.spark.ownership import JobOwnership

    sink = tmp_path / "job" / "rows"
    (sink / "commits").mkdir(parents=True)
    (sink / "commits" / "3").write_text("v1\n{}\n")
    (sink / "metadata").write_text('{"id":"q"}\n')
    access = HadoopFileAccess(spark) if through_hadoop else None
    dirs = JobOwnership(spark, "file:" + str(tmp_path / "job"), "job", access)
    assert dirs.holds_commit("rows", 3)  # the file system is opened on first use
    with sent_commands() as sent:
        assert dirs.holds_commit("rows", 3)
    # on local storage no JVM call per batch; through Hadoop, a path and a status per file
    assert len(sent) == (4 if through_hadoop else 0), sent
    assert not dirs.holds_commit("rows", 4)
    (sink / "metadata").unlink()
    assert not dirs.holds_commit("rows", 3)
    assert not dirs.holds_commit("other", 3)
