"""The command line without a running job: the configuration it reads, how ``run`` starts a
program, the one tree of commands, and the exit codes and JSON of what is refused."""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
import time

import attrs
import pytest

from pyflink_compat.cli import main
from pyflink_compat.command_output import EXIT_CONFIGURATION, EXIT_FAILED, EXIT_OK
from pyflink_compat.job_commands import LEGACY_WARNING, RESTORE_MODE_WARNING, attached_outcome
from pyflink_compat.settings.config_file import ConfigFileError, flink_configuration, read_config_file
from pyflink_compat.spark.job_registry import JobRecord, JobRegistry, StatusChange
from tests._helpers.commands import REPO
from pyflink_compat.spark.job_submission import Submission, launch_command, program_failure


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


def test_help_lists_every_command(capsys):
    with pytest.raises(SystemExit) as done:
        main(["--help"])
    assert done.value.code == 0
    out = capsys.readouterr().out
    for command in ("run", "list", "info", "savepoint", "stop", "cancel", "checkpoints", "port"):
        assert re.search(r"^    {}\b".format(command), out, re.MULTILINE), command
    assert "31 the Flink configuration cannot be read" in out
    with pytest.raises(SystemExit):
        main(["checkpoints", "savepoint", "--help"])
    out = capsys.readouterr().out
    assert all(action in out for action in ("create", "restore", "dispose"))


@pytest.mark.parametrize("name", ["dispose", "create", "restore"])
def test_a_job_named_as_an_offline_savepoint_action_is_savepointed_by_name(tmp_path, capsys, monkeypatch, name):
    monkeypatch.delenv("FLINK_CONF_DIR", raising=False)
    code, out, _ = _run(["savepoint", name, "--json", "-D", "execution.checkpointing.dir=" + str(tmp_path)], capsys)
    # Flink's savepoint command looked the job up by name: there is none of that name here
    assert code == EXIT_FAILED and json.loads(out) == {
        "error": "No job with id or name '{}' is recorded. (checkpoint directory {})".format(name, tmp_path),
        "exit_code": 1, "reason": "no-job", "path": None}


def test_the_offline_savepoint_actions_are_under_checkpoints_only(tmp_path, capsys):
    code, out, _ = _run(["checkpoints", "savepoint", "dispose", str(tmp_path / "none"), "--json"], capsys)
    assert code == EXIT_FAILED and json.loads(out)["reason"] == "storage"
    code, _, err = _run(["savepoint", "dispose", str(tmp_path / "none"), "extra"], capsys)
    assert code == EXIT_FAILED and "unrecognized arguments: extra" in err


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
    assert code == EXIT_FAILED and "stop --drain is not supported: Spark cannot advance the watermark" in err
    code, _, err = _run(["list"], capsys)
    assert code == EXIT_FAILED and "No checkpoint directory is configured" in err
    code, out, _ = _run(["cancel", "nothing", "--json"] + storage, capsys)
    assert code == EXIT_FAILED and json.loads(out) == {
        "error": "No job with id or name 'nothing' is recorded. (checkpoint directory {})".format(tmp_path / "cp"),
        "exit_code": EXIT_FAILED, "reason": "no-job", "path": None}
    code, out, _ = _run(["list", "-a"] + storage, capsys)
    assert code == 0 and out.splitlines() == ["Waiting for response...", "No running jobs.", "No scheduled jobs."]
    code, out, _ = _run(["list", "-r"] + storage, capsys)
    assert code == 0 and out.splitlines() == ["Waiting for response...", "No running jobs."]
    code, _, err = _run(["run", "-d", "-D", "bad"], capsys)
    assert code == EXIT_FAILED and "-D takes key=value, got 'bad'" in err
    code, _, err = _run(["run", str(tmp_path / "missing.py")], capsys)
    assert code == EXIT_FAILED and "does not exist" in err
    code, _, err = _run(["savepoint", "-d", str(tmp_path / "none")], capsys)
    assert code == EXIT_FAILED and "does not exist" in err
    code, out, err = _run(["info", "--json"], capsys)  # a wrong command line: its usage, then the error
    assert code == EXIT_FAILED and "usage: pyflink-compat info" in err
    assert json.loads(out) == {"error": "pyflink-compat info: the following arguments are required: job",
                               "exit_code": EXIT_FAILED, "reason": "usage", "path": None}
    code, _, err = _run(["nonsense"], capsys)
    assert code == EXIT_FAILED and "invalid choice: 'nonsense'" in err


