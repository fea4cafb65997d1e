"""The Flink-shaped commands without a running job: the configuration they read, how ``run``
starts a program, which command a command line is, and the exit codes of what is refused."""

from __future__ import annotations

import json
import shlex

import attrs
import pytest

from pyflink_compat.cli import main
from pyflink_compat.job_commands import EXIT_FAILED, EXIT_NO_JOB, EXIT_OK, EXIT_USAGE, attached_outcome, is_job_command
from pyflink_compat.settings.config_file import ConfigFileError, flink_configuration, read_config_file
from pyflink_compat.spark.job_registry import JobRecord, StatusChange
from pyflink_compat.spark.job_submission import Submission, launch_command


def test_config_yaml_nested_keys_lists_quotes_and_comments_are_read_as_flink_reads_them(tmp_path):
    (tmp_path / "config.yaml").write_text(
        "# cluster defaults\n"
        "execution:\n"
        "  checkpointing:\n"
        "    dir: file:///data/cp   # shared storage\n"
        "    interval: 10 s\n"
        "state.savepoints.dir: 's3a://bucket/sp'\n"
        "pipeline:\n"
        "  jars: [a.jar, b.jar]\n"
        "python:\n"
        "  files:\n"
        "    - x.py\n"
        "    - y.py\n"
        "name: \"a # not a comment\"\n")
    (tmp_path / "flink-conf.yaml").write_text("ignored: when config.yaml exists\n")
    found = flink_configuration({"execution.checkpointing.interval": "1 s"}, {"FLINK_CONF_DIR": str(tmp_path)})
    assert found == {"execution.checkpointing.dir": "file:///data/cp", "execution.checkpointing.interval": "1 s",
                     "state.savepoints.dir": "s3a://bucket/sp", "pipeline.jars": "a.jar;b.jar",
                     "python.files": "x.py;y.py", "name": "a # not a comment"}


def test_the_legacy_flink_conf_yaml_is_read_when_there_is_no_config_yaml(tmp_path):
    (tmp_path / "flink-conf.yaml").write_text("state.checkpoints.dir: hdfs://nn:8020/cp\n"
                                              "# comment\nparallelism.default: 4\n")
    assert flink_configuration({}, {"FLINK_CONF_DIR": str(tmp_path)}) == {
        "state.checkpoints.dir": "hdfs://nn:8020/cp", "parallelism.default": "4"}
    assert flink_configuration({"a": "b"}, {}) == {"a": "b"}
    (tmp_path / "flink-conf.yaml").write_text("no colon here\n")
    with pytest.raises(ConfigFileError, match="line 1: expected 'key: value'"):
        read_config_file(str(tmp_path / "flink-conf.yaml"))


@pytest.mark.parametrize("argv, theirs", [
    (["run", "job.py"], True), (["list"], True), (["info", "x"], True), (["stop", "x"], True),
    (["cancel", "x"], True), (["savepoint", "abc"], True), (["savepoint", "-d", "/sp"], True),
    (["savepoint", "create", "a", "b"], False), (["savepoint", "dispose", "p"], False),
    (["savepoint", "restore", "a", "b"], False), (["checkpoints", "list", "d"], False), ([], False),
])
def test_savepoint_job_and_the_savepoint_actions_are_told_apart_by_their_first_word(argv, theirs):
    assert is_job_command(argv) is theirs


def test_run_passes_the_options_as_spark_flink_confs_locally_and_through_spark_submit():
    submission = Submission("/jobs/job.py", ("--in", "a b"), {"execution.checkpointing.dir": "file:///cp x"},
                            submission_id="s1", python="/py")
    command, env = launch_command(submission, {"PYSPARK_SUBMIT_ARGS": "--master local[2] pyspark-shell"})
    assert command == ["/py", "/jobs/job.py", "--in", "a b"]
    assert shlex.split(env["PYSPARK_SUBMIT_ARGS"]) == [
        "--conf", "spark.flink.execution.checkpointing.dir=file:///cp x",
        "--conf", "spark.pyflink_compat.submission=s1", "--master", "local[2]", "pyspark-shell"]
    remote = Submission("/jobs/job.py", (), {"parallelism.default": "3"}, "spark://host:7077", "s2", "/py")
    command, env = launch_command(remote, {"SPARK_HOME": "/spark"})
    assert command == ["/spark/bin/spark-submit", "--master", "spark://host:7077",
                       "--conf", "spark.flink.parallelism.default=3", "--conf", "spark.pyflink_compat.submission=s2",
                       "/jobs/job.py"]
    assert env["PYSPARK_PYTHON"] == "/py" and "PYSPARK_SUBMIT_ARGS" not in env


def _run(argv, capsys):
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def test_refused_commands_say_why_with_their_exit_code(tmp_path, capsys, monkeypatch):
    monkeypatch.delenv("FLINK_CONF_DIR", raising=False)
    storage = ["-D", "execution.checkpointing.dir=" + str(tmp_path / "cp")]
    code, _, err = _run(["stop", "--drain", "job"] + storage, capsys)
    assert code == EXIT_USAGE and "stop --drain is not supported: Spark cannot advance the watermark" in err
    code, _, err = _run(["list"], capsys)
    assert code == EXIT_NO_JOB and "No checkpoint directory is configured" in err
    code, out, _ = _run(["cancel", "nothing", "--json"] + storage, capsys)
    assert code == EXIT_NO_JOB and json.loads(out) == {
        "error": "No job with id or name 'nothing' is recorded. (checkpoint directory {})".format(tmp_path / "cp"),
        "exit_code": EXIT_NO_JOB}
    code, out, _ = _run(["list", "-a"] + storage, capsys)
    assert code == 0 and out.splitlines() == ["No running jobs.", "No terminated jobs."]
    code, _, err = _run(["run", "-d", "-D", "bad"], capsys)
    assert code == EXIT_USAGE and "-D takes key=value, got 'bad'" in err
    code, _, err = _run(["run", str(tmp_path / "missing.py")], capsys)
    assert code == EXIT_USAGE and "does not exist" in err
    code, _, err = _run(["savepoint", "-d", str(tmp_path / "none")], capsys)
    assert code == EXIT_FAILED and "does not exist" in err


def test_a_failing_job_program_run_attached_gives_exit_code_1(tmp_path, capsys):
    program = tmp_path / "fails.py"
    program.write_text("import sys\nsys.exit(3)\n")
    code, out, _ = _run(["run", "--json", "-py", str(program)], capsys)
    assert code == EXIT_FAILED and json.loads(out)["exit_code"] == 3


def _ended(job_id, status, ended=12.5, error=None):
    return JobRecord(job_id=job_id, name="orders", status=status, history=(StatusChange(status, 10.0),), host="h",
                     pid=1, pid_start=None, started=10.0, heartbeat=12.0, heartbeat_every=1.0, storage_dir="/cp",
                     ended=ended, error=error)


A, B = "a" * 32, "b" * 32
FINISHED_A = ["Program execution finished", "Job with JobID {} has finished.".format(A), "Job Runtime: 2500 ms"]


@pytest.mark.parametrize("exit_code, records, code, lines", [
    (0, [_ended(A, "FINISHED")], EXIT_OK, FINISHED_A),
    (0, [], EXIT_OK, []),  # a program without a job, or without a checkpoint directory to find it in
    (0, [_ended(A, "CANCELED")], EXIT_FAILED, ["Job {} (orders) ended CANCELED.".format(A)]),
    (1, [_ended(A, "FAILED", error="boom")], EXIT_FAILED,
     ["Job {} (orders) ended FAILED: boom.".format(A), "The job program ended with exit code 1."]),
    (-9, [attrs.evolve(_ended(A, "RUNNING"), ended=None)], EXIT_FAILED,
     ["Job {} (orders) did not record its end (last status RUNNING).".format(A),
      "The job program ended with exit code -9."]),
    (0, [_ended(A, "FINISHED"), _ended(B, "SUSPENDED")], EXIT_FAILED,
     FINISHED_A + ["Job {} (orders) ended SUSPENDED.".format(B)]),
    (3, [], EXIT_FAILED, ["The job program ended with exit code 3."]),
])
def test_an_attached_run_succeeds_when_the_program_did_and_each_of_its_jobs_finished(exit_code, records, code, lines):
    assert attached_outcome(exit_code, records) == (code, lines)