def test_a_configuration_directory_without_a_configuration_file_exits_31_as_flink_does(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("FLINK_CONF_DIR", str(tmp_path / "nowhere"))
    for argv in (["list"], ["run", "-d", "job.py"], ["cancel", "x"], ["savepoint", "x"]):
        code, _, err = _run(argv, capsys)
        assert code == EXIT_CONFIGURATION and "error: The configuration directory '{}', specified in the " \
            "'FLINK_CONF_DIR' environment variable, does not exist.".format(tmp_path / "nowhere") in err, argv
    monkeypatch.setenv("FLINK_CONF_DIR", str(tmp_path))
    code, out, _ = _run(["list", "--json"], capsys)
    assert code == EXIT_CONFIGURATION and json.loads(out) == {
        "error": "The Flink config file 'config.yaml' ({}) does not exist.".format(tmp_path / "config.yaml"),
        "exit_code": 31, "reason": "configuration", "path": str(tmp_path / "config.yaml")}
    (tmp_path / "config.yaml").write_text("execution:\n  checkpointing:\n    dir: 'file:///cp\n")
    code, _, err = _run(["list"], capsys)
    assert code == EXIT_CONFIGURATION and "config.yaml, line 3: a quote that is not closed" in err


@pytest.mark.parametrize("text, line, why", [
    ("execution:\n  checkpointing:\n    dir: \"file:///cp   # the storage\n", 3, "a quote that is not closed"),
    ("a: 'it''s\nb: 1\n", 1, "a quote that is not closed"),
    ("execution:\n\tcheckpointing:\n", 2, "a tab in the indentation"),
    ("execution:\n  checkpointing:\n  \t  dir: /cp\n", 3, "a tab in the indentation"),
    ("python:\n  files:\n    - 'x.py\n", 3, "a quote that is not closed"),
])
def test_malformed_yaml_is_refused_with_its_line(tmp_path, text, line, why):
    (tmp_path / "config.yaml").write_text(text)
    with pytest.raises(ConfigFileError, match="config.yaml, line {}: {}".format(line, why)):
        flink_configuration({}, {"FLINK_CONF_DIR": str(tmp_path)})


def test_quotes_and_tabs_yaml_allows_are_read(tmp_path):
    (tmp_path / "config.yaml").write_text("a: 'it''s'\nb: \"say \\\"hi\\\"\"\nc: x\ty\n")
    assert flink_configuration({}, {"FLINK_CONF_DIR": str(tmp_path)}) == {"a": "it's", "b": 'say "hi"', "c": "x\ty"}


@pytest.mark.parametrize("option", [["--claimMode", "LEGACY"], ["-cm", "legacy"], ["-rm", "LEGACY"]])
def test_the_legacy_claim_mode_is_accepted_with_flinks_warning_and_reaches_the_job(tmp_path, capsys, option,
                                                                                     monkeypatch):
    monkeypatch.delenv("FLINK_CONF_DIR", raising=False)
    program = tmp_path / "shows.py"
    program.write_text("import os, sys\nsys.exit(0 if 'claim-mode=LEGACY' in os.environ['PYSPARK_SUBMIT_ARGS'] "
                       "else 5)\n")
    code, out, _ = _run(["run", "-s", str(tmp_path / "sp"), *option, "-py", str(program)], capsys)
    warnings = ([RESTORE_MODE_WARNING] if option[0] == "-rm" else []) + [LEGACY_WARNING]
    assert code == EXIT_OK and out.splitlines() == warnings
    code, _, err = _run(["run", "-cm", "SOMETIMES", "-py", str(program)], capsys)
    assert code == EXIT_FAILED and "'SOMETIMES' is not a claim mode" in err


def test_run_s_tells_the_job_its_restore_path_was_given_on_the_command_line(tmp_path, capsys, monkeypatch):
    # a path given with -s is a rollback: the job restores from it whatever its checkpoints hold
    monkeypatch.delenv("FLINK_CONF_DIR", raising=False)
    program = tmp_path / "shows.py"
    program.write_text("import os, sys\nargs = os.environ['PYSPARK_SUBMIT_ARGS']\n"
                       "sys.exit(0 if ('given_restore_path=' + sys.argv[1]) in args else 5)\n")
    code, _, _ = _run(["run", "-s", str(tmp_path / "sp"), "-py", str(program), str(tmp_path / "sp")], capsys)
    assert code == EXIT_OK
    # a restore path the configuration keeps (here -D, which wins over -s) is a deployment's, not given
    code, _, _ = _run(["run", "-s", str(tmp_path / "sp"), "-D", "execution.state-recovery.path=/elsewhere",
                       "-py", str(program), "/elsewhere"], capsys)
    assert code == EXIT_FAILED


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


def test_the_error_a_program_ended_with_is_read_from_the_end_of_its_output(tmp_path):
    log = tmp_path / "job.log"
    log.write_text("starting\nTraceback (most recent call last):\n  File \"job.py\", line 3, in <module>\n"
                   "    env.execute()\npyflink_compat.util.exceptions.JobExecutionError: An error occurred while "
                   "calling o1.execute.\n: java.lang.RuntimeException: Job 'orders' could not start: no\n")
    assert program_failure(str(log)) == ("JobExecutionError: An error occurred while calling o1.execute. : "
                                         "java.lang.RuntimeException: Job 'orders' could not start: no")
    log.write_text("all went well\n")
    assert program_failure(str(log)) is None
    assert program_failure(str(tmp_path / "none.log")) is None


def test_a_command_run_by_an_account_that_may_not_read_the_storage_says_so_without_a_traceback(tmp_path):
    storage = tmp_path / "cp"
    (storage / ".pyflink_compat_jobs").mkdir(parents=True)
    env = dict(os.environ, PYTHONPATH=REPO)
    env.pop("FLINK_CONF_DIR", None)
    storage.chmod(0)
    # as root, without the capabilities that let root read what its permissions refuse (its
    # Python and packages stay readable, whoever owns the environment they are in)
    account = ["setpriv", "--bounding-set=-dac_override,-dac_read_search"] if os.geteuid() == 0 else []
    try:
        for argv in (["list"], ["cancel", "orders"], ["savepoint", "orders"]):
            done = subprocess.run(account + [sys.executable, "-m", "pyflink_compat.cli", *argv, "--json",
                                             "-D", "execution.checkpointing.dir=" + str(storage)],
                                  env=env, capture_output=True, text=True, timeout=60)
            failure = json.loads(done.stdout)
            assert done.returncode == 1 and failure["reason"] == "permission", (done.stdout, done.stderr)
            assert failure["error"].startswith("Permission denied: " + str(storage)) and "Traceback" not in done.stderr
    finally:
        storage.chmod(0o700)


def test_info_by_name_shows_the_newest_run_once_every_run_of_that_name_has_ended(tmp_path, capsys, monkeypatch):
    monkeypatch.delenv("FLINK_CONF_DIR", raising=False)
    registry = JobRegistry(str(tmp_path))
    now = time.time()
    for job_id, started in ((A, now - 20), (B, now - 10)):
        registry.write(attrs.evolve(_ended(job_id, "CANCELED", ended=started + 5), started=started,
                                    storage_dir=str(tmp_path)))
    storage = ["-D", "execution.checkpointing.dir=" + str(tmp_path), "--json"]
    code, out, _ = _run(["info", "orders"] + storage, capsys)
    assert code == EXIT_OK and json.loads(out)["job_id"] == B
    code, out, _ = _run(["cancel", "orders"] + storage, capsys)  # a request needs the one that runs
    assert code == EXIT_FAILED and "Several jobs are named 'orders'" in json.loads(out)["error"]
